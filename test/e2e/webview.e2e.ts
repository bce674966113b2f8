// The witness panel's webview bundle (dist/webview.js) on its own, in Debian's Chromium: a page built
// by the extension's own HTML builder (same strict CSP), a fake acquireVsCodeApi that records what the
// webview posts, and view models the host computes from real models and captured CLI results.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Question, RunResult, SourceDocument } from '../../src/protocol';
import { parse } from '../../src/sysml';
import { answerBehavior, BehaviorError, type BehaviorQuestion } from '../../src/sysml/behavior';
import { witnessView, type WitnessView } from '../../src/host/witness-view';
import { witnessHtml } from '../../src/extension/witness/witnessHtml';
import { chromium, type Browser, type Page } from './.tools/node_modules/playwright-core';
import { artifactsDir, chromiumPath, repoRoot } from './harness';

const BEHAVIOR = join(repoRoot, 'test', 'fixtures', 'models', 'behavior');
const CAPTURED = join(repoRoot, 'test', 'fixtures', 'webview');
const NONCE = 'testnonce0123456789';

// A stand-in for VS Code's webview API: posted messages are kept in window.posted, and the state in
// sessionStorage, so that a reload of the page restores it as VS Code does for a reloaded panel.
const FAKE_API = `
window.posted = [];
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.posted.push(m),
  getState: () => { const s = sessionStorage.getItem('state'); return s ? JSON.parse(s) : undefined; },
  setState: (s) => sessionStorage.setItem('state', JSON.stringify(s)),
});`;

// A few of the variables VS Code sets on a webview's root (Dark Modern), so that the page looks as in the editor.
const THEME = `:root {
  --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: monospace;
  --vscode-foreground: #cccccc; --vscode-editor-background: #1f1f1f; --vscode-descriptionForeground: #9d9d9d;
  --vscode-badge-background: #616161; --vscode-badge-foreground: #f8f8f8; --vscode-focusBorder: #0078d4;
  --vscode-button-background: #0078d4; --vscode-button-foreground: #ffffff; --vscode-button-secondaryBackground: #313131;
  --vscode-button-secondaryForeground: #cccccc; --vscode-textLink-foreground: #4daafc; --vscode-errorForeground: #f85149;
  --vscode-editorWarning-foreground: #cca700; --vscode-list-activeSelectionBackground: #04395e; --vscode-list-activeSelectionForeground: #ffffff;
  --vscode-editorWidget-border: #454545; --vscode-editorWidget-background: #202020; --vscode-textBlockQuote-background: #2b2b2b;
  --vscode-diffEditor-insertedTextBackground: rgba(156, 204, 44, 0.2); --vscode-editor-findMatchHighlightBackground: rgba(234, 92, 0, 0.33);
  --vscode-charts-blue: #3794ff; --vscode-testing-iconPassed: #73c991; --vscode-inputValidation-errorBackground: #5a1d1d;
}`;

function page(origin: string): string {
  const html = witnessHtml({ cspSource: origin, script: `${origin}/dist/webview.js`, styles: [`${origin}/dist/codicons/codicon.css`, `${origin}/media/witness.css`], nonce: NONCE });
  return html
    .replace('<title>', `<style nonce="${NONCE}">${THEME}</style>\n<title>`)
    .replace('<script nonce=', `<script nonce="${NONCE}">${FAKE_API}</script>\n<script nonce=`);
}

async function behaviourView(file: string, question: Question): Promise<WitnessView> {
  const documents: SourceDocument[] = [{ path: join(BEHAVIOR, file), text: readFileSync(join(BEHAVIOR, file), 'utf8') }];
  const answer = await answerBehavior(documents.map((d) => ({ path: d.path, document: parse(d.text).document })), question as BehaviorQuestion);
  if (answer instanceof BehaviorError) throw answer;
  return witnessView({ runId: 1, question, result: answer as RunResult, documents, engine: 'assay-reference' });
}

function capturedView(name: string): WitnessView {
  const c = JSON.parse(readFileSync(join(CAPTURED, `${name}.json`), 'utf8')) as { question: Question; engine: string; result: RunResult };
  return witnessView({ question: c.question, result: c.result, documents: [{ path: '/models/vehicle.sysml', text: '' }], engine: c.engine });
}

type Posted = { type: string; [key: string]: unknown };

describe('witness webview (dist/webview.js in Chromium)', function () {
  let server: Server;
  let origin = '';
  let browser: Browser;
  let profile: string;
  let p: Page;
  const cspViolations: string[] = [];

  before(async function () {
    for (const file of ['dist/webview.js', 'dist/codicons/codicon.css']) {
      if (!existsSync(join(repoRoot, file))) throw new Error(`${file} is missing: run npm run build first`);
    }
    if (!existsSync(chromiumPath)) throw new Error(`no browser at ${chromiumPath} (run as root: bash test/e2e/setup.sh)`);
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(origin));
        return;
      }
      const file = join(repoRoot, url.pathname);
      if (!file.startsWith(join(repoRoot, 'dist')) && !file.startsWith(join(repoRoot, 'media'))) return void res.writeHead(404).end();
      if (!existsSync(file)) return void res.writeHead(404).end();
      const type = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' }[extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    profile = mkdtempSync(join(tmpdir(), 'assay-webview-'));
    browser = await chromium.launch({
      executablePath: chromiumPath, headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
      env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: join(profile, 'config'), XDG_CACHE_HOME: join(profile, 'cache') },
    });
  });

  after(async function () {
    await browser?.close();
    server?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  beforeEach(async function () {
    p = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    p.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
    });
    p.on('pageerror', (e) => cspViolations.push(`page error: ${e.message}`));
    await p.goto(origin + '/');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await p.screenshot({ path: join(artifactsDir, `webview-failed-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-')}.png`) }).catch(() => undefined);
    await p.close();
    assert.deepEqual(cspViolations.splice(0), [], 'the page ran without CSP violations or errors');
  });

  const show = async (view: WitnessView) => {
    await p.evaluate((v) => window.postMessage({ type: 'show', view: v }, '*'), view as unknown as Record<string, unknown>);
    await p.locator('header h1').waitFor();
  };
  const posted = () => p.evaluate(() => (window as unknown as { posted: Posted[] }).posted);
  const selectedStep = async () => Number(await p.locator('li.step.selected').getAttribute('data-step'));

  it('steps through a schedule with the buttons and the arrow keys, highlighting what changed and revealing each node', async function () {
    const view = await behaviourView('fork-join.sysml', { kind: 'holds', subject: 'ForkJoin::Assemble', schedule: 'fifo', free: [], condition: { name: 'small', text: 'total < 3' } });
    await show(view);
    assert.equal(await p.locator('header h1').textContent(), 'holds ForkJoin::Assemble');
    assert.equal(await p.locator('li.step').count(), 5);
    // It opens at the violation.
    assert.equal(await selectedStep(), 4);
    assert.match((await p.locator('li.step.violating').textContent()) ?? '', /^4sum violation$/);
    // The schedule's token text is on hover.
    assert.match((await p.locator('li.step.violating .chip.move').getAttribute('title')) ?? '', /^t1@sum \(fork-join\.sysml:\d+\)$/);
    assert.equal(await p.locator('.chip.condition.false').textContent(), 'small: false');
    assert.match((await p.locator('.banner.check.confirmed').textContent()) ?? '', /fails at step 4, as claimed/);

    await p.click('[data-action=first]');
    assert.equal(await selectedStep(), 0);
    assert.match((await p.locator('.state .meta').textContent()) ?? '', /^initial state · clock 0 s/);
    assert.equal(await p.locator('tr.changed').count(), 0);
    assert.ok(await p.locator('[data-action=previous]').isDisabled());

    await p.keyboard.press('ArrowDown');
    assert.equal(await selectedStep(), 1);
    assert.deepEqual(await p.locator('tr.changed').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-feature'), r.querySelector('.value')!.textContent, r.querySelector('.was')!.textContent])), [['a', '1', 'was 0']]);
    // The alternatives enabled at step 1, as chips after `first of`.
    assert.deepEqual(await p.locator('li.step.selected .chip.alt').allTextContents(), ['makeA', 'makeB']);
    // They are not links: no pointer, and the title says what they are.
    const other = p.locator('li.step.selected .chip.alt:not(.chosen)');
    assert.equal(await other.evaluate((e) => getComputedStyle(e).cursor), 'default');
    assert.equal(await other.getAttribute('title'), 't2@makeB: also enabled here; this schedule takes t1@makeA. Ask with another schedule to follow it.');

    await p.keyboard.press('ArrowRight');
    assert.equal(await selectedStep(), 2);
    assert.deepEqual(await p.locator('tr.changed').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-feature'))), ['b']);

    await p.click('[data-action=next]');
    assert.equal(await selectedStep(), 3);
    await p.keyboard.press('ArrowLeft');
    assert.equal(await selectedStep(), 2);
    await p.click('li.step[data-step="3"]');
    assert.equal(await selectedStep(), 3);
    await p.click('[data-action=last]');
    assert.equal(await selectedStep(), 4);
    assert.ok(await p.locator('[data-action=next]').isDisabled());

    // Every selection asked the extension to reveal its node, with the declaration's place.
    const reveals = (await posted()).filter((m) => m.type === 'reveal') as { location?: { line: number } }[];
    const text = readFileSync(join(BEHAVIOR, 'fork-join.sysml'), 'utf8').split('\n');
    const lines = reveals.map((r) => (r.location ? text[r.location.line - 1]!.trim() : '(initial state)'));
    assert.deepEqual(lines, ['action sum { assign total := a + b; }', '(initial state)', 'action makeA { assign a := 1; }', 'action makeB { assign b := 2; }', 'join j;', 'action makeB { assign b := 2; }', 'join j;', 'action sum { assign total := a + b; }']);

    // Play runs to the end on its own and stops there.
    await p.click('[data-action=first]');
    await p.keyboard.press('ArrowDown');
    await p.keyboard.press('ArrowDown');
    await p.click('[data-action=play]');
    await p.locator('[data-action=pause]').waitFor();
    await p.locator('li.step.selected[data-step="4"]').waitFor({ timeout: 5000 });
    await p.locator('[data-action=play]').waitFor({ timeout: 3000 });
    await p.screenshot({ path: join(artifactsDir, 'webview-schedule.png') });
  });

  it('a timed machine: each step in plain words at the time it happened, every machine\'s state, and a mark when the model changed', async function () {
    await show(await behaviourView('traffic-light.sysml', { kind: 'holds', subject: 'TrafficLight::TimedCrossing', schedule: 'all', free: [] }));
    const rows = await p.locator('li.step').evaluateAll((items) => items.map((li) => (li as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(rows, ['0 initial state', '1 ns.nsLight: red → green at 1 s', '2 ew.ewLight: red → green at 2 s violation']);
    assert.equal(await p.locator('li.step[data-step="1"] .chip.move').getAttribute('title'), `t1@ns.nsLight.red->green (traffic-light.sysml:${readFileSync(join(BEHAVIOR, 'traffic-light.sysml'), 'utf8').split('\n').findIndex((l) => l.includes('accept after 1')) + 1})`);
    assert.match((await p.locator('.state .meta').textContent()) ?? '', /^after step 2 · clock 2 s/);
    assert.deepEqual(await p.locator('.state .machines .chip.state').allTextContents(), ['ns.nsLight: green', 'ew.ewLight: green']);
    await p.click('li.step[data-step="0"]');
    assert.match((await p.locator('.state .meta').textContent()) ?? '', /^initial state · clock 0 s/);
    assert.deepEqual(await p.locator('.state .machines .chip.state').allTextContents(), ['ns.nsLight: red', 'ew.ewLight: red']);
    await p.click('li.step[data-step="1"]');
    assert.deepEqual(await p.locator('.state .machines .chip.state').allTextContents(), ['ns.nsLight: green', 'ew.ewLight: red']);
    assert.equal(await p.locator('.model-changed').count(), 0);
    await p.evaluate(() => window.postMessage({ type: 'modelChanged', changed: 'traffic-light.sysml was edited' }, '*'));
    await p.locator('.banner.model-changed').waitFor();
    assert.match((await p.locator('.banner.model-changed').textContent()) ?? '', /Your model has changed since this run: traffic-light\.sysml was edited/);
    await p.screenshot({ path: join(artifactsDir, 'webview-timed-dark.png') });
    // Undoing the edit clears the mark.
    await p.evaluate(() => window.postMessage({ type: 'modelChanged' }, '*'));
    await p.locator('.banner.model-changed').waitFor({ state: 'detached' });
  });

  it('restores the selected step from the saved state when the page reloads', async function () {
    const view = await behaviourView('fork-join.sysml', { kind: 'holds', subject: 'ForkJoin::Assemble', schedule: 'fifo', free: [], condition: { name: 'small', text: 'total < 3' } });
    await show(view);
    await p.click('li.step[data-step="2"]');
    await p.reload();
    // Nothing is posted to the reloaded page: it draws from its saved state.
    await p.locator('li.step.selected').waitFor();
    assert.equal(await selectedStep(), 2);
    // The extension sending the same view again (a hidden panel shown again) keeps the place…
    await show(view);
    assert.equal(await selectedStep(), 2);
    // …and another view starts at its own beginning (here: its violation).
    await show(await behaviourView('race.sysml', { kind: 'holds', subject: 'Race::Race', schedule: 'all', free: [], condition: { name: 'small', text: 'x < 4' } }));
    await p.locator('li.step.selected[data-step="2"]').waitFor();
    assert.match((await p.locator('header h1').textContent()) ?? '', /holds Race::Race/);
  });

  it('shows two sensitive schedules side by side, aligned by step, with the divergence and the end values marked', async function () {
    await show(await behaviourView('race.sysml', { kind: 'sensitive', subject: 'Race::Race', schedule: 'all', free: [] }));
    const rows = await p.locator('table.aligned tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).slice(0, 3).map((td) => td.textContent)));
    assert.deepEqual(rows, [['0', 'initial state', 'initial state'], ['1', 'inc', 'dbl'], ['2', 'dbl', 'inc'], ['3', 'j', 'j']]);
    assert.deepEqual(await p.locator('table.aligned tr[data-step="1"] .chip.move').evaluateAll((chips) => chips.map((c) => c.getAttribute('data-token'))), ['t1@inc', 't2@dbl']);
    assert.equal(await p.locator('table.aligned tr.diverges').getAttribute('data-step'), '1');
    assert.match((await p.locator('table.aligned tr.diverges').textContent()) ?? '', /first divergence/);
    assert.deepEqual(await p.locator('table.ends tr.named td').allTextContents(), ['xdiverges', '4', '3']);
    assert.equal(await p.locator('section.sensitive p.differ-in').textContent(), 'The schedules end with different values of x.');
    await p.click('table.aligned tr[data-step="2"]');
    const values = await p.locator('.split .pane').evaluateAll((panes) => panes.map((pane) => pane.querySelector('tr[data-feature=x]')?.className + ' ' + pane.querySelector('tr[data-feature=x] .value')?.textContent));
    assert.deepEqual(values, ['changed differs 4', 'changed differs 3']);
    // A step asks the extension to highlight both schedules' nodes: dbl (left) and inc (right) at step 2.
    const text = readFileSync(join(BEHAVIOR, 'race.sysml'), 'utf8').split('\n');
    const reveal = (await posted()).filter((m) => m.type === 'reveal').at(-1) as { location?: { line: number }; also?: { line: number }[] };
    assert.deepEqual([reveal.location, ...(reveal.also ?? [])].map((l) => text[l!.line - 1]!.trim().split(' ').slice(0, 2).join(' ')), ['action dbl', 'action inc']);
    await p.screenshot({ path: join(artifactsDir, 'webview-sensitive.png') });
  });

  it('shows one card per outcome and replays an outcome\'s execution from its card', async function () {
    await show(await behaviourView('race.sysml', { kind: 'outcomes', subject: 'Race::Race', schedule: 'all', free: [] }));
    assert.equal(await p.locator('article.card').count(), 2);
    assert.deepEqual(await p.locator('article.card[data-outcome="2"] table td').allTextContents(), ['x', '3', '']);
    await p.screenshot({ path: join(artifactsDir, 'webview-outcomes.png') });
    await p.click('article.card[data-outcome="2"] button');
    assert.deepEqual(await p.locator('li.step .chip.move').allTextContents(), ['dbl', 'inc', 'j']);
    await p.click('text=All outcomes');
    assert.equal(await p.locator('article.card').count(), 2);
  });

  it('plots one swept parameter as a line with every row, sorts the table and exports it as CSV', async function () {
    await show(capturedView('compute-one-range'));
    const chart = () => p.evaluate(() => {
      const c = (window as unknown as { assayWitness: { chart(): { config: { type: string }; data: { datasets: { data: unknown[] }[] } } | undefined } }).assayWitness.chart();
      return c ? { type: c.config.type, points: c.data.datasets.map((d) => d.data.length), data: c.data.datasets[0]!.data } : undefined;
    });
    assert.deepEqual(await chart(), { type: 'line', points: [4], data: [{ x: 0, y: 0 }, { x: 10, y: 50000 }, { x: 20, y: 200000 }, { x: 30, y: 450000 }] });
    assert.ok((await p.locator('canvas').boundingBox())!.height > 100, 'the chart is drawn');

    await p.click('button.sort[data-column="1"]'); // Kinetic ascending
    await p.click('button.sort[data-column="1"]'); // descending
    assert.equal(await p.locator('th[aria-sort=descending]').count(), 1);
    assert.deepEqual(await p.locator('table.sortable tbody tr td:nth-child(3)').allTextContents(), ['450000', '200000', '50000', '0']);
    await p.click('[data-action=export-csv]');
    const csv = (await posted()).find((m) => m.type === 'export') as unknown as { format: string; fileName: string; text: string };
    assert.equal(csv.format, 'csv');
    assert.equal(csv.fileName, 'Kinetic-compute.csv');
    assert.equal(csv.text, 'v [m/s],Kinetic [J]\r\n30,450000\r\n20,200000\r\n10,50000\r\n0,0\r\n');

    await p.click('[data-action=export-png]');
    const png = (await posted()).find((m) => m.type === 'export' && m.format === 'png') as unknown as { dataUrl: string };
    assert.match(png.dataUrl, /^data:image\/png;base64,.{100}/);
    await p.screenshot({ path: join(artifactsDir, 'webview-line.png') });

    // The theme changes under an open panel (VS Code sets the root's variables and the body's class):
    // the plot is drawn again in the new colours, not left in the old theme's.
    const titleColour = () => p.evaluate(() => (window as unknown as { assayWitness: { chart(): { options: { plugins: { title: { color: string } } } } } }).assayWitness.chart().options.plugins.title.color);
    assert.equal(await titleColour(), '#cccccc');
    await p.evaluate(() => {
      document.documentElement.style.setProperty('--vscode-foreground', '#3b3b3b');
      document.body.classList.add('vscode-light');
    });
    await p.waitForFunction(() => (window as unknown as { assayWitness: { chart(): { options: { plugins: { title: { color: string } } } } } }).assayWitness.chart().options.plugins.title.color === '#3b3b3b');
    await p.evaluate(() => {
      document.documentElement.style.removeProperty('--vscode-foreground');
      document.body.classList.remove('vscode-light');
    });
    await p.waitForFunction(() => (window as unknown as { assayWitness: { chart(): { options: { plugins: { title: { color: string } } } } } }).assayWitness.chart().options.plugins.title.color === '#cccccc');
  });

  it('plots two swept parameters as a heat map with one cell per row', async function () {
    await show(capturedView('sweep-two-ranges'));
    const data = await p.evaluate(() => {
      const c = (window as unknown as { assayWitness: { chart(): { config: { type: string }; data: { datasets: { data: unknown[] }[] } } } }).assayWitness.chart();
      return { type: c.config.type, cells: c.data.datasets[0]!.data.length };
    });
    assert.deepEqual(data, { type: 'matrix', cells: 9 });
    await p.screenshot({ path: join(artifactsDir, 'webview-heatmap.png') });
  });

  it('plots a Monte Carlo column as a histogram holding every run', async function () {
    await show(capturedView('monte-carlo'));
    const data = await p.evaluate(() => {
      const c = (window as unknown as { assayWitness: { chart(): { config: { type: string }; data: { datasets: { data: number[] }[] } } } }).assayWitness.chart();
      return { type: c.config.type, bars: c.data.datasets[0]!.data.length, runs: c.data.datasets[0]!.data.reduce((a, b) => a + b, 0) };
    });
    assert.deepEqual(data, { type: 'bar', bars: 7, runs: 40 });
    await p.screenshot({ path: join(artifactsDir, 'webview-histogram.png') });
    assert.equal(await p.locator('table.sortable tbody tr').count(), 40);
  });

  it('shows a satisfiable assignment with units and posts the bindings to confirm with evaluate', async function () {
    await show(capturedView('satisfiable'));
    assert.deepEqual(await p.locator('section.assignment tbody td').allTextContents(), ['fuelMass', '0', 'kg', 'MassValue', 'chosen']);
    await p.click('[data-action=confirm]');
    const confirm = (await posted()).find((m) => m.type === 'confirmAssignment');
    assert.deepEqual(confirm, { type: 'confirmAssignment', subject: 'VehicleModel::Vehicle::massLimit', path: '/models/vehicle.sysml', bindings: [{ name: 'fuelMass', value: 0, unit: 'kg' }] });
  });
});
