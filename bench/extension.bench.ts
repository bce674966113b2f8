// Figures of the VS Code extension: bundle sizes (as built and minified), the cost of loading and
// activating dist/extension.js (against a stand-in `vscode` module, so it measures our code only),
// the real activation times the e2e run recorded, and the language server's answer time on a big model.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const root = join(__dirname, '..');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

async function bundleSizes(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'assay-bench-'));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: { extension: 'src/extension/main.ts', server: 'src/server/main.ts' },
      outdir: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true,
      external: ['vscode', 'z3-solver'], logLevel: 'error',
    });
    for (const name of ['extension', 'server']) {
      const dev = join(root, 'dist', `${name}.js`);
      const minified = readFileSync(join(out, `${name}.js`));
      const devSize = existsSync(dev) ? kib(statSync(dev).size) : 'not built';
      console.log(`${name}.js: ${devSize} as built (npm run build), ${kib(minified.length)} minified, ${kib(gzipSync(minified).length)} minified+gzip`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A `vscode` stand-in: every property is a callable, constructible stand-in; never thenable. */
function standIn(): unknown {
  const target = function () {};
  return new Proxy(target, {
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : standIn()),
    // Assignments (item.name = …) are accepted and forgotten: a function's own `name` is read-only.
    set: () => true,
    apply: () => standIn(),
    construct: () => standIn() as object,
  });
}

function loadAndActivate(): { loadMs: number; activateMs: number; reportedMs: number } {
  const resolve = (Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string });
  const original = resolve._resolveFilename;
  // A plain object with every top-level name of the vscode API (the bundle copies its own keys).
  const api = readFileSync(join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  const names = new Set([...api.matchAll(/^\s*export (?:namespace|class|enum|const|function) (\w+)/gm)].map((m) => m[1]!));
  const vscodeStub = { ...Object.fromEntries([...names].map((name) => [name, standIn()])), version: '1.100.3' };
  resolve._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? 'vscode' : original.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscodeStub } as NodeJS.Module;
  const started = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const extension = require(join(root, 'dist', 'extension.js')) as { activate(context: unknown): { activationMs: number } };
  const loaded = performance.now();
  const context = { subscriptions: [] as unknown[], asAbsolutePath: (p: string) => join(root, p), extension: { packageJSON: { version: '0' } } };
  const exported = extension.activate(context);
  const activated = performance.now();
  return { loadMs: loaded - started, activateMs: activated - loaded, reportedMs: exported.activationMs };
}

async function serverLatency(): Promise<void> {
  const server = join(root, 'dist', 'server.js');
  const model = readFileSync(join(root, 'test', 'e2e', 'workspace', 'vehicle.sysml'), 'utf8');
  // ~2,000 lines: the fixture's package repeated under different names.
  const copies = Math.ceil(2000 / model.split('\n').length);
  const text = Array.from({ length: copies }, (_, i) => model.replace('package VehicleModel', `package VehicleModel${i}`)).join('\n');
  const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  let diagnosticsAt = 0;
  connection.onNotification('textDocument/publishDiagnostics', () => {
    diagnosticsAt = performance.now();
  });
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification('initialized', {});
  const uri = 'file:///bench/big.sysml';
  const opened = performance.now();
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'sysml', version: 1, text } });
  while (diagnosticsAt === 0) await new Promise((r) => setTimeout(r, 1));
  const firstMs = diagnosticsAt - opened;
  // Warm: a keystroke's worth of change; the server waits 200 ms after the last change on purpose.
  const warm: number[] = [];
  for (let version = 2; version < 12; version++) {
    diagnosticsAt = 0;
    const changed = performance.now();
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: version % 2 ? ' ' : '' }],
    });
    while (diagnosticsAt === 0) await new Promise((r) => setTimeout(r, 1));
    warm.push(diagnosticsAt - changed - 200);
  }
  warm.sort((a, b) => a - b);
  const symbolsAsked = performance.now();
  await connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
  const symbolsAt = performance.now();
  console.log(`language server, ${text.split('\n').length}-line model: first diagnostics ${firstMs.toFixed(1)} ms after open (cold), ` +
    `after an edit ${warm[Math.floor(warm.length / 2)]!.toFixed(1)} ms median beyond the 200 ms debounce, outline ${(symbolsAt - symbolsAsked).toFixed(1)} ms`);
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  connection.dispose();
  child.kill();
}

async function main(): Promise<void> {
  await bundleSizes();
  if (existsSync(join(root, 'dist', 'extension.js'))) {
    const runs = loadAndActivate();
    console.log(`dist/extension.js against a stand-in vscode: load ${runs.loadMs.toFixed(1)} ms, activate() ${runs.activateMs.toFixed(1)} ms, self-reported activation ${runs.reportedMs.toFixed(1)} ms (goal < 150 ms)`);
  }
  const figures = join(root, 'test', 'e2e', 'artifacts', 'figures.json');
  if (existsSync(figures)) {
    const recorded = JSON.parse(readFileSync(figures, 'utf8')) as Record<string, { value: number; unit: string; at: string }>;
    for (const [name, figure] of Object.entries(recorded)) console.log(`last e2e run: ${name}: ${figure.value} ${figure.unit} (${figure.at})`);
  } else {
    console.log('no e2e figures yet (npm run test:e2e records the real activation time in code-server)');
  }
  if (existsSync(join(root, 'dist', 'server.js'))) await serverLatency();
  // The stand-in language client may keep timers alive; the figures are printed.
  process.exit(0);
}

void main();
