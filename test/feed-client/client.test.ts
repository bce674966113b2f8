// The editor's feed client (src/feed-client) against real `assay-feed` processes on SQLite: the routes a
// user goes through, a refused and an expired token, a server that is down, the live channel reconnecting
// and catching up on what it missed, and the run ↔ post mapping. Malformed answers come from small fake
// servers (a real one never sends them).
import { strict as assert } from 'node:assert';
import { createServer, type Server as HttpServer } from 'node:http';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { Server as SocketServer } from 'socket.io';
import {
  compareModel, FeedHttp, FeedLive, FeedMalformed, FeedPosts, FeedRefused, FeedUnreachable, postOfRecord, SignInAgain,
  witnessOfPost, type LiveStatus, type ShareableRecord,
} from '../../src/feed-client';
import { modelHash, type Change } from '../../src/feed/shapes';
import { ensureBuilt, freePort, sampleRun, SECRET, startFeed, tempDir, type FeedProcess } from '../feed/helpers';

const lives: FeedLive[] = [];
function live(url: string, token: () => string | undefined): FeedLive {
  const l = new FeedLive({ url, token, reconnectDelayMaxMs: 1000 });
  lives.push(l);
  return l;
}
afterEach(() => {
  for (const l of lives.splice(0)) l.close();
});

/** Resolves with the first status of `state` (now or later). */
function status(l: FeedLive, state: LiveStatus['state']): Promise<LiveStatus> {
  if (l.status.state === state) return Promise.resolve(l.status);
  return new Promise((resolve) => {
    const on = (s: LiveStatus) => {
      if (s.state !== state) return;
      l.off('status', on);
      resolve(s);
    };
    l.on('status', on);
  });
}

/** Collects the live changes from now on; `until` waits for one that fits. */
function changes(l: FeedLive) {
  const seen: Change[] = [];
  const waiters: (() => void)[] = [];
  l.on('change', (c) => {
    seen.push(c);
    for (const w of waiters.splice(0)) w();
  });
  return {
    seen,
    until(test: (c: Change) => boolean): Promise<Change> {
      return new Promise((resolve) => {
        const check = () => {
          const found = seen.find(test);
          if (found) resolve(found);
          else waiters.push(check);
        };
        check();
      });
    },
  };
}

async function rejects<E extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof type, `expected ${type.name}, got ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    return error;
  }
  throw new Error(`expected ${type.name}, but it succeeded`);
}

let n = 0;
const name = (base: string) => `${base}${++n}p${process.pid}`;
const PASSWORD = 'correct horse battery';

/** An answered `holds` run as the editor's RunRecord has it. */
function record(text = 'part def Pump { attribute flow = 3; }'): ShareableRecord {
  const run = sampleRun(text);
  return {
    id: 7,
    question: run.question as ShareableRecord['question'],
    documents: [{ path: '/home/ada/work/models/pump.sysml', text }],
    state: 'settled',
    outcome: { status: 'answered', engine: run.engine, result: run.result as never, standing: run.standing as never },
    askedAt: Date.parse('2026-11-26T00:00:00Z'),
    elapsedMs: 12.4,
  };
}

describe('feed client: against a real server (SQLite)', function () {
  this.timeout(60_000);
  let feed: FeedProcess;
  let db: string;

  before(async () => {
    ensureBuilt();
    db = `sqlite:${join(tempDir(), 'feed.db')}`;
    feed = await startFeed({ env: { DATABASE_URL: db } });
  });
  after(async () => {
    await feed?.stop();
  });

  it('signs up, signs in, shares a run, lists, edits and deletes it; another user may not', async () => {
    const anon = new FeedHttp({ url: feed.url });
    const ada = await anon.signUp(name('ada'), PASSWORD);
    assert.match(ada.user.username, /^ada/);
    const taken = await rejects(anon.signUp(ada.user.username, PASSWORD), FeedRefused);
    assert.equal(taken.code, 'username_taken');
    assert.match(taken.message, /sign up: the team feed refused \(409 username_taken\): the username ".*" is taken/);
    const wrong = await rejects(anon.signIn(ada.user.username, 'not the password'), FeedRefused);
    assert.match(wrong.message, /wrong username or password/);
    const again = await anon.signIn(ada.user.username, PASSWORD);
    assert.equal(again.user.id, ada.user.id);

    const asAda = new FeedHttp({ url: feed.url, token: () => again.token });
    const created = await asAda.create(postOfRecord(record(), { title: '  Pump runs dry  ', note: 'see step 1', pathOf: (p) => p.replace('/home/ada/work/', '') }));
    assert.equal(created.title, 'Pump runs dry');
    assert.equal(created.author.username, ada.user.username);
    assert.equal(created.run?.model.documents[0]?.path, 'models/pump.sysml', 'shared under the workspace-relative path');
    assert.equal(created.run?.model.hash, modelHash([{ path: 'models/pump.sysml', text: record().documents[0]!.text }]));

    const listed = await asAda.newest();
    assert.deepEqual(listed.find((p) => p.id === created.id), created);
    const edited = await asAda.update(created.id, { title: 'Pump runs dry at step 1', body: '' });
    assert.equal(edited.title, 'Pump runs dry at step 1');
    assert.equal(edited.body, '');

    const bob = await anon.signUp(name('bob'), PASSWORD);
    const asBob = new FeedHttp({ url: feed.url, token: () => bob.token });
    const forbidden = await rejects(asBob.remove(created.id), FeedRefused);
    assert.equal(forbidden.status, 403);
    assert.match(forbidden.message, /only the author may delete this post/);
    await rejects(asBob.update(created.id, { title: 'mine now' }), FeedRefused);

    await asAda.remove(created.id);
    const gone = await rejects(asAda.get(created.id), FeedRefused);
    assert.equal(gone.status, 404);
    assert.equal((await asAda.newest()).some((p) => p.id === created.id), false);
  });

  it('maps a run record to a post and the post back to the same witness; compares the local model', async () => {
    const anon = new FeedHttp({ url: feed.url });
    const session = await anon.signUp(name('cy'), PASSWORD);
    const http = new FeedHttp({ url: feed.url, token: () => session.token });
    const r = record();
    const post = await http.create(postOfRecord(r, { title: 'dry pump', pathOf: () => 'models/pump.sysml' }));
    const witness = witnessOfPost(await http.get(post.id));
    assert.ok(typeof witness !== 'string');
    assert.deepEqual(witness.question, r.question);
    assert.deepEqual(witness.result, r.outcome!.result);
    assert.deepEqual(witness.standing, r.outcome!.standing);
    assert.equal(witness.engine, 'assay-reference');
    assert.deepEqual(witness.documents, [{ path: 'models/pump.sysml', text: r.documents[0]!.text }]);
    assert.equal(witness.post.author, session.user.username);

    const shared = post.run!.model;
    assert.deepEqual(compareModel(shared, () => r.documents[0]!.text), { state: 'same' });
    const changed = compareModel(shared, () => 'part def Pump { attribute flow = 0; }');
    assert.equal(changed.state, 'changed');
    assert.deepEqual(changed.state === 'changed' && changed.changed, ['models/pump.sysml']);
    const missing = compareModel(shared, () => undefined);
    assert.deepEqual(missing.state === 'changed' && missing.missing, ['models/pump.sysml']);

    assert.throws(() => postOfRecord({ ...r, state: 'running', outcome: undefined }, { title: 'x' }), /run 7 has not finished yet/);
    assert.throws(() => postOfRecord({ ...r, outcome: { status: 'cancelled' } }, { title: 'x' }), /no answer to share \(cancelled\)/);
    assert.throws(() => postOfRecord(r, { title: '   ' }), /title: /);
    assert.match(witnessOfPost({ ...post, run: undefined }) as string, /carries no run/);
  });

  it('says "sign in again" for a refused or expired token, over HTTP and on the live channel', async () => {
    const session = await new FeedHttp({ url: feed.url }).signUp(name('dee'), PASSWORD);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(session.user.id).setIssuedAt(now - 100).setExpirationTime(now - 50).sign(new TextEncoder().encode(SECRET));
    for (const token of [expired, 'garbage', undefined]) {
      const error = await rejects(new FeedHttp({ url: feed.url, token: () => token }).list(), SignInAgain);
      assert.match(error.message, /refused your sign-in .*; sign in again/);
    }
    const refused = await status(live(feed.url, () => expired).start(), 'signin');
    assert.match((refused as { reason: string }).reason, /expired|token/i);

    // A token that expires while connected: the server closes the socket, the client tries again with the
    // token it has (refused: sign in), and after a fresh sign-in it is back, with what it missed.
    const shortLived = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(session.user.id).setIssuedAt(now).setExpirationTime(now + 4).sign(new TextEncoder().encode(SECRET));
    let token = shortLived;
    const l = live(feed.url, () => token);
    const seen = changes(l);
    l.start();
    await status(l, 'online');
    const http = new FeedHttp({ url: feed.url, token: () => session.token });
    const first = await http.create({ title: 'before expiry' });
    await seen.until((c) => c.type === 'post:created' && c.post.id === first.id);
    await status(l, 'signin');
    const missed = await http.create({ title: 'while signed out' });
    token = (await new FeedHttp({ url: feed.url }).signIn(session.user.username, PASSWORD)).token;
    l.reconnect();
    await status(l, 'online');
    const caught = await seen.until((c) => c.type === 'post:created' && c.post.id === missed.id);
    assert.equal(caught.type === 'post:created' && caught.post.title, 'while signed out');
    assert.equal(seen.seen.filter((c) => c.type === 'post:created' && c.post.id === first.id).length, 1, 'a replayed change is not given twice');
  });
});

describe('feed client: a server that is down, restarts, and missed changes', function () {
  this.timeout(90_000);

  it('names an unreachable server', async () => {
    const port = await freePort();
    const error = await rejects(new FeedHttp({ url: `http://127.0.0.1:${port}`, token: () => 't' }).list(), FeedUnreachable);
    assert.match(error.message, new RegExp(`the team feed server at http://127\\.0\\.0\\.1:${port} cannot be reached \\(ECONNREFUSED\\); is it running, and is assay\\.feed\\.url right\\?`));
    const signup = await rejects(new FeedHttp({ url: `http://127.0.0.1:${port}` }).signUp('someone', PASSWORD), FeedUnreachable);
    assert.match(signup.message, /cannot be reached/);
    assert.throws(() => new FeedHttp({ url: 'localhost:8080' }), /not an http:\/\/ or https:\/\/ URL/);
    assert.throws(() => new FeedHttp({ url: 'not a url' }), /"not a url" is not a URL/);
  });

  it('goes offline when the server stops, reconnects by itself, and catches up on what it missed', async () => {
    ensureBuilt();
    const db = `sqlite:${join(tempDir(), 'feed.db')}`;
    const port = await freePort();
    let feed = await startFeed({ port, env: { DATABASE_URL: db } });
    try {
      const session = await new FeedHttp({ url: feed.url }).signUp(name('eve'), PASSWORD);
      const l = live(feed.url, () => session.token);
      const seen = changes(l);
      const posts = new FeedPosts();
      l.on('change', (c) => posts.apply(c));
      l.start();
      await status(l, 'online');
      const http = (url: string) => new FeedHttp({ url, token: () => session.token });
      const kept = await http(feed.url).create({ title: 'kept' });
      const doomed = await http(feed.url).create({ title: 'doomed' });
      await seen.until((c) => c.type === 'post:created' && c.post.id === doomed.id);
      assert.deepEqual(posts.list().map((p) => p.title), ['doomed', 'kept']);

      await feed.stop();
      await status(l, 'offline');
      // While this client is away, another process on the same store changes the feed.
      const other = await startFeed({ env: { DATABASE_URL: db } });
      const added = await http(other.url).create({ title: 'added while away' });
      await http(other.url).update(kept.id, { title: 'kept, renamed while away' });
      await http(other.url).remove(doomed.id);
      await other.stop();

      feed = await startFeed({ port, env: { DATABASE_URL: db } });
      await status(l, 'online');
      await seen.until((c) => c.type === 'post:deleted' && c.id === doomed.id);
      await seen.until((c) => c.type === 'post:created' && c.post.id === added.id);
      await seen.until((c) => c.type === 'post:updated' && c.post.id === kept.id);
      assert.deepEqual(posts.list().map((p) => p.title), ['added while away', 'kept, renamed while away']);
    } finally {
      await feed.stop();
    }
  });

  it('after the server\'s store is replaced, resyncs and takes the new store\'s changes although it saw their seqs before', async () => {
    ensureBuilt();
    const port = await freePort();
    let feed = await startFeed({ port, env: { DATABASE_URL: `sqlite:${join(tempDir(), 'feed.db')}` } });
    try {
      let token = (await new FeedHttp({ url: feed.url }).signUp(name('old'), PASSWORD)).token;
      const l = live(feed.url, () => token);
      const seen = changes(l);
      l.start();
      await status(l, 'online');
      const http = (url: string) => new FeedHttp({ url, token: () => token });
      for (const title of ['one', 'two', 'three']) await http(feed.url).create({ title });
      await seen.until((c) => c.type === 'post:created' && c.post.title === 'three');
      assert.equal(l.seq, 3);
      await feed.stop();
      await status(l, 'offline');

      // A new, empty store (replaced, or restored from an old backup) on the same address.
      const fresh = `sqlite:${join(tempDir(), 'feed.db')}`;
      const setup = await startFeed({ env: { DATABASE_URL: fresh } });
      token = (await new FeedHttp({ url: setup.url }).signUp(name('new'), PASSWORD)).token;
      await setup.stop();
      const resynced = new Promise<void>((resolve) => l.once('resync', () => resolve()));
      feed = await startFeed({ port, env: { DATABASE_URL: fresh } });
      await resynced;
      assert.equal(l.seq, 0);
      // Its seq 1 is a change this client has not seen, whatever the old store's seq 1 was.
      const post = await http(feed.url).create({ title: 'in the new store' });
      const change = await seen.until((c) => c.type === 'post:created' && c.post.id === post.id);
      assert.equal(change.type === 'post:created' && change.seq, 1);
    } finally {
      await feed.stop();
    }
  });
});

describe('feed client: malformed answers are refused, naming what was wrong', function () {
  let server: HttpServer;
  let url: string;
  let answer: { status: number; type?: string; body: string } = { status: 200, body: '' };

  before(async () => {
    server = createServer((_request, response) => {
      response.writeHead(answer.status, answer.type ? { 'content-type': answer.type } : {});
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const json = (status: number, value: unknown) => ({ status, type: 'application/json; charset=utf-8', body: JSON.stringify(value) });
  const post = { id: 'p1', author: { id: 'u1', username: 'ada' }, createdAt: '2026-11-26T00:00:00.000Z', updatedAt: '2026-11-26T00:00:00.000Z', title: 't', body: '' };
  const http = () => new FeedHttp({ url, token: () => 'token' });

  it('a post without its author, an unknown field, a wrong type', async () => {
    const { author: _drop, ...noAuthor } = post;
    answer = json(200, { posts: [noAuthor], next: null });
    let error = await rejects(http().list(), FeedMalformed);
    assert.match(error.message, /^list posts \(GET \/feed\/posts → 200\): the team feed server answered something malformed: answer\.posts\.0\.author: /);
    answer = json(200, { ...post, admin: true });
    error = await rejects(http().get('p1'), FeedMalformed);
    assert.match(error.message, /answer: Unrecognized key: "admin"/);
    answer = json(201, { token: 'x', expiresAt: 'tomorrow', user: { id: 'u', username: 'ada', createdAt: post.createdAt } });
    error = await rejects(new FeedHttp({ url }).signUp('adam', PASSWORD), FeedMalformed);
    assert.match(error.message, /answer\.expiresAt: /);
  });

  it('an answer that is not JSON, an error without the error body, content on a 204', async () => {
    answer = { status: 200, type: 'text/html', body: '<html>proxy login</html>' };
    assert.match((await rejects(http().list(), FeedMalformed)).message, /expected a JSON answer, got Content-Type text\/html/);
    answer = { status: 200, type: 'application/json', body: '{"posts": [' };
    assert.match((await rejects(http().list(), FeedMalformed)).message, /the answer is not JSON/);
    answer = { status: 502, type: 'text/html', body: 'Bad Gateway' };
    assert.match((await rejects(http().list(), FeedMalformed)).message, /→ 502\).*an error without the contract's error body: "Bad Gateway"/);
    answer = json(200, post);
    assert.match((await rejects(http().remove('p1'), FeedMalformed)).message, /expected no content/);
    answer = json(401, { error: { code: 'unauthorized', message: 'token expired' } });
    assert.match((await rejects(http().list(), SignInAgain)).message, /\(token expired\); sign in again/);
  });

  it('a malformed live event is dropped and reported; good ones still arrive', async () => {
    const httpServer = createServer();
    const io = new SocketServer(httpServer, { serveClient: false });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    try {
      io.on('connection', (socket) => {
        socket.emit('post:created', { seq: 1, post: { ...post, title: 5 } });
        socket.emit('post:deleted', { seq: 'two', id: 'p1' });
        socket.emit('post:created', { seq: 3, post });
      });
      const l = live(`http://127.0.0.1:${(httpServer.address() as { port: number }).port}`, () => 'token');
      const bad: FeedMalformed[] = [];
      l.on('malformed', (e) => bad.push(e));
      const seen = changes(l);
      l.start();
      await seen.until((c) => c.seq === 3);
      assert.deepEqual(bad.map((e) => e.message), [
        'live event post:created: the team feed server answered something malformed: event.post.title: Invalid input: expected string, received number',
        'live event post:deleted: the team feed server answered something malformed: event.seq: Invalid input: expected number, received string',
      ]);
      assert.deepEqual(seen.seen.map((c) => c.seq), [3]);
    } finally {
      io.close();
      httpServer.close();
    }
  });
});
