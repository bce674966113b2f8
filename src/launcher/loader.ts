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
// Only Node's own modules (and ./tier-up.ts) here: this file is its own small bundle.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { Script } from 'node:vm';
import { delayTierUpForStartup } from './tier-up';

// Set before the bundle is compiled (why: ./tier-up.ts).
delayTierUpForStartup();

const KEY_LINE = /\/\/# assay-build ([0-9a-f]{40})\s*$/;
const KEY_BYTES = 40;

const program = basename(__filename, '.js');
const bundle = join(__dirname, `${program}-main.js`);
const buildCache = join(__dirname, `${program}-main.cache`);
let source = readFileSync(bundle, 'utf8');
// The bundle keeps main.ts's `#!` line; inside the CommonJS wrapper it would be a syntax error.
if (source.startsWith('#!')) source = '//' + source.slice(2);
const key = KEY_LINE.exec(source.slice(-100))?.[1] ?? null;

/** A cache file's code, when the file was made for this bundle. */
function cacheOf(file: string | null): Buffer | undefined {
  if (key === null || file === null) return undefined;
  try {
    const data = readFileSync(file);
    return data.length > KEY_BYTES && data.toString('latin1', 0, KEY_BYTES) === key ? data.subarray(KEY_BYTES) : undefined;
  } catch {
    return undefined; // no cache: compiled as usual
  }
}

/**
 * The cache this process makes itself when neither the build's nor an earlier one of its own was
 * taken: the editor runs the language server (and the task service its workers) on another Node
 * than the build's, whose V8 rejects the build's cache. One file per bundle, Node version and flags
 * (V8 takes a cache only under the flags it was made with), in the user's own cache folder
 * (`ASSAY_CODE_CACHE_DIR`; `off` makes none).
 */
function ownCacheFile(): string | null {
  const setting = process.env.ASSAY_CODE_CACHE_DIR;
  if (setting === 'off' || key === null) return null;
  const base = setting || (process.platform === 'win32' ? process.env.LOCALAPPDATA : process.env.XDG_CACHE_HOME) || (homedir() ? join(homedir(), '.cache') : '');
  if (!base) return null;
  const flags = `${process.execArgv.join(' ')}|${process.env.NODE_OPTIONS ?? ''}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ flags.charCodeAt(i), 0x01000193);
  return join(setting ? base : join(base, 'assay', 'code-cache'), `${program}-${key.slice(0, 12)}-${process.version}-${(h >>> 0).toString(16)}.cache`);
}

const ownFile = ownCacheFile();
const wrapped = (Module as unknown as { wrap(source: string): string }).wrap(source);
// The process's own cache first (made by this very Node), else the build's.
const own = cacheOf(ownFile);
const cachedData = own ?? cacheOf(buildCache);
const script = new Script(wrapped, { filename: bundle, cachedData });
const taken = cachedData !== undefined && !script.cachedDataRejected;

function write(file: string, mode: 'build' | 'own'): void {
  try {
    const data = Buffer.concat([Buffer.from(key!, 'latin1'), script.createCachedData()]);
    if (mode === 'build') return writeFileSync(file, data);
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    // Written aside and renamed: a process reading it meanwhile sees a whole file or none.
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, data, { mode: 0o600 });
    renameSync(part, file);
  } catch {
    // A cache is only a speed-up: a folder that cannot be written means none.
  }
}

// The build (scripts/build.mjs) runs the program once on a sample with this set and keeps what it compiled.
const writeCache = process.env.ASSAY_WRITE_CODE_CACHE === '1';
// Not inherited by the processes this one starts (an engine, a worker): only this bundle's cache is made.
delete process.env.ASSAY_WRITE_CODE_CACHE;
if (writeCache && key !== null) {
  process.on('exit', () => write(buildCache, 'build'));
} else if (!taken && ownFile !== null) {
  // Made once the program has done its work (what it compiled is then in the cache): at exit, or a
  // few seconds in for a long-lived one (the language server).
  let made = false;
  const make = () => {
    if (made) return;
    made = true;
    write(ownFile, 'own');
  };
  process.on('exit', make);
  setTimeout(make, 5000).unref();
}

// The build's key, for the files the program keeps per build (the CLI's library index, src/cli/library-index.ts).
if (key !== null) (globalThis as Record<symbol, unknown>)[Symbol.for('assay.buildKey')] = key;

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
