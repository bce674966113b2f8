// Runs the bundled adapter as a real child process and checks the one invariant every invocation
// must keep: stdout is exactly one JSON object (one line), and `ok` is true exactly when it exits 0.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const root = join(__dirname, '..', '..');
export const adapterPath = join(root, 'dist', 'adapter.js');

/**
 * Rebuilds dist/adapter.js when it is missing or older than src/adapter, so that `npx mocha test/adapter`
 * tests the current source. Only the adapter is bundled (same options as scripts/build.mjs), so another
 * program's broken build cannot stop these tests.
 */
export function ensureAdapterBuilt(): void {
  const srcDir = join(root, 'src', 'adapter');
  const newest = Math.max(...readdirSync(srcDir).map((f) => statSync(join(srcDir, f)).mtimeMs));
  if (existsSync(adapterPath) && statSync(adapterPath).mtimeMs >= newest) return;
  buildSync({
    absWorkingDir: root,
    entryPoints: ['src/adapter/main.ts'],
    outfile: 'dist/adapter.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    external: ['vscode', 'z3-solver'],
    logLevel: 'warning',
    banner: { js: '"use strict";' },
  });
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** The parsed envelope. */
  out: { ok: boolean; data?: any; error?: { message: string; status_code: number; body: string } };
  ms: number;
}

/** Environment without the caller's SERVICE_* settings, plus `env`. */
export function cleanEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SERVICE_') && !k.startsWith('NODE_OPTIONS')) base[k] = v;
  return { ...base, ...env };
}

export function runAdapter(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [adapterPath, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(stdout);
      } catch {
        return reject(new Error(`stdout is not one JSON value (exit ${code}):\n${stdout}\n--- stderr:\n${stderr}`));
      }
      assert.ok(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), `stdout is not a JSON object: ${stdout}`);
      assert.ok(stdout.endsWith('\n') && stdout.indexOf('\n') === stdout.length - 1, 'stdout is not exactly one line');
      const envelope = parsed as Run['out'];
      assert.equal(envelope.ok, code === 0, `ok must be true exactly when the exit code is 0 (exit ${code}): ${stdout}`);
      if (!envelope.ok) {
        const e = envelope.error;
        assert.ok(e && typeof e.message === 'string' && e.message.length > 0, 'error.message');
        assert.ok(Number.isInteger(e.status_code), 'error.status_code is an integer');
        assert.equal(typeof e.body, 'string', 'error.body is a string');
      }
      resolve({ code: code ?? -1, stdout, stderr, out: envelope, ms: Date.now() - started });
    });
  });
}
