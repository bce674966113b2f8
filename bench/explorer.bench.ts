// The behaviour explorer: states per second; states explored for a fork of N independent branches
// (N = 4…14) with and without partial-order reduction; a model of about 10^6 states within a memory
// budget. Run: `npm run bench -- explorer` (or `npx tsx bench/explorer.bench.ts`).

import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Measure the code as the engine runs it: bundled by esbuild like dist/engine.js.
type Behavior = typeof import('../src/sysml/behavior') & typeof import('../src/sysml/parser');
function bundled(): Behavior {
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-'));
  try {
    const entry = join(dir, 'entry.ts');
    const src = join(__dirname, '..', 'src', 'sysml');
    writeFileSync(entry, [join(src, 'behavior', 'index'), join(src, 'parser')].map((m) => `export * from ${JSON.stringify(m)};`).join('\n'));
    const out = join(dir, 'behavior.js');
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'warning' });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(out) as Behavior;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const B = bundled();

function prepared(text: string, subject: string) {
  const p = B.prepareBehavior([{ path: 'bench.sysml', document: B.parse(text).document }], { kind: 'outcomes', subject, schedule: 'all', free: ['schedule'] });
  if (p instanceof B.BehaviorError) throw new Error(p.text);
  return p;
}

/** A fork of n branches, each assigning its own attribute, joined. */
function fan(n: number): string {
  const b = Array.from({ length: n }, (_, i) => `b${i + 1}`);
  return `package F { action def Fan {
    ${b.map((x) => `attribute ${x}x : ScalarValues::Integer := 0;`).join('\n')}
    first start; then fork; ${b.map((x) => `then ${x};`).join(' ')}
    ${b.map((x) => `action ${x} { assign ${x}x := 1; } then j;`).join('\n')}
    join j; then done; } }`;
}

/** Three branches counting to k each: about (2k + 2)^3 states without reduction. */
function counters(k: number): string {
  const b = ['c1', 'c2', 'c3'];
  return `package C { action def Count {
    ${b.map((x) => `attribute ${x} : ScalarValues::Integer := 0;`).join('\n')}
    first start; then fork; ${b.map((x) => `then ${x}Loop;`).join(' ')}
    ${b.map((x) => `action ${x}Loop { first start; then while ${x} < ${k} { assign ${x} := ${x} + 1; } then done; } then j;`).join('\n')}
    join j; then done; } }`;
}

async function measure(text: string, subject: string, reduction: boolean, memoryMiB = 0) {
  const p = prepared(text, subject);
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = heapBefore;
  const started = process.hrtime.bigint();
  const r = await B.explore(p.runtime, p.runtime.initial(), {
    policy: { kind: 'all' }, exhaustive: true, reduction, limits: { memoryMiB },
    hooks: { progress: () => (peak = Math.max(peak, process.memoryUsage().heapUsed)), progressMs: 500 },
  }, {});
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { ...r, secs, perSecond: r.states / secs, heapMiB: (peak - heapBefore) / 2 ** 20 };
}

async function main(): Promise<void> {
  console.log('fork of N independent branches: states explored (time)');
  console.log('   N   with reduction          without reduction');
  for (const n of [4, 6, 8, 10, 12, 14]) {
    const w = await measure(fan(n), 'F::Fan', true);
    const wo = await measure(fan(n), 'F::Fan', false);
    console.log(`  ${String(n).padStart(2)}   ${String(w.states).padStart(6)} (${(w.secs * 1000).toFixed(1)} ms)      ${String(wo.states).padStart(7)} (${(wo.secs * 1000).toFixed(0)} ms)`);
  }
  const k = Number(process.env.EXPLORER_BENCH_K ?? 49);
  const memory = Number(process.env.EXPLORER_BENCH_MEMORY_MIB ?? 512);
  const big = await measure(counters(k), 'C::Count', false, memory);
  console.log(`\n${big.states.toLocaleString('en')} states (three counters to ${k}, no reduction, memory bound ${memory} MiB): ` +
    `${big.secs.toFixed(1)} s, ${Math.round(big.perSecond).toLocaleString('en')} states/s, visited set estimated ${(big.memoryBytes / 2 ** 20).toFixed(0)} MiB, ` +
    `heap grew ${big.heapMiB.toFixed(0)} MiB, memory bound reached: ${big.reached.memory}`);
  const reduced = await measure(counters(k), 'C::Count', true, memory);
  console.log(`the same with reduction: ${reduced.states.toLocaleString('en')} states, ${reduced.secs.toFixed(2)} s`);

  // Cancel latency as the engine sees it: the explorer yields to the event loop every ~5 ms, and a
  // timer (standing in for the host's cancel notification) sets the flag it polls.
  const latencies: number[] = [];
  for (let i = 0; i < 5; i++) {
    const p = prepared(counters(k), 'C::Count');
    let cancelledAt = 0;
    const timer = setTimeout(() => (cancelledAt = Date.now()), 300 + 50 * i);
    const r = await B.explore(p.runtime, p.runtime.initial(), {
      policy: { kind: 'all' }, exhaustive: true, reduction: false,
      hooks: { cancelled: () => cancelledAt > 0, pause: () => new Promise<void>((res) => setImmediate(res)) },
    }, {});
    clearTimeout(timer);
    if (r.stopped === 'cancelled') latencies.push(Date.now() - cancelledAt);
  }
  console.log(latencies.length > 0 ? `cancel answered after ${latencies.map((l) => `${l} ms`).join(', ')} (${latencies.length} runs)` : 'cancel: every exploration ended before its cancel (raise EXPLORER_BENCH_K)');
}

void main();
