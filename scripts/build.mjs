// Builds one CommonJS bundle per program into dist/. Silent on success so that
// `npm run ask -- … --json` prints exactly one JSON object.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const programs = {
  extension: 'src/extension/main.ts',
  server: 'src/server/main.ts',
  engine: 'src/engine/main.ts',
  cli: 'src/cli/main.ts',
  adapter: 'src/adapter/main.ts',
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
    // vscode is provided by the editor; z3-solver is WASM and cannot be bundled (PITFALLS.md).
    external: ['vscode', 'z3-solver'],
    logLevel: 'warning',
    banner: { js: '"use strict";' },
  });
} catch {
  process.exitCode = 1; // esbuild already printed the errors to stderr
}
