// The witness panel in a real VS Code (code-server, the extension installed from its VSIX): a violated
// `holds` asked from the code lens → Show Witness on the result notification → click step 3 in the
// panel → the editor's cursor moves to that node's declaration (the join), and back when step 4 is picked.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from './.tools/node_modules/playwright-core';
import { askViolatedHoldsFromLens, openFile, packagedExtension, pickIfShown, repoRoot, runCommand, screenshot, Session, waitForNotification } from './harness';

const WORKSPACE = join(repoRoot, 'test', 'fixtures', 'webview', 'workspace');
const MODEL = readFileSync(join(WORKSPACE, 'assembly.sysml'), 'utf8').split('\n');
/** 1-based line of the first line containing `text`. */
const lineOf = (text: string) => MODEL.findIndex((l) => l.includes(text)) + 1;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The line the cursor is on in the model's editor: its line number is drawn as the active one. (The
 * status bar's `Ln, Col` is not shown: the focus stays in the witness panel, which is the point.)
 */
async function cursorLine(page: Page): Promise<number> {
  const numbers = await page.locator('.monaco-editor .margin-view-overlays .line-numbers.active-line-number').allTextContents();
  return numbers.length === 1 ? Number(numbers[0]) : 0;
}

async function waitForCursorLine(page: Page, line: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 0;
  while (Date.now() < deadline) {
    last = await cursorLine(page).catch(() => 0);
    if (last === line) return;
    await sleep(200);
  }
  assert.equal(last, line, `the cursor is on line ${last}, not on line ${line} (${MODEL[line - 1]?.trim()})`);
}


describe('witness panel in a real VS Code (installed from the VSIX)', function () {
  let session: Session | undefined;

  before(async function () {
    session = await Session.start({ vsix: packagedExtension().vsix, workspace: WORKSPACE });
  });

  after(async function () {
    await session?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) {
      await screenshot(session.page, `failed-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
    }
  });

  it('a violated holds → Show Witness → clicking step 3 moves the editor selection to that node', async function () {
    const page = session!.page;
    await openFile(page, 'assembly.sysml');

    // Ask from the code lens above `action def Assemble` (the language server draws it once it is up).
    const toast = await askViolatedHoldsFromLens(page);
    await toast.locator('.monaco-button', { hasText: 'Show Witness' }).click();

    const webview: FrameLocator = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await webview.locator('li.step').first().waitFor({ timeout: 30_000 });
    assert.equal(await webview.locator('li.step').count(), 5, 'the initial state and four moves');
    // Steps in plain words (actions by their path), the schedule's token text on hover.
    assert.deepEqual(await webview.locator('li.step .chip.move').allTextContents(), ['makeA', 'makeB', 'j', 'sum']);
    assert.match((await webview.locator('li.step.violating').textContent()) ?? '', /sum violation/);
    assert.match((await webview.locator('li.step.violating .chip.move').getAttribute('title')) ?? '', /^t1@sum \(assembly\.sysml:\d+\)$/);
    // The panel opens at the violation, which reveals the `sum` action.
    await waitForCursorLine(page, lineOf('action sum'));

    await webview.locator('li.step[data-step="3"]').click();
    assert.equal(await webview.locator('li.step.selected .chip.move').textContent(), 'j');
    await waitForCursorLine(page, lineOf('join j;'));
    await screenshot(page, 'witness-step-3');

    await webview.locator('li.step[data-step="0"]').click();
    assert.match((await webview.locator('.state .meta').textContent()) ?? '', /^initial state · clock 0 s/);

    await webview.locator('li.step[data-step="1"]').click();
    await waitForCursorLine(page, lineOf('action makeA'));
  });

  it('comes back after the window reloads, on the step the user left it at', async function () {
    const page = session!.page;
    // VS Code's own reload: its shutdown saves the editors (the panel with its webview state) first.
    await runCommand(page, 'Developer: Reload Window');
    await page.waitForEvent('load', { timeout: 30_000 });
    await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: 30_000 });
    const webview: FrameLocator = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    // The panel serializer redraws from the state the webview saved; no run history survives a reload.
    await webview.locator('li.step.selected').waitFor({ timeout: 30_000 });
    assert.equal(await webview.locator('li.step.selected').getAttribute('data-step'), '1');
    assert.equal(await webview.locator('header h1').textContent(), 'holds Assembly::Assemble');
    await screenshot(page, 'witness-restored');

    // The restored panel highlights its step's node again; closing the panel clears the highlight.
    const highlight = page.locator('.monaco-editor .view-overlays div[class*="ced-"]');
    await highlight.first().waitFor({ state: 'attached', timeout: 10_000 });
    // It sits on the line of step 1's node (makeA): same height as that line's number.
    const lineNumber = page.locator('.monaco-editor .margin-view-overlays .line-numbers', { hasText: new RegExp(`^${lineOf('action makeA')}$`) });
    const [a, b] = [await highlight.first().boundingBox(), await lineNumber.first().boundingBox()];
    assert.ok(a && b && Math.abs(a.y - b.y) < 3, `the highlight (y ${a?.y}) is not on line ${lineOf('action makeA')} (y ${b?.y})`);

    // The restored panel still knows the text its run was asked of: an edit marks it, undoing it clears
    // the mark (the reload started a fresh undo stack: extra presses do nothing).
    await editModelAndSeeMark(page, webview, '// after the reload ', 'witness-restored-model-changed', 10);
    await page.locator('.tabs-container .tab', { hasText: 'holds Assemble' }).locator('.codicon-close').click();
    await webview.locator('li.step').first().waitFor({ state: 'detached', timeout: 10_000 });
    await highlight.first().waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('a satisfiable assignment → Show Witness → Confirm with evaluate asks evaluate with the chosen values bound', async function () {
    const page = session!.page;
    await runCommand(page, 'View: Close All Editors');
    await openFile(page, 'sizing.sysml');
    // satisfiable asks about the part's asserted constraints: no condition to pick.
    const lens = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration a', { hasText: 'Ask: satisfiable' }).first();
    await lens.waitFor({ state: 'visible', timeout: 30_000 });
    await lens.click();
    await pickIfShown(page, /engine/, /assay-reference|auto/i, 2_000);
    const toast = await waitForNotification(page, /satisfiable Sizing::Tank — satisfiable/, 60_000);
    await toast.locator('.monaco-button', { hasText: 'Show Witness' }).click();

    const webview: FrameLocator = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    const confirm = webview.locator('[data-action=confirm]');
    await confirm.waitFor({ timeout: 30_000 });
    const chosen = (await webview.locator('body').innerText()).replace(/\s+/g, ' ');
    assert.match(chosen, /fuelMass/);
    await screenshot(page, 'witness-assignment');
    await confirm.click();
    // The values the solver chose satisfy the asserted constraint when evaluated.
    const confirmed = await waitForNotification(page, /evaluate Sizing::Tank — value/, 60_000);
    assert.match(await confirmed.innerText(), /its constraint holds/);
    await screenshot(page, 'witness-assignment-confirmed');
  });

  it('a second witness opens as a tab in the first one\'s column, and an open panel marks an edit of its model', async function () {
    const page = session!.page;
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'View: Single Column Editor Layout');
    await openFile(page, 'assembly.sysml');
    const askHolds = async (beforeShow?: () => Promise<void>) => {
      const toast = await askViolatedHoldsFromLens(page);
      await beforeShow?.();
      await toast.locator('.monaco-button', { hasText: 'Show Witness' }).click();
      await toast.waitFor({ state: 'hidden', timeout: 10_000 });
    };
    const panelTabs = page.locator('.tabs-container .tab', { hasText: /Run \d+: holds Assemble/ });
    await askHolds();
    await panelTabs.first().waitFor({ timeout: 30_000 });
    // The first panel is the active editor when the second opens (where "beside" used to add a group).
    await askHolds(() => panelTabs.first().click());
    await panelTabs.nth(1).waitFor({ timeout: 30_000 });
    // Two editor groups (the model and the panels), not one more group per panel.
    assert.equal(await page.locator('.editor-group-container').count(), 2);
    const panelGroup = page.locator('.editor-group-container', { has: panelTabs.first() });
    assert.equal(await panelGroup.locator('.tabs-container .tab', { hasText: /Run \d+: holds Assemble/ }).count(), 2);

    // Edit the model: the open panel says its run was asked of other text; undoing the edit clears the mark.
    const webview: FrameLocator = page.frameLocator('iframe.webview.ready:visible').frameLocator('#active-frame');
    await webview.locator('li.step').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'witness-one-column');
    await editModelAndSeeMark(page, webview, '// edited ', 'witness-model-changed', 3);
  });
});

/**
 * Types `text` at the top of assembly.sysml: the open run panel in `webview` marks that its model changed
 * (with no mark before); `undos` presses of Ctrl+Z restore the text and the mark goes.
 */
async function editModelAndSeeMark(page: Page, webview: FrameLocator, text: string, shot: string, undos: number): Promise<void> {
  assert.equal(await webview.locator('.banner.model-changed').count(), 0);
  await page.locator('.editor-group-container', { has: page.locator('.tab', { hasText: 'assembly.sysml' }) }).locator('.monaco-editor .view-line').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type(text);
  const mark = webview.locator('.banner.model-changed');
  await mark.waitFor({ timeout: 15_000 });
  assert.match((await mark.textContent()) ?? '', /Your model has changed since this run: assembly\.sysml was edited/);
  await screenshot(page, shot);
  for (let i = 0; i < undos; i++) await page.keyboard.press('Control+Z');
  await mark.waitFor({ state: 'detached', timeout: 15_000 });
}
