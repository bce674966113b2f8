// Asking questions in a real VS Code (code-server, the extension installed from its VSIX), driven
// through the page: the Ask picks from the palette, status bar progress, the settled status, the
// notification and the Runs entry; Cancel in the progress notification; a code lens; a bad engine
// entry in the user settings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from './.tools/node_modules/playwright-core';
import {
  openFile, packagedExtension, processesUsing, readProblems, recordFigure, runCommand, screenshot, Session, waitForNotification, waitForOutputText, waitForStatusItem,
} from './harness';

// Minimal shapes of the page's DOM (the test code type-checks without the DOM library).
interface StatusElement {
  textContent: string | null;
  querySelector(selector: string): unknown;
  querySelectorAll(selector: string): ArrayLike<StatusElement>;
}
interface StatusPage {
  document: { querySelector(selector: string): StatusElement | null };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
  performance: { now(): number };
  __assayStatus?: { text: string; spin: boolean; at: number }[];
}

/** Starts recording every text the status bar's Assay items show (a short run may show progress only briefly). */
async function recordStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as StatusPage;
    const seen: { text: string; spin: boolean; at: number }[] = [];
    g.__assayStatus = seen;
    const bar = g.document.querySelector('.part.statusbar');
    const look = () => {
      if (!bar) return;
      for (const item of Array.from(bar.querySelectorAll('.statusbar-item'))) {
        const text = (item.textContent ?? '').trim();
        if (!/TrafficLight::|Counters::|— (proved|bounded|witnessed|observed|not covered)/.test(text)) continue;
        const spin = item.querySelector('.codicon-modifier-spin, .codicon-sync') !== null;
        if (seen.at(-1)?.text !== text) seen.push({ text, spin, at: g.performance.now() });
      }
    };
    new g.MutationObserver(look).observe(bar, { subtree: true, childList: true, characterData: true, attributes: true });
    look();
  });
}

async function recordedStatus(page: Page): Promise<{ text: string; spin: boolean; at: number }[]> {
  return page.evaluate(() => (globalThis as unknown as StatusPage).__assayStatus ?? []);
}

/** Waits for the quick pick whose title matches, filters it, and picks the row whose label is `label`. */
async function pick(page: Page, title: RegExp, label: string, filter = label): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 20_000 });
  const input = widget.locator('.quick-input-box input');
  await input.fill(filter);
  const row = widget.locator('.quick-input-list .monaco-list-row', {
    has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }),
  }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
}

/** Rows of the quick pick shown now (`label — description`), once the title matches. */
async function pickRows(page: Page, title: RegExp): Promise<string[]> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 20_000 });
  const rows = widget.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: 10_000 });
  const texts: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const label = (await row.locator('.label-name').first().innerText().catch(() => '')).trim();
    const description = (await row.locator('.label-description').first().innerText().catch(() => '')).trim();
    texts.push(description ? `${label} — ${description}` : label);
  }
  return texts;
}

async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
}

async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
}

/** The Runs view's rows (label and description as shown). */
async function runsRows(page: Page, expected: RegExp, timeoutMs = 15_000): Promise<string[]> {
  await runCommand(page, 'Assay: Focus on Runs View');
  const rows = page.locator('.part.sidebar .monaco-list-row');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    if (texts.some((t) => expected.test(t))) return texts;
    if (Date.now() > deadline) throw new Error(`the Runs view shows ${JSON.stringify(texts)}`);
    await page.waitForTimeout(200);
  }
}

function lineOf(file: string, text: string): number {
  const lines = readFileSync(join(__dirname, 'workspace', file), 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes(text));
  assert.ok(index >= 0, `${file} has no line with ${text}`);
  return index + 1;
}

describe('Asking questions in a real VS Code (installed from the VSIX)', function () {
  let session: Session | undefined;

  before(async function () {
    // The last test types into settings.json: nothing may be auto-closed or re-indented on the way.
    session = await Session.start({
      vsix: packagedExtension().vsix,
      userSettings: { 'editor.autoClosingBrackets': 'never', 'editor.autoClosingQuotes': 'never', 'editor.autoIndent': 'none', 'editor.formatOnType': false },
    });
  });

  after(async function () {
    await session?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) {
      await screenshot(session.page, `failed-ask-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`).catch(() => undefined);
    }
    await session?.page.keyboard.press('Escape').catch(() => undefined);
  });

  it('asks holds from the palette: status bar progress, then the settled status, a notification and a Runs entry', async function () {
    const page = session!.page;
    await openFile(page, 'counters.sysml');
    await goToLine(page, lineOf('counters.sysml', 'attribute c : Integer'));
    await recordStatus(page);
    await runCommand(page, 'Assay: Ask a Question…');
    const subjects = await pickRows(page, /subject/);
    await screenshot(page, 'ask-subject-pick');
    assert.match(subjects[0]!, /Counters::Four/, `the declaration at the cursor is not offered first: ${JSON.stringify(subjects.slice(0, 3))}`);
    assert.match(subjects[0]!, /at the cursor/);
    await page.keyboard.press('Enter');
    const kinds = await pickRows(page, /what to ask of Counters::Four/);
    assert.ok(kinds.some((k) => /^holds/.test(k)), JSON.stringify(kinds));
    await pick(page, /what to ask/, 'holds');
    const conditions = await pickRows(page, /condition/);
    assert.ok(conditions.some((c) => /^bounded/.test(c)), `the subject's constraint is not offered: ${JSON.stringify(conditions)}`);
    await pick(page, /condition/, 'Asserted constraints', 'Asserted');
    await pick(page, /schedule policy/, 'all');
    const engines = await pickRows(page, /engine/);
    // The workspace's engine cannot start (its program is not there): not offered by name.
    assert.deepEqual(engines.map((e) => e.split(' — ')[0]), ['auto', 'All covering engines', 'assay-reference']);
    await screenshot(page, 'ask-engine-pick');
    const askedAt = Date.now();
    await pick(page, /engine/, 'auto');

    const progress = await waitForStatusItem(page, /holds Counters::Four · [\d,]+ steps/, 30_000);
    recordFigure('ask to progress counts in the status bar (code-server, e2e)', Date.now() - askedAt, 'ms');
    await screenshot(page, 'ask-status-progress');
    assert.ok(await progress.locator('.codicon-modifier-spin, .codicon-sync').count() > 0, 'the progress item has no spinning icon');
    const toast = await waitForNotification(page, /holds Counters::Four/);
    assert.ok(await toast.getByRole('button', { name: 'Cancel' }).isVisible(), 'the progress notification has no Cancel button');

    const settled = await waitForStatusItem(page, /^\s*holds — proved\s*$/, 60_000);
    await screenshot(page, 'ask-status-settled');
    assert.ok(await settled.locator('.codicon-pass').count() > 0, 'the settled item has no pass icon');
    const seen = await recordedStatus(page);
    const running = seen.filter((s) => /holds Counters::Four · /.test(s.text));
    assert.ok(running.length >= 2, `the status bar showed no progress updates: ${JSON.stringify(seen)}`);
    // At most ~4 updates per second.
    const span = (running.at(-1)!.at - running[0]!.at) / 1000;
    assert.ok(running.length <= 4 * span + 3, `${running.length} status updates in ${span.toFixed(1)} s`);

    const done = await waitForNotification(page, /holds Counters::Four — holds \(proved\) by assay-reference/, 20_000);
    assert.ok(await done.getByRole('button', { name: 'Details' }).isVisible());
    // The workspace's own engine entry cannot start (its program is not there): one clear error.
    const broken = await waitForNotification(page, /workspace-engine/, 20_000);
    assert.ok(await broken.getByRole('button', { name: 'Show Output' }).isVisible());
    await screenshot(page, 'ask-notifications');

    await done.getByRole('button', { name: 'Details' }).click();
    await page.locator('.tabs-container .tab.active', { hasText: /run-\d+\.md/ }).waitFor({ timeout: 15_000 });
    await page.locator('.editor-group-container.active .view-lines', { hasText: 'holds Counters::Four' }).first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'ask-details');

    const rows = await runsRows(page, /holds Counters::Four/);
    await screenshot(page, 'ask-runs-view');
    const row = rows.find((r) => /holds Counters::Four/.test(r))!;
    assert.match(row, /holds · proved · assay-reference · [\d.]+ (ms|s)/);
    await clearNotifications(page);
  });

  it('cancels a long run from the notification: the search so far is kept (holds, bounded, with its counts), and no engine process is left', async function () {
    const page = session!.page;
    await openFile(page, 'counters.sysml');
    await runCommand(page, 'Assay: Ask a Question…');
    await pick(page, /subject/, 'Counters::Six');
    await pick(page, /what to ask/, 'holds');
    await pick(page, /condition/, 'Asserted constraints', 'Asserted');
    await pick(page, /schedule policy/, 'all');
    await pick(page, /engine/, 'assay-reference');
    await waitForStatusItem(page, /holds Counters::Six · [\d,]+ steps · depth \d+/, 30_000);
    const toast = await waitForNotification(page, /holds Counters::Six/);
    await page.waitForTimeout(1000); // let it run a little
    await screenshot(page, 'cancel-before');
    const clickedAt = Date.now();
    await toast.getByRole('button', { name: 'Cancel' }).click();
    // The outcome, not its latency: a loaded machine is slow (the latency is measured in bench/editor.bench.ts).
    await waitForStatusItem(page, /holds — bounded/, 30_000);
    recordFigure('Cancel click to cancelled in the status bar (code-server, e2e)', Date.now() - clickedAt, 'ms');
    // The partial result: what was explored, and that no violation was found up to there.
    await waitForNotification(page, /holds Counters::Six — holds \(bounded\) by assay-reference in [\d.]+ (ms|s|min)[^:]*: no violation up to here: [\d,]+ states, [\d,]+ moves, depth \d+ explored before the run stopped when it was cancelled/, 30_000);
    await screenshot(page, 'cancel-after');
    // The progress notification (the one with Cancel) is gone; the result's notification names the run too.
    await page.locator('.notifications-toasts .notification-toast', { has: page.getByRole('button', { name: 'Cancel' }) })
      .filter({ hasText: /holds Counters::Six/ }).first().waitFor({ state: 'hidden', timeout: 30_000 });

    // No engine process is left: the one that was cancelled is shut down (the next question starts one).
    const engines = () => processesUsing(session!.dir).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('engine.js');
      } catch {
        return false;
      }
    });
    for (let i = 0; i < 400 && engines().length > 0; i++) await page.waitForTimeout(50);
    assert.deepEqual(engines(), [], `engine processes left ${Date.now() - clickedAt} ms after the click`);
    await runsRows(page, /holds Counters::Six\s*holds · bounded · assay-reference · [\d.]+ (ms|s)/);
  });

  it('runs the question from a code lens above a declaration, and marks the violated declaration', async function () {
    const page = session!.page;
    await clearNotifications(page);
    await openFile(page, 'crossing.sysml');
    const line = page.locator('.monaco-editor .view-lines .view-line', { hasText: 'part def TimedCrossing' }).first();
    await line.waitFor({ timeout: 15_000 });
    const lenses = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Ask: holds' });
    try {
      await lenses.first().waitFor({ state: 'visible', timeout: 20_000 });
    } catch {
      throw new Error('no `Ask: holds` code lens is shown (the language server sends them from the engine answers)');
    }
    // The lens just above the TimedCrossing line. Lenses are redrawn when the server sends new ones, so a
    // lens found may be gone by the time it is clicked: find it again and retry.
    const lensAbove = async (): Promise<Locator | undefined> => {
      const lineTop = (await line.boundingBox())?.y;
      if (lineTop === undefined) return undefined;
      let found: Locator | undefined;
      let best = Infinity;
      for (let i = 0; i < (await lenses.count()); i++) {
        const box = await lenses.nth(i).boundingBox();
        if (box && box.y < lineTop && lineTop - box.y < best) {
          best = lineTop - box.y;
          found = lenses.nth(i);
        }
      }
      return found;
    };
    await screenshot(page, 'lens-before-click');
    for (let attempt = 1; ; attempt++) {
      const lens = await lensAbove();
      try {
        assert.ok(lens, 'no Ask: holds lens above TimedCrossing');
        await lens.click({ timeout: 5_000 });
        await page.locator('.quick-input-widget .quick-input-title', { hasText: /condition/ }).first().waitFor({ state: 'visible', timeout: 10_000 });
        break;
      } catch (error) {
        if (attempt >= 4) throw error;
        await page.keyboard.press('Escape');
        await page.waitForTimeout(500);
      }
    }
    await pick(page, /condition/, 'safety');
    await pick(page, /schedule policy/, 'all');
    await pick(page, /engine/, 'assay-reference');
    const settled = await waitForStatusItem(page, /^\s*violated — proved\s*$/, 30_000);
    assert.ok(await settled.locator('.codicon-error').count() > 0);
    const toast = await waitForNotification(page, /holds TrafficLight::TimedCrossing — violated/);
    assert.ok(await toast.getByRole('button', { name: 'Show Witness' }).isVisible(), 'no Show Witness button');
    await screenshot(page, 'lens-violated');
    const problems = await readProblems(page, (rows) => rows.some((r) => /violates holds/.test(r)));
    const problem = problems.find((r) => /violates holds/.test(r))!;
    assert.match(problem, /assay/);
    assert.match(problem, /\[Ln 7, Col 11\]/);
    await screenshot(page, 'lens-problem');
  });

  it('names a bad engine entry and the setting key when the settings change', async function () {
    const page = session!.page;
    await clearNotifications(page);
    await openFile(page, 'crossing.sysml'); // Assay is active (it is, after the other tests)
    await waitForStatusItem(page, /^SysML$/);
    // As a user does: edit the workspace's settings JSON in the editor and save.
    await runCommand(page, 'Preferences: Open Workspace Settings (JSON)');
    await page.locator('.tabs-container .tab.active', { hasText: 'settings.json' }).waitFor({ timeout: 15_000 });
    const settings = { 'assay.engines': [{ name: 'typo-engine', command: 'typo-engine', answers: ['hold'] }], 'assay.trace': true };
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+A');
    // insertText types no keys, so no brackets or quotes are auto-closed.
    await page.keyboard.insertText(JSON.stringify(settings, null, 2));
    // Whatever the editor added after the text (a closing brace of its own) goes.
    await page.keyboard.press('Control+Shift+End');
    await page.keyboard.press('Delete');
    await page.keyboard.press('Control+S');
    const toast = await waitForNotification(page, /typo-engine/, 30_000);
    await page.waitForTimeout(500);
    await screenshot(page, 'bad-engine-entry');
    const text = await toast.innerText();
    assert.match(text, /assay\.engines \(workspace settings\) entry 0, field answers\.0/);
    assert.match(text, /engine "typo-engine" is not used/);
    assert.ok(await toast.getByRole('button', { name: 'Open Settings' }).isVisible());
  });

  it('logs every protocol message to the Assay output channel once assay.trace is on', async function () {
    const page = session!.page;
    // The settings of the previous test turned assay.trace on; ask the code lens question again.
    await clearNotifications(page);
    await runCommand(page, 'Assay: Ask Again');
    await waitForNotification(page, /holds TrafficLight::TimedCrossing — violated/, 30_000);
    await runCommand(page, 'Assay: Show Output');
    await waitForOutputText(page, /\[trace\] assay-reference ← \{"jsonrpc":"2\.0","id":\d+,"result":\{"claim":"violated"/);
    await screenshot(page, 'trace-output');
  });
});
