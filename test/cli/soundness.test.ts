// Soundness (#14): the questions on which assay once answered wrongly at `proved`, asked through the CLI
// of the bundled engine. Each answer is the correct one, or a refusal naming the construct and its place.
// The reduced models come from ../shared/soundness (read there, never copied); ours sit in
// test/fixtures/models/soundness.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildIfMissing } from './built';
import { askJson, type CliAnswer } from './ask-json';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SHARED = join(ROOT, '..', 'shared', 'soundness');
const OURS = join(ROOT, 'test', 'fixtures', 'models', 'soundness');

type Answer = CliAnswer;
const ask = askJson;

function value(answer: Answer, name: string): string {
  const v = answer.result?.values?.find((x) => x.name === name);
  assert.ok(v, `no value ${name} in ${JSON.stringify(answer)}`);
  return v.unit ? `${String(v.value)} [${v.unit}]` : String(v.value);
}

function proved(code: number | null, answer: Answer): void {
  assert.equal(code, 0, JSON.stringify(answer));
  assert.equal(answer.standing?.strength, 'proved');
}

function refused(code: number | null, answer: Answer, place: RegExp, what: RegExp): void {
  assert.equal(code, 3, JSON.stringify(answer));
  assert.match(answer.error?.message ?? '', place);
  assert.match(answer.error?.message ?? '', what);
}

/** A question the CLI must refuse: its words (the model files follow them), then the place and what its message names. */
type Refusal = readonly [question: readonly string[], place: RegExp, what: RegExp];

/** `--model` and each of `models` (a file or several). */
const modelArgs = (models: string | readonly string[]) => (typeof models === 'string' ? [models] : models).flatMap((m) => ['--model', m]);

/** Asks each question of `models` in turn: each is refused (exit 3), its message naming the place and what. */
function refuses(models: string | readonly string[], questions: readonly Refusal[]): void {
  for (const [question, place, what] of questions) {
    const r = ask(...question, ...modelArgs(models));
    refused(r.code, r.answer, place, what);
  }
}

/** A question the CLI must answer at proved: its words (the subject second; the model files follow them), a value it names and what that value is. */
type Proof = readonly [question: readonly string[], name: string, want: string];

/** Asks each question of `models` in turn: each is answered at proved, with the value wanted (a failure names the subject). */
function proves(models: string | readonly string[], questions: readonly Proof[]): void {
  for (const [question, name, want] of questions) {
    const r = ask(...question, ...modelArgs(models));
    proved(r.code, r.answer);
    assert.equal(value(r.answer, name), want, question[1]);
  }
}

describe('cli: soundness — the wrong answers of real models are right or refused', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));

  it('multiplicity: wheels : Wheel[4] are four wheels to size and sum', () => {
    const m = join(SHARED, 'multiplicity-sum.sysml');
    let r = ask('evaluate', 'MS::car::wheelCount', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'wheelCount'), '4');
    r = ask('evaluate', 'MS::car::wheelMass', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'wheelMass'), '40 [kg]');
  });

  it('multiplicity: parts that subset a [n] part are among its n, instances of its declaration the rest; more is a model error', () => {
    const m = join(OURS, 'multiplicity-partial.sysml');
    // big (5.0) and two cells of the declaration (1.0 each): 7, three values.
    let r = ask('evaluate', 'MP::pack::total', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'total'), '7');
    r = ask('evaluate', 'MP::pack::count', '--model', m);
    assert.equal(value(r.answer, 'count'), '3');
    refuses(m, [[['evaluate', 'MP::over::total'], /multiplicity-partial\.sysml:10:26/, /'over\.cells' holds 4 values, outside its multiplicity \[3\]/]]);
  });

  it('Reals are exact where they have an exact value; a comparison only rounding would decide is refused; a bare unit name must resolve', () => {
    const m = join(OURS, 'exact-reals.sysml');
    proves(m, [
      [['evaluate', 'XR::sum'], 'sum', '0.3'],
      [['evaluate', 'XR::same'], 'same', 'true'],
      [['evaluate', 'XR::bar::fits'], 'fits', 'true'],
      [['evaluate', 'XU::grams'], 'grams', '1 [g]'],
      // Exact quantities (it refused masses; it answered longer false and degrees true from rounding).
      [['evaluate', 'XR::masses'], 'masses', 'true'],
      [['evaluate', 'XR::longer'], 'longer', 'true'],
      [['evaluate', 'XR::degrees'], 'degrees', 'false'],
    ]);
    refuses(m, [
      [['evaluate', 'XR::grams'], /exact-reals\.sysml:16:/, /unknown name 'g'/],
      // The value of each is exactly 0 and 3: it answered true and 2 from the doubles.
      [['evaluate', 'XR::cancelled'], /exact-reals\.sysml:19:/, /differ by less than the rounding of Reals/],
      [['evaluate', 'XR::floored'], /exact-reals\.sysml:20:/, /within the rounding of Reals/],
    ]);
  });

  it('satisfiable: a requirement holds where its assumptions fail, as evaluate answers (it answered unsatisfiable, proved)', () => {
    const m = join(OURS, 'vacuous-requirement.sysml');
    const r = ask('satisfiable', 'VR::narrow', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'satisfiable');
    assert.match(String(r.answer.result?.assumptions?.[0]), /^narrow holds only vacuously: with its assumptions as conditions, narrow cannot hold; at the witness an assumption is false/);
    const x = r.answer.result?.witness?.inputs?.find((i) => i.name === 'x')?.value;
    assert.equal(typeof x, 'number');
    assert.ok((x as number) <= 10, `the witness fails the assumption: x = ${String(x)}`);
    const e = ask('evaluate', 'VR::narrow', '--bind', `x=${String(x)}`, '--model', m);
    proved(e.code, e.answer);
    assert.equal(value(e.answer, 'narrow'), 'true');
    // Met and assumed at once: a witness that meets the assumption, with no note.
    const met = ask('satisfiable', 'VR::Met', '--model', m);
    assert.equal(met.answer.result?.claim, 'satisfiable');
    assert.equal(met.answer.result?.assumptions, undefined);
    assert.ok((met.answer.result?.witness?.inputs?.find((i) => i.name === 'x')?.value as number) > 10);
    // Its assumption always holds and its requirement never: unsatisfiable.
    const never = ask('satisfiable', 'VR::Never', '--model', m);
    proved(never.code, never.answer);
    assert.equal(never.answer.result?.claim, 'unsatisfiable');
  });

  it('sweep: a grid point is from + k·step exactly (row 3 of 0.1:0.5:0.1 is 0.3, which x <= 0.3 admits; it was refused)', () => {
    const r = ask('sweep', 'SP::p', '--range', 'x:Real:0.1:0.5:0.1', '--model', join(OURS, 'sweep-points.sysml'));
    proved(r.code, r.answer);
    assert.deepEqual([1, 2, 3, 4, 5].map((i) => value(r.answer, `ok@${i}`)), ['true', 'true', 'true', 'false', 'false']);
  });

  it('multiplicity: null for a usage without one ([1..1]) is a model error, as two values are (it answered null)', () => {
    const m = join(OURS, 'null-single.sysml');
    refuses(m, [
      [['evaluate', 'NS::none'], /null-single\.sysml:5:12/, /'none' holds no value \(null\), but a usage without a multiplicity holds one \(\[1\.\.1\]\)/],
      [['evaluate', 'NS::untyped'], /null-single\.sysml:6:12/, /'untyped' holds no value \(null\)/],
      [['evaluate', 'NS::two'], /null-single\.sysml:8:12/, /'two' holds 2 values/],
    ]);
    proves(m, [[['evaluate', 'NS::optional'], 'optional', 'null']]);
  });

  it('Reals: a literal or result outside the doubles is refused; a rounding far from the compared size (a function near 0, a cancelling difference, across units) is refused', () => {
    const m = join(OURS, 'rounding-range.sysml');
    // Each was answered at proved, wrongly: true, false, false, false, false, true, false, true, true.
    refuses(m, [
      [['evaluate', 'RR::huge'], /rounding-range\.sysml:5:/, /the Real literal 1e400 is outside the range/],
      [['evaluate', 'RR::tiny'], /rounding-range\.sysml:6:/, /the Real literal 1e-400 is outside the range/],
      [['evaluate', 'RR::power'], /rounding-range\.sysml:7:/, /'\*\*' of 2\.0 and 2000 gives Infinity: the result is outside the range/],
      [['evaluate', 'RR::under'], /rounding-range\.sysml:8:/, /exp\(-1000\) is 0: outside the range/],
      [['evaluate', 'RR::sinPi'], /rounding-range\.sysml:10:/, /differ by less than the rounding of Reals/],
      [['evaluate', 'RR::cancel'], /rounding-range\.sysml:11:/, /differ by less than the rounding of Reals/],
      [['evaluate', 'RR::expOne'], /rounding-range\.sysml:13:/, /their doubles are equal, but a function computed one/],
      // Each was unsatisfiable at proved; each holds (sin(π) = 0, 1e-400 > 0, e^(1e-20) > 1).
      [['satisfiable', 'RR::sinPiSat'], /rounding-range\.sysml:24:/, /only near the number it stands for/],
      [['satisfiable', 'RR::tinySat'], /rounding-range\.sysml:25:/, /the Real literal 1e-400 is outside the range/],
      [['satisfiable', 'RR::expSat'], /rounding-range\.sysml:26:/, /only near the number it stands for/],
      // was Infinity at proved
      [['evaluate', 'RR::toRealHuge'], /rounding-range\.sysml:30:/, /ToReal\("1e400"\) is Infinity: outside the range/],
      // false, false and 2 at proved: includes and excluding compared doubles
      [['evaluate', 'RR::member'], /rounding-range\.sysml:32:/, /includes\(\): '==' of 0\.0 and 1\.2246467991473532e-16: they differ by less than the rounding/],
      [['evaluate', 'RR::left'], /rounding-range\.sysml:34:/, /excluding\(\): '=='/],
    ]);
    proves(m, [
      [['evaluate', 'RR::root'], 'root', 'true'],
      [['evaluate', 'RR::sinZero'], 'sinZero', 'true'],
      [['evaluate', 'RR::kmEqual'], 'kmEqual', 'true'],
      [['evaluate', 'RR::mass'], 'mass', 'true'],
      // Quantities from decimals are exact: 0.3 kg − 0.1 kg − 0.2 kg is 0 kg (it was false at proved).
      [['evaluate', 'RR::margin'], 'margin', 'true'],
      // and across units with exact factors: 1 km is not 1000.0000000001 m (it was true at proved, a 1e-12 tolerance).
      [['evaluate', 'RR::acrossUnits'], 'acrossUnits', 'false'],
      [['evaluate', 'RR::big'], 'big', 'true'],
      [['evaluate', 'RR::apart'], 'apart', 'true'],
      // both were 3
      [['evaluate', 'RR::floorExact'], 'floorExact', '2'],
      [['evaluate', 'RR::toIntegerExact'], 'toIntegerExact', '2'],
      [['evaluate', 'RR::memberExact'], 'memberExact', 'true'],
      // exact quantities: 0.1 kg + 0.2 kg is 0.3 kg (it was false at proved)
      [['evaluate', 'RR::memberMass'], 'memberMass', 'true'],
    ]);
  });

  it("redefinition: a feature a supertype renamed (z :>> x) and a subtype redefines again (:>> x) is one feature under both names", () => {
    const m = join(OURS, 'redefinition-chain.sysml');
    // d.z was 2 (B's value) and B's w read it (200) while A's x read 4; d.z had no feature; big was unsatisfiable.
    proves(m, [
      [['evaluate', 'RC::d::z'], 'x', '4'],
      [['evaluate', 'RC::d::w'], 'w', '400'],
      [['evaluate', 'RC::viaChain'], 'viaChain', '4'],
    ]);
    const r = ask('satisfiable', 'RC::d::big', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'satisfiable');
  });

  it('types: a whole number is an Integer to istype as to a declaration; a Real\'s exact value decides, and a rounding that reaches a whole number is refused', () => {
    const m = join(OURS, 'whole-numbers.sysml');
    // literal and quotient were false (while `t : Integer = 3.0` held); notWhole was the Integer 3, rounded 2.
    proves(m, [
      [['evaluate', 'WN::literal'], 'literal', 'true'],
      [['evaluate', 'WN::quotient'], 'quotient', 'true'],
      [['evaluate', 'WN::half'], 'half', 'false'],
    ]);
    refuses(m, [
      [['evaluate', 'WN::notWhole'], /whole-numbers\.sysml:5:/, /'notWhole' is declared Integer but its value is/],
      [['evaluate', 'WN::rounded'], /whole-numbers\.sysml:6:/, /whether 2\.0 is a whole number is not known/],
    ]);
  });

  it('evaluate of a part whose behaviour assigns what an asserted constraint reads is refused (it answered the constraint holds)', () => {
    const m = join(OURS, 'behaviour-assigns.sysml');
    refuses(m, [
      [['evaluate', 'BA::d'], /behaviour-assigns\.sysml:8:25/, /a behaviour of d assigns 'k', which the asserted constraint .* reads: .*`holds` answers/],
      [['evaluate', 'BA::t'], /behaviour-assigns\.sysml:11:36/, /a behaviour of t assigns 'k'/],
    ]);
    // A behaviour that assigns only what the constraint does not read leaves it answered.
    proves(m, [[['evaluate', 'BA::c'], "BA::Calm::'<unnamed>'", 'true']]);
  });

  it('calc and analysis bodies run their for/assign actions', () => {
    const m = join(SHARED, 'analysis-loop.sysml');
    let r = ask('compute', 'AL::Counter', '--bind', 'n=4', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'Counter'), '10');
    r = ask('compute', 'AL::Squares', '--bind', 'xs=(1, 2, 3)', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'Squares'), '(1, 4, 9)');
  });

  it('subsetting: parts :> subcomponents are its values, and car : MassedThing :> compositeThing takes the redefined totalMass', () => {
    const m = join(SHARED, 'rollup-subsetting.sysml');
    proves(m, [
      [['evaluate', 'R::car::totalMass'], 'totalMass', '1150 [kg]'],
      [['evaluate', 'R::car2::totalMass'], 'totalMass', '1150 [kg]'],
    ]);
  });

  it('analyses: an asserted constraint that fails makes the analysis false, with the reason; an unvalued subject is refused', () => {
    const m = join(SHARED, 'analysis-subject.sysml');
    let r = ask('evaluate', 'AS::budget', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'budget'), 'false');
    assert.match(r.answer.result?.reason ?? '', /margin > 0 \[m\/s\] is false \(.*analysis-subject\.sysml:9:29\)/);
    refuses(m, [[['evaluate', 'AS::budgetNoValue'], /analysis-subject\.sysml:12:17/, /the subject 'm' of budgetNoValue has no value/]]);
  });

  it("analyses: the out parameter is the analysis's value", () => {
    const m = join(SHARED, 'analysis-out.sysml');
    proves(m, [
      [['compute', 'AO::apolloCost'], 'apolloCost', '7 [kg]'],
      [['compute', 'AO::apolloCost2'], 'apolloCost2', '7 [kg]'],
    ]);
  });

  it('requirements: assert constraint counts as require does', () => {
    const m = join(SHARED, 'req-assert.sysml');
    proves(m, [
      [['evaluate', 'RA::massReqAssert'], 'massReqAssert', 'false'],
      [['evaluate', 'RA::massReqRequire'], 'massReqRequire', 'false'],
    ]);
  });

  it('features :> ISQ::mass are masses to the solver', () => {
    const r = ask('satisfiable', 'P::MassRequirement', '--condition', 'cap=massRequired <= 1500 [kg]', '--model', join(SHARED, 'subset-quantity-sat.sysml'));
    assert.equal(r.code, 0, JSON.stringify(r.answer));
    assert.equal(r.answer.result?.claim, 'satisfiable');
  });

  it('values: valued enumeration literals, declared result types, one feature under two names, bindings, a unit name a feature also has', () => {
    const m = join(OURS, 'values.sysml');
    let r = ask('evaluate', 'V::doubled', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'doubled'), '8');
    r = ask('evaluate', 'V::isB', '--model', m);
    assert.equal(value(r.answer, 'isB'), 'true');
    refuses(m, [[['evaluate', 'V::a'], /values\.sysml:9:61/, /the result of Accel is declared AccelerationValue .* but its value 6 \[kJ\*kW\] is another quantity/]]);
    r = ask('evaluate', 'V::h::x', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'y'), '5 [kg]');
    refuses(m, [[['evaluate', 'V::twice::x'], /values\.sysml:13:/, /one feature \(a redefinition\) valued twice/]]);
    r = ask('evaluate', 'V::sys::eng::rpm', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'rpm'), '30');
    r = ask('evaluate', 'V::shadow::len', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'len'), '2 [m]');
  });

  it('evaluate --condition: the expression is read on the structure (it was ignored, and the structure\'s values answered)', () => {
    const m = join(OURS, 'conditions.sysml');
    proves(m, [
      // Bound by a binding connector, p1 and p2 are one object.
      [['evaluate', 'EC::Sys', '--condition', 'same=p1 == p2'], 'same', 'true'],
      [['evaluate', 'EC::Sys', '--condition', 'q=p1.q + limit'], 'q', '6'],
      [['evaluate', 'EC::sys', '--condition', 'within=p2.q < limit and limit == 7'], 'within', 'true'],
      [['evaluate', 'EC::Sys', '--condition', 'over=limit > 4', '--bind', 'limit=3'], 'over', 'false'],
    ]);
    refuses(m, [
      [['evaluate', 'EC::Sys', '--condition', 'bad=nosuch > 1'], /condition bad, column 1/, /unknown name 'nosuch'/],
      [['evaluate', 'EC::alone', '--condition', 'c=alone > 1'], /condition c/, /alone is an attribute: ask about it without a condition/],
      [['evaluate', 'EC::Sys', '--condition', 'named'], /condition named/, /no expression/],
      [['evaluate', 'EC::Counter', '--condition', 'c=count == 0'], /conditions\.sysml:14:/, /assigns 'count', which condition c reads/],
    ]);
  });

  it('analysis objectives read the case\'s names as its run left them (the result by its name was read at its initial value)', () => {
    const m = join(OURS, 'objective-after-run.sysml');
    let r = ask('evaluate', 'OR::Assigned', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'Assigned'), '20');
    assert.equal(value(r.answer, 'objective'), 'true');
    r = ask('evaluate', 'OR::Nested', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'Nested'), '20');
    // 20 > 25 is false: the objective is not met, and the reason says which constraint.
    assert.equal(value(r.answer, 'objective'), 'false');
    assert.match(String(r.answer.result?.reason), /objective is not met: economy > 25\.0 is false/);
  });

  it('a calc or analysis usage performs its definition\'s actions, and its features read from outside are the run\'s (it answered the initial values)', () => {
    const m = join(OURS, 'inherited-steps.sysml');
    proves(m, [
      [['evaluate', 'IS::cu'], 'cu', '5'],
      [['evaluate', 'IS::viaResult'], 'viaResult', '5'],
      [['evaluate', 'IS::viaLocal'], 'viaLocal', '5'],
      [['evaluate', 'IS::economy'], 'economy', '20'],
      [['evaluate', 'IS::extra'], 'extra', '21'],
      [['evaluate', 'IS::fa'], 'extra', '21'],
    ]);
    refuses(m, [
      [['evaluate', 'IS::twice'], /inherited-steps\.sysml:15:14/, /Twice performs the actions of Inc and actions of its own; which of them runs before which is not modeled/],
      [['evaluate', 'IS::both'], /inherited-steps\.sysml:19:14/, /Both performs the actions of Inc and Dec/],
    ]);
  });

  it('calc bodies: ordered actions run, a nested action read as its run left it; unordered actions over one local, a bound local assigned, or a send are refused with their place', () => {
    const m = join(OURS, 'calc-bodies.sysml');
    let r = ask('compute', 'CB::Factorial', '--bind', 'n=6', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'Factorial'), '720');
    r = ask('compute', 'CB::Collatz', '--bind', 'n=6', '--model', m);
    assert.equal(value(r.answer, 'Collatz'), '8');
    r = ask('compute', 'CB::Ordered', '--model', m);
    assert.equal(value(r.answer, 'Ordered'), '10');
    r = ask('compute', 'CB::LastSeen', '--model', m);
    assert.equal(value(r.answer, 'LastSeen'), '30');
    refuses(m, [
      [['compute', 'CB::Racy'], /calc-bodies\.sysml:29:9/, /two actions of its body use 'x' and no succession orders them/],
      [['compute', 'CB::Bound'], /calc-bodies\.sysml:42:9/, /'x' is bound with '=' to its value, so it cannot be assigned/],
      [['compute', 'CB::Sends', '--bind', 'x=1'], /calc-bodies\.sysml:54:9/, /send/],
      [['evaluate', 'CB::NestedRacy', '--bind', 'x=2'], /calc-bodies\.sysml:75:9/, /two actions of its body use 'first1' and no succession orders them/],
    ]);
    // A nested action's output read after it ran is the value it assigned (it answered the initial 0).
    proves(m, [
      [['evaluate', 'CB::NestedOut', '--bind', 'x=2'], 'NestedOut', '3'],
      [['evaluate', 'CB::ThenAction', '--bind', 'x=2'], 'ThenAction', '30'],
      // first start; then s1 (y = 6); then s2 (acc = 7); then acc * 10 = 70 (it was refused: 'then' has no action before it).
      [['evaluate', 'CB::FromStart', '--bind', 'x=3'], 'FromStart', '70'],
      // (1 + 3) * 10 = 40 (the `then a2;` was no edge, so the two were refused as unordered).
      [['evaluate', 'CB::FirstNamed', '--bind', 'x=3'], 'FirstNamed', '40'],
    ]);
  });

  it('assignments: a bound local assigned from a nested action or if body, and a constant feature assigned, are refused with their place', () => {
    const m = join(OURS, 'assignments.sysml');
    refuses(m, [
      [['compute', 'AS::NestedBound', '--bind', 'n=4'], /assignments\.sysml:7:20/, /'x' is bound with '=' to its value, so it cannot be assigned/],
      [['compute', 'AS::IfBound', '--bind', 'n=4'], /assignments\.sysml:13:20/, /'x' is bound with '=' to its value, so it cannot be assigned/],
      [['compute', 'AS::ConstLocal', '--bind', 'n=4'], /assignments\.sysml:20:9/, /'x' is constant .* so it cannot be assigned/],
      [['outcomes', 'AS::ConstFeature', '-schedule', 'all'], /assignments\.sysml:33:20/, /'x' is constant \(declared at 32:28.*cannot be assigned/],
    ]);
    // A nested action's own local of that name is another feature.
    const r = ask('compute', 'AS::Shadowed', '--bind', 'n=4', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'Shadowed'), '4');
  });

  it('inheritance: a feature two supertypes value differently (a diamond) is refused unless a redefinition says which; a bound value beats a default', () => {
    const m = join(OURS, 'inheritance.sysml');
    refuses(m, [
      [['evaluate', 'IH::d::x'], /inheritance\.sysml:5:23/, /'x' is inherited with two values, from B \(4:23\) and C \(5:23\).*redefine it in D/],
      [['evaluate', 'IH::bc::x'], /inheritance\.sysml:5:23/, /redefine it in bc/],
      [['satisfiable', 'IH::D', '--condition', 'c=x > 2'], /inheritance\.sysml:5:23/, /'x' is inherited with two values/],
      [['evaluate', 'IH::j::y'], /inheritance\.sysml:20:23/, /'y' is inherited with two default values/],
    ]);
    proves(m, [
      [['evaluate', 'IH::d2::x'], 'x', '4'],
      [['evaluate', 'IH::f::x'], 'x', '2'],
      [['evaluate', 'IH::l::y'], 'y', '5'],
    ]);
  });

  it('calc results: a result given twice (return value and result expression) must agree; an argument must agree with a parameter bound with =', () => {
    const m = join(OURS, 'calc-results.sysml');
    refuses(m, [
      [['evaluate', 'CR::twice'], /calc-results\.sysml:4:66/, /its result is given twice, 2 by the return value \(4:57\) and 3 by the result expression/],
      [['evaluate', 'CR::bound'], /calc-results\.sysml:11:23/, /parameter 'y' is bound with '=' to 7 \(9:53\) but the call gives 2/],
      [['compute', 'CR::Bound', '--bind', 'x=1', '--bind', 'y=2'], /calc-results\.sysml/, /parameter 'y' is bound with '=' to 7/],
    ]);
    proves(m, [
      [['evaluate', 'CR::agree'], 'agree', '8'],
      [['evaluate', 'CR::boundSame'], 'boundSame', '8'],
      [['evaluate', 'CR::boundOmitted'], 'boundOmitted', '8'],
      [['evaluate', 'CR::defaulted'], 'defaulted', '3'],
    ]);
  });

  it('behaviours: a feature two supertypes value differently is refused; a more specific redefinition replaces a passed-on value', () => {
    const m = join(OURS, 'behaviour-inheritance.sysml');
    refuses(m, [
      [['outcomes', 'BI::D', '-schedule', 'all'], /behaviour-inheritance\.sysml:5:25/, /'x' is inherited with two values, from B \(4:25\) and C \(5:25\).*redefine it in D/],
      [['outcomes', 'BI::s', '-schedule', 'all'], /behaviour-inheritance\.sysml:15:23/, /'y' is inherited with two values, from Q \(14:23\) and R \(15:23\)/],
    ]);
    proves(m, [
      [['outcomes', 'BI::F', '-schedule', 'all'], 'x@1', '11'],
      [['outcomes', 'BI::D2', '-schedule', 'all'], 'x@1', '101'],
    ]);
  });

  it("a unit's name inside [ ] is the unit even where a feature takes the name, and parse warns there (exit 0)", () => {
    const run = spawnSync(process.execPath, [CLI, 'parse', join(SHARED, 'analysis-subject.sysml')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /analysis-subject\.sysml:8:53: warning: 'm' inside \[ \] is read as the unit m, though the feature 'm' \(line 7\) has this name here/);
  });

  it('constraints: an asserted constraint inside one is read, never skipped: where it fails no verdict is given', () => {
    const m = join(OURS, 'asserted-constraints.sysml');
    // tooBig: the assertion holds and the result expression is false, an ordinary false.
    proves(m, [
      [['evaluate', 'AC::inside'], 'inside', 'true'],
      [['evaluate', 'AC::tooBig'], 'tooBig', 'false'],
    ]);
    // x = -1 makes the asserted `positive` (x > 0) false: no instance at that value, so no verdict (once: true).
    refuses(m, [
      [['evaluate', 'AC::outside'], /asserted-constraints\.sysml:9:\d+/, /its asserted constraint x > 0 is false, so the model has no instance at these values/],
      [['evaluate', 'AC::never'], /asserted-constraints\.sysml:15:\d+/, /its asserted constraint .* is false/],
      // Its assertion holds, but nothing gives `always` itself a value: no verdict (once: true).
      [['evaluate', 'AC::always'], /asserted-constraints\.sysml:16:\d+/, /always has no expression: the model does not say when it holds/],
      [['evaluate', 'AC::bare'], /asserted-constraints\.sysml:19:5/, /bare has no expression: the model does not say when it holds/],
    ]);
  });

  it('sends: a part that sends to itself by name hears it; a send to an attribute or to a definition\'s feature is refused', () => {
    const m = join(OURS, 'send-receivers.sysml');
    // Once lost: self1's Ping to itself went nowhere and the run waited forever, at proved.
    proves(m, [
      [['outcomes', 'SR::self1', '-schedule', 'all'], 'state@1', 'heard'],
      [['outcomes', 'SR::porter', '-schedule', 'all'], 'state@1', 'heard'],
      [['outcomes', 'SR::other1', '-schedule', 'all'], 'state@1', 'waiting'],
    ]);
    refuses(m, [
      [['outcomes', 'SR::counter', '-schedule', 'all'], /send-receivers\.sysml:40:50/, /send … to counter\.count: an attribute receives no signal/],
      [['outcomes', 'SR::tally', '-schedule', 'all'], /send-receivers\.sysml:61:50/, /send … to count: an attribute receives no signal/],
      [['outcomes', 'SR::qualified', '-schedule', 'all'], /send-receivers\.sysml:49:50/, /send … to SR::Qualified::Machine: a feature of the definition Qualified, named by its qualified name, is no one instance/],
    ]);
  });

  it("types: a value that is no instance of its feature's declared type is a model error, in evaluate, calc bodies and behaviours", () => {
    const m = join(OURS, 'declared-types.sysml');
    // trips : Integer = 10 / 4 is 2.5: no Integer, and cost, computed from it, has no value either
    refuses(m, ['DT::truck::trips', 'DT::truck::cost'].map((subject) => [['evaluate', subject], /declared-types\.sysml:14:19/, /'truck\.trips' is declared Integer but its value is 2\.5/] as const));
    // 12 / 4 is the Integer 3
    let r = ask('evaluate', 'DT::even::cost', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'cost'), '300');
    refuses(m, [
      [['evaluate', 'DT::k'], /declared-types\.sysml:23:15/, /'k' is declared Natural but its value is -3/],
      [['evaluate', 'DT::p'], /declared-types\.sysml:24:15/, /'p' is declared Positive but its value is 0/],
      [['evaluate', 'DT::col'], /declared-types\.sysml:25:15/, /'col' is declared Color but its value is 3/],
      [['evaluate', 'DT::c'], /declared-types\.sysml:26:15/, /'c' is declared Color but its value is Size::small/],
      [['evaluate', 'DT::r'], /declared-types\.sysml:27:15/, /'r' is declared Real but its value is "abc"/],
      [['evaluate', 'DT::m'], /declared-types\.sysml:28:15/, /'m' is declared MassValue \(a quantity\) but its value is true/],
      // a calc's parameter and local
      [['evaluate', 'DT::h'], /declared-types\.sysml:54:24/, /'x' is declared Integer but its value is 2\.5/],
      [['evaluate', 'DT::hs'], /declared-types\.sysml:56:49/, /'half' is declared Integer but its value is 2\.5/],
    ]);
    r = ask('evaluate', 'DT::k', '--model', m, '--bind', 'k=2');
    proved(r.code, r.answer);
    r = ask('evaluate', 'DT::even::trips', '--model', m, '--bind', 'load=8');
    proved(r.code, r.answer);
    assert.match(ask('evaluate', 'DT::p', '--model', m, '--bind', 'p=0').answer.error?.message ?? '', /binding p: 'p' is declared Positive but its value is 0/);
    // a sweep's points, as bindings are
    r = ask('sweep', 'DT::even::cost', '--model', m, '--range', 'load:Real:0:1:0.5');
    assert.equal(r.code, 3, JSON.stringify(r.answer));
    assert.match(r.answer.error?.message ?? '', /range load: 'load' is declared Integer but its value is 0\.5/);
    // behaviours: an initial value and an assignment
    refuses(m, [
      [['outcomes', 'DT::Split'], /declared-types\.sysml:59:34/, /'y' is declared Integer but its value is 3\.5/],
      [['outcomes', 'DT::Countdown'], /declared-types\.sysml:63:14/, /'n' is declared Natural but its value is -1/],
    ]);
  });

  it('types: satisfiable constrains a computed Integer to be whole, and states the types of features no constraint reads', () => {
    const m = join(OURS, 'declared-types.sysml');
    let r = ask('satisfiable', 'DT::Trips', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'unsatisfiable');
    r = ask('satisfiable', 'DT::Below', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'unsatisfiable');
    assert.match(r.answer.result?.reason ?? '', /k : Natural/);
    r = ask('satisfiable', 'DT::HalfTrips', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'unsatisfiable');
    r = ask('satisfiable', 'DT::EvenTrips', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'satisfiable');
    assert.deepEqual(r.answer.result?.witness?.inputs, [{ name: 'load', value: 12 }]);
  });

  it('subsetting: parts that subset a part declared [n] give it their values, the rest are instances of its declaration', () => {
    const m = join(OURS, 'subset-values.sysml');
    let r = ask('evaluate', 'SV::car::wheelMass', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'wheelMass'), '40 [kg]');
    r = ask('evaluate', 'SV::frontOnly::wheelMass', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'wheelMass'), '44 [kg]');
    assert.equal(value(ask('evaluate', 'SV::frontOnly::count', '--model', m).answer, 'count'), '4');
    assert.equal(value(ask('evaluate', 'SV::truck::count', '--model', m).answer, 'count'), '8');
    refuses(m, [[['evaluate', 'SV::over::count'], /subset-values\.sysml:29:28/, /'over\.wheels' holds 5 values, outside its multiplicity \[4\]/]]);
  });

  it('assertions: assert heavy; asserts the constraint it names, on the instance that holds it; require e.ok; reads e\'s ok', () => {
    const m = join(OURS, 'assert-reference.sysml');
    let r = ask('evaluate', 'AR::sc2', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'heavy'), 'true');
    r = ask('evaluate', 'AR::notHeavy', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'not heavy'), 'false');
    r = ask('evaluate', 'AR::light', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'heavy'), 'false');
    assert.match(r.answer.result?.reason ?? '', /light violates a constraint: heavy/);
    r = ask('evaluate', 'AR::car', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'engine.fast'), 'true');
    r = ask('evaluate', 'AR::R', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'R'), 'true');
    // the solver: not ok (load >= 10) and load < 20
    r = ask('satisfiable', 'AR::t', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'satisfiable');
    const load = Number(r.answer.result?.witness?.inputs?.find((x) => x.name === 'load')?.value);
    assert.ok(load >= 10 && load < 20, String(load));
    r = ask('satisfiable', 'AR::notHeavy', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'unsatisfiable');
  });

  it('requirements: two `require X;` members of one requirement are two verdicts (the second read the first\'s, remembered under one path)', () => {
    const m = join(OURS, 'require-group.sysml');
    let r = ask('evaluate', 'RG::both', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'both'), 'false');
    assert.match(r.answer.result?.reason ?? '', /truckLimit is false/);
    r = ask('evaluate', 'RG::heavyAndLight', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'heavyAndLight'), 'false');
    assert.match(r.answer.result?.reason ?? '', /light is false/);
  });

  it("names: a feature declared under an inherited feature's name without :>> is another feature, refused where read, never taken for the inherited one", () => {
    const m = join(OURS, 'names-redefinition.sysml');
    const unredefined = (name: string, owner: string, inherited: string) => new RegExp(`'${name}' in ${owner} has the name of the inherited ${inherited} \\(.*names-redefinition\\.sysml:\\d+:\\d+\\) but does not redefine it.*write \`\\w+ :>> ${name}\``);
    // Once: unsatisfiable, and gross = 3500, at proved; Vehicle's gross reads Vehicle's mass (1000).
    refuses(m, [
      [['satisfiable', 'RN::Van'], /names-redefinition\.sysml:11:19/, unredefined('mass', 'Van', 'Vehicle::mass')],
      [['evaluate', 'RN::van::gross', '--bind', 'payload=600.0'], /names-redefinition\.sysml:11:19/, unredefined('mass', 'Van', 'Vehicle::mass')],
      [['evaluate', 'RN::car::gross', '--bind', 'payload=1.0'], /names-redefinition\.sysml:15:36/, unredefined('mass', 'car', 'Vehicle::mass')],
      // BigVan's `:>> mass` names Van's mass and Vehicle's, both inherited.
      [['evaluate', 'RN::bigVan::gross', '--bind', 'payload=1.0'], /names-redefinition\.sysml:17:44/, /'mass' names two different elements, Van::mass .* and Vehicle::mass/],
      [['evaluate', 'RN::d::bx'], /names-redefinition\.sysml:24:28/, /D inherits two different features named 'x', B::x .* and C::x/],
      [['evaluate', 'RN::twice::z'], /names-redefinition\.sysml:28:76/, /'y' is declared twice in Twice/],
      [['evaluate', 'RN::c1', '--bind', 'a=1.0'], /names-redefinition\.sysml:32:30/, unredefined('k', 'c1', 'C1::k')],
      [['outcomes', 'RN::AB', '-schedule', 'all'], /names-redefinition\.sysml:35:36/, unredefined('x', 'AB', 'A::x')],
      [['outcomes', 'RN::q', '-schedule', 'all'], /names-redefinition\.sysml:37:33/, unredefined('y', 'Q', 'P::y')],
    ]);
    // Redefined with :>>: one feature.
    const r = ask('evaluate', 'RN::truck::gross', '--bind', 'payload=1.0', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'gross'), '5001');
  });

  it('parameters: one whose name is that of a supertype parameter at another position (KerML redefines by position) is refused; same order or :>> reads as before', () => {
    const m = join(OURS, 'names-parameters.sysml');
    // Once: 99 at proved; by position b is Sub's a (1 - 100), by name Sub's b.
    refuses(m, [
      [['evaluate', 'PO::s1'], /names-parameters\.sysml:5:24/, /the parameter 'b' of s1 is its 1st, and Sub's 1st is 'a' .* not Sub's 'b' \(its 2nd\); write `in :>> b`/],
      [['evaluate', 'PO::s4'], /names-parameters\.sysml:9:24/, /the parameter 'x' of s4 is its 1st, and Sub's 1st is 'a'.*write `in x :>> a`/],
    ]);
    proves(m, [
      [['evaluate', 'PO::s2'], 's2', '99'],
      [['evaluate', 'PO::s3'], 's3', '99'],
      [['evaluate', 'PO::s5'], 's5', '4'],
    ]);
    refuses(m, [[['outcomes', 'PO::d1', '-schedule', 'all'], /names-parameters\.sysml:12:27/, /the parameter 'b' of d1 is its 1st, and Diff's 1st is 'a'/]]);
    let r = ask('outcomes', 'PO::d2', '-schedule', 'all', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'r@1'), '99');
    // A parameter renamed in place that nothing reads (the release's training models do this).
    r = ask('outcomes', 'PO::Watch', '-schedule', 'all', '--model', m);
    proved(r.code, r.answer);
  });

  it('imports: a name two imports (or two files) provide is ambiguous, refused naming both; an owned alias hides imports', () => {
    const m = join(OURS, 'names-imports.sysml');
    // Once: 9.81 (the first import's) at proved.
    refuses(m, ([['Use', 7], ['Use2', 12], ['Use4', 20]] as const).map(([use, line]) => [['evaluate', `T43::${use}::w`], new RegExp(`names-imports\\.sysml:${line}:23`), /'g' names two different elements, Lib[12]::g .* and Lib[12]::g .*qualify it/] as const));
    const r = ask('evaluate', 'T43::Use5::w', '--model', m);
    proved(r.code, r.answer);
    assert.equal(value(r.answer, 'w'), '1.62');
    refuses(m, [[['outcomes', 'T43::Behave::Step', '-schedule', 'all'], /names-imports\.sysml:32:77/, /'g' names two different elements, T43::Lib1::g .* and T43::Lib2::g/]]);
    // Two files each declaring package Twin: Twin::x is either.
    refuses([join(OURS, 'names-package-a.sysml'), join(OURS, 'names-package-b.sysml')], [[['evaluate', 'Twin::x'], /names-package-a\.sysml:1:9/, /'Twin' \(in the subject Twin::x\) names two different elements/]]);
  });

  it('names resolve where they are written: a definition never reads a feature of the instance that holds one of its instances (evaluate, the solver, behaviours)', () => {
    const m = join(OURS, 'names-lexical.sysml');
    // Once: w = 50 and y = 6 (the holding car's k, the calling part's k).
    proves(m, [
      [['evaluate', 'LX::car::wheel::w'], 'w', '20'],
      [['evaluate', 'LX::bike::wheel::w'], 'w', '30'],
      [['evaluate', 'LX::p::y'], 'y', '4'],
    ]);
    // The solver reads names the same way (once: z = 8/3, the calling part's k).
    let r = ask('satisfiable', 'LX::q', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'satisfiable');
    assert.deepEqual(r.answer.result?.witness?.inputs, [{ name: 'z', value: 4 }]);
    // Once: st.z = 5 and inBlock = 1 at proved.
    refuses(m, [
      [['outcomes', 'LX::van', '-schedule', 'all'], /names-lexical\.sysml:12:73/, /'k' names LX::k .* where it is written, but the run would read LX::van::k/],
      [['outcomes', 'LX::shadow', '-schedule', 'all'], /names-lexical\.sysml:21:35/, /'h' names h .* where it is written, but the run would read LX::shadow::h/],
    ]);
  });

  it('names resolve where they are written: an inner import hides an outer feature; a feature a usage or subtype adds is not the definition\'s', () => {
    const m = join(OURS, 'names-scopes.sysml');
    // Once: d.r = 1, d.s = 2, d2.r = 1 (the package's k and g), wheel.w = 15, big.w = 21 (the added k),
    // dd.r = 2 (Base's private k).
    proves(m, ([['NS::d::r', '10'], ['NS::d::s', '7'], ['NS::d2::r', '10'], ['NS::wheel::w', '3'], ['NS::big::w', '3'], ['NS::dd::r', '1']] as const)
      .map(([subject, want]) => [['evaluate', subject], subject.split('::').at(-1)!, want] as const));
    // The solver reads the names the same way (once: z = 2, the package's k plus one).
    const r = ask('satisfiable', 'NS::q', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'satisfiable');
    assert.deepEqual(r.answer.result?.witness?.inputs, [{ name: 'z', value: 11 }]);
  });

  it('names resolve where they are written: a usage of another package\'s calc, constraint or requirement reads that package\'s names', () => {
    const m = join(OURS, 'names-written.sysml');
    // Once: f = 2, c and r false (App's g = 1.0 read for Lib's g = 9.81).
    proves(m, [[['evaluate', 'App::f'], 'f', '19.62'], [['evaluate', 'App::c'], 'c', 'true'], [['evaluate', 'App::r'], 'r', 'true']]);
    // The solver too (once: v = 1.5, between App's g and g + 1).
    let r = ask('satisfiable', 'App::q', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'satisfiable');
    const v = Number(r.answer.result?.witness?.inputs?.find((x) => x.name === 'v')?.value);
    assert.ok(v > 9.81 && v < 10.81, `witness v = ${v}`);
    // A body whose usage adds a feature under a name the definition's body reads as Lib's (once: 6).
    r = ask('evaluate', 'App::h', '--model', m);
    refused(r.code, r.answer, /names-written\.sysml:19:43/, /'g' in the body of Fall names Lib::g .* but h evaluates that body with its own h::g/);
  });

  it('a requirement, constraint or calc typed by (or specializing) a name that resolves to nothing is refused, naming the name', () => {
    const m = join(OURS, 'unresolved-types.sysml');
    // Once: massReq and checked true at proved (no condition seen), as if MassRequirement stated none.
    refuses(m, [
      ...([['massReq', '4:27', 'MassRequirement'], ['checked', '5:32', 'BaseRequirement'], ['limit', '7:24', 'SpeedLimit'], ['total', '8:18', 'Total']] as const).map(([subject, line, name]) =>
        [['evaluate', `UT::${subject}`], new RegExp(`unresolved-types\\.sysml:${line}`), new RegExp(`'${name}', which \\w+ (is typed by|specializes), names nothing the model or the library declares`)] as const),
      [['satisfiable', 'UT::massReq'], /unresolved-types\.sysml:4:27/, /'MassRequirement'.* names nothing/],
    ]);
  });

  it('a redefinition of a feature chain (:>> engine.mass = 400.0) is refused where the chain is read, not ignored', () => {
    const m = join(OURS, 'chain-redefinition.sysml');
    // Once: total = 1100 and engine.mass = 100 at proved, the redefinition ignored.
    const chain = /'engine\.mass' is redefined as a feature chain in car3 .* not modeled/;
    refuses(m, [
      [['evaluate', 'CR::car3::total'], /chain-redefinition\.sysml:6:37/, chain],
      [['evaluate', 'CR::car3::engine::mass'], /chain-redefinition\.sysml:6:37/, chain],
      // Once: satisfiable with heavy = 200 (engine.mass read as 100).
      [['satisfiable', 'CR::q'], /chain-redefinition\.sysml:8:32/, /'engine\.mass' is redefined as a feature chain in q/],
    ]);
  });

  it('a feature with a value of its own and a subsetting feature whose value is not among it is a model error, not left out', () => {
    const m = join(OURS, 'subset-bound.sysml');
    // Once: t = 3 at proved, y1 = 5.0 (a value of ys by subsetting) left out.
    refuses(m, [[['evaluate', 'SBD::qq::t'], /subset-bound\.sysml:3:65/, /'y1' subsets 'qq\.ys' but its value 5\.0 is not among \(1\.0, 2\.0\)/]]);
    proves(m, [[['evaluate', 'SBD::rr::t'], 't', '3']]);
  });

  it('a qualified name of a definition\'s feature (Car::mass in Car) is read on the instance at hand, as the simple name is', () => {
    const m = join(OURS, 'names-qualified.sysml');
    // Once: x = 2000 (Car's own 1000, not car's 1500) at proved.
    proves(m, [[['evaluate', 'NQ::car::x'], 'x', '3000'], [['evaluate', 'NQ::viaUsage'], 'viaUsage', '1500']]);
    // Once: 1000 at proved, where car's is 1500.
    refuses(m, [[['evaluate', 'NQ::viaDef'], /names-qualified\.sysml:6:31/, /'Car::mass' is a feature of the definition Car, read outside any instance of it/]]);
  });

  it('temperatures: the difference of two points on an offset scale (30 °C − 25 °C) is an interval in K, in evaluate and the solver', () => {
    const m = join(OURS, 'temperatures.sysml');
    // Once: rise = 5 [°C] (the point 278.15 K), withinLimit false and fahrenheitRise 180 [°F] (a point) at proved.
    proves(m, [
      [['evaluate', 'TD::hx::rise'], 'rise', '5 [K]'],
      [['evaluate', 'TD::hx::withinLimit'], 'withinLimit', 'true'],
      [['evaluate', 'TD::hx::fahrenheitRise'], 'fahrenheitRise', '100 [K]'],
      [['evaluate', 'TD::hx::mean'], 'mean', '27.5 [°C]'],
    ]);
    // Once: unsatisfiable at proved.
    let r = ask('satisfiable', 'TD::Rise', '--model', m);
    proved(r.code, r.answer);
    assert.equal(r.answer.result?.claim, 'satisfiable');
    // Once: the witness tIn = 566.3 K (293.15 °C, so 30 °C − tIn was the point −263.15 °C = 10 K).
    r = ask('satisfiable', 'TD::Inlet', '--model', m);
    proved(r.code, r.answer);
    assert.deepEqual(r.answer.result?.witness?.inputs, [{ name: 'tIn', value: 293.15, unit: 'K' }]);
  });

  it("calcs: a specialization's own result (return : Real = …, named or not) replaces the inherited one", () => {
    const m = join(OURS, 'calc-specialization.sysml');
    // Once: 4.0 (Square's x * x) for each, and 9.0 for plusOne, at proved.
    proves(m, [
      [['evaluate', 'CS::cube'], 'cube', '8'],
      [['evaluate', 'CS::namedCube'], 'namedCube', '8'],
      [['evaluate', 'CS::plusOne'], 'plusOne', '4'],
      [['compute', 'CS::Cube', '--bind', 'x=3.0'], 'Cube', '27'],
    ]);
    // Once: the witness y = 2.828… (y * y == 8.0).
    const r = ask('satisfiable', 'CS::Root', '--model', m);
    proved(r.code, r.answer);
    assert.deepEqual(r.answer.result?.witness?.inputs, [{ name: 'y', value: 2 }]);
  });

  it('requirements: a nested requirement is required with or without a body of its own (sub :> light, sub : Light, sub = light); a ref requirement is not', () => {
    const m = join(OURS, 'requirement-groups.sysml');
    // Once: true at proved for each (a nested requirement without a body was left out: nothing to check).
    proves(m, [
      [['evaluate', 'RG::bySubsetting'], 'bySubsetting', 'false'],
      [['evaluate', 'RG::byTyping'], 'byTyping', 'false'],
      [['evaluate', 'RG::byBinding'], 'byBinding', 'false'],
      [['evaluate', 'RG::Group'], 'Group', 'false'],
      // A ref requirement only refers to one: it is no subrequirement (once false at proved, with a body).
      [['evaluate', 'RG::byReference'], 'byReference', 'true'],
      [['evaluate', 'RG::byReferenceBody'], 'byReferenceBody', 'true'],
    ]);
    refuses(m, [[['evaluate', 'RG::unnamed'], /requirement-groups\.sysml:10:27/, /specializes a definition the environment did not resolve/]]);
  });

  it('a bound number its double does not keep is refused as a usage error, naming the flag (1.999999999999999999 kg arrived as 2 kg)', () => {
    const m = ['--model', join(OURS, 'bound-numbers.sysml')];
    const cases: [string, RegExp][] = [
      ['--bind=mass=1.999999999999999999[kg]', /--bind mass=1\.999999999999999999\[kg\]: 1\.999999999999999999 is not carried exactly.*nearest one is 2\b/],
      ['--bind=count=9007199254740993', /--bind count=9007199254740993: .*nearest one is 9007199254740992/],
      ['--bind=mass=1e-400[kg]', /--bind mass=1e-400\[kg\]: 1e-400 is beyond the range/],
    ];
    for (const [bind, message] of cases) {
      const [flag, value] = [bind.slice(0, 6), bind.slice(7)];
      const r = ask('evaluate', 'BN::tank', flag, value, '--bind', 'count=1', '--bind', 'mass=1[kg]', ...m);
      assert.equal(r.code, 2, JSON.stringify(r.answer));
      assert.equal(r.answer.error?.status, 'usage');
      assert.match(r.answer.error?.message ?? '', message);
    }
    // What a double does keep is answered, exactly: 0.1 is one tenth, 1.99999999999999 kg is light.
    const light = ask('evaluate', 'BN::tank', '--bind', 'mass=1.99999999999999[kg]', '--bind', 'count=1', ...m);
    proved(light.code, light.answer);
    assert.equal(value(light.answer, 'light'), 'true');
    // And an answer's number is the one computed: its exact decimal where the double's would be another.
    proves(m.slice(1), [
      [['evaluate', 'BN::precise'], 'precise', '1.999999999999999999'],
      [['evaluate', 'BN::third'], 'third', String(1 / 3)],
    ]);
  });

  it('== of two parts or structured values the model does not bind together is refused (p1 == p2 was false, two equal data values unequal, at proved); bound ones and two values of one feature are decided', () => {
    const m = join(OURS, 'identity.sysml');
    refuses(m, [
      [['evaluate', 'ID::ab'], /identity\.sysml:7:18/, /'==' of a and b: whether they are one object or equal data values is not decided/],
      [['evaluate', 'ID::q12'], /identity\.sysml:13:19/, /'==' of p1 and p2/],
    ]);
    proves(m, [
      [['evaluate', 'ID::q13'], 'q13', 'true'],
      [['evaluate', 'ID::wheelsDiffer'], 'wheelsDiffer', 'true'],
    ]);
  });

  it('a refusal names the file that holds the construct, with several model files', () => {
    refuses([join(OURS, 'values.sysml'), join(OURS, 'second-file.sysml')], [[['evaluate', 'W::p::t'], /second-file\.sysml:2:58/, /a snapshot is not supported/]]);
  });

  it('behaviours: a send with neither `to` nor `via` is refused (it was delivered to the sending part, whose machine heard it)', () => {
    const m = join(OURS, 'behaviour-semantics.sysml');
    // Once: state@1 = heard, x@1 = 1, at proved.
    refuses(m, [[['outcomes', 'BS::noReceiver', '-schedule', 'all'], /behaviour-semantics\.sysml:18:28/, /send … with neither `to` nor `via`/]]);
  });

  it('behaviours: a ref part is a part owned elsewhere: sending to it or assigning through it is refused (it ran as a fresh instance)', () => {
    const m = join(OURS, 'behaviour-semantics.sysml');
    // Once: ctrl.l.m.state@1 = lit beside lamp.m.state@1 = off, and lamp.n@1 = 0 after `assign l.n := 5`, at proved.
    refuses(m, [
      [['outcomes', 'BS::refSend', '-schedule', 'all'], /behaviour-semantics\.sysml:38:49/, /'l' is a referential part \(ref\)/],
      [['outcomes', 'BS::refAssign', '-schedule', 'all'], /behaviour-semantics\.sysml:45:32/, /'l\.n' cannot be assigned: 'ctrl\.l' is a referential part/],
    ]);
    proves(m, [[['outcomes', 'BS::refUnused', '-schedule', 'all'], 'lamp.n@1', '1']]);
  });

  it("behaviours: a part parameter's initial values are not its values now (the part exists before the run): reading one unbound is refused", () => {
    const m = join(OURS, 'behaviour-semantics.sysml');
    // Once: seen@1 = 0 (Lamp's `n := 0`) at proved, though the lamp lights itself.
    refuses(m, [
      [['outcomes', 'BS::UseLamp', '-schedule', 'all'], /behaviour-semantics\.sysml:60:38/, /'lamp\.n' has no value/],
      [['outcomes', 'BS::UseLamp2', '-schedule', 'all'], /behaviour-semantics\.sysml:65:38/, /'lamp\.n' has no value/],
    ]);
    proves(m, [
      [['outcomes', 'BS::UseLamp', '-schedule', 'all', '--bind', 'lamp.n=1'], 'seen@1', '1'],
      [['outcomes', 'BS::UseLamp2', '-schedule', 'all', '--bind', 'lamp.n=1'], 'seen@1', '1'],
    ]);
  });

  it("behaviours: a transition's effect that conflicts with the exit action of a state around its source is refused (the run exited that state first)", () => {
    const m = join(OURS, 'behaviour-semantics.sysml');
    // Once: log@1 = 4123 (SysML v2: 4213) and k@1 = 2 (SysML v2: 3), at proved.
    refuses(m, [
      [['outcomes', 'BS::LeaveOuter', '-schedule', 'all'], /behaviour-semantics\.sysml:78:48/, /the exit action 'assign log := …' .* of 'outer', a state the transition leaves around its source, conflict \(both write 'log'\)/],
      [['outcomes', 'BS::EffectThenExit', '-schedule', 'all'], /behaviour-semantics\.sysml:87:40/, /of 'EffectThenExit', a state the transition leaves around its source, conflict/],
    ]);
    proves(m, [[['outcomes', 'BS::Apart', '-schedule', 'all'], 'k@1', '2']]);
  });

  it("behaviours: `perform ping;` written twice in a part runs ping (an empty action ran instead); restated from its definition, too", () => {
    const m = join(OURS, 'behaviour-semantics.sysml');
    // Once (twice): state@1 = off, lamp.n@1 = 0, at proved: ping's send never ran.
    proves(m, [
      [['outcomes', 'BS::twice', '-schedule', 'all'], 'lamp.n@1', '1'],
      [['outcomes', 'BS::restated', '-schedule', 'all'], 'lamp.n@1', '1'],
    ]);
  });

  it("behaviours: a nested action's initial values are taken when it begins, each performance its own: where that differs from the run's start, refused", () => {
    const m = join(OURS, 'behaviour-semantics.sysml');
    // Once: r@1 = 0 (SysML: 5) and r@1 = 6 (SysML: 3), at proved.
    refuses(m, [
      [['outcomes', 'BS::LateInit', '-schedule', 'all'], /behaviour-semantics\.sysml:131:23/, /'s\.local' takes its initial value when 's' begins .* reads 'x', which the run writes/],
      [['outcomes', 'BS::FreshCount', '-schedule', 'all'], /behaviour-semantics\.sysml:142:23/, /'s\.cnt' takes its initial value anew each time 's' begins/],
    ]);
    proves(m, [[['outcomes', 'BS::early', '-schedule', 'all'], 'drv.r@1', '3']]);
  });

  it("behaviours: a feature declared in an entry action's body is refused where read, never read as a unit of its spelling (y was 1 t, 1 s)", () => {
    const m = join(OURS, 'behaviour-semantics.sysml');
    // Once: y@1 = 1 [t] and 1 [s], at proved.
    refuses(m, [
      [['outcomes', 'BS::UnitLocal', '-schedule', 'all'], /behaviour-semantics\.sysml:173:70/, /'t' is declared in this body \(.*behaviour-semantics\.sysml:173:40\), an entry\/do\/exit action/],
      [['outcomes', 'BS::ParamLocal', '-schedule', 'all'], /behaviour-semantics\.sysml:180:58/, /'s' is declared in this body/],
    ]);
  });
});
