// Shards on the task service (issue #20, part 1, the transport): one task graph of real `shell`
// processes on the test service, polled to the end with progress, a failed shard retried once and then
// reported, a stop that cancels the shards — or deletes them, saying so, when there is no cancel route.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../src/adapter/config';
import { runShards, type OffloadProgress, type ShardCommand } from '../../src/host/offload';
import { startTaskService, type TaskService } from '../fixtures/task-service/service';
import { alive, waitFor } from '../fixtures/processes';

const node = (name: string, code: string): ShardCommand => ({ name, command: process.execPath, args: ['-e', code] });

describe('offload: shards as one task graph on the task service (real processes)', function () {
  this.timeout(60_000);
  let service: TaskService;
  let dir: string;
  beforeEach(async () => {
    service = await startTaskService();
    dir = mkdtempSync(join(tmpdir(), 'assay-offload-'));
  });
  afterEach(() => service.close());
  const config = () => readConfig({ SERVICE_URL: service.url, SERVICE_REQUEST_TIMEOUT: '5s' });

  it('every shard runs as a process of one POST /tasks; stdout comes back per shard; progress counts to N', async () => {
    const progress: OffloadProgress[] = [];
    const out = await runShards({
      config: config(),
      shards: [0, 1, 2].map((k) => node(`shard ${k + 1}/3`, `console.log(JSON.stringify({ shard: ${k}, rows: [${k * 10}, ${k * 10 + 1}] }))`)),
      pollMs: 50,
      onProgress: (p) => progress.push(p),
    });
    assert.deepEqual(out.shards.map((s) => s.status), ['success', 'success', 'success']);
    assert.deepEqual(out.shards.map((s) => (s.status === 'success' ? JSON.parse(s.stdout).rows : undefined)), [[0, 1], [10, 11], [20, 21]]);
    assert.equal(service.requests.filter((r) => r.method === 'POST' && r.path === '/tasks').length, 1, 'one task graph');
    assert.deepEqual(progress.at(-1), { done: 3, failed: 0, total: 3 });
  });

  it('a shard that fails once is retried and succeeds; one that always fails is reported with its reason after two attempts', async () => {
    const marker = join(dir, 'tried');
    const out = await runShards({
      config: config(),
      shards: [
        node('flaky', `const fs = require('fs'); if (!fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${JSON.stringify(marker)}, '1'); process.exit(1); } console.log('"ok"')`),
        node('broken', `console.error('no'); process.exit(2)`),
      ],
      pollMs: 50,
    });
    assert.deepEqual([out.shards[0]!.status, out.shards[0]!.attempts], ['success', 2]);
    assert.deepEqual([out.shards[1]!.status, out.shards[1]!.attempts], ['failed', 2]);
    assert.match((out.shards[1] as { reason: string }).reason, /broken exited with status 2/);
  });

  it('a stop cancels the running shards: their processes end', async () => {
    const pidFile = join(dir, 'pid');
    const stop = new AbortController();
    const running = runShards({
      config: config(),
      shards: [node('long', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`)],
      pollMs: 50,
      signal: stop.signal,
    });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the shard to start');
    stop.abort();
    const out = await running;
    assert.equal(out.stopped, 'cancelled');
    assert.equal(out.shards[0]!.status, 'cancelled');
    await waitFor(() => !alive(Number(readFileSync(pidFile, 'utf8'))), 'the shard process to end');
  });

  it('a poll that fails now and then is tried again; polls that keep failing cancel the shards and fail the run', async () => {
    const pidFile = join(dir, 'pid');
    const marker = join(dir, 'go');
    const running = runShards({
      config: config(),
      shards: [node('waits', `const fs = require('fs'); fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => { if (fs.existsSync(${JSON.stringify(marker)})) process.exit(0); }, 20)`)],
      pollMs: 30,
    });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the shard to start');
    const id = [...service.tasks.keys()][0]!;
    // Two failed polls, then the service answers again: the shard ends well.
    service.fault(`GET /tasks/${id}`, { status: 502, body: 'bad gateway', contentType: 'text/plain' });
    await waitFor(() => service.requests.filter((r) => r.method === 'GET' && r.path === `/tasks/${id}`).length >= 2, 'two polls');
    service.clearFaults();
    writeFileSync(marker, '1');
    assert.equal((await running).shards[0]!.status, 'success');

    const second = join(dir, 'pid2');
    const failing = runShards({
      config: config(),
      shards: [node('long', `require('fs').writeFileSync(${JSON.stringify(second)}, String(process.pid)); setInterval(() => {}, 1000)`)],
      pollMs: 30,
    });
    await waitFor(() => existsSync(second) && readFileSync(second, 'utf8') !== '', 'the second shard to start');
    const id2 = [...service.tasks.keys()].at(-1)!;
    service.fault(`GET /tasks/${id2}`, { status: 502, body: 'bad gateway', contentType: 'text/plain' });
    await assert.rejects(failing, /502/);
    assert.ok(service.requests.some((r) => r.method === 'POST' && r.path === `/tasks/${id2}/cancel`), 'the shard was cancelled');
    await waitFor(() => !alive(Number(readFileSync(second, 'utf8'))), 'the shard process to end');
  });

  it('a service without a cancel route: the shards are deleted and the note says their workers may run on', async () => {
    const pidFile = join(dir, 'pid');
    const stop = new AbortController();
    const notes: string[] = [];
    const running = runShards({
      config: config(),
      shards: [node('long', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`)],
      pollMs: 50,
      signal: stop.signal,
      onNote: (t) => notes.push(t),
    });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the shard to start');
    const id = [...service.tasks.keys()][0]!;
    service.fault(`POST /tasks/${id}/cancel`, { status: 404, body: '404 page not found\n', contentType: 'text/plain; charset=utf-8' });
    stop.abort();
    const out = await running;
    assert.equal(out.stopped, 'deleted');
    assert.match((out.shards[0] as { reason: string }).reason, /deleted \(no cancel route\); its worker may run on/);
    assert.deepEqual(notes, ["the service has no cancel route: the shards' tasks were deleted, and their workers may run on"]);
    assert.ok(service.requests.some((r) => r.method === 'DELETE' && r.path === `/tasks/${id}`));
    assert.equal(service.tasks.has(id), false);
  });
});
