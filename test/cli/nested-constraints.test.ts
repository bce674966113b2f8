// A part's nested parts assert constraints that hold in every instance of the part: `evaluate` of the
// part checks them too, naming each by its path (`eng.lim`, `wheels#(2).okD`). It answered the part's
// values (or its own constraints) at proved, saying nothing of a nested constraint that is false.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder } from './ask-json';
import { buildIfMissing } from './built';

const MODEL = `package N {
  part def Wheel { attribute d : ScalarValues::Real; assert constraint okD { d > 0.3 } }
  part def Engine { attribute p : ScalarValues::Real; assert constraint lim { p > 10 } }
  part v {
    attribute m = 3;
    part eng { attribute p = 5; assert constraint lim { p > 10 } }
    assert constraint own { m > 1 }
  }
  part car {
    part wheels : Wheel[2] { attribute :>> d = 0.5; }
    part eng : Engine { attribute :>> p = 12; }
  }
  part car2 {
    part wheels : Wheel[2];
    part spare : Wheel { attribute :>> d = 0.2; }
  }
  part car3 { part eng : Engine[1..3] { attribute :>> p = 1; } }
  part car4 { attribute m = 1; part inner { part deep { attribute q = 1; assert constraint c { q > 2 } } } }
  part car5 { part wheels : Wheel[2]; }
}
`;

describe('cli: evaluate of a part checks its nested parts\' asserted constraints', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js'));
  const { model } = modelFolder('assay-nested-');

  it('a false constraint of a nested part makes the part violate it, beside its own that holds', () => {
    const r = askJson('evaluate', 'N::v', '--model', model('n.sysml', MODEL));
    assert.equal(r.code, 0);
    assert.deepEqual(r.answer.result?.values, [{ name: 'own', value: true }, { name: 'eng.lim', value: false }]);
    assert.match(r.answer.result?.reason ?? '', /^v violates a constraint: eng\.lim: p > 10 is false \(.*n\.sysml:6:/);
    const deep = askJson('evaluate', 'N::car4', '--model', model('n.sysml', MODEL));
    assert.deepEqual(deep.answer.result?.values, [{ name: 'inner.deep.c', value: false }]);
  });

  it('several parts are checked one by one; all holding says so', () => {
    const r = askJson('evaluate', 'N::car', '--model', model('n.sysml', MODEL));
    assert.deepEqual(r.answer.result?.values, [{ name: 'wheels#(1).okD', value: true }, { name: 'wheels#(2).okD', value: true }, { name: 'eng.lim', value: true }]);
    assert.equal(r.answer.result?.reason, 'car: all 3 constraints hold');
  });

  it('a nested constraint over a feature without a value is named as not checked, never as holding', () => {
    const r = askJson('evaluate', 'N::car2', '--model', model('n.sysml', MODEL));
    assert.deepEqual(r.answer.result?.values, [{ name: 'spare.okD', value: false }]);
    assert.match(r.answer.result?.reason ?? '', /not checked, for want of a value: wheels#\(1\)\.okD \('car2\.wheels#1\.d' has no value\); wheels#\(2\)\.okD/);
    // None checkable: the part's values, with the note.
    const none = askJson('evaluate', 'N::car5', '--model', model('n.sysml', MODEL));
    assert.equal(none.code, 0);
    assert.match(none.answer.result?.reason ?? '', /^car5: .*not checked, for want of a value: wheels#\(1\)\.okD/);
  });

  it('a nested part whose number is not fixed while it asserts something is refused, naming it', () => {
    const r = askJson('evaluate', 'N::car3', '--model', model('n.sysml', MODEL));
    assert.equal(r.code, 3);
    assert.match(r.answer.error?.message ?? '', /n\.sysml:\d+:\d+: 'car3\.eng' has between 1 and 3 values/);
  });
});
