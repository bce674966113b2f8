// Stopping assay-feed (SIGTERM, as a process manager does): a request in flight is answered and stored,
// its connection ended, live sockets closed, and the process exits without waiting out keep-alives.
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import { io as connectClient } from 'socket.io-client';
import { ensureBuilt, newUser, startFeed } from './helpers';
import { STORES } from './stores';

for (const kind of STORES) {
  describe(`feed: shutting down (${kind.name})`, function () {
    this.timeout(60_000);
    before(() => ensureBuilt());

    it('answers and stores a request in flight at SIGTERM, ends its connection, closes live sockets and exits 0', async function () {
      const store = await kind.create(this);
      const feed = await startFeed({ env: { DATABASE_URL: store.url } });
      const ada = await newUser(feed.url, 'ada');
      const live = connectClient(feed.url, { auth: { token: ada.token }, transports: ['websocket'], reconnection: false, forceNew: true });
      await new Promise<void>((resolve, reject) => (live.once('connect', () => resolve()), live.once('connect_error', reject)));
      const liveClosed = new Promise<string>((resolve) => live.once('disconnect', resolve));

      // A POST whose headers the server has read (it answers 100 Continue) and whose body is still to come.
      const { hostname, port } = new URL(feed.url);
      const body = JSON.stringify({ title: 'sent while the server stops' });
      const raw = connect(Number(port), hostname);
      let got = '';
      const seen: (() => void)[] = [];
      const until = (test: () => boolean) => new Promise<void>((resolve) => {
        const check = () => (test() ? resolve() : seen.push(check));
        check();
      });
      let ended = false;
      raw.on('data', (chunk: Buffer) => ((got += chunk.toString('utf8')), seen.splice(0).forEach((f) => f())));
      raw.on('close', () => ((ended = true), seen.splice(0).forEach((f) => f())));
      raw.write(`POST /feed/post HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${ada.token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`);
      await until(() => got.includes('100 Continue') || ended);
      assert.match(got, /^HTTP\/1\.1 100 Continue/);

      const exited = new Promise<number | null>((resolve) => feed.child.once('exit', (code) => resolve(code)));
      let closing = false;
      feed.child.stderr!.on('data', (chunk: Buffer) => {
        if (chunk.toString('utf8').includes('SIGTERM: closing')) (closing = true), seen.splice(0).forEach((f) => f());
      });
      feed.child.kill('SIGTERM');
      await until(() => closing || feed.output().includes('SIGTERM: closing'));
      raw.write(body);
      // Before, the answer kept the connection alive and the closing server waited for it (72 s, the
      // keep-alive timeout), serving further requests on it meanwhile.
      await until(() => ended);
      const answer = got.slice(got.indexOf('HTTP/1.1 201'));
      assert.match(answer, /^HTTP\/1\.1 201 Created\r\n/);
      assert.match(answer, /\r\nconnection: close\r\n/i);
      const post = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { id: string; title: string };
      assert.equal(post.title, 'sent while the server stops');
      // A dropped transport (as before), which clients answer by reconnecting on their own.
      assert.equal(await liveClosed, 'transport close');
      assert.equal(await exited, 0);
      assert.deepEqual(await store.sql('SELECT title FROM posts WHERE id = $1', [post.id]), [{ title: 'sent while the server stops' }]);
    });
  });
}
