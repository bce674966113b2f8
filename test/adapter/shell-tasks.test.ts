// The test service runs `shell` tasks as real child processes (what the sweep offload needs end to
// end): exit status → success / failed, a timeout kills the process, cancel stops it; driven through
// the adapter as a real process.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTaskService, type TaskService, type TaskSpec } from '../fixtures/task-service/service';
import { ensureAdapterBuilt, runAdapter } from './adapter-process';
import { alive, waitFor } from '../fixtures/processes';

describe('test service: shell tasks are real processes (through the adapter)', function () {
  this.timeout(60_000);
  let service: TaskService;
  let env: Record<string, string>;
  let dir: string;

  before(() => ensureAdapterBuilt());
  beforeEach(async () => {
    service = await startTaskService();
    env = { SERVICE_URL: service.url, SERVICE_REQUEST_TIMEOUT: '5s' };
    dir = mkdtempSync(join(tmpdir(), 'assay-shell-'));
  });
  afterEach(() => service.close());

  async function submit(...specs: TaskSpec[]): Promise<string[]> {
    const r = await runAdapter(['submit'], env, JSON.stringify({ tasks: specs }));
    assert.equal(r.code, 0, r.stdout);
    return r.out.data.task_ids as string[];
  }
  const node = (name: string, code: string, more: Partial<TaskSpec> = {}): TaskSpec => ({ name, type: 'shell', command: process.execPath, args: ['-e', code], ...more });

  it('exit 0 is success with its stdout; another exit is failed naming the status; wait sees both', async () => {
    const ids = await submit(node('ok', 'console.log(JSON.stringify({ sum: 2 + 3 }))'), node('bad', 'console.error("boom"); process.exit(3)'));
    const r = await runAdapter(['wait', '-task-ids', ids.join(','), '-timeout', '30s', '-interval', '50ms'], env);
    assert.equal(r.code, 0, r.stdout);
    const [ok, bad] = r.out.data.tasks;
    assert.deepEqual([ok.status, ok.exit_code, JSON.parse(ok.stdout)], ['success', 0, { sum: 5 }]);
    assert.deepEqual([bad.status, bad.exit_code, bad.error.code, bad.stderr.trim()], ['failed', 3, 'exit_status', 'boom']);
    assert.match(bad.error.message, /bad exited with status 3/);
  });

  it('a task past its timeout_ms: the process is killed and the task failed (timeout)', async () => {
    const pidFile = join(dir, 'pid');
    const [id] = await submit(node('stuck', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`, { timeout_ms: 1500 }));
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the task to start');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const r = await runAdapter(['wait', '-task-ids', id!, '-timeout', '30s', '-interval', '50ms'], env);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual([r.out.data.tasks[0].status, r.out.data.tasks[0].error.code], ['failed', 'timeout']);
    await waitFor(() => !alive(pid), 'the process to be gone');
  });

  it('cancel stops the process: cancelling, then cancelled once it exited', async () => {
    const pidFile = join(dir, 'pid');
    const [id] = await submit(node('long', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`));
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the task to start');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const r = await runAdapter(['cancel', '-task-ids', id!, '-wait', '-timeout', '30s', '-interval', '50ms'], env);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.out.data.tasks[0].status, 'cancelling');
    assert.equal(r.out.data.wait.tasks[0].status, 'cancelled');
    await waitFor(() => !alive(pid), 'the process to be gone');
  });

  it('a shell task without a command is refused (400) naming the field', async () => {
    const r = await runAdapter(['submit'], env, JSON.stringify({ tasks: [{ name: 'x', type: 'shell' }] }));
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.out.error!.message, /400/);
    assert.match(r.stdout, /tasks\[0\]: a shell task needs a command/);
  });
});
