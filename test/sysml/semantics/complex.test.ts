// ComplexFunctions (KerML Kernel Function Library, ComplexFunctions.kerml) and the operators on Complex
// values. Every expected value is worked out by hand; where floating point cannot give it exactly
// (a cosine of pi/2, an exponential) the test states its tolerance.
import { strict as assert } from 'node:assert';
import { callLibraryFunction, callQualifiedLibraryFunction, libraryFeatureValue } from '../../../src/sysml/semantics/functions';
import { arithmetic, comparison, equality, unary } from '../../../src/sysml/semantics/operators';
import { snippetModel } from './snippet-environment';
import {
  bool, complex, describeKind, format, int, NULL, ok, q, real, sequence, str, toProtocolValue,
  type Outcome, type Value, inexactReal,
} from './shorthands';

const call = (name: string, ...args: Value[]): Outcome => {
  const r = callQualifiedLibraryFunction(`ComplexFunctions::${name}`, args, {});
  assert.ok(r, `ComplexFunctions::${name} is handled`);
  return r;
};
const i = complex(0, 1);
const z1 = complex(1, 2); // 1 + 2i
const z2 = complex(3, -1); // 3 - i

/** The parts of a Complex result, failing the test on anything else. */
function parts(v: Outcome): [number, number] {
  const x = ok(v);
  if (x.kind !== 'complex') assert.fail(`expected a Complex, got ${format(x)}`);
  return [x.re, x.im];
}

function close(v: Outcome, re: number, im: number, tolerance: number): void {
  const [a, b] = parts(v);
  assert.ok(Math.abs(a - re) <= tolerance && Math.abs(b - im) <= tolerance, `expected (${re}, ${im}) within ${tolerance}, got (${a}, ${b})`);
}

function refused(v: Outcome, message: RegExp): void {
  assert.equal(v.kind, 'error', `expected a refusal, got ${format(v)}`);
  if (v.kind !== 'error') return;
  assert.equal(v.code, 'unsupported', v.message);
  assert.match(v.message, message);
}

function modelError(v: Outcome, message: RegExp): void {
  assert.equal(v.kind, 'error', `expected a model error, got ${format(v)}`);
  if (v.kind !== 'error') return;
  assert.equal(v.code, undefined, v.message);
  assert.match(v.message, message);
}

describe('semantics/complex: ComplexFunctions', () => {
  it('rect and polar construct; re, im, abs and arg read', () => {
    assert.deepEqual(parts(call('rect', real(1), real(-2))), [1, -2]);
    assert.deepEqual(parts(call('rect', int(3), int(4))), [3, 4]);
    // polar(2, pi/2) = 2(cos pi/2 + i sin pi/2) = 2i; cos(pi/2) is 6.1e-17 in doubles: within 1e-15.
    close(call('polar', real(2), real(Math.PI / 2)), 0, 2, 1e-15);
    // polar(1, pi) = -1, to the same tolerance.
    close(call('polar', real(1), real(Math.PI)), -1, 0, 1e-15);
    assert.deepEqual(call('re', z1), inexactReal(1));
    assert.deepEqual(call('im', z1), inexactReal(2));
    // |3 + 4i| = sqrt(9 + 16) = 5
    assert.deepEqual(call('abs', complex(3, 4)), inexactReal(5));
    // arg(i) = pi/2; arg(-1 - i) = -3pi/4; arg(1) = 0 and arg(0) = 0 (RealFunctions::arg's body)
    assert.deepEqual(call('arg', i), inexactReal(Math.PI / 2));
    assert.deepEqual(call('arg', complex(-1, -1)), inexactReal((-3 * Math.PI) / 4));
    assert.deepEqual(call('arg', real(2)), inexactReal(0));
    assert.deepEqual(call('arg', complex(0, 0)), inexactReal(0));
  });

  it('reads a Real as the Complex (x, 0): re(x) = x and im(x) = 0.0, the RealFunctions bodies', () => {
    assert.deepEqual(call('re', real(2.5)), real(2.5));
    assert.deepEqual(call('im', real(2.5)), inexactReal(0));
    assert.deepEqual(call('abs', real(-2.5)), real(2.5));
  });

  it('the feature i is rect(0.0, 1.0), and i * i = -1', () => {
    assert.deepEqual(libraryFeatureValue('ComplexFunctions::i'), complex(0, 1));
    assert.deepEqual(parts(arithmetic('*', i, i)), [-1, 0]);
    assert.deepEqual(parts(call('*', i, i)), [-1, 0]);
  });

  it('multiplies, adds, subtracts and divides as complex arithmetic, by operator and by qualified name', () => {
    // (1 + 2i)(3 - i) = 3 - i + 6i - 2i^2 = 5 + 5i
    assert.deepEqual(parts(arithmetic('*', z1, z2)), [5, 5]);
    assert.deepEqual(parts(call('*', z1, z2)), [5, 5]);
    // (1 + 2i) + (3 - i) = 4 + i; (1 + 2i) - (3 - i) = -2 + 3i
    assert.deepEqual(parts(arithmetic('+', z1, z2)), [4, 1]);
    assert.deepEqual(parts(call('+', z1, z2)), [4, 1]);
    assert.deepEqual(parts(arithmetic('-', z1, z2)), [-2, 3]);
    assert.deepEqual(parts(call('-', z1, z2)), [-2, 3]);
    // (4 + 2i) / (1 + i) = (4 + 2i)(1 - i) / 2 = (6 - 2i) / 2 = 3 - i
    assert.deepEqual(parts(arithmetic('/', complex(4, 2), complex(1, 1))), [3, -1]);
    assert.deepEqual(parts(call('/', complex(4, 2), complex(1, 1))), [3, -1]);
    // '+' and '-' with one argument (y is [0..1]): the number, and its negation
    assert.deepEqual(parts(call('-', z1)), [-1, -2]);
    assert.deepEqual(parts(call('-', z1, NULL)), [-1, -2]);
    assert.deepEqual(parts(call('+', z1)), [1, 2]);
    assert.deepEqual(parts(unary('-', z1)), [-1, -2]);
  });

  it('mixes a Real with a Complex (Real specializes Complex); Reals alone get the Real operation', () => {
    // 2 (1 + 2i) = 2 + 4i; (1 + 2i) + 1.5 = 2.5 + 2i
    assert.deepEqual(parts(arithmetic('*', int(2), z1)), [2, 4]);
    assert.deepEqual(parts(arithmetic('+', z1, real(1.5))), [2.5, 2]);
    assert.deepEqual(parts(call('*', real(2), z1)), [2, 4]);
    // RealFunctions::'*' (IntegerFunctions') specializes ComplexFunctions::'*' for these
    assert.deepEqual(call('*', real(2), real(3)), real(6));
    assert.deepEqual(call('*', int(2), int(3)), int(6));
    assert.deepEqual(call('-', real(2)), real(-2));
  });

  it("raises to a power: exact for a whole exponent, the principal branch otherwise", () => {
    // (1 + 2i)^2 = -3 + 4i; (1 + 2i)^3 = (1 + 2i)(-3 + 4i) = -11 - 2i; (1 + 2i)^-1 = (1 - 2i)/5
    assert.deepEqual(parts(arithmetic('**', z1, int(2))), [-3, 4]);
    assert.deepEqual(parts(arithmetic('^', z1, int(3))), [-11, -2]);
    assert.deepEqual(parts(call('**', z1, int(-1))), [0.2, -0.4]);
    assert.deepEqual(parts(arithmetic('**', z1, int(0))), [1, 0]);
    // i^i = exp(i Log i) = exp(i * i pi/2) = e^(-pi/2) = 0.20787957635076193 (within 1e-15)
    close(arithmetic('**', i, i), Math.exp(-Math.PI / 2), 0, 1e-15);
    close(call('^', i, i), 0.20787957635076193, 0, 1e-15);
    // 2^i = exp(i ln 2) = cos(ln 2) + i sin(ln 2) = 0.7692389013639721 + 0.6389612763136348i (within 1e-15)
    close(arithmetic('**', real(2), i), 0.7692389013639721, 0.6389612763136348, 1e-15);
    // (1 + i)^0.5 = 2^(1/4) (cos pi/8 + i sin pi/8) = 1.0986841134678100 + 0.45508986056222733i (within 1e-15)
    close(arithmetic('**', complex(1, 1), real(0.5)), 1.09868411346781, 0.45508986056222733, 1e-15);
    // On the real axis both operands are Reals: the Real power, 4^0.5 = 2
    assert.deepEqual(parts(arithmetic('**', complex(4, 0), real(0.5))), [2, 0]);
    // 0^(1 + i): |0^w| = 0 for Re(w) > 0
    assert.deepEqual(parts(arithmetic('**', complex(0, 0), complex(1, 1))), [0, 0]);
  });

  it("compares with '==' only: a Complex on the real axis equals that Real", () => {
    assert.deepEqual(equality('==', complex(1, 0), real(1)), bool(true));
    assert.deepEqual(equality('==', complex(1, 0), int(1)), bool(true));
    assert.deepEqual(equality('==', z1, complex(1, 2)), bool(true));
    assert.deepEqual(equality('!=', z1, complex(1, -2)), bool(true));
    assert.deepEqual(call('==', z1, complex(1, 2)), bool(true));
    assert.deepEqual(call('==', z1, z2), bool(false));
    assert.deepEqual(call('==', NULL, NULL), bool(true));
    assert.deepEqual(call('==', z1, NULL), bool(false));
    modelError(comparison('<', z1, z2), /^cannot compare Complex with Complex$/);
  });

  it('isZero and isUnit as the library bodies: re(x) == 0.0 (1.0) and im(x) == 0.0', () => {
    assert.deepEqual(call('isZero', complex(0, 0)), bool(true));
    assert.deepEqual(call('isZero', complex(0, 1)), bool(false));
    assert.deepEqual(call('isUnit', complex(1, 0)), bool(true));
    assert.deepEqual(call('isUnit', complex(1, 1)), bool(false));
    assert.deepEqual(call('isUnit', real(1)), bool(true));
  });

  it('sum and product from the library defaults rect(0.0, 0.0) and rect(1.0, 0.0)', () => {
    assert.deepEqual(parts(call('sum', sequence([z1, z2]))), [4, 1]);
    assert.deepEqual(parts(call('product', sequence([z1, z2]))), [5, 5]);
    assert.deepEqual(parts(call('sum', NULL)), [0, 0]);
    assert.deepEqual(parts(call('product', NULL)), [1, 0]);
    // (1 + 2i) + 3 + (3 - i) = 7 + i
    assert.deepEqual(parts(call('sum', sequence([z1, int(3), z2]))), [7, 1]);
    // Reals alone: RealFunctions::sum
    assert.deepEqual(call('sum', sequence([real(1), real(2.5)])), real(3.5));
  });

  it("NumericalFunctions' abs, isZero, isUnit and sum of a Complex are ComplexFunctions'", () => {
    assert.deepEqual(callLibraryFunction('abs', [complex(3, 4)]), inexactReal(5));
    assert.deepEqual(callLibraryFunction('isZero', [complex(0, 0)]), bool(true));
    assert.deepEqual(callLibraryFunction('isUnit', [complex(1, 0)]), bool(true));
    assert.deepEqual(callLibraryFunction('isUnit', [complex(1, 1)]), bool(false));
    assert.deepEqual(parts(callLibraryFunction('sum', [sequence([z1, z2])])!), [4, 1]);
  });

  it('division by a zero Complex is a model error, as for Reals', () => {
    modelError(arithmetic('/', z1, complex(0, 0)), /^division by zero: Complex \/ Complex$/);
    modelError(call('/', z1, int(0)), /^division by zero: Complex \/ Integer$/);
    modelError(arithmetic('**', complex(0, 0), int(-1)), /division by zero: 0 raised to a negative power/);
    modelError(arithmetic('**', complex(0, 0), complex(-1, 1)), /0 raised to a power whose real part is not positive \(-1\) is undefined/);
  });

  it("refuses, naming the function, where the library's Real specialization and complex arithmetic disagree", () => {
    // arg(-1): RealFunctions::arg's body says 0.0, the principal argument is pi
    refused(call('arg', real(-1)), /^ComplexFunctions::arg of the negative Real -1: RealFunctions::arg, .* is 0\.0 by its library body, while the principal argument is pi/);
    refused(call('arg', complex(-1, 0)), /^ComplexFunctions::arg of the negative Real -1/);
    // (-1 + 0i)^0.5: RealFunctions::'**' has no Real value, the principal value is i
    refused(arithmetic('**', complex(-1, 0), real(0.5)), /^'\*\*' of -1 and 0\.5: both are Reals, for which RealFunctions::'\*\*' \(a Real result\) has no value/);
    refused(call('^', complex(-8, 0), real(1 / 3)), /^ComplexFunctions::'\^' of -8 and 0\.333.*RealFunctions::'\^'/);
    // Reals alone: RealFunctions::'**' applies, and has no Real value there
    modelError(call('**', real(-1), real(0.5)), /^\(-1\) \*\* 0\.5 has no Real value/);
  });

  it('refuses what the library gives no semantics: a Complex as text, ToComplex, complex quantities, overflow', () => {
    refused(call('ToString', z1), /^ComplexFunctions::ToString has no semantics in the reference engine: the library gives a Complex no text form/);
    refused(call('ToComplex', str('1+2i')), /^ComplexFunctions::ToComplex has no semantics in the reference engine/);
    refused(callLibraryFunction('ToString', [z1])!, /ComplexFunctions::ToString has no semantics/);
    assert.deepEqual(call('ToString', real(2.5)), str('2.5'));
    refused(arithmetic('+', str('z = '), z1), /'\+' of String and Complex: the library gives a Complex no text/);
    refused(arithmetic('*', z1, q(2, 'm')), /^'\*' of Complex and \[m\]: quantities with a Complex value are not modeled$/);
    refused(call('*', complex(1e308, 0), complex(0, 10)), /^ComplexFunctions::'\*': the result .* is outside the range of a double$/);
  });

  it('arguments that are not Complex are model errors naming the function and parameter', () => {
    modelError(call('re', str('x')), /^ComplexFunctions::re needs a Complex as x, got String$/);
    modelError(call('*', q(2, 'm'), i), /^ComplexFunctions::'\*' needs a Complex as x, got \[m\]$/);
    modelError(call('rect', z1, real(0)), /^ComplexFunctions::rect\(\) needs a Real as re, got Complex$/);
    modelError(call('sum', sequence([z1, bool(true)])), /^ComplexFunctions::sum needs a collection of Complex, got Boolean$/);
    modelError(call('*', z1), /^ComplexFunctions::'\*'\(\) takes 2 arguments, got 1$/);
    modelError(arithmetic('%', z1, z2), /^cannot take Complex modulo Complex$/);
  });

  it('shows a Complex as its constructor, rect(re, im), and classifies it under Complex and Number', () => {
    assert.equal(format(complex(1, -2)), 'rect(1.0, -2.0)');
    assert.equal(describeKind(complex(1, -2)), 'Complex');
    assert.deepEqual(toProtocolValue('z', complex(0.5, 2)), { name: 'z', value: 'rect(0.5, 2.0)' });
    const m = snippetModel(`package P {
      attribute z;
      attribute w;
      attribute isComplex = z istype Complex;
      attribute isNumber = z istype Number;
      attribute isReal = z istype Real;
      attribute axisReal = w istype Real;
      attribute realIsComplex = 2.5 istype Complex;
    }`, { z: complex(1, 2), w: complex(1, 0) });
    assert.deepEqual(m.value('isComplex'), bool(true));
    assert.deepEqual(m.value('isNumber'), bool(true));
    assert.deepEqual(m.value('isReal'), bool(false));
    assert.deepEqual(m.value('realIsComplex'), bool(true));
    // rect(1.0, 0.0) is the value 1.0, a Real, held as a Complex: not answered
    refused(m.value('axisReal'), /cannot tell whether Complex is a 'Real'/);
  });
});
