// Real feed servers (node dist/feed.js as child processes), a real PostgreSQL cluster, and a small HTTP
// client. Postgres: FEED_TEST_DATABASE_URL (an admin URL of a running server) if set; otherwise a
// throwaway cluster in a temp dir from the installed binaries (.ci/run installs Debian's postgresql).
// Without either, the Postgres tests skip with a message — except in CI (CI=true), where they fail.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { connect as netConnect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const ROOT = join(__dirname, '..', '..');
export const FEED = join(ROOT, 'dist', 'feed.js');
export const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/** Builds dist/feed.js when it is missing or older than a source it bundles (a lone `npx mocha` run). */
export function ensureBuilt(): void {
  const newest = (dir: string): number =>
    Math.max(0, ...readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => statSync(join(dir, f)).mtimeMs));
  const sources = Math.max(newest(join(ROOT, 'src', 'feed')), newest(join(ROOT, 'src', 'protocol')));
  if (existsSync(FEED) && statSync(FEED).mtimeMs >= sources) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix = 'assay-feed-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

// ---- feed server processes -------------------------------------------------------------------------

export interface FeedProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Port to listen on (default: a free one). */
  port?: number;
}

/** Starts `node dist/feed.js`; resolves once it listens, rejects with its output if it exits first. */
export function startFeed(options: StartOptions = {}): Promise<FeedProcess> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'],
      HOST: '127.0.0.1',
      PORT: String(options.port ?? 0),
      JWT_SECRET: SECRET,
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT: '100000',
      ...options.env,
    };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const child = spawn(process.execPath, [FEED], { cwd: options.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    let listening = false;
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const m = /listening on (http:\/\/[^\s]+:(\d+))/.exec(text);
      if (m && !listening) {
        listening = true;
        resolve({
          url: m[1]!,
          port: Number(m[2]),
          child,
          output: () => text,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      if (!listening) reject(new Error(`assay-feed exited (${code ?? signal}) before listening:\n${text}`));
    });
  });
}

/** Runs `node dist/feed.js` expecting it to refuse to start; its exit code and output. */
export function refusedStart(env: NodeJS.ProcessEnv, cwd = ROOT, options: { user?: string } = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // `user`: run as that user (through runuser; the tests run as root in CI).
    const [command, args] = options.user ? ['runuser', ['-u', options.user, '--', process.execPath, FEED]] : [process.execPath, [FEED]];
    const child = spawn(command, args, { cwd, env: { PATH: process.env['PATH'], HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      if (/listening on/.test(text)) {
        child.kill('SIGKILL');
        reject(new Error(`assay-feed started although it should have refused:\n${text}`));
      }
    });
    // A start that neither listens nor exits (it hangs) is ended here, so the test fails instead of
    // leaving the process behind; the guard is far longer than any refusal takes.
    const guard = setTimeout(() => {
      child.kill('SIGTERM'); // runuser passes SIGTERM on; a start that hangs has no handler for it yet
      reject(new Error(`assay-feed neither started nor exited within ${HANG_GUARD_MS} ms (it hangs):\n${text}`));
    }, HANG_GUARD_MS);
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, output: text });
    });
  });
}

const HANG_GUARD_MS = 40_000;

// ---- HTTP ------------------------------------------------------------------------------------------

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

let userCount = 0;
/** Signs up a fresh user; its token, id and password. */
export async function newUser(base: string, name = 'user'): Promise<{ token: string; id: string; username: string; password: string }> {
  const username = `${name}${++userCount}x${process.pid}`;
  const password = `pw-${username}-long enough`;
  const r = await call(base, 'POST', '/auth/signup', { body: { username, password } });
  if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${r.text}`);
  return { token: r.json.token, id: r.json.user.id, username, password };
}

/** A run as the editor would share it: a violated holds question with its witness and model text. */
export function sampleRun(text = 'part def Pump { attribute flow = 3; }') {
  return {
    question: { kind: 'holds', subject: 'Pump', schedule: 'fifo', free: ['schedule'], condition: { name: 'flowOk', text: 'flow > 0' } },
    engine: 'assay-reference',
    result: {
      claim: 'violated',
      strength: 'witnessed',
      witness: { schedules: ['start', 'stop'], at: 1 },
      values: [{ name: 'flow', value: 3, unit: 'l/s' }],
      reason: 'flow drops to 0 after stop',
    },
    standing: { claimed: 'witnessed', strength: 'observed', reasons: ['engine "assay-reference" has authority observed'] },
    model: { documents: [{ path: 'models/pump.sysml', text }] },
    elapsedMs: 12,
  };
}

// ---- PostgreSQL ------------------------------------------------------------------------------------

export interface Postgres {
  /** A URL of a new, empty database on the cluster. */
  newDatabase(): Promise<string>;
}

let cluster: Promise<Postgres | string> | undefined;
let stopCluster: (() => void) | undefined;

function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(base, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const initdb = which.stdout.trim();
  return initdb ? join(initdb, '..') : undefined;
}

async function adminDatabases(adminUrl: string): Promise<Postgres> {
  let n = 0;
  return {
    async newDatabase() {
      const name = `feed_test_${process.pid}_${++n}_${Date.now() % 100000}`;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
  };
}

async function startCluster(): Promise<Postgres | string> {
  const given = process.env['FEED_TEST_DATABASE_URL'];
  if (given) return adminDatabases(given);
  const bin = postgresBin();
  if (!bin) return 'no PostgreSQL: install it (apt-get install -y postgresql) or set FEED_TEST_DATABASE_URL';
  const dir = tempDir('assay-feed-pg-');
  const asRoot = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: the cluster belongs to the postgres user then.
  const run = (args: string[]) => {
    const cmd = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args;
    return spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8' });
  };
  if (asRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()));
  const data = join(dir, 'data');
  const init = run([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'feed', '--no-sync', '-E', 'UTF8']);
  if (init.status !== 0) return `initdb failed: ${init.stderr || init.stdout}`;
  const port = await freePort();
  const start = run([
    join(bin, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-w', '-t', '60',
    '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start',
  ]);
  if (start.status !== 0) return `pg_ctl start failed: ${start.stderr || start.stdout}`;
  stopCluster = () => {
    run([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
    rmSync(dir, { recursive: true, force: true });
    stopCluster = undefined;
  };
  process.once('exit', () => stopCluster?.());
  return adminDatabases(`postgres://feed@127.0.0.1:${port}/postgres`);
}

/**
 * The test PostgreSQL; in a mocha `before`, skips the suite when none is available (fails under CI=true).
 */
export async function postgres(context?: Mocha.Context): Promise<Postgres> {
  cluster ??= startCluster();
  const got = await cluster;
  if (typeof got === 'string') {
    if (process.env['CI'] === 'true') throw new Error(`the PostgreSQL tests cannot run in CI: ${got}`);
    if (!context) throw new Error(got);
    process.stderr.write(`    PostgreSQL tests skipped on this machine: ${got}\n`);
    context.skip();
  }
  return got as Postgres;
}

/** Stops the cluster this process started (also done at exit). */
export function stopPostgres(): void {
  stopCluster?.();
}

// The cluster is shared by every feed test file; it stops when mocha ends. (The bench imports this file
// outside mocha.)
if (typeof after === 'function') after(() => stopCluster?.());

// ---- a PostgreSQL wire counter ---------------------------------------------------------------------

export interface CountingProxy {
  /** `url` with the host and port of the proxy. */
  url: string;
  /** Queries the clients sent so far: simple queries ('Q') and extended-protocol Syncs ('S'). */
  queries(): number;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of PostgreSQL that counts the queries going through it, reading the frontend
 * protocol's message framing (a startup message without a type byte, then type + int32 length).
 */
export function countingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  let count = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((client) => {
    const upstream = netConnect(Number(to.port || 5432), to.hostname);
    sockets.add(client).add(upstream);
    let started = false;
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          // An SSLRequest or GSSENCRequest is answered before the real startup message.
          const code = pending.readInt32BE(4);
          if (code !== 80877103 && code !== 80877104) started = true;
          pending = pending.subarray(length);
        } else {
          if (pending.length < 5) break;
          const length = pending.readInt32BE(1);
          if (pending.length < 1 + length) break;
          const type = String.fromCharCode(pending[0]!);
          if (type === 'Q' || type === 'S') count++;
          pending = pending.subarray(1 + length);
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      const url = new URL(target);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      resolve({
        url: url.toString(),
        queries: () => count,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
