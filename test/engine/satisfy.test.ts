// `[assert] [not] satisfy R by p;` in a context part is a satisfaction check of `evaluate <context>`
// (SysML 7.20.7, 8.3.21): R evaluated with its subject bound to p. Through the real engine process.
import assert from 'node:assert/strict';
import { modelText, question, suiteEngine } from './engine-process';

const MODEL = `package S {
  private import ScalarValues::Real;
  part def Lander { attribute verticalSpeed : Real; }
  requirement def Touchdown {
    subject lander : Lander;
    attribute maxVerticalSpeed : Real;
    require constraint { lander.verticalSpeed <= maxVerticalSpeed }
  }
  requirement touchdown : Touchdown { attribute :>> maxVerticalSpeed = 1.5; }
  requirement documented { doc /* prose only */ }
  part slow : Lander { attribute :>> verticalSpeed = 1.2; }
  part fast : Lander { attribute :>> verticalSpeed = 2.4; }
  part context {
    satisfy touchdown by slow;
    assert satisfy touchdown by fast;
    assert not satisfy touchdown by fast;
  }
  part proseOnly { satisfy documented by slow; }
  part def Holder { requirement inner { require constraint { true } } }
  part nested { satisfy Holder::inner by slow; }
}`;

describe('satisfy … by … as a check (evaluate of the context)', function () {
  this.timeout(30000);
  const engine = suiteEngine();
  const ask = (kind: string, subject: string) => engine.run(question(kind, subject), modelText('s.sysml', MODEL));

  it('gives one verdict per assertion: 1.2 <= 1.5 holds, 2.4 <= 1.5 does not, and `not` inverts it', async () => {
    const r = await ask('evaluate', 'S::context');
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.deepEqual(r.result!.values, [
      { name: 'satisfy touchdown by slow', value: true },
      { name: 'satisfy touchdown by fast', value: false },
      { name: 'not satisfy touchdown by fast', value: true },
    ]);
    assert.match(String(r.result!.reason), /violates a constraint: satisfy touchdown by fast: /);
  });

  it('refuses a requirement without a condition, one declared inside a definition, and satisfiable of the context', async () => {
    const prose = await ask('evaluate', 'S::proseOnly');
    assert.match(String(prose.error?.message), /^s\.sysml:\d+:\d+: satisfy documented by slow: documented states no condition/);
    const nested = await ask('evaluate', 'S::nested');
    assert.match(String(nested.error?.message), /^s\.sysml:\d+:\d+: satisfy Holder::inner by slow: S::Holder::inner is declared inside 'Holder'/);
    const solve = await ask('satisfiable', 'S::context');
    assert.match(String(solve.error?.message), /s\.sysml:\d+:\d+: a satisfy assertion is not supported by satisfiable \(evaluate checks it\)/);
  });
});
