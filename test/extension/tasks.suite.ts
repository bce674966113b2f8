// The `Assay Tasks:` commands inside the real extension host, against the local test service started
// here (it is bundled into this suite). Commands are called with arguments instead of pickers; what
// they return is what the user is shown (summary, exit code, the envelope document).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { closedPort, startTaskService, type TaskService } from '../fixtures/task-service/service';

interface Envelope {
  ok: boolean;
  data?: unknown;
  error?: { message: string; status_code: number; body: string };
}
interface TaskCommandResult {
  command: string;
  args: string[];
  exitCode: number;
  envelope: Envelope;
  summary: { severity: 'info' | 'warning' | 'error'; message: string };
  document?: string;
}

const settingKeys = ['serviceUrl', 'runtimeUrl', 'adapterPath'] as const;

function taskFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace is not open');
  return vscode.Uri.file(join(folder.uri.fsPath, 'tasks', name));
}

async function run(command: string, ...args: unknown[]): Promise<TaskCommandResult> {
  const result = await vscode.commands.executeCommand<TaskCommandResult | undefined>(`assay.tasks.${command}`, ...args);
  assert.ok(result, `assay.tasks.${command} returned nothing`);
  return result;
}

async function setTaskSetting(key: (typeof settingKeys)[number], value: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('assay.tasks').update(key, value, vscode.ConfigurationTarget.Global);
}

/** The JSON shown in the result document, read through the editor as the user sees it. */
async function shownEnvelope(result: TaskCommandResult): Promise<Envelope> {
  assert.ok(result.document, `no result document for ${result.command}: ${result.summary.message}`);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.document));
  assert.equal(document.languageId, 'json');
  assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === result.document), 'the result document is not shown');
  return JSON.parse(document.getText()) as Envelope;
}

function taskIds(result: TaskCommandResult): string[] {
  return (result.envelope.data as { task_ids: string[] }).task_ids;
}

describe('Assay Tasks commands (adapter as a process, local test service)', function () {
  this.timeout(30_000);
  let service: TaskService;

  before(async () => {
    await vscode.extensions.getExtension('assay.assay')!.activate();
    service = await startTaskService({ runtime: true, cancelDelayMs: 100 });
    await setTaskSetting('serviceUrl', service.url);
    await setTaskSetting('runtimeUrl', service.runtimeUrl);
  });

  after(async () => {
    for (const key of settingKeys) await setTaskSetting(key, undefined);
    await service?.close();
  });

  it('Check Service reports the service and the runtime up, and shows the envelope as JSON', async () => {
    const result = await run('checkService');
    assert.equal(result.exitCode, 0, result.summary.message);
    assert.deepEqual(result.args, ['ensure-running', '-with-runtime']);
    assert.equal(result.summary.message, `Task service is up at ${service.url} (health 200); runtime ready at ${service.runtimeUrl}`);
    const shown = await shownEnvelope(result);
    assert.deepEqual(shown, result.envelope);
    assert.equal((shown.data as { service: { reachable: boolean } }).service.reachable, true);
  });

  it('Check Service against a closed port is an error with the manual hint', async () => {
    await setTaskSetting('serviceUrl', `http://127.0.0.1:${await closedPort()}`);
    try {
      const result = await run('checkService');
      assert.equal(result.exitCode, 4);
      assert.equal(result.summary.severity, 'error');
      assert.match(result.summary.message, /^Task service is unreachable at http:\/\/127\.0\.0\.1:\d+ — start the task service so that GET/);
    } finally {
      await setTaskSetting('serviceUrl', service.url);
    }
  });

  it('Submit Task Graph sends the active JSON editor, then Wait for Tasks reports each status', async () => {
    const document = await vscode.workspace.openTextDocument(taskFile('quick.json'));
    await vscode.window.showTextDocument(document);
    const before = service.tasks.size;
    const submitted = await run('submitTaskGraph');
    assert.equal(submitted.exitCode, 0, submitted.summary.message);
    const ids = taskIds(submitted);
    assert.equal(ids.length, 2);
    assert.equal(service.tasks.size, before + 2);
    assert.equal(submitted.summary.message, `Submitted 2 tasks: ${ids.join(', ')}`);
    assert.deepEqual((await shownEnvelope(submitted)).data, { task_ids: ids });
    // The source editor keeps the focus: the result opens beside it.
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), document.uri.toString());

    const waited = await run('waitForTasks', { taskIds: ids, timeout: '10s' });
    assert.equal(waited.exitCode, 0, waited.summary.message);
    assert.equal(waited.summary.message, `All 2 tasks finished: ${ids[0]} success, ${ids[1]} failed`);
  });

  it('Wait for Tasks past its deadline is a warning naming the open task', async () => {
    const slow = taskIds(await run('submitTaskGraph', { file: taskFile('graph.json').fsPath }))[0]!;
    const waited = await run('waitForTasks', { taskIds: [slow], timeout: '300ms' });
    assert.equal(waited.exitCode, 3);
    assert.deepEqual(waited.summary, { severity: 'warning', message: `Deadline passed before every task finished: ${slow} running` });
    const cancelled = await run('cancelTask', { taskIds: [slow], wait: true, timeout: '10s' });
    assert.equal(cancelled.exitCode, 0, cancelled.summary.message);
  });

  it('a deadline that is not a duration is refused before the adapter runs', async () => {
    const sent = service.requests.length;
    const result = await run('waitForTasks', { taskIds: ['task-1'], timeout: '30' });
    assert.equal(result.summary.message, 'Wait for Tasks: invalid duration "30" (missing unit: use ns, us, ms, s, m or h, e.g. 30s); e.g. 2m, 30s, 1m30s, or 0 for no deadline');
    assert.deepEqual(result.args, []);
    assert.equal(service.requests.length, sent);
  });

  it('Cancel Task with wait ends the task cancelled, with the task_cancel_requested event', async () => {
    const id = taskIds(await run('submitTaskGraph', taskFile('graph.json')))[0]!;
    assert.equal(service.tasks.get(id)?.status, 'running');
    const result = await run('cancelTask', { taskIds: [id], wait: true, timeout: '10s' });
    assert.equal(result.exitCode, 0, result.summary.message);
    assert.deepEqual(result.args, ['cancel', '-task-ids', id, '-wait', '-timeout', '10s']);
    assert.equal(result.summary.message, `Cancelled: ${id} cancelled`);
    assert.equal(service.tasks.get(id)?.status, 'cancelled');
    const shown = await shownEnvelope(result) as { data: { tasks: { event: { type: string } }[]; all_terminal: boolean } };
    assert.equal(shown.data.tasks[0]!.event.type, 'task_cancel_requested');
    assert.equal(shown.data.all_terminal, true);
  });

  it('Cancel Task without wait leaves the task cancelling', async () => {
    const id = taskIds(await run('submitTaskGraph', { text: '{"tasks":[{"name":"slow"}]}' }))[0]!;
    const result = await run('cancelTask', { taskIds: [id], wait: false });
    assert.equal(result.summary.message, `Cancel requested: ${id} cancelling`);
  });

  it('a file that is not JSON is refused with its line and column, and nothing is sent', async () => {
    const sent = service.requests.length;
    const result = await run('submitTaskGraph', { file: taskFile('broken.json').fsPath });
    assert.equal(result.exitCode, 2);
    assert.equal(result.summary.message, 'Submit Task Graph: broken.json:4:3 is not JSON: expected a value, found "]"');
    assert.equal(service.requests.length, sent);
  });

  it('Run Agent Action starts tasks; Translate Agent Action only translates', async () => {
    const before = service.tasks.size;
    const acted = await run('runAgentAction', { file: taskFile('action.json') });
    assert.equal(acted.exitCode, 0, acted.summary.message);
    assert.match(acted.summary.message, /^Agent action started 1 task: task-\d+$/);
    assert.equal(service.tasks.size, before + 1);
    const translated = await run('translateAgentAction', { file: taskFile('action.json') });
    assert.equal(translated.summary.message, 'Translated without running anything, 2 trace steps');
    assert.equal(service.tasks.size, before + 1);
    assert.ok(Array.isArray((translated.envelope.data as { translation_trace: unknown }).translation_trace));
  });

  it('Show Capabilities and Show Tools open the service answers', async () => {
    const capabilities = await run('showCapabilities');
    assert.equal(capabilities.summary.message, 'The service speaks adapter.v1, 8 endpoints');
    assert.equal(((await shownEnvelope(capabilities)).data as { contract: string }).contract, 'adapter.v1');
    const tools = await run('showTools');
    assert.equal(tools.summary.message, '1 tool: run_tasks');
  });

  it('an endpoint the service lacks is an error with the status code', async () => {
    service.fault('GET /adapters/tools', { status: 404, body: '404 page not found\n', contentType: 'text/plain' });
    try {
      const result = await run('showTools');
      assert.equal(result.exitCode, 1);
      assert.equal(result.summary.severity, 'error');
      assert.match(result.summary.message, /^Tools failed \(HTTP 404\): /);
      assert.equal((await shownEnvelope(result)).error?.body, '404 page not found\n');
    } finally {
      service.clearFaults();
    }
  });

  it('a service URL setting that is not a URL is refused, naming the setting', async () => {
    await setTaskSetting('serviceUrl', 'localhost:8080');
    try {
      const result = await run('showCapabilities');
      assert.equal(result.exitCode, 2);
      assert.equal(result.summary.message,
        'Capabilities failed (usage): SERVICE_URL="localhost:8080" must be an http:// or https:// URL (from the setting assay.tasks.serviceUrl)');
    } finally {
      await setTaskSetting('serviceUrl', service.url);
    }
  });

  it('assay.tasks.adapterPath naming a missing program is refused, naming the setting', async () => {
    await setTaskSetting('adapterPath', '/nonexistent/adapter.js');
    try {
      const result = await run('showCapabilities');
      assert.equal(result.summary.message, 'assay.tasks.adapterPath: /nonexistent/adapter.js does not exist');
      assert.equal(result.document, undefined);
    } finally {
      await setTaskSetting('adapterPath', undefined);
    }
  });
});
