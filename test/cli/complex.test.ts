// ComplexFunctions through the CLI: OpenSysML's conformance model that squares the imaginary unit
// (../shared/conformance/opensysml, read in place, never copied) is answered -1.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const MODEL = join(ROOT, '..', 'shared', 'conformance', 'opensysml', 'calc_library_complex_functions.sysml');

describe('cli: ComplexFunctions', function () {
  this.timeout(60_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));

  it('evaluate test::imaginaryUnitSquared: re(rect(0.0, 1.0) * rect(0.0, 1.0)) = -1, proved', () => {
    const run = spawnSync(process.execPath, [CLI, 'evaluate', 'test::imaginaryUnitSquared', '--model', MODEL, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 50_000 });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const answer = JSON.parse(run.stdout.trim()) as { result: { values: { name: string; value: unknown }[] }; standing: { strength: string } };
    assert.deepEqual(answer.result.values, [{ name: 'imaginaryUnitSquared', value: -1 }]);
    assert.equal(answer.standing.strength, 'proved');
  });
});
