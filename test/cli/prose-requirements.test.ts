// A requirement that states its condition in prose only (a doc comment, no require, assume or nested
// requirement) carries no verdict the engine can check: evaluate and satisfiable refuse it, naming it,
// as satisfy already did. KerML would make it vacuously true, which read as "checked, holds" at proved
// while the text said the 2500 kg vehicle is too heavy.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder } from './ask-json';
import { buildIfMissing } from './built';

const MODEL = `package Pr {
  requirement def MaxMass { doc /* The vehicle mass shall not exceed 2000 kg. */ }
  requirement def RealMax { attribute m : ScalarValues::Real; require constraint { m <= 2000.0 } }
  requirement massReq : MaxMass;
  requirement emptyReq;
  requirement realReq : RealMax { attribute :>> m = 2500.0; }
  requirement def Sub :> RealMax;
  requirement subReq : Sub { attribute :>> m = 100.0; }
}
`;

describe('cli: a requirement stated in prose only is refused, not vacuously true', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js'));
  const { model } = modelFolder('assay-prose-');

  it('evaluate and satisfiable of a requirement with no condition (own or inherited): exit 3, naming it at file:line:col', () => {
    const file = model('prose.sysml', MODEL);
    for (const [kind, subject, line] of [['evaluate', 'Pr::massReq', 4], ['evaluate', 'Pr::MaxMass', 2], ['evaluate', 'Pr::emptyReq', 5], ['satisfiable', 'Pr::massReq', 4]] as const) {
      const r = askJson(kind, subject, '--model', file);
      assert.equal(r.code, 3, JSON.stringify(r.answer));
      assert.equal(r.answer.result, undefined);
      assert.match(r.answer.error?.message ?? '', new RegExp(`prose\\.sysml:${line}:3: '\\w+' states no condition`));
    }
  });

  it('a requirement whose condition is inherited is still checked: 2500 fails, 100 holds', () => {
    const file = model('prose.sysml', MODEL);
    assert.equal(askJson('evaluate', 'Pr::realReq', '--model', file).answer.result?.values?.[0]?.value, false);
    assert.equal(askJson('evaluate', 'Pr::subReq', '--model', file).answer.result?.values?.[0]?.value, true);
    assert.equal(askJson('satisfiable', 'Pr::subReq', '--model', file).answer.result?.claim, 'satisfiable');
  });
});
