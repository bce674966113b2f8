// The `Assay Tasks:` commands in a real VS Code (code-server, the extension installed from its VSIX),
// driven through the command palette against the local test task service started by this test.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTaskService, type TaskService } from '../fixtures/task-service/service';
import type { Page } from './.tools/node_modules/playwright-core';
import { openFile, packagedExtension, processesUsing, recordFigure, runCommand, screenshot, Session, waitForNotification } from './harness';

/** Fills the quick input whose title matches with `text` (a value, or a filter of its rows) and presses Enter. */
async function answer(page: Page, title: RegExp, text: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 60_000 });
  await widget.locator('.quick-input-box input').fill(text);
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
}

/** Asks sweep Energy::Kinetic over v 0..30 step 10 from its lens, then answers the where-to-run pick with `where`. */
async function askSweep(page: Page, where: string): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
  await openFile(page, 'kinetic.sysml');
  const lens = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration a', { hasText: 'Ask: sweep' }).first();
  await lens.waitFor({ state: 'visible', timeout: 30_000 });
  await lens.click();
  await answer(page, /parameters to sweep/, '');
  await answer(page, /range of v/, '0 .. 30 step 10');
  await answer(page, /input m/, '');
  const title = page.locator('.quick-input-widget .quick-input-title', { hasText: /engine|sweep Energy::Kinetic$/ });
  await title.waitFor({ state: 'visible', timeout: 60_000 });
  if (/engine/.test(await title.innerText())) await answer(page, /engine/, 'assay-reference');
  await answer(page, /sweep Energy::Kinetic$/, where);
}

/** The rows of the table view the notification's Show opens. */
async function tableRows(page: Page, toastText: RegExp): Promise<string[]> {
  const toast = await waitForNotification(page, toastText, 120_000);
  await toast.getByRole('button', { name: 'Show' }).click();
  const view = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
  const rows = view.locator('table.sortable tbody tr');
  await rows.first().waitFor({ timeout: 30_000 });
  return rows.allInnerTexts();
}

describe('Assay Tasks commands in a real VS Code (local task service)', function () {
  let service: TaskService | undefined;
  let session: Session | undefined;
  let submittedId = '';

  let scratch = '';
  let composeDir = '';

  before(async function () {
    service = await startTaskService({ runtime: true, cancelDelayMs: 300 });
    // The editor inherits this process's environment: a compose directory without a compose file, so
    // that ensure-running has something to suggest by hand whether or not docker is usable here.
    scratch = mkdtempSync(join(tmpdir(), 'assay-tasks-e2e-'));
    composeDir = join(scratch, 'service');
    mkdirSync(composeDir);
    const saved = process.env.SERVICE_COMPOSE_DIR;
    process.env.SERVICE_COMPOSE_DIR = composeDir;
    try {
      session = await Session.start({
        vsix: packagedExtension().vsix,
        userSettings: {
          'assay.tasks.serviceUrl': service.url,
          'assay.tasks.runtimeUrl': service.runtimeUrl,
          // Run on task service splits a sweep into this many shards.
          'assay.tasks.shards': 2,
          // The DOM renderer, so that the terminal's text can be read from the page.
          'terminal.integrated.gpuAcceleration': 'off',
        },
      });
    } finally {
      if (saved === undefined) delete process.env.SERVICE_COMPOSE_DIR;
      else process.env.SERVICE_COMPOSE_DIR = saved;
    }
  });

  after(async function () {
    await session?.close();
    await service?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) {
      await screenshot(session.page, `failed-tasks-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
    }
  });

  it('Check Service reports the service and its runtime up', async function () {
    const page = session!.page;
    await runCommand(page, 'Assay Tasks: Check Service');
    const toast = await waitForNotification(page, `Task service is up at ${service!.url}`);
    await screenshot(page, 'tasks-check-service');
    assert.match(await toast.innerText(), new RegExp(`runtime ready at ${service!.runtimeUrl!.replace(/[.]/g, '\\.')}`));
    assert.ok(service!.requests.some((r) => r.path === '/health'), 'the adapter never asked the service for /health');
  });

  it('Show Capabilities and Show Tools open the service answers as JSON', async function () {
    const page = session!.page;
    const started = Date.now();
    await runCommand(page, 'Assay Tasks: Show Capabilities');
    await waitForNotification(page, 'The service speaks adapter.v1, 8 endpoints');
    // From choosing the palette row to the notification: adapter start, HTTP call, document, toast.
    recordFigure('task command: Show Capabilities, palette to notification (code-server)', Date.now() - started, 'ms');
    const tab = page.locator('.tabs-container .tab', { hasText: /capabilities-\d+\.json/ }).first();
    await tab.waitFor({ timeout: 15_000 });
    const text = await page.locator('.editor-group-container', { has: tab }).locator('.monaco-editor .view-lines').first().innerText();
    assert.match(text.replace(/\u00a0/g, ' '), /"contract": "adapter\.v1"/);
    await runCommand(page, 'Assay Tasks: Show Tools');
    await waitForNotification(page, '1 tool: run_tasks');
    await page.locator('.tabs-container .tab', { hasText: /tools-\d+\.json/ }).first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'tasks-tools');
  });

  it('Submit Task Graph sends the open JSON file, names the task, and opens the answer read-only', async function () {
    const page = session!.page;
    await openFile(page, 'tasks/graph.json');
    await runCommand(page, 'Assay Tasks: Submit Task Graph');
    const toast = await waitForNotification(page, /Submitted 1 task: task-\d+/);
    submittedId = /Submitted 1 task: (task-\d+)/.exec(await toast.innerText())![1]!;
    assert.equal(service!.tasks.get(submittedId)?.name, 'long-build');
    assert.equal(service!.tasks.get(submittedId)?.status, 'running');

    // The envelope opens beside the source, as JSON.
    const tab = page.locator('.tabs-container .tab', { hasText: /submit-\d+\.json/ }).first();
    await tab.waitFor({ timeout: 15_000 });
    const group = page.locator('.editor-group-container', { has: tab });
    const lines = group.locator('.monaco-editor .view-lines').first();
    await lines.waitFor({ timeout: 15_000 });
    const text = (await lines.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /"ok": true/);
    assert.match(text, new RegExp(`"task_ids": \\[\\s*"${submittedId}"`));
    await screenshot(page, 'tasks-submitted');

    // Read-only: typing into it changes nothing and the editor says why.
    await tab.click();
    await lines.click();
    await page.keyboard.type('x');
    await group.locator('.monaco-editor-overlaymessage', { hasText: /read-only/i }).first().waitFor({ timeout: 10_000 });
    assert.equal((await lines.innerText()).replace(/\u00a0/g, ' '), text);
    await screenshot(page, 'tasks-result-read-only');
  });

  it('Wait for Tasks shows a cancellable progress; cancelling it stops the adapter, not the task', async function () {
    assert.ok(submittedId, 'needs the task submitted by the previous test');
    const page = session!.page;
    await runCommand(page, 'Assay Tasks: Wait for Tasks…');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ timeout: 10_000 });
    assert.match((await rows.first().innerText()).replace(/\s+/g, ' '), new RegExp(`^${submittedId}(?!\\d)`));
    await page.keyboard.press('Enter');
    // The deadline box: 0 waits for as long as it takes.
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.locator('.quick-input-widget', { hasText: 'How long to wait' }).waitFor({ timeout: 10_000 });
    await input.fill('0');
    await page.keyboard.press('Enter');
    const progress = await waitForNotification(page, `Assay Tasks: waiting for ${submittedId}`);
    assert.equal(adapterWaits(session!.dir).length, 1, 'no adapter wait process is running');
    await screenshot(page, 'tasks-wait-progress');
    await progress.getByRole('button', { name: 'Cancel', exact: true }).click();
    await waitForNotification(page, `Stopped waiting for ${submittedId}`);
    for (let i = 0; i < 50 && adapterWaits(session!.dir).length > 0; i++) await page.waitForTimeout(100);
    assert.deepEqual(adapterWaits(session!.dir), [], 'the adapter process outlived the cancelled progress');
    assert.equal(service!.tasks.get(submittedId)?.status, 'running');
  });

  it('Cancel Task offers the submitted task first, and with wait ends it cancelled', async function () {
    assert.ok(submittedId, 'needs the task submitted by the previous test');
    const page = session!.page;
    await runCommand(page, 'Assay Tasks: Cancel Task…');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ timeout: 10_000 });
    const first = (await rows.first().innerText()).replace(/\s+/g, ' ');
    assert.match(first, new RegExp(`^${submittedId}(?!\\d)`), `the picker's first row is not the submitted task: ${first}`);
    assert.match(first, /submit of graph\.json/);
    await screenshot(page, 'tasks-cancel-picker');
    await page.keyboard.press('Enter');
    const wait = rows.filter({ hasText: 'Cancel and wait until they end' }).first();
    await wait.waitFor({ timeout: 10_000 });
    await wait.click();
    await waitForNotification(page, `Cancelled: ${submittedId} cancelled`, 30_000);
    await screenshot(page, 'tasks-cancelled');
    assert.equal(service!.tasks.get(submittedId)?.status, 'cancelled');
    assert.ok(service!.tasks.get(submittedId)?.events.some((e) => e.type === 'task_cancel_requested'));
  });

  it('Submit Task Graph from a JSON file\'s context menu in the explorer sends that file', async function () {
    const page = session!.page;
    await runCommand(page, 'View: Show Explorer');
    const tree = page.locator('.explorer-folders-view');
    const row = (name: string) => tree.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace('.', '\\.')}$`) }) }).first();
    await row('tasks').waitFor({ timeout: 15_000 });
    if (!(await row('quick.json').isVisible())) await row('tasks').click();
    await row('quick.json').waitFor({ timeout: 10_000 });
    await row('quick.json').click({ button: 'right' });
    const item = page.locator('.context-view .action-item', { hasText: 'Submit Task Graph' }).first();
    await item.waitFor({ timeout: 10_000 });
    await screenshot(page, 'tasks-explorer-context-menu');
    await item.click();
    const toast = await waitForNotification(page, /Submitted 2 tasks: task-\d+, task-\d+/);
    const ids = [...(await toast.innerText()).matchAll(/task-\d+/g)].map((m) => m[0]);
    assert.deepEqual(ids.map((id) => service!.tasks.get(id)?.name), ['compile', 'lint']);
  });

  it('runs a sweep on the task service in 2 shards: shard progress, and the table a local run shows', async function () {
    this.timeout(300_000);
    const page = session!.page;
    const before = service!.tasks.size;
    await askSweep(page, 'task service');
    // The notification says the shards as they end (the service runs each as a real worker process).
    await waitForNotification(page, /sweep Energy::Kinetic on the task service/, 60_000);
    await screenshot(page, 'tasks-offload-progress');
    const offloaded = await tableRows(page, /sweep Energy::Kinetic — table \(proved\) by .* a table of 4 rows/);
    await screenshot(page, 'tasks-offload-table');
    assert.equal(service!.tasks.size - before, 2, 'one task per shard on the service');
    const shardTasks = [...service!.tasks.values()].slice(before);
    assert.deepEqual(shardTasks.map((t) => [t.name, t.status]), [['assay shard 1/2', 'success'], ['assay shard 2/2', 'success']]);

    await runCommand(page, 'View: Close All Editors');
    await askSweep(page, 'Run here');
    const local = await tableRows(page, /sweep Energy::Kinetic — table \(proved\) by .* a table of 4 rows/);
    assert.equal(service!.tasks.size - before, 2, 'Run here sends nothing to the service');
    assert.equal(offloaded.length, 4);
    assert.deepEqual(offloaded, local);
    await runCommand(page, 'View: Close All Editors');
  });

  it('Cancel in the notification cancels the shards on the task service', async function () {
    this.timeout(300_000);
    const page = session!.page;
    const before = service!.tasks.size;
    // Workers that never answer (the workspace's worker command): only the cancel can end the shards.
    const settingsFile = join(session!.workspace, '.vscode', 'settings.json');
    const saved = readFileSync(settingsFile, 'utf8');
    writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(saved), 'assay.tasks.workerCommand': `${process.execPath} -e setInterval(()=>{},1000) --` }));
    try {
      await page.waitForTimeout(1000); // the settings file watcher
      await askSweep(page, 'task service');
      const toast = await waitForNotification(page, /sweep Energy::Kinetic on the task service/, 60_000);
      await waitForNotification(page, /shards 0\/2/, 60_000);
      await toast.getByRole('button', { name: 'Cancel' }).click();
      await waitForNotification(page, /sweep Energy::Kinetic — cancelled: the 2 shards were cancelled on the task service/, 60_000);
      await screenshot(page, 'tasks-offload-cancelled');
      const shardTasks = [...service!.tasks.values()].slice(before);
      assert.deepEqual(shardTasks.map((t) => [t.name, t.status]), [['assay shard 1/2', 'cancelled'], ['assay shard 2/2', 'cancelled']]);
    } finally {
      writeFileSync(settingsFile, saved);
    }
  });

  it('Check Service with the service down says what to do by hand, and Open Terminal types the command', async function () {
    const page = session!.page;
    const url = service!.url;
    await service!.close();
    service = undefined;
    // The previous test's toasts (a cancelled sweep) are still fading: start from none.
    await runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
    await runCommand(page, 'Assay Tasks: Check Service');
    const toast = await waitForNotification(page, `Task service is unreachable at ${url}`, 30_000);
    const message = (await toast.innerText()).replace(/\s+/g, ' ');
    const byHand = `cd ${composeDir} && docker compose up -d`;
    assert.ok(message.includes(`run "${byHand}"`), message);
    await screenshot(page, 'tasks-service-down');
    for (const action of ['Open Terminal', 'Copy Hints', 'Open Settings']) {
      assert.ok(await toast.getByRole('button', { name: action }).isVisible(), `no "${action}" action on ${message}`);
    }
    await toast.getByRole('button', { name: 'Open Terminal' }).click();
    // Typed into a terminal named after us, not run: the user reads it and presses Enter.
    await page.locator('.terminal-tabs-entry, .single-terminal-tab, .terminal-tab', { hasText: 'Assay Tasks' }).first()
      .waitFor({ timeout: 20_000 }).catch(() => undefined);
    const rows = page.locator('.terminal-wrapper .xterm-rows').first();
    const deadline = Date.now() + 20_000;
    let shown = '';
    while (Date.now() < deadline) {
      shown = (await rows.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
      if (unwrapped(shown).includes(unwrapped(byHand))) break;
      await page.waitForTimeout(250);
    }
    await screenshot(page, 'tasks-hint-terminal');
    assert.ok(unwrapped(shown).includes(unwrapped(byHand)), `the terminal does not show "${byHand}"; it shows:\n${shown}`);
  });
});

describe('Assay Tasks commands in an untrusted workspace (Restricted Mode)', function () {
  let service: TaskService | undefined;
  let session: Session | undefined;
  let scratch = '';
  let marker = '';

  before(async function () {
    service = await startTaskService();
    // A workspace whose settings name its own adapter: a program that leaves a mark when it runs.
    scratch = mkdtempSync(join(tmpdir(), 'assay-tasks-trust-'));
    const workspace = join(scratch, 'workspace');
    marker = join(scratch, 'workspace-adapter-ran');
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, 'workspace-adapter.js'), [
      `require('node:fs').writeFileSync(${JSON.stringify(marker)}, process.argv.slice(2).join(' '));`,
      `process.stdout.write(JSON.stringify({ ok: true, data: { contract: 'the workspace adapter' } }));`,
    ].join('\n') + '\n');
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'assay.tasks.adapterPath': './workspace-adapter.js' }));
    session = await Session.start({
      vsix: packagedExtension().vsix,
      workspace,
      workspaceTrust: true,
      userSettings: { 'assay.tasks.serviceUrl': service.url },
    });
  });

  after(async function () {
    await session?.close();
    await service?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) await screenshot(session.page, 'failed-tasks-untrusted').catch(() => undefined);
  });

  it('ignores the workspace adapterPath until the workspace is trusted', async function () {
    const page = session!.page;
    const distrust = page.getByRole('button', { name: /No, I don.t trust the authors/i });
    await distrust.waitFor({ timeout: 30_000 });
    await distrust.click();
    await page.locator('.part.statusbar .statusbar-item', { hasText: /Restricted Mode/i }).first().waitFor({ timeout: 15_000 });
    await runCommand(page, 'Assay Tasks: Show Capabilities');
    await waitForNotification(page, 'The service speaks adapter.v1');
    await screenshot(page, 'tasks-untrusted-bundled-adapter');
    assert.equal(existsSync(marker), false, 'the workspace adapter ran in Restricted Mode');

    // The same setting takes effect once the user trusts the workspace: the test above can fail.
    await runCommand(page, 'Workspaces: Manage Workspace Trust');
    const trust = page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first();
    await trust.waitFor({ timeout: 15_000 });
    await trust.click();
    await runCommand(page, 'Assay Tasks: Show Capabilities');
    await waitForNotification(page, 'The service speaks the workspace adapter');
    assert.equal(readFileSync(marker, 'utf8'), 'capabilities');
  });
});

/** Terminal text without blanks and line breaks: the terminal wraps long lines at its width. */
function unwrapped(text: string): string {
  return text.replace(/\s+/g, '');
}

/** Pids of running `adapter.js wait …` processes (started by the editor's extension host). */
// Only this session's processes count (processesUsing: its directory in their command line or
// environment): another run on the machine, a second clone's suite, has adapter waits of its own.
function adapterWaits(dir: string): number[] {
  return processesUsing(dir).filter((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return args.some((a) => a.endsWith('adapter.js')) && args.includes('wait');
    } catch {
      return false; // exited meanwhile
    }
  });
}
