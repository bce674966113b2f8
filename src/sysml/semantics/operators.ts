// The operators of the notation over values. Every function returns a value or a ValueError carrying
// a message and the caller's range; nothing throws for a mistake a modeler can make.

import { complexArithmetic } from './complex';
import {
  coherentUnit, convertMagnitude, divideUnits, isDimensionless, multiplyUnits, ONE, powerUnit, sameDimension, tidyUnit, type Unit,
} from './units';
import { addRational, divideRational, multiplyRational, powerRational, rationalToNumber, subtractRational, type Rational } from './rational';
import {
  bool, compare, complex, complexParts, describeKind, equals, error, exactOf, format, int, isNull, itemsOf, NULL, quantity, real,
  formatReal, sequence, str, unitValue, type Outcome, type Scalar, type Place, type Value, type ValueError,
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

/** A quantity result, with mixed scales (km·s/h) rewritten in the coherent unit. */
function quantityIn(value: number, unit: Unit): Scalar {
  const { unit: tidy, scale } = tidyUnit(unit);
  if (tidy.terms.length > 0 && isDimensionless(tidy.dimension) && tidy.dimension[7] === 0) {
    // km/m and the like: a pure number in the end.
    return real((value * scale * tidy.num) / tidy.den);
  }
  return quantity(value * scale, tidy);
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

  switch (op) {
    case '+':
    case '-':
      return addOrSubtract(op, a, b, range, mismatch);
    case '*':
      return multiply(a, b);
    case '/':
      return divide(a, b, range);
    case '%':
      return modulo(a, b, range, mismatch);
    case '**':
    case '^':
      return power(a, b, range, mismatch);
  }
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
    return realResult(op === '+' ? x + y : x - y, a, b, op === '+' ? addRational : subtractRational);
  }
  if (a.kind === 'quantity' && b.kind === 'quantity') {
    if (!sameDimension(a.unit.dimension, b.unit.dimension)) return mismatch();
    // The right operand is a point on its scale only when it is the affine one (300 K − 20 °C);
    // otherwise it is a difference (0 °C + 10 K = 10 °C). See docs/semantics.md, "Temperatures".
    const asDifference = !(b.unit.offset !== 0 && a.unit.offset === 0);
    const y = convertMagnitude(b.value, b.unit, a.unit, asDifference);
    if (y === undefined) return mismatch();
    if (op === '-' && a.unit.offset !== 0 && b.unit.offset !== 0) {
      // Two points on offset scales (25 °C − 20 °C): their difference is an interval, 5 K, not the point
      // 5 °C; the right one is a point on the left one's scale (20 °C − 68 °F is 0 K).
      const point = convertMagnitude(b.value, b.unit, a.unit, false)!;
      return quantity(((a.value - point) * a.unit.num) / a.unit.den, coherentUnit(a.unit.dimension));
    }
    return quantity(op === '+' ? a.value + y : a.value - y, a.unit);
  }
  void range;
  return mismatch();
}

function multiply(a: Numeric, b: Numeric): Outcome {
  if (a.kind === 'integer' && b.kind === 'integer') return int(a.value * b.value);
  if (isPlainNumber(a) && isPlainNumber(b)) return realResult(asNumber(a) * asNumber(b), a, b, multiplyRational);
  if (a.kind === 'quantity' && b.kind === 'quantity') return quantityIn(a.value * b.value, multiplyUnits(a.unit, b.unit));
  if (a.kind === 'quantity' && isPlainNumber(b)) return quantity(a.value * asNumber(b), a.unit);
  if (b.kind === 'quantity' && isPlainNumber(a)) return quantity(asNumber(a) * b.value, b.unit);
  throw new Error('unreachable');
}

/** A Real result: its double, and its exact value when both operands have one (rational.ts). */
function realResult(approx: number, a: Scalar, b: Scalar, exactly: (x: Rational, y: Rational) => Rational | undefined): Scalar {
  const x = exactOf(a);
  const y = x && exactOf(b);
  const e = x && y ? exactly(x, y) : undefined;
  return e === undefined ? real(approx) : real(rationalToNumber(e, approx), e);
}

function isZero(v: Numeric): boolean {
  return v.kind === 'integer' ? v.value === 0n : v.value === 0;
}

function divide(a: Numeric, b: Numeric, range?: Place): Outcome {
  if (isZero(b)) return error(`division by zero: ${describeKind(a)} / ${describeKind(b)}`, range);
  // Integer / Integer is Rational in the library (IntegerFunctions::'/'): a Real here.
  if (isPlainNumber(a) && isPlainNumber(b)) return realResult(asNumber(a) / asNumber(b), a, b, divideRational);
  if (a.kind === 'quantity' && b.kind === 'quantity') return quantityIn(a.value / b.value, divideUnits(a.unit, b.unit));
  if (a.kind === 'quantity' && isPlainNumber(b)) return quantity(a.value / asNumber(b), a.unit);
  if (b.kind === 'quantity' && isPlainNumber(a)) return quantityIn(asNumber(a) / b.value, divideUnits(ONE, b.unit));
  throw new Error('unreachable');
}

function modulo(a: Numeric, b: Numeric, range: Place | undefined, mismatch: () => ValueError): Outcome {
  if (isZero(b)) return error(`modulo by zero: ${describeKind(a)} % ${describeKind(b)}`, range);
  // Truncated remainder (sign of the dividend), as JavaScript and Java compute it.
  if (a.kind === 'integer' && b.kind === 'integer') return int(a.value % b.value);
  if (isPlainNumber(a) && isPlainNumber(b)) return real(asNumber(a) % asNumber(b));
  if (a.kind === 'quantity' && b.kind === 'quantity') {
    const y = convertMagnitude(b.value, b.unit, a.unit, true);
    if (y === undefined) return mismatch();
    return quantity(a.value % y, a.unit);
  }
  if (a.kind === 'quantity' && isPlainNumber(b)) return quantity(a.value % asNumber(b), a.unit);
  return mismatch();
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
  if (isPlainNumber(a)) {
    const y = realPower(asNumber(a), e, range);
    // A whole exponent keeps an exact base exact (2.5 ** 2 is 25/4); any other is a double only.
    return typeof y === 'number' ? realResult(y, a, b, (x, n) => (n.d === 1n ? powerRational(x, n.n) : undefined)) : y;
  }
  const unit = powerUnit(a.unit, e);
  if (!unit) return error(`cannot raise ${describeKind(a)} to the power ${e}: the unit would have a fractional exponent`, range);
  const y = realPower(a.value, e, range);
  return typeof y === 'number' ? quantityIn(y, unit) : y;
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
  if (isPlainNumber(n)) return quantity(asNumber(n), dividing ? divideUnits(ONE, u) : u);
  if (n.kind === 'quantity') return quantityIn(n.value, dividing ? divideUnits(n.unit, u) : multiplyUnits(n.unit, u));
  return undefined;
}

/** `value [unit]`: attaches a unit to a number, or converts a quantity of the same dimension. */
export function withUnit(v: Value, u: Value, range?: Place): Outcome {
  const unit = single(u, '[', 'inside the brackets', range);
  if (unit.kind === 'error') return unit;
  if (unit.kind !== 'unit') return error(`expected a unit inside [ ], got ${describeKind(unit)}`, range);
  const items: Scalar[] = [];
  for (const x of itemsOf(v)) {
    if (isPlainNumber(x)) items.push(quantity(asNumber(x), unit.unit));
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
    if (isPlainNumber(q) && isDimensionless(to.dimension)) return quantity((asNumber(q) * to.den) / to.num, to);
    return error(`cannot convert ${describeKind(q)} to [${to.name}]`, range);
  }
  const v = convertMagnitude(q.value, q.unit, to);
  if (v === undefined) return error(`cannot convert [${q.unit.name}] to [${to.name}]: different dimensions`, range);
  return quantity(v, to);
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

/** Relative difference within which two doubles may be the same number, or in the other order, after rounding. */
const ROUNDING = 1e-9;

/**
 * Two numbers without exact values (a Real from a square root or a library function, a quantity)
 * that differ, but by no more than rounding may have made up (`0.1 [kg] + 0.2 [kg]` is
 * 0.30000000000000004 kg): which is larger, or whether they are equal, is not known from their
 * doubles, so the comparison is refused rather than answered from the rounding.
 */
function roundingDoubt(op: string, a: Scalar, b: Scalar, range?: Place): ValueError | undefined {
  let x: number;
  let y: number;
  if (isPlainNumber(a) && isPlainNumber(b)) {
    if (exactOf(a) && exactOf(b)) return undefined;
    x = asNumber(a);
    y = asNumber(b);
  } else if (a.kind === 'quantity' && b.kind === 'quantity' && a.unit.name === b.unit.name) {
    x = a.value;
    y = b.value;
  } else return undefined;
  if (x === y || !Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x - y) > ROUNDING * Math.max(Math.abs(x), Math.abs(y))) return undefined;
  return error(
    `'${op}' of ${format(a)} and ${format(b)}: they differ by less than the rounding of Reals computed in binary floating point (a value without an exact decimal one, from a function or a quantity), so whether they are equal or which is larger is not known; not decided`,
    range, 'unsupported',
  );
}

/** compare(), plus: a plain 0 compares with a quantity of any non-affine unit (zero is zero in m and km). */
function compareWithZero(a: Scalar, b: Scalar): number | undefined {
  const c = compare(a, b);
  if (c !== undefined) return c;
  if (a.kind === 'quantity' && isPlainNumber(b) && asNumber(b) === 0 && a.unit.offset === 0) return Math.sign(a.value);
  if (b.kind === 'quantity' && isPlainNumber(a) && asNumber(a) === 0 && b.unit.offset === 0) return -Math.sign(b.value);
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
      if (x.kind === 'real') return neg ? real(-x.value, x.exact && { n: -x.exact.n, d: x.exact.d }) : x;
      if (x.kind === 'quantity') return quantity(neg ? -x.value : x.value, x.unit);
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
