// Subjects a modeler picks that have no usage keyword: keyword-less features (`z = 9;`), calc `out`
// and `in` parameters, a redefinition written `:>> x = …;`. The host reports their kind as `ref`; the
// bundled engine takes them, through the real CLI.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

const MODEL = `package P {
  calc def C { in x = 2; out y = x + 1; return r = y * 2; }
  part def V { attribute m = 3; }
  part v : V { :>> m = 7; }
  z = 9;
}`;

function evaluate(subject: string): { code: number | null; json: any } {
  const dir = mkdtempSync(join(tmpdir(), 'assay-addr-'));
  const file = join(dir, 'p.sysml');
  writeFileSync(file, MODEL);
  const r = spawnSync(process.execPath, [CLI, 'evaluate', subject, '--model', file, '--json'], { encoding: 'utf8' });
  return { code: r.status, json: JSON.parse(r.stdout) };
}

describe('CLI: keyword-less features and calc parameters are askable subjects', function () {
  this.timeout(120000);
  it('answers a keyword-less feature, a calc out parameter, its in parameter and its result parameter', () => {
    const cases: [string, number][] = [
      ['P::z', 9],
      // x = 2, y = x + 1 = 3, r = y * 2 = 6
      ['P::C::x', 2],
      ['P::C::y', 3],
      ['P::C::r', 6],
      // v redefines m (`:>> m = 7;`)
      ['P::v::m', 7],
    ];
    for (const [subject, value] of cases) {
      const r = evaluate(subject);
      assert.equal(r.code, 0, `${subject}: ${JSON.stringify(r.json)}`);
      assert.equal(r.json.result.values[0].value, value, subject);
    }
  });
});
