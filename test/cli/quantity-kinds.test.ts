// `istype`, `@` and `as` against an ISQ quantity kind: energy and torque share one dimension
// (kg·m²/s²), and `1 [J] istype TorqueValue` was true at proved, the kinds compared by dimension alone.
// The library types a value by its unit's declaration (`J : EnergyUnit`), which tells the kind only
// for a named unit declared for it; anything else of a shared dimension is refused, never guessed.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder, proves, refuses } from './ask-json';
import { buildIfMissing } from './built';

const model = (expr: string) => `package K {
  private import ISQ::*;
  private import SI::*;
  part p {
    attribute e = 1 [J];
    attribute a = ${expr};
  }
}
`;

describe('cli: classification by quantity kind where two kinds share a dimension', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js'));
  const { model: write } = modelFolder('assay-kinds-');
  const ask = ['evaluate', 'K::p::a'];

  it('a joule is an energy; whether it is a torque is refused, naming the place and why (exit 3)', () => {
    proves(write('e.sysml', model('e istype EnergyValue')), ask, 'a', 'true');
    refuses(write('t.sysml', model('e istype TorqueValue')), ask, /t\.sysml:6:19/, /cannot tell whether 1 \[J\] is a 'TorqueValue': another quantity kind has its dimension/);
  });

  it('a product N·m is a torque and a work: either kind is refused; `as` over mixed values too', () => {
    refuses(write('p1.sysml', model('(2 [N] * 3 [m]) istype TorqueValue')), ask, /p1\.sysml:6:19/, /cannot tell whether 6 \[N\*m\] is a 'TorqueValue'/);
    refuses(write('p2.sysml', model('(2 [N] * 3 [m]) @ EnergyValue')), ask, /p2\.sysml:6:19/, /is a 'EnergyValue'/);
    refuses(write('p3.sysml', model('(e, 2 [N*m]) as TorqueValue')), ask, /p3\.sysml:6:19/, /cannot tell whether 1 \[J\]/);
  });

  it('kinds whose dimension no other kind shares still answer, true and false', () => {
    proves(write('m.sysml', model('1 [km] istype LengthValue')), ask, 'a', 'true');
    proves(write('n.sysml', model('1 [m] istype MassValue')), ask, 'a', 'false');
    proves(write('o.sysml', model('e istype ForceValue')), ask, 'a', 'false');
    const r = askJson(...ask, '--model', write('r.sysml', model('1.0 istype AngularMeasureValue')));
    assert.equal(r.code, 0, JSON.stringify(r.answer));
    assert.equal(r.answer.result?.values?.find((v) => v.name === 'a')?.value, false);
  });
});
