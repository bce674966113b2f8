// The live channel against real `assay-feed` processes with a real socket.io client: the token at the
// handshake, post events to every client, subscriptions and acknowledgements, catching up after a
// reconnect, the socket closed when its token expires, and (Postgres) two processes acting as one.
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import { SignJWT } from 'jose';
import pg from 'pg';
import { io as connectClient, type Socket } from 'socket.io-client';
import { modelHash } from '../../src/feed/shapes';
import { call, countingProxy, ensureBuilt, newUser, sampleRun, SECRET, startFeed, type FeedProcess } from './helpers';
import { STORES, type TestStore } from './stores';

const sockets: Socket[] = [];

function open(url: string, auth: Record<string, unknown>): Socket {
  const socket = connectClient(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  return socket;
}

/** Connects and resolves once connected; rejects with the server's refusal. */
function connected(url: string, auth: Record<string, unknown>): Promise<Socket> {
  const socket = open(url, auth);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => reject(error));
  });
}

function refused(url: string, auth: Record<string, unknown>): Promise<Error & { data?: { code: string; status: number } }> {
  const socket = open(url, auth);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('the live channel accepted the connection')));
    socket.once('connect_error', (error) => resolve(error as Error & { data?: { code: string; status: number } }));
  });
}

/** Collects every payload of `event` on `socket` from now on. */
function collect<T = any>(socket: Socket, event: string): { items: T[]; until(n: number): Promise<T[]> } {
  const items: T[] = [];
  const waiters: (() => void)[] = [];
  socket.on(event, (payload: T) => {
    items.push(payload);
    for (const w of waiters.splice(0)) w();
  });
  return {
    items,
    until(n) {
      return new Promise((resolve) => {
        const check = () => (items.length >= n ? resolve(items.slice(0, n)) : waiters.push(check));
        check();
      });
    },
  };
}

function ask(socket: Socket, event: string, payload: unknown): Promise<any> {
  return socket.timeout(20_000).emitWithAck(event, payload);
}

afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

for (const kind of STORES) {
  describe(`feed: live channel (${kind.name})`, function () {
    this.timeout(60_000);
    let store: TestStore;
    let feed: FeedProcess;
    let ada: Awaited<ReturnType<typeof newUser>>;
    let bob: Awaited<ReturnType<typeof newUser>>;

    before(async function () {
      ensureBuilt();
      store = await kind.create(this);
      feed = await startFeed({ env: { DATABASE_URL: store.url } });
      ada = await newUser(feed.url, 'ada');
      bob = await newUser(feed.url, 'bob');
    });
    after(async () => {
      await feed?.stop();
    });

    it('refuses a handshake without a token, or with a forged, expired or unsigned one', async () => {
      const now = Math.floor(Date.now() / 1000);
      const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: ada.id, iat: now, exp: now + 60 })).toString('base64url')}.`;
      const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(ada.id).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(`${SECRET}!`));
      const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(ada.id).setIssuedAt(now - 100).setExpirationTime(now - 50).sign(new TextEncoder().encode(SECRET));
      const missing = await refused(feed.url, {});
      assert.match(missing.message, /needs a token/);
      assert.equal(missing.data?.code, 'unauthorized');
      for (const token of [none, forged, expired, 'garbage']) {
        const error = await refused(feed.url, { token });
        assert.equal(error.data?.code, 'unauthorized', token);
        assert.equal(error.data?.status, 401);
      }
      const badSince = await refused(feed.url, { token: ada.token, since: -1 });
      assert.equal(badSince.data?.code, 'validation');
    });

    it('sends post:created, post:updated and post:deleted with increasing seq to every connected client', async () => {
      const a = await connected(feed.url, { token: ada.token });
      const b = await connected(feed.url, { token: bob.token });
      const createdA = collect(a, 'post:created');
      const createdB = collect(b, 'post:created');
      const updatedB = collect(b, 'post:updated');
      const deletedB = collect(b, 'post:deleted');
      const run = sampleRun('part def Live;');
      const post = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'live one', run } })).json;
      const [[ea], [eb]] = await Promise.all([createdA.until(1), createdB.until(1)]);
      assert.deepEqual(ea.post, post);
      assert.deepEqual(eb, ea);
      assert.equal(typeof eb.seq, 'number');
      const changed = (await call(feed.url, 'PUT', `/feed/post/${post.id}`, { token: ada.token, body: { title: 'live one, edited' } })).json;
      const [u] = await updatedB.until(1);
      assert.deepEqual(u.post, changed);
      assert.ok(u.seq > eb.seq, 'u.seq > eb.seq');
      assert.equal((await call(feed.url, 'DELETE', `/feed/post/${post.id}`, { token: ada.token })).status, 204);
      const [d] = await deletedB.until(1);
      assert.deepEqual(d, { seq: d.seq, id: post.id, model: modelHash(run.model.documents) });
      assert.ok(d.seq > u.seq, 'd.seq > u.seq');
    });

    it('answers subscribe with the model\'s posts and then sends only that model\'s changes to the subscriber', async () => {
      const runA = sampleRun('part def Subscribed;');
      const runB = sampleRun('part def Other;');
      const hashA = modelHash(runA.model.documents);
      const earlier = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'earlier', run: runA } })).json;
      const b = await connected(feed.url, { token: bob.token });
      const changes = collect(b, 'model:change');
      const ack = await ask(b, 'subscribe', { model: hashA });
      assert.equal(ack.ok, true);
      assert.equal(ack.model, hashA);
      assert.equal(typeof ack.seq, 'number');
      assert.deepEqual(ack.posts.map((p: { id: string }) => p.id), [earlier.id]);
      await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'other model', run: runB } });
      const mine = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'same model', run: runA } })).json;
      // `earlier`'s own broadcast may arrive after the answer (it is in the posts: its seq is at most
      // ack.seq, which a client drops); past that, only the subscribed model's new post.
      const fresh = () => changes.items.filter((x: { seq: number }) => x.seq > ack.seq);
      while (fresh().length === 0) await changes.until(changes.items.length + 1);
      const [c] = fresh();
      assert.equal(c.type, 'post:created');
      assert.equal(c.post.id, mine.id);
      for (const stale of changes.items.filter((x: { seq: number }) => x.seq <= ack.seq)) assert.equal(stale.post.id, earlier.id);
      assert.equal(fresh().length, 1);

      const bad = await ask(b, 'subscribe', { model: 'not-a-hash' });
      assert.equal(bad.ok, false);
      assert.equal(bad.error.code, 'validation');
      assert.equal(bad.error.details.issues[0].path, 'event.model');
      assert.deepEqual(await ask(b, 'unsubscribe', { model: hashA }), { ok: true, model: hashA });
    });

    it('limits a connection to 100 subscribed models, answering too_many_subscriptions past it', async () => {
      const b = await connected(feed.url, { token: bob.token });
      const hash = (i: number) => `sha256:${i.toString(16).padStart(64, '0')}`;
      for (let i = 0; i < 100; i++) assert.equal((await ask(b, 'subscribe', { model: hash(i) })).ok, true, `subscription ${i + 1}`);
      // Before, every subscription was kept (a room per model for the socket's life), without end.
      const over = await ask(b, 'subscribe', { model: hash(100) });
      assert.deepEqual(over, {
        ok: false,
        error: { code: 'too_many_subscriptions', message: 'this connection follows 100 models, the most it may; unsubscribe from one before subscribing to another', details: { limit: 100 } },
      });
      // Subscribing again to a model it follows is no new subscription; unsubscribing makes room.
      assert.equal((await ask(b, 'subscribe', { model: hash(7) })).ok, true);
      assert.equal((await ask(b, 'unsubscribe', { model: hash(7) })).ok, true);
      assert.equal((await ask(b, 'subscribe', { model: hash(100) })).ok, true);
      assert.equal((await ask(b, 'subscribe', { model: hash(101) })).error.code, 'too_many_subscriptions');
      // The limit is the connection's: another one of the same user subscribes.
      const c = await connected(feed.url, { token: bob.token });
      assert.equal((await ask(c, 'subscribe', { model: hash(101) })).ok, true);
    });

    it('sends a model\'s subscribers the update that moves a post to another model or drops its run, and the deletion', async () => {
      const runA = sampleRun('part def Moving;');
      const runB = sampleRun('part def Elsewhere;');
      const hashA = modelHash(runA.model.documents);
      const post = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'moving', run: runA } })).json;
      const b = await connected(feed.url, { token: bob.token });
      const ack = await ask(b, 'subscribe', { model: hashA });
      const changes = collect(b, 'model:change');
      // They arrive in seq order (each process sends changes in the order the store announces them).
      const fresh = async (n: number) => {
        while (changes.items.filter((x: { seq: number }) => x.seq > ack.seq).length < n) await changes.until(changes.items.length + 1);
        const arrived = changes.items.filter((x: { seq: number }) => x.seq > ack.seq);
        assert.deepEqual(arrived.map((x: { seq: number }) => x.seq), arrived.map((x: { seq: number }) => x.seq).sort((x: number, y: number) => x - y), 'in seq order');
        return arrived;
      };
      await call(feed.url, 'PUT', `/feed/post/${post.id}`, { token: ada.token, body: { run: runB } });
      const [moved] = await fresh(1);
      assert.equal(moved.type, 'post:updated');
      assert.equal(moved.post.run.model.hash, modelHash(runB.model.documents));
      await call(feed.url, 'PUT', `/feed/post/${post.id}`, { token: ada.token, body: { run: runA } });
      await call(feed.url, 'PUT', `/feed/post/${post.id}`, { token: ada.token, body: { run: null } });
      const [, back, dropped] = await fresh(3);
      assert.equal(back.post.run.model.hash, hashA);
      assert.equal(dropped.type, 'post:updated');
      assert.equal(dropped.post.run, undefined);
      // Back on model A, then deleted: the subscriber of A is told, with the model.
      await call(feed.url, 'PUT', `/feed/post/${post.id}`, { token: ada.token, body: { run: runA } });
      await call(feed.url, 'DELETE', `/feed/post/${post.id}`, { token: ada.token });
      const all = await fresh(5);
      assert.deepEqual(all[4], { type: 'post:deleted', seq: all[4].seq, id: post.id, model: hashA });
    });

    it('answers catchup with the changes after a seq, oldest first', async () => {
      const a = await connected(feed.url, { token: ada.token });
      const created = collect(a, 'post:created');
      const first = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'c1' } })).json;
      const [{ seq }] = await created.until(1);
      const second = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'c2' } })).json;
      await call(feed.url, 'DELETE', `/feed/post/${first.id}`, { token: ada.token });
      const ack = await ask(a, 'catchup', { since: seq });
      assert.equal(ack.ok, true);
      assert.equal(ack.more, false);
      assert.deepEqual(ack.changes.map((c: { type: string }) => c.type), ['post:created', 'post:deleted']);
      assert.equal(ack.changes[0].post.id, second.id);
      assert.equal(ack.changes[1].id, first.id);
      const bad = await ask(a, 'catchup', { since: 'yesterday' });
      assert.equal(bad.error.details.issues[0].path, 'event.since');
    });

    it('sends a client that reconnects with `since` what it missed while away', async () => {
      const a = await connected(feed.url, { token: bob.token });
      const created = collect(a, 'post:created');
      await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'before leaving' } });
      const [{ seq }] = await created.until(1);
      a.disconnect();
      const missed1 = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'missed 1' } })).json;
      const missed2 = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'missed 2' } })).json;
      await call(feed.url, 'PUT', `/feed/post/${missed1.id}`, { token: ada.token, body: { body: 'edited while away' } });
      await call(feed.url, 'DELETE', `/feed/post/${missed2.id}`, { token: ada.token });

      const again = open(feed.url, { token: bob.token, since: seq });
      const createdAgain = collect(again, 'post:created');
      const updatedAgain = collect(again, 'post:updated');
      const deletedAgain = collect(again, 'post:deleted');
      // missed2 was deleted: its creation is not replayed (the post is gone), its deletion is.
      const [[c1], [u1], [d2]] = await Promise.all([createdAgain.until(1), updatedAgain.until(1), deletedAgain.until(1)]);
      assert.equal(c1.post.id, missed1.id);
      assert.equal(c1.post.body, 'edited while away');
      assert.equal(u1.post.id, missed1.id);
      assert.equal(d2.id, missed2.id);
      assert.ok(c1.seq > seq && u1.seq > c1.seq && d2.seq > u1.seq, 'c1.seq > seq && u1.seq > c1.seq && d2.seq > u1.seq');
    });

    /** Appends `n` changes to the log (as the server writes them): updated `updated`, created `created`, deleted `deleted`, in turn. */
    async function appendChanges(n: number, ids: { updated: string; created: string; deleted: string }): Promise<number> {
      const base = Number((await store.sql('SELECT MAX(seq) AS seq FROM changes'))[0]!['seq']);
      await store.sql(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
         INSERT INTO changes (type, post_id, model_hash, at)
         SELECT CASE i % 3 WHEN 0 THEN 'post:updated' WHEN 1 THEN 'post:created' ELSE 'post:deleted' END,
                CASE i % 3 WHEN 0 THEN $1 WHEN 1 THEN $2 ELSE $3 END, NULL, 0 FROM n ORDER BY i`,
        [ids.updated, ids.created, ids.deleted],
      );
      return base;
    }

    /** Connects with `since` and gathers the replay, in arrival order, up to and with its feed:resync. */
    async function replayUntilResync(url: string, since: number) {
      const socket = open(url, { token: bob.token, since });
      const events: { event: string; payload: any }[] = [];
      const done = new Promise<void>((resolve) => socket.once('feed:resync', () => resolve()));
      for (const event of ['post:created', 'post:updated', 'post:deleted', 'feed:resync']) socket.on(event, (payload: unknown) => events.push({ event, payload }));
      await done;
      return { socket, events };
    }

    it('replays a long absence page by page: every change once, in seq order, then feed:resync past 1,000 (as catchup answers)', async () => {
      const updated = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'often edited', run: sampleRun('part def Often;') } })).json;
      const created = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'still here' } })).json;
      const deleted = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'gone' } })).json;
      await call(feed.url, 'DELETE', `/feed/post/${deleted.id}`, { token: ada.token });
      const base = await appendChanges(1004, { updated: updated.id, created: created.id, deleted: deleted.id });

      const { socket, events } = await replayUntilResync(feed.url, base);
      assert.equal(events.length, 1001);
      const resync = events[1000]!;
      assert.equal(resync.event, 'feed:resync');
      assert.deepEqual(resync.payload, { reason: 'more than 1000 changes were missed; reload GET /feed/posts', seq: base + 1004 });
      const replayed = events.slice(0, 1000);
      replayed.forEach(({ event, payload }, k) => {
        const i = k + 1;
        assert.equal(payload.seq, base + i);
        const [type, id] = i % 3 === 0 ? ['post:updated', updated.id] : i % 3 === 1 ? ['post:created', created.id] : ['post:deleted', deleted.id];
        assert.equal(event, type, `change ${i}`);
        assert.equal(type === 'post:deleted' ? payload.id : payload.post.id, id, `change ${i}`);
      });
      assert.deepEqual(replayed[2]!.payload.post, (await call(feed.url, 'GET', `/feed/post/${updated.id}`, { token: ada.token })).json);

      // `catchup` answers the same changes; `seq` says where the next one goes on from.
      const ack = await ask(socket, 'catchup', { since: base });
      assert.equal(ack.ok, true);
      assert.equal(ack.more, true);
      assert.equal(ack.seq, base + 1000);
      assert.deepEqual(ack.changes, replayed.map(({ event, payload }) => ({ type: event, ...payload })));
      const rest = await ask(socket, 'catchup', { since: ack.seq, limit: 3 });
      assert.deepEqual(rest.changes.map((c: { seq: number }) => c.seq), [base + 1001, base + 1002, base + 1003]);
      assert.equal(rest.more, true);
      const end = await ask(socket, 'catchup', { since: rest.seq, limit: 3 });
      assert.deepEqual([end.changes.map((c: { seq: number }) => c.seq), end.more, end.seq], [[base + 1004], false, base + 1004]);
    });

    it('tells a client to resync past 1,000 missed changes even when many were of posts deleted since', async () => {
      const gone = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'busy, then gone' } })).json;
      await call(feed.url, 'DELETE', `/feed/post/${gone.id}`, { token: ada.token });
      const base = await appendChanges(1004, { updated: gone.id, created: gone.id, deleted: gone.id });
      // Before, the 1,001 changes read held only 333 that could be sent, so no feed:resync came and the
      // changes past them were never told (this waited for ever).
      const { events } = await replayUntilResync(feed.url, base);
      const replayed = events.slice(0, -1);
      assert.deepEqual(replayed.map((e) => e.event), Array(333).fill('post:deleted'));
      assert.deepEqual(replayed.map((e) => e.payload.seq), Array.from({ length: 333 }, (_, k) => base + 3 * k + 2));
      assert.deepEqual(events[events.length - 1], { event: 'feed:resync', payload: { reason: 'more than 1000 changes were missed; reload GET /feed/posts', seq: base + 1004 } });
    });

    it('answers catchup with where to go on from when the changes it read were of posts deleted since', async () => {
      const gone = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'edited, then gone' } })).json;
      const base = Number((await store.sql('SELECT MAX(seq) AS seq FROM changes'))[0]!['seq']);
      for (let i = 0; i < 3; i++) await call(feed.url, 'PUT', `/feed/post/${gone.id}`, { token: ada.token, body: { body: `edit ${i}` } });
      await call(feed.url, 'DELETE', `/feed/post/${gone.id}`, { token: ada.token });
      const a = await connected(feed.url, { token: ada.token });
      // Before, the three edits of a deleted post filled the page: `{ changes: [], more: false }`, and the
      // deletion was never told.
      const first = await ask(a, 'catchup', { since: base, limit: 2 });
      assert.deepEqual([first.changes, first.more, first.seq], [[], true, base + 2]);
      const next = await ask(a, 'catchup', { since: first.seq, limit: 2 });
      assert.deepEqual(next.changes.map((c: { type: string; id?: string }) => [c.type, c.id]), [['post:deleted', gone.id]]);
      assert.equal(next.more, false);
    });

    it('acknowledges an event it does not listen for with not_found, instead of leaving the client waiting', async () => {
      const a = await connected(feed.url, { token: ada.token });
      const answer = await ask(a, 'post:create', { title: 'not an event' });
      assert.equal(answer.ok, false);
      assert.equal(answer.error.code, 'not_found');
      assert.match(answer.error.message, /no event "post:create"; the server answers subscribe, unsubscribe, catchup/);
      // The socket stays usable.
      assert.equal((await ask(a, 'catchup', { since: 0, limit: 1 })).ok, true);
    });

    it('keeps serving when clients vanish mid-replay and mid-request', async () => {
      for (let i = 0; i < 3; i++) await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: `replayed ${i}` } });
      // Twenty clients ask for the whole history and go away before it is sent.
      const leaving = Array.from({ length: 20 }, () => open(feed.url, { token: ada.token, since: 0 }));
      await Promise.all(leaving.map((s) => new Promise<void>((resolve) => s.once('connect', () => resolve()))));
      for (const s of leaving) s.disconnect();
      // A client that sends half a post and hangs up.
      const { hostname, port } = new URL(feed.url);
      await new Promise<void>((resolve) => {
        const half = connect(Number(port), hostname, () => {
          half.write(`POST /feed/post HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nAuthorization: Bearer ${ada.token}\r\n\r\n{"title":`);
          setTimeout(() => (half.destroy(), resolve()), 50);
        });
      });
      const b = await connected(feed.url, { token: bob.token });
      const created = collect(b, 'post:created');
      const post = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'after the vanishing' } })).json;
      const [event] = await created.until(1);
      assert.equal(event.post.id, post.id);
      assert.equal(feed.child.exitCode, null);
      assert.doesNotMatch(feed.output(), /"level":(50|60)/);
    });

    it('tells a client whose last seq is ahead of the store to resync, with the store\'s last seq', async () => {
      await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'the latest' } });
      const last = Number((await store.sql('SELECT MAX(seq) AS seq FROM changes'))[0]!['seq']);
      const ahead = open(feed.url, { token: ada.token, since: last + 1000 });
      const [resync] = await collect(ahead, 'feed:resync').until(1);
      assert.deepEqual(Object.keys(resync).sort(), ['reason', 'seq']);
      assert.equal(resync.seq, last);
      assert.match(resync.reason, /ahead of this store's last change/);
      // A client that is up to date is not told to resync.
      const current = await connected(feed.url, { token: ada.token, since: last });
      const resyncs = collect(current, 'feed:resync');
      assert.equal((await ask(current, 'catchup', { since: last })).changes.length, 0);
      assert.equal(resyncs.items.length, 0);
    });

    it('keeps a socket whose token lives longer than 24.8 days (JWT_LIFETIME=30d) open', async () => {
      // In the suite's server's place: an SQLite store serves one process.
      await feed.stop();
      const long = await startFeed({ env: { DATABASE_URL: store.url, JWT_LIFETIME: '30d' } });
      try {
        const session = await call(long.url, 'POST', '/auth/login', { body: { username: ada.username, password: ada.password } });
        const socket = await connected(long.url, { token: session.json.token });
        const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
        const outcome = await Promise.race([disconnected, new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 1500))]);
        assert.equal(outcome, 'still open');
        assert.doesNotMatch(long.output(), /TimeoutOverflowWarning/);
      } finally {
        await long.stop();
        feed = await startFeed({ env: { DATABASE_URL: store.url } });
      }
    });

    it('closes a socket when its token expires', async () => {
      const now = Math.floor(Date.now() / 1000);
      const shortLived = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(ada.id).setIssuedAt(now).setExpirationTime(now + 4).sign(new TextEncoder().encode(SECRET));
      const socket = await connected(feed.url, { token: shortLived });
      const reason = await new Promise<string>((resolve) => socket.once('disconnect', resolve));
      assert.equal(reason, 'io server disconnect');
    });

    if (kind.name === 'postgres') {
      it('acts as one feed across two processes on one Postgres: a client of one sees posts made through the other', async () => {
        const other = await startFeed({ env: { DATABASE_URL: store.url } });
        try {
          const onFirst = await connected(feed.url, { token: bob.token });
          const onSecond = await connected(other.url, { token: bob.token });
          const seenFirst = collect(onFirst, 'post:created');
          const seenSecond = collect(onSecond, 'post:created');
          const run = sampleRun('part def Cluster;');
          await ask(onFirst, 'subscribe', { model: modelHash(run.model.documents) });
          const modelChanges = collect(onFirst, 'model:change');

          const viaSecond = (await call(other.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'via the second process', run } })).json;
          const [[e1], [e2]] = await Promise.all([seenFirst.until(1), seenSecond.until(1)]);
          assert.deepEqual(e1.post, viaSecond);
          assert.deepEqual(e2, e1);
          const [m] = await modelChanges.until(1);
          assert.equal(m.post.id, viaSecond.id);

          const deleted = collect(onSecond, 'post:deleted');
          await call(feed.url, 'DELETE', `/feed/post/${viaSecond.id}`, { token: ada.token });
          const [d] = await deleted.until(1);
          assert.equal(d.id, viaSecond.id);
          // Reads through either process see the same store.
          assert.equal((await call(other.url, 'GET', `/feed/post/${viaSecond.id}`, { token: bob.token })).status, 404);
        } finally {
          await other.stop();
        }
      });

      it('numbers changes in commit order across processes: a client catching up while an earlier change commits misses nothing', async () => {
        // A trigger holds the post titled 'slow' after its change is numbered, until the test lets go of
        // lock 4242: a slow commit, as a busy database gives. Meanwhile another process posts 'fast'.
        await store.sql(`CREATE FUNCTION stall_slow() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF (SELECT title FROM posts WHERE id = NEW.post_id) = 'slow' THEN PERFORM pg_advisory_xact_lock_shared(4242); END IF;
            RETURN NEW;
          END $$`);
        await store.sql('CREATE TRIGGER stall_slow AFTER INSERT ON changes FOR EACH ROW EXECUTE FUNCTION stall_slow()');
        const holder = new pg.Client({ connectionString: store.url });
        await holder.connect();
        const other = await startFeed({ env: { DATABASE_URL: store.url } });
        const waiting = async (onStall: boolean) => Number((await store.sql(
          `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND (objid = 4242) = $1`, [onStall]))[0]!['n']);
        const until = async (done: () => Promise<boolean>) => {
          while (!(await done())) await new Promise((r) => setTimeout(r, 20));
        };
        try {
          await holder.query('SELECT pg_advisory_lock(4242)');
          const base = Number((await store.sql('SELECT COALESCE(MAX(seq), 0) AS seq FROM changes'))[0]!['seq']);
          const reader = await connected(feed.url, { token: bob.token });
          const slow = call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'slow' } });
          await until(async () => (await waiting(true)) > 0);
          let fastAnswered = false;
          const fast = call(other.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'fast' } }).then((r) => ((fastAnswered = true), r));
          // The fast post either commits now (numbered after the slow one, which has not committed) or
          // waits for the slow one to commit first.
          await until(async () => fastAnswered || (await waiting(false)) > 0);
          const during = await ask(reader, 'catchup', { since: base });
          await holder.query('SELECT pg_advisory_unlock(4242)');
          assert.equal((await slow).status, 201);
          assert.equal((await fast).status, 201);
          const afterwards = await ask(reader, 'catchup', { since: during.seq });
          const seen = [...during.changes, ...afterwards.changes].map((c: any) => c.post?.title).sort();
          assert.deepEqual(seen, ['fast', 'slow'], `caught up ${JSON.stringify(during)} then ${JSON.stringify(afterwards)}`);
        } finally {
          await store.sql('DROP TRIGGER IF EXISTS stall_slow ON changes');
          await holder.end();
          await other.stop();
        }
      });

      it('sends every client of either process the changes of both in seq order, and one reconnecting after the later change misses nothing', async () => {
        // 'six' (through the first process) has a run too large for one NOTIFY: its announcement goes
        // through a table row, and a trigger on that table holds it until the test lets go of lock 4243 —
        // after six's commit where the broadcast followed the commit (the socket.io adapter's
        // socket_io_attachments), inside six's transaction where it goes out at the commit (live_payloads).
        // Meanwhile 'seven' is posted through the second process.
        await store.sql(`CREATE FUNCTION stall_payload() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN PERFORM pg_advisory_xact_lock_shared(4243); RETURN NEW; END $$`);
        await store.sql(`DO $$ DECLARE t text; BEGIN
          FOREACH t IN ARRAY ARRAY['socket_io_attachments', 'live_payloads'] LOOP
            IF to_regclass(t) IS NOT NULL THEN
              EXECUTE format('CREATE TRIGGER stall_payload BEFORE INSERT ON %I FOR EACH ROW EXECUTE FUNCTION stall_payload()', t);
            END IF;
          END LOOP; END $$`);
        const holder = new pg.Client({ connectionString: store.url });
        await holder.connect();
        const other = await startFeed({ env: { DATABASE_URL: store.url } });
        const waiting = async (onStall: boolean) => Number((await store.sql(
          `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND (objid = 4243) = $1`, [onStall]))[0]!['n']);
        const until = async (done: () => Promise<boolean> | boolean) => {
          while (!(await done())) await new Promise((r) => setTimeout(r, 20));
        };
        try {
          const base = Number((await store.sql('SELECT COALESCE(MAX(seq), 0) AS seq FROM changes'))[0]!['seq']);
          const onFirst = await connected(feed.url, { token: bob.token });
          const onSecond = await connected(other.url, { token: bob.token });
          const leaving = await connected(other.url, { token: bob.token });
          const run = sampleRun(`part def Big { doc /* ${'x'.repeat(9000)} */ }`);
          const small = sampleRun('part def Small;'); // seven's announcement fits in one NOTIFY
          for (const r of [run, small]) assert.equal((await ask(onSecond, 'subscribe', { model: modelHash(r.model.documents) })).ok, true);
          const seen = [onFirst, onSecond].map((s) => collect(s, 'post:created'));
          const modelChanges = collect(onSecond, 'model:change');
          const leavingSeen = collect(leaving, 'post:created');
          // The third client drops its connection as soon as it has one change.
          leaving.once('post:created', () => leaving.disconnect());

          await holder.query('SELECT pg_advisory_lock(4243)');
          const six = call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'six', run } });
          await until(async () => (await waiting(true)) > 0);
          const seven = call(other.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'seven', run: small } });
          // Seven either is sent to clients now (its broadcast crossing six's) or waits for six to commit.
          await until(async () => seen.some((c) => c.items.length > 0) || (await waiting(false)) > 0);
          await holder.query('SELECT pg_advisory_unlock(4243)');
          assert.equal((await six).status, 201);
          assert.equal((await seven).status, 201);

          for (const client of seen) {
            const events = await client.until(2);
            assert.deepEqual(events.map((e) => [e.post.title, e.seq]), [['six', base + 1], ['seven', base + 2]]);
          }
          const changes = await modelChanges.until(2);
          assert.deepEqual(changes.map((c) => [c.post.title, c.seq]), [['six', base + 1], ['seven', base + 2]]);

          // Once both are out, the client that left comes back with the last seq it saw.
          const [first] = await leavingSeen.until(1);
          const back = open(other.url, { token: bob.token, since: first.seq });
          const replayed = collect(back, 'post:created');
          const caughtUp = await ask(back, 'catchup', { since: first.seq });
          const missing = [base + 1, base + 2].filter((seq) => seq > first.seq).length;
          const got = await replayed.until(missing);
          assert.deepEqual([first, ...got].map((e) => e.post.title).sort(), ['seven', 'six']);
          assert.deepEqual(caughtUp.changes.map((c: { seq: number }) => c.seq), got.map((e) => e.seq));
        } finally {
          await store.sql('DO $$ BEGIN IF to_regclass(\'socket_io_attachments\') IS NOT NULL THEN DROP TRIGGER IF EXISTS stall_payload ON socket_io_attachments; END IF; IF to_regclass(\'live_payloads\') IS NOT NULL THEN DROP TRIGGER IF EXISTS stall_payload ON live_payloads; END IF; END $$');
          await holder.end();
          await other.stop();
        }
      });

      it('reads the changes made while its listening connection was lost from the change log, and sends them in order', async () => {
        const other = await startFeed({ env: { DATABASE_URL: store.url } });
        try {
          const client = await connected(feed.url, { token: bob.token });
          const seen = collect(client, 'post:created');
          const listener = async () => (await store.sql(
            `SELECT pid, (extract(epoch FROM backend_start) * 1000)::bigint AS started FROM pg_stat_activity WHERE application_name = $1`,
            [`assay-feed live ${feed.child.pid}`])) as { pid: number; started: number }[];
          // The first process loses its listening connection (only it); a post through the second commits
          // before the first listens again — made sure of by the new connection's start time, else again.
          let missed: any;
          for (let attempt = 0; !missed && attempt < 20; attempt++) {
            const [current] = await listener();
            assert.ok(current, 'the first process listens');
            await store.sql('SELECT pg_terminate_backend($1)', [current.pid]);
            const post = (await call(other.url, 'POST', '/feed/post', { token: ada.token, body: { title: `while not listening ${attempt}` } })).json;
            const committed = Date.now(); // the answer comes after the commit
            let again: { pid: number; started: number } | undefined;
            while (!(again = (await listener()).find((l) => l.pid !== current.pid))) await new Promise((r) => setTimeout(r, 20));
            if (again.started > committed) missed = post;
          }
          assert.ok(missed, 'a post committed while the first process was not listening');
          const after = (await call(other.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'listening again' } })).json;
          while (!seen.items.some((e) => e.post.id === after.id)) await seen.until(seen.items.length + 1);
          assert.ok(seen.items.some((e) => e.post.id === missed.id), `${missed.title} was sent`);
          const seqs = seen.items.map((e) => e.seq);
          assert.deepEqual(seqs, [...seqs].sort((x, y) => x - y), 'in seq order');
          assert.equal(new Set(seqs).size, seqs.length, 'each once');
        } finally {
          await other.stop();
        }
      });

      it('replays 1,000 missed changes with a bounded number of database queries, not one per change', async () => {
        const post = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'counted' } })).json;
        const gone = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'counted, gone' } })).json;
        await call(feed.url, 'DELETE', `/feed/post/${gone.id}`, { token: ada.token });
        const proxy = await countingProxy(store.url);
        const counted = await startFeed({ env: { DATABASE_URL: proxy.url } });
        try {
          const base = await appendChanges(1004, { updated: post.id, created: post.id, deleted: gone.id });
          const before = proxy.queries();
          const { events } = await replayUntilResync(counted.url, base);
          const used = proxy.queries() - before;
          assert.equal(events.length, 1001);
          // The handshake's user, the last seq, and 11 pages of changes with 10 of posts; before, 1,000
          // post reads on top.
          assert.ok(used <= 40, `${used} queries for a replay of 1,000 changes`);
        } finally {
          await counted.stop();
          await proxy.close();
        }
      });

      it('survives the database dropping every connection: the processes stay up, answer again, and carry posts across again', async () => {
        const other = await startFeed({ env: { DATABASE_URL: store.url } });
        try {
          const onSecond = await connected(other.url, { token: bob.token });
          const seen = collect(onSecond, 'post:created');
          // What a database restart or a failover does to the servers' connections (LISTEN included).
          const killed = await store.sql('SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
          assert.ok(killed.length >= 2, `${killed.length} connections terminated`);
          // HTTP: a request may meet a connection that died; within a few tries both answer again.
          const until = async (check: () => Promise<boolean>, what: string) => {
            for (let i = 0; i < 50; i++) {
              if (await check().catch(() => false)) return;
              await new Promise((r) => setTimeout(r, 200));
            }
            assert.fail(`${what} did not come back`);
          };
          await until(async () => (await call(feed.url, 'GET', '/feed/posts', { token: ada.token })).status === 200, 'the first process');
          await until(async () => (await call(other.url, 'GET', '/feed/posts', { token: ada.token })).status === 200, 'the second process');
          // Live: once it listens again, a post through the first reaches the second's client.
          await until(async () => {
            const post = (await call(feed.url, 'POST', '/feed/post', { token: ada.token, body: { title: 'after the drop' } })).json;
            await new Promise((r) => setTimeout(r, 300));
            return seen.items.some((e) => e.post.id === post.id);
          }, 'the cross-process broadcast');
          assert.equal(feed.child.exitCode, null);
          assert.equal(other.child.exitCode, null);
        } finally {
          await other.stop();
        }
      });
    }
  });
}
