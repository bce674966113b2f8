// The feed's HTTP routes against a real `assay-feed` process on each store: auth, posts, users, every
// error code, tokens that must not pass, other users' posts, injection strings, and a restart.
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { SignJWT, generateKeyPair, decodeJwt } from 'jose';
import { modelHash } from '../../src/feed/shapes';
import { call, ensureBuilt, newUser, sampleRun, SECRET, startFeed, type FeedProcess } from './helpers';
import { STORES, type TestStore } from './stores';

/** An Argon2id PHC string with m ≥ 19 MiB, t ≥ 2, p = 1 (OWASP's minimum). */
function assertOwaspArgon2id(hash: string): void {
  const m = /^\$argon2id\$v=19\$([^$]+)\$[^$]+\$[^$]+$/.exec(hash);
  assert.ok(m, `not an Argon2id hash: ${hash}`);
  const params = Object.fromEntries(m[1]!.split(',').map((kv) => kv.split('=') as [string, string]));
  assert.ok(Number(params['m']) >= 19456, `m=${params['m']}`);
  assert.ok(Number(params['t']) >= 2, `t=${params['t']}`);
  assert.equal(Number(params['p']), 1);
}

/**
 * POST over a plain socket that declares a body of `length` bytes and sends none of it: a server that
 * refuses a body by its Content-Length answers at once. (Sending megabytes it will not read would get
 * the answer lost in a connection reset.)
 */
function declaredPost(base: string, path: string, token: string, length: number): Promise<{ status: number; json: any }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const m = /^HTTP\/1\.1 (\d+)[^]*?content-length: (\d+)[^]*?\r\n\r\n([^]*)$/i.exec(received);
      if (m && Buffer.byteLength(m[3]!) >= Number(m[2])) {
        socket.destroy();
        resolve({ status: Number(m[1]), json: JSON.parse(m[3]!) });
      }
    });
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nAuthorization: Bearer ${token}\r\n\r\n{"title":"big","body":"`);
    });
  });
}

/** Sends `request` as it is over a plain socket; the status and JSON body of the answer. */
function rawRequest(base: string, request: string): Promise<{ status: number; type: string; json: any }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const done = () => {
      const m = /^HTTP\/1\.1 (\d+)[^]*?\r\n\r\n([^]*)$/.exec(received);
      if (!m) return reject(new Error(`no HTTP answer: ${JSON.stringify(received)}`));
      const type = /content-type: ([^\r]*)/i.exec(received)?.[1] ?? '';
      resolve({ status: Number(m[1]), type, json: JSON.parse(m[2]!) });
    };
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('end', done);
    socket.on('error', () => (received ? done() : reject(new Error('connection failed'))));
    socket.on('connect', () => socket.end(request));
  });
}

/** The contract's error body with this code, and nothing else. */
function assertErrorBody(json: any, code: string): void {
  assert.deepEqual(Object.keys(json), ['error'], JSON.stringify(json));
  assert.equal(json.error.code, code, JSON.stringify(json));
  assert.equal(typeof json.error.message, 'string');
}

const key = (secret: string) => new TextEncoder().encode(secret);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Tokens that must be refused, each with what is wrong with it. */
async function badTokens(userId: string): Promise<[string, string][]> {
  const now = Math.floor(Date.now() / 1000);
  const { privateKey } = await generateKeyPair('RS256');
  return [
    ['forged (another secret)', await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(userId).setIssuedAt().setExpirationTime('1h').sign(key(`${SECRET}-not`))],
    ['expired', await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(userId).setIssuedAt(now - 7200).setExpirationTime(now - 3600).sign(key(SECRET))],
    ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: userId, iat: now, exp: now + 3600 })}.`],
    ['RS256', await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setSubject(userId).setIssuedAt().setExpirationTime('1h').sign(privateKey)],
    ['HS512 with the right secret', await new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).setSubject(userId).setIssuedAt().setExpirationTime('1h').sign(key(SECRET))],
    ['no exp', await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(userId).setIssuedAt().sign(key(SECRET))],
    ['a user that does not exist', await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(randomUUID()).setIssuedAt().setExpirationTime('1h').sign(key(SECRET))],
    ['garbage', 'not.a.token'],
  ];
}

for (const kind of STORES) {
  describe(`feed: HTTP routes (${kind.name})`, function () {
    this.timeout(60_000);
    let store: TestStore;
    let feed: FeedProcess;
    let base: string;
    let ada: Awaited<ReturnType<typeof newUser>>;
    let bob: Awaited<ReturnType<typeof newUser>>;

    before(async function () {
      ensureBuilt();
      store = await kind.create(this);
      feed = await startFeed({ env: { DATABASE_URL: store.url } });
      base = feed.url;
      ada = await newUser(base, 'ada');
      bob = await newUser(base, 'bob');
    });
    after(async () => {
      await feed?.stop();
    });

    describe('auth', () => {
      it('signs up with 201 and a token whose claims are sub, iat and exp (1 h by default)', async () => {
        const r = await call(base, 'POST', '/auth/signup', { body: { username: `carol${process.pid}`, password: 'a long enough password' } });
        assert.equal(r.status, 201);
        assert.deepEqual(Object.keys(r.json).sort(), ['expiresAt', 'token', 'user']);
        assert.equal(r.json.user.username, `carol${process.pid}`);
        assert.equal(r.headers.get('location'), `/users/${r.json.user.id}`);
        const claims = decodeJwt(r.json.token);
        assert.deepEqual(Object.keys(claims).sort(), ['exp', 'iat', 'sub']);
        assert.equal(claims.sub, r.json.user.id);
        assert.equal(claims.exp! - claims.iat!, 3600);
        assert.equal(new Date(r.json.expiresAt).getTime(), claims.exp! * 1000);
        assert.ok(!r.text.includes('a long enough password'), '!r.text.includes(\'a long enough password\')');
      });

      it('logs in with the right password, and answers 401 for a wrong one or an unknown user alike', async () => {
        const ok = await call(base, 'POST', '/auth/login', { body: { username: ada.username, password: ada.password } });
        assert.equal(ok.status, 200);
        assert.equal(ok.json.user.id, ada.id);
        assert.equal(decodeJwt(ok.json.token).sub, ada.id);
        // Usernames are case-insensitive.
        assert.equal((await call(base, 'POST', '/auth/login', { body: { username: ada.username.toUpperCase(), password: ada.password } })).status, 200);
        const wrong = await call(base, 'POST', '/auth/login', { body: { username: ada.username, password: 'wrong password!' } });
        const unknown = await call(base, 'POST', '/auth/login', { body: { username: 'nobody-here', password: 'wrong password!' } });
        assert.equal(wrong.status, 401);
        assert.equal(unknown.status, 401);
        assert.deepEqual(wrong.json, unknown.json);
        assert.equal(wrong.json.error.code, 'unauthorized');
      });

      it('answers 409 for a username taken (in any case) and 400 with the field path for a bad body', async () => {
        const taken = await call(base, 'POST', '/auth/signup', { body: { username: ada.username.toUpperCase(), password: 'another password' } });
        assert.equal(taken.status, 409);
        assert.equal(taken.json.error.code, 'username_taken');
        const short = await call(base, 'POST', '/auth/signup', { body: { username: 'dora', password: 'short' } });
        assert.equal(short.status, 400);
        assert.equal(short.json.error.code, 'validation');
        assert.deepEqual(short.json.error.details.issues.map((i: { path: string }) => i.path), ['body.password']);
        const extra = await call(base, 'POST', '/auth/signup', { body: { username: 'dora', password: 'long enough pw', admin: true } });
        assert.equal(extra.status, 400);
        assert.match(extra.json.error.message, /body: Unrecognized key: "admin"/);
        const badName = await call(base, 'POST', '/auth/signup', { body: { username: "x'; DROP TABLE users;--", password: 'long enough pw' } });
        assert.equal(badName.status, 400);
        assert.equal(badName.json.error.details.issues[0].path, 'body.username');
      });

      it('stores an Argon2id hash at the OWASP parameters, never the password, and logs neither', async () => {
        const rows = await store.sql('SELECT password_hash FROM users WHERE id = $1', [ada.id]);
        const hash = String(rows[0]!['password_hash']);
        assertOwaspArgon2id(hash);
        assert.ok(!hash.includes(ada.password), '!hash.includes(ada.password)');
        assert.ok(!feed.output().includes(ada.password), 'the password appears in the server output');
        assert.ok(!feed.output().includes('Bearer ey'), 'a token appears in the server output');
      });
    });

    describe('users', () => {
      it('lists and finds users (with a token) without their password hashes', async () => {
        const list = await call(base, 'GET', '/users?limit=100', { token: ada.token });
        assert.equal(list.status, 200);
        assert.ok(list.json.users.some((u: { id: string }) => u.id === bob.id), 'list.json.users.some((u: { id: string }) => u.id === bob.id)');
        assert.ok(!list.text.includes('argon2'), '!list.text.includes(\'argon2\')');
        const one = await call(base, 'GET', `/users/${bob.id}`, { token: ada.token });
        assert.deepEqual(Object.keys(one.json).sort(), ['createdAt', 'id', 'username']);
        assert.equal((await call(base, 'GET', `/users/${randomUUID()}`, { token: ada.token })).status, 404);
      });

      it('changes one\'s own password to a new stored hash; not another user\'s (403), not without the current one (403)', async () => {
        const eve = await newUser(base, 'eve');
        const before = (await store.sql('SELECT password_hash FROM users WHERE id = $1', [eve.id]))[0]!['password_hash'];
        const other = await call(base, 'PUT', `/users/${eve.id}`, { token: bob.token, body: { currentPassword: eve.password, password: 'bob was here 123' } });
        assert.equal(other.status, 403);
        const wrongCurrent = await call(base, 'PUT', `/users/${eve.id}`, { token: eve.token, body: { currentPassword: 'not it at all', password: 'new password 456' } });
        assert.equal(wrongCurrent.status, 403);
        const changed = await call(base, 'PUT', `/users/${eve.id}`, { token: eve.token, body: { currentPassword: eve.password, password: 'new password 456' } });
        assert.equal(changed.status, 200);
        assert.equal(changed.json.id, eve.id);
        const after = String((await store.sql('SELECT password_hash FROM users WHERE id = $1', [eve.id]))[0]!['password_hash']);
        assert.notEqual(after, before);
        assertOwaspArgon2id(after);
        assert.ok(!after.includes('new password 456'), '!after.includes(\'new password 456\')');
        assert.equal((await call(base, 'POST', '/auth/login', { body: { username: eve.username, password: eve.password } })).status, 401);
        assert.equal((await call(base, 'POST', '/auth/login', { body: { username: eve.username, password: 'new password 456' } })).status, 200);
        assert.ok(!feed.output().includes('new password 456'), '!feed.output().includes(\'new password 456\')');
      });

      it('signs up only through the rate-limited /auth/signup, not POST /users (405)', async () => {
        const r = await call(base, 'POST', '/users/', { body: { username: `frank${process.pid}`, password: 'franks password' } });
        assert.equal(r.status, 405);
        assert.equal(r.headers.get('allow'), 'GET, HEAD, OPTIONS');
      });

      it('has no DELETE for users (405 with Allow)', async () => {
        const r = await call(base, 'DELETE', `/users/${ada.id}`, { token: ada.token });
        assert.equal(r.status, 405);
        assert.equal(r.headers.get('allow'), 'GET, HEAD, PUT, OPTIONS');
      });
    });

    describe('posts', () => {
      it('creates a post (201, Location) and reads it back by id', async () => {
        const r = await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 'First', body: 'hello team' } });
        assert.equal(r.status, 201);
        assert.equal(r.headers.get('location'), `/feed/post/${r.json.id}`);
        assert.deepEqual(r.json.author, { id: ada.id, username: ada.username });
        assert.equal(r.json.createdAt, r.json.updatedAt);
        assert.equal(r.json.run, undefined);
        const got = await call(base, 'GET', `/feed/post/${r.json.id}`, { token: bob.token });
        assert.equal(got.status, 200);
        assert.deepEqual(got.json, r.json);
      });

      it('carries a run with its model texts and the content hash the server computed', async () => {
        const run = sampleRun();
        const r = await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 'Pump violates flowOk', run } });
        assert.equal(r.status, 201);
        const hash = modelHash(run.model.documents);
        assert.match(hash, /^sha256:[0-9a-f]{64}$/);
        assert.deepEqual(r.json.run, { ...run, model: { ...run.model, hash } });
        assert.equal(r.json.body, '');
        // The same hash given by the client is accepted; another one is not.
        assert.equal((await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 'again', run: { ...run, model: { ...run.model, hash } } } })).status, 201);
        const wrong = await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 'x', run: { ...run, model: { ...run.model, hash: `sha256:${'0'.repeat(64)}` } } } });
        assert.equal(wrong.status, 400);
        assert.equal(wrong.json.error.details.issues[0].path, 'body.run.model.hash');
        // Filter by model.
        const byModel = await call(base, 'GET', `/feed/posts?model=${encodeURIComponent(hash)}`, { token: bob.token });
        assert.equal(byModel.json.posts.length, 2);
        assert.ok(byModel.json.posts.every((p: { run: { model: { hash: string } } }) => p.run.model.hash === hash), 'byModel.json.posts.every((p: { run: { model: { hash: string } } }) => p.run.model.hash === hash)');
      });

      it('refuses a malformed run with 400 naming the field path', async () => {
        const run = sampleRun();
        const cases: [unknown, string][] = [
          [{ ...run, question: { ...run.question, kind: 'prove' } }, 'body.run.question.kind'],
          [{ ...run, result: { ...run.result, strength: 'certain' } }, 'body.run.result.strength'],
          [{ ...run, standing: { ...run.standing, claimed: 'proved' } }, 'body.run.standing.claimed'],
          [{ ...run, model: { documents: [] } }, 'body.run.model.documents'],
          [{ ...run, secret: 1 }, 'body.run'],
        ];
        for (const [bad, path] of cases) {
          const r = await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 't', run: bad } });
          assert.equal(r.status, 400, path);
          assert.ok(r.json.error.details.issues.some((i: { path: string }) => i.path === path), `${path} in ${r.text}`);
        }
      });

      it('lists all posts newest first, a page at a time by limit and cursor', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) ids.push((await call(base, 'POST', '/feed/post', { token: bob.token, body: { title: `page ${i}` } })).json.id);
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const r: Awaited<ReturnType<typeof call>> = await call(base, 'GET', `/feed/posts?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: ada.token });
          assert.equal(r.status, 200);
          assert.ok(r.json.posts.length <= 2, 'r.json.posts.length <= 2');
          seen.push(...r.json.posts.map((p: { id: string }) => p.id));
          cursor = r.json.next;
          pages++;
        } while (cursor && pages < 100);
        const all = await call(base, 'GET', '/feed/posts?limit=100', { token: ada.token });
        assert.deepEqual(seen, all.json.posts.map((p: { id: string }) => p.id));
        // The Post resource's own Index answers the same.
        assert.deepEqual((await call(base, 'GET', '/feed/post/?limit=100', { token: ada.token })).json, all.json);
        const head = await call(base, 'HEAD', '/feed/posts', { token: ada.token });
        assert.equal(head.status, 200);
        assert.equal(head.text, '');
        assert.deepEqual(seen.slice(0, 5), [...ids].reverse());
        const times = all.json.posts.map((p: { createdAt: string }) => p.createdAt);
        assert.deepEqual(times, [...times].sort().reverse());
        const mine = await call(base, 'GET', `/feed/posts?author=${bob.id}&limit=100`, { token: ada.token });
        assert.ok(mine.json.posts.length >= 5 && mine.json.posts.every((p: { author: { id: string } }) => p.author.id === bob.id), 'mine.json.posts.length >= 5 && mine.json.posts.every((p: { author: { id: string } }) => p.author.id === bob.id)');
        const badLimit = await call(base, 'GET', '/feed/posts?limit=1000', { token: ada.token });
        assert.equal(badLimit.status, 400);
        assert.equal(badLimit.json.error.details.issues[0].path, 'query.limit');
        const badCursor = await call(base, 'GET', '/feed/posts?cursor=nonsense', { token: ada.token });
        assert.equal(badCursor.status, 400);
        assert.equal(badCursor.json.error.details.issues[0].path, 'query.cursor');
        // A cursor of one listing is not a position in the other (it paged to nothing or to the wrong place).
        const postsCursor = (await call(base, 'GET', '/feed/posts?limit=1', { token: ada.token })).json.next;
        const usersCursor = (await call(base, 'GET', '/users?limit=1', { token: ada.token })).json.next;
        assert.equal(typeof postsCursor, 'string');
        assert.equal(typeof usersCursor, 'string');
        const crossed = await call(base, 'GET', `/users?cursor=${postsCursor}`, { token: ada.token });
        assert.equal(crossed.status, 400);
        assert.deepEqual(crossed.json.error.details.issues, [{ path: 'query.cursor', message: 'not a cursor this server gave out for GET /users' }]);
        assert.equal((await call(base, 'GET', `/feed/posts?cursor=${usersCursor}`, { token: ada.token })).status, 400);
        assert.equal((await call(base, 'GET', `/users?cursor=${usersCursor}`, { token: ada.token })).status, 200);
      });

      it('lets only the author update (200) or delete (204); another user gets 403, a missing post 404', async () => {
        const post = (await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 'mine', body: 'v1', run: sampleRun() } })).json;
        assert.equal((await call(base, 'PUT', `/feed/post/${post.id}`, { token: bob.token, body: { title: 'hijacked' } })).status, 403);
        const denied = await call(base, 'DELETE', `/feed/post/${post.id}`, { token: bob.token });
        assert.equal(denied.status, 403);
        assert.equal(denied.json.error.code, 'forbidden');
        assert.equal((await call(base, 'GET', `/feed/post/${post.id}`, { token: bob.token })).json.title, 'mine');

        const updated = await call(base, 'PUT', `/feed/post/${post.id}`, { token: ada.token, body: { body: 'v2', run: null } });
        assert.equal(updated.status, 200);
        assert.equal(updated.json.title, 'mine');
        assert.equal(updated.json.body, 'v2');
        assert.equal(updated.json.run, undefined);
        assert.ok(updated.json.updatedAt >= post.updatedAt, 'updated.json.updatedAt >= post.updatedAt');
        assert.equal(updated.json.createdAt, post.createdAt);
        const empty = await call(base, 'PUT', `/feed/post/${post.id}`, { token: ada.token, body: {} });
        assert.equal(empty.status, 400);

        assert.equal((await call(base, 'DELETE', `/feed/post/${post.id}`, { token: ada.token })).status, 204);
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const r = await call(base, method, `/feed/post/${post.id}`, { token: ada.token, ...(method === 'PUT' ? { body: { title: 'x' } } : {}) });
          assert.equal(r.status, 404, method);
          assert.equal(r.json.error.code, 'not_found');
        }
      });

      it('stores SQL injection strings verbatim and finds nothing with them', async () => {
        const nasty = ["'; DROP TABLE posts; --", '" OR 1=1 --', "Robert'); DELETE FROM users WHERE ('1'='1", '$1 ?1 \\x00 %s %'];
        for (const text of nasty) {
          const r = await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: text, body: text } });
          assert.equal(r.status, 201);
          const got = await call(base, 'GET', `/feed/post/${r.json.id}`, { token: ada.token });
          assert.equal(got.json.title, text);
          assert.equal(got.json.body, text);
        }
        for (const text of nasty) {
          assert.equal((await call(base, 'GET', `/feed/post/${encodeURIComponent(text)}`, { token: ada.token })).status, 404);
          const byAuthor = await call(base, 'GET', `/feed/posts?author=${encodeURIComponent(text)}`, { token: ada.token });
          assert.equal(byAuthor.status, 200);
          assert.deepEqual(byAuthor.json.posts, []);
          assert.equal((await call(base, 'POST', '/auth/login', { body: { username: text.slice(0, 40), password: text } })).status, 401);
        }
        assert.ok((await store.sql('SELECT COUNT(*) AS n FROM users'))[0]!['n']! as number >= 2, '(await store.sql(\'SELECT COUNT(*) AS n FROM users\'))[0]![\'n\']! as number >= 2');
        assert.equal((await call(base, 'GET', `/feed/posts?limit=1`, { token: ada.token })).status, 200);
      });
    });

    describe('errors', () => {
      it('answers 401 on every protected route for a missing, forged, expired, none, RS256… token', async () => {
        const post = (await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 'target' } })).json;
        const routes: [string, string, unknown?][] = [
          ['GET', '/feed/posts'],
          ['HEAD', '/feed/posts'],
          ['GET', '/feed/post/'],
          ['POST', '/feed/post', { title: 'x' }],
          ['GET', `/feed/post/${post.id}`],
          ['PUT', `/feed/post/${post.id}`, { title: 'x' }],
          ['DELETE', `/feed/post/${post.id}`],
          ['GET', '/users'],
          ['GET', `/users/${ada.id}`],
          ['PUT', `/users/${ada.id}`, { currentPassword: ada.password, password: 'taken over 123' }],
        ];
        const tokens: [string, string | undefined][] = [['missing', undefined], ...(await badTokens(ada.id))];
        for (const [method, path, body] of routes) {
          for (const [what, token] of tokens) {
            const r = await call(base, method, path, { ...(token !== undefined ? { token } : {}), ...(body !== undefined ? { body } : {}) });
            assert.equal(r.status, 401, `${method} ${path} with a ${what} token: ${r.status} ${r.text}`);
            if (method !== 'HEAD') assert.equal(r.json.error.code, 'unauthorized');
            assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
          }
        }
        const scheme = await call(base, 'GET', '/feed/posts', { headers: { authorization: `Basic ${ada.token}` } });
        assert.equal(scheme.status, 401);
        // Nothing changed underneath.
        assert.equal((await call(base, 'GET', `/feed/post/${post.id}`, { token: ada.token })).json.title, 'target');
        assert.equal((await call(base, 'POST', '/auth/login', { body: { username: ada.username, password: ada.password } })).status, 200);
      });

      it('answers 405 with Allow for a method a route lacks, and OPTIONS with Allow', async () => {
        const cases: [string, string, string][] = [
          ['PATCH', '/feed/post/x', 'GET, HEAD, PUT, DELETE, OPTIONS'],
          ['DELETE', '/feed/post', 'GET, HEAD, POST, OPTIONS'],
          ['POST', '/feed/posts', 'GET, HEAD, OPTIONS'],
          ['GET', '/auth/login', 'POST'],
          ['PUT', '/auth/signup', 'POST'],
        ];
        for (const [method, path, allow] of cases) {
          const r = await call(base, method, path, { token: ada.token });
          assert.equal(r.status, 405, `${method} ${path}`);
          assert.equal(r.headers.get('allow'), allow);
          assert.equal(r.json.error.code, 'method_not_allowed');
        }
        const options = await call(base, 'OPTIONS', '/feed/posts');
        assert.equal(options.status, 204);
        assert.equal(options.headers.get('allow'), 'GET, HEAD, OPTIONS');
      });

      it('answers 404 for an unknown route, 415 for a non-JSON body, 400 for broken JSON, 413 for a body over the limit', async () => {
        const none = await call(base, 'GET', '/feed/nothing', { token: ada.token });
        assert.equal(none.status, 404);
        assert.equal(none.json.error.code, 'not_found');
        const text = await call(base, 'POST', '/feed/post', { token: ada.token, raw: 'title=x', headers: { 'content-type': 'text/plain' } });
        assert.equal(text.status, 415);
        assert.equal(text.json.error.code, 'unsupported_media_type');
        const form = await call(base, 'POST', '/auth/login', { raw: 'username=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        assert.equal(form.status, 415);
        const broken = await call(base, 'POST', '/feed/post', { token: ada.token, raw: '{"title": ', headers: { 'content-type': 'application/json' } });
        assert.equal(broken.status, 400);
        assert.equal(broken.json.error.code, 'validation');
        assert.match(broken.json.error.details.issues[0].message, /^not valid JSON: /);
        const proto = await call(base, 'POST', '/feed/post', { token: ada.token, raw: '{"title":"x","__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } });
        assert.equal(proto.status, 400);
        assert.deepEqual(proto.json.error.details.issues, [{ path: 'body', message: 'a "__proto__" or "constructor.prototype" key is refused' }]);
        const big = await declaredPost(base, '/feed/post', ada.token, 5 * 1024 * 1024);
        assert.equal(big.status, 413);
        assert.equal(big.json.error.code, 'payload_too_large');
        assert.match(big.json.error.message, /BODY_LIMIT/);
        const long = await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 'long', body: 'x'.repeat(20_001) } });
        assert.equal(long.status, 400);
        assert.equal(long.json.error.details.issues[0].path, 'body.body');
      });

      it('refuses a body declared in a charset other than UTF-8 (415) and bytes that are not UTF-8 (400), storing nothing misread', async () => {
        const before = (await call(base, 'GET', '/feed/posts?limit=100', { token: ada.token })).json.posts.length;
        const send = (contentType: string, bytes: Buffer) =>
          fetch(`${base}/feed/post`, { method: 'POST', headers: { authorization: `Bearer ${ada.token}`, 'content-type': contentType }, body: new Uint8Array(bytes) }).then(async (r) => ({
            status: r.status,
            json: (await r.json()) as any,
          }));
        // "Café" as a UTF-16 or Latin-1 client sends it: before, read as UTF-8 and stored as "Caf\uFFFD" (201).
        for (const [contentType, bytes] of [
          ['application/json; charset=utf-16le', Buffer.from('{"title":"Café"}', 'utf16le')],
          ['application/json; charset=UTF-16', Buffer.from('{"title":"Café"}', 'utf16le')],
          ['application/json;charset="iso-8859-1"', Buffer.from('{"title":"Café"}', 'latin1')],
          ['application/json; charset=latin1', Buffer.from('{"title":"Café"}', 'latin1')],
        ] as const) {
          const r = await send(contentType, bytes);
          assert.equal(r.status, 415, contentType);
          assertErrorBody(r.json, 'unsupported_media_type');
          assert.match(r.json.error.message, /charset is "(utf-16le|utf-16|iso-8859-1|latin1)"; send JSON in UTF-8/);
        }
        const notUtf8 = await send('application/json', Buffer.from('{"title":"Café"}', 'latin1'));
        assert.equal(notUtf8.status, 400);
        assert.deepEqual(notUtf8.json.error.details.issues, [{ path: 'body', message: 'not valid UTF-8 (a JSON body is UTF-8)' }]);
        assert.equal((await call(base, 'GET', '/feed/posts?limit=100', { token: ada.token })).json.posts.length, before);
        // UTF-8, declared or not (any spelling), is read as such.
        for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8']) {
          const r = await send(contentType, Buffer.from('{"title":"Café ✓"}', 'utf8'));
          assert.equal(r.status, 201, contentType);
          assert.equal(r.json.title, 'Café ✓');
        }
      });
    });

    describe('the HTTP layer', () => {
      it('answers requests refused before routing with the contract\'s error body (bad URL, over-long id, broken HTTP, huge headers)', async () => {
        const badUrl = await call(base, 'GET', '/feed/post/%zz', { token: ada.token });
        assert.equal(badUrl.status, 400);
        assertErrorBody(badUrl.json, 'bad_request');
        const longId = await call(base, 'GET', `/feed/post/${'a'.repeat(300)}`, { token: ada.token });
        assert.equal(longId.status, 414);
        assertErrorBody(longId.json, 'bad_request');
        const { host } = new URL(base);
        const broken = await rawRequest(base, `GET /feed/posts HTTP/1.1\r\nHost: ${host}\r\nNo colon here\r\n\r\n`);
        assert.equal(broken.status, 400);
        assert.match(broken.type, /^application\/json/);
        assertErrorBody(broken.json, 'bad_request');
        const huge = await rawRequest(base, `GET /feed/posts HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        assert.equal(huge.status, 431);
        assertErrorBody(huge.json, 'bad_request');
      });

      it('deletes with Content-Type: application/json and no body (204), and still needs a body on POST', async () => {
        const post = await call(base, 'POST', '/feed/post', { token: ada.token, body: { title: 'to delete' } });
        const del = await call(base, 'DELETE', `/feed/post/${post.json.id}`, { token: ada.token, headers: { 'content-type': 'application/json' } });
        assert.equal(del.status, 204, del.text);
        assert.equal((await call(base, 'GET', `/feed/post/${post.json.id}`, { token: ada.token })).status, 404);
        const options = await call(base, 'OPTIONS', '/feed/post', { headers: { 'content-type': 'application/json' } });
        assert.equal(options.status, 204);
        const empty = await call(base, 'POST', '/feed/post', { token: ada.token, headers: { 'content-type': 'application/json' } });
        assert.equal(empty.status, 400);
        assert.equal(empty.json.error.code, 'validation');
        assert.equal(empty.json.error.details.issues[0].path, 'body');
      });

      it('answers a query parameter given twice with 400 naming it', async () => {
        const r = await call(base, 'GET', '/feed/posts?limit=1&limit=2', { token: ada.token });
        assert.equal(r.status, 400);
        assert.equal(r.json.error.code, 'validation');
        assert.deepEqual(r.json.error.details.issues, [{ path: 'query.limit', message: 'given more than once; give it once' }]);
        const users = await call(base, 'GET', '/users?cursor=a&cursor=b', { token: ada.token });
        assert.equal(users.status, 400);
        assert.equal(users.json.error.details.issues[0].path, 'query.cursor');
      });
    });

    describe('concurrency', () => {
      it('creates every one of 40 posts sent at once, each with its own id and seq, all listed', async () => {
        const titles = Array.from({ length: 40 }, (_, i) => `together ${i}`);
        const answers = await Promise.all(titles.map((title, i) => call(base, 'POST', '/feed/post', { token: i % 2 ? ada.token : bob.token, body: { title, run: sampleRun(`part def P${i};`) } })));
        assert.deepEqual(answers.map((a) => a.status), titles.map(() => 201));
        const ids = new Set(answers.map((a) => a.json.id));
        assert.equal(ids.size, titles.length);
        const listed: any[] = [];
        let cursor: string | null = null;
        do {
          const page: any = await call(base, 'GET', `/feed/posts?limit=7${cursor ? `&cursor=${cursor}` : ''}`, { token: ada.token });
          assert.equal(page.status, 200);
          listed.push(...page.json.posts);
          cursor = page.json.next;
        } while (cursor);
        const listedIds = listed.map((p) => p.id);
        assert.equal(new Set(listedIds).size, listedIds.length, 'a post listed twice across pages');
        for (const id of ids) assert.ok(listedIds.includes(id), `post ${id} is not listed`);
        const seqs = await store.sql("SELECT seq FROM changes WHERE type = 'post:created'");
        assert.equal(new Set(seqs.map((r) => Number(r['seq']))).size, seqs.length);
      });

      it('gives a username to exactly one of 8 sign-ups sent at once; the others get 409', async () => {
        const username = `race${process.pid}${kind.name}`;
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) => call(base, 'POST', '/auth/signup', { body: { username: i % 2 ? username : username.toUpperCase(), password: `password number ${i}` } })),
        );
        const statuses = answers.map((a) => a.status).sort();
        assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
        for (const a of answers.filter((x) => x.status === 409)) assert.equal(a.json.error.code, 'username_taken');
      });
    });

    describe('restart', () => {
      it('keeps users, posts and runs across a restart, and tokens stay valid', async () => {
        for (const title of ['kept 1', 'kept 2']) await call(base, 'POST', '/feed/post', { token: bob.token, body: { title, run: sampleRun() } });
        const before = await call(base, 'GET', '/feed/posts?limit=100', { token: ada.token });
        assert.ok(before.json.posts.length >= 2, `${before.json.posts.length} posts before the restart`);
        await feed.stop();
        feed = await startFeed({ env: { DATABASE_URL: store.url } });
        base = feed.url;
        assert.doesNotMatch(feed.output(), /first start/);
        const after = await call(base, 'GET', '/feed/posts?limit=100', { token: ada.token });
        assert.equal(after.status, 200);
        assert.deepEqual(after.json, before.json);
        assert.equal((await call(base, 'POST', '/auth/login', { body: { username: bob.username, password: bob.password } })).status, 200);
      });
    });

    describe('limits and failures', () => {
      it('answers 429 with Retry-After once the auth routes are asked too often', async () => {
        // In the suite's server's place: an SQLite store serves one process.
        await feed.stop();
        const limited = await startFeed({ env: { DATABASE_URL: store.url, AUTH_RATE_LIMIT: '3' } });
        try {
          const statuses: number[] = [];
          let last: Awaited<ReturnType<typeof call>> | undefined;
          for (let i = 0; i < 5; i++) {
            last = await call(limited.url, 'POST', '/auth/login', { body: { username: ada.username, password: 'wrong password!' } });
            statuses.push(last.status);
          }
          assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
          assert.equal(last!.json.error.code, 'rate_limited');
          assert.ok(Number(last!.headers.get('retry-after')) > 0, 'Number(last!.headers.get(\'retry-after\')) > 0');
          // Posts are not rate limited by the auth limit.
          assert.equal((await call(limited.url, 'GET', '/feed/posts', { token: ada.token })).status, 200);
        } finally {
          await limited.stop();
          feed = await startFeed({ env: { DATABASE_URL: store.url } });
          base = feed.url;
        }
      });

      it('answers 500 without internals when the store fails, and logs the cause', async () => {
        await store.sql('ALTER TABLE posts RENAME TO posts_gone');
        try {
          const r = await call(base, 'GET', '/feed/posts', { token: ada.token });
          assert.equal(r.status, 500);
          assert.equal(r.json.error.code, 'internal');
          assert.equal(typeof r.json.error.details.requestId, 'string');
          assert.doesNotMatch(r.text, /posts|table|relation|sql|stack|at /i);
          assert.match(feed.output(), /posts/);
        } finally {
          await store.sql('ALTER TABLE posts_gone RENAME TO posts');
        }
        assert.equal((await call(base, 'GET', '/feed/posts', { token: ada.token })).status, 200);
      });
    });
  });
}
