// The behaviour explorer: states per second; states explored for a fork of N independent branches
// (N = 4…14) with and without partial-order reduction; a model of about 10^6 states within a memory
// budget. Run: `npm run bench -- explorer` (or `npx tsx bench/explorer.bench.ts`).

import { buildSync } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
  // Heap and array buffers: the visited set keeps its states in array buffers, outside the JS heap.
  const used = (): number => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };
  const heapBefore = used();
  let peak = heapBefore;
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const r = await B.explore(p.runtime, p.runtime.initial(), {
    policy: { kind: 'all' }, exhaustive: true, reduction, limits: { memoryMiB },
    hooks: { progress: () => (peak = Math.max(peak, used())), progressMs: 500 },
  }, {});
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  // CPU seconds too: on a shared machine wall-clock time mostly measures the other processes.
  const cpuSecs = (cpu.user + cpu.system) / 1e6;
  peak = Math.max(peak, used());
  return { ...r, secs, cpuSecs, perSecond: r.states / secs, perCpuSecond: r.states / cpuSecs, heapMiB: (peak - heapBefore) / 2 ** 20 };
}

/** The counters model in Promela: three processes counting to k, the parent waiting for all three. */
function countersPromela(k: number): string {
  const proc = (x: string) => `proctype L${x}() { do :: ${x} < ${k} -> ${x} = ${x} + 1 :: else -> break od }`;
  return `byte c1; byte c2; byte c3;\n${['c1', 'c2', 'c3'].map(proc).join('\n')}\n` +
    `init { atomic { run Lc1(); run Lc2(); run Lc3() }; (_nr_pr == 1) }\n`;
}

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** SPIN on the same workload (no reduction, safety only, exhaustive), timed around the verifier run. */
function spin(k: number): { states: number; secs: number; perSecond: number; perCpuSecond: number; bytesPerState: number } | string {
  if (!has('spin') || !has('gcc')) return 'SPIN side by side skipped: `spin` and `gcc` are not both installed (Debian: apt-get install spin gcc)';
  const dir = mkdtempSync(join(tmpdir(), 'assay-spin-'));
  try {
    writeFileSync(join(dir, 'counters.pml'), countersPromela(k));
    const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 24 });
    let r = run('spin', ['-a', 'counters.pml']);
    if (r.status !== 0) return `SPIN side by side skipped: spin -a failed: ${r.stderr || r.stdout}`;
    r = run('gcc', ['-O2', '-DSAFETY', '-DNOREDUCE', '-DMEMLIM=2048', '-o', 'pan', 'pan.c']);
    if (r.status !== 0) return `SPIN side by side skipped: gcc failed: ${r.stderr}`;
    const started = process.hrtime.bigint();
    // `times` prints the verifier's user and system CPU time (second line: children).
    r = run('bash', ['-c', './pan -m100000; times']);
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const times = [...r.stdout.matchAll(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/g)].pop();
    const cpuSecs = times ? Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4]) : NaN;
    // pan's own search time (as explore() is timed: no process start, no compile); wall if it shows 0.
    const elapsed = Number(/elapsed time ([\d.e+-]+) seconds/.exec(r.stdout)?.[1] ?? 0);
    const secs = elapsed > 0 ? elapsed : wall;
    const states = Number(/(\d+) states, stored/.exec(r.stdout)?.[1] ?? NaN);
    const mem = Number(/([\d.]+)\s+total actual memory usage/.exec(r.stdout)?.[1] ?? NaN);
    const vector = Number(/State-vector (\d+) byte/.exec(r.stdout)?.[1] ?? NaN);
    if (!Number.isFinite(states)) return `SPIN side by side skipped: could not read pan's output: ${r.stdout.slice(0, 300)}`;
    return { states, secs, perSecond: states / secs, perCpuSecond: states / cpuSecs, bytesPerState: Number.isFinite(mem) ? (mem * 2 ** 20) / states : vector };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
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
    `${big.secs.toFixed(1)} s, ${Math.round(big.perSecond).toLocaleString('en')} states/s (${Math.round(big.perCpuSecond).toLocaleString('en')} per CPU second), visited set estimated ${(big.memoryBytes / 2 ** 20).toFixed(0)} MiB, ` +
    `heap and buffers grew ${big.heapMiB.toFixed(0)} MiB, memory bound reached: ${big.reached.memory}`);
  console.log(`  memory per stored state: visited set ${(big.memoryBytes / big.states).toFixed(0)} bytes (estimate), heap and buffer growth ${((big.heapMiB * 2 ** 20) / big.states).toFixed(0)} bytes`);
  const peer = spin(k);
  if (typeof peer === 'string') console.log(peer);
  else {
    console.log(`SPIN (spin -a; gcc -O2 -DSAFETY -DNOREDUCE; ./pan -m100000) on the same counters in Promela: ${peer.states.toLocaleString('en')} states stored, ` +
      `${peer.secs.toFixed(2)} s (pan's elapsed time), ${Math.round(peer.perSecond).toLocaleString('en')} states/s (${Math.round(peer.perCpuSecond).toLocaleString('en')} per CPU second, pan's process), ${peer.bytesPerState.toFixed(0)} bytes per state (pan's total memory / states)`);
    console.log(`Assay / SPIN states per second: ${(big.perSecond / peer.perSecond).toFixed(2)}, per CPU second ${(big.perCpuSecond / peer.perCpuSecond).toFixed(2)} (goal >= 0.67; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')})`);
  }
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
