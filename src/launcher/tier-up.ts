// When V8 optimizes our code with TurboFan, for the programs that start with the loader (dist/cli.js,
// dist/server.js).
//
// V8 optimizes a function once it has run a little (an interrupt budget of 66 KB of bytecode by
// default in Node 20), on a background thread. A program that reads a model spends most of its
// start in code that runs for a fraction of a second: optimizing that early is wasted work that
// takes the second core from the main thread. `assay parse` of an Apollo-sized model spent ~40% of
// its instructions in TurboFan (callgrind) and 520 ms of CPU; with a budget 30 times larger only code
// that keeps running is optimized, and the parse takes 330 ms of CPU (the whole corpus with its
// library: 1200 -> 760 ms). The language server goes back to V8's budget once its start is done: while
// a user types, the same functions run again and again and are worth optimizing soon.
// The budget does not enter V8's code cache check: caches are made and taken under either.
import { setFlagsFromString } from 'node:v8';

const STARTUP_BUDGET = 2_000_000;
/** V8's default in Node 20 (`node --v8-options`). */
const DEFAULT_BUDGET = 67_584;
/** Set while the startup budget is in force: one flag for the loader's and the program's bundles. */
const IN_FORCE = Symbol.for('assay.startupTierUp');

/** Raises the budget, unless the user's own V8 flags (command line, NODE_OPTIONS) say otherwise. */
export function delayTierUpForStartup(): void {
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (/--(interrupt-budget|no-opt|opt|turbofan|no-turbofan)\b/.test(given)) return;
  setFlagsFromString(`--interrupt-budget=${STARTUP_BUDGET}`);
  (globalThis as Record<symbol, unknown>)[IN_FORCE] = true;
}

/** Back to V8's budget (a no-op unless `delayTierUpForStartup` raised it). */
export function endStartupTierUp(): void {
  const g = globalThis as Record<symbol, unknown>;
  if (g[IN_FORCE] !== true) return;
  g[IN_FORCE] = false;
  setFlagsFromString(`--interrupt-budget=${DEFAULT_BUDGET}`);
}
