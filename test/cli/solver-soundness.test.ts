// satisfiable (src/engine/symbolic.ts → src/engine/solver.ts → z3) means what evaluate means. The host
// re-checks a satisfiable witness but takes an `unsatisfiable` on the solver's word, so each model here
// (test/fixtures/models/soundness/solver.sysml) is one the solver once called unsatisfiable at `proved`
// where evaluate holds at a point, or a construct the solver now refuses by name and place.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const MODEL = join(ROOT, 'test', 'fixtures', 'models', 'soundness', 'solver.sysml');

interface Answer {
  result?: { claim: string; strength: string; witness?: { inputs: { name: string; value: unknown; unit?: string }[] }; reason?: string };
  standing?: { strength: string };
  error?: { message: string; status: string };
}

function satisfiable(subject: string, ...extra: string[]): { code: number | null; answer: Answer } {
  const run = spawnSync(process.execPath, [CLI, 'satisfiable', subject, '--model', MODEL, ...extra, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `exactly one JSON line on stdout, got:\n${run.stdout}\n${run.stderr}`);
  return { code: run.status, answer: JSON.parse(lines[0]!) as Answer };
}

/** A proved answer with this claim, and the witness's values by name when it has one. */
function proved(subject: string, claim: 'satisfiable' | 'unsatisfiable', ...extra: string[]): Record<string, unknown> {
  const { code, answer } = satisfiable(subject, ...extra);
  assert.equal(code, 0, `${subject}: ${JSON.stringify(answer)}`);
  assert.equal(answer.result?.claim, claim, `${subject}: ${JSON.stringify(answer)}`);
  assert.equal(answer.standing?.strength, 'proved', `${subject}: ${JSON.stringify(answer)}`);
  return Object.fromEntries((answer.result?.witness?.inputs ?? []).map((i) => [i.name, i.value]));
}

function refused(subject: string, place: RegExp, what: RegExp, ...extra: string[]): void {
  const { code, answer } = satisfiable(subject, ...extra);
  assert.equal(code, 3, `${subject}: ${JSON.stringify(answer)}`);
  assert.match(answer.error?.message ?? '', place, subject);
  assert.match(answer.error?.message ?? '', what, subject);
}

describe('cli: satisfiable means what evaluate means', function () {
  this.timeout(180_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));

  it("'%' is the truncated remainder, as evaluate computes it (-1 % 3 = -1)", () => {
    assert.deepEqual(proved('Rem::NegMod', 'satisfiable'), { x: -1 });
    const odd = proved('Rem::OddNegative', 'satisfiable');
    assert.ok(typeof odd.x === 'number' && odd.x < 0 && odd.x % 2 === -1, JSON.stringify(odd));
    // Euclidean, x = -2 would do; truncated, a negative x leaves 0, -1 or -2.
    proved('Rem::NeverOne', 'unsatisfiable');
  });

  it('a division or square root constrains the witness only where if, or, and, implies evaluate it', () => {
    assert.deepEqual(proved('Guard::AvgLoad', 'satisfiable'), { count: 0, total: 5 });
    const root = proved('Guard::SqrtGuard', 'satisfiable');
    assert.ok(typeof root.x === 'number' && root.x < 0, JSON.stringify(root));
    assert.deepEqual(proved('Guard::OrGuard', 'satisfiable'), { y: 0 });
    const implied = proved('Guard::ImpliesGuard', 'satisfiable');
    assert.equal(implied.y, 0);
    // '|' evaluates both operands: y = 0 divides by zero there, y > 0 makes it false.
    proved('Guard::BarNoGuard', 'unsatisfiable');
  });

  it('an objective over non-linear arithmetic is refused (z3 optimizes linear arithmetic only)', () => {
    // sqrt(x) on [0, 4] has its maximum 2 at x = 4; z3 called it unbounded.
    refused('Opt::Range', /condition set Range/, /objective \(maximize\/minimize\) over non-linear constraints/, '--condition', 'maximize=sqrt(x)');
    const linear = satisfiable('Opt::Range', '--condition', 'maximize=x');
    assert.equal(linear.answer.result?.claim, 'satisfiable', JSON.stringify(linear.answer));
    assert.deepEqual(linear.answer.result?.witness?.inputs, [{ name: 'x', value: 4 }]);
  });

  it("'===' and '!==' are '==' and '!=' on data values (DataFunctions::'===' returns x == y), as evaluate says", () => {
    const same = proved('Same::SameKind', 'satisfiable');
    assert.equal(same.n, 5);
    assert.equal(same.x, 2);
    // 5 === 5.0 and 1 [km] === 1000 [m]: these cannot hold (before, evaluate told the kinds and units apart).
    proved('Same::NotSame', 'unsatisfiable');
    proved('Same::NotSameQ', 'unsatisfiable');
    assert.deepEqual(proved('Same::KmIsNotM', 'satisfiable'), { x: 1 });
  });

  it("'**': whole exponents are powers, Integer inverses divide; a Real's inverse (Infinity at 0.0) and fractional exponents are refused", () => {
    refused('Pow::RealInverse', /solver\.sysml:76:43/, /negative exponent over a Real that may be 0\.0/);
    refused('Pow::Fractional', /solver\.sysml:80:30/, /fractional exponent 0\.5/);
    assert.deepEqual(proved('Pow::IntegerInverse', 'satisfiable'), { n: 2 });
    assert.deepEqual(proved('Pow::Large', 'satisfiable'), { x: 2 });
  });

  it('Integer literals past 2^53 keep their digits', () => {
    assert.deepEqual(proved('Lit::Big', 'satisfiable'), { x: '18446744073709551617' });
  });

  it('Real literals, values and domain bounds keep every digit (1.999999999999999999 was the double 2), and a witness gives its exact decimal', () => {
    // Each was unsatisfiable at proved: between 1.999999999999999999 and 2 there was nothing.
    assert.deepEqual(Object.keys(proved('Digits::Literal', 'satisfiable')), ['x']);
    assert.deepEqual(Object.keys(proved('Digits::Valued', 'satisfiable')), ['x']);
    // The domain's lower bound as written, and the witness as the decimal it is (through a double it
    // was 2, which fails x < 2).
    const w = proved('Digits::Below', 'satisfiable', '--input', 'x:Real:1.999999999999999999..3');
    assert.equal(w.x, '1.999999999999999999');
    // A unit's exact factor: 0.1 lb is exactly 0.045359237 kg.
    proved('Digits::Pounds', 'unsatisfiable', '--input', 'm:ISQ::MassValue:0..0.045359237');
    proved('Digits::Pounds', 'satisfiable', '--input', 'm:ISQ::MassValue:0..0.0453592371');
  });

  it('temperatures: the right one of two °C points is a difference; other arithmetic on °C is refused', () => {
    proved('Temp::Sum', 'satisfiable');
    refused('Temp::Scaled', /solver\.sysml:105:43/, /'\*' of a temperature on an offset scale/);
  });

  it("requirements: nested requirements and assert constraints are required, as evaluate reads them", () => {
    // Once: satisfiable at proved with x = 0.5 for each, where evaluate says false.
    proved('ReqMembers::Nested', 'unsatisfiable');
    proved('ReqMembers::Asserted', 'unsatisfiable');
    proved('ReqMembers::Vacuous', 'unsatisfiable');
    // A ref requirement refers to one; it is not required.
    proved('ReqMembers::Referenced', 'satisfiable');
    // A nested requirement whose assumption fails holds (evaluate's vacuous pass).
    const w = proved('ReqMembers::Holds', 'satisfiable');
    assert.ok(typeof w.x === 'number' && w.x > 0 && w.x < 1, JSON.stringify(w));
  });

  it("names: xs->sum() and xs->size() call the model's own calc of that name, as evaluate does", () => {
    // Once: unsatisfiable at proved (the library's sum, 6, and size, 2), where evaluate holds at n = 1.
    assert.deepEqual(proved('ModelSum::Arrow', 'satisfiable'), { n: 1 });
  });

  it('quantities: a library function of constants is not handed the SI magnitude, and [ ] converts a quantity', () => {
    refused('Units::Floor', /solver\.sysml:112:43/, /floor\(\) over free features or quantities/);
    proved('Units::Convert', 'satisfiable');
  });
});
