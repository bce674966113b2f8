// `satisfiable` through the engine beside raw z3 on the same constraints (goal: engine ≤ 1.5× raw z3,
// plus the one-off start-up of loading z3 in the engine).
import { cpus, loadavg } from 'node:os';
import { init } from 'z3-solver';
import { EngineProcess, modelOf, question, runParams } from '../test/engine/engine-process';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const RUNS = 15;

// The drone's asserted constraints (test/fixtures/models/engine/design.sysml), and a variant with the
// battery pinned to 1 kg and a payload of at least 5 kg, which no motor count can lift (unsatisfiable).
const heavy = {
  conditions: [
    {
      name: 'heavy',
      features: [{ name: 'payload', unit: 'kg' }, { name: 'motors', domain: '4..8' }],
      assertions: [{ name: 'liftMargin' }, { name: 'big payload', text: 'payload >= 5 [kg]' }],
      pinned: [{ name: 'batteryMass', text: '1 [kg]' }],
    },
  ],
};

async function rawZ3(): Promise<{ init: number; sat: number; unsat: number }> {
  let t = performance.now();
  const api = await init();
  const initMs = performance.now() - t;
  const ctx = api.Context('bench');
  const { Solver, Int, Real } = ctx;
  const drone = async (unsat: boolean) => {
    const s = new Solver();
    s.set('timeout', 60000);
    const motors = Int.const('motors');
    const battery = Real.const('batteryMass');
    const payload = Real.const('payload');
    const total = Real.val('6/5').add(battery).add(payload);
    s.add(motors.ge(4), motors.le(8));
    s.add(ctx.ToReal(motors).mul(15).ge(total.mul(2).mul(Real.val('981/100'))));
    if (unsat) s.add(battery.eq(1), payload.ge(5));
    else s.add(battery.ge(Real.val('1/2')), battery.le(3), payload.ge(0));
    const r = await s.check();
    if (r !== (unsat ? 'unsat' : 'sat')) throw new Error(`raw z3 said ${r}`);
  };
  const sat: number[] = [];
  const uns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    await drone(false);
    sat.push(performance.now() - t);
    t = performance.now();
    await drone(true);
    uns.push(performance.now() - t);
  }
  await import('z3-solver').then((z) => z.killThreads(api.em));
  return { init: initMs, sat: median(sat), unsat: median(uns) };
}

async function main(): Promise<void> {
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} CPUs`);
  const raw = await rawZ3();
  const engine = new EngineProcess();
  let id = 0;
  try {
    const ask = async (extra: Record<string, unknown>, claim: string) => {
      const t = performance.now();
      const r = await engine.request(++id, 'run', runParams(question('satisfiable', 'Design::Drone', extra), modelOf('design.sysml')));
      if (r.result?.claim !== claim) throw new Error(JSON.stringify(r).slice(0, 300));
      return performance.now() - t;
    };
    const first = await ask({}, 'satisfiable'); // loads z3 in the engine
    const sat: number[] = [];
    const uns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      sat.push(await ask({}, 'satisfiable'));
      uns.push(await ask(heavy, 'unsatisfiable'));
    }
    const es = median(sat);
    const eu = median(uns);
    console.log(`raw z3: init ${raw.init.toFixed(0)} ms; check sat ${raw.sat.toFixed(2)} ms, unsat ${raw.unsat.toFixed(2)} ms`);
    console.log(`engine: first question ${first.toFixed(0)} ms (start-up: loads z3); then sat ${es.toFixed(2)} ms, unsat ${eu.toFixed(2)} ms per question (round trip)`);
    console.log(`engine / raw z3: sat ${(es / raw.sat).toFixed(2)}x, unsat ${(eu / raw.unsat).toFixed(2)}x (goal <= 1.5x plus start-up)`);
  } finally {
    await engine.close();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
