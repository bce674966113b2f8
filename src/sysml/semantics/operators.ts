// The operators of the notation over values. Every function returns a value or a ValueError carrying
// a message and the caller's range; nothing throws for a mistake a modeler can make.

import { complexArithmetic } from './complex';
import {
  coherentUnit, convertExact, convertMagnitude, divideUnits, exactFactor, isDimensionless, multiplyUnits, ONE, powerUnit, sameDimension, tidyUnit, type Unit,
} from './units';
import { addRational, divideRational, multiplyRational, powerRational, rationalToNumber, subtractRational, type Rational } from './rational';
import {
  bool, compare, complex, complexParts, describeKind, equals, error, errorOf, exactMagnitude, exactOf, format, int, isLoose, isNull, itemsOf, NULL,
  quantity, real, ROUNDING, formatReal, sequence, str, unitValue, type Outcome, type Scalar, type Place, type Value, type ValueError,
} from './values';

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%' | '**' | '^';
export type ComparisonOperator = '<' | '>' | '<=' | '>=';
export type EqualityOperator = '==' | '!=' | '===' | '!==';
export type BooleanOperator = 'and' | 'or' | 'xor' | 'implies' | '&' | '|';
export type BinaryOperator = ArithmeticOperator | ComparisonOperator | EqualityOperator | BooleanOperator | '..' | '??';
export type UnaryOperator = '-' | '+' | 'not' | '~';

/** Largest sequence `a..b` builds; past it the range is an error rather than an out-of-memory. */
export const MAX_RANGE_LENGTH = 10_000_000;
/** Largest Integer `**` result, in bits, before it is refused as too large. */
const MAX_POWER_BITS = 1_000_000;

const VERB: Record<ArithmeticOperator, (a: string, b: string) => string> = {
  '+': (a, b) => `cannot add ${b} to ${a}`,
  '-': (a, b) => `cannot subtract ${b} from ${a}`,
  '*': (a, b) => `cannot multiply ${a} by ${b}`,
  '/': (a, b) => `cannot divide ${a} by ${b}`,
  '%': (a, b) => `cannot take ${a} modulo ${b}`,
  '**': (a, b) => `cannot raise ${a} to the power ${b}`,
  '^': (a, b) => `cannot raise ${a} to the power ${b}`,
};

/** The single scalar of an operand, or an error naming the operator and side. */
export function single(v: Value, op: string, side: string, range?: Place): Scalar | ValueError {
  if (v.kind !== 'sequence') return v;
  if (v.items.length === 1) return v.items[0]!;
  const where = side ? ` ${side}` : '';
  if (v.items.length === 0) return error(`'${op}' needs a value${where}, but it is null (no value)`, range);
  return error(`'${op}' needs a single value${where}, got a sequence of ${v.items.length}`, range);
}

function operands(op: string, a: Value, b: Value, range?: Place): [Scalar, Scalar] | ValueError {
  const x = single(a, op, 'on its left', range);
  if (x.kind === 'error') return x;
  const y = single(b, op, 'on its right', range);
  if (y.kind === 'error') return y;
  return [x, y];
}

type Numeric = Scalar & { kind: 'integer' | 'real' | 'quantity' };
const isPlainNumber = (v: Scalar): v is Scalar & { kind: 'integer' | 'real' } => v.kind === 'integer' || v.kind === 'real';
const asNumber = (v: Scalar & { kind: 'integer' | 'real' }): number => (v.kind === 'integer' ? Number(v.value) : v.value);

/**
 * A quantity result, with mixed scales (km·s/h) rewritten in the coherent unit; `exact` and `err` are
 * the magnitude's in `unit` (values.ts), carried through the rescaling.
 */
function quantityIn(value: number, unit: Unit, exact?: Rational, err?: number, loose?: boolean): Scalar {
  const { unit: tidy, scale } = tidyUnit(unit);
  if (tidy.terms.length > 0 && isDimensionless(tidy.dimension) && tidy.dimension[7] === 0) {
    // km/m and the like: a pure number in the end.
    const v = (value * scale * tidy.num) / tidy.den;
    const f = exactFactor(unit);
    const e = exact && f ? multiplyRational(exact, f) : undefined;
    return e ? real(rationalToNumber(e, v), e) : real(v, undefined, rescaledError(err, scale * tidy.num / tidy.den, v), loose);
  }
  if (tidy === unit) return quantity(value, unit, exact, exact ? undefined : err, loose);
  const v = value * scale;
  const f = exactFactor(unit);
  const t = exactFactor(tidy);
  const e = exact && f && t ? divideRational(multiplyRational(exact, f) ?? ZERO, t) : undefined;
  return e ? quantity(rationalToNumber(e, v), tidy, e) : quantity(v, tidy, undefined, rescaledError(err, scale, v), loose);
}

const ZERO: Rational = { n: 0n, d: 1n };

/** An error bound carried through a multiplication by `factor` (itself rounded), giving `result`. */
function rescaledError(err: number | undefined, factor: number, result: number): number | undefined {
  if (err === undefined) return undefined;
  return err * Math.abs(factor) + ROUNDING * Math.abs(result);
}

/** How far a + b or a − b (doubles x, y with bounds ex, ey) may be from its value: the operands'
 * bounds and the rounding of both (a difference of close values keeps the operands' error). */
function sumError(ex: number, ey: number, x: number, y: number): number {
  return ex + ey + ROUNDING * (Math.abs(x) + Math.abs(y));
}

function productError(ex: number, ey: number, x: number, y: number): number {
  return Math.abs(x) * ey + Math.abs(y) * ex + ex * ey + ROUNDING * Math.abs(x * y);
}

function quotientError(ex: number, ey: number, x: number, y: number): number {
  // A divisor that may be zero bounds nothing.
  if (Math.abs(y) <= ey) return Infinity;
  return (Math.abs(x) * ey + Math.abs(y) * ex) / (Math.abs(y) * (Math.abs(y) - ey)) + ROUNDING * Math.abs(x / y);
}

/** Quantity `b`'s magnitude read in `unit` (as a point, or a difference): its double, its exact value
 * where the conversion keeps it, and its error bound, plus a rounding when it has no exact value (an
 * operand of arithmetic), or when it was converted at all (`converted`: a compared value). */
function inUnit(b: Scalar & { kind: 'quantity' }, unit: Unit, asDifference: boolean, converted = false): { y: number; exact: Rational | undefined; err: number } | undefined {
  const y = convertMagnitude(b.value, b.unit, unit, asDifference);
  if (y === undefined) return undefined;
  const exact = b.exact && convertExact(b.exact, b.unit, unit, asDifference);
  const rounded = converted ? b.unit.name !== unit.name : !exact;
  return { y, exact, err: errorOf(b) * Math.abs(factorBetween(b.unit, unit)) + (rounded ? ROUNDING * Math.abs(y) : 0) };
}

/** The factor a magnitude in `from` is multiplied by to read in `to` (as a difference). */
function factorBetween(from: Unit, to: Unit): number {
  return (from.num * to.den) / (from.den * to.num);
}

// ---------------------------------------------------------------------------------------------------
// Arithmetic

export function arithmetic(op: ArithmeticOperator, left: Value, right: Value, range?: Place): Outcome {
  const pair = operands(op, left, right, range);
  if ('kind' in pair) return pair;
  const [a, b] = pair;
  const mismatch = (): ValueError => error(VERB[op](describeKind(a), describeKind(b)), range);

  if (a.kind === 'complex' || b.kind === 'complex') return withComplex(op, a, b, range, mismatch);
  if (op === '+' && (a.kind === 'string' || b.kind === 'string')) {
    return str(textOf(a) + textOf(b));
  }
  if (a.kind === 'unit' || b.kind === 'unit') return unitArithmetic(op, a, b, range) ?? mismatch();
  if (!isNumericScalar(a) || !isNumericScalar(b)) return mismatch();

  // A temperature on an offset scale (°C, °F) is a point: scaled or multiplied, the answer depends on
  // the scale's zero (2 · 20 °C is 40 °C read as a difference, 313.15 °C read from 0 K), so it is not
  // decided; the solver refuses it too. It once answered 40 °C at proved.
  if (op !== '+' && op !== '-') {
    const affine = [a, b].find((x) => x.kind === 'quantity' && x.unit.offset !== 0);
    if (affine) {
      return error(`'${op}' of ${format(a)} and ${format(b)}: ${format(affine)} is a temperature on an offset scale (°C, °F), whose products, quotients and powers depend on where the scale puts zero (as a point from 0 K, or as a difference of 1 degree per unit); not decided: convert it to [K] first (a point) or subtract a reference temperature (a difference)`, range, 'unsupported');
    }
  }
  let r: Outcome;
  switch (op) {
    case '+':
    case '-':
      r = addOrSubtract(op, a, b, range, mismatch);
      break;
    case '*':
      r = multiply(a, b);
      break;
    case '/':
      r = divide(a, b, range);
      break;
    case '%':
      r = modulo(a, b, range, mismatch);
      break;
    case '**':
    case '^':
      r = power(a, b, range, mismatch);
      break;
  }
  if ((r.kind !== 'real' && r.kind !== 'quantity') || r.exact) return r;
  const beyond = beyondDoubles(op, a, b, r, range);
  if (beyond) return beyond;
  // A function's value no double holds stays so through arithmetic, as does a fractional power (a root).
  const root = (op === '**' || op === '^') && !(b.kind === 'integer' || exactOf(b)?.d === 1n);
  if (r.loose || !(isLoose(a) || isLoose(b) || root)) return r;
  return r.kind === 'real' ? real(r.value, undefined, r.err, true) : quantity(r.value, r.unit, undefined, r.err, true);
}

/** Smallest normal double: below it a double holds fewer than 53 bits. */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * A Real or quantity result without an exact value whose double left the doubles' range: infinite, NaN,
 * or a non-zero number that became 0 or a subnormal (`1e200 * 1e200`, `2.0 ** 2000`, `1e-200 *
 * 1e-200` of inexact operands). ScalarValues::Real has neither infinities nor a smallest number, so
 * such a double is no answer (`2.0 ** 2000 > 2.0 ** 1999` was false); refused.
 */
function beyondDoubles(op: ArithmeticOperator, a: Numeric, b: Numeric, r: Scalar & { kind: 'real' | 'quantity' }, range?: Place): ValueError | undefined {
  const v = r.value;
  const nonZero = (x: Numeric): boolean => (x.kind === 'integer' ? x.value !== 0n : x.value !== 0);
  let outside = !Number.isFinite(v) || (v !== 0 && Math.abs(v) < MIN_NORMAL);
  if (v === 0 && (op === '*' ? nonZero(a) && nonZero(b) : op === '/' || op === '**' || op === '^' ? nonZero(a) : false)) outside = true;
  // Arithmetic on a value already infinite (the library's `*`) is left as the operands make it.
  if (!Number.isFinite(a.kind === 'integer' ? 0 : a.value) || !Number.isFinite(b.kind === 'integer' ? 0 : b.value)) return undefined;
  if (!outside) return undefined;
  return error(
    `'${op}' of ${format(a)} and ${format(b)} gives ${format(r)}: the result is outside the range of the binary floating point the engine computes with (about 2.2e-308 to 1.8e308 in size) and has no exact value kept, so it is not a Real the engine can decide with; not decided`,
    range, 'unsupported',
  );
}

/** An operator with a Complex operand: ComplexFunctions' operator, an Integer or Real operand read as
 * (x, 0) (ScalarValues: Real specializes Complex). */
function withComplex(op: ArithmeticOperator, a: Scalar, b: Scalar, range: Place | undefined, mismatch: () => ValueError): Outcome {
  const other = a.kind === 'complex' ? b : a;
  if (other.kind === 'quantity' || other.kind === 'unit') {
    return error(`'${op}' of ${describeKind(a)} and ${describeKind(b)}: quantities with a Complex value are not modeled`, range, 'unsupported');
  }
  if (other.kind === 'string' && op === '+') {
    return error(`'${op}' of ${describeKind(a)} and ${describeKind(b)}: the library gives a Complex no text (ComplexFunctions::ToString has no body), so it is not joined to a String`, range, 'unsupported');
  }
  // ComplexFunctions has no '%'; a Boolean, enum, instance… is no Complex.
  if (op === '%' || !complexParts(a) || !complexParts(b)) return mismatch();
  return complexArithmetic(op, a, b, `'${op}'`, range);
}

function isNumericScalar(v: Scalar): v is Numeric {
  return v.kind === 'integer' || v.kind === 'real' || v.kind === 'quantity';
}

function textOf(v: Scalar): string {
  switch (v.kind) {
    case 'string': return v.value;
    case 'boolean': return String(v.value);
    case 'integer': return v.value.toString();
    // As ToString gives it (2.0 is "2.0", not "2": a Real's text says it is one).
    case 'real': return formatReal(v.value);
    case 'complex': throw new Error('unreachable: arithmetic refuses a Complex beside a String');
    case 'enum': return v.literal;
    case 'quantity': return `${v.value} [${v.unit.name}]`;
    case 'unit': return v.unit.name;
    case 'instance': return v.label;
  }
}

function addOrSubtract(op: '+' | '-', a: Numeric, b: Numeric, range: Place | undefined, mismatch: () => ValueError): Outcome {
  if (a.kind === 'integer' && b.kind === 'integer') return int(op === '+' ? a.value + b.value : a.value - b.value);
  if (isPlainNumber(a) && isPlainNumber(b)) {
    const x = asNumber(a);
    const y = asNumber(b);
    return realResult(op === '+' ? x + y : x - y, a, b, op === '+' ? addRational : subtractRational, () => sumError(errorOf(a), errorOf(b), x, y));
  }
  if (a.kind === 'quantity' && b.kind === 'quantity') {
    if (!sameDimension(a.unit.dimension, b.unit.dimension)) return mismatch();
    // The right operand is a point on its scale only when it is the affine one (300 K − 20 °C);
    // otherwise it is a difference (0 °C + 10 K = 10 °C). See docs/semantics.md, "Temperatures".
    const asDifference = !(b.unit.offset !== 0 && a.unit.offset === 0);
    const twoPoints = op === '-' && a.unit.offset !== 0 && b.unit.offset !== 0;
    // Two points on offset scales (25 °C − 20 °C): their difference is an interval, 5 K, not the point
    // 5 °C; the right one is a point on the left one's scale (20 °C − 68 °F is 0 K).
    const c = inUnit(b, a.unit, twoPoints ? false : asDifference);
    if (!c) return mismatch();
    const { y, exact: yExact, err: ey } = c;
    const v = op === '+' ? a.value + y : a.value - y;
    const e = a.exact && yExact ? (op === '+' ? addRational : subtractRational)(a.exact, yExact) : undefined;
    const err = e ? undefined : sumError(errorOf(a), ey, a.value, y);
    if (twoPoints) {
      // The interval in the coherent unit: the left scale's degrees times its factor (°F: 5/9 K).
      const f = a.unit.num / a.unit.den;
      const fe = exactFactor(a.unit);
      const ce = e && fe ? multiplyRational(e, fe) : undefined;
      if (ce) return quantity(rationalToNumber(ce, v * f), coherentUnit(a.unit.dimension), ce);
      return quantity(v * f, coherentUnit(a.unit.dimension), undefined, rescaledError(err ?? errorOf(a) + ey, f, v * f));
    }
    return quantity(e ? rationalToNumber(e, v) : v, a.unit, e, err);
  }
  void range;
  return mismatch();
}

/** The magnitude of a number or quantity as a double, and its exact value and error bound. */
function parts(v: Numeric): { x: number; exact: Rational | undefined; err: number } {
  return { x: v.kind === 'integer' ? Number(v.value) : v.value, exact: exactMagnitude(v), err: errorOf(v) };
}

/** A product or quotient of quantities (or a quantity and a number) in `unit`, exact when both are. */
function scaled(a: Numeric, b: Numeric, unit: Unit, dividing: boolean): Scalar {
  const p = parts(a);
  const q = parts(b);
  const v = dividing ? p.x / q.x : p.x * q.x;
  const e = p.exact && q.exact ? (dividing ? divideRational : multiplyRational)(p.exact, q.exact) : undefined;
  if (e) return quantityIn(rationalToNumber(e, v), unit, e);
  return quantityIn(v, unit, undefined, (dividing ? quotientError : productError)(p.err, q.err, p.x, q.x));
}

function multiply(a: Numeric, b: Numeric): Outcome {
  if (a.kind === 'integer' && b.kind === 'integer') return int(a.value * b.value);
  if (isPlainNumber(a) && isPlainNumber(b)) {
    const x = asNumber(a);
    const y = asNumber(b);
    return realResult(x * y, a, b, multiplyRational, () => productError(errorOf(a), errorOf(b), x, y));
  }
  if (a.kind === 'quantity' && b.kind === 'quantity') return scaled(a, b, multiplyUnits(a.unit, b.unit), false);
  if (a.kind === 'quantity' && isPlainNumber(b)) return scaled(a, b, a.unit, false);
  if (b.kind === 'quantity' && isPlainNumber(a)) return scaled(a, b, b.unit, false);
  throw new Error('unreachable');
}

/**
 * A Real result: its double, and its exact value when both operands have one (rational.ts); else the
 * bound `err` gives of how far the double may be from the value.
 */
function realResult(approx: number, a: Scalar, b: Scalar, exactly: (x: Rational, y: Rational) => Rational | undefined, err?: () => number): Scalar {
  const x = exactOf(a);
  const y = x && exactOf(b);
  const e = x && y ? exactly(x, y) : undefined;
  return e === undefined ? real(approx, undefined, err?.()) : real(rationalToNumber(e, approx), e);
}

function isZero(v: Numeric): boolean {
  return v.kind === 'integer' ? v.value === 0n : v.value === 0;
}

function divide(a: Numeric, b: Numeric, range?: Place): Outcome {
  if (isZero(b)) return error(`division by zero: ${describeKind(a)} / ${describeKind(b)}`, range);
  // Integer / Integer is Rational in the library (IntegerFunctions::'/'): a Real here.
  if (isPlainNumber(a) && isPlainNumber(b)) {
    const x = asNumber(a);
    const y = asNumber(b);
    return realResult(x / y, a, b, divideRational, () => quotientError(errorOf(a), errorOf(b), x, y));
  }
  if (a.kind === 'quantity' && b.kind === 'quantity') return scaled(a, b, divideUnits(a.unit, b.unit), true);
  if (a.kind === 'quantity' && isPlainNumber(b)) return scaled(a, b, a.unit, true);
  if (b.kind === 'quantity' && isPlainNumber(a)) return scaled(a, b, divideUnits(ONE, b.unit), true);
  throw new Error('unreachable');
}

function modulo(a: Numeric, b: Numeric, range: Place | undefined, mismatch: () => ValueError): Outcome {
  if (isZero(b)) return error(`modulo by zero: ${describeKind(a)} % ${describeKind(b)}`, range);
  // Truncated remainder (sign of the dividend), as JavaScript and Java compute it.
  if (a.kind === 'integer' && b.kind === 'integer') return int(a.value % b.value);
  const p = parts(a);
  let y: number;
  let yExact: Rational | undefined;
  let ey: number;
  if (isPlainNumber(b)) ({ x: y, exact: yExact, err: ey } = parts(b));
  else if (a.kind === 'quantity' && b.kind === 'quantity') {
    const c = inUnit(b, a.unit, true);
    if (!c) return mismatch();
    ({ y, exact: yExact, err: ey } = c);
  } else return mismatch();
  const unit = a.kind === 'quantity' ? a.unit : undefined;
  const make = (v: number, exact?: Rational, err?: number): Scalar => (unit ? quantity(v, unit, exact, err) : real(v, exact, err));
  if (p.exact && yExact) {
    // a − b·trunc(a / b), exactly (bigint division truncates).
    const q = (p.exact.n * yExact.d) / (p.exact.d * yExact.n);
    const r = subtractRational(p.exact, multiplyRational(yExact, { n: q, d: 1n }) ?? ZERO);
    if (r) return make(rationalToNumber(r, p.x % y), r);
  }
  // The remainder jumps where a / b crosses a whole number: near one, which side is not known.
  const q = p.x / y;
  const eq = quotientError(p.err, ey, p.x, y);
  if (Math.abs(q - Math.round(q)) <= eq) {
    return error(`'%' of ${format(a)} and ${format(b)}: their quotient is a whole number within the rounding of Reals computed in binary floating point, so the remainder (near 0 or near the divisor) is not known; not decided`, range, 'unsupported');
  }
  return make(p.x % y, undefined, p.err + ey * Math.abs(Math.trunc(q)) + ROUNDING * (Math.abs(p.x) + Math.abs(y)));
}

function power(a: Numeric, b: Numeric, range: Place | undefined, mismatch: () => ValueError): Outcome {
  if (b.kind === 'quantity') return mismatch();
  if (a.kind === 'integer' && b.kind === 'integer') {
    if (b.value >= 0n) {
      const bits = BigInt(a.value < 0n ? -a.value : a.value).toString(2).length;
      if (bits > 1 && BigInt(bits) * b.value > BigInt(MAX_POWER_BITS)) {
        return error(`${a.value} ** ${b.value} is too large (over ${MAX_POWER_BITS} bits)`, range);
      }
      return int(a.value ** b.value);
    }
    if (a.value === 0n) return error('division by zero: 0 raised to a negative power', range);
    return realResult(Number(a.value) ** Number(b.value), a, b, (x, y) => powerRational(x, y.n));
  }
  const e = asNumber(b);
  const p = parts(a);
  const be = exactOf(b);
  // A whole exponent keeps an exact base exact (2.5 ** 2 is 25/4); any other is a double only.
  const exactly = (x: Rational): Rational | undefined => (be && be.d === 1n ? powerRational(x, be.n) : undefined);
  if (isPlainNumber(a)) {
    const y = realPower(p.x, e, range);
    return typeof y === 'number' ? realResult(y, a, b, (x) => exactly(x), () => powerError(p.x, p.err, e, errorOf(b), y)) : y;
  }
  const unit = powerUnit(a.unit, e);
  if (!unit) return error(`cannot raise ${describeKind(a)} to the power ${e}: the unit would have a fractional exponent`, range);
  const y = realPower(a.value, e, range);
  if (typeof y !== 'number') return y;
  const x = p.exact && exactly(p.exact);
  return x ? quantityIn(rationalToNumber(x, y), unit, x) : quantityIn(y, unit, undefined, powerError(p.x, p.err, e, errorOf(b), y));
}

/** How far x ** e (the double y) may be from its value, x and e known to within ex and ee. */
function powerError(x: number, ex: number, e: number, ee: number, y: number): number {
  if (ex === 0 && ee === 0) return ROUNDING * Math.abs(y);
  const rel = x === 0 ? (ex === 0 ? 0 : Infinity) : ex / Math.abs(x);
  if (rel >= 1) return Infinity;
  // (1 − rel)^−|e| − 1 bounds the relative change of x^e over x(1 ± rel); an uncertain exponent moves
  // the result by y·ln|x| per unit.
  const fromBase = Math.abs(y) * ((1 - rel) ** -Math.abs(e) - 1);
  const fromExponent = ee === 0 ? 0 : Math.abs(y) * Math.abs(Math.log(Math.abs(x))) * ee * 2;
  return fromBase + fromExponent + ROUNDING * Math.abs(y);
}

function realPower(x: number, e: number, range?: Place): number | ValueError {
  const y = x ** e;
  // A negative base to a fractional power has no Real value (doubles say NaN).
  if (Number.isNaN(y) && !Number.isNaN(x) && !Number.isNaN(e)) return error(`(${x}) ** ${e} has no Real value: a negative number raised to a fractional power`, range);
  return y;
}

/** Arithmetic with unit values: `km/h` inside brackets, `2 * SI::kg`, `SI::m ** 2`. */
function unitArithmetic(op: ArithmeticOperator, a: Scalar, b: Scalar, range?: Place): Outcome | undefined {
  if (a.kind === 'unit' && b.kind === 'unit') {
    if (op === '*') return unitValue(multiplyUnits(a.unit, b.unit));
    if (op === '/') return unitValue(divideUnits(a.unit, b.unit));
    return undefined;
  }
  if (a.kind === 'unit' && (op === '**' || op === '^') && isPlainNumber(b)) {
    const u = powerUnit(a.unit, asNumber(b));
    return u ? unitValue(u) : error(`cannot raise unit [${a.unit.name}] to the power ${asNumber(b)}`, range);
  }
  // A number (or quantity) times a unit is a quantity in that unit.
  const [n, u, dividing] = a.kind === 'unit' ? [b, a.unit, false] : [a, (b as Scalar & { kind: 'unit' }).unit, op === '/'];
  if (op !== '*' && !(op === '/' && a.kind !== 'unit')) return undefined;
  if (isPlainNumber(n)) return quantity(asNumber(n), dividing ? divideUnits(ONE, u) : u, exactOf(n), trackedError(n), isLoose(n));
  if (n.kind === 'quantity') return quantityIn(n.value, dividing ? divideUnits(n.unit, u) : multiplyUnits(n.unit, u), n.exact, n.err, n.loose);
  return undefined;
}

/** `value [unit]`: attaches a unit to a number, or converts a quantity of the same dimension. */
export function withUnit(v: Value, u: Value, range?: Place): Outcome {
  const unit = single(u, '[', 'inside the brackets', range);
  if (unit.kind === 'error') return unit;
  if (unit.kind !== 'unit') return error(`expected a unit inside [ ], got ${describeKind(unit)}`, range);
  const items: Scalar[] = [];
  for (const x of itemsOf(v)) {
    if (isPlainNumber(x)) items.push(quantity(asNumber(x), unit.unit, exactOf(x), trackedError(x), isLoose(x)));
    else if (x.kind === 'quantity') {
      const converted = convertQuantity(x, unit.unit, range);
      if (converted.kind === 'error') return converted;
      items.push(converted as Scalar);
    } else return error(`cannot give ${describeKind(x)} the unit [${unit.unit.name}]`, range);
  }
  return sequence(items);
}

/** `convert(q, toUnit)`: the same quantity in another unit of its dimension. */
export function convertQuantity(q: Scalar, to: Unit, range?: Place): Outcome {
  if (q.kind !== 'quantity') {
    if (isPlainNumber(q) && isDimensionless(to.dimension)) {
      const v = (asNumber(q) * to.den) / to.num;
      const x = exactOf(q);
      const f = exactFactor(to);
      const e = x && f ? divideRational(x, f) : undefined;
      return e ? quantity(rationalToNumber(e, v), to, e) : quantity(v, to, undefined, rescaledError(errorOf(q), to.den / to.num, v), isLoose(q));
    }
    return error(`cannot convert ${describeKind(q)} to [${to.name}]`, range);
  }
  const v = convertMagnitude(q.value, q.unit, to);
  if (v === undefined) return error(`cannot convert [${q.unit.name}] to [${to.name}]: different dimensions`, range);
  const e = q.exact && convertExact(q.exact, q.unit, to);
  return e ? quantity(rationalToNumber(e, v), to, e) : quantity(v, to, undefined, rescaledError(errorOf(q), factorBetween(q.unit, to), v), isLoose(q));
}

/** The error bound a Real or quantity carries from its arithmetic (undefined: none tracked). */
function trackedError(v: Scalar): number | undefined {
  return v.kind === 'real' || v.kind === 'quantity' ? v.err : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Comparison, equality, boolean, sequence operators

export function comparison(op: ComparisonOperator, left: Value, right: Value, range?: Place): Outcome {
  const pair = operands(op, left, right, range);
  if ('kind' in pair) return pair;
  const [a, b] = pair;
  const doubt = roundingDoubt(op, a, b, range);
  if (doubt) return doubt;
  const c = compareWithZero(a, b);
  if (c === undefined) return error(`cannot compare ${describeKind(a)} with ${describeKind(b)}`, range);
  switch (op) {
    case '<': return bool(c < 0);
    case '>': return bool(c > 0);
    case '<=': return bool(c <= 0);
    case '>=': return bool(c >= 0);
  }
}


/**
 * Two numbers not both exact (a Real from a square root or a library function, a quantity in a unit
 * whose factor is no exact fraction) whose doubles are no further apart than the errors they carry
 * (`sqrt(2.0) * sqrt(2.0) - 2.0` is 4.4e-16 from rounding, and its value is 0): which is larger, or
 * whether they are equal, is not known from their doubles, so the comparison is refused rather than
 * answered from the rounding. The errors are tracked through the arithmetic (values.ts `errorOf`), so
 * a difference of close values keeps its operands' error.
 */
function roundingDoubt(op: string, a: Scalar, b: Scalar, range?: Place): ValueError | undefined {
  if (a === b) return undefined;
  const m = inexactMagnitudes(a, b);
  // Equal doubles neither of which tracks an error nor was made by a function whose value no double
  // holds: taken as equal (a value without one is within a few roundings of its double; values.ts errorOf).
  const loose = isLoose(a) || isLoose(b);
  if (m && m.x === m.y && !tracked(a) && !tracked(b)) return undefined;
  if (!m || !Number.isFinite(m.x) || !Number.isFinite(m.y) || Math.abs(m.x - m.y) > m.ex + m.ey) return undefined;
  const how = m.x === m.y && loose
    ? 'their doubles are equal, but a function computed one of them and no double holds its exact value'
    : 'they differ by less than the rounding of Reals computed in binary floating point (a value without an exact decimal one, from a function or a quantity) may make up';
  return error(`'${op}' of ${format(a)} and ${format(b)}: ${how}, so whether they are equal or which is larger is not known; not decided`, range, 'unsupported');
}

/** A Real or quantity that is exact or carries an error bound of its own. */
function tracked(v: Scalar): boolean {
  return (v.kind === 'real' || v.kind === 'quantity') && (v.exact !== undefined || v.err !== undefined || v.loose === true);
}

/** Two numbers on one scale (quantities in the left one's unit): their doubles and error bounds;
 * undefined when they are not compared as numbers or both are exact (compared exactly). */
function inexactMagnitudes(a: Scalar, b: Scalar): { x: number; y: number; ex: number; ey: number } | undefined {
  if (isPlainNumber(a) && isPlainNumber(b)) {
    if (exactOf(a) && exactOf(b)) return undefined;
    return { x: asNumber(a), y: asNumber(b), ex: errorOf(a), ey: errorOf(b) };
  }
  if (a.kind === 'quantity' && b.kind === 'quantity') {
    if (!sameDimension(a.unit.dimension, b.unit.dimension)) return undefined;
    const c = inUnit(b, a.unit, false, true);
    if (!c || (a.exact && c.exact)) return undefined;
    return { x: a.value, y: c.y, ex: errorOf(a), ey: c.err };
  }
  // A quantity against a plain number (dimensionless, or 0 with any unit without a zero shift): in the coherent unit.
  const q = a.kind === 'quantity' ? a : b.kind === 'quantity' ? b : undefined;
  const n = q === a ? b : a;
  if (!q || !isPlainNumber(n) || q.unit.offset !== 0) return undefined;
  const f = exactFactor(q.unit);
  if (q.exact && f && exactOf(n)) return undefined;
  const qx = (q.value * q.unit.num) / q.unit.den;
  const eq = errorOf(q) * Math.abs(q.unit.num / q.unit.den) + (f ? 0 : ROUNDING * Math.abs(qx));
  return q === a ? { x: qx, y: asNumber(n), ex: eq, ey: errorOf(n) } : { x: asNumber(n), y: qx, ex: errorOf(n), ey: eq };
}

/** compare(), plus: a plain 0 compares with a quantity of any non-affine unit (zero is zero in m and km). */
function compareWithZero(a: Scalar, b: Scalar): number | undefined {
  const c = compare(a, b);
  if (c !== undefined) return c;
  if (a.kind === 'quantity' && isPlainNumber(b) && asNumber(b) === 0 && a.unit.offset === 0) return signOf(a);
  if (b.kind === 'quantity' && isPlainNumber(a) && asNumber(a) === 0 && b.unit.offset === 0) return -signOf(b);
  return undefined;
}

export function equality(op: EqualityOperator, a: Value, b: Value, range?: Place): Outcome {
  // Quantities of different dimensions are a modelling mistake, not merely unequal.
  const xs = itemsOf(a);
  const ys = itemsOf(b);
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (x.kind === 'quantity' && y.kind === 'quantity' && !sameDimension(x.unit.dimension, y.unit.dimension)) {
      return error(`cannot compare ${describeKind(x)} with ${describeKind(y)}`, range);
    }
    // A quantity against a plain number that is not a zero it compares with (`2 [m] == 2`): an error as
    // ordering makes it, never `false` (which unit the number was meant in is not said).
    if (((x.kind === 'quantity' && isPlainNumber(y)) || (y.kind === 'quantity' && isPlainNumber(x))) && compareWithZero(x, y) === undefined) {
      return error(`cannot compare ${describeKind(x)} with ${describeKind(y)}: give the number a unit`, range);
    }
    // Two features the model neither binds nor redefines into one: whether their values are one
    // object (two parts) or equal data (two attribute values of a definition, compared feature by
    // feature) is not what the engine's one-instance-per-usage reading decides; `p1 == p2` was false at proved.
    if (x.kind === 'instance' && y.kind === 'instance' && x.identity !== y.identity && x.usage !== undefined && y.usage !== undefined && x.usage !== y.usage) {
      return error(`'${op}' of ${x.label} and ${y.label}: whether they are one object or equal data values is not decided (the model does not bind one to the other; values of structured types are not compared feature by feature)`, range, 'unsupported');
    }
    // A variant chosen for a variation point against a value of some feature: the variant may be that
    // value (`variant e6;` subsets the part e6, so `engine == e6` holds when e6 is chosen), or another.
    if (x.kind === 'instance' && y.kind === 'instance' && x.identity !== y.identity && ((x.variant !== undefined && y.variant === undefined && y.usage !== undefined) || (y.variant !== undefined && x.variant === undefined && x.usage !== undefined))) {
      return error(`'${op}' of ${x.label} and ${y.label}: whether a variant chosen for a variation point is the value of another feature is not decided (a variant may subset it)`, range, 'unsupported');
    }
  }
  if (xs.length === ys.length) {
    for (let i = 0; i < xs.length; i++) {
      const doubt = roundingDoubt(op, xs[i]!, ys[i]!, range);
      if (doubt) return doubt;
    }
  }
  switch (op) {
    case '==': return bool(equalsWithZero(a, b));
    case '!=': return bool(!equalsWithZero(a, b));
    // DataFunctions::'===' returns `x == y` on data values (Kernel Function Library), and
    // OccurrenceFunctions::'===' is the same life, which `==` already decides for instances (identity).
    case '===': return bool(equalsWithZero(a, b));
    case '!==': return bool(!equalsWithZero(a, b));
  }
}

function signOf(q: Scalar & { kind: 'quantity' }): number {
  return q.exact ? (q.exact.n > 0n ? 1 : q.exact.n < 0n ? -1 : 0) : Math.sign(q.value);
}

function equalsWithZero(a: Value, b: Value): boolean {
  if (a.kind !== 'sequence' && b.kind !== 'sequence') {
    const c = compareWithZero(a, b);
    if (c !== undefined && (a.kind === 'quantity' || b.kind === 'quantity')) return c === 0;
  }
  return equals(a, b);
}

/** The Boolean of a condition operand, or an error naming what it got instead. */
export function truth(v: Value, what: string, range?: Place): boolean | ValueError {
  const x = single(v, what, '', range);
  if (x.kind === 'error') return x;
  if (x.kind !== 'boolean') return error(`${what} needs a Boolean, got ${describeKind(x)}`, range);
  return x.value;
}

export function booleanOp(op: BooleanOperator, left: Value, right: Value, range?: Place): Outcome {
  const a = truth(left, `'${op}'`, range);
  if (typeof a !== 'boolean') return a;
  const b = truth(right, `'${op}'`, range);
  if (typeof b !== 'boolean') return b;
  switch (op) {
    case 'and':
    case '&': return bool(a && b);
    case 'or':
    case '|': return bool(a || b);
    case 'xor': return bool(a !== b);
    case 'implies': return bool(!a || b);
  }
}

/** `lower..upper`: the Integers from lower to upper inclusive (null when lower > upper). */
export function range(lower: Value, upper: Value, where?: Place): Outcome {
  const pair = operands('..', lower, upper, where);
  if ('kind' in pair) return pair;
  const [a, b] = pair;
  if (a.kind !== 'integer' || b.kind !== 'integer') {
    return error(`'..' needs Integers, got ${describeKind(a)} and ${describeKind(b)}`, where);
  }
  if (a.value > b.value) return NULL;
  const n = b.value - a.value + 1n;
  if (n > BigInt(MAX_RANGE_LENGTH)) return error(`range ${a.value}..${b.value} has more than ${MAX_RANGE_LENGTH} elements`, where);
  const items: Scalar[] = [];
  for (let i = a.value; i <= b.value; i++) items.push(int(i));
  return sequence(items);
}

/** `a ?? b`: a unless it is null. */
export function coalesce(a: Value, b: Value): Value {
  return isNull(a) ? b : a;
}

/** `seq#(i)`: the i-th element, counting from 1; null past either end (SequenceFunctions::'#'). */
export function index(seq: Value, i: Value, where?: Place): Outcome {
  const k = single(i, '#', 'as the index', where);
  if (k.kind === 'error') return k;
  if (k.kind !== 'integer') return error(`'#' needs an Integer index, got ${describeKind(k)}`, where);
  const items = itemsOf(seq);
  const at = Number(k.value);
  return at >= 1 && at <= items.length ? items[at - 1]! : NULL;
}

export function unary(op: UnaryOperator, operand: Value, where?: Place): Outcome {
  const x = single(operand, op, 'after it', where);
  if (x.kind === 'error') return x;
  switch (op) {
    case 'not':
      if (x.kind !== 'boolean') return error(`'not' needs a Boolean, got ${describeKind(x)}`, where);
      return bool(!x.value);
    case '+':
    case '-': {
      const neg = op === '-';
      if (x.kind === 'integer') return int(neg ? -x.value : x.value);
      if (x.kind === 'real') return neg ? real(-x.value, x.exact && { n: -x.exact.n, d: x.exact.d }, x.err, x.loose) : x;
      if (x.kind === 'quantity') return neg ? quantity(-x.value, x.unit, x.exact && { n: -x.exact.n, d: x.exact.d }, x.err, x.loose) : x;
      if (x.kind === 'complex') return neg ? complex(-x.re, -x.im) : x;
      return error(`unary '${op}' needs a number, got ${describeKind(x)}`, where);
    }
    case '~':
      return error(`'~' has no definition in the standard library`, where);
  }
}

/** Dispatches any binary operator (short-circuit operators evaluate both sides here). */
export function binary(op: BinaryOperator, a: Value, b: Value, where?: Place): Outcome {
  switch (op) {
    case '+': case '-': case '*': case '/': case '%': case '**': case '^':
      return arithmetic(op, a, b, where);
    case '<': case '>': case '<=': case '>=':
      return comparison(op, a, b, where);
    case '==': case '!=': case '===': case '!==':
      return equality(op, a, b, where);
    case 'and': case 'or': case 'xor': case 'implies': case '&': case '|':
      return booleanOp(op, a, b, where);
    case '..':
      return range(a, b, where);
    case '??':
      return coalesce(a, b);
  }
}
