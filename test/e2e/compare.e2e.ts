// Asking every covering engine in a real VS Code (code-server, the extension installed from its VSIX):
// "All covering engines" in the engine pick, the comparison panel (a webview) with the verdict and one
// row per engine, and the Runs view nesting the engines' runs under one row. The engines: the bundled
// one (it finds the violation and the host replays it), a fixture engine from the user settings that
// claims a proof, and the workspace's entry whose program is not there.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FrameLocator, Page } from './.tools/node_modules/playwright-core';
import { openFile, packagedExtension, runCommand, screenshot, Session } from './harness';

const repoRoot = join(__dirname, '..', '..');

async function pick(page: Page, title: RegExp, label: string, filter = label): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 20_000 });
  await widget.locator('.quick-input-box input').fill(filter);
  const row = widget.locator('.quick-input-list .monaco-list-row', {
    has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }),
  }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
}

describe('Asking all covering engines in a real VS Code (installed from the VSIX)', function () {
  let session: Session | undefined;

  before(async function () {
    session = await Session.start({
      vsix: packagedExtension().vsix,
      userSettings: {
        'assay.engines': [{
          name: 'prover', command: 'node', args: [join(repoRoot, 'test', 'fixtures', 'engines', 'well-behaved.js')],
          env: { FIXTURE_NAME: 'prover', FIXTURE_CONFIG: JSON.stringify({ result: { claim: 'holds', strength: 'proved', reason: 'trust me' } }) },
        }],
      },
    });
  });

  after(async function () {
    await session?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) {
      await screenshot(session.page, `failed-compare-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`).catch(() => undefined);
    }
  });

  it('a proof against a replayed violation: the panel shows the decided verdict and each engine, the Runs view one group', async function () {
    const page = session!.page;
    // The first Quick Open of a fresh session may find no files yet (the file index still starting on a
    // loaded machine): open the file from the Explorer then.
    await openFile(page, 'crossing.sysml').catch(async () => {
      await page.keyboard.press('Escape');
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'crossing.sysml' }).first().click();
      await page.locator('.tabs-container .tab.active', { hasText: 'crossing.sysml' }).waitFor({ timeout: 15_000 });
    });
    await runCommand(page, 'Assay: Ask a Question…');
    await pick(page, /subject/, 'TrafficLight::TimedCrossing', 'TimedCrossing');
    await pick(page, /what to ask/, 'holds');
    await pick(page, /condition/, 'Asserted constraints', 'Asserted');
    await pick(page, /schedule policy/, 'all');
    await pick(page, /engine/, 'All covering engines', 'All covering');

    const panel: FrameLocator = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    const verdict = panel.locator('.verdict');
    await verdict.locator('strong', { hasText: 'Disagreement decided by a replayed witness' }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'compare-panel');
    assert.match((await verdict.textContent()) ?? '', /violated, decided by assay-reference's replayed witness; prover's holds does not stand/);
    const row = async (engine: string) => (await panel.locator(`tr[data-engine="${engine}"] td`).allInnerTexts()).map((t) => t.trim());
    const reference = await row('assay-reference');
    assert.deepEqual(reference.slice(0, 3), ['assay-reference', 'violated', 'proved']);
    assert.equal(reference[5], 'Show', 'the engine with the witness offers to show it');
    const prover = await row('prover');
    assert.deepEqual(prover.slice(0, 3), ['prover', 'holds', 'proved → not covered']);
    assert.match(prover[4]!, /^contradicted by assay-reference's replayed witness; trust me$/);
    const workspace = await row('workspace-engine');
    assert.equal(workspace[1], 'not covered');
    assert.notEqual(workspace[4], '', 'the workspace engine that cannot start says why');

    // Show opens the deciding engine's run in the witness panel.
    await panel.locator('tr[data-engine="assay-reference"] button').click();
    await page.locator('.tabs-container .tab', { hasText: /Run \d+: holds TimedCrossing/ }).first().waitFor({ timeout: 30_000 }); // the witness panel's title

    await runCommand(page, 'Assay: Focus on Runs View');
    const rows = page.locator('.part.sidebar .monaco-list-row');
    await rows.filter({ hasText: /All covering engines: holds TrafficLight::TimedCrossing/ }).first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'compare-runs-view');
    const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    const group = texts.findIndex((t) => /All covering engines: holds TrafficLight::TimedCrossing/.test(t));
    assert.match(texts[group]!, /violated, decided by assay-reference's replayed witness/);
    // The engines' runs one level down, right under the group row.
    const nested = texts.slice(group + 1, group + 4).join(' | ');
    assert.match(nested, /assay-reference/);
    assert.match(nested, /prover/);
    assert.match(nested, /workspace-engine|not covered/);
  });
});
