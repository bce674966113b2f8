// What `assay` (dist/cli.js, a real process) does at the edges of its own limits: durations a timer
// cannot hold, huge outputs, hostile text, odd files.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function cli(args: string[], options: { env?: Record<string, string>; timeout?: number } = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: options.timeout ?? 60_000, env: { ...process.env, ...options.env }, maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('cli: limits', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'assay-limits-'));
  const model = join(dir, 'demo.sysml');
  writeFileSync(model, 'package Demo { attribute x = 1; }\n');

  before(() => {
    if (!existsSync(CLI)) {
      const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
      assert.equal(built.status, 0, 'npm run build failed');
    }
  });

  it('--deadline past what a timer can hold is a usage error (exit 2), not a deadline that passes at once', () => {
    const r = cli(['evaluate', 'Demo::x', '--model', model, '--deadline', '2147484', '--json']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { error: { message: '--deadline 2147484: at most 2147483 seconds (about 24.8 days)', status: 'usage' } });
    const fine = cli(['evaluate', 'Demo::x', '--model', model, '--deadline', '2147483', '--json']);
    assert.equal(fine.code, 0, fine.stdout + fine.stderr);
  });
});
