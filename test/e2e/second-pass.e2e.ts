// The editor's second pass in a real VS Code (code-server, the extension installed from its VSIX), as a
// modeler meets it: one row of lenses per declaration, compute asked with typed inputs (checked as
// typed) showing the value in the notification and its panel, a sweep reaching the table and the plot,
// and a syntax error shown as a model error at its place. Screenshots in the light and the dark theme.
import assert from 'node:assert/strict';
import type { FrameLocator, Locator, Page } from './.tools/node_modules/playwright-core';
import { openFile, packagedExtension, readProblems, runCommand, screenshot, Session, waitForNotification } from './harness';

/** Waits for the quick input whose title matches. */
async function quickInput(page: Page, title: RegExp, timeoutMs = 20_000): Promise<Locator> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: timeoutMs });
  return widget;
}

/** Picks the row whose label is `label` in the quick pick whose title matches. */
async function pick(page: Page, title: RegExp, label: string): Promise<void> {
  const widget = await quickInput(page, title);
  await widget.locator('.quick-input-box input').fill(label);
  const row = widget.locator('.quick-input-list .monaco-list-row', {
    has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }),
  }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
}

/** Types into the input box whose title matches; returns the validation message shown (empty when none). */
async function typeInput(page: Page, title: RegExp, text: string): Promise<string> {
  const widget = await quickInput(page, title);
  const input = widget.locator('.quick-input-box input');
  await input.fill(text);
  await page.waitForTimeout(300); // the validation runs on each change
  const message = widget.locator('.quick-input-message');
  const shown = ((await message.count()) > 0 ? await message.first().innerText() : '').trim();
  // A valid value shows the prompt and the Enter hint; a validation error replaces them.
  return /Press 'Enter' to confirm/.test(shown) ? '' : shown;
}

/** Picks the engine when the engine pick shows (it is skipped when one engine fits). */
async function pickEngineIfShown(page: Page, label: string, next: RegExp): Promise<void> {
  const title = page.locator('.quick-input-widget .quick-input-title', { hasText: /engine/ });
  const settled = page.locator('.notifications-toasts .notification-list-item-message', { hasText: next });
  await Promise.race([title.waitFor({ state: 'visible', timeout: 60_000 }), settled.first().waitFor({ state: 'visible', timeout: 60_000 })]);
  if (await title.isVisible()) await pick(page, /engine/, label);
}

/** The lens texts drawn above the line that contains `text`, in the active editor. */
async function lensesAbove(page: Page, text: string): Promise<string[]> {
  const line = page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line', { hasText: text }).first();
  await line.waitFor({ timeout: 15_000 });
  const top = (await line.boundingBox())!.y;
  const out: { y: number; text: string }[] = [];
  const links = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration');
  for (let i = 0; i < (await links.count()); i++) {
    const box = await links.nth(i).boundingBox();
    if (box && box.y < top && top - box.y < 30) out.push({ y: box.y, text: (await links.nth(i).innerText()).replace(/\s+/g, ' ').trim() });
  }
  return out.map((o) => o.text);
}

async function clickLens(page: Page, title: string, next: RegExp): Promise<void> {
  const lens = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration a', { hasText: title }).first();
  await lens.waitFor({ state: 'visible', timeout: 30_000 });
  // Lenses are redrawn when the server sends new ones: a lens found may be gone when clicked.
  for (let attempt = 1; ; attempt++) {
    try {
      await lens.click({ timeout: 5_000 });
      await page.locator('.quick-input-widget .quick-input-title', { hasText: next }).first().waitFor({ state: 'visible', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
}

async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
}

function panel(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
}

async function setTheme(page: Page, theme: 'Light Modern' | 'Dark Modern'): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme');
  // The theme pick has a placeholder, not a title.
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 20_000 });
  await input.fill(theme);
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: theme }).first().click();
  await page.waitForTimeout(500);
}

/** Quick Open under load may list nothing the first time (the file search is still starting): try again. */
async function open(page: Page, file: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await openFile(page, file);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

describe('the editor second pass in a real VS Code (installed from the VSIX)', function () {
  let session: Session | undefined;

  before(async function () {
    this.timeout(300_000);
    session = await Session.start({
      vsix: packagedExtension().vsix, userSettings: { 'workbench.colorTheme': 'Default Light Modern' },
      // A shared machine under load may take longer than the default 30 s to load the workbench.
      beforeOpen: async (page) => page.setDefaultNavigationTimeout(180_000),
    });
  });

  after(async function () {
    await session?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) {
      await screenshot(session.page, `failed-second-pass-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`).catch(() => undefined);
    }
    await session?.page.keyboard.press('Escape').catch(() => undefined);
  });

  it('draws one row of lenses per declaration: Ask… and the kinds that fit, none over its parameters', async function () {
    const page = session!.page;
    await open(page, 'kinetic.sysml');
    await page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Ask…' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(await lensesAbove(page, 'calc def Kinetic'), ['Ask… | Ask: compute | Ask: sweep']);
    assert.deepEqual(await lensesAbove(page, 'in v : SpeedValue'), [], 'a lens over a parameter');
    await screenshot(page, 'second-pass-lenses-light');
    await open(page, 'crossing.sysml');
    await page.locator('.editor-group-container.active .monaco-editor .codelens-decoration a', { hasText: 'Ask…' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(await lensesAbove(page, 'part def TimedCrossing'), ['Ask… | Ask: holds | Ask: outcomes']);
    assert.deepEqual(await lensesAbove(page, 'attribute nsGreen'), []);
    await screenshot(page, 'second-pass-lenses-crossing');
  });

  it('asks compute with an input per parameter, checked as typed, and shows the value in the notification and its panel', async function () {
    const page = session!.page;
    await clearNotifications(page);
    await open(page, 'kinetic.sysml');
    await clickLens(page, 'Ask: compute', /input m/);
    // m has a default in the model: empty keeps it.
    assert.equal(await typeInput(page, /compute Energy::Kinetic — input m \(1\/2\)/, ''), '');
    await page.keyboard.press('Enter');
    const wrong = await typeInput(page, /input v \(2\/2\)/, '10 [kg]');
    await screenshot(page, 'second-pass-compute-validation');
    assert.match(wrong, /\[kg\] is not a unit of SpeedValue \(use a unit like \[m\/s\]\)/);
    assert.equal(await typeInput(page, /input v/, '10 [m/s]'), '');
    await page.keyboard.press('Enter');
    await pickEngineIfShown(page, 'assay-reference', /compute Energy::Kinetic/);
    const toast = await waitForNotification(page, /compute Energy::Kinetic — value \(proved\) by assay-reference in [\d.]+ (ms|s): Kinetic = 50,000 \[J\]/, 60_000);
    await screenshot(page, 'second-pass-compute-value');
    await toast.getByRole('button', { name: 'Show' }).click();
    const body = panel(page).locator('body');
    await body.getByText('50000', { exact: false }).first().waitFor({ timeout: 30_000 });
    assert.match((await body.innerText()).replace(/\s+/g, ' '), /Kinetic/);
    await screenshot(page, 'second-pass-compute-panel');
  });

  it('asks a sweep with a range, remembered for Ask Again with Other Inputs, reaching the table and the plot', async function () {
    const page = session!.page;
    await clearNotifications(page);
    await runCommand(page, 'View: Close All Editors');
    await open(page, 'kinetic.sysml');
    await clickLens(page, 'Ask: sweep', /parameters to sweep/);
    // v (no default in the model) is the one checked.
    await page.keyboard.press('Enter');
    const bad = await typeInput(page, /range of v \(1\/1\)/, '30 .. 0 step 10');
    assert.match(bad, /"to" \(0\) is below "from" \(30\)/);
    assert.equal(await typeInput(page, /range of v/, '0 .. 30 step 10'), '');
    await page.keyboard.press('Enter');
    await typeInput(page, /sweep Energy::Kinetic — input m \(1\/1\)/, '');
    await page.keyboard.press('Enter');
    await pickEngineIfShown(page, 'assay-reference', /sweep Energy::Kinetic/);
    const toast = await waitForNotification(page, /sweep Energy::Kinetic — table \(proved\) by assay-reference in [\d.]+ (ms|s): a table of 4 rows/, 60_000);
    await toast.getByRole('button', { name: 'Show' }).click();
    const view = panel(page);
    await view.locator('table.sortable tbody tr').first().waitFor({ timeout: 30_000 });
    assert.equal(await view.locator('table.sortable tbody tr').count(), 4);
    assert.ok((await view.locator('canvas').first().boundingBox())!.height > 100, 'the plot is drawn');
    await screenshot(page, 'second-pass-sweep-light');
    await setTheme(page, 'Dark Modern');
    await screenshot(page, 'second-pass-sweep-dark');

    // Ask Again with Other Inputs offers the range as given.
    await clearNotifications(page);
    // The result panel repaints in the new theme and may take focus, which closes a quick pick opened
    // meanwhile (seen once in CI: the pick's title there, hidden): focus the editor and ask once more.
    for (let attempt = 1; ; attempt++) {
      await runCommand(page, 'View: Focus Active Editor Group').catch(() => undefined);
      await runCommand(page, 'Assay: Ask Again with Other Inputs…');
      if (await quickInput(page, /parameters to sweep/, 10_000).then(() => true, () => false)) break;
      if (attempt === 2) throw new Error('Ask Again with Other Inputs showed no "parameters to sweep" pick, twice');
    }
    await page.keyboard.press('Enter');
    const widget = await quickInput(page, /range of v/);
    assert.equal(await widget.locator('.quick-input-box input').inputValue(), '0 .. 30 step 10');
    await typeInput(page, /range of v/, '0 .. 20 step 10');
    await page.keyboard.press('Enter');
    // Clicking into the model to look the mass up leaves the step on screen.
    await quickInput(page, /input m/);
    await page.locator('.monaco-editor .view-lines .view-line', { hasText: 'in m :' }).first().click();
    assert.ok(await page.locator('.quick-input-widget .quick-input-title', { hasText: /input m/ }).isVisible(), 'the input step stays up when focus moves to the editor');
    await typeInput(page, /input m/, '2000 [kg]');
    await page.keyboard.press('Enter');
    await pickEngineIfShown(page, 'assay-reference', /sweep Energy::Kinetic — table .*3 rows/);
    await waitForNotification(page, /sweep Energy::Kinetic — table .*: a table of 3 rows/, 60_000);
    await screenshot(page, 'second-pass-ask-again-dark');
  });

  it('shows a syntax error where the subject is declared as a model error at its place, with a Problems entry', async function () {
    const page = session!.page;
    await clearNotifications(page);
    await runCommand(page, 'Assay: Ask a Question…');
    await pick(page, /subject/, 'Broken::Car');
    await pick(page, /what to ask/, 'evaluate');
    await pickEngineIfShown(page, 'assay-reference', /evaluate Broken::Car/);
    const toast = await waitForNotification(page, /evaluate Broken::Car — model error at broken\.sysml:6:29: expected ';' after part usage/, 30_000);
    await screenshot(page, 'second-pass-model-error-dark');
    await toast.getByRole('button', { name: 'Go to Error' }).click();
    await page.locator('.tabs-container .tab.active', { hasText: 'broken.sysml' }).waitFor({ timeout: 15_000 });
    const rows = await readProblems(page, (texts) => texts.some((t) => /expected ';' after part usage/.test(t)));
    assert.ok(rows.some((t) => /\[Ln 6, Col 29\]/.test(t)), JSON.stringify(rows));
    await screenshot(page, 'second-pass-model-error-problems-dark');
    await setTheme(page, 'Light Modern');
    await screenshot(page, 'second-pass-model-error-problems-light');
  });
});
