// A mistyped subject is the most common reason a question is not covered: the refusal says where the
// name went wrong and which declared names are close, so the user need not read the model to fix it.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder } from './ask-json';
import { buildIfMissing } from './built';

const MODEL = `package Fleet {
  package Parts { part def Engine { attribute power : ScalarValues::Real = 90.0; } }
  part def Vehicle { attribute mass : ScalarValues::Real = 1200.0; part engine : Parts::Engine; }
  part car : Vehicle;
  action def Drive { attribute speed : ScalarValues::Integer := 0; assign speed := 5; }
}
`;

describe('cli: a subject not declared names where it went wrong and the close names', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js'));
  const { model } = modelFolder('assay-subject-');

  it('a typo in a segment: the member missing, and the whole corrected path when it resolves (exit 3)', () => {
    const file = model('fleet.sysml', MODEL);
    const r = askJson('evaluate', 'Fleet::Vehicel::mass', '--model', file);
    assert.equal(r.code, 3);
    assert.match(r.answer.error?.message ?? '', /the subject Fleet::Vehicel::mass is not declared in the model: Fleet has no member 'Vehicel'; did you mean Fleet::Vehicle::mass\?/);
  });

  it('an inherited feature counts as a member, and case slips are close', () => {
    const file = model('fleet.sysml', MODEL);
    const r = askJson('evaluate', 'Fleet::car::MASS', '--model', file);
    assert.match(r.answer.error?.message ?? '', /Fleet::car has no member 'MASS'; did you mean Fleet::car::mass\?/);
  });

  it('the same name declared elsewhere in the model is offered', () => {
    const file = model('fleet.sysml', MODEL);
    const r = askJson('evaluate', 'Fleet::Engine::power', '--model', file);
    assert.match(r.answer.error?.message ?? '', /Fleet has no member 'Engine'; did you mean Fleet::Parts::Engine::power\?/);
  });

  it('nothing close: the owner\'s members are listed; a behaviour question says the same', () => {
    const file = model('fleet.sysml', MODEL);
    const r = askJson('evaluate', 'Fleet::Vehicle::zzz', '--model', file);
    assert.match(r.answer.error?.message ?? '', /Fleet::Vehicle has no member 'zzz' \(its members: mass, engine\)/);
    const b = askJson('outcomes', 'Fleet::Drvie', '--model', file, '-schedule', 'all');
    assert.equal(b.code, 3);
    assert.match(b.answer.error?.message ?? '', /the subject Fleet::Drvie is not declared in the model: Fleet has no member 'Drvie'; did you mean Fleet::Drive\?/);
  });
});
