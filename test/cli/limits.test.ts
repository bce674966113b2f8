// What `assay` (dist/cli.js, a real process) does at the edges of its own limits: durations a timer
// cannot hold, huge outputs, hostile text, odd files.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PidTracker, fixtureEntry } from '../host/fixture-engines';
import { buildIfMissing } from './built';

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

  before(() => buildIfMissing('cli.js'));

  it('--deadline past what a timer can hold is a usage error (exit 2), not a deadline that passes at once', () => {
    const r = cli(['evaluate', 'Demo::x', '--model', model, '--deadline', '2147484', '--json']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { error: { message: '--deadline 2147484: at most 2147483 seconds (about 24.8 days)', status: 'usage' } });
    const fine = cli(['evaluate', 'Demo::x', '--model', model, '--deadline', '2147483', '--json']);
    assert.equal(fine.code, 0, fine.stdout + fine.stderr);
  });

  it('a 130,000-step witness in text output: the first 1000 steps, then how many were left out (no RangeError)', async () => {
    const pids = new PidTracker();
    const steps = Array.from({ length: 130_000 }, (_, i) => `step ${i + 1}: t@go first of t@go`).join('\n');
    const resultFile = join(dir, 'long-witness.json');
    writeFileSync(resultFile, JSON.stringify({ claim: 'violated', strength: 'observed', witness: { schedules: [steps], at: 130_000 } }));
    const manifest = join(dir, 'engines.json');
    writeFileSync(manifest, JSON.stringify([fixtureEntry('well-behaved.js', pids, { name: 'long', config: { resultFile } })]));
    const r = cli(['holds', 'Demo::x', '--model', model, '--engines', manifest]);
    assert.equal(r.code, 0, r.stderr.slice(0, 2000));
    const lines = r.stdout.split('\n');
    assert.ok(lines.includes('      step 1000: t@go first of t@go'), r.stdout.slice(0, 500));
    assert.ok(!lines.includes('      step 1001: t@go first of t@go'));
    assert.ok(lines.includes('      … 129000 more steps not shown (--json prints all)'), r.stdout.slice(-500));
    assert.ok(lines.includes('    violated at move 130000'));
    const json = cli(['holds', 'Demo::x', '--model', model, '--engines', manifest, '--json']);
    assert.equal(json.code, 0);
    assert.equal((JSON.parse(json.stdout) as { result: { witness: { schedules: string[] } } }).result.witness.schedules[0]!.split('\n').length, 130_000);
    await pids.assertNoneRunning();
  });

  it('escape sequences in an engine reason and values, and in model names, reach the terminal escaped', async () => {
    const pids = new PidTracker();
    const hostile = 'clear\x1b[2J\x1b]52;c;aGVsbG8=\x07\r\u202edone';
    const manifest = join(dir, 'engines-esc.json');
    writeFileSync(manifest, JSON.stringify([fixtureEntry('well-behaved.js', pids, { name: 'esc', config: {
      result: { claim: 'value', strength: 'proved', reason: hostile, values: [{ name: 'x', value: hostile }] },
    } })]));
    const r = cli(['evaluate', 'Demo::x', '--model', model, '--engines', manifest]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    assert.match(r.stdout, /reason: {3}clear\\x1b\[2J\\x1b\]52;c;aGVsbG8=\\x07\\x0d\\u202edone\n/);
    assert.match(r.stdout, /x = clear\\x1b\[2J/);
    await pids.assertNoneRunning();

    const named = join(dir, 'named.sysml');
    writeFileSync(named, "package N { part p : 'Evil\x1b[2J'; }\n");
    const parsed = cli(['parse', named]);
    assert.equal(parsed.code, 1);
    assert.doesNotMatch(parsed.stdout, /\x1b/);
    assert.match(parsed.stdout, /unresolved reference ''Evil\\x1b\[2J''/);
  });

  it('assay parse of a folder with a FIFO named *.sysml and a symbolic link loop: the FIFO skipped, each file once', () => {
    const folder = join(dir, 'odd');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'sub', 'a.sysml'), 'package A;\n');
    symlinkSync('..', join(folder, 'sub', 'loop'));
    symlinkSync(join(folder, 'sub', 'a.sysml'), join(folder, 'again.sysml'));
    const made = spawnSync('mkfifo', [join(folder, 'pipe.sysml')]);
    assert.equal(made.status, 0, 'mkfifo');
    const r = cli(['parse', folder, '--json'], { timeout: 30_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal((JSON.parse(r.stdout) as { files: number }).files, 1);
    const fifo = cli(['parse', join(folder, 'pipe.sysml')], { timeout: 30_000 });
    assert.equal(fifo.code, 2);
    assert.match(fifo.stderr, /not a regular file or folder: .*pipe\.sysml/);
  });

  it('a calc that recurses without end is a model error at its place (exit 3), not a budget stop (exit 4)', () => {
    const recursive = join(dir, 'recursive.sysml');
    writeFileSync(recursive, 'package R {\n  calc def F { in n : Integer; return : Integer = F(n + 1); }\n  attribute x = F(1);\n}\n');
    const r = cli(['evaluate', 'R::x', '--model', recursive, '--json']);
    assert.equal(r.code, 3, r.stdout + r.stderr);
    const error = (JSON.parse(r.stdout) as { error: { status: string; reasons: { reason: string }[] } }).error;
    assert.equal(error.status, 'not covered');
    assert.match(error.reasons[0]!.reason, /recursive\.sysml:2:\d+: evaluation nested \d+ levels deep.*, deeper than the evaluator's stack holds \(.*recursive definition\?\)/);
  });
});
