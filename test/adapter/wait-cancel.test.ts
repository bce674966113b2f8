// wait and cancel (with and without --wait) against the test service: terminal statuses, deadlines
// (exit 3 with the tasks as last seen), the cancel flow running → cancelling → cancelled.
import { strict as assert } from 'node:assert';
import { startTaskService, type TaskService, type TaskSpec } from '../fixtures/task-service/service';
import { ensureAdapterBuilt, runAdapter } from './adapter-process';

describe('adapter wait and cancel (real process against the test service)', () => {
  let service: TaskService;
  let env: Record<string, string>;

  before(() => ensureAdapterBuilt());
  beforeEach(async () => {
    service = await startTaskService({ cancelDelayMs: 150 });
    env = { SERVICE_URL: service.url, SERVICE_REQUEST_TIMEOUT: '5s' };
  });
  afterEach(() => service.close());

  async function submit(...specs: TaskSpec[]): Promise<string[]> {
    const r = await runAdapter(['submit'], env, JSON.stringify({ tasks: specs }));
    assert.equal(r.code, 0, r.stdout);
    return r.out.data.task_ids as string[];
  }

  it('wait: success, failed and skipped are terminal; exit 0 with the records and the deadline', async () => {
    const ids = await submit(
      { name: 'a', outcome: 'success', duration_ms: 50 },
      { name: 'b', outcome: 'failed', duration_ms: 150 },
      { name: 'c', outcome: 'skipped', duration_ms: 100 },
    );
    const before = Date.now();
    const r = await runAdapter(['wait', '-task-ids', ids.join(','), '-timeout', '1m30s', '-interval', '50ms'], env);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(
      r.out.data.tasks.map((t: { id: string; status: string }) => [t.id, t.status]),
      [[ids[0], 'success'], [ids[1], 'failed'], [ids[2], 'skipped']],
    );
    assert.equal(r.out.data.all_terminal, true);
    const deadline = Date.parse(r.out.data.deadline_rfc3339);
    assert.match(r.out.data.deadline_rfc3339, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    assert.ok(deadline >= before + 90_000 && deadline <= Date.now() + 90_000, 'deadline is -timeout after the start');
    // Task records mirror the service's, not just id and status.
    assert.equal(r.out.data.tasks[1].error.code, 'exit_status');
  });

  it('wait: every flag spelling works', async () => {
    const ids = await submit({ outcome: 'success', duration_ms: 10 });
    for (const args of [
      ['-task-ids', ids[0]!, '-interval', '20ms'],
      ['--task-ids', ids[0]!, '--interval', '20ms'],
      [`-task-ids=${ids[0]}`, '-interval=20ms'],
      [`--task-ids=${ids[0]}`, '--interval=20ms', '--timeout=2s'],
    ]) {
      const r = await runAdapter(['wait', ...args], env);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}`);
      assert.equal(r.out.data.tasks[0].status, 'success');
    }
  });

  it('wait -timeout 0: no deadline (deadline_rfc3339 empty)', async () => {
    const ids = await submit({ outcome: 'success', duration_ms: 100 });
    const r = await runAdapter(['wait', '-task-ids', ids[0]!, '-timeout', '0', '-interval', '20ms'], env);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.out.data.deadline_rfc3339, '');
    assert.equal(r.out.data.all_terminal, true);
  });

  it('wait past the deadline: exit 3, ok false, wait data with the tasks as last seen', async () => {
    const ids = await submit({ name: 'quick', outcome: 'success', duration_ms: 10 }, { name: 'slow' });
    // 'slow' never ends on its own: only the deadline can end this wait.
    const r = await runAdapter(['wait', '-task-ids', ids.join(','), '-timeout', '2s', '-interval', '50ms'], env);
    assert.equal(r.code, 3, r.stdout);
    assert.equal(r.out.ok, false);
    assert.equal(r.out.error!.status_code, 0);
    assert.match(r.out.error!.message, new RegExp(`deadline passed after 2s with 1 of 2 task\\(s\\) not terminal: ${ids[1]} \\(running\\)`));
    assert.deepEqual(
      r.out.data.tasks.map((t: { status: string }) => t.status),
      ['success', 'running'],
    );
    assert.equal(r.out.data.all_terminal, false);
    assert.ok(!Number.isNaN(Date.parse(r.out.data.deadline_rfc3339)));
  });

  it('wait against a task poll that never answers: the deadline still ends it (exit 3, status unknown)', async () => {
    const ids = await submit({ name: 'slow' });
    service.fault(`GET /tasks/${ids[0]}`, { hang: true });
    const r = await runAdapter(['wait', '-task-ids', ids[0]!, '-timeout', '300ms'], env);
    assert.equal(r.code, 3, r.stdout);
    assert.deepEqual(r.out.data.tasks, [{ id: ids[0], status: 'unknown' }]);
  });

  it('wait -timeout 0 against a poll that never answers: the request timeout ends it (exit 1)', async () => {
    const ids = await submit({ name: 'slow' });
    service.fault(`GET /tasks/${ids[0]}`, { hang: true });
    const r = await runAdapter(['wait', '-task-ids', ids[0]!, '-timeout', '0', '-request-timeout', '200ms'], env);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.out.error!.message, /no complete response within 200ms/);
  });

  it('wait on an unknown task: exit 1, 404 naming the task', async () => {
    const r = await runAdapter(['wait', '-task-ids', 'task-999'], env);
    assert.equal(r.code, 1);
    assert.equal(r.out.error!.status_code, 404);
    assert.match(r.out.error!.message, /GET http:\/\/127\.0\.0\.1:\d+\/tasks\/task-999 returned 404 Not Found: the service knows no task "task-999"/);
    assert.deepEqual(JSON.parse(r.out.error!.body), { error: { code: 'not_found', message: 'no task task-999' } });
  });

  it('wait: a task record without a status is an error, not a guess', async () => {
    const ids = await submit({ name: 'x' });
    service.fault(`GET /tasks/${ids[0]}`, { status: 200, body: '{"id":"x","state":"done"}' });
    const r = await runAdapter(['wait', '-task-ids', ids[0]!], env);
    assert.equal(r.code, 1);
    assert.match(r.out.error!.message, /without a string "status"/);
  });

  it('cancel: one immediate response per task — cancelling, runtime error cancelled, task_cancel_requested', async () => {
    const ids = await submit({ name: 'slow1' }, { name: 'slow2' });
    const r = await runAdapter(['cancel', '-task-ids', ids.join(',')], env);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(Object.keys(r.out.data), ['tasks']);
    assert.equal(r.out.data.tasks.length, 2);
    ids.forEach((id, i) => {
      const item = r.out.data.tasks[i];
      assert.equal(item.task_id, id);
      assert.equal(item.status, 'cancelling');
      assert.equal(item.runtime.status, 'cancelling');
      assert.equal(item.runtime.error.code, 'cancelled');
      assert.deepEqual(item.event, { type: 'task_cancel_requested', task_id: id });
    });
    assert.deepEqual(
      service.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/cancel')).map((q) => q.path),
      ids.map((id) => `/tasks/${id}/cancel`),
    );
    // Without --wait nothing polls the tasks (the service turns them cancelled on its own a moment later).
    const firstCancel = service.requests.findIndex((q) => q.method === 'POST' && q.path.endsWith('/cancel'));
    assert.deepEqual(service.requests.slice(firstCancel).filter((q) => q.method === 'GET').map((q) => q.path), []);
  });

  it('cancel --wait: polls until cancelled; data.wait is wait data and data.all_terminal mirrors it', async () => {
    const ids = await submit({ name: 'slow' });
    const r = await runAdapter(['cancel', '-task-ids', ids[0]!, '--wait', '-interval', '30ms', '-timeout', '5s'], env);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.out.data.wait.all_terminal, true);
    assert.equal(r.out.data.all_terminal, r.out.data.wait.all_terminal);
    assert.equal(r.out.data.wait.tasks[0].status, 'cancelled');
    assert.deepEqual(
      r.out.data.wait.tasks[0].events.map((e: { type: string }) => e.type),
      ['task_started', 'task_cancel_requested', 'task_cancelled'],
    );
    assert.ok(r.out.data.wait.deadline_rfc3339);
    assert.equal(r.out.data.tasks[0].event.type, 'task_cancel_requested');
  });

  it('cancel -wait=true past the deadline: exit 3 with data.wait as last seen (cancelling)', async () => {
    await service.close();
    service = await startTaskService({ cancelDelayMs: 10_000 });
    env = { SERVICE_URL: service.url };
    const ids = await submit({ name: 'stubborn' });
    const r = await runAdapter(['cancel', `-task-ids=${ids[0]}`, '-wait=true', '-timeout=300ms', '-interval=50ms'], env);
    assert.equal(r.code, 3, r.stdout);
    assert.equal(r.out.ok, false);
    assert.equal(r.out.data.wait.tasks[0].status, 'cancelling');
    assert.equal(r.out.data.all_terminal, false);
    assert.equal(r.out.data.wait.all_terminal, false);
  });

  it('cancel -wait=false does not wait', async () => {
    const ids = await submit({ name: 'slow' });
    const r = await runAdapter(['cancel', '--task-ids', ids[0]!, '--wait=false'], env);
    assert.equal(r.code, 0);
    assert.equal(r.out.data.wait, undefined);
  });

  it('cancel where one call fails: the others are still cancelled; exit 1 naming the failure', async () => {
    const ids = await submit({ name: 'slow' });
    const r = await runAdapter(['cancel', '-task-ids', `nope,${ids[0]}`], env);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.out.error!.status_code, 404);
    assert.match(r.out.error!.message, /cancel failed for 1 of 2 task\(s\): POST .*\/tasks\/nope\/cancel returned 404/);
    // Cancelled by the service (it turns `cancelled` after a short delay, which a slow machine may pass).
    assert.match(service.tasks.get(ids[0]!)!.status, /^(cancelling|cancelled)$/);
    assert.equal(r.out.data.tasks[0].task_id, ids[0]);
  });

  it('cancel of a task the service does not know (its JSON 404 error) names the task, not a missing endpoint', async () => {
    const r = await runAdapter(['cancel', '-task-ids', 'task-404'], env);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.out.error!.status_code, 404);
    assert.match(r.out.error!.message, /returned 404 Not Found: the service knows no task "task-404" \(service says: no task task-404\)/);
    assert.doesNotMatch(r.out.error!.message, /cancel endpoint/);
  });

  it('cancel against a service without a cancel route (a plain-text 404 for a task that exists) says the endpoint is missing', async () => {
    const ids = await submit({ name: 'slow' });
    service.fault(`POST /tasks/${ids[0]}/cancel`, { status: 404, body: '404 page not found\n', contentType: 'text/plain; charset=utf-8' });
    const r = await runAdapter(['cancel', '-task-ids', ids[0]!], env);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.out.error!.status_code, 404);
    assert.match(r.out.error!.message, /the service has no cancel endpoint \(POST \/tasks\/\{id\}\/cancel answered a plain-text 404, not an error about task "task-\d+"\)/);
    assert.doesNotMatch(r.out.error!.message, /knows no task/);
    assert.equal(service.tasks.get(ids[0]!)!.status, 'running');
  });

  it('cancel of a task that already finished reports the service conflict', async () => {
    const ids = await submit({ outcome: 'success', duration_ms: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const r = await runAdapter(['cancel', '-task-ids', ids[0]!], env);
    assert.equal(r.code, 1);
    assert.equal(r.out.error!.status_code, 409);
    assert.match(r.out.error!.message, /service says: task task-1 is success/);
  });
});
