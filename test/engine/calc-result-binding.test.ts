// `bind result = x;` in a calc body gives the calc's result (SysML 8.3.12, 8.3.16), through the engine
// process; a second binding of the result, or one beside a return, stays refused.
import assert from 'node:assert/strict';
import { modelText, question, suiteEngine } from './engine-process';

const MODEL = `package B {
  calc def Twice { in x : ScalarValues::Integer; attribute y = 2 * x; bind result = y; }
  calc def Reverse { in x : ScalarValues::Integer; bind x = result; }
  calc def Both { in x : ScalarValues::Integer; return r = x; bind result = x; }
  calc def Two { in x : ScalarValues::Integer; in z : ScalarValues::Integer; bind result = x; bind result = z; }
  attribute t = Twice(4);
  attribute r = Reverse(12);
  attribute both = Both(3);
  attribute two = Two(3, 4);
}`;

describe('calc result bound by a binding connector', function () {
  this.timeout(30000);
  const engine = suiteEngine();
  const ask = (subject: string) => engine.run(question('evaluate', subject), modelText('b.sysml', MODEL));

  const firstValue = async (subject: string) => ((await ask(subject)).result as { values?: { value: unknown }[] } | undefined)?.values?.[0]?.value;

  it('reads the bound end: Twice(4) = y = 2 * 4 = 8; Reverse(12) = 12', async () => {
    assert.equal(await firstValue('B::t'), 8);
    assert.equal(await firstValue('B::r'), 12);
  });

  it('refuses a result binding beside a return, and two bindings of the result', async () => {
    assert.match(String((await ask('B::both')).error?.message), /^b\.sysml:4:\d+: Both: a binding connector is not supported in a calc/);
    assert.match(String((await ask('B::two')).error?.message), /^b\.sysml:5:\d+: Two: a binding connector is not supported in a calc/);
  });
});
