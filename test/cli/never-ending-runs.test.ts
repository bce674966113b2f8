// outcomes and sensitive list how runs end; a run that can go on forever has no end, so it is in no
// outcome. The answer says so, rather than letting the ends read as every run's: `1 outcome: done` for
// an action that loops forever under one input choice claimed every run ends with x = 7.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
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
  action def Race {
    attribute c : ScalarValues::Integer := 0;
    first start; then fork; then inc; then dbl;
    action inc { assign c := c + 1; } then j;
    action dbl { assign c := c * 2; } then j;
    join j; then done;
  }
}`;

describe('cli: outcomes and sensitive say when some runs never end', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    buildIfMissing('cli.js');
    dir = mkdtempSync(join(tmpdir(), 'assay-never-'));
    writeFileSync(join(dir, 'ne.sysml'), MODEL);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const ask = (kind: string, subject: string) => {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), kind, subject, '--model', join(dir, 'ne.sysml'), '--schedule', 'all', '--free', 'schedule,inputs', '--json'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    return (JSON.parse(run.stdout.trim()) as { result: { claim: string; reason: string; values: { name: string; value: unknown }[] } }).result;
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
    const r = ask('outcomes', 'NE::Race');
    assert.equal(r.claim, 'outcomes');
    assert.doesNotMatch(r.reason, /never end/);
  });
});
