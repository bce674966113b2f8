// Parser throughput and memory: lines/s over the whole SysML v2 release corpus, and over synthetic
// models of 10k, 100k and 1M lines (parts, attributes, calcs, actions, states, constraints and
// requirements with expressions), plus heap held per 100k lines with the tree kept alive.
//   npm run bench -- parser
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse, languageOfPath, type Language, type ParseResult } from '../src/sysml';
import { MODEL_NODE_FLAGS } from '../src/host/node-flags';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CORPUS = join(__dirname, '..', '..', 'shared', 'corpus', 'sysml-release-2026-04');

function corpus(dir: string, out: Array<{ text: string; language: Language }> = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) corpus(path, out);
    else if (name.endsWith('.sysml') || name.endsWith('.kerml')) {
      out.push({ text: readFileSync(path, 'utf8'), language: languageOfPath(path) });
    }
  }
  return out;
}

/** One realistic unit of model text (~50 lines); `i` keeps names distinct. */
function unit(i: number): string {
  return `package Gen${i} {
    private import ISQ::*;
    part def Vehicle${i} :> Base {
        attribute mass : MassValue = 1500 [kg];
        attribute speed : SpeedValue := 0 [m/s];
        part engine : Engine[1] {
            attribute power : PowerValue = 150 [kW];
        }
        part wheels : Wheel[4] ordered;
        port fuelIn : ~FuelPort;
    }
    calc def Power${i} {
        in force : ForceValue;
        in speed : SpeedValue;
        return : PowerValue;
        force * speed + 0.5 * mass * speed ** 2
    }
    action def Drive${i} {
        in target : SpeedValue;
        first start;
        then accelerate;
        action accelerate {
            assign speed := speed + 1 [m/s];
        }
        then check;
        decide check;
            if speed < target then accelerate;
            else cruise;
        action cruise;
    }
    state def Machine${i} {
        entry; then off;
        state off;
        state on {
            entry action warmUp;
            do action run;
            exit action coolDown;
        }
        transition first off accept Start then on;
        transition first on accept after 5 [s] if temp > 90 [degC] do send Alarm() to controller then off;
    }
    constraint def Limit${i} {
        in m : MassValue;
        m <= 2000 [kg] and m > 0 [kg]
    }
    requirement def Req${i} {
        doc /* The vehicle mass shall not exceed the limit. */
        subject v : Vehicle${i};
        require constraint { v.mass <= 2000 [kg] }
    }
}
`;
}
const UNIT_LINES = unit(0).split('\n').length - 1;

function synthetic(lines: number): string {
  const parts: string[] = [];
  for (let i = 0, n = Math.ceil(lines / UNIT_LINES); i < n; i++) parts.push(unit(i));
  return parts.join('');
}

interface Timing {
  readonly wall: number; readonly cpu: number; readonly medianWall: number; readonly medianCpu: number;
  /** Of the run with the least CPU time: its system CPU time (ms), minor page faults, and the
   * garbage collector's pauses (ms) with the number of young and full collections in them. */
  readonly system: number; readonly pageFaults: number; readonly gcPauses: number; readonly scavenges: number; readonly fullGcs: number;
}

/** Best and median wall time and CPU time (this process, all its threads, the garbage collector's
 * helpers included) of `rounds` runs, in ms; `reset` drops what the previous run kept (then a full
 * GC), so one run's tree does not weigh on the next. CPU time is reported too because on a shared
 * machine wall time mostly measures the neighbours. */
function time(fn: () => void, rounds: number, reset: () => void = () => {}): Timing {
  const walls: number[] = [];
  const cpus: number[] = [];
  let system = 0;
  let pageFaults = 0;
  let gcPauses = 0;
  let scavenges = 0;
  let fullGcs = 0;
  for (let r = 0; r < rounds; r++) {
    reset();
    gc();
    const profiler = new GCProfiler();
    const f0 = process.resourceUsage().minorPageFault;
    profiler.start();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    const collections = profiler.stop()?.statistics ?? [];
    const cpu = (c.user + c.system) / 1000;
    if (cpus.every((x) => cpu < x)) {
      system = c.system / 1000;
      pageFaults = process.resourceUsage().minorPageFault - f0;
      gcPauses = collections.reduce((sum, g) => sum + g.cost, 0) / 1000;
      scavenges = collections.filter((g) => g.gcType === 'Scavenge').length;
      fullGcs = collections.filter((g) => g.gcType === 'MarkSweepCompact').length;
    }
    cpus.push(cpu);
  }
  return { wall: Math.min(...walls), cpu: Math.min(...cpus), medianWall: median(walls), medianCpu: median(cpus), system, pageFaults, gcPauses, scavenges, fullGcs };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function rate(lines: number, t: Timing): string {
  return `cpu ${t.cpu.toFixed(1)} ms = ${fmt(lines / t.cpu * 1000)} lines/s (median ${fmt(lines / t.medianCpu * 1000)}), ` +
    `wall ${t.wall.toFixed(1)} ms = ${fmt(lines / t.wall * 1000)} lines/s (median ${fmt(lines / t.medianWall * 1000)})`;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

// The figures are of the front end as it ships: this file bundled the way scripts/build.mjs bundles
// dist/, run by plain node. (Under tsx every module is transpiled on its own with `__name` on every
// class and function, in a process with tsx's loader hooks; V8 optimizes the class-based tree
// several times worse there, so figures taken under tsx say little about the product.)
// `--bundled`: this run is the bundle. `--one-core`: only the synthetic sizes, with the garbage
// collector's work on the main thread too (--single-threaded-gc), so the figure is that of one core.
const bundledRun = process.argv.includes('--bundled') || process.argv.includes('--one-core');
const oneCore = process.argv.includes('--one-core');
if (!bundledRun) {
  const dir = mkdtempSync(join(tmpdir(), 'assay-parser-bench-'));
  const out = join(dir, 'parser.bench.js');
  try {
    // Loaded only here, so the bundle does not carry esbuild.
    const { buildSync } = require('esbuild') as typeof import('esbuild');
    buildSync({
      entryPoints: [__filename], outfile: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
      external: ['esbuild'], define: { __dirname: JSON.stringify(__dirname) }, logLevel: 'warning',
    });
    // With the V8 flags the engine and the language server are started with (src/host/node-flags.ts).
    const flags = [...MODEL_NODE_FLAGS];
    process.stdout.write(`node ${process.version}, flags of the shipped engine and language server: ${flags.join(' ')}\n`);
    const a = spawnSync(process.execPath, [...flags, out, '--bundled'], { stdio: 'inherit' });
    // The same sizes with the collector's helper threads off: CPU time of the run above includes
    // their work on the second core (more than the main thread saves on a busy machine).
    const b = spawnSync(process.execPath, [...flags, '--single-threaded-gc', out, '--one-core'], { stdio: 'inherit' });
    // And on one core with Node's default heap sizes (what `assay` on the command line runs with).
    const c = spawnSync(process.execPath, ['--single-threaded-gc', out, '--one-core', '--node-defaults'], { stdio: 'inherit' });
    process.exitCode = a.status === 0 && b.status === 0 && c.status === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function synthetics(label: string): void {
  // Warm up on the synthetic shapes too, so the 10k figure is not a JIT warm-up figure.
  for (let r = 0; r < 5; r++) parse(synthetic(10_000));
  const sizes = [10_000, 100_000, 1_000_000];
  let perLine10k = 0;
  let cpuPerLine10k = 0;
  let parserPerLine10k = 0;
  for (const size of sizes) {
    const text = synthetic(size);
    let result: ParseResult | null = null;
    const rounds = size >= 1_000_000 ? 3 : 7;
    const t = time(() => { result = parse(text); }, rounds, () => { result = null; });
    const r = result as ParseResult | null;
    const lines = r!.lineCount;
    if (r!.errors.length > 0) throw new Error(`synthetic model has syntax errors: ${r!.errors[0]!.message}`);
    // The parser's own work: the best run's CPU time less the collector's pauses in it (with the
    // collector on the main thread, --one-core, that is all of the collector's work but its
    // incremental marking steps). What grows faster than the text is the collector's.
    const parserWork = t.cpu - t.gcPauses;
    if (size === 10_000) { perLine10k = t.wall / lines; cpuPerLine10k = t.cpu / lines; parserPerLine10k = parserWork / lines; }
    process.stdout.write(
      `${label}synthetic ${fmt(lines)} lines (best of ${rounds}): ${rate(lines, t)}; ` +
      `system ${t.system.toFixed(0)} ms of the best cpu, ${fmt(t.pageFaults)} page faults; ` +
      `per line ×${(t.cpu / lines / cpuPerLine10k).toFixed(2)} cpu, ×${(t.wall / lines / perLine10k).toFixed(2)} wall of the 10k model; ` +
      `GC pauses ${t.gcPauses.toFixed(0)} ms (${t.scavenges} young, ${t.fullGcs} full), ` +
      `cpu less GC ${parserWork.toFixed(1)} ms = ${fmt(lines / parserWork * 1000)} lines/s, per line ×${(parserWork / lines / parserPerLine10k).toFixed(2)} of the 10k model\n`,
    );
  }
}

if (bundledRun) {
  process.stdout.write(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores, node flags: ${process.execArgv.join(' ') || 'none'} (best of N runs, median in parentheses)\n`);
  if (oneCore) synthetics(process.argv.includes('--node-defaults') ? 'one core, node defaults: ' : 'one core: ');
  else main();
}

function main(): void {
  const files = corpus(CORPUS);
  let corpusLines = 0;
  let corpusErrors = 0;
  for (const f of files) {
    const r = parse(f.text, { language: f.language });
    corpusLines += r.lineCount;
    corpusErrors += r.errors.length;
  }
  // Warm up the JIT before timing.
  for (let r = 0; r < 5; r++) for (const f of files) parse(f.text, { language: f.language });
  const corpusTime = time(() => { for (const f of files) parse(f.text, { language: f.language }); }, 10);
  process.stdout.write(
    `corpus: ${files.length} files, ${fmt(corpusLines)} lines, ${corpusErrors} syntax errors (best of 10): ${rate(corpusLines, corpusTime)}\n`,
  );

  synthetics('');

  // Heap held by the tree of a 100k-line model.
  {
    const text = synthetic(100_000);
    gc(); gc();
    const before = process.memoryUsage().heapUsed;
    const kept = parse(text);
    gc(); gc();
    const after = process.memoryUsage().heapUsed;
    process.stdout.write(
      `memory: ${((after - before) / 1024 / 1024).toFixed(1)} MiB heap per ${fmt(kept.lineCount)} lines with the tree kept alive ` +
      `(source text ${(text.length / 1024 / 1024).toFixed(1)} MiB, not counted)\n`,
    );
  }
}
