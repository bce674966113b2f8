// The process client the extension uses (src/adapter/process.ts): envelope and exit code through a
// real adapter process, request bodies on stdin, cancellation, and programs that are not adapters.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adapterEnvironment, invokeAdapter } from '../../src/adapter/process';
import { startTaskService, type TaskService } from '../fixtures/task-service/service';
import { adapterPath, cleanEnv, ensureAdapterBuilt } from './adapter-process';

describe('invokeAdapter (the adapter as the extension calls it)', () => {
  let service: TaskService;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ensureAdapterBuilt();
    service = await startTaskService();
    env = cleanEnv({ SERVICE_URL: service.url });
  });
  after(() => service.close());

  it('returns the envelope and exit code; the body goes on stdin', async () => {
    const r = await invokeAdapter({ adapterPath, args: ['submit'], env, stdin: JSON.stringify({ tasks: [{ name: 'a', duration_ms: 5 }] }) });
    assert.equal(r.exitCode, 0);
    assert.ok(r.envelope.ok);
    assert.equal((r.envelope.data as { task_ids: string[] }).task_ids.length, 1);
    assert.match(r.stderr, /assay-adapter submit/);
  });

  it('passes failures through with their exit code', async () => {
    const r = await invokeAdapter({ adapterPath, args: ['wait', '-task-ids', 'nope'], env });
    assert.equal(r.exitCode, 1);
    assert.ok(!r.envelope.ok && r.envelope.error.status_code === 404);
  });

  it('aborting stops a long wait promptly', async () => {
    const submitted = await invokeAdapter({ adapterPath, args: ['submit'], env, stdin: '{"tasks":[{"name":"forever"}]}' });
    const id = (submitted.envelope as { data: { task_ids: string[] } }).data.task_ids[0]!;
    const controller = new AbortController();
    const waiting = invokeAdapter({ adapterPath, args: ['wait', '-task-ids', id, '-timeout', '0', '-interval', '50ms'], env, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const r = await waiting;
    assert.ok(!r.envelope.ok);
    assert.match(r.envelope.error.message, /cancelled/);
  });

  it('a program that prints something else is a failure with its stdout as body', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-invoke-'));
    const fake = join(dir, 'not-an-adapter.js');
    writeFileSync(fake, "process.stdout.write('hello\\n'); process.exitCode = 0;\n");
    const r = await invokeAdapter({ adapterPath: fake, args: ['capabilities'], env });
    assert.ok(!r.envelope.ok);
    assert.match(r.envelope.error.message, /without printing one JSON envelope/);
    assert.equal(r.envelope.error.body, 'hello\n');
  });

  it('settings become SERVICE_URL / SERVICE_RUNTIME_URL; empty settings keep what is inherited', async () => {
    const inherited = { SERVICE_URL: 'http://127.0.0.1:1', SERVICE_RUNTIME_URL: 'http://127.0.0.1:2', PATH: '/bin' };
    assert.deepEqual(adapterEnvironment(inherited, { serviceUrl: '', runtimeUrl: ' ' }), inherited);
    const env2 = adapterEnvironment(cleanEnv(), { serviceUrl: service.url });
    const r = await invokeAdapter({ adapterPath, args: ['health'], env: env2 });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(r.envelope, { ok: true, data: { status: 'ok' } });
  });

  it('a missing program is a failure naming it', async () => {
    const r = await invokeAdapter({ adapterPath: '/nonexistent/assay-adapter', args: ['capabilities'], env });
    assert.ok(!r.envelope.ok);
    assert.match(r.envelope.error.message, /cannot start the adapter \/nonexistent\/assay-adapter/);
  });
});
