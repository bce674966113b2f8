#!/usr/bin/env node
// A program as installed (dist/cli.js, dist/server.js): a small loader that runs the program's bundle
// (dist/cli-main.js, dist/server-main.js: named after this file) with the V8 code cache the build made
// for it (dist/<program>-main.cache), so a process does not compile the bundle again, nor the parser
// and resolver functions a warm-up run compiled: about 60 ms of CPU per `assay` process, and as much
// before a fresh language server's first diagnostics (docs/names-and-lowering.md).
//
// The cache is used only for the exact bundle it was made from (V8 itself checks only the text's
// length): the build ends the bundle with a line `//# assay-build <SHA-1 of the bundle>` and the cache
// starts with the same 40 characters. Hashing the text here instead cost more than the cache saves
// (loading node:crypto alone is ~15 ms). A missing, stale or rejected cache (another Node version,
// other V8 flags) only means the bundle is compiled as Node would have.
// Only Node's own modules here: this file is its own small bundle.
import { readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { Script } from 'node:vm';

const KEY_LINE = /\/\/# assay-build ([0-9a-f]{40})\s*$/;
const KEY_BYTES = 40;

const program = basename(__filename, '.js');
const bundle = join(__dirname, `${program}-main.js`);
const cacheFile = join(__dirname, `${program}-main.cache`);
let source = readFileSync(bundle, 'utf8');
// The bundle keeps main.ts's `#!` line; inside the CommonJS wrapper it would be a syntax error.
if (source.startsWith('#!')) source = '//' + source.slice(2);
const key = KEY_LINE.exec(source.slice(-100))?.[1] ?? null;

let cachedData: Buffer | undefined;
if (key !== null) {
  try {
    const file = readFileSync(cacheFile);
    if (file.length > KEY_BYTES && file.toString('latin1', 0, KEY_BYTES) === key) cachedData = file.subarray(KEY_BYTES);
  } catch {
    // No cache: compiled as usual.
  }
}

const wrapped = (Module as unknown as { wrap(source: string): string }).wrap(source);
const script = new Script(wrapped, { filename: bundle, cachedData });

// The build (scripts/build.mjs) runs the program once on a sample with this set and keeps what it compiled.
const writeCache = process.env.ASSAY_WRITE_CODE_CACHE === '1';
// Not inherited by the processes this one starts (an engine, a worker): only this bundle's cache is made.
delete process.env.ASSAY_WRITE_CODE_CACHE;
if (writeCache && key !== null) {
  process.on('exit', () => writeFileSync(cacheFile, Buffer.concat([Buffer.from(key, 'latin1'), script.createCachedData()])));
}

// The bundle runs as the CommonJS module it was built as: its own module object, its require
// resolving from dist/ (the external packages), __dirname the dist folder (model-worker.js, engine.js).
type ModuleInternals = Module & { filename: string; paths: string[]; loaded: boolean };
const NodeModule = Module as unknown as { new (id: string, parent?: Module): ModuleInternals; _nodeModulePaths(dir: string): string[] };
const main = new NodeModule(bundle, module);
main.filename = bundle;
main.paths = NodeModule._nodeModulePaths(__dirname);
const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
run.call(main.exports, main.exports, createRequire(bundle), main, bundle, __dirname);
main.loaded = true;
