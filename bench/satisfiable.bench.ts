// `satisfiable` through the engine beside raw z3 on the same constraints (goal: engine ≤ 1.5× raw z3,
// plus the one-off start-up of loading z3 in the engine).
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { init } from 'z3-solver';
import { EngineProcess, modelOf, question, runParams } from '../test/engine/engine-process';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const RUNS = 21;

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

async function rawZ3(): Promise<{ init: number; sat: number; unsat: number; dynamics: number }> {
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
    // A witness is what a satisfiable answer gives: read it, as the engine does.
    if (!unsat) for (const v of [motors, battery, payload]) s.model().eval(v, true).toString();
  };
  // The corpus's straight-line dynamics equations (31 Constraints/Analytical Constraints.sysml) with
  // the calcs of 30 Calculations inlined: non-linear real arithmetic.
  const dynamics = async () => {
    const s = new Solver();
    s.set('timeout', 60000);
    const [p, m, dt, xi, vi, xf, vf, a] = ['p', 'm', 'dt', 'x_i', 'v_i', 'x_f', 'v_f', 'a'].map((n) => Real.const(n));
    const vAvg = vi!.add(vf!).div(2);
    s.add(m!.mul(vAvg).neq(0));
    s.add(a!.eq(p!.div(m!.mul(vAvg))), vf!.eq(vi!.add(a!.mul(dt!))), xf!.eq(xi!.add(vAvg.mul(dt!))));
    if ((await s.check()) !== 'sat') throw new Error('raw z3: dynamics not sat');
    const model = s.model();
    for (const v of [p, m, dt, xi, vi, xf, vf, a]) model.eval(v!, true).toString();
  };
  const dyn: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    await dynamics();
    dyn.push(performance.now() - t);
  }
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
  return { init: initMs, sat: median(sat), unsat: median(uns), dynamics: median(dyn) };
}

async function main(): Promise<void> {
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} CPUs`);
  const raw = await rawZ3();
  const engine = new EngineProcess();
  let id = 0;
  try {
    const corpus = join(__dirname, '..', '..', 'shared', 'corpus', 'sysml-release-2026-04', 'training');
    const dynamicsModel = {
      sources: {
        library: '2026-04',
        documents: ['30. Calculations/Calculation Definitions.sysml', '31. Constraints/Analytical Constraints.sysml'].map((f) => ({
          path: f.split('/')[1]!,
          text: readFileSync(join(corpus, f), 'utf8'),
        })),
      },
    };
    const ask = async (extra: Record<string, unknown>, claim: string, subject = 'Design::Drone', model: unknown = modelOf('design.sysml')) => {
      const t = performance.now();
      const r = await engine.request(++id, 'run', runParams(question('satisfiable', subject, extra), model));
      if (r.result?.claim !== claim) throw new Error(JSON.stringify(r).slice(0, 300));
      return performance.now() - t;
    };
    const first = await ask({}, 'satisfiable'); // loads z3 in the engine
    const sat: number[] = [];
    const uns: number[] = [];
    const dyn: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      sat.push(await ask({}, 'satisfiable'));
      uns.push(await ask(heavy, 'unsatisfiable'));
      dyn.push(await ask({}, 'satisfiable', "'Analytical Constraints'::StraightLineDynamicsEquations", dynamicsModel));
    }
    const es = median(sat);
    const eu = median(uns);
    const ed = median(dyn);
    console.log(`raw z3 (state, check, read the model): init ${raw.init.toFixed(0)} ms; drone sat ${raw.sat.toFixed(2)} ms, unsat ${raw.unsat.toFixed(2)} ms; dynamics ${raw.dynamics.toFixed(2)} ms`);
    console.log(`engine, per question (round trip): first ${first.toFixed(0)} ms (start-up: loads z3); then drone sat ${es.toFixed(2)} ms, unsat ${eu.toFixed(2)} ms; dynamics ${ed.toFixed(2)} ms`);
    console.log(`engine / raw z3: drone sat ${(es / raw.sat).toFixed(2)}x, unsat ${(eu / raw.unsat).toFixed(2)}x, dynamics ${(ed / raw.dynamics).toFixed(2)}x (goal <= 1.5x plus start-up; medians of ${RUNS})`);
  } finally {
    await engine.close();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
