// The adapter (dist/adapter.js, a real process) against a hostile task service on 127.0.0.1: answers
// nested too deeply to write out, polls that stall, bodies without end, durations past Node's timers,
// credentials in SERVICE_URL, task ids that are path segments. Whatever happens: exactly one JSON
// envelope on stdout (runAdapter checks it) and the contract's exit code.
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTaskService, type TaskService } from '../fixtures/task-service/service';
import { ensureAdapterBuilt, runAdapter } from './adapter-process';

/** A service whose every answer is written by `handler`. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('adapter against a hostile service (real processes)', function () {
  this.timeout(60_000);
  let service: TaskService;

  before(() => ensureAdapterBuilt());
  beforeEach(async () => {
    service = await startTaskService({ runtime: true });
  });
  afterEach(() => service.close());

  it('a 2xx answer nested 5,000 levels deep: one failure envelope naming the depth, exit 1 (not an empty stdout)', async () => {
    const nested = '['.repeat(5000) + ']'.repeat(5000);
    service.fault('GET /adapters/tools', { status: 200, body: nested });
    const r = await runAdapter(['tools'], { SERVICE_URL: service.url });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.out.error!.message, /^GET http:\/\/127\.0\.0\.1:\d+\/adapters\/tools returned 200 OK with JSON nested 5000 levels deep \(at most 512 are passed on\)$/);
    assert.equal(r.out.error!.body, nested);
  });

  it('a task record nested deeply during wait: one failure envelope, exit 1', async () => {
    const nested = '{"status":"running","x":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    service.fault('GET /tasks/t1', { status: 200, body: nested });
    const r = await runAdapter(['wait', '-task-ids', 't1', '-timeout', '5s'], { SERVICE_URL: service.url });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.out.error!.message, /nested 5001 levels deep/);
  });

  it('wait -timeout 2s with a service that answers the first polls and then stalls: exit 3 with the task as last seen', async () => {
    // With -interval 1s the third poll used to start at the deadline itself, bounded only by the
    // request timeout (30 s), and the wait ended with exit 1 half a minute late.
    let polls = 0;
    const stalling = await serve((req, res) => {
      if (req.url === '/tasks/t1' && polls++ < 2) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id":"t1","status":"running"}');
      }
      // later polls: accepted, never answered (the request timeout is the default 30 s)
    });
    try {
      const r = await runAdapter(['wait', '-task-ids', 't1', '-timeout', '2s', '-interval', '1s'], { SERVICE_URL: stalling.url });
      assert.equal(r.code, 3, r.stdout + r.stderr);
      assert.equal(r.out.error!.message, 'deadline passed after 2s with 1 of 1 task(s) not terminal: t1 (running)');
      assert.deepEqual(r.out.data.tasks, [{ id: 't1', status: 'running' }]);
      assert.ok(polls >= 3, 'polled again after the answers');
    } finally {
      await stalling.close();
    }
  });

  it('durations past what a timer can hold (600h, 1000h) are refused as usage errors naming the flag, not turned into 1 ms', async () => {
    service.fault('GET /tasks/t1', { status: 200, body: '{"id":"t1","status":"running"}' });
    const long = await runAdapter(['wait', '-task-ids', 't1', '-timeout', '600h'], { SERVICE_URL: service.url });
    assert.equal(long.code, 2, long.stdout);
    assert.match(long.out.error!.message, /^duration "600h" is longer than the longest supported, 596h31m23\.647s for flag -timeout$/);
    const interval = await runAdapter(['wait', '-task-ids', 't1', '-timeout', '2s', '-interval', '1000h'], { SERVICE_URL: service.url });
    assert.equal(interval.code, 2, interval.stdout);
    assert.match(interval.out.error!.message, /^duration "1000h" is longer than the longest supported, .* for flag -interval$/);
    assert.equal(service.requests.filter((r) => r.path === '/tasks/t1').length, 0, 'nothing was polled');
    const fine = await runAdapter(['wait', '-task-ids', 't1', '-timeout', '1s', '-interval', '596h'], { SERVICE_URL: service.url });
    assert.equal(fine.code, 3, fine.stdout);
  });

  it('a body without end is cut at 64 MiB: a failure envelope naming the limit, exit 1', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const endless = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const more = (): void => {
        while (!res.destroyed && sent < 1024) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => { sent = 1024; });
      more();
    });
    try {
      const r = await runAdapter(['tools'], { SERVICE_URL: endless.url });
      assert.equal(r.code, 1, r.stdout.slice(0, 500) + r.stderr);
      assert.match(r.out.error!.message, /^GET http:\/\/127\.0\.0\.1:\d+\/adapters\/tools returned 200 with a body longer than 64 MiB, the most the adapter reads; not read further$/);
      assert.equal(r.out.error!.status_code, 200);
    } finally {
      await endless.close();
    }
  });

  it('task ids . and .. are refused (exit 2) and reach no other endpoint', async () => {
    for (const id of ['.', '..']) {
      for (const args of [['cancel', '-task-ids', `t1,${id}`], ['wait', '-task-ids', id, '-timeout', '1s']]) {
        const r = await runAdapter(args, { SERVICE_URL: service.url });
        assert.equal(r.code, 2, r.stdout);
        assert.equal(r.out.error!.message, `-task-ids: "${id}" is not a task id (it would name another endpoint)`);
      }
    }
    assert.equal(service.requests.length, 0);
    const encoded = await runAdapter(['wait', '-task-ids', '%2e%2e', '-timeout', '1s'], { SERVICE_URL: service.url });
    assert.equal(encoded.code, 1, encoded.stdout);
    assert.deepEqual(service.requests.map((r) => r.path), ['/tasks/%252e%252e']);
  });

  it('credentials in SERVICE_URL are used but never echoed on stdout or stderr', async () => {
    let authorization = '';
    const guarded = await serve((req, res) => {
      authorization = req.headers.authorization ?? '';
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such endpoint');
    });
    try {
      const url = guarded.url.replace('http://', 'http://agent:s3cret-token@');
      const r = await runAdapter(['capabilities'], { SERVICE_URL: url });
      assert.equal(r.code, 1, r.stdout);
      assert.equal(authorization, `Basic ${Buffer.from('agent:s3cret-token').toString('base64')}`, 'the credentials are still sent');
      assert.doesNotMatch(r.stdout + r.stderr, /s3cret-token|agent:/);
      assert.match(r.out.error!.message, /^GET http:\/\/\*\*\*@127\.0\.0\.1:\d+\/adapters\/capabilities returned 404/);
      const refused = await runAdapter(['health'], { SERVICE_URL: 'http://agent:s3cret-token@127.0.0.1:1' });
      assert.doesNotMatch(refused.stdout + refused.stderr, /s3cret-token/);
      const ensure = await runAdapter(['ensure-running'], { SERVICE_URL: 'http://agent:s3cret-token@127.0.0.1:1' });
      assert.equal(ensure.code, 4);
      assert.doesNotMatch(ensure.stdout + ensure.stderr, /s3cret-token/);
    } finally {
      await guarded.close();
    }
  });
});
