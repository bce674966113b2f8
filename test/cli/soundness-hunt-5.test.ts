// Soundness hunt, fifth round: questions on which assay answered wrongly at `proved`, asked through the
// CLI of the bundled engine. Each answer is now the correct one, or a refusal naming the construct and
// its place. The models are small ones written here.
import { buildIfMissing } from './built';
import { modelFolder, proves, refuses } from './ask-json';

describe('cli: soundness hunt 5 — quantity kinds of one dimension', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));
  const { model } = modelFolder('assay-hunt5-');

  it('a feature declared TorqueValue given a value in J (declared `joule : EnergyUnit`) is refused, not answered at proved', () => {
    const m = model('kinds.sysml', `package K {
  private import ISQ::*;
  private import SI::*;
  part p {
    attribute t : TorqueValue = 5 [J];
    attribute e : EnergyValue = 3 [N*m];
    attribute t2 : TorqueValue = 5 [N*m];
    attribute e2 : EnergyValue = 2 [kJ];
    attribute t3 : TorqueValue = 2 [kWh];
  }
}
`);
    // Once: 5 [J] at proved, the kinds compared by dimension alone.
    refuses(m, ['evaluate', 'K::p::t'], /kinds\.sysml:5:15:/, /declared TorqueValue, but its value 5 \[J\] is in a unit the library declares for EnergyValue/);
    refuses(m, ['evaluate', 'K::p::t3'], /kinds\.sysml:9:15:/, /declared TorqueValue, but its value 2 \[kWh\] is in a unit the library declares for EnergyValue/);
    // A product N·m is work (force times distance) and torque alike: an energy or a torque may hold it.
    proves(m, ['evaluate', 'K::p::e'], 'e', '3 [N*m]');
    proves(m, ['evaluate', 'K::p::t2'], 't2', '5 [N*m]');
    proves(m, ['evaluate', 'K::p::e2'], 'e2', '2 [kJ]');
  });
});
