// outcomes and sensitive list how runs end; a run that can go on forever has no end, so it is in no
// outcome. The answer says so, rather than letting the ends read as every run's: `1 outcome: done` for
// an action that loops forever under one input choice claimed every run ends with x = 7.
import { strict as assert } from 'node:assert';
import { buildIfMissing } from './built';
import { join } from 'node:path';
import { askJson, modelFolder, ROOT } from './ask-json';

const MODEL = `package NE {
  action def Choice {
    attribute x : ScalarValues::Integer := 0;
    attribute go : ScalarValues::Boolean;
    first start;
    then decide;
      if go then spin;
      if not go then fin;
    action spin { first start; then while true { assign x := 1 - x; } then done; }
    action fin { assign x := 7; }
  }
}`;

describe('cli: outcomes and sensitive say when some runs never end', function () {
  this.timeout(60_000);
  before(() => buildIfMissing('cli.js'));
  const { model } = modelFolder('assay-never-');

  const ask = (kind: string, subject: string, file?: string) => {
    const { code, answer } = askJson(kind, subject, '--model', file ?? model('ne.sysml', MODEL), '--schedule', 'all', '--free', 'schedule,inputs');
    assert.equal(code, 0, JSON.stringify(answer));
    return { claim: answer.result!.claim, reason: answer.result!.reason ?? '', values: answer.result!.values ?? [] };
  };

  it('outcomes: the one end (x = 7), and that under go = true the run never ends', () => {
    const r = ask('outcomes', 'NE::Choice');
    assert.equal(r.claim, 'outcomes');
    assert.deepEqual(r.values.filter((v) => v.name.startsWith('x@')).map((v) => v.value), [7]);
    assert.match(r.reason, /^1 outcome .*; some runs never end \(under 1 of the 2 input choices\)/);
  });

  it('sensitive: the runs that end agree, and the answer says some never end', () => {
    const r = ask('sensitive', 'NE::Choice');
    assert.equal(r.claim, 'none');
    assert.match(r.reason, /every schedule that ends, ends the same way.*some runs never end/);
  });

  it('a behaviour whose every run ends says nothing of the kind', () => {
    // The project's race model: two orders of a fork's branches, each run ending.
    const r = ask('outcomes', 'Race::Race', join(ROOT, 'test', 'fixtures', 'models', 'behavior', 'race.sysml'));
    assert.equal(r.claim, 'outcomes');
    assert.doesNotMatch(r.reason, /never end/);
  });
});
