// Sweep rows per second through the real engine process at jobs=1 and jobs=2 (goal: jobs=2 ≥ 1.8×).
// Each row evaluates a small vehicle-range calc with units. The engine is started as the host starts
// it (with MODEL_NODE_FLAGS in NODE_OPTIONS; SWEEP_BENCH_NODE_DEFAULTS=1 for Node's defaults).
//
// The machine is shared: every pair of runs (jobs=1, jobs=2, in alternating order) gets the load
// average and a control (a compute loop split over two threads: ~2x when a second core is free), and
// the figures are the best and the median, with the ratio also over the pairs whose control says a
// second core was free.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { MODEL_NODE_FLAGS, nodeOptionsWithModelFlags } from '../src/host/node-flags';
import { EngineProcess, question, runParams } from '../test/engine/engine-process';
import { controlSpeedUp } from './control';

const MODEL = `package SweepBench {
	private import ISQ::*;
	calc def Range {
		in v : SpeedValue;
		in m : MassValue;
		in p : PowerValue;
		attribute drag : ForceValue = 0.5 * 1.2 [kg/m^3] * 0.3 * 2.2 [m^2] * v ** 2;
		attribute rolling : ForceValue = 0.01 * m * 9.81 [m/s^2];
		attribute climb : ForceValue = m * 9.81 [m/s^2] * 0.02;
		attribute force : ForceValue = drag + rolling + climb;
		attribute hours : TimeValue = 50 [kW*h] / (force * v);
		return : LengthValue = if force * v > p ? 0 [m] else v * hours;
	}
}`;
const ROWS = Number(process.env.SWEEP_BENCH_ROWS ?? 100_000);

/** CPU milliseconds a process or thread has used so far (utime + stime); Linux only, else NaN. */
function cpuMs(path: string): number {
  try {
    const fields = readFileSync(`${path}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** CPU ms of the engine's main thread and of all its threads (workers, GC helpers and the like). */
function engineCpu(pid: number): { main: number; all: number } {
  return { main: cpuMs(`/proc/${pid}/task/${pid}`), all: cpuMs(`/proc/${pid}`) };
}

interface Timing {
  /** Round trip, ms. */
  total: number;
  /** The engine's own `elapsed`: rows computed and tabulated, before the answer is checked, encoded and sent. */
  engine: number;
  /** CPU / wall of the engine process over the round trip (near 2 means two cores were free). */
  cpu: number;
  /** CPU ms of the engine's main thread and of the whole process over the round trip. */
  mainCpu: number;
  allCpu: number;
}

async function timeSweep(engine: EngineProcess, id: number, jobs: number): Promise<Timing> {
  const q = question('sweep', 'SweepBench::Range', {
    bindings: [{ name: 'm', value: 1500, unit: 'kg' }, { name: 'p', value: 60, unit: 'kW' }],
    sweep: { ranges: [{ parameter: 'v', type: 'SpeedValue', from: 1, to: 1 + (ROWS - 1) * 0.001, step: 0.001, unit: 'm/s' }] },
  });
  const model = { sources: { library: '2026-04', documents: [{ path: 'bench.sysml', text: MODEL }] } };
  const started = process.hrtime.bigint();
  const cpu0 = engineCpu(engine.child.pid!);
  const r = await engine.request(id, 'run', runParams(q, model, { jobs }));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu1 = engineCpu(engine.child.pid!);
  if (!r.result || (r.result.values as unknown[]).length < ROWS * 2) throw new Error(`sweep failed: ${JSON.stringify(r.error ?? r.result).slice(0, 300)}`);
  return { total: ms, engine: r.result.elapsed as number, cpu: (cpu1.all - cpu0.all) / ms, mainCpu: cpu1.main - cpu0.main, allCpu: cpu1.all - cpu0.all };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const PAIRS = Number(process.env.SWEEP_BENCH_PAIRS ?? 6);
const NODE_DEFAULTS = process.env.SWEEP_BENCH_NODE_DEFAULTS === '1';


async function main(): Promise<void> {
  const engine = new EngineProcess(NODE_DEFAULTS ? {} : { NODE_OPTIONS: nodeOptionsWithModelFlags() });
  try {
    // Warm-up: parse, JIT (the first tables of a process run up to 1.5x slower), and the workers, which
    // stay warm between tables.
    let id = 1;
    for (let k = 0; k < 3; k++) {
      await timeSweep(engine, id++, 1);
      await timeSweep(engine, id++, 2);
    }
    interface Pair { load: number; control: number; one: Timing; two: Timing }
    const pairs: Pair[] = [];
    for (let k = 0; k < PAIRS; k++) {
      const load = loadavg()[0]!;
      const control = await controlSpeedUp();
      // Alternate which goes first, so a drift over the run does not favour one side.
      const first = k % 2 === 0 ? 1 : 2;
      const a = await timeSweep(engine, id++, first);
      const b = await timeSweep(engine, id++, 3 - first);
      pairs.push({ load, control, one: first === 1 ? a : b, two: first === 1 ? b : a });
    }
    const rate = (ms: number) => Math.round((ROWS / ms) * 1000);
    const flags = NODE_DEFAULTS ? "Node's default flags" : MODEL_NODE_FLAGS.join(' ');
    console.log(`sweep rows: ${ROWS}, ${PAIRS} pairs of jobs=1 / jobs=2, engine with ${flags} (load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the end, on ${cpus().length} CPUs)`);
    for (const [k, p] of pairs.entries()) {
      console.log(
        `  pair ${k + 1}: load ${p.load.toFixed(1)}, control ${p.control.toFixed(2)}x; jobs=1 ${p.one.engine} ms (${rate(p.one.engine)} rows/s), ` +
          `jobs=2 ${p.two.engine} ms (${rate(p.two.engine)} rows/s): ${(p.one.engine / p.two.engine).toFixed(2)}x; ` +
          `CPU ms main/all jobs=1 ${p.one.mainCpu}/${p.one.allCpu}, jobs=2 ${p.two.mainCpu}/${p.two.allCpu}`,
      );
    }
    for (const jobs of [1, 2] as const) {
      const t = pairs.map((p) => (jobs === 1 ? p.one : p.two));
      const engineMs = t.map((x) => x.engine);
      const totalMs = t.map((x) => x.total);
      console.log(
        `jobs=${jobs}: ${rate(Math.min(...engineMs))} rows/s best, ${rate(median(engineMs))} median in the engine (${Math.min(...engineMs)} ms best); ` +
          `${rate(Math.min(...totalMs))} rows/s best round trip (${Math.min(...totalMs).toFixed(0)} ms, with checking, encoding and sending ${ROWS * 2} values); ` +
          `engine CPU/wall ${median(t.map((x) => x.cpu)).toFixed(2)}, CPU ms main thread ${median(t.map((x) => x.mainCpu))} of ${median(t.map((x) => x.allCpu))}`,
      );
    }
    const ratio = (f: (x: Timing) => number, among: Pair[]) => {
      const one = among.map((p) => f(p.one));
      const two = among.map((p) => f(p.two));
      return `${(Math.min(...one) / Math.min(...two)).toFixed(2)}x best/best, ${median(among.map((p) => f(p.one) / f(p.two))).toFixed(2)}x median of pairs`;
    };
    const control = pairs.map((p) => p.control);
    console.log(`speed-up jobs=2 / jobs=1: ${ratio((x) => x.engine, pairs)} in the engine; ${ratio((x) => x.total, pairs)} round trip (goal >= 1.8x in the engine)`);
    console.log(`control, a compute loop split over two threads in this process: ${Math.max(...control).toFixed(2)}x best, ${median(control).toFixed(2)}x median (2x when a second core is free)`);
    const free = pairs.filter((p) => p.control >= 1.8);
    console.log(
      free.length > 0
        ? `pairs whose control says a second core was free (>= 1.8x): ${free.length} of ${PAIRS}, speed-up ${ratio((x) => x.engine, free)} in the engine`
        : `no pair had a free second core (control >= 1.8x): the speed-up above says how busy the machine was, not what the engine can do`,
    );
    // On a shared machine the wall clock says little; the CPU each thread needed says what two free
    // cores would give: the engine's share of the round trip (request read to answer written) can be no
    // shorter than its main thread's CPU, nor than half its total CPU.
    const cpu1 = median(pairs.map((p) => p.one.allCpu));
    const bound = median(pairs.map((p) => Math.max(p.two.mainCpu, p.two.allCpu / 2)));
    console.log(`CPU-bound estimate of the engine's speed-up on two free cores (request read to answer written): ${(cpu1 / bound).toFixed(2)}x (jobs=1 CPU ${cpu1} ms / max(jobs=2 main thread, half of jobs=2 CPU) ${bound} ms)`);
  } finally {
    if (process.env.SHOW_STDERR) console.log(engine.stderr.join(''));
    await engine.close();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
