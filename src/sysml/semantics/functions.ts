// The library functions a modeler meets first (NumericalFunctions, SequenceFunctions, CollectionFunctions,
// TrigFunctions, ControlFunctions), plus the random functions uniform/normal/triangular; VectorFunctions
// and ComplexFunctions by qualified name.

import { argumentOf, complexArithmetic, complexResult, modulus, type ComplexOperator } from './complex';
import { arithmetic, comparison, convertQuantity, equality, single, truth, unary } from './operators';
import { drawNormal, drawTriangular, drawUniform, type Draws } from './random';
import { convertMagnitude, parseUnit, powerUnit, type Unit } from './units';
import {
  bool, complex, complexParts, describeKind, equals, error, errorOf, exactMagnitude, format, int, isError, isLoose, itemsOf, nameNotation, NULL, quantity, real,
  ROUNDING, sequence, str, type Outcome, type Scalar, type Place, type Value, type ValueError,
} from './values';

/** Smallest normal double: below it a double holds fewer than 53 bits. */
const MIN_NORMAL = 2.2250738585072014e-308;

/** A result no double holds near enough to decide with: infinite, or a non-zero number that underflowed. */
function outsideDoubles(name: string, v: number | string, y: number, ctx: CallContext): ValueError {
  return error(`${name}(${v}) is ${y}: outside the range of the binary floating point the engine computes with (about 2.2e-308 to 1.8e308 in size), so it is not a Real the engine can decide with; not decided`, ctx.range, 'unsupported');
}

/** The whole square root of n ≥ 0, or undefined when n is no square. */
function bigSqrt(n: bigint): bigint | undefined {
  if (n < 0n) return undefined;
  if (n < 2n) return n;
  // Newton's steps down from a power of two above the root, to the floor of the root.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2) + 1);
  for (;;) {
    const y = (x + n / x) / 2n;
    if (y >= x) break;
    x = y;
  }
  return x * x === n ? x : undefined;
}
import { decimalRational, rationalToNumber, type Rational } from './rational';

/** A body expression (`{in x; x > 0}`) applied to one element. */
export type Body = (item: Scalar, index: number) => Outcome;

export interface CallContext {
  readonly draws?: Draws;
  readonly range?: Place;
}

type Fn = (args: readonly Value[], ctx: CallContext) => Outcome;

const RAD = parseUnit('rad');

function arity(name: string, args: readonly Value[], min: number, max: number, ctx: CallContext): ValueError | undefined {
  if (args.length >= min && args.length <= max) return undefined;
  const want = min === max ? `${min}` : `${min} to ${max}`;
  return error(`${name}() takes ${want} argument${max === 1 ? '' : 's'}, got ${args.length}`, ctx.range);
}

/** Folds a sequence with a binary operator; empty gives `empty`. */
function fold(items: readonly Scalar[], op: '+' | '*', empty: Value, ctx: CallContext): Outcome {
  if (items.length === 0) return empty;
  let acc: Value = items[0]!;
  for (let i = 1; i < items.length; i++) {
    const next = arithmetic(op, acc, items[i]!, ctx.range);
    if (isError(next)) return next;
    acc = next;
  }
  return acc;
}

function extreme(name: 'min' | 'max', args: readonly Value[], ctx: CallContext): Outcome {
  // min(seq) over a sequence, or min(x, y, …) over the arguments. Each argument of the library's
  // min(x, y) is one value ([1]): a null or a sequence there is no argument to compare, not skipped
  // (max(x, 3) with x null answered 3 at proved).
  if (args.length > 1) {
    for (const [i, a] of args.entries()) {
      const one = single(a, `${name}()`, `as argument ${i + 1}`, ctx.range);
      if (isError(one)) return one;
    }
  }
  const items = args.length === 1 ? itemsOf(args[0]!) : args.flatMap((a) => itemsOf(a));
  if (items.length === 0) return NULL;
  let best: Scalar = items[0]!;
  for (let i = 1; i < items.length; i++) {
    const c = comparison(name === 'min' ? '<' : '>', items[i]!, best, ctx.range);
    if (isError(c)) return error(`${name}(): ${c.message}`, ctx.range);
    if (c.kind === 'boolean' && c.value) best = items[i]!;
  }
  return best;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** The numeric functions on an exact value, exactly (a double of 2.99999999999999999999 is 3.0). */
const ON_RATIONAL: Record<string, (r: Rational) => Rational> = {
  floor: (r) => ({ n: floorDiv(r.n, r.d), d: 1n }),
  ceiling: (r) => ({ n: -floorDiv(-r.n, r.d), d: 1n }),
  ceil: (r) => ({ n: -floorDiv(-r.n, r.d), d: 1n }),
  truncate: (r) => ({ n: r.n / r.d, d: 1n }),
  // Halves away from zero: sign · floor(|r| + 1/2).
  round: (r) => ({ n: (r.n < 0n ? -1n : 1n) * floorDiv(2n * (r.n < 0n ? -r.n : r.n) + r.d, 2n * r.d), d: 1n }),
  abs: (r) => ({ n: r.n < 0n ? -r.n : r.n, d: r.d }),
};

/** Where a whole-number function of x jumps: at whole numbers, or (round) halfway between. */
function nearStep(name: string, x: number, err: number): boolean {
  const at = name === 'round' ? Math.floor(Math.abs(x)) + 0.5 : Math.round(x);
  const d = name === 'round' ? Math.abs(Math.abs(x) - at) : Math.abs(x - at);
  return d <= err;
}

/** One numeric argument mapped through `f`; quantities keep their unit; an Integer goes through
 * `onInteger` exactly when given; `integral` results of a Real are Integers (floor, round…). An
 * exact value is mapped exactly; an inexact one next to where an integral function jumps is refused. */
function numeric(name: string, f: (x: number) => number, integral: boolean, onInteger?: (x: bigint) => bigint): Fn {
  return (args, ctx) => {
    const bad = arity(name, args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, `${name}()`, 'as its argument', ctx.range);
    if (isError(x)) return x;
    if (x.kind === 'integer') return onInteger ? int(onInteger(x.value)) : integral ? x : real(f(Number(x.value)));
    if (x.kind !== 'real' && x.kind !== 'quantity') return error(`${name}() needs a number, got ${describeKind(x)}`, ctx.range);
    const exact = exactMagnitude(x);
    const onRational = ON_RATIONAL[name];
    let y: number;
    let ye: Rational | undefined;
    let err: number | undefined;
    if (exact && onRational) {
      ye = onRational(exact);
      y = rationalToNumber(ye, f(x.value));
    } else {
      y = f(x.value);
      err = errorOf(x);
      if (integral && err > 0 && Number.isFinite(x.value) && nearStep(name, x.value, err)) {
        return error(`${name}(${format(x)}): the argument is within the rounding of Reals computed in binary floating point (±${err.toPrecision(2)}) of where ${name} jumps, so its value is not known; not decided`, ctx.range, 'unsupported');
      }
      // A whole number decided past the argument's error is exact; abs keeps the error.
      if (integral && Number.isFinite(y)) ye = { n: BigInt(y), d: 1n };
    }
    if (x.kind === 'real') return integral && Number.isFinite(y) ? int(ye ? ye.n : BigInt(y)) : real(y, ye, ye ? undefined : err, !ye && isLoose(x));
    return quantity(y, x.unit, ye, ye ? undefined : err, !ye && isLoose(x));
  };
}

/** The error of an inexact argument (and of a double standing for an exact one) carried through f. */
function argumentError(x: Scalar, v: number, converted: boolean): number {
  const e = errorOf(x) + (exactMagnitude(x) ? 2 ** -52 * Math.abs(v) : 0);
  return converted ? e * Math.PI / 180 + ROUNDING * Math.abs(v) : e;
}

/** The transcendental functions' whole values at 0 and 1. */
const EXACT_AT: Record<string, Record<number, number>> = {
  sin: { 0: 0 }, cos: { 0: 1 }, tan: { 0: 0 }, exp: { 0: 1 }, ln: { 1: 0 }, log: { 1: 0 }, log10: { 1: 0 },
  arcsin: { 0: 0 }, arccos: { 1: 0 }, arctan: { 0: 0 },
};

/** A transcendental function of a plain number (angles for trig are converted to radians). The result
 * carries the argument's error: through the function's slope (at most 1 for sin, cos and arctan), or
 * over the interval the argument may lie in for the others (monotone there; tan without a pole). */
function transcendental(name: string, f: (x: number) => number, angle: boolean): Fn {
  return (args, ctx) => {
    const bad = arity(name, args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, `${name}()`, 'as its argument', ctx.range);
    if (isError(x)) return x;
    let v: number | undefined;
    if (x.kind === 'integer') v = Number(x.value);
    else if (x.kind === 'real') v = x.value;
    else if (x.kind === 'quantity' && angle) v = convertMagnitude(x.value, x.unit, RAD);
    if (v === undefined) return error(`${name}() needs ${angle ? 'a number or an angle' : 'a number'}, got ${describeKind(x)}`, ctx.range);
    const y = f(v);
    if (Number.isNaN(y)) return error(`${name}(${v}) is undefined`, ctx.range);
    if (!Number.isFinite(y) || (name === 'exp' && Math.abs(y) < MIN_NORMAL)) return outsideDoubles(name, v, y, ctx);
    // At 0 (ln and log at 1, arccos at 1) the value is a whole number exactly; at any other exact
    // argument it is irrational (Lindemann–Weierstrass), so no exact value is lost elsewhere.
    const exact = exactMagnitude(x);
    const at = exact && exact.d === 1n && (exact.n === 0n || exact.n === 1n) && (x.kind !== 'quantity' || x.unit.name === 'rad') ? Number(exact.n) : undefined;
    const special = at === undefined ? undefined : EXACT_AT[name]?.[at];
    if (special !== undefined) return real(special, { n: BigInt(special), d: 1n });
    // log10 of a whole power of ten is that power.
    if (name === 'log10' && exact && exact.d === 1n && /^10*$/.test(exact.n.toString())) return real(y, { n: BigInt(exact.n.toString().length - 1), d: 1n });
    const ev = x.kind === 'integer' && Number.isSafeInteger(v) ? 0 : argumentError(x, v, x.kind === 'quantity' && x.unit.name !== 'rad');
    // Any other value is irrational: no double holds it (loose).
    if (ev === 0) return real(y, undefined, undefined, true);
    let spread: number;
    if (name === 'sin' || name === 'cos' || name === 'arctan') spread = ev;
    else {
      const lo = f(v - ev);
      const hi = f(v + ev);
      const pole = name === 'tan' && Math.sign(Math.cos(v - ev)) !== Math.sign(Math.cos(v + ev));
      if (Number.isNaN(lo) || Number.isNaN(hi) || pole) {
        return error(`${name}(${format(x)}): the argument is known only to within the rounding of Reals computed in binary floating point (±${ev.toPrecision(2)}), and ${name} is not defined (or jumps) within that; not decided`, ctx.range, 'unsupported');
      }
      spread = Math.max(Math.abs(hi - y), Math.abs(y - lo));
    }
    return real(y, undefined, spread + ROUNDING * Math.abs(y), true);
  };
}

/** Numbers of a random function's arguments, all in the first quantity's unit (bare numbers read in it). */
function drawArguments(name: string, args: readonly Value[], count: number, ctx: CallContext): { values: number[]; unit?: Unit } | ValueError {
  const bad = arity(name, args, count, count, ctx);
  if (bad) return bad;
  const values: number[] = [];
  let unit: Unit | undefined;
  for (let i = 0; i < count; i++) {
    const x = single(args[i]!, `${name}()`, `as argument ${i + 1}`, ctx.range);
    if (isError(x)) return x;
    if (x.kind === 'integer') values.push(Number(x.value));
    else if (x.kind === 'real') values.push(x.value);
    else if (x.kind === 'quantity') {
      unit ??= x.unit;
      // normal's stddev is a spread, so a difference: no zero shift.
      const v = convertMagnitude(x.value, x.unit, unit, name === 'normal' && i === 1);
      if (v === undefined) return error(`${name}(): argument ${i + 1} in [${x.unit.name}] does not match [${unit.name}]`, ctx.range);
      values.push(v);
    } else return error(`${name}() needs numbers, got ${describeKind(x)} as argument ${i + 1}`, ctx.range);
  }
  return unit ? { values, unit } : { values };
}

function draw(name: string, count: number, f: (v: number[], draws: Draws) => number | string): Fn {
  return (args, ctx) => {
    const a = drawArguments(name, args, count, ctx);
    if ('kind' in a) return a;
    const result = f(a.values, ctx.draws ?? {});
    if (typeof result === 'string') return error(result, ctx.range);
    return a.unit ? quantity(result, a.unit) : real(result);
  };
}

const plainAbs = numeric('abs', Math.abs, false, (x) => (x < 0n ? -x : x));
/** abs, refusing a temperature on an offset scale: |−20 °C| is 20 °C on the scale, 253.15 K (−20 °C) from 0 K. */
const numericAbs: Fn = (args, ctx) => {
  const x = args.length === 1 ? single(args[0]!, 'abs()', 'as its argument', ctx.range) : undefined;
  if (x && x.kind === 'quantity' && x.unit.offset !== 0) {
    return error(`abs(${format(x)}): a temperature on an offset scale (°C, °F), whose absolute value depends on where the scale puts zero; not decided: convert it to [K] first, or take abs of a difference (t - t0)`, ctx.range, 'unsupported');
  }
  return plainAbs(args, ctx);
};

const FUNCTIONS: Record<string, Fn> = {
  sum: (args, ctx) => arity('sum', args, 1, 1, ctx) ?? fold(itemsOf(args[0]!), '+', int(0), ctx),
  product: (args, ctx) => arity('product', args, 1, 1, ctx) ?? fold(itemsOf(args[0]!), '*', int(1), ctx),
  size: (args, ctx) => arity('size', args, 1, 1, ctx) ?? int(itemsOf(args[0]!).length),
  isEmpty: (args, ctx) => arity('isEmpty', args, 1, 1, ctx) ?? bool(itemsOf(args[0]!).length === 0),
  notEmpty: (args, ctx) => arity('notEmpty', args, 1, 1, ctx) ?? bool(itemsOf(args[0]!).length > 0),
  includes: (args, ctx) => arity('includes', args, 2, 2, ctx) ?? asBool(includesAll(args[0]!, args[1]!, ctx, 'includes')),
  excludes: (args, ctx) => {
    const bad = arity('excludes', args, 2, 2, ctx);
    if (bad) return bad;
    for (const y of itemsOf(args[1]!)) {
      const m = memberOf(itemsOf(args[0]!), y, ctx, 'excludes');
      if (m !== false) return typeof m === 'boolean' ? bool(false) : m;
    }
    return bool(true);
  },
  first: (args, ctx) => arity('first', args, 1, 1, ctx) ?? (itemsOf(args[0]!)[0] ?? NULL),
  last: (args, ctx) => arity('last', args, 1, 1, ctx) ?? (itemsOf(args[0]!).at(-1) ?? NULL),
  min: (args, ctx) => (args.length === 0 ? error('min() needs at least one argument', ctx.range) : extreme('min', args, ctx)),
  max: (args, ctx) => (args.length === 0 ? error('max() needs at least one argument', ctx.range) : extreme('max', args, ctx)),
  // On a Complex, NumericalFunctions::abs is its specialization ComplexFunctions::abs, the modulus.
  abs: (args, ctx) => {
    const x = args.length === 1 ? single(args[0]!, 'abs()', 'as its argument', ctx.range) : undefined;
    if (x?.kind === 'complex') return real(modulus(x));
    return numericAbs(args, ctx);
  },
  floor: numeric('floor', Math.floor, true),
  ceiling: numeric('ceiling', Math.ceil, true),
  ceil: numeric('ceil', Math.ceil, true),
  // RealFunctions::round: halves away from zero.
  round: numeric('round', (x) => Math.sign(x) * Math.round(Math.abs(x)), true),
  truncate: numeric('truncate', Math.trunc, true),
  sqrt: (args, ctx) => {
    const bad = arity('sqrt', args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, 'sqrt()', 'as its argument', ctx.range);
    if (isError(x)) return x;
    const v = x.kind === 'integer' ? Number(x.value) : x.kind === 'real' || x.kind === 'quantity' ? x.value : undefined;
    if (v === undefined) return error(`sqrt() needs a number, got ${describeKind(x)}`, ctx.range);
    const ev = argumentError(x, v, false) * (x.kind === 'integer' && Number.isSafeInteger(v) ? 0 : 1);
    if (v < 0 && v + ev < 0) return error(`sqrt() of a negative number (${v})`, ctx.range);
    if (v - ev < 0 && ev > 0) {
      return error(`sqrt(${format(x)}): the argument is within the rounding of Reals computed in binary floating point (±${ev.toPrecision(2)}) of 0, and may be negative, where sqrt has no Real value; not decided`, ctx.range, 'unsupported');
    }
    const y = Math.sqrt(v);
    if (!Number.isFinite(y) || (v !== 0 && y < MIN_NORMAL)) return outsideDoubles('sqrt', v, y, ctx);
    // The square of a rational has its root exactly (sqrt(6.25) is 2.5, sqrt(1/9) is 1/3); any other
    // root no double holds (loose).
    const exact = exactMagnitude(x);
    const rn = exact ? bigSqrt(exact.n) : undefined;
    const rd = exact && rn !== undefined ? bigSqrt(exact.d) : undefined;
    const root = rn !== undefined && rd !== undefined ? { n: rn, d: rd } : undefined;
    const err = root ? undefined : Math.max(Math.sqrt(v + ev) - y, y - Math.sqrt(Math.max(0, v - ev))) + ROUNDING * y;
    if (x.kind !== 'quantity') return real(root ? rationalToNumber(root, y) : y, root, err, !root);
    const unit = powerUnit(x.unit, 0.5);
    if (!unit) return error(`sqrt() of [${x.unit.name}] has no unit: an exponent would be fractional`, ctx.range);
    return quantity(root ? rationalToNumber(root, y) : y, unit, root, err, !root);
  },
  exp: transcendental('exp', Math.exp, false),
  ln: transcendental('ln', (x) => (x > 0 ? Math.log(x) : NaN), false),
  log: transcendental('log', (x) => (x > 0 ? Math.log(x) : NaN), false),
  log10: transcendental('log10', (x) => (x > 0 ? Math.log10(x) : NaN), false),
  sin: transcendental('sin', Math.sin, true),
  cos: transcendental('cos', Math.cos, true),
  tan: transcendental('tan', Math.tan, true),
  arcsin: transcendental('arcsin', Math.asin, false),
  arccos: transcendental('arccos', Math.acos, false),
  arctan: transcendental('arctan', Math.atan, false),
  allTrue: (args, ctx) => allAny('allTrue', args, ctx, true),
  anyTrue: (args, ctx) => allAny('anyTrue', args, ctx, false),
  uniform: draw('uniform', 2, ([min, max], d) => drawUniform(min!, max!, d)),
  normal: draw('normal', 2, ([mean, sd], d) => drawNormal(mean!, sd!, d)),
  triangular: draw('triangular', 3, ([low, mode, high], d) => drawTriangular(low!, mode!, high!, d)),
  head: (args, ctx) => arity('head', args, 1, 1, ctx) ?? (itemsOf(args[0]!)[0] ?? NULL),
  tail: (args, ctx) => arity('tail', args, 1, 1, ctx) ?? sequence(itemsOf(args[0]!).slice(1)),
  union: (args, ctx) => arity('union', args, 2, 2, ctx) ?? sequence([args[0]!, args[1]!]),
  including: (args, ctx) => arity('including', args, 2, 2, ctx) ?? sequence([args[0]!, args[1]!]),
  excluding: (args, ctx) => arity('excluding', args, 2, 2, ctx)
    ?? filterBy(args[0]!, args[1]!, false, ctx, 'excluding'),
  intersection: (args, ctx) => arity('intersection', args, 2, 2, ctx)
    ?? filterBy(args[0]!, args[1]!, true, ctx, 'intersection'),
  includesOnly: (args, ctx) => {
    const bad = arity('includesOnly', args, 2, 2, ctx);
    if (bad) return bad;
    const one = includesAll(args[0]!, args[1]!, ctx, 'includesOnly');
    if (one !== true) return asBool(one);
    return asBool(includesAll(args[1]!, args[0]!, ctx, 'includesOnly'));
  },
  subsequence: (args, ctx) => {
    const bad = arity('subsequence', args, 2, 3, ctx);
    if (bad) return bad;
    const items = itemsOf(args[0]!);
    const bounds: number[] = [];
    for (const [i, a] of args.slice(1).entries()) {
      const x = single(a, 'subsequence()', i === 0 ? 'as the start index' : 'as the end index', ctx.range);
      if (isError(x)) return x;
      if (x.kind !== 'integer') return error(`subsequence() needs Integer indexes, got ${describeKind(x)}`, ctx.range);
      bounds.push(Number(x.value));
    }
    const [from, to = items.length] = bounds;
    return sequence(items.slice(Math.max(0, from! - 1), Math.max(0, to)));
  },
  isZero: numericTest('isZero', (x) => x === 0),
  isUnit: numericTest('isUnit', (x) => x === 1),
  Length: (args, ctx) => {
    const bad = arity('Length', args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, 'Length()', 'as its argument', ctx.range);
    if (isError(x)) return x;
    return x.kind === 'string' ? int([...x.value].length) : error(`Length() needs a String, got ${describeKind(x)}`, ctx.range);
  },
  Substring: (args, ctx) => {
    const bad = arity('Substring', args, 3, 3, ctx);
    if (bad) return bad;
    const [x, lo, hi] = args.map((a) => single(a, 'Substring()', 'as an argument', ctx.range));
    for (const v of [x!, lo!, hi!]) if (isError(v)) return v;
    if (x!.kind !== 'string' || lo!.kind !== 'integer' || hi!.kind !== 'integer') {
      return error('Substring() needs a String and two Integers', ctx.range);
    }
    // 1-based, both ends inclusive. StringFunctions declares Substring without a body: what it gives
    // for bounds outside the string (or crossed by more than an empty range) is not said, so refused.
    const chars = [...x!.value];
    const l = lo!.value;
    const h = hi!.value;
    if (l < 1n || h > BigInt(chars.length) || h < l - 1n) {
      return error(`Substring() from ${l} to ${h} of a String of ${chars.length} characters: the library does not say what it gives outside 1..${chars.length}`, ctx.range, 'unsupported');
    }
    return str(chars.slice(Number(l) - 1, Number(h)).join(''));
  },
  ToString: (args, ctx) => {
    const bad = arity('ToString', args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, 'ToString()', 'as its argument', ctx.range);
    if (isError(x)) return x;
    if (x.kind === 'complex') return complexHasNoText('ToString', ctx);
    return str(x.kind === 'string' ? x.value : format(x));
  },
  ToInteger: (args, ctx) => {
    const bad = arity('ToInteger', args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, 'ToInteger()', 'as its argument', ctx.range);
    if (isError(x)) return x;
    if (x.kind === 'integer') return x;
    // An exact value decides, not its double (ToInteger(2.99999999999999999999) is 2; bigint division truncates).
    if (x.kind === 'real' && x.exact) return int(ON_RATIONAL.truncate!(x.exact).n);
    if (x.kind === 'real' && Number.isFinite(x.value)) {
      const e = errorOf(x);
      if (e > 0 && nearStep('truncate', x.value, e)) {
        return error(`ToInteger() of ${format(x)}: a whole number lies within the rounding of its argument (a value a function computed, or a difference of nearly equal numbers), so which one it gives is not known; not decided`, ctx.range, 'unsupported');
      }
      return int(BigInt(Math.trunc(x.value)));
    }
    if (x.kind === 'string' && /^\s*[+-]?[0-9]+\s*$/.test(x.value)) return int(BigInt(x.value.trim()));
    return error(`ToInteger() cannot convert ${x.kind === 'string' ? JSON.stringify(x.value) : describeKind(x)}`, ctx.range);
  },
  ToReal: (args, ctx) => {
    const bad = arity('ToReal', args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, 'ToReal()', 'as its argument', ctx.range);
    if (isError(x)) return x;
    // The Real an Integer or a decimal text is, exactly (rational.ts).
    if (x.kind === 'integer') return real(Number(x.value), { n: x.value, d: 1n });
    if (x.kind === 'real') return x;
    // A decimal as a Real literal writes it, with its exact value (`ToReal("0.1")` is one tenth); not
    // JavaScript's other spellings (`0x10`, `Infinity`), and not a number outside the doubles without it.
    if (x.kind === 'string' && /^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$/.test(x.value)) {
      const v = Number(x.value);
      const exact = decimalRational(x.value.trim().replace(/^\+/, ''));
      if (exact && Number.isFinite(v) && (v === 0 || Math.abs(v) >= MIN_NORMAL)) return real(v, exact);
      if (!Number.isFinite(v) || Math.abs(v) < MIN_NORMAL) return outsideDoubles('ToReal', JSON.stringify(x.value), v, ctx);
      return real(v, exact);
    }
    return error(`ToReal() cannot convert ${x.kind === 'string' ? JSON.stringify(x.value) : describeKind(x)}`, ctx.range);
  },
  // SequenceFunctions (KerML 9.2.x, library SequenceFunctions.kerml), computed as their library bodies read.
  // equals / same: the same size and pairwise `==` / `===`.
  equals: pairwise('equals', '=='),
  same: pairwise('same', '==='),
  // includingAt: the library's body, (seq->subsequence(1, index - 1), values, seq->subsequence(index + 1)),
  // puts the values in the place of the element at index, while its name (and addAt) say they are
  // inserted before it. Both readings agree only at index = size + 1 (appending), the one index answered;
  // any other is refused rather than guessed (docs/semantics.md#library-functions).
  includingAt: (args, ctx) => {
    const bad = arity('includingAt', args, 3, 3, ctx);
    if (bad) return bad;
    const index = positiveIndex('includingAt', args[2]!, 'as the index', ctx);
    if (typeof index !== 'number') return index;
    const items = itemsOf(args[0]!);
    if (index !== items.length + 1) {
      return error(
        `SequenceFunctions::includingAt at index ${index} of a sequence of ${items.length}: the library's body (seq->subsequence(1, index - 1), values, seq->subsequence(index + 1)) replaces the element at index, its name says insert before it; the reference engine answers only index size + 1 (append), where both agree`,
        ctx.range,
        'unsupported',
      );
    }
    return sequence([...items, ...itemsOf(args[1]!)]);
  },
  // excludingAt: (seq->subsequence(1, startIndex - 1), seq->subsequence(endIndex + 1)); endIndex defaults to startIndex.
  excludingAt: (args, ctx) => {
    const bad = arity('excludingAt', args, 2, 3, ctx);
    if (bad) return bad;
    const from = positiveIndex('excludingAt', args[1]!, 'as the start index', ctx);
    if (typeof from !== 'number') return from;
    const to = args.length === 3 ? positiveIndex('excludingAt', args[2]!, 'as the end index', ctx) : from;
    if (typeof to !== 'number') return to;
    const items = itemsOf(args[0]!);
    return sequence([...items.slice(0, from - 1), ...items.slice(to)]);
  },
  // TrigFunctions::deg/rad/cot, as their library bodies: theta_rad * 180 / pi, theta_deg * pi / 180,
  // cos(theta) / sin(theta); Real arguments (an angle quantity is not a Real).
  deg: realFunction('deg', (x) => (x * 180) / Math.PI),
  rad: realFunction('rad', (x) => (x * Math.PI) / 180),
  cot: realFunction('cot', (x) => Math.cos(x) / Math.sin(x)),
  convert: (args, ctx) => {
    const bad = arity('convert', args, 2, 2, ctx);
    if (bad) return bad;
    const q = single(args[0]!, 'convert()', 'to convert', ctx.range);
    if (isError(q)) return q;
    const u = single(args[1]!, 'convert()', 'as the unit', ctx.range);
    if (isError(u)) return u;
    if (u.kind !== 'unit') return error(`convert() needs a unit as its second argument, got ${describeKind(u)}`, ctx.range);
    return convertQuantity(q, u.unit, ctx.range);
  },
};

/** SequenceFunctions::equals / same: size(x) == size(y) and (1..size(x))->forAll {in i; x#(i) op y#(i)}. */
function pairwise(name: string, op: '==' | '==='): Fn {
  return (args, ctx) => {
    const bad = arity(name, args, 2, 2, ctx);
    if (bad) return bad;
    const x = itemsOf(args[0]!);
    const y = itemsOf(args[1]!);
    if (x.length !== y.length) return bool(false);
    for (let i = 0; i < x.length; i++) {
      const c = equality(op, x[i]!, y[i]!, ctx.range);
      if (isError(c)) return c;
      if (c.kind === 'boolean' && !c.value) return bool(false);
    }
    return bool(true);
  };
}

/** A Positive index argument (SequenceFunctions' `index: Positive[1]`). */
function positiveIndex(name: string, arg: Value, what: string, ctx: CallContext): number | ValueError {
  const x = single(arg, `${name}()`, what, ctx.range);
  if (isError(x)) return x;
  if (x.kind !== 'integer' || x.value < 1n) return error(`${name}() needs a Positive ${what.replace(/^as the /, '')}, got ${describeKind(x)}${x.kind === 'integer' ? ` ${x.value}` : ''}`, ctx.range);
  return Number(x.value);
}

/** A function of one Real (an Integer reads as a Real); a quantity or anything else is an error. */
function realFunction(name: string, f: (x: number) => number): Fn {
  return (args, ctx) => {
    const bad = arity(name, args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, `${name}()`, 'as its argument', ctx.range);
    if (isError(x)) return x;
    const v = x.kind === 'integer' ? Number(x.value) : x.kind === 'real' ? x.value : undefined;
    if (v === undefined) return error(`${name}() needs a Real, got ${describeKind(x)}`, ctx.range);
    const y = f(v);
    if (!Number.isFinite(y)) return error(`${name}(${v}) is undefined`, ctx.range);
    // deg(0.0) and rad(0.0) are 0; otherwise π enters and no double holds the result.
    if (y === 0 && v === 0 && name !== 'cot') return real(0, { n: 0n, d: 1n });
    const slope = name === 'deg' ? 180 / Math.PI : name === 'rad' ? Math.PI / 180 : 1 + y * y;
    return real(y, undefined, slope * errorOf(x) + 2 * ROUNDING * Math.abs(y), true);
  };
}

// ---------------------------------------------------------------------------------------------------
// VectorFunctions (KerML 9.2.x, library VectorFunctions.kerml) over Cartesian vectors. Assay holds a
// Cartesian vector as the ordered sequence of its Real elements (CartesianVectorOf(components) is its
// components), so `(1.0, 2.0)` passed where a vector is expected is the vector with those elements.
// A sequence of vectors cannot be held (it would flatten), so functions over collections of vectors
// (sum, sum0) and cartesianZeroVector are refused by name.

function vectorOf(name: string, arg: Value, what: string, ctx: CallContext): number[] | ValueError {
  const out: number[] = [];
  for (const x of itemsOf(arg)) {
    if (x.kind === 'integer') out.push(Number(x.value));
    else if (x.kind === 'real') out.push(x.value);
    else return error(`${name}() needs a Cartesian vector of Reals ${what}, got ${describeKind(x)}`, ctx.range);
  }
  if (out.length === 0) return error(`${name}() needs a Cartesian vector ${what}, got an empty sequence`, ctx.range);
  return out;
}

function vectorValue(xs: readonly number[]): Value {
  return sequence(xs.map((x) => real(x)));
}

function sameDimensions(name: string, v: number[], w: number[], ctx: CallContext): ValueError | undefined {
  return v.length === w.length ? undefined : error(`${name}(): the vectors have dimensions ${v.length} and ${w.length} (its precondition: equal dimensions)`, ctx.range);
}

function realArgument(name: string, arg: Value, what: string, ctx: CallContext): number | ValueError {
  const x = single(arg, `${name}()`, what, ctx.range);
  if (isError(x)) return x;
  if (x.kind === 'integer') return Number(x.value);
  if (x.kind === 'real') return x.value;
  return error(`${name}() needs a Real ${what}, got ${describeKind(x)}`, ctx.range);
}

const inner = (v: number[], w: number[]): number => v.reduce((acc, x, i) => acc + x * w[i]!, 0);

const VECTOR_FUNCTIONS: Record<string, Fn> = {
  CartesianVectorOf: (args, ctx) => {
    const bad = arity('CartesianVectorOf', args, 1, 1, ctx);
    if (bad) return bad;
    const v = vectorOf('CartesianVectorOf', args[0]!, 'as its components', ctx);
    return Array.isArray(v) ? vectorValue(v) : v;
  },
  CartesianThreeVectorOf: (args, ctx) => {
    const bad = arity('CartesianThreeVectorOf', args, 1, 1, ctx);
    if (bad) return bad;
    const v = vectorOf('CartesianThreeVectorOf', args[0]!, 'as its components', ctx);
    if (!Array.isArray(v)) return v;
    return v.length === 3 ? vectorValue(v) : error(`CartesianThreeVectorOf() needs 3 components, got ${v.length}`, ctx.range);
  },
  isCartesianZeroVector: (args, ctx) => {
    const bad = arity('isCartesianZeroVector', args, 1, 1, ctx);
    if (bad) return bad;
    const v = vectorOf('isCartesianZeroVector', args[0]!, 'as its argument', ctx);
    return Array.isArray(v) ? bool(v.every((x) => x === 0)) : v;
  },
  // 'cartesian+'(v, w): elementwise sum; w absent (null) gives v.
  'cartesian+': (args, ctx) => {
    const bad = arity('cartesian+', args, 1, 2, ctx);
    if (bad) return bad;
    const v = vectorOf('cartesian+', args[0]!, 'as its first argument', ctx);
    if (!Array.isArray(v)) return v;
    if (args.length === 1 || itemsOf(args[1]!).length === 0) return vectorValue(v);
    const w = vectorOf('cartesian+', args[1]!, 'as its second argument', ctx);
    if (!Array.isArray(w)) return w;
    return sameDimensions('cartesian+', v, w, ctx) ?? vectorValue(v.map((x, i) => x + w[i]!));
  },
  // 'cartesian-'(v, w): elementwise difference; w absent negates v.
  'cartesian-': (args, ctx) => {
    const bad = arity('cartesian-', args, 1, 2, ctx);
    if (bad) return bad;
    const v = vectorOf('cartesian-', args[0]!, 'as its first argument', ctx);
    if (!Array.isArray(v)) return v;
    if (args.length === 1 || itemsOf(args[1]!).length === 0) return vectorValue(v.map((x) => -x));
    const w = vectorOf('cartesian-', args[1]!, 'as its second argument', ctx);
    if (!Array.isArray(w)) return w;
    return sameDimensions('cartesian-', v, w, ctx) ?? vectorValue(v.map((x, i) => x - w[i]!));
  },
  cartesianScalarVectorMult: (args, ctx) => {
    const bad = arity('cartesianScalarVectorMult', args, 2, 2, ctx);
    if (bad) return bad;
    const x = realArgument('cartesianScalarVectorMult', args[0]!, 'as the scalar', ctx);
    if (typeof x !== 'number') return x;
    const v = vectorOf('cartesianScalarVectorMult', args[1]!, 'as the vector', ctx);
    return Array.isArray(v) ? vectorValue(v.map((y) => x * y)) : v;
  },
  cartesianVectorScalarMult: (args, ctx) => {
    const bad = arity('cartesianVectorScalarMult', args, 2, 2, ctx);
    if (bad) return bad;
    const v = vectorOf('cartesianVectorScalarMult', args[0]!, 'as the vector', ctx);
    if (!Array.isArray(v)) return v;
    const x = realArgument('cartesianVectorScalarMult', args[1]!, 'as the scalar', ctx);
    return typeof x === 'number' ? vectorValue(v.map((y) => x * y)) : x;
  },
  cartesianInner: (args, ctx) => {
    const bad = arity('cartesianInner', args, 2, 2, ctx);
    if (bad) return bad;
    const v = vectorOf('cartesianInner', args[0]!, 'as its first argument', ctx);
    if (!Array.isArray(v)) return v;
    const w = vectorOf('cartesianInner', args[1]!, 'as its second argument', ctx);
    if (!Array.isArray(w)) return w;
    return sameDimensions('cartesianInner', v, w, ctx) ?? real(inner(v, w));
  },
  // cartesianNorm: sqrt(cartesianInner(v, v)); norm of a Cartesian vector is its cartesianNorm.
  cartesianNorm: (args, ctx) => {
    const bad = arity('cartesianNorm', args, 1, 1, ctx);
    if (bad) return bad;
    const v = vectorOf('cartesianNorm', args[0]!, 'as its argument', ctx);
    return Array.isArray(v) ? real(Math.sqrt(inner(v, v))) : v;
  },
};
VECTOR_FUNCTIONS.norm = (args, ctx) => VECTOR_FUNCTIONS.cartesianNorm!(args, ctx);
VECTOR_FUNCTIONS.inner = (args, ctx) => VECTOR_FUNCTIONS.cartesianInner!(args, ctx);

// ---------------------------------------------------------------------------------------------------
// ComplexFunctions (KerML Kernel Function Library, ComplexFunctions.kerml). An Integer or Real argument
// is a Complex (ScalarValues: Real specializes Complex). Where no argument is a Complex value, the
// library's specialization for Reals (RealFunctions::'*' … specialize ComplexFunctions::'*' …) applies,
// which is the engine's Real operation; with a Complex argument, complex arithmetic (./complex).

const complexName = (name: string): string => `ComplexFunctions::${nameNotation(name)}`;

/** An argument for a `Complex[1]` parameter: an Integer, Real or Complex. */
/** A one-argument ComplexFunctions function: its arity and its Complex (or Real) argument checked, then `f`. */
function oneComplex(name: string, f: (x: Scalar, ctx: CallContext) => Outcome): Fn {
  return (args, ctx) => {
    const bad = arity(complexName(name), args, 1, 1, ctx);
    if (bad) return bad;
    const x = complexArgument(name, args[0]!, 'x', ctx);
    return isError(x) ? x : f(x, ctx);
  };
}

function complexArgument(name: string, arg: Value, param: string, ctx: CallContext): Scalar | ValueError {
  const x = single(arg, `ComplexFunctions::${name}`, `as ${param}`, ctx.range);
  if (isError(x)) return x;
  if (!complexParts(x)) return error(`${complexName(name)} needs a Complex as ${param}, got ${describeKind(x)}`, ctx.range);
  return x;
}

/** The library gives Complex no notation (ToString and ToComplex have no bodies), so no text is made up. */
function complexHasNoText(name: 'ToString' | 'ToComplex', ctx: CallContext): ValueError {
  return error(
    `${complexName(name)} has no semantics in the reference engine: the library gives a Complex no text form (the function has no body and there is no Complex literal)`,
    ctx.range,
    'unsupported',
  );
}

/** A binary operator of ComplexFunctions; `'+'` and `'-'` with no y (or a null y) are unary. */
function complexOperator(op: ComplexOperator, unaryAllowed: boolean): Fn {
  return (args, ctx) => {
    const bad = arity(complexName(op), args, unaryAllowed ? 1 : 2, 2, ctx);
    if (bad) return bad;
    const x = complexArgument(op, args[0]!, 'x', ctx);
    if (isError(x)) return x;
    if (unaryAllowed && (args.length === 1 || itemsOf(args[1]!).length === 0)) return unary(op as '+' | '-', x, ctx.range);
    const y = complexArgument(op, args[1]!, 'y', ctx);
    if (isError(y)) return y;
    if (x.kind !== 'complex' && y.kind !== 'complex') return arithmetic(op, x, y, ctx.range);
    return complexArithmetic(op, x, y, complexName(op), ctx.range);
  };
}

/** ComplexFunctions::sum / product: the library's defaults, sum0(collection, rect(0.0, 0.0)) and
 * product1(collection, rect(1.0, 0.0)): a fold from the Complex 0 (1). */
function complexFold(name: 'sum' | 'product', op: '+' | '*', empty: Scalar): Fn {
  return (args, ctx) => {
    const bad = arity(complexName(name), args, 1, 1, ctx);
    if (bad) return bad;
    const items = itemsOf(args[0]!);
    for (const x of items) {
      if (!complexParts(x)) return error(`${complexName(name)} needs a collection of Complex, got ${describeKind(x)}`, ctx.range);
    }
    return items.length === 0 ? empty : fold(items, op, empty, ctx);
  };
}

const COMPLEX_FUNCTIONS: Record<string, Fn> = {
  rect: (args, ctx) => {
    const bad = arity(complexName('rect'), args, 2, 2, ctx);
    if (bad) return bad;
    const re = realArgument(complexName('rect'), args[0]!, 'as re', ctx);
    if (typeof re !== 'number') return re;
    const im = realArgument(complexName('rect'), args[1]!, 'as im', ctx);
    if (typeof im !== 'number') return im;
    return complexResult({ re, im }, complexName('rect'), ctx.range);
  },
  polar: (args, ctx) => {
    const bad = arity(complexName('polar'), args, 2, 2, ctx);
    if (bad) return bad;
    const r = realArgument(complexName('polar'), args[0]!, 'as abs', ctx);
    if (typeof r !== 'number') return r;
    const theta = realArgument(complexName('polar'), args[1]!, 'as arg', ctx);
    if (typeof theta !== 'number') return theta;
    return complexResult({ re: r * Math.cos(theta), im: r * Math.sin(theta) }, complexName('polar'), ctx.range);
  },
  // RealFunctions::re and im on a Real: `x` and `0.0`, their library bodies.
  re: oneComplex('re', (x) => (x.kind === 'complex' ? real(x.re) : x)),
  im: oneComplex('im', (x) => real(x.kind === 'complex' ? x.im : 0)),
  // The library bodies: re(x) == 0.0 and im(x) == 0.0; re(x) == 1.0 and im(x) == 0.0.
  isZero: oneComplex('isZero', (x) => bool(complexParts(x)!.re === 0 && complexParts(x)!.im === 0)),
  isUnit: oneComplex('isUnit', (x) => bool(complexParts(x)!.re === 1 && complexParts(x)!.im === 0)),
  abs: oneComplex('abs', (x, ctx) => (x.kind === 'complex' ? real(modulus(x)) : numericAbs([x], ctx))),
  arg: oneComplex('arg', (x, ctx) => {
    const theta = argumentOf(complexParts(x)!, complexName('arg'), ctx.range);
    return typeof theta === 'number' ? real(theta) : theta;
  }),
  '+': complexOperator('+', true),
  '-': complexOperator('-', true),
  '*': complexOperator('*', false),
  '/': complexOperator('/', false),
  '**': complexOperator('**', false),
  '^': complexOperator('^', false),
  // x, y: Complex[0..1]; null equals only null (DataFunctions::'==').
  '==': (args, ctx) => {
    const bad = arity(complexName('=='), args, 2, 2, ctx);
    if (bad) return bad;
    for (const [i, a] of args.entries()) {
      if (itemsOf(a).length === 0) continue;
      const x = complexArgument('==', a, i === 0 ? 'x' : 'y', ctx);
      if (isError(x)) return x;
    }
    return bool(equals(args[0]!, args[1]!));
  },
  // On a Real, RealFunctions::ToString applies: the engine's ToString.
  ToString: (args, ctx) => {
    const bad = arity(complexName('ToString'), args, 1, 1, ctx);
    if (bad) return bad;
    const x = complexArgument('ToString', args[0]!, 'x', ctx);
    if (isError(x)) return x;
    return x.kind === 'complex' ? complexHasNoText('ToString', ctx) : FUNCTIONS.ToString!([x], ctx);
  },
  ToComplex: (args, ctx) => arity(complexName('ToComplex'), args, 1, 1, ctx) ?? complexHasNoText('ToComplex', ctx),
  sum: complexFold('sum', '+', complex(0, 0)),
  product: complexFold('product', '*', complex(1, 0)),
};

/** The library feature values the engine supplies, by qualified name (`TrigFunctions::pi`). */
export function libraryFeatureValue(qualifiedName: string, range?: Place): Outcome | undefined {
  switch (qualifiedName) {
    case 'TrigFunctions::pi':
      // π: no double holds it.
      return real(Math.PI, undefined, undefined, true);
    case 'ComplexFunctions::i':
      return complex(0, 1);
    case 'VectorFunctions::cartesian3DZeroVector':
      return vectorValue([0, 0, 0]);
    case 'VectorFunctions::cartesianZeroVector':
      return error('the library feature VectorFunctions::cartesianZeroVector (three zero vectors of dimensions 1, 2 and 3) has no value in the reference engine: it holds a Cartesian vector as the sequence of its elements, and a sequence of vectors would flatten', range, 'unsupported');
    default:
      return undefined;
  }
}

/** The library packages whose functions are called by qualified name: their names (`sum`, `abs`, `'+'`)
 * mean something else in the packages called by simple name. */
const QUALIFIED_PACKAGES: Readonly<Record<string, Record<string, Fn>>> = {
  VectorFunctions: VECTOR_FUNCTIONS,
  ComplexFunctions: COMPLEX_FUNCTIONS,
};

export function isQualifiedLibraryPackage(pkg: string): boolean {
  return Object.prototype.hasOwnProperty.call(QUALIFIED_PACKAGES, pkg);
}

/** Calls a function of a library package called by qualified name (VectorFunctions, ComplexFunctions);
 * undefined when the package is not such a package, an unsupported error naming the function when
 * the function is not implemented. */
export function callQualifiedLibraryFunction(qualifiedName: string, args: readonly Value[], ctx: CallContext = {}): Outcome | undefined {
  const at = qualifiedName.lastIndexOf('::');
  const pkg = qualifiedName.slice(0, at);
  const name = qualifiedName.slice(at + 2).replace(/^'|'$/g, '');
  if (!isQualifiedLibraryPackage(pkg)) return undefined;
  const functions = QUALIFIED_PACKAGES[pkg]!;
  const f = Object.prototype.hasOwnProperty.call(functions, name) ? functions[name] : undefined;
  if (!f) return error(`the library function ${qualifiedName} has no semantics in the reference engine`, ctx.range, 'unsupported');
  return f(args, ctx);
}

/** A Boolean test of one number (or quantity magnitude). */
function numericTest(name: string, test: (x: number) => boolean): Fn {
  return (args, ctx) => {
    const bad = arity(name, args, 1, 1, ctx);
    if (bad) return bad;
    const x = single(args[0]!, `${name}()`, 'as its argument', ctx.range);
    if (isError(x)) return x;
    if (x.kind === 'integer') return bool(test(Number(x.value)));
    if (x.kind === 'real' || x.kind === 'quantity') return bool(test(x.value));
    // ComplexFunctions' isZero / isUnit: re(x) == 0.0 (1.0) and im(x) == 0.0.
    if (x.kind === 'complex') return bool(x.im === 0 && test(x.re));
    return error(`${name}() needs a number, got ${describeKind(x)}`, ctx.range);
  };
}

/**
 * Whether x == w, as `==` decides it: a pair that only the rounding of doubles tells apart or together
 * (`sin(pi)` and 0.0) is refused, not answered from the doubles.
 */
function sameItem(x: Scalar, w: Scalar, ctx: CallContext, name: string): boolean | ValueError {
  const c = equality('==', x, w, ctx.range);
  if (isError(c)) return c.code === 'unsupported' ? error(`${name}(): ${c.message}`, ctx.range, 'unsupported') : equals(x, w);
  return c.kind === 'boolean' && c.value;
}

/** Whether some item of `items` is w (sameItem), or the refusal. */
function memberOf(items: readonly Scalar[], w: Scalar, ctx: CallContext, name: string): boolean | ValueError {
  for (const x of items) {
    const s = sameItem(x, w, ctx, name);
    if (s !== false) return s;
  }
  return false;
}

function includesAll(seq: Value, wanted: Value, ctx: CallContext, name: string): boolean | ValueError {
  const items = itemsOf(seq);
  for (const w of itemsOf(wanted)) {
    const m = memberOf(items, w, ctx, name);
    if (m !== true) return m;
  }
  return true;
}

/** The items of `seq` that are (or are not) among `others`, or the refusal. */
function filterBy(seq: Value, others: Value, keep: boolean, ctx: CallContext, name: string): Outcome {
  const out: Scalar[] = [];
  for (const x of itemsOf(seq)) {
    const m = memberOf(itemsOf(others), x, ctx, name);
    if (typeof m !== 'boolean') return m;
    if (m === keep) out.push(x);
  }
  return sequence(out);
}

const asBool = (b: boolean | ValueError): Outcome => (typeof b === 'boolean' ? bool(b) : b);

function allAny(name: string, args: readonly Value[], ctx: CallContext, all: boolean): Outcome {
  const bad = arity(name, args, 1, 1, ctx);
  if (bad) return bad;
  for (const item of itemsOf(args[0]!)) {
    const t = truth(item, `${name}()`, ctx.range);
    if (typeof t !== 'boolean') return t;
    if (all && !t) return bool(false);
    if (!all && t) return bool(true);
  }
  return bool(all);
}

/** Names of the library functions this module evaluates, for `covers` and completions. */
export const LIBRARY_FUNCTIONS: readonly string[] = Object.keys(FUNCTIONS);

export const BODY_FUNCTIONS = ['collect', 'select', 'reject', 'forAll', 'exists', 'selectOne'] as const;
export type BodyFunction = (typeof BODY_FUNCTIONS)[number];

export function isLibraryFunction(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(FUNCTIONS, name);
}

/** Calls a library function by its simple name; undefined when there is no such function. */
export function callLibraryFunction(name: string, args: readonly Value[], ctx: CallContext = {}): Outcome | undefined {
  if (!isLibraryFunction(name)) return undefined;
  return FUNCTIONS[name]!(args, ctx);
}

export function isBodyFunction(name: string): name is BodyFunction {
  return (BODY_FUNCTIONS as readonly string[]).includes(name);
}

/** collect/select/reject/forAll/exists: the body is evaluated per element, in order, stopping early for forAll/exists. */
export function callBodyFunction(name: BodyFunction, seq: Value, body: Body, ctx: CallContext = {}): Outcome {
  const items = itemsOf(seq);
  const out: Value[] = [];
  for (let i = 0; i < items.length; i++) {
    const r = body(items[i]!, i);
    if (isError(r)) return r;
    if (name === 'collect') {
      out.push(r);
      continue;
    }
    const t = truth(r, `the body of ${name}()`, ctx.range);
    if (typeof t !== 'boolean') return t;
    if (name === 'select' && t) out.push(items[i]!);
    if (name === 'selectOne' && t) return items[i]!;
    if (name === 'reject' && !t) out.push(items[i]!);
    if (name === 'forAll' && !t) return bool(false);
    if (name === 'exists' && t) return bool(true);
  }
  if (name === 'forAll') return bool(true);
  if (name === 'exists') return bool(false);
  if (name === 'selectOne') return NULL;
  return sequence(out);
}
