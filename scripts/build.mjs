// Builds one CommonJS bundle per program into dist/. Silent on success so that
// `npm run ask -- … --json` prints exactly one JSON object.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const programs = {
  extension: 'src/extension/main.ts',
  'extension-lazy': 'src/extension/lazy.ts',
  server: 'src/server/main.ts',
  engine: 'src/engine/main.ts',
  cli: 'src/cli/main.ts',
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
