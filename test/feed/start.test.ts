// Starting assay-feed: refusals that name the setting, and the development first run that makes and
// keeps its own signing secret beside the SQLite file.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { timeOrderedId } from '../../src/feed/store';
import { call, ensureBuilt, postgres, refusedStart, ROOT, startFeed, tempDir } from './helpers';

describe('feed: starting assay-feed', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('refuses a JWT_SECRET shorter than 32 bytes, naming the setting', async () => {
    const dir = tempDir();
    const r = await refusedStart({ JWT_SECRET: 'too-short-secret', DATABASE_URL: `sqlite:${join(dir, 'feed.db')}` });
    assert.equal(r.code, 2);
    assert.match(r.output, /JWT_SECRET is 16 bytes; it must be at least 32 bytes/);
    assert.ok(!r.output.includes('too-short-secret'), '!r.output.includes(\'too-short-secret\')');
  });

  it('refuses to start in production without JWT_SECRET', async () => {
    const dir = tempDir();
    const r = await refusedStart({ NODE_ENV: 'production', DATABASE_URL: `sqlite:${join(dir, 'feed.db')}` });
    assert.equal(r.code, 2);
    assert.match(r.output, /JWT_SECRET is not set; in production/);
    assert.ok(!existsSync(join(dir, 'jwt-secret')), '!existsSync(join(dir, \'jwt-secret\'))');
  });

  it('refuses a bad DATABASE_URL or PORT naming the setting, without echoing a password', async () => {
    const db = await refusedStart({ JWT_SECRET: 'x'.repeat(40), DATABASE_URL: 'mysql://root:hunter2@db/feed' });
    assert.equal(db.code, 2);
    assert.match(db.output, /DATABASE_URL: "mysql:" is not a store/);
    assert.ok(!db.output.includes('hunter2'), '!db.output.includes(\'hunter2\')');
    const port = await refusedStart({ JWT_SECRET: 'x'.repeat(40), PORT: 'eighty' });
    assert.match(port.output, /PORT="eighty": must be a whole number/);
    const life = await refusedStart({ JWT_SECRET: 'x'.repeat(40), JWT_LIFETIME: 'forever' });
    assert.match(life.output, /JWT_LIFETIME="forever"/);
  });

  it('refuses a LOG_LEVEL or TRUST_PROXY it does not know, naming the setting (exit 2)', async () => {
    const sqlite = `sqlite:${join(tempDir(), 'feed.db')}`;
    const level = await refusedStart({ JWT_SECRET: 'x'.repeat(40), DATABASE_URL: sqlite, LOG_LEVEL: 'verbose' });
    assert.equal(level.code, 2);
    assert.match(level.output, /LOG_LEVEL="verbose": use one of fatal, error, warn, info, debug, trace, silent/);
    const proxy = await refusedStart({ JWT_SECRET: 'x'.repeat(40), DATABASE_URL: sqlite, TRUST_PROXY: 'yes' });
    assert.equal(proxy.code, 2);
    assert.match(proxy.output, /TRUST_PROXY="yes": use true or false/);
  });

  it('names PORT when the port is taken and HOST when it is not an address of this machine (exit 2)', async () => {
    const running = await startFeed({ env: { DATABASE_URL: `sqlite:${join(tempDir(), 'feed.db')}` } });
    try {
      const taken = await refusedStart({ JWT_SECRET: 'x'.repeat(40), DATABASE_URL: `sqlite:${join(tempDir(), 'feed.db')}`, PORT: String(running.port) });
      assert.equal(taken.code, 2);
      assert.match(taken.output, new RegExp(`PORT=${running.port}: cannot listen on 127\\.0\\.0\\.1:${running.port}: the port is in use`));
    } finally {
      await running.stop();
    }
    // 192.0.2.1 is TEST-NET-1: no machine has it.
    const host = await refusedStart({ JWT_SECRET: 'x'.repeat(40), DATABASE_URL: `sqlite:${join(tempDir(), 'feed.db')}`, HOST: '192.0.2.1' });
    assert.equal(host.code, 2);
    assert.match(host.output, /HOST=192\.0\.2\.1: cannot listen on 192\.0\.2\.1:\d+: no network interface/);
  });

  it('refuses a second server on the same SQLite file, naming it, and starts once the first has stopped', async () => {
    const file = join(tempDir(), 'feed.db');
    const first = await startFeed({ env: { DATABASE_URL: `sqlite:${file}` } });
    try {
      const second = await refusedStart({ JWT_SECRET: 'x'.repeat(40), DATABASE_URL: `sqlite:${file}` });
      assert.equal(second.code, 1);
      assert.ok(second.output.includes(`cannot open the store (DATABASE_URL): the SQLite file ${file} is in use by another assay-feed process`), second.output);
    } finally {
      await first.stop();
    }
    const again = await startFeed({ env: { DATABASE_URL: `sqlite:${file}` } });
    await again.stop();
    // A process that dies without closing leaves no lock behind.
    const killed = await startFeed({ env: { DATABASE_URL: `sqlite:${file}` } });
    await new Promise<void>((resolve) => (killed.child.once('exit', () => resolve()), killed.child.kill('SIGKILL')));
    await (await startFeed({ env: { DATABASE_URL: `sqlite:${file}` } })).stop();
  });

  it('refuses an SQLite path that is a named pipe it cannot write, naming the setting and the path, instead of hanging', async () => {
    // SQLite opens a file it may not write read-only, and opening a FIFO read-only waits for a writer:
    // the start hung without a word. Root may write any FIFO, so as root the server runs as nobody.
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const fifo = join(dir, 'feed.db');
    const made = spawnSync('mkfifo', ['-m', '0644', fifo]);
    assert.equal(made.status, 0, String(made.stderr));
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(fifo, 0o444);
    const r = await refusedStart({ DATABASE_URL: `sqlite:${fifo}` }, ROOT, asRoot ? { user: 'nobody' } : {});
    assert.equal(r.code, 2, r.output);
    assert.ok(r.output.includes(`DATABASE_URL=sqlite:${fifo}: ${fifo} is a named pipe (FIFO), not a regular file`), r.output);
    // Refused before anything was made beside it: no lock file, no generated secret.
    assert.deepEqual(readdirSync(dir), ['feed.db']);
  });

  it('refuses a directory, a device or a kernel file as the SQLite store, naming the setting and the path (exit 2)', async () => {
    const dir = tempDir();
    const lockBefore = existsSync('/dev/null-lock');
    for (const [path, what] of [
      [dir, `${dir} is a directory, not a regular file`],
      ['/dev/null', '/dev/null is under /dev, a kernel file system'],
      ['/proc/self/status', '/proc/self/status is under /proc, a kernel file system'],
    ] as const) {
      const r = await refusedStart({ JWT_SECRET: 'x'.repeat(40), DATABASE_URL: `sqlite:${path}` });
      assert.equal(r.code, 2, r.output);
      assert.ok(r.output.includes(`DATABASE_URL=sqlite:${path}: ${what}`), r.output);
    }
    // Before, the server left its lock file in /dev (and failed with only "disk I/O error").
    if (!lockBefore) assert.equal(existsSync('/dev/null-lock'), false);
  });

  it('says so when the Postgres store cannot be reached, without the password', async () => {
    const r = await refusedStart({ JWT_SECRET: 'x'.repeat(40), DATABASE_URL: 'postgres://feed:hunter2@127.0.0.1:1/feed' });
    assert.equal(r.code, 1);
    assert.match(r.output, /cannot open the store \(DATABASE_URL\)/);
    assert.ok(!r.output.includes('hunter2'), '!r.output.includes(\'hunter2\')');
  });

  it('on a first development start without JWT_SECRET makes a secret beside the SQLite file (0600), says so, and keeps it', async () => {
    const dir = tempDir();
    const env = { JWT_SECRET: undefined, DATABASE_URL: 'sqlite:data/feed.db' };
    const first = await startFeed({ cwd: dir, env });
    let token: string;
    try {
      assert.match(first.output(), /first start: created the feed store/);
      assert.match(first.output(), /created a random signing secret in data\/jwt-secret \(mode 0600\)/);
      const file = join(dir, 'data', 'jwt-secret');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      // The store's directory (password hashes inside) is the owner's only.
      assert.equal(statSync(join(dir, 'data')).mode & 0o777, 0o700);
      assert.ok(readFileSync(file, 'utf8').trim().length >= 32, 'readFileSync(file, \'utf8\').trim().length >= 32');
      token = (await call(first.url, 'POST', '/auth/signup', { body: { username: 'first', password: 'first run password' } })).json.token;
    } finally {
      await first.stop();
    }
    const second = await startFeed({ cwd: dir, env });
    try {
      assert.doesNotMatch(second.output(), /first start|created a random/);
      assert.match(second.output(), /signing with the secret kept in data\/jwt-secret/);
      // Same secret: the token of the first run still holds.
      assert.equal((await call(second.url, 'GET', '/feed/posts', { token })).status, 200);
    } finally {
      await second.stop();
    }
  });

  it('migrates a new Postgres database once when two processes start on it together', async function () {
    const url = await (await postgres(this)).newDatabase();
    const [a, b] = await Promise.all([startFeed({ env: { DATABASE_URL: url } }), startFeed({ env: { DATABASE_URL: url } })]);
    try {
      const firsts = [a, b].filter((p) => /first start/.test(p.output()));
      assert.equal(firsts.length, 1, 'exactly one process created the store');
      const signup = await call(a.url, 'POST', '/auth/signup', { body: { username: 'together', password: 'together password' } });
      assert.equal((await call(b.url, 'GET', '/feed/posts', { token: signup.json.token })).status, 200);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('makes ids that sort in creation order within a millisecond (UUID version 7)', () => {
    const ids = Array.from({ length: 5000 }, () => timeOrderedId(1_795_000_000_000));
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids.slice(0, 10)) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
