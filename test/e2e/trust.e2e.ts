// Workspace trust: engine entries launch programs, so a workspace that is not trusted must not be able
// to start them through its .vscode/settings.json (package.json declares them restricted).
import assert from 'node:assert/strict';
import { packagedExtension, runCommand, screenshot, Session } from './harness';

describe('Assay in an untrusted workspace (Restricted Mode)', function () {
  let session: Session | undefined;

  before(async function () {
    session = await Session.start({ vsix: packagedExtension().vsix, workspaceTrust: true });
  });

  after(async function () {
    await session?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) await screenshot(session.page, 'failed-untrusted').catch(() => undefined);
  });

  it('lists the workspace engine entry as ignored, and says why', async function () {
    const page = session!.page;
    // VS Code asks on opening the folder; answer as a cautious user does.
    const distrust = page.getByRole('button', { name: /No, I don.t trust the authors/i });
    await distrust.waitFor({ timeout: 30_000 });
    await screenshot(page, 'trust-prompt');
    await distrust.click();
    await page.locator('.part.statusbar .statusbar-item', { hasText: /Restricted Mode/i }).first().waitFor({ timeout: 15_000 });
    await runCommand(page, 'Assay: Show Engines');
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'workspace-engine' }).first();
    await row.waitFor({ timeout: 15_000 });
    const text = await row.innerText();
    await screenshot(page, 'untrusted-show-engines');
    assert.match(text, /ignored: the workspace is not trusted/, text);
    const bundled = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'assay-reference' }).first().innerText();
    assert.doesNotMatch(bundled, /not trusted/, 'the bundled engine must stay usable in Restricted Mode');
  });
});
