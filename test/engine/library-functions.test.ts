// Library functions of SequenceFunctions, TrigFunctions, VectorFunctions and ComplexFunctions through the
// real engine process: each value is worked out by hand from the library's own body (library/Kernel
// Libraries/Kernel Function Library/*.kerml), and what the engine does not implement is refused by name.
import assert from 'node:assert/strict';
import { modelText, question, suiteEngine } from './engine-process';

const MODEL = `package L {
  private import ScalarValues::*;
  private import SequenceFunctions::*;
  private import TrigFunctions::*;
  private import VectorFunctions::*;
  attribute halfTurnDeg = deg(pi);
  attribute rightAngleRad = rad(90);
  attribute roundTrip = deg(rad(180.0));
  attribute circumference = 2 * TrigFunctions::pi * 1.5;
  attribute cotQuarter = cot(pi / 4);
  attribute same3 = equals((1, 2, 3), (1, 2, 3));
  attribute diffOrder = equals((1, 2), (2, 1));
  attribute diffSize = equals((1, 2), (1, 2, 3));
  attribute appended[*] = (1, 2, 3)->includingAt((8, 9), 4);
  attribute insertedInside[*] = (1, 2, 3)->includingAt(9, 2);
  attribute removed[*] = (1, 2, 3, 4, 5)->excludingAt(2, 3);
  attribute removedOne[*] = (1, 2, 3)->excludingAt(1);
  attribute vsum[*] = 'cartesian+'((1.0, 2.0), (3.0, 4.0));
  attribute vdiff[*] = 'cartesian-'((1.0, 2.0), (3.0, 5.0));
  attribute vneg[*] = 'cartesian-'((1.0, -2.0));
  attribute scaled[*] = cartesianScalarVectorMult(2.0, (1.0, 2.0, 3.0));
  attribute scaledRight[*] = cartesianVectorScalarMult((1.0, 2.0), 0.5);
  attribute dot = cartesianInner((1.0, 2.0, 3.0), (4.0, 5.0, 6.0));
  attribute length = norm((3.0, 4.0));
  attribute zero3[*] = cartesian3DZeroVector;
  attribute isZero3 = isCartesianZeroVector(cartesian3DZeroVector);
  attribute mismatched = cartesianInner((1.0, 2.0), (1.0, 2.0, 3.0));
  attribute zeros = cartesianZeroVector;
  attribute vectorSum = VectorFunctions::sum((1.0, 2.0));
  attribute angleOf = VectorFunctions::angle((1.0, 0.0), (0.0, 1.0));
  attribute folded = (1, 2, 3, 4)->reduce { in a : Integer; in b : Integer; a * 10 + b };
  attribute largest = (3, 9, 4)->reduce { in a : Integer; in b : Integer; if a > b ? a else b };
  attribute single = (7)->reduce { in a : Integer; in b : Integer; a + b };
  attribute oneParam = (1, 2)->reduce { in a : Integer; a };
}`;

describe('library functions through the engine (SequenceFunctions, TrigFunctions, VectorFunctions)', function () {
  this.timeout(30000);
  const engine = suiteEngine();

  async function ask(name: string) {
    return engine.run(question('evaluate', `L::${name}`), modelText('lib.sysml', MODEL));
  }
  async function value(name: string): Promise<unknown> {
    const r = await ask(name);
    assert.equal(r.error, undefined, `${name}: ${JSON.stringify(r.error)}`);
    const values = (r.result!.values ?? []) as { name: string; value: unknown }[];
    return values.length === 1 ? values[0]!.value : values.map((v) => v.value);
  }
  async function refusal(name: string): Promise<string> {
    const r = await ask(name);
    assert.equal(r.result, undefined, `${name} answered ${JSON.stringify(r.result)}`);
    assert.equal((r.error as { code?: string } | undefined)?.code, 'unsupported', `${name}: ${JSON.stringify(r.error)}`);
    return String(r.error?.message);
  }

  it('TrigFunctions: pi, deg, rad, cot as the library bodies compute them', async () => {
    // deg(pi) = pi * 180 / pi = 180; rad(90) = 90 * pi / 180 = pi/2
    assert.equal(await value('halfTurnDeg'), 180);
    assert.equal(await value('rightAngleRad'), Math.PI / 2);
    // rad(180) = 180 * pi / 180 = pi; deg(pi) = 180
    assert.equal(await value('roundTrip'), 180);
    // 2 * pi * 1.5 = 3 pi
    assert.ok(Math.abs((await value('circumference')) as number - 3 * Math.PI) < 1e-12);
    // cot(pi/4) = cos/sin = 1 (to rounding)
    assert.ok(Math.abs((await value('cotQuarter')) as number - 1) < 1e-12);
  });

  it('ControlFunctions::reduce with a body of two parameters folds from the left; another body is refused', async () => {
    // ((1*10 + 2)*10 + 3)*10 + 4 = 1234: left to right, the value so far first
    assert.equal(await value('folded'), 1234);
    // max(max(3, 9), 4) = 9
    assert.equal(await value('largest'), 9);
    // one element is itself (no step)
    assert.equal(await value('single'), 7);
    assert.match(await refusal('oneParam'), /the body of ->reduce takes two named parameters/);
  });

  it('SequenceFunctions: equals compares size and order; excludingAt removes a range; includingAt appends at size + 1', async () => {
    assert.equal(await value('same3'), true);
    assert.equal(await value('diffOrder'), false);
    assert.equal(await value('diffSize'), false);
    // (1, 2, 3) with (8, 9) at index 4 = size + 1: (1, 2, 3, 8, 9)
    assert.deepEqual(await value('appended'), '(1, 2, 3, 8, 9)');
    // (1, 2, 3, 4, 5) without elements 2..3: (1, 4, 5); (1, 2, 3) without element 1: (2, 3)
    assert.deepEqual(await value('removed'), '(1, 4, 5)');
    assert.deepEqual(await value('removedOne'), '(2, 3)');
  });

  it('includingAt inside the sequence is refused: the library body replaces, its name inserts', async () => {
    assert.match(await refusal('insertedInside'), /lib\.sysml:\d+:\d+: .*SequenceFunctions::includingAt at index 2 of a sequence of 3: the library's body .* replaces the element at index/);
  });

  it('VectorFunctions over Cartesian vectors held as their elements', async () => {
    // (1, 2) + (3, 4) = (4, 6); (1, 2) - (3, 5) = (-2, -3); -(1, -2) = (-1, 2)
    assert.deepEqual(await value('vsum'), '(4.0, 6.0)');
    assert.deepEqual(await value('vdiff'), '(-2.0, -3.0)');
    assert.deepEqual(await value('vneg'), '(-1.0, 2.0)');
    // 2 * (1, 2, 3) = (2, 4, 6); (1, 2) * 0.5 = (0.5, 1)
    assert.deepEqual(await value('scaled'), '(2.0, 4.0, 6.0)');
    assert.deepEqual(await value('scaledRight'), '(0.5, 1.0)');
    // 1*4 + 2*5 + 3*6 = 32; |(3, 4)| = 5
    assert.equal(await value('dot'), 32);
    assert.equal(await value('length'), 5);
    assert.deepEqual(await value('zero3'), '(0.0, 0.0, 0.0)');
    assert.equal(await value('isZero3'), true);
  });

  it('refuses by name what it does not hold: mismatched dimensions, cartesianZeroVector, VectorFunctions::sum, angle', async () => {
    assert.match(await refusal('mismatched'), /cartesianInner\(\): the vectors have dimensions 2 and 3/);
    assert.match(await refusal('zeros'), /lib\.sysml:\d+:\d+: .*VectorFunctions::cartesianZeroVector .* has no value in the reference engine/);
    assert.match(await refusal('vectorSum'), /the library function VectorFunctions::sum has no semantics in the reference engine/);
    assert.match(await refusal('angleOf'), /the library function VectorFunctions::angle has no semantics in the reference engine/);
  });
});

const COMPLEX_MODEL = `package C {
  private import ScalarValues::*;
  private import ComplexFunctions::*;
  attribute z1 = rect(1.0, 2.0);
  attribute z2 = rect(3.0, -1.0);
  attribute byOperator = z1 * z2;
  attribute byName = ComplexFunctions::'*'(z1, z2);
  attribute iSquared = i * i;
  attribute reOfSquare = re(i * i);
  attribute quarterTurn = polar(2.0, TrigFunctions::pi / 2);
  attribute modulus = abs(rect(3.0, 4.0));
  attribute total = sum((z1, z2));
  attribute scaled = 2 * z1;
  calc def Square { in x : Complex; return : Complex = x * x; }
  attribute squared = Square(z1);
  attribute negativeArg = arg(-1.0);
  attribute asText = ToString(z1);
  attribute parsed = ToComplex("1+2i");
  attribute byZero = z1 / rect(0.0, 0.0);
  attribute realByZero = 1.0 / 0.0;
  attribute named = rect(re = 1.0, im = 2.0);
  part p {
    attribute x : Real;
    constraint built { re(rect(x, 1.0)) > 2.0 }
    constraint modulusOfReal { ComplexFunctions::abs(x) > 2.0 }
    constraint unit { im(i) == 1.0 and x > 0.0 }
  }
}`;

describe('ComplexFunctions through the engine', function () {
  this.timeout(30000);
  const engine = suiteEngine();

  async function ask(kind: string, name: string) {
    return engine.run(question(kind, `C::${name}`), modelText('complex.sysml', COMPLEX_MODEL));
  }
  /** The answer's values by name: a Complex answer is two, `<name>.re` and `<name>.im`. */
  async function values(name: string): Promise<Record<string, unknown>> {
    const r = await ask('evaluate', name);
    assert.equal(r.error, undefined, `${name}: ${JSON.stringify(r.error)}`);
    return Object.fromEntries(((r.result!.values ?? []) as { name: string; value: unknown }[]).map((v) => [v.name, v.value]));
  }
  async function refusal(kind: string, name: string): Promise<string> {
    const r = await ask(kind, name);
    assert.equal(r.result, undefined, `${name} answered ${JSON.stringify(r.result)}`);
    assert.equal((r.error as { code?: string } | undefined)?.code, 'unsupported', `${name}: ${JSON.stringify(r.error)}`);
    return String(r.error?.message);
  }

  it('answers a Complex as <name>.re and <name>.im', async () => {
    // (1 + 2i)(3 - i) = 5 + 5i, by the operator and by ComplexFunctions::'*'
    assert.deepEqual(await values('byOperator'), { 'byOperator.re': 5, 'byOperator.im': 5 });
    assert.deepEqual(await values('byName'), { 'byName.re': 5, 'byName.im': 5 });
    // i * i = -1; re of it is a Real, one value
    assert.deepEqual(await values('iSquared'), { 'iSquared.re': -1, 'iSquared.im': 0 });
    assert.deepEqual(await values('reOfSquare'), { reOfSquare: -1 });
    // |3 + 4i| = 5; (1 + 2i) + (3 - i) = 4 + i; 2(1 + 2i) = 2 + 4i; (1 + 2i)^2 = -3 + 4i through a calc
    assert.deepEqual(await values('modulus'), { modulus: 5 });
    assert.deepEqual(await values('total'), { 'total.re': 4, 'total.im': 1 });
    assert.deepEqual(await values('scaled'), { 'scaled.re': 2, 'scaled.im': 4 });
    assert.deepEqual(await values('squared'), { 'squared.re': -3, 'squared.im': 4 });
    // polar(2, pi/2) = 2i; cos(pi/2) is not 0 in doubles: the real part within 1e-15
    const turn = await values('quarterTurn');
    assert.ok(Math.abs(turn['quarterTurn.re'] as number) <= 1e-15, JSON.stringify(turn));
    assert.equal(turn['quarterTurn.im'], 2);
  });

  it('refuses by name what it does not model; division by zero is reported as for Reals', async () => {
    assert.match(await refusal('evaluate', 'negativeArg'), /complex\.sysml:\d+:\d+: ComplexFunctions::arg of the negative Real -1: RealFunctions::arg, .* is 0\.0 by its library body, while the principal argument is pi/);
    assert.match(await refusal('evaluate', 'asText'), /ComplexFunctions::ToString has no semantics in the reference engine/);
    assert.match(await refusal('evaluate', 'parsed'), /ComplexFunctions::ToComplex has no semantics in the reference engine/);
    assert.match(await refusal('evaluate', 'named'), /ComplexFunctions::rect\(\) takes positional arguments only, got 're = …'/);
    // As 1.0 / 0.0 is answered
    const r = await ask('evaluate', 'byZero');
    const real = await ask('evaluate', 'realByZero');
    assert.equal(r.result, undefined);
    assert.match(String(r.error?.message), /complex\.sysml:\d+:\d+: division by zero: Complex \/ Complex/);
    assert.match(String(real.error?.message), /complex\.sysml:\d+:\d+: division by zero: Real \/ Real/);
    assert.equal(r.error?.code, real.error?.code);
  });

  it('the solver refuses ComplexFunctions and Complex values, naming them', async () => {
    assert.match(await refusal('satisfiable', 'p::built'), /complex\.sysml:\d+:\d+: ComplexFunctions::rect is not modeled by the solver/);
    assert.match(await refusal('satisfiable', 'p::modulusOfReal'), /ComplexFunctions::abs is not modeled by the solver/);
    assert.match(await refusal('satisfiable', 'p::unit'), /the Complex value rect\(0\.0, 1\.0\) is not modeled by the solver/);
  });
});
