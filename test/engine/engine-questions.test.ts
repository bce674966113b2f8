// compute, sweep and satisfiable through the real engine process. Expected values are worked out by
// hand in the comments.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelOf, modelText, question, ROOT, suiteEngine, type WireMessage, valuesOf } from './engine-process';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'sysml-release-2026-04', 'training');
function corpus(...files: string[]) {
  return { sources: { library: '2026-04', documents: files.map((f) => ({ path: f.split('/').at(-1)!, text: readFileSync(join(CORPUS, f), 'utf8') })) } };
}
const q = (name: string, value: number, unit: string) => ({ name, value, unit });

describe('reference engine process: compute, sweep, satisfiable', function () {
  this.timeout(30000);
  const engine = suiteEngine();

  async function run(kind: string, subject: string, extra: Record<string, unknown> = {}, model: unknown = modelOf('vehicle.sysml'), budget: Record<string, unknown> = {}, bounds: unknown[] = []): Promise<WireMessage> {
    return engine.run(question(kind, subject, extra), model, budget, bounds);
  }
  async function result(kind: string, subject: string, extra: Record<string, unknown> = {}, model?: unknown, budget?: Record<string, unknown>, bounds?: unknown[]) {
    const r = await run(kind, subject, extra, model, budget, bounds);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    return r.result!;
  }

  describe('compute', () => {
    it('computes a calc definition from its inputs given as bindings', async () => {
      // 0.5 * 1000 kg * (20 m/s)^2 = 200000 J
      const r = await result('compute', 'VehicleModel::Kinetic', { bindings: [q('m', 1000, 'kg'), q('v', 20, 'm/s')] });
      assert.equal(r.claim, 'value');
      assert.equal(r.strength, 'proved');
      assert.deepEqual(valuesOf(r), { Kinetic: '200000 [J]' });
    });

    it('computes a table over a range, with summaries', async () => {
      // v = 0, 10, 20, 30 m/s with m = 1000 kg: 0, 50000, 200000, 450000 J
      const r = await result('compute', 'VehicleModel::Kinetic', {
        bindings: [q('m', 1000, 'kg')],
        sweep: { ranges: [{ parameter: 'v', type: 'SpeedValue', from: 0, to: 30, step: 10, unit: 'm/s' }] },
      });
      assert.equal(r.claim, 'table');
      assert.equal(r.strength, 'proved');
      const v = valuesOf(r);
      assert.deepEqual(
        [1, 2, 3, 4].map((i) => [v[`v@${i}`], v[`Kinetic@${i}`]]),
        [
          ['0 [m/s]', '0 [J]'],
          ['10 [m/s]', '50000 [J]'],
          ['20 [m/s]', '200000 [J]'],
          ['30 [m/s]', '450000 [J]'],
        ],
      );
      assert.equal(v['min(Kinetic)'], '0 [J]');
      assert.equal(v['max(Kinetic)'], '450000 [J]');
      assert.equal(v['mean(Kinetic)'], '175000 [J]'); // (0 + 50000 + 200000 + 450000) / 4
      // the cells come row by row, the parameter column first, then the summaries
      assert.deepEqual(((r.values as { name: string }[]).slice(0, 3)).map((x) => x.name), ['v@1', 'Kinetic@1', 'v@2']);
    });

    it("reads a range without a unit in the quantity kind's unit, and refuses one of another dimension", async () => {
      const r = await result('compute', 'VehicleModel::Kinetic', {
        bindings: [q('m', 1000, 'kg')],
        sweep: { ranges: [{ parameter: 'v', type: 'SpeedValue', from: 10, to: 10, step: 1 }] },
      });
      assert.deepEqual(valuesOf(r)['v@1'], '10 [m/s]');
      assert.deepEqual(valuesOf(r)['Kinetic@1'], '50000 [J]');
      const wrong = await run('compute', 'VehicleModel::Kinetic', {
        bindings: [q('m', 1000, 'kg')],
        sweep: { ranges: [{ parameter: 'v', type: 'SpeedValue', from: 1, to: 2, step: 1, unit: 'kg' }] },
      });
      assert.deepEqual(wrong.error, { code: 'unsupported', message: 'range v: [kg] is not a SpeedValue (use a unit like [m/s])' });
    });

    it('computes an analysis over its subject, given by bindings of the subject\'s features', async () => {
      // 4 motors * 150 W = 600 W; 360 kJ / 600 W = 600 s
      const r = await result('compute', 'Design::HoverTime', { bindings: [{ name: 'drone.motors', value: 4 }, q('batteryEnergy', 360, 'kJ')] }, modelOf('design.sysml'));
      assert.deepEqual(valuesOf(r), { HoverTime: '600 [s]' });
    });

    it('30 Calculations: Acceleration, Velocity and Position', async () => {
      const model = corpus('30. Calculations/Calculation Definitions.sysml');
      // tp / (tm * v) = 50000 W / (1000 kg * 25 m/s) = 2 m/s^2
      const a = await result('compute', "'Calculation Definitions'::Acceleration", { bindings: [q('tp', 50000, 'W'), q('tm', 1000, 'kg'), q('v', 25, 'm/s')] }, model);
      assert.deepEqual(valuesOf(a), { Acceleration: '2 [m/s^2]' });
      // v0 + a * dt = 5 m/s + 2 m/s^2 * 10 s = 25 m/s
      const v = await result('compute', "'Calculation Definitions'::Velocity", { bindings: [q('dt', 10, 's'), q('v0', 5, 'm/s'), q('a', 2, 'm/s^2')] }, model);
      assert.deepEqual(valuesOf(v), { Velocity: '25 [m/s]' });
      // x0 + v * dt = 100 m + 20 m/s * 10 s = 300 m
      const x = await result('compute', "'Calculation Definitions'::Position", { bindings: [q('dt', 10, 's'), q('x0', 100, 'm'), q('v', 20, 'm/s')] }, model);
      assert.deepEqual(valuesOf(x), { Position: '300 [m]' });
    });

    it('30 Calculations: reports the dimension error in Power with its place', async () => {
      // drag = Cd * v is a speed (Cd is a Real), so whlpwr - drag subtracts [m/s] from [W]
      const r = await run('compute', "'Calculation Definitions'::Power", {
        bindings: [q('whlpwr', 100, 'kW'), { name: 'Cd', value: 0.3 }, { name: 'Cf', value: 0.01 }, q('tm', 1000, 'kg'), q('v', 20, 'm/s')],
      }, corpus('30. Calculations/Calculation Definitions.sysml'));
      assert.equal(r.error?.code, 'unsupported');
      assert.match(r.error!.message, /^Calculation Definitions\.sysml:9:\d+: cannot subtract \[m\/s\] from \[kW\]/);
    });
  });

  describe('sweep', () => {
    it('sweeps a grid: one row per point, summaries per numeric column', async () => {
      // engine.mass = 100, 200, 300 kg: totalMass = 1200 + m + 400 = 1700, 1800, 1900 kg
      const r = await result('sweep', 'VehicleModel::Vehicle::totalMass', {
        sweep: { ranges: [{ parameter: 'engine.mass', type: 'ISQ::MassValue', from: 100, to: 300, step: 100, unit: 'kg' }] },
      });
      assert.equal(r.claim, 'table');
      assert.equal(r.strength, 'proved');
      const v = valuesOf(r);
      assert.deepEqual([v['totalMass@1'], v['totalMass@2'], v['totalMass@3'], v['totalMass@4']], ['1700 [kg]', '1800 [kg]', '1900 [kg]', undefined]);
      assert.equal(v['mean(totalMass)'], '1800 [kg]');
      assert.equal(v['p5(totalMass)'], '1710 [kg]'); // rank 0.1 between 1700 and 1800
      assert.equal(v['p95(totalMass)'], '1890 [kg]'); // rank 1.9 between 1800 and 1900
    });

    it('sweeps two ranges as a cartesian product, the first varying slowest', async () => {
      const r = await result('sweep', 'VehicleModel::Kinetic', {
        sweep: {
          ranges: [
            { parameter: 'm', type: 'MassValue', from: 1, to: 2, step: 1, unit: 'kg' },
            { parameter: 'v', type: 'SpeedValue', from: 1, to: 3, step: 1, unit: 'm/s' },
          ],
        },
      });
      const v = valuesOf(r);
      // rows: (1,1) (1,2) (1,3) (2,1) (2,2) (2,3); energy 0.5 m v^2
      assert.deepEqual([1, 2, 3, 4, 5, 6].map((i) => v[`Kinetic@${i}`]), ['0.5 [J]', '2 [J]', '4.5 [J]', '1 [J]', '4 [J]', '9 [J]']);
    });

    it('samples the same table from the same seed, whatever the number of workers', async () => {
      const sweep = (seed: number) => ({ sweep: { ranges: [{ parameter: 'engine.mass', type: 'MassValue', from: 100, to: 300, unit: 'kg' }], sampled: true, samples: 200, seed } });
      const one = await result('sweep', 'VehicleModel::Vehicle::totalMass', sweep(3), undefined, { jobs: 1 });
      const two = await result('sweep', 'VehicleModel::Vehicle::totalMass', sweep(3), undefined, { jobs: 2 });
      const other = await result('sweep', 'VehicleModel::Vehicle::totalMass', sweep(4), undefined, { jobs: 2 });
      assert.equal(one.strength, 'observed');
      assert.deepEqual(two.values, one.values);
      assert.notDeepEqual(other.values, one.values);
      const v = valuesOf(one);
      for (let i = 1; i <= 200; i++) {
        const m = Number(String(v[`engine.mass@${i}`]).split(' ')[0]);
        const t = Number(String(v[`totalMass@${i}`]).split(' ')[0]);
        assert.ok(m >= 100 && m <= 300, `row ${i}: ${m}`);
        assert.ok(Math.abs(t - (1600 + m)) < 1e-9, `row ${i}: ${t} = 1600 + ${m}`);
      }
    });

    it('samples a range with a step from its grid points (exact decimals), one without from its interval', async () => {
      // 100:300:50 has the points 100, 150, 200, 250, 300; 0.1:0.3:0.1 has 0.1, 0.2, 0.3 exactly.
      const r = await result('sweep', 'VehicleModel::Kinetic', { sweep: { ranges: [
        { parameter: 'm', type: 'MassValue', from: 100, to: 300, step: 50, unit: 'kg' },
        { parameter: 'v', type: 'SpeedValue', from: 0.1, to: 0.3, step: 0.1, unit: 'm/s' },
      ], sampled: true, samples: 60, seed: 5 } });
      assert.equal(r.strength, 'observed');
      const v = valuesOf(r);
      const masses = new Set<string>();
      for (let i = 1; i <= 60; i++) {
        masses.add(String(v[`m@${i}`]));
        assert.match(String(v[`m@${i}`]), /^(100|150|200|250|300) \[kg\]$/, `row ${i}`);
        assert.match(String(v[`v@${i}`]), /^0\.[123] \[m\/s\]$/, `row ${i}`);
      }
      assert.ok(masses.size >= 4, `60 draws from 5 points reach most of them: ${[...masses].join(', ')}`);
    });

    it('gives the same table and summaries at jobs 1 and 2 for columns of every kind (numbers, big Integers, Infinity, a unit that changes, Booleans)', async () => {
      // Workers send a column of finite numbers in one unit as a Float64Array; any other column cell by cell.
      const mix = `package Mix {
        private import ISQ::*;
        private import ScalarValues::*;
        part def P {
          attribute x : Integer;
          attribute r : Real = x / 8.0;
          attribute big : Integer = x * 10000000000000000000;
          attribute grow = if x > 70 ? * else exp(x * 10.0); // Infinity from *: an exp past the doubles is refused
          attribute len : LengthValue = if x > 150 ? x * 1 [km] else x * 1 [m];
          attribute flag : Boolean = x > 150;
        }
      }`;
      const sweep = { sweep: { ranges: [{ parameter: 'x', type: 'Integer', from: 0, to: 300 }] } };
      const one = await result('sweep', 'Mix::P', sweep, modelText('mix.sysml', mix), { jobs: 1 });
      const two = await result('sweep', 'Mix::P', sweep, modelText('mix.sysml', mix), { jobs: 2 });
      assert.deepEqual(two.values, one.values);
      const v = valuesOf(one);
      assert.deepEqual(
        ['x@5', 'r@5', 'big@5', 'len@151', 'len@152', 'flag@152', 'flag@151'].map((k) => v[k]),
        [4, 0.5, '40000000000000000000', '150 [m]', '151 [km]', true, false],
      );
      assert.equal(v['grow@1'], 1);
      assert.equal(v['max(grow)'], v['grow@301']);
      assert.equal(v['mean(x)'], 150);
      assert.equal(v['p95(r)'], 35.625); // rank 285 of 0, 0.125, …, 37.5
      // len in [m] for x ≤ 150 and [km] above, summarized in the first row's unit: (11325 + 33825000) / 301 m
      assert.equal(v['max(len)'], '300000 [m]');
      assert.equal(v['p5(len)'], '15 [m]');
      assert.ok(Math.abs(Number(String(v['mean(len)']).split(' ')[0]) - 33836325 / 301) < 1e-6);
      assert.equal(v['min(flag)'], undefined);
    });

    it('runs Monte Carlo rows with the model drawing from the seed', async () => {
      const mc = await result('sweep', 'VehicleModel::noisy', { sweep: { ranges: [], runs: 50, seed: 9 } });
      const again = await result('sweep', 'VehicleModel::noisy', { sweep: { ranges: [], runs: 50, seed: 9 } });
      assert.deepEqual(mc.values, again.values);
      const v = valuesOf(mc);
      const xs = Array.from({ length: 50 }, (_, i) => v[`noisy@${i + 1}`] as number);
      assert.ok(xs.every((x) => x >= 10 && x < 20));
      assert.ok(new Set(xs).size === 50, 'every run draws anew');
      assert.equal(v['min(noisy)'], Math.min(...xs));
    });

    for (const jobs of [1, 2]) {
      it(`answers a row that cannot be evaluated with unsupported, naming the row (jobs=${jobs})`, async () => {
        const ranges = [{ parameter: 'engine.mass', type: 'MassValue', from: 100, to: 6400, step: 50, unit: 'kg' }]; // 127 rows: enough for two workers
        const r = await run('sweep', 'VehicleModel::Vehicle::loaded', { sweep: { ranges } }, undefined, { jobs });
        assert.equal(r.error?.code, 'unsupported');
        assert.match(r.error!.message, /^row \d+ \(engine\.mass = \d+ \[kg\]\): vehicle\.sysml:16:13: 'fuelMass' has no value/);
      });
    }

    it('refuses a table too large for one answer', async () => {
      const r = await run('sweep', 'Long::y', { sweep: { ranges: [{ parameter: 'x', type: 'Real', from: 0, to: 500000, step: 1 }] } }, modelOf('long.sysml'));
      assert.deepEqual(r.error, {
        code: 'unsupported',
        message: 'the table would have 500001 rows of 2 columns; this engine answers at most 1000000 cells (narrow the ranges or use a larger step)',
      });
    });

    it('stops at the runs bound with a bounded table', async () => {
      const r = await result('sweep', 'Long::y', { sweep: { ranges: [{ parameter: 'x', type: 'Real', from: 0, to: 99, step: 1 }] } }, modelOf('long.sysml'), { runs: 10 }, [{ name: 'runs', limit: 10 }]);
      assert.equal(r.strength, 'bounded');
      assert.deepEqual(r.bounds, [{ name: 'runs', limit: 10, reached: true }]);
      const v = valuesOf(r);
      assert.equal(v['y@10'], 82); // 9 * 9 + 1
      assert.equal(v['y@11'], undefined);
    });
  });

  describe('satisfiable', () => {
    const design = () => modelOf('design.sysml');

    it("finds values for a part's asserted constraints, as a witness that satisfies them", async () => {
      const r = await result('satisfiable', 'Design::Drone', {}, design());
      assert.equal(r.claim, 'satisfiable');
      assert.equal(r.strength, 'proved');
      const w = Object.fromEntries((r.witness as { inputs: { name: string; value: number }[] }).inputs.map((i) => [i.name, i.value]));
      assert.deepEqual(Object.keys(w).sort(), ['batteryMass', 'motors', 'payload']);
      // check the witness by hand: lift and ranges
      assert.ok(w.motors! >= 4 && w.motors! <= 8 && Number.isInteger(w.motors));
      assert.ok(w.batteryMass! >= 0.5 && w.batteryMass! <= 3 && w.payload! >= 0);
      assert.ok(w.motors! * 15 >= 2 * (1.2 + w.batteryMass! + w.payload!) * 9.81);
    });

    it('proves a contradictory constraint unsatisfiable', async () => {
      const r = await result('satisfiable', 'Design::Impossible', {}, design());
      assert.equal(r.claim, 'unsatisfiable');
      assert.equal(r.strength, 'proved');
      assert.equal(r.reason, 'Impossible: Impossible cannot hold');
    });

    it('solves condition sets with pinned values and domains, naming conflicting assertions', async () => {
      const conditions = (assertions: unknown[]) => [
        {
          name: 'heavy',
          features: [{ name: 'payload', unit: 'kg' }, { name: 'motors', domain: '4, 6, 8' }],
          assertions,
          pinned: [{ name: 'batteryMass', text: '1 [kg]' }],
        },
      ];
      // at most 8 motors * 15 N = 120 N lifts 120 / (2 * 9.81) = 6.116 kg: payload <= 3.916 kg
      const none = await result('satisfiable', 'Design::Drone', { conditions: conditions([{ name: 'liftMargin' }, { name: 'big payload', text: 'payload >= 5 [kg]' }]) }, design());
      assert.equal(none.claim, 'unsatisfiable');
      assert.equal(none.reason, 'heavy: liftMargin, big payload cannot hold together');
      const best = await result('satisfiable', 'Design::Drone', { conditions: conditions([{ name: 'liftMargin' }, { name: 'maximize', text: 'payload' }]) }, design());
      assert.equal(best.claim, 'satisfiable');
      const w = Object.fromEntries((best.witness as { inputs: { name: string; value: number }[] }).inputs.map((i) => [i.name, i.value]));
      assert.equal(w.motors, 8);
      assert.ok(Math.abs(w.payload! - (120 / 19.62 - 2.2)) < 1e-9);
      const pinned = (best.inputs as { name: string; free: boolean; value?: string }[]).find((i) => i.name === 'batteryMass');
      assert.deepEqual(pinned, { name: 'batteryMass', type: 'MassValue', free: false, value: '1 [kg]' });
    });

    it("adds the question's condition and inputs to the subject's own constraints", async () => {
      // 6 motors at most: 90 N lifts 90 / 19.62 = 4.587 kg, minus 1.2 kg frame and 0.5 kg least battery: 2.887 kg
      const r = await result('satisfiable', 'Design::Drone', { condition: { name: 'maximize', text: 'payload' }, inputs: [{ name: 'motors', type: 'Integer', domain: '4, 6' }] }, design());
      const w = Object.fromEntries((r.witness as { inputs: { name: string; value: number }[] }).inputs.map((i) => [i.name, i.value]));
      assert.equal(w.motors, 6);
      assert.ok(Math.abs(w.payload! - (90 / 19.62 - 1.7)) < 1e-9);
      // the optimum itself, in SI units
      const optimum = (r.values as { name: string; value: number; unit: string }[])[0]!;
      assert.equal(optimum.name, 'maximize(payload)');
      assert.equal(optimum.unit, 'kg');
      assert.ok(Math.abs(optimum.value - (90 / 19.62 - 1.7)) < 1e-9);
      const none = await result('satisfiable', 'Design::Drone', { condition: { name: 'too heavy', text: 'payload >= 5 [kg]' } }, design());
      assert.equal(none.claim, 'unsatisfiable');
      assert.match(String(none.reason), /liftMargin/);
    });

    it('chooses enumeration literals for enumeration-typed features', async () => {
      // eco is too slow (20 < 24 km/h), sport too short (18 < 25 km): only normal satisfies both
      const r = await result('satisfiable', 'Design::Scooter', {}, design());
      assert.equal(r.claim, 'satisfiable');
      assert.deepEqual((r.witness as { inputs: unknown[] }).inputs, [{ name: 'mode', value: 'Mode::normal' }]);
      const without = await result('satisfiable', 'Design::Scooter', {
        conditions: [{ name: 'no normal', features: [{ name: 'mode', domain: 'eco, sport' }], assertions: [{ name: 'fast' }, { name: 'far' }] }],
      }, design());
      assert.equal(without.claim, 'unsatisfiable');
      assert.equal(without.reason, 'no normal: fast, far cannot hold together');
    });

    it('says when an objective has no optimum', async () => {
      const r = await result('satisfiable', 'Design::Drone', {
        conditions: [{ name: 'open', features: [{ name: 'payload', unit: 'kg' }], assertions: [{ name: 'maximize', text: 'payload' }] }],
      }, design());
      assert.equal(r.claim, 'unbounded');
      assert.match(String(r.reason), /no maximum/);
    });

    it('answers below proved, with the reason, when z3 cannot decide in time', async () => {
      const deadline = new Date(Date.now() + 4000).toISOString();
      const r = await result('satisfiable', 'Long::Fermat', {}, modelOf('long.sysml'), { deadline });
      assert.equal(r.claim, 'none');
      assert.equal(r.strength, 'not covered');
      assert.match(String(r.reason), /^z3 could not decide Fermat: timeout after \d+ ms \(the constraints are non-linear\)$/);
    });

    it('31 Constraints: the analytical dynamics equations, inlining the calcs of another document', async () => {
      const model = corpus('30. Calculations/Calculation Definitions.sysml', '31. Constraints/Analytical Constraints.sysml');
      const r = await result('satisfiable', "'Analytical Constraints'::StraightLineDynamicsEquations", {}, model);
      assert.equal(r.claim, 'satisfiable');
      const w = Object.fromEntries((r.witness as { inputs: { name: string; value: number }[] }).inputs.map((i) => [i.name, i.value]));
      // replay the witness: a = p / (m v_avg), v_f = v_i + a dt, x_f = x_i + v_avg dt
      const vAvg = (w.v_i! + w.v_f!) / 2;
      assert.ok(Math.abs(w.a! - w.p! / (w.m! * vAvg)) < 1e-9);
      assert.ok(Math.abs(w.v_f! - (w.v_i! + w.a! * w.dt!)) < 1e-9);
      assert.ok(Math.abs(w.x_f! - (w.x_i! + vAvg * w.dt!)) < 1e-9);
    });

    it("31 Constraints: a part's asserted constraint with a bound feature, listed as not free", async () => {
      const model = corpus('31. Constraints/Constraint Assertions-1.sysml');
      const r = await result('satisfiable', "'Constraint Assertions-1'::Vehicle", { bindings: [q('chassisMass', 1000, 'kg')] }, model);
      assert.equal(r.claim, 'satisfiable');
      const w = Object.fromEntries((r.witness as { inputs: { name: string; value: number }[] }).inputs.map((i) => [i.name, i.value]));
      assert.deepEqual(Object.keys(w).sort(), ['engine.mass', 'transmission.mass']);
      assert.ok(1000 + w['engine.mass']! + w['transmission.mass']! <= 2500); // sum(partMasses) <= massLimit
      assert.deepEqual((r.inputs as { name: string }[]).find((i) => i.name === 'chassisMass'), { name: 'chassisMass', free: false, value: '1000 [kg]' });
    });

    it('32 Requirements: a requirement with its assumptions, and contradictory assumptions', async () => {
      const model = corpus('32. Requirements/Requirement Definitions.sysml', '32. Requirements/Requirement Usages.sysml');
      const r = await result('satisfiable', "'Requirement Usages'::fullVehicleMassLimit", {}, model);
      assert.equal(r.claim, 'satisfiable');
      const w = Object.fromEntries((r.witness as { inputs: { name: string; value: number }[] }).inputs.map((i) => [i.name, i.value]));
      // replay: fuelMass > 0, fuelMass == fuelFullMass, dryMass + fuelMass <= 2000 kg (names relative to the subject)
      assert.ok(w['vehicle.fuelMass']! > 0);
      assert.equal(w['vehicle.fuelMass'], w['vehicle.fuelFullMass']);
      assert.ok(w['vehicle.dryMass']! + w['vehicle.fuelMass']! <= 2000);
      // the empty-tank requirement assumes fuelMass == 0 kg, its definition fuelMass > 0 kg: nothing meets
      // both, so the requirement holds everywhere, vacuously (SysML: assumptions imply requirements; evaluate
      // answers true there). It answered unsatisfiable, proved.
      const empty = await result('satisfiable', "'Requirement Usages'::emptyVehicleMassLimit", {}, model);
      assert.equal(empty.claim, 'satisfiable');
      assert.equal(empty.strength, 'proved');
      assert.match(String((empty.assumptions as string[] | undefined)?.[0]), /^emptyVehicleMassLimit holds only vacuously: with its assumptions as conditions, .* cannot hold/);
    });

    it('reports a dimension mismatch in a condition with its column', async () => {
      const r = await run('satisfiable', 'Design::Drone', {
        conditions: [{ name: 'c', features: [{ name: 'payload', unit: 'kg' }], assertions: [{ name: 'wrong', text: 'payload > 3 [m]' }] }],
      }, design());
      assert.equal(r.error?.code, 'unsupported');
      assert.match(r.error!.message, /^condition wrong, column 1: '>' compares or adds .* the dimensions differ$/);
    });
  });
});
