// The host re-checks a `satisfiable` assignment before the claim stands: `assay satisfiable` as a user
// runs it, with the bundled engine (its assignments must stand as claimed) and with a fixture engine
// (a real process) answering assignments that break a constraint, a domain, a unit, or name what the
// model does not have.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PidTracker, fixtureEntry } from '../host/fixture-engines';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const DESIGN = join(ROOT, 'test', 'fixtures', 'models', 'engine', 'design.sysml');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'sysml-release-2026-04', 'training');

interface Answer {
  result: { claim: string; strength: string; witness?: { inputs?: { name: string; value: unknown; unit?: string }[] } };
  standing: { strength: string; reasons: string[] };
}

function ask(args: string[]): { code: number | null; answer: Answer; stdout: string } {
  const run = spawnSync(process.execPath, [CLI, 'satisfiable', ...args, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `exactly one JSON line on stdout, got:\n${run.stdout}\n${run.stderr}`);
  return { code: run.status, answer: JSON.parse(lines[0]!) as Answer, stdout: run.stdout };
}

describe('cli: the host re-checks satisfiable assignments', function () {
  this.timeout(60_000);
  let dir: string;
  let pids: PidTracker;

  before(() => buildIfMissing('cli.js', 'engine.js'));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-assignment-'));
    pids = new PidTracker();
  });
  afterEach(async () => {
    await pids.assertNoneRunning();
  });

  /** A fixture engine (a real process) that answers `satisfiable`, proved, with this assignment. */
  function engineAnswering(inputs: unknown[]): string {
    const file = join(dir, 'engines.json');
    const entry = fixtureEntry('well-behaved.js', pids, { name: 'fx', config: { result: { claim: 'satisfiable', strength: 'proved', witness: { inputs } } } });
    writeFileSync(file, JSON.stringify([entry]));
    return file;
  }
  const drone = (motors: unknown, battery: [number, string], payload: [number, string], ...more: unknown[]) => [
    { name: 'motors', value: motors }, { name: 'batteryMass', value: battery[0], unit: battery[1] }, { name: 'payload', value: payload[0], unit: payload[1] }, ...more,
  ];
  const place = (line: number, column: number) => `${DESIGN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:${column}`;

  describe('the bundled engine: its assignments stand at the strength it claims', () => {
    const cases: [string, string[]][] = [
      ["a part's asserted constraints", ['Design::Drone', '--model', DESIGN]],
      ['an objective with a free input and its domain', ['Design::Drone', '--model', DESIGN, '--condition', 'maximize=payload', '--input', 'motors:Integer:4, 6']],
      ['enumeration literals', ['Design::Scooter', '--model', DESIGN]],
      ['quantities of several units', ['Design::Dynamics', '--model', DESIGN]],
      ['a bound feature', ["'Constraint Assertions-1'::Vehicle", '--model', join(CORPUS, '31. Constraints', 'Constraint Assertions-1.sysml'), '--bind', 'chassisMass=1000[kg]']],
      ['a requirement with assumptions', ["'Requirement Usages'::fullVehicleMassLimit", '--model', join(CORPUS, '32. Requirements', 'Requirement Definitions.sysml'), join(CORPUS, '32. Requirements', 'Requirement Usages.sysml')]],
      ['calcs of another document', ["'Analytical Constraints'::StraightLineDynamicsEquations", '--model', join(CORPUS, '30. Calculations', 'Calculation Definitions.sysml'), join(CORPUS, '31. Constraints', 'Analytical Constraints.sysml')]],
    ];
    for (const [what, args] of cases) {
      it(what, () => {
        const { code, answer } = ask(args);
        assert.equal(code, 0, JSON.stringify(answer));
        assert.equal(answer.result.claim, 'satisfiable');
        assert.equal(answer.result.strength, 'proved');
        assert.deepEqual(answer.standing, { strength: 'proved', reasons: [] });
      });
    }
  });

  it('an assignment that breaks a constraint stands as not covered, naming the constraint, the false part and its place; exit 3', () => {
    // 4 motors * 15 N = 60 N cannot lift 2 * (1.2 + 0.5 + 5) kg * 9.81 m/s^2
    const engines = engineAnswering(drone(4, [0.5, 'kg'], [5, 'kg']));
    const { code, answer } = ask(['Design::Drone', '--model', DESIGN, '--engines', engines]);
    assert.equal(code, 3);
    assert.equal(answer.result.strength, 'proved');
    assert.equal(answer.standing.strength, 'not covered');
    assert.equal(answer.standing.reasons.length, 1);
    assert.match(answer.standing.reasons[0]!, new RegExp(`^the host's evaluation of the witness does not reproduce the claim: with the witness's values, liftMargin: motors \\* thrustPerMotor >= 2 \\* totalMass \\* 9\\.81 \\[m/s\\^2\\] is false \\(${place(14, 34)}\\)$`));
  });

  it('the text output shows the lowered standing and why', () => {
    const engines = engineAnswering(drone(4, [0.5, 'kg'], [5, 'kg']));
    const run = spawnSync(process.execPath, [CLI, 'satisfiable', 'Design::Drone', '--model', DESIGN, '--engines', engines], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 3);
    assert.match(run.stdout, /strength: not covered \(the engine claimed proved\)\n {4}because the host's evaluation of the witness does not reproduce the claim: with the witness's values, liftMargin: /);
  });

  it('a witness naming a feature the subject does not have: not covered', () => {
    const engines = engineAnswering(drone(4, [0.5, 'kg'], [0, 'kg'], { name: 'wings', value: 2 }));
    const { code, answer } = ask(['Design::Drone', '--model', DESIGN, '--engines', engines]);
    assert.equal(code, 3);
    assert.equal(answer.standing.strength, 'not covered');
    assert.match(answer.standing.reasons.join('\n'), /the witness names wings, which is not a feature of Design::Drone$/);
  });

  it('an answer about a subject the model does not declare: not covered', () => {
    const engines = engineAnswering([{ name: 'x', value: 1 }]);
    const { code, answer } = ask(['Design::Plane', '--model', DESIGN, '--engines', engines]);
    assert.equal(code, 3);
    assert.match(answer.standing.reasons.join('\n'), /the subject Design::Plane is not declared in the model$/);
  });

  it('values are read in their units: 500 g of battery stands, 5000 g breaks batteryRange, metres are no mass', () => {
    const grams = ask(['Design::Drone', '--model', DESIGN, '--engines', engineAnswering(drone(4, [500, 'g'], [0, 'kg']))]);
    assert.equal(grams.code, 0);
    assert.deepEqual(grams.answer.standing, { strength: 'proved', reasons: [] });
    const heavy = ask(['Design::Drone', '--model', DESIGN, '--engines', engineAnswering(drone(8, [5000, 'g'], [0, 'kg']))]);
    assert.equal(heavy.answer.standing.strength, 'not covered');
    assert.match(heavy.answer.standing.reasons[0]!, new RegExp(`batteryRange: batteryMass <= 3 \\[kg\\] is false \\(${place(16, 64)}\\)$`));
    const metres = ask(['Design::Drone', '--model', DESIGN, '--engines', engineAnswering(drone(4, [0.5, 'm'], [0, 'kg']))]);
    assert.equal(metres.answer.standing.strength, 'not covered');
    assert.match(metres.answer.standing.reasons[0]!, /the witness value of batteryMass is not a value of the feature: \[m\] is not a MassValue/);
  });

  it("a value outside the question's domain, a non-Integer for an Integer, a value the model computes otherwise: not covered", () => {
    const domain = ask(['Design::Drone', '--model', DESIGN, '--input', 'motors:Integer:4, 6', '--engines', engineAnswering(drone(8, [0.5, 'kg'], [0, 'kg']))]);
    assert.match(domain.answer.standing.reasons.join('\n'), /the witness value of motors is 8, outside its domain 4, 6$/);
    // a quantity's domain is in the coherent unit of its kind (kg for a MassValue): 800 g lies in 0.5..1, 1500 g does not
    const grams = (g: number) => ask(['Design::Drone', '--model', DESIGN, '--input', 'batteryMass:MassValue:0.5..1', '--engines', engineAnswering(drone(4, [g, 'g'], [0, 'kg']))]);
    assert.deepEqual(grams(800).answer.standing, { strength: 'proved', reasons: [] });
    assert.match(grams(1500).answer.standing.reasons.join('\n'), /the witness value of batteryMass is 1500 \[g\], outside its domain 0\.5\.\.1$/);
    const half = ask(['Design::Drone', '--model', DESIGN, '--engines', engineAnswering(drone(4.5, [0.5, 'kg'], [0, 'kg']))]);
    // (the model declares motors an Integer: the witness's value is no value of the feature)
    assert.match(half.answer.standing.reasons.join('\n'), /the witness value of motors is not a value of the feature: 'motors' is declared Integer but its value is 4\.5$/);
    // totalMass = frameMass + batteryMass + payload: a witness may not choose it
    const forged = ask(['Design::Drone', '--model', DESIGN, '--engines', engineAnswering(drone(4, [0.5, 'kg'], [0, 'kg'], { name: 'totalMass', value: 0, unit: 'kg' }))]);
    assert.match(forged.answer.standing.reasons.join('\n'), /the witness gives totalMass = 0 \[kg\], but with the witness's other values the model computes 1\.7 \[kg\]$/);
    for (const r of [domain, half, forged]) assert.equal(r.answer.standing.strength, 'not covered');
  });

  it("the question's condition is checked with the subject's constraints", () => {
    const question = (inputs: unknown[]) => ['Design::Drone', '--model', DESIGN, '--engines', engineAnswering(inputs), '--condition', 'big payload=payload >= 3 [kg]'];
    // with the condition: 8 motors lift 6.116 kg, so a 3 kg payload with 0.5 kg battery is fine; 2 kg is not big
    const ok = ask(question(drone(8, [0.5, 'kg'], [3, 'kg'])));
    assert.deepEqual(ok.answer.standing, { strength: 'proved', reasons: [] });
    const small = ask(question(drone(8, [0.5, 'kg'], [2, 'kg'])));
    assert.equal(small.answer.standing.strength, 'not covered');
    assert.match(small.answer.standing.reasons[0]!, /condition big payload: payload >= 3 \[kg\] is false$/);
  });

  it('an assignment that meets an equation only within the rounding of Reals stands at most observed; a wrong one is not covered', () => {
    // the bundled engine's own answer: z3 finds x = √2, which arrives as a double whose square is not 2
    const model = join(dir, 'root.sysml');
    writeFileSync(model, 'package E {\n\tconstraint def Root { in x : Real; x * x == 2 and x > 0 }\n}\n');
    const root = ask(['E::Root', '--model', model]);
    assert.equal(root.code, 0);
    assert.equal(root.answer.result.strength, 'proved');
    assert.deepEqual(root.answer.standing, {
      strength: 'observed',
      reasons: ["the host could not check the witness: the assignment meets its assertions only within the rounding of Reals, which the host's evaluation in doubles cannot settle: x * x == 2 is false exactly (2.0000000000000004 against 2), but within rounding"],
    });
    // Pythagoras with an irrational side (b² = 0.3330078125): the double sent for b meets the equation
    // in doubles, but the decimal it is is not the root, so the answer stands observed, not proved.
    const irrational = ask(['Design::Pythagoras', '--model', DESIGN]);
    assert.equal(irrational.answer.result.strength, 'proved');
    assert.equal(irrational.answer.standing.strength, 'observed');
    assert.match(irrational.answer.standing.reasons[0]!, /only within the rounding of Reals.*a \* a \+ b \* b == c \* c is false exactly/);
    const wrong = ask(['Design::Pythagoras', '--model', DESIGN, '--engines', engineAnswering([{ name: 'a', value: 1 }, { name: 'b', value: 1 }, { name: 'c', value: 1.5 }])]);
    assert.equal(wrong.answer.standing.strength, 'not covered');
    assert.match(wrong.answer.standing.reasons[0]!, new RegExp(`Pythagoras: a \\* a \\+ b \\* b == c \\* c is false \\(${place(29, 3)}\\)$`));
  });

  it('a model the host cannot evaluate stands at most observed, with the reason; a false part before it still refutes', () => {
    const model = join(dir, 'odd.sysml');
    writeFileSync(model, [
      'package Odd {',
      '\tprivate import ScalarValues::*;',
      '\tpart def Vehicle;',
      '\tpart def Fleet {',
      '\t\tattribute x : Real;',
      '\t\tassert constraint big { x > 1 and size(all Vehicle) >= 0 }',
      '\t}',
      '}',
      '',
    ].join('\n'));
    const unchecked = ask(['Odd::Fleet', '--model', model, '--engines', engineAnswering([{ name: 'x', value: 2 }])]);
    assert.equal(unchecked.code, 0);
    assert.equal(unchecked.answer.standing.strength, 'observed');
    assert.deepEqual(unchecked.answer.standing.reasons, [`the host could not check the witness: ${model}:6:42: 'all Vehicle' (the extent of a type) is not supported`]);
    const refuted = ask(['Odd::Fleet', '--model', model, '--engines', engineAnswering([{ name: 'x', value: 0 }])]);
    assert.equal(refuted.answer.standing.strength, 'not covered');
    assert.match(refuted.answer.standing.reasons[0]!, /big: x > 1 is false/);
  });

  it('unbounded: the feasible point it carries is checked too (the bundled answer stands, a violating one does not)', () => {
    const model = join(dir, 'open.sysml');
    writeFileSync(model, 'package U {\n\tprivate import ScalarValues::*;\n\tpart def P {\n\t\tattribute x : Real;\n\t\tassert constraint c { x >= 0 }\n\t}\n}\n');
    const bundled = ask(['U::P', '--model', model, '--condition', 'maximize=x']);
    assert.equal(bundled.answer.result.claim, 'unbounded');
    assert.deepEqual(bundled.answer.standing, { strength: 'proved', reasons: [] });
    const file = join(dir, 'engines.json');
    writeFileSync(file, JSON.stringify([fixtureEntry('well-behaved.js', pids, { name: 'fx', config: { result: { claim: 'unbounded', strength: 'proved', witness: { inputs: [{ name: 'x', value: -1 }] } } } })]));
    const forged = ask(['U::P', '--model', model, '--condition', 'maximize=x', '--engines', file]);
    assert.equal(forged.code, 3);
    assert.match(forged.answer.standing.reasons.join('\n'), /evaluation of the witness does not reproduce the claim: with the witness's values, c: x >= 0 is false \(.*open\.sysml:5:25\)$/);
  });

  it('a model with syntax errors where the subject is declared is a model error: exit 6, naming the error, no engine asked', () => {
    const model = join(dir, 'broken.sysml');
    writeFileSync(model, 'package Broken {\n part def P { attribute x : Real; assert constraint c { x > 1 }\n');
    const r = spawnSync(process.execPath, [CLI, 'satisfiable', 'Broken::P', '--model', model, '--engines', engineAnswering([{ name: 'x', value: 2 }]), '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 6, r.stderr);
    const error = (JSON.parse(r.stdout) as { error: { status: string; message: string } }).error;
    assert.equal(error.status, 'model error');
    assert.match(error.message, new RegExp(`^${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:1: expected '}'`));
  });
});
