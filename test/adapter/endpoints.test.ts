// capabilities, tools, act, translate, submit, health against the test service, and every way an
// HTTP call can fail: refused, hanging, 404, non-JSON bodies, 2xx oddities.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPort, startHangingServer, startTaskService, type TaskService } from '../fixtures/task-service/service';
import { ensureAdapterBuilt, runAdapter } from './adapter-process';

function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    })
      .on('error', reject)
      .end();
  });
}

const action = { action: 'run', tasks: [{ name: 'build', outcome: 'success', duration_ms: 20 }, { name: 'lint', outcome: 'failed', duration_ms: 20 }] };

describe('adapter endpoints (real process against the test service)', () => {
  let service: TaskService;
  let env: Record<string, string>;
  let dir: string;

  before(async () => {
    ensureAdapterBuilt();
    dir = mkdtempSync(join(tmpdir(), 'assay-adapter-'));
  });
  beforeEach(async () => {
    service = await startTaskService({ runtime: true });
    env = { SERVICE_URL: service.url, SERVICE_RUNTIME_URL: service.runtimeUrl!, SERVICE_REQUEST_TIMEOUT: '5s' };
  });
  afterEach(() => service.close());

  it('capabilities: data mirrors the adapter.v1 contract body', async () => {
    const r = await runAdapter(['capabilities'], env);
    assert.equal(r.code, 0);
    assert.equal(r.out.data.contract, 'adapter.v1');
    assert.deepEqual(r.out.data, await getJson(`${service.url}/adapters/capabilities`));
  });

  it('tools: data mirrors the tool manifest', async () => {
    const r = await runAdapter(['tools'], env);
    assert.equal(r.code, 0);
    assert.deepEqual(r.out.data, await getJson(`${service.url}/adapters/tools`));
  });

  it('tools: a multi-megabyte body comes through whole', async () => {
    const big = { tools: Array.from({ length: 40_000 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(200) })) };
    const text = JSON.stringify(big);
    assert.ok(text.length > 8_000_000);
    service.fault('GET /adapters/tools', { status: 200, body: text });
    const r = await runAdapter(['tools'], env);
    assert.equal(r.code, 0);
    assert.equal(r.out.data.tools.length, 40_000);
    assert.equal(r.out.data.tools[39_999].name, 'tool_39999');
  });

  it('SERVICE_URL with a trailing slash still reaches the endpoints', async () => {
    const r = await runAdapter(['health'], { ...env, SERVICE_URL: `${service.url}/` });
    assert.equal(r.code, 0);
    assert.deepEqual(r.out.data, { status: 'ok' });
    assert.deepEqual(service.requests.at(-1), { method: 'GET', path: '/health', body: '' });
  });

  it('act -file: sends the file verbatim; data holds the agent.v1 translation, its trace and task ids', async () => {
    const file = join(dir, 'action.json');
    const text = `${JSON.stringify(action, null, 2)}\n`;
    writeFileSync(file, text);
    const r = await runAdapter(['act', '-file', file], env);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.out.data.translation.schema, 'agent.v1');
    assert.ok(Array.isArray(r.out.data.translation_trace) && r.out.data.translation_trace.length > 0);
    assert.equal(r.out.data.task_ids.length, 2);
    for (const id of r.out.data.task_ids) assert.ok(service.tasks.has(id), `the service knows ${id}`);
    const sent = service.requests.find((q) => q.path === '/adapters/actions')!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.body, text);
  });

  it('act from standard input', async () => {
    const r = await runAdapter(['act'], env, JSON.stringify(action));
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.out.data.task_ids.length, 2);
  });

  it('act -file - reads standard input too', async () => {
    const r = await runAdapter(['act', '--file=-'], env, JSON.stringify(action));
    assert.equal(r.code, 0, r.stdout);
  });

  it('translate: translation and trace, nothing executed', async () => {
    const r = await runAdapter(['translate'], env, JSON.stringify(action));
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.out.data.translation.schema, 'agent.v1');
    assert.equal(r.out.data.translation.graph.nodes.length, 2);
    assert.equal(r.out.data.task_ids, undefined);
    assert.equal(service.tasks.size, 0);
  });

  it('submit: a 202 Accepted is success and data mirrors its body', async () => {
    const r = await runAdapter(['submit', '--file', writeJson('graph.json', { tasks: [{ name: 'a', duration_ms: 10 }] })], env);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.out.data.task_ids.length, 1);
    assert.ok(service.tasks.has(r.out.data.task_ids[0]));
  });

  it('a 2xx with an empty body is success with data {}', async () => {
    service.fault('POST /tasks', { status: 202, body: '' });
    const r = await runAdapter(['submit'], env, '{"tasks":[]}');
    assert.equal(r.code, 0);
    assert.deepEqual(r.out.data, {});
  });

  it('a 2xx whose body is not JSON is a failure (exit 1) with the body verbatim', async () => {
    const page = '<html><body>Welcome to the proxy</body></html>';
    service.fault('GET /adapters/capabilities', { status: 200, body: page, contentType: 'text/html' });
    const r = await runAdapter(['capabilities'], env);
    assert.equal(r.code, 1);
    assert.equal(r.out.error!.status_code, 200);
    assert.equal(r.out.error!.body, page);
    assert.match(r.out.error!.message, /not JSON/);
  });

  it('health: data mirrors GET /health', async () => {
    const r = await runAdapter(['health'], env);
    assert.equal(r.code, 0);
    assert.deepEqual(r.out.data, { status: 'ok' });
  });

  it('a missing endpoint (404) is reported as such, naming it, with the body verbatim', async () => {
    service.fault('POST /adapters/translate', { status: 404, body: '404 page not found\n', contentType: 'text/plain' });
    const r = await runAdapter(['translate'], env, JSON.stringify(action));
    assert.equal(r.code, 1);
    assert.equal(r.out.error!.status_code, 404);
    assert.equal(r.out.error!.body, '404 page not found\n');
    assert.match(r.out.error!.message, /POST http:\/\/127\.0\.0\.1:\d+\/adapters\/translate returned 404/);
    assert.match(r.out.error!.message, /does not provide POST \/adapters\/translate/);
  });

  it('a non-JSON error body is reported verbatim in error.body', async () => {
    const body = 'upstream connect error or disconnect/reset before headers\n';
    service.fault('GET /adapters/tools', { status: 503, body, contentType: 'text/plain' });
    const r = await runAdapter(['tools'], env);
    assert.equal(r.code, 1);
    assert.equal(r.out.error!.status_code, 503);
    assert.equal(r.out.error!.body, body);
  });

  it("a JSON error body is verbatim in error.body and the service's message is in error.message", async () => {
    const r = await runAdapter(['act'], env, JSON.stringify({ action: 'fly', tasks: [] }));
    assert.equal(r.code, 1);
    assert.equal(r.out.error!.status_code, 400);
    assert.deepEqual(JSON.parse(r.out.error!.body), { error: { code: 'invalid_request', message: 'unknown action "fly" (this service knows "run")' } });
    assert.match(r.out.error!.message, /service says: unknown action "fly"/);
  });

  it('a refused connection is exit 1 with status_code 0', async () => {
    const port = await closedPort();
    const r = await runAdapter(['capabilities'], { SERVICE_URL: `http://127.0.0.1:${port}` });
    assert.equal(r.code, 1);
    assert.equal(r.out.error!.status_code, 0);
    assert.equal(r.out.error!.body, '');
    assert.match(r.out.error!.message, /connection refused/);
  });

  it('a hanging server is cut by the request timeout (-request-timeout, then SERVICE_REQUEST_TIMEOUT)', async () => {
    const hanging = await startHangingServer();
    try {
      const byFlag = await runAdapter(['capabilities', '-request-timeout', '300ms'], { SERVICE_URL: hanging.url });
      assert.equal(byFlag.code, 1);
      assert.equal(byFlag.out.error!.status_code, 0);
      assert.match(byFlag.out.error!.message, /no complete response within 300ms/);
      const byEnv = await runAdapter(['tools'], { SERVICE_URL: hanging.url, SERVICE_REQUEST_TIMEOUT: '250ms' });
      assert.equal(byEnv.code, 1);
      assert.match(byEnv.out.error!.message, /no complete response within 250ms/);
    } finally {
      await hanging.close();
    }
  });

  it('a route that accepts and never answers is cut the same way', async () => {
    service.fault('GET /health', { hang: true });
    const r = await runAdapter(['health', '--request-timeout=200ms'], env);
    assert.equal(r.code, 1);
    assert.match(r.out.error!.message, /GET http:\/\/127\.0\.0\.1:\d+\/health: no complete response within 200ms/);
  });

  it('a response cut off mid-body is an I/O error, not a half-parsed success', async () => {
    service.fault('GET /adapters/capabilities', { truncate: true, body: JSON.stringify({ contract: 'adapter.v1', padding: 'x'.repeat(10_000) }) });
    const r = await runAdapter(['capabilities'], env);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.out.error!.status_code, 0);
    assert.match(r.out.error!.message, /GET http:\/\/127\.0\.0\.1:\d+\/adapters\/capabilities: (connection closed before the response was complete|response interrupted)/);
  });

  function writeJson(name: string, value: unknown): string {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  }
});
