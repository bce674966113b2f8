// The real-editor harness: packages the extension, runs code-server (a real VS Code server) on loopback
// in a private temp dir, drives it with playwright-core in Debian's Chromium, and tears everything down.
// Recipe and pitfalls: ../shared/design/E2E.md. Every process it starts is killed by Session.close(),
// and again by an exit hook if a test run dies half-way.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from './.tools/node_modules/playwright-core';

export const repoRoot = resolve(__dirname, '..', '..');
export const e2eRoot = __dirname;
export const artifactsDir = join(e2eRoot, 'artifacts');
export const fixtureWorkspace = join(e2eRoot, 'workspace');
// The tools live in a dot folder: mocha's `test/**/*.test.ts` glob skips dot folders, and would
// otherwise load the hundreds of *.test.ts files shipped inside code-server's node_modules.
export const toolsRoot = join(e2eRoot, '.tools');
const codeServerEntry = join(toolsRoot, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const vsceEntry = join(toolsRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
export const chromiumPath = process.env.ASSAY_E2E_CHROMIUM ?? '/usr/bin/chromium';

const extensionId = (() => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  return { id: `${manifest.publisher}.${manifest.name}`, version: manifest.version, name: manifest.name };
})();
export const extensionFullId = extensionId.id;

/** What is missing for the real-editor tests on this machine, as instructions; empty when ready. */
export function missingTools(): string[] {
  const missing: string[] = [];
  if (!existsSync(codeServerEntry)) missing.push(`code-server is not installed under test/e2e/.tools (run: bash test/e2e/setup.sh)`);
  if (!existsSync(vsceEntry)) missing.push(`@vscode/vsce is not installed under test/e2e/.tools (run: bash test/e2e/setup.sh)`);
  if (!existsSync(chromiumPath)) missing.push(`no browser at ${chromiumPath} (run as root: bash test/e2e/setup.sh)`);
  if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) missing.push('dist/extension.js is missing (run: npm run build)');
  return missing;
}

// ---------------------------------------------------------------------------------------------
// Process bookkeeping: everything started here is listed, and killed on close or on exit.

const liveGroups = new Set<number>();
const liveDirs = new Set<string>();

process.on('exit', () => {
  for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL');
  for (const dir of liveDirs) for (const pid of processesUsing(dir)) killPid(pid, 'SIGKILL');
});

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

function killPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Processes whose command line or environment mentions `dir`. Every process of a session has the
 * session's temp dir in one of them (code-server and Chromium in their arguments, the extension host,
 * the language server and engines through the inherited XDG/TMPDIR variables).
 */
export function processesUsing(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    for (const file of ['cmdline', 'environ']) {
      try {
        if (readFileSync(`/proc/${pid}/${file}`, 'latin1').includes(dir)) {
          found.push(pid);
          break;
        }
      } catch {
        // exited meanwhile, or not ours to read
      }
    }
  }
  return found;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Packaging

export interface PackagedExtension {
  vsix: string;
  files: string[];
  bytes: number;
}

/**
 * Packages the repository as a VSIX with @vscode/vsce. Dependencies are packaged (not
 * `--no-dependencies`): dist/ bundles everything except z3-solver, which the reference engine loads
 * from node_modules at run time. Fails with the list of missing files if the VSIX could not run.
 */
export function packageExtension(outDir: string): PackagedExtension {
  mkdirSync(outDir, { recursive: true });
  const vsix = join(outDir, `${extensionId.name}-${extensionId.version}.vsix`);
  const result = spawnSync(process.execPath, [vsceEntry, 'package', '--allow-missing-repository', '--skip-license', '--out', vsix], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  if (result.status !== 0) {
    throw new Error(`vsce package failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  const files = vsixFiles(vsix);
  const needed = ['extension/package.json', 'extension/dist/extension.js', 'extension/dist/extension-lazy.js', 'extension/dist/server.js', 'extension/dist/server-main.js',
    'extension/syntaxes/sysml.tmLanguage.json', 'extension/syntaxes/kerml.tmLanguage.json', 'extension/language-configuration.json'];
  if (existsSync(join(repoRoot, 'dist', 'engine.js'))) {
    needed.push('extension/dist/engine.js', 'extension/node_modules/z3-solver/build/node.js', 'extension/node_modules/z3-solver/build/z3-built.wasm');
  }
  const absent = needed.filter((file) => !files.includes(file));
  if (absent.length > 0) throw new Error(`the VSIX ${vsix} lacks files the extension needs at run time: ${absent.join(', ')}`);
  return { vsix, files, bytes: statSync(vsix).size };
}

let packagedOnce: PackagedExtension | undefined;

/** One VSIX per test process, shared by every test file (packaging takes ~10 s). Removed on exit. */
export function packagedExtension(): PackagedExtension {
  if (!packagedOnce) {
    const dir = mkdtempSync(join(tmpdir(), 'assay-vsix-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const started = Date.now();
    packagedOnce = packageExtension(dir);
    recordFigure('vsix size', Math.round(packagedOnce.bytes / 1024), 'KiB');
    recordFigure('vsix packaging time', Date.now() - started, 'ms');
  }
  return packagedOnce;
}

export function vsixFiles(vsix: string): string[] {
  const listing = spawnSync('unzip', ['-Z1', vsix], { encoding: 'utf8' });
  if (listing.status !== 0) throw new Error(`cannot list ${vsix}: ${listing.stderr}`);
  return listing.stdout.split('\n').filter(Boolean);
}

// ---------------------------------------------------------------------------------------------
// A session: one code-server, one Chromium, one temp dir.

export interface SessionOptions {
  /** Folder copied into the session and opened in the workbench (default: test/e2e/workspace). */
  workspace?: string;
  /** Install this VSIX into the session's extensions dir before starting. */
  vsix?: string;
  /** User settings merged over the harness defaults. */
  userSettings?: Record<string, unknown>;
  /**
   * Remote settings (code-server's Machine/settings.json). A code-server window is a remote window, so
   * machine-scoped settings such as assay.engines apply from here, not from the User settings.
   */
  remoteSettings?: Record<string, unknown>;
  /** Workbench `payload` entries (e.g. extensionDevelopmentPath), given a function making vscode-remote URIs. */
  payload?: (remoteUri: (path: string) => string) => [string, string][];
  /** Called before the workbench page is opened (e.g. to expose functions). */
  beforeOpen?: (page: Page) => Promise<void>;
  /** Keep workspace trust on (the default disables it so that no trust dialog appears). */
  workspaceTrust?: boolean;
}

export class Session {
  readonly consoleLines: string[] = [];
  private closed = false;

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly server: ChildProcess,
    readonly context: BrowserContext,
    readonly page: Page,
    readonly workspace: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * A second window on the same workspace in a browser of its own (its own profile: storage, secrets,
   * service workers), as a teammate on another machine has. Closed with the session.
   */
  async openOtherBrowser(name: string): Promise<Page> {
    const context = await launchBrowser(join(this.dir, `chrome-${name}`), this.env);
    this.otherBrowsers.push(context);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${this.url}/?folder=${encodeURIComponent(this.workspace)}`);
    await page.locator('.part.statusbar').waitFor({ timeout: 60_000 });
    return page;
  }

  private readonly otherBrowsers: BrowserContext[] = [];

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(options: SessionOptions = {}): Promise<Session> {
    const missing = missingTools();
    if (missing.length > 0) throw new Error(`the real-editor tests cannot run here:\n  ${missing.join('\n  ')}`);
    const dir = mkdtempSync(join(tmpdir(), 'assay-e2e-'));
    liveDirs.add(dir);
    // A copy, so that nothing a test types or saves can change the fixtures in the repository.
    const workspace = join(dir, 'workspace');
    cpSync(options.workspace ?? fixtureWorkspace, workspace, { recursive: true });
    const env = sessionEnv(dir);
    const userData = join(dir, 'ud');
    const extensions = join(dir, 'ext');
    mkdirSync(join(userData, 'User'), { recursive: true });
    writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'editor.minimap.enabled': false,
      'window.restoreWindows': 'none',
      'files.hotExit': 'off',
      // VS Code for the web saves after a 1 s delay by default (desktop does not): tests that send
      // unsaved edits, then restore the text, must not find their edit written to the fixture.
      'files.autoSave': 'off',
      'git.enabled': false,
      'chat.commandCenter.enabled': false,
      'outline.collapseItems': 'alwaysExpand',
      ...options.userSettings,
    }, null, 2));
    if (options.remoteSettings) {
      mkdirSync(join(userData, 'Machine'), { recursive: true });
      writeFileSync(join(userData, 'Machine', 'settings.json'), JSON.stringify(options.remoteSettings, null, 2));
    }
    try {
      if (options.vsix) installExtension(options.vsix, dir, env);
      const port = await freePort();
      const args = [codeServerEntry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry',
        '--disable-update-check', '--disable-getting-started-override', '--user-data-dir', userData,
        '--extensions-dir', extensions];
      if (!options.workspaceTrust) args.push('--disable-workspace-trust');
      const log = join(dir, 'code-server.log');
      const logFd = openLog(log);
      // detached: its own process group, so that close() can kill code-server and every child at once.
      const server = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', logFd, logFd] });
      if (server.pid === undefined) throw new Error('code-server did not start');
      liveGroups.add(server.pid);
      await waitForHealth(port, server, log);

      const context = await launchBrowser(join(dir, 'chrome'), env);
      const page = context.pages()[0] ?? (await context.newPage());
      const session = new Session(dir, port, server, context, page, workspace, env);
      page.on('console', (message) => session.consoleLines.push(`[${message.type()}] ${message.text()}`));
      page.on('pageerror', (error) => session.consoleLines.push(`[pageerror] ${error.message}`));
      if (options.beforeOpen) await options.beforeOpen(page);
      let query = `?folder=${encodeURIComponent(workspace)}`;
      if (options.payload) query += `&payload=${encodeURIComponent(JSON.stringify(options.payload((path) => session.remoteUri(path))))}`;
      await page.goto(`${session.url}/${query}`);
      await page.locator('.part.statusbar').waitFor({ timeout: 60_000 });
      return session;
    } catch (error) {
      await killSessionProcesses(dir);
      throw error;
    }
  }

  /** A `vscode-remote://` URI for a path on this machine, as the workbench payload wants it. */
  remoteUri(path: string): string {
    return `vscode-remote://127.0.0.1:${this.port}${path}`;
  }

  /** Closes the browser, kills code-server with all its children, and checks nothing is left. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const other of this.otherBrowsers) await other.close().catch(() => undefined);
    await this.context.close().catch(() => undefined);
    if (this.server.pid !== undefined) {
      killGroup(this.server.pid, 'SIGTERM');
      const exited = await waitForExit(this.server, 5000);
      if (!exited) killGroup(this.server.pid, 'SIGKILL');
      liveGroups.delete(this.server.pid);
    }
    const left = await killSessionProcesses(this.dir);
    if (left.length > 0) throw new Error(`processes left after closing the session: ${left.join(', ')}`);
  }

  /** The code-server log of this session (for failure reports). */
  serverLog(): string {
    try {
      return readFileSync(join(this.dir, 'code-server.log'), 'utf8');
    } catch {
      return '';
    }
  }
}

/** Debian's Chromium, headless, on its own profile directory. */
async function launchBrowser(profile: string, env: NodeJS.ProcessEnv): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    env,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    viewport: { width: 1400, height: 900 },
  });
  // tsx compiles test code with esbuild's keepNames, which wraps local functions in `__name(...)`;
  // functions passed to page.evaluate run in the page, where that helper must exist too.
  await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
  return context;
}

/** Kills whatever still uses the session dir, removes the dir, and returns the pids that survived. */
async function killSessionProcesses(dir: string): Promise<number[]> {
  let pids = processesUsing(dir);
  for (const pid of pids) killPid(pid, 'SIGTERM');
  for (let i = 0; i < 20 && pids.length > 0; i++) {
    await sleep(100);
    pids = processesUsing(dir);
  }
  for (const pid of pids) killPid(pid, 'SIGKILL');
  await sleep(100);
  const stillThere = processesUsing(dir);
  if (stillThere.length === 0) {
    liveDirs.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  return stillThere;
}

function sessionEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Keep the editor and the browser out of the home folder and out of /tmp.
  for (const [name, sub] of [['XDG_CONFIG_HOME', 'xdg/config'], ['XDG_DATA_HOME', 'xdg/data'], ['XDG_CACHE_HOME', 'xdg/cache'],
    ['XDG_RUNTIME_DIR', 'xdg/runtime'], ['TMPDIR', 'tmp']] as const) {
    env[name] = join(dir, sub);
    mkdirSync(env[name]!, { recursive: true, mode: 0o700 });
  }
  env.HOME = join(dir, 'home');
  mkdirSync(env.HOME, { recursive: true });
  delete env.VSCODE_IPC_HOOK_CLI;
  delete env.ELECTRON_RUN_AS_NODE;
  return env;
}

function openLog(path: string): number {
  return openSync(path, 'a');
}

function installExtension(vsix: string, dir: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync(process.execPath, [codeServerEntry, '--install-extension', vsix, '--force',
    '--extensions-dir', join(dir, 'ext'), '--user-data-dir', join(dir, 'ud')], { env, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0 || !/successfully installed/i.test(result.stdout + result.stderr)) {
    throw new Error(`installing ${vsix} into code-server failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}

async function waitForHealth(port: number, server: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}:\n${readFileSync(log, 'utf8')}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  throw new Error(`code-server did not answer /healthz on port ${port} within 30 s:\n${readFileSync(log, 'utf8')}`);
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolveExit) => {
    const timer = setTimeout(() => resolveExit(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveExit(true);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The in-editor mocha suite (test/extension/), run inside the real extension host

export const extensionTestsOut = join(repoRoot, 'out', 'test', 'extension');

/** Bundles test/extension/index.ts and every *.suite.ts into out/test/extension/ (vscode and mocha external). */
export async function buildExtensionTests(): Promise<string> {
  const { build } = await import('esbuild');
  const source = join(repoRoot, 'test', 'extension');
  rmSync(extensionTestsOut, { recursive: true, force: true });
  const suites = readdirSync(source).filter((name) => name.endsWith('.suite.ts'));
  await build({
    absWorkingDir: repoRoot,
    entryPoints: [join(source, 'index.ts'), ...suites.map((name) => join(source, name))],
    outdir: extensionTestsOut,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha', 'mocha/*'],
    logLevel: 'warning',
  });
  return join(extensionTestsOut, 'index.js');
}

export interface ExtensionTestsOutcome {
  exitCode: number;
  /** What the suite wrote (one line per test); the workbench's console copy of mocha output is garbled. */
  results: string;
  elapsedMs: number;
}

/**
 * Runs the in-editor suite as @vscode/test-electron would, but in code-server: the workbench loads the
 * repository as the extension under development and calls `codeAutomationExit` with the suite's
 * exit code when it finishes (0 all passed).
 */
export async function runExtensionTests(timeoutMs = 180_000): Promise<ExtensionTestsOutcome> {
  const started = Date.now();
  const entry = await buildExtensionTests();
  let exited: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolveExit) => (exited = resolveExit));
  const session = await Session.start({
    payload: (remoteUri) => [['extensionDevelopmentPath', remoteUri(repoRoot)], ['extensionTestsPath', remoteUri(entry)]],
    beforeOpen: async (page) => {
      await page.exposeFunction('codeAutomationExit', (code: number) => exited(code));
    },
  });
  try {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<number>((resolveTimeout) => (timer = setTimeout(() => resolveTimeout(-1), timeoutMs)));
    const code = await Promise.race([exitCode, timedOut]);
    clearTimeout(timer);
    mkdirSync(artifactsDir, { recursive: true });
    writeFileSync(join(artifactsDir, 'extension-tests-console.log'), session.consoleLines.join('\n') + '\n');
    let results = '';
    try {
      results = readFileSync(join(extensionTestsOut, 'results.txt'), 'utf8');
    } catch {
      results = code === -1 ? `the suite did not finish within ${timeoutMs} ms` : 'the suite wrote no results';
    }
    if (code !== 0) await screenshot(session.page, 'extension-tests-failed').catch(() => undefined);
    return { exitCode: code, results, elapsedMs: Date.now() - started };
  } finally {
    await session.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Driving the workbench

/**
 * The row of `Developer: Show Running Extensions` naming this extension. The list is sorted by activation
 * time, slowest first, and draws only the rows in view, so a quick extension is found by scrolling down.
 */
export async function runningExtensionRow(page: Page, name: string, timeoutMs = 15_000): Promise<Locator> {
  const list = page.locator('.runtime-extensions-editor .monaco-list').first();
  await list.waitFor({ timeout: timeoutMs });
  const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: name }).first();
  const deadline = Date.now() + timeoutMs;
  while (!(await row.isVisible())) {
    if (Date.now() > deadline) throw new Error(`no "${name}" row in Running Extensions`);
    const box = await list.boundingBox();
    if (box) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 300);
    }
    await page.waitForTimeout(100);
  }
  return row;
}

/** Opens the command palette, types `title`, and runs the row whose label is exactly `title`. */
export async function runCommand(page: Page, title: string, timeoutMs = 20_000): Promise<void> {
  const row = await findPaletteRow(page, title, timeoutMs);
  await row.click();
}

/** Opens the palette filtered by `text` and returns the labels of the rows shown (palette left open). */
export async function paletteRows(page: Page, text: string): Promise<string[]> {
  await openPalette(page, text);
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name');
  await rows.first().waitFor({ timeout: 10_000 }).catch(() => undefined);
  return (await rows.allTextContents()).map((label) => label.trim());
}

async function openPalette(page: Page, text: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  // A quick input that is closing (an Escape a moment ago, a pick that just settled) still counts as
  // visible when asked, then hides under the fill: open the palette again and retry.
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await input.isVisible())) {
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 10_000 });
      }
      await input.fill(`>${text}`, { timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
      await sleep(300);
    }
  }
}

async function findPaletteRow(page: Page, title: string, timeoutMs: number): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  // An extension's commands appear a moment after the workbench: retry until the row shows.
  for (;;) {
    await openPalette(page, title);
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }),
    }).first();
    try {
      await row.waitFor({ state: 'visible', timeout: 1500 });
      return row;
    } catch {
      if (Date.now() > deadline) throw new Error(`the command palette has no row "${title}" after ${timeoutMs} ms`);
      await page.keyboard.press('Escape');
      await sleep(300);
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Opens a workspace file through Quick Open and waits until its editor tab is active. */
export async function openFile(page: Page, relativePath: string): Promise<void> {
  const name = relativePath.split('/').pop()!;
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: name }).first();
  // Quick Open lists files from the workspace's file search, which a loaded machine can answer late
  // (or not before the first query): ask again rather than fail.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    try {
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(relativePath, { timeout: 5_000 });
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  await row.click();
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 15_000 });
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 15_000 });
}

/** Picks the quick-pick row with this label, if that quick pick shows up. */
export async function pickIfShown(page: Page, title: RegExp, label: string | RegExp, timeoutMs = 8_000): Promise<boolean> {
  const widget = page.locator('.quick-input-widget', { has: page.locator('.quick-input-title', { hasText: title }) });
  try {
    await widget.waitFor({ state: 'visible', timeout: timeoutMs });
  } catch {
    return false;
  }
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().click();
  return true;
}

/**
 * Asks `holds` from the first `Ask: holds` lens of the active editor, over the asserted constraints with
 * the fifo schedule (and the bundled engine when the engine pick shows); returns the result notification,
 * which must say `violated`.
 */
export async function askViolatedHoldsFromLens(page: Page): Promise<Locator> {
  const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Ask: holds' }).first();
  await lens.waitFor({ state: 'visible', timeout: 30_000 });
  await lens.click();
  if (!(await pickIfShown(page, /condition/, /Asserted constraints/))) throw new Error('the condition quick pick did not show');
  await pickIfShown(page, /schedule/, /fifo/);
  await pickIfShown(page, /engine/, /assay-reference|auto/i, 2_000);
  return waitForNotification(page, /violated/, 60_000);
}

/** Waits for a status bar item whose text matches. */
export async function waitForStatusItem(page: Page, text: string | RegExp, timeoutMs = 20_000): Promise<Locator> {
  const item = page.locator('.part.statusbar .statusbar-item', { hasText: text }).first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  return item;
}

/**
 * Waits for a notification toast whose message matches, and returns the toast. A notification the
 * workbench put straight into the notification center (no toast: seen once in CI, with the bell marked)
 * is looked for there before giving up, and returned as the center's entry (its actions are buttons too).
 */
export async function waitForNotification(page: Page, text: string | RegExp, timeoutMs = 20_000): Promise<Locator> {
  const toast = page.locator('.notifications-toasts .notification-toast', {
    has: page.locator('.notification-list-item-message', { hasText: text }),
  }).first();
  try {
    await toast.waitFor({ state: 'visible', timeout: timeoutMs });
    return toast;
  } catch (error) {
    const entry = page.locator('.notifications-center .notification-list-item', {
      has: page.locator('.notification-list-item-message', { hasText: text }),
    }).first();
    await runCommand(page, 'Notifications: Show Notifications').catch(() => undefined);
    if (await entry.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false)) {
      console.log(`      (the notification ${String(text)} was in the notification center, not a toast)`);
      return entry;
    }
    throw error;
  }
}

/** The text of the visible output channel (Output panel), once it contains `expected`. */
export async function waitForOutputText(page: Page, expected: string | RegExp, timeoutMs = 20_000): Promise<string> {
  const lines = page.locator('.panel .monaco-editor .view-lines');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await lines.first().innerText().catch(() => '')).replace(/\u00a0/g, ' ');
    if (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`the Output panel never showed ${String(expected)}; it shows:\n${text}`);
    await sleep(250);
  }
}

/** Rows of the Outline view (label text, in display order), once at least `atLeast` are shown. */
export async function readOutline(page: Page, atLeast = 1, timeoutMs = 20_000): Promise<string[]> {
  await runCommand(page, 'Explorer: Focus on Outline View');
  // The list renders only the rows in view: collapse the folders section to give the outline room.
  const folders = page.locator('.part.sidebar .pane-header.expanded', { hasText: /workspace/i }).first();
  if (await folders.isVisible().catch(() => false)) await folders.click();
  const rows = page.locator('.outline-pane .monaco-list-row');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const labels = (await rows.locator('.label-name').allTextContents()).map((label) => label.trim());
    if (labels.length >= atLeast) return labels;
    if (Date.now() > deadline) throw new Error(`the Outline view shows ${labels.length} rows, expected at least ${atLeast}`);
    await sleep(250);
  }
}

/** Rows of the Problems panel as shown (file rows, and message rows with source and `[Ln 6, Col 29]`), once `predicate` holds. */
export async function readProblems(page: Page, predicate: (rows: string[]) => boolean, timeoutMs = 20_000): Promise<string[]> {
  await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)').catch(async () => {
    await runCommand(page, 'Problems: Focus on Problems View');
  });
  const rows = page.locator('.markers-panel .monaco-list-row');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const texts = (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    if (predicate(texts)) return texts;
    if (Date.now() > deadline) throw new Error(`the Problems panel shows:\n${texts.join('\n') || '(nothing)'}`);
    await sleep(250);
  }
}

// Minimal shapes of the page's DOM, so that this file type-checks without the DOM library.
interface PageElement {
  textContent: string | null;
}
interface PageGlobals {
  document: { querySelectorAll(selector: string): ArrayLike<PageElement> };
  getComputedStyle(element: PageElement): { color: string };
}

/** A piece of editor text to look up: `whole` matches a token's whole text, otherwise a token containing it. */
export interface TokenProbe {
  text: string;
  whole?: boolean;
}

/**
 * The rendered colour of the first visible editor token matching each probe, once every probe is found
 * and `ready` holds for the colours (tokens are coloured only once the grammar has loaded).
 */
export async function tokenColours<K extends string>(page: Page, probes: Record<K, TokenProbe>,
  ready: (colours: Record<K, string>) => boolean, timeoutMs = 20_000): Promise<Record<K, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const colours = await page.evaluate((wanted) => {
      const page = globalThis as unknown as PageGlobals;
      const spans = Array.from(page.document.querySelectorAll('.monaco-editor .view-lines .view-line span span'));
      const found: Record<string, string> = {};
      for (const [key, probe] of Object.entries(wanted)) {
        // Monaco renders spaces as no-break spaces.
        const text = (s: PageElement) => (s.textContent ?? '').replace(/\u00a0/g, ' ');
        const span = spans.find((s) => (probe.whole === false ? text(s).includes(probe.text) : text(s) === probe.text));
        if (span) found[key] = page.getComputedStyle(span).color;
      }
      return found;
    }, probes as Record<string, TokenProbe>);
    const complete = Object.keys(probes).every((key) => key in colours);
    if (complete && ready(colours as Record<K, string>)) return colours as Record<K, string>;
    if (Date.now() > deadline) throw new Error(`editor tokens not coloured as expected; found ${JSON.stringify(colours)}`);
    await sleep(250);
  }
}

/** Saves a screenshot under test/e2e/artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Appends a measured figure to test/e2e/artifacts/figures.json. */
export function recordFigure(name: string, value: number, unit: string): void {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, 'figures.json');
  let figures: Record<string, { value: number; unit: string; at: string }> = {};
  try {
    figures = JSON.parse(readFileSync(path, 'utf8')) as typeof figures;
  } catch {
    // first figure
  }
  figures[name] = { value, unit, at: new Date().toISOString() };
  writeFileSync(path, JSON.stringify(figures, null, 2) + '\n');
}
