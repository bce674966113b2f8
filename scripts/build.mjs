// Builds one CommonJS bundle per program into dist/. Silent on success so that
// `npm run ask -- … --json` prints exactly one JSON object.
import { build } from 'esbuild';
import ts from 'typescript';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const programs = {
  extension: 'src/extension/main.ts',
  'extension-lazy': 'src/extension/lazy.ts',
  server: 'src/launcher/loader.ts',
  'server-main': 'src/server/main.ts',
  engine: 'src/engine/main.ts',
  // dist/cli.js and dist/server.js are a small loader (src/launcher/loader.ts) that runs the program's
  // bundle, dist/cli-main.js or dist/server-main.js, with the V8 code cache made below for it.
  cli: 'src/launcher/loader.ts',
  'cli-main': 'src/cli/main.ts',
  // Every command but `parse` (asking engines): its own bundle, which dist/cli-main.js requires only
  // when a question is asked (`assay parse` then reads ~0.5 MB of bundle instead of ~1.7 MB).
  'cli-ask': 'src/cli/cli-ask.ts',
  // The CLI's parsing and witness replay run on this worker thread (src/host/worker-model.ts).
  'model-worker': 'src/host/model-worker.ts',
  adapter: 'src/adapter/main.ts',
  feed: 'src/feed/main.ts',
};
const production = process.argv.includes('--production');

const entryPoints = Object.fromEntries(
  Object.entries(programs).filter(([, file]) => existsSync(join(root, file))),
);

try {
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    minify: production,
    // vscode is provided by the editor; z3-solver is WASM and cannot be bundled (PITFALLS.md); the feed
    // server's native modules (better-sqlite3, argon2) load their .node binaries from node_modules;
    // pg-native, bufferutil and utf-8-validate are optional speed-ups their users try to require.
    external: ['vscode', 'z3-solver', 'better-sqlite3', 'argon2', 'pg-native', 'bufferutil', 'utf-8-validate'],
    logLevel: 'warning',
    banner: { js: '"use strict";' },
    plugins: [separateBundle('src/cli/main.ts', './cli-ask')],
  });
  // The witness and result panels run in a webview: a browser bundle, with the chart library inside.
  if (existsSync(join(root, 'src/webview/main.ts'))) {
    await build({
      absWorkingDir: root,
      entryPoints: { webview: 'src/webview/main.ts' },
      outdir: 'dist',
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      sourcemap: production ? false : 'inline',
      minify: production,
      logLevel: 'warning',
    });
  }
  codeCacheOfTheCli();
  await codeCacheOfTheServer();
  libraryIndexOfTheStandardLibrary();
  // Codicons for the webviews: node_modules is not shipped in the VSIX, so the font travels in dist/.
  mkdirSync(join(root, 'dist/codicons'), { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) {
    copyFileSync(join(root, 'node_modules/@vscode/codicons/dist', file), join(root, 'dist/codicons', file));
  }
} catch (error) {
  // esbuild has already printed its own errors to stderr; anything else (a missing file to copy) has not.
  if (!(error && Array.isArray(error.errors))) console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}

/** `importer`'s import of `specifier` stays a require at run time: the module is a bundle of its own in
 * dist/, next to the importer's (the same relative name from src/ and from dist/). */
function separateBundle(importer, specifier) {
  return {
    name: 'separate-bundle',
    setup(b) {
      b.onResolve({ filter: /^\.\// }, (args) =>
        args.path === specifier && args.importer === join(root, importer) ? { path: specifier, external: true } : undefined);
    },
  };
}

// A small model of the constructs every model has (packages, imports of the quantities and units,
// definitions and usages with specializations, ports, connections, states, actions, requirements,
// expressions): one `assay parse` of it compiles the parser, the resolver and the built-in table's
// reader, and the loader writes what V8 compiled, with the bundle's SHA-1, to dist/cli-main.cache.
function cacheSample() {
  return {
  'a.sysml': `package Sample {
  private import ISQ::*;
  private import SI::*;
  private import ScalarValues::*;
  enum def Mode { enum off; enum on; }
  port def Flow { out attribute rate : Real; in item fuel; }
  interface def Link { end source : Flow; end target : ~Flow; }
  part def Engine {
    doc /* An engine. */
    attribute mass : MassValue = 10 [kg];
    attribute thrust : ISQ::ForceValue = 2.5 [SI::N];
    attribute mode : Mode = Mode::off;
    port feed : Flow;
    constraint light { mass <= 20 [kg] and thrust > 0 [N] }
    action start { in attribute level : Real; out attribute ok : Boolean; }
    state modes { entry; then idle; state idle; state running;
      transition idle_running first idle accept when mode == Mode::on then running; }
  }
}
`,
  'b.sysml': `package Vehicle {
  public import Sample::*;
  private import ISQ::*;
  private import SI::*;
  private import ScalarValues::*;
  part def Rocket :> Engine {
    attribute :>> mass = 12 [SI::kg];
    attribute ratio : Real = mass / mass;
    part stage1 : Engine; part stage2 : Engine;
    interface : Link connect source ::> stage1.feed to target ::> stage2.feed;
    connection c connect stage1 to stage2;
  }
  part rocket : Rocket;
  action def Launch { in attribute go : Boolean; action ignite; action lift; first ignite then lift; }
  calc def Twice { in x : Real; x * 2 }
  requirement def Light { subject r : Rocket; attribute limit : MassValue = 30 [kg]; require constraint { r.mass <= limit } }
  satisfy Light by rocket;
}
`,
  };
}

/** Ends a bundle with the key its loader (src/launcher/loader.ts) matches the cache to; removes an old cache. */
function keyed(program) {
  const cache = join(root, 'dist', `${program}-main.cache`);
  rmSync(cache, { force: true });
  const bundle = join(root, 'dist', `${program}-main.js`);
  if (!existsSync(bundle)) return null;
  asciiOnly(bundle);
  appendFileSync(bundle, `\n//# assay-build ${createHash('sha1').update(readFileSync(bundle)).digest('hex')}\n`);
  return cache;
}

/**
 * Rewrites every non-ASCII character of a bundle as `\uXXXX`. esbuild escapes them in strings but
 * keeps them in comments (`…`) and regular expression literals (`/[°℃]/u`); one such character makes
 * the whole bundle a two-byte string in V8, which the loader then reads, copies and wraps at twice the
 * size (~1.1 MB instead of ~0.57 MB per copy). The escape means the same character in a string, a
 * regular expression (with or without `u`) and an identifier, and is plain text in a comment; a
 * template literal's raw text is the one place where it would differ (String.raw, tagged templates),
 * so a bundle with a non-ASCII character inside a template literal (found by TypeScript's parser) is
 * left as it is.
 */
function asciiOnly(bundle) {
  const text = readFileSync(bundle, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  const source = ts.createSourceFile(bundle, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  let inTemplate = false;
  const visit = (node) => {
    if (inTemplate) return;
    if (node.kind >= ts.SyntaxKind.FirstTemplateToken && node.kind <= ts.SyntaxKind.LastTemplateToken
      && /[^\x00-\x7f]/.test(text.slice(node.getStart(source), node.end))) inTemplate = true;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  if (inTemplate) return;
  writeFileSync(bundle, text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

function codeCacheOfTheCli() {
  const cache = keyed('cli');
  if (!cache) return;
  const dir = mkdtempSync(join(tmpdir(), 'assay-code-cache-'));
  try {
    for (const [name, text] of Object.entries(cacheSample())) writeFileSync(join(dir, name), text);
    const run = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'parse', dir], {
      env: { ...process.env, ASSAY_WRITE_CODE_CACHE: '1' }, encoding: 'utf8',
    });
    // The sample parses without a diagnostic: anything else means the bundle or the sample broke.
    if (run.status !== 0 || !existsSync(cache)) {
      throw new Error(`making the CLI's code cache failed (exit ${run.status}): ${run.stdout}${run.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * dist/library-index.json: the index `assay parse --library` takes for the SysML standard library
 * (src/cli/library-index.ts), made by one `assay parse --library` of the sample when the library is at
 * hand (ASSAY_STANDARD_LIBRARY, else the SysML release next to this checkout; a clean clone without
 * it builds without the file, and the first `--library` run makes the user's own). Keyed to this
 * build's bundle and checked file by file against the library a user gives, so any copy of the same
 * library, wherever it is, takes it.
 */
function libraryIndexOfTheStandardLibrary() {
  const index = join(root, 'dist', 'library-index.json');
  rmSync(index, { force: true });
  const library = process.env.ASSAY_STANDARD_LIBRARY || join(root, '..', 'shared', 'corpus', 'sysml-release-2026-04', 'library');
  if (!existsSync(library)) return;
  const dir = mkdtempSync(join(tmpdir(), 'assay-library-index-'));
  try {
    for (const [name, text] of Object.entries(cacheSample())) writeFileSync(join(dir, name), text);
    const run = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'parse', dir, '--library', library], {
      env: { ...process.env, ASSAY_CODE_CACHE_DIR: 'off', ASSAY_WRITE_LIBRARY_INDEX: index }, encoding: 'utf8',
    });
    // A library with syntax errors gets no index (they are reported on every run); the sample has no problem.
    if (run.status !== 0 && run.status !== 1) throw new Error(`making the library index failed (exit ${run.status}): ${run.stdout}${run.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The language server's cache: a server started as the editor starts it (with the V8 flags of
 * src/host/node-flags.ts: V8 takes a cache only under the flags it was made with) on a workspace
 * folder of the sample, one file opened, its diagnostics and those of the other file awaited, a
 * hover and a go to definition asked, then shut down.
 */
async function codeCacheOfTheServer() {
  const cache = keyed('server');
  if (!cache) return;
  const flags = /MODEL_NODE_FLAGS[^=]*=\s*\[([^\]]*)\]/.exec(readFileSync(join(root, 'src/host/node-flags.ts'), 'utf8'));
  if (!flags) throw new Error('src/host/node-flags.ts: MODEL_NODE_FLAGS not found (the server cache is made under those flags)');
  const execArgv = [...flags[1].matchAll(/'([^']*)'/g)].map((m) => m[1]);
  const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = await import('vscode-jsonrpc/node');
  const dir = mkdtempSync(join(tmpdir(), 'assay-code-cache-'));
  const child = spawn(process.execPath, [...execArgv, join(root, 'dist', 'server.js'), '--stdio'], {
    env: { ...process.env, ASSAY_WRITE_CODE_CACHE: '1' }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  try {
    const sample = cacheSample();
    for (const [name, text] of Object.entries(sample)) writeFileSync(join(dir, name), text);
    const uri = (name) => pathToFileURL(join(dir, name)).href;
    const published = new Set();
    const problems = [];
    let seen = () => undefined;
    connection.onNotification('textDocument/publishDiagnostics', (p) => {
      // The sample has no problem: any diagnostic means the bundle or the sample broke.
      if (p.diagnostics.length > 0) problems.push(JSON.stringify(p));
      published.add(p.uri);
      seen();
    });
    connection.onNotification('window/logMessage', () => undefined);
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'sample' }] });
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri('b.sysml'), languageId: 'sysml', version: 1, text: sample['b.sysml'] } });
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no diagnostics of the sample within 30 s')), 30_000);
      seen = () => { if (published.has(uri('a.sysml')) && published.has(uri('b.sysml'))) { clearTimeout(timer); resolve(); } };
      seen();
    });
    if (problems.length > 0) throw new Error(`the sample has diagnostics in the language server: ${problems.join('; ')}`);
    const at = { textDocument: { uri: uri('b.sysml') }, position: { line: 5, character: 22 } };
    await connection.sendRequest('textDocument/hover', at);
    await connection.sendRequest('textDocument/definition', at);
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000))]);
    if (code !== 0 || !existsSync(cache)) throw new Error(`making the language server's code cache failed (exit ${code}): ${stderr}`);
  } finally {
    connection.dispose();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
