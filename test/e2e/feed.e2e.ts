// The team feed in a real VS Code (code-server, the extension installed from its VSIX) with a real feed
// server (node dist/feed.js on a fresh SQLite file) started by the test. Two browser pages are two editor
// windows, each with its own extension host: Ada (page 1) signs up and shares a violated `holds` run from
// its notification; Bob (page 2) sees it appear in his Team Feed view live, without edit or delete on it,
// opens it and steps the shared witness over the shared model text; Ada deletes it and it vanishes from
// Bob's view.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from './.tools/node_modules/playwright-core';
import { ensureBuilt, startFeed, tempDir, type FeedProcess } from '../feed/helpers';
import { askViolatedHoldsFromLens, openFile, packagedExtension, pickIfShown, repoRoot, runCommand, screenshot, Session, waitForNotification, waitForStatusItem } from './harness';

const WORKSPACE = join(repoRoot, 'test', 'fixtures', 'webview', 'workspace');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PASSWORD = 'correct horse battery';

/** Answers the open input box with `text` (after it shows, titled like `title`). */
async function answerInput(page: Page, title: RegExp, text: string): Promise<void> {
  const widget = page.locator('.quick-input-widget', { has: page.locator('.quick-input-title', { hasText: title }) });
  await widget.waitFor({ state: 'visible', timeout: 20_000 });
  const input = widget.locator('.quick-input-box input');
  await input.fill(text);
  await input.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
}

async function signUp(page: Page, username: string): Promise<void> {
  await runCommand(page, 'Assay Feed: Sign Up…');
  await answerInput(page, /Sign Up \(/, username);
  await answerInput(page, /Sign Up as/, PASSWORD);
  await waitForNotification(page, new RegExp(`signed in as ${username}`), 30_000);
}

/** The Team Feed view's rows (shown in the Assay container). */
async function feedView(page: Page): Promise<Locator> {
  await runCommand(page, 'Assay: Focus on Team Feed View');
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Team Feed/i }) });
  await pane.waitFor({ state: 'visible', timeout: 20_000 });
  return pane;
}


describe('team feed in a real VS Code: share, watch live in a second window, open, delete', function () {
  let feed: FeedProcess | undefined;
  let session: Session | undefined;
  let bob: Page | undefined;

  before(async function () {
    ensureBuilt();
    feed = await startFeed({ env: { DATABASE_URL: `sqlite:${join(tempDir(), 'feed.db')}`, LOG_LEVEL: 'warn' } });
    session = await Session.start({ vsix: packagedExtension().vsix, workspace: WORKSPACE, userSettings: { 'assay.feed.url': feed.url } });
  });

  after(async function () {
    await bob?.close().catch(() => undefined);
    await session?.close();
    await feed?.stop();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) {
      const name = this.currentTest.title.replace(/[^a-z0-9]+/gi, '-');
      await screenshot(session.page, `failed-feed-ada-${name}`).catch(() => undefined);
      if (bob) await screenshot(bob, `failed-feed-bob-${name}`).catch(() => undefined);
    }
  });

  it('Ada shares a violated holds run; Bob sees it live, opens it, steps the witness; Ada deletes it and it vanishes for Bob', async function () {
    const ada = session!.page;
    const stamp = process.pid;
    await signUp(ada, `ada${stamp}`);

    // Bob: a window on the same workspace in his own browser, signed up, watching the feed (empty for now).
    bob = await session!.openOtherBrowser('bob');
    await signUp(bob, `bob${stamp}`);
    const bobFeed = await feedView(bob);
    await bobFeed.getByText('No posts yet').waitFor({ timeout: 20_000 });
    await screenshot(bob, 'feed-bob-empty');

    // Ada asks the violated holds from the code lens and shares it from the result notification.
    await ada.bringToFront();
    await openFile(ada, 'assembly.sysml');
    const toast = await askViolatedHoldsFromLens(ada);
    await toast.locator('.monaco-button', { hasText: 'Share to Team Feed…' }).click();
    await answerInput(ada, /Share to Team Feed \(1\/2\)/, 'Assemble breaks small');
    await answerInput(ada, /Share to Team Feed \(2\/2\)/, 'total reaches 3 after both makes; see step 4');
    await waitForNotification(ada, /shared "Assemble breaks small" to the team feed/, 30_000);
    const adaFeed = await feedView(ada);
    const adaRow = adaFeed.locator('.monaco-list-row', { hasText: 'Assemble breaks small' });
    await adaRow.waitFor({ timeout: 20_000 });
    await adaRow.hover();
    // Her own post: edit and delete are offered.
    await adaRow.locator('.action-label[aria-label="Delete Post"]').waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await adaRow.locator('.action-label[aria-label="Edit Post…"]').count(), 1);
    await screenshot(ada, 'feed-ada-shared');

    // Bob's view got it over the live channel: no reload, no click.
    await bob.bringToFront();
    const bobRow = bobFeed.locator('.monaco-list-row', { hasText: 'Assemble breaks small' });
    await bobRow.waitFor({ timeout: 30_000 });
    const rowText = (await bobRow.innerText()).replace(/\s+/g, ' ');
    assert.match(rowText, new RegExp(`ada${stamp} · (just now|\\d+ min ago) · holds Assemble`));
    assert.equal(await bobRow.locator('.codicon-error').count(), 1, 'a violation shows the error icon');
    await bobRow.hover();
    await bobRow.locator('.action-label[aria-label="Open Shared Run"]').waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await bobRow.locator('.action-label[aria-label="Delete Post"]').count(), 0, 'no delete on another user\'s post');
    assert.equal(await bobRow.locator('.action-label[aria-label="Edit Post…"]').count(), 0, 'no edit on another user\'s post');
    await screenshot(bob, 'feed-bob-live');

    // Bob opens it: the witness panel on the shared run, over the shared text in a read-only document.
    await bobRow.click();
    const webview: FrameLocator = bob.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await webview.locator('li.step').first().waitFor({ timeout: 30_000 });
    const shared = (await webview.locator('section.shared').innerText()).replace(/\s+/g, ' ');
    assert.match(shared, new RegExp(`Assemble breaks small — shared by ada${stamp}`));
    assert.match(shared, /total reaches 3 after both makes; see step 4/);
    assert.match(shared, /Your model is the one this run was asked of/);
    assert.equal(await webview.locator('[data-action=askAgainHere]').count(), 1);
    assert.equal(await webview.locator('li.step').count(), 5, 'the initial state and four moves');
    await webview.locator('li.step[data-step="3"]').click();
    assert.equal(await webview.locator('li.step.selected .chip.move').textContent(), 'j');
    assert.match((await webview.locator('li.step.selected .chip.move').getAttribute('title')) ?? '', /^t1@j\b/);
    // The step's node is revealed in the shared text: a read-only editor of the assay-feed document.
    const tab = bob.locator('.tabs-container .tab.active', { hasText: 'assembly.sysml' });
    await tab.waitFor({ timeout: 15_000 });
    const activeLine = bob.locator('.monaco-editor .margin-view-overlays .line-numbers.active-line-number');
    await activeLine.first().waitFor({ timeout: 10_000 });
    await screenshot(bob, 'feed-bob-witness-step-3');
    // It is the shared text, read-only: typing into it is refused.
    const editor = bob.locator('.editor-group-container .monaco-editor', { has: bob.locator('.view-lines') }).first();
    await editor.locator('.view-lines').click();
    await bob.keyboard.type('x');
    await bob.locator('.monaco-editor-overlaymessage', { hasText: /read-only/i }).waitFor({ timeout: 10_000 });


    // Ada deletes her post; it vanishes from Bob's view.
    await ada.bringToFront();
    await adaRow.hover();
    await adaRow.locator('.action-label[aria-label="Delete Post"]').click();
    const dialog = ada.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10_000 });
    assert.match(await dialog.innerText(), /Delete "Assemble breaks small" from the team feed\?/);
    await dialog.locator('.monaco-button', { hasText: /^Delete$/ }).click();
    await adaRow.waitFor({ state: 'detached', timeout: 20_000 });
    await bob.bringToFront();
    await runCommand(bob, 'Assay: Focus on Team Feed View');
    await bobRow.waitFor({ state: 'detached', timeout: 30_000 });
    await bobFeed.getByText('No posts yet').waitFor({ timeout: 10_000 });
    await sleep(200);
    await screenshot(bob, 'feed-bob-deleted');
  });

  it('a hidden view counts new posts in the status bar; a changed local model is marked; Ask Again Here answers on it', async function () {
    const ada = session!.page;
    // Bob leaves the Assay container: his Team Feed view is hidden.
    await bob!.bringToFront();
    await runCommand(bob!, 'View: Show Explorer');

    // Ada shares her run again, this time from the Runs view's inline action.
    await ada.bringToFront();
    await runCommand(ada, 'Assay: Focus on Runs View');
    const run = ada.locator('.pane', { has: ada.locator('.pane-header', { hasText: /Runs/i }) }).locator('.monaco-list-row', { hasText: 'holds Assembly::Assemble' }).first();
    await run.hover();
    await run.locator('.action-label[aria-label="Share to Team Feed…"]').click();
    await answerInput(ada, /Share to Team Feed \(1\/2\)/, 'Assemble, once more');
    await answerInput(ada, /Share to Team Feed \(2\/2\)/, '');
    await waitForNotification(ada, /shared "Assemble, once more"/, 30_000);

    // Bob is told in the status bar; clicking it shows the view with the post.
    await bob!.bringToFront();
    const hint = await waitForStatusItem(bob!, /1 new on Team Feed/, 30_000);
    await screenshot(bob!, 'feed-bob-status-hint');
    // Bob's own copy of the model differs (an unsaved edit, opened from the Explorer: the shared
    // read-only text of the same name is in Quick Open's history).
    await runCommand(bob!, 'View: Close All Editors');
    await bob!.locator('.explorer-folders-view .monaco-list-row', { hasText: 'assembly.sysml' }).first().click();
    await bob!.locator('.tabs-container .tab.active', { hasText: 'assembly.sysml' }).waitFor({ timeout: 15_000 });
    await bob!.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await bob!.keyboard.press('Control+End');
    await bob!.keyboard.type('\n// Bob was here\n');
    // (code-server may save it at once: saved or not, Bob's text is not the shared one.)
    await bob!.locator('.editor-group-container.active .monaco-editor .view-lines', { hasText: 'Bob was here' }).first().waitFor({ timeout: 10_000 });
    await hint.click();
    const pane = bob!.locator('.pane', { has: bob!.locator('.pane-header', { hasText: /Team Feed/i }) });
    const row = pane.locator('.monaco-list-row', { hasText: 'Assemble, once more' });
    await row.waitFor({ timeout: 20_000 });
    await bob!.locator('.part.statusbar .statusbar-item', { hasText: /new on Team Feed/ }).waitFor({ state: 'hidden', timeout: 10_000 });

    await row.click();
    // The visible panel's frame (a closed panel's frame can linger a moment); a loaded machine renders slowly.
    const webview: FrameLocator = bob!.frameLocator('iframe.webview.ready:visible').frameLocator('#active-frame');
    const changed = webview.locator('.model-changed');
    await changed.waitFor({ timeout: 60_000 });
    assert.match(await changed.innerText(), /Your model has changed since this run: assembly\.sysml differs/);
    await screenshot(bob!, 'feed-bob-model-changed');

    // Ask Again Here asks the same question of Bob's model and compares the answers.
    await webview.locator('[data-action=askAgainHere]').click();
    await pickIfShown(bob!, /engine/, /assay-reference|auto/i, 3_000);
    const compared = await waitForNotification(bob!, /asked again here/, 60_000);
    assert.match((await compared.innerText()).replace(/\s+/g, ' '),
      new RegExp(`holds Assembly::Assemble: violated, proved \\(run \\d+\\); shared by ada${process.pid}: violated, proved\\. Same answer\\.`));
    await screenshot(bob!, 'feed-bob-asked-again');
  });
});
