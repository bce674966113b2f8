// A binding between a reference with no value and a composite part (`bind a.hb = t.hb;`) makes them one
// object whichever end is read first. Read part-first, the reference's "no value" (found with the binding
// back to the part skipped) was kept for both: `evaluate` listed the part itself as having no value.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder } from './ask-json';
import { buildIfMissing } from './built';

const MODEL = `package BO {
  part def HB;
  part def A { attribute q = 1; }
  part sys {
    part t { part hb : HB; }
    part a { ref hb : HB; }
    bind a.hb = t.hb;
  }
  part sys2 {
    part a { ref hb : HB; }
    part t { part hb : HB; }
    bind a.hb = t.hb;
  }
  part def Pair { part p1 : A; part p2 : A; binding bind p1 = p2; }
  part def Tank { attribute level : ScalarValues::Real; }
  part tanks {
    part t1 : Tank { attribute :>> level = 2.0; }
    part t2 : Tank;
    bind t2.level = t1.level;
    attribute total = t1.level + t2.level;
  }
}
`;

describe('cli: the ends of a binding read the same whichever is read first', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js'));
  const { model } = modelFolder('assay-binding-order-');

  it('a reference bound to a composite part: no "no value" for either, in either order of declaration', () => {
    const file = model('bo.sysml', MODEL);
    for (const subject of ['BO::sys', 'BO::sys2']) {
      const r = askJson('evaluate', subject, '--model', file);
      assert.equal(r.code, 0, JSON.stringify(r.answer));
      assert.doesNotMatch(r.answer.result?.reason ?? '', /no value/, subject);
      const same = askJson('evaluate', subject, '--model', file, '--condition', 'c=a.hb === t.hb');
      assert.deepEqual(same.answer.result?.values, [{ name: 'c', value: true }], subject);
    }
  });

  it('two composite parts bound to each other are one object', () => {
    const r = askJson('evaluate', 'BO::Pair', '--model', model('bo.sysml', MODEL), '--condition', 'c=p1 === p2');
    assert.deepEqual(r.answer.result?.values, [{ name: 'c', value: true }], JSON.stringify(r.answer));
  });

  it('an attribute read through a binding, after the other end was read: 2 + 2 (it said t2.level has no value)', () => {
    const r = askJson('evaluate', 'BO::tanks::total', '--model', model('bo.sysml', MODEL));
    assert.deepEqual(r.answer.result?.values, [{ name: 'total', value: 4 }], JSON.stringify(r.answer));
  });
});
