// The values an expression evaluates to, their equality and ordering, their notation, and their
// protocol form. Sequences are flat (a sequence never holds a sequence) and the empty sequence is
// `null`; a single value and a one-element sequence are the same thing.

import { convertExact, convertMagnitude, exactFactor, isDimensionless, isOne, sameDimension, tryParseUnit, type Unit } from './units';
import { compareRational, decimalRational, multiplyRational, terminatingDecimal, type Rational } from './rational';

import type { SourceRange } from '../ast';

export type { SourceRange };

export type Scalar =
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'integer'; readonly value: bigint }
  /** `exact`: the Real's exact value, when it has one the double cannot hold (rational.ts). Without
   * one, `err` bounds how far the double may be from the value (absent: rounding, ROUNDING·|value|).
   * `loose`: a function made it whose value no double holds (a square root, `sin`, π), so even a double
   * equal to another's does not say the numbers are equal. */
  | { readonly kind: 'real'; readonly value: number; readonly exact?: Rational; readonly err?: number; readonly loose?: true }
  /** A ScalarValues::Complex that ComplexFunctions made (rect, polar, arithmetic with a Complex
   * operand). Kept apart from Real so what the library types Complex stays Complex; a Real is a
   * Complex too (ScalarValues: Real specializes Complex), read as (x, 0) where a Complex is wanted. */
  | { readonly kind: 'complex'; readonly re: number; readonly im: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'enum'; readonly definition: string; readonly literal: string }
  /** `exact` and `err`: the magnitude's, in `unit`, as a Real's. */
  | { readonly kind: 'quantity'; readonly value: number; readonly unit: Unit; readonly exact?: Rational; readonly err?: number; readonly loose?: true }
  /** A measurement unit used as a value (`SI::kg`, the inside of `[km/h]`). */
  | { readonly kind: 'unit'; readonly unit: Unit }
  | Instance;

/**
 * A structured value or occurrence (a part, an attribute of an attribute definition, a calc result
 * with members). Whoever builds it says how to read its features: `member` returns the value of a
 * feature by name, or undefined when it has none. Two instances are equal when their `identity` is.
 */
export interface Instance {
  readonly kind: 'instance';
  /** How the instance reads in notation and messages (`vehicle.engine`, `DynamicState`). */
  readonly label: string;
  readonly identity: unknown;
  /**
   * The feature the instance is a value of, when it is one of a usage's values (not a variant, not
   * made by `new`): its path without the index. Two values of one feature are distinct (a feature's
   * values are unique); values of two features the model does not bind together are not known to be
   * the same or different.
   */
  readonly usage?: string;
  /** The instance is a variant chosen for a variation point: the point's qualified name and the variant's name. */
  readonly variant?: { readonly point: string; readonly name: string };
  member(name: string): Outcome | undefined;
}

export type SequenceValue = { readonly kind: 'sequence'; readonly items: readonly Scalar[] };

export type Value = Scalar | SequenceValue;

/** An error a user can cause (dimension mismatch, missing value, bad argument), carried as a value. */
export interface ValueError {
  readonly kind: 'error';
  readonly message: string;
  readonly range?: SourceRange;
  /** `unsupported`: a construct the evaluator does not handle (not a mistake in the model);
   * `budget`: evaluation stopped by its step limit or a cancel. Absent: an error in the model. */
  readonly code?: 'unsupported' | 'budget';
}

export type Outcome = Value | ValueError;

// ---------------------------------------------------------------------------------------------------
// Constructors

export const TRUE: Scalar = { kind: 'boolean', value: true };
export const FALSE: Scalar = { kind: 'boolean', value: false };
export const NULL: SequenceValue = { kind: 'sequence', items: [] };

export const bool = (value: boolean): Scalar => (value ? TRUE : FALSE);
export const int = (value: bigint | number): Scalar => ({ kind: 'integer', value: BigInt(value) });
export function real(value: number, exact?: Rational, err?: number, loose?: boolean): Scalar {
  if (exact !== undefined) return { kind: 'real', value, exact };
  const v: { kind: 'real'; value: number; err?: number; loose?: true } = { kind: 'real', value };
  if (worthCarrying(err, value)) v.err = err;
  if (loose) v.loose = true;
  return v;
}

/** Whether a function whose value no double holds made the number (see `loose`), through its arithmetic. */
export function isLoose(v: Scalar): boolean {
  return (v.kind === 'real' || v.kind === 'quantity') && v.exact === undefined && v.loose === true;
}

/**
 * An error bound worth carrying: past a few roundings of the value (a difference of close values, a
 * quotient by an uncertain divisor). A value without one is taken to be within ROUNDING of its double
 * (errorOf), which is what arithmetic on such values gives short of cancellation.
 */
function worthCarrying(err: number | undefined, value: number): err is number {
  return err !== undefined && !(err <= 4 * ROUNDING * Math.abs(value));
}

/** The exact value of an Integer, or of a Real that keeps one (rational.ts). */
export function exactOf(v: Scalar): Rational | undefined {
  if (v.kind === 'integer') return { n: v.value, d: 1n };
  if (v.kind === 'real') return v.exact;
  return undefined;
}

/** The exact magnitude of an Integer, a Real or a quantity (in its unit), when it has one. */
export function exactMagnitude(v: Scalar): Rational | undefined {
  return v.kind === 'quantity' ? v.exact : exactOf(v);
}

/**
 * Relative error a double without an exact value is taken to carry when nothing tracked more: a few
 * roundings, generously (the evaluator's arithmetic, unit factors, library functions).
 */
export const ROUNDING = 1e-9;

/**
 * How far a number's double may be from its value: 0 for an exact one (an Integer, a Real or a
 * quantity with its exact magnitude); the bound its arithmetic tracked (`err`: a difference of two
 * close values keeps its operands' error, which is far larger than the result's own rounding); else
 * rounding relative to the double.
 */
export function errorOf(v: Scalar): number {
  // An Integer past 2^53 is read as a double rounded to its size.
  if (v.kind === 'integer') return v.value > 9007199254740992n || v.value < -9007199254740992n ? ROUNDING * Math.abs(Number(v.value)) : 0;
  if (v.kind !== 'real' && v.kind !== 'quantity') return 0;
  if (v.exact !== undefined) return 0;
  if (v.err !== undefined) return v.err;
  return Number.isFinite(v.value) ? ROUNDING * Math.abs(v.value) : 0;
}
export const complex = (re: number, im: number): Scalar => ({ kind: 'complex', re, im });
export const str = (value: string): Scalar => ({ kind: 'string', value });
export const enumLiteral = (definition: string, literal: string): Scalar => ({ kind: 'enum', definition, literal });
export const unitValue = (unit: Unit): Scalar => ({ kind: 'unit', unit });

/** A quantity; a dimensionless result with no unit left collapses to a plain Real. */
export function quantity(value: number, unit: Unit, exact?: Rational, err?: number, loose?: boolean): Scalar {
  if (isOne(unit)) return real(value, exact, err, loose);
  if (exact !== undefined) return { kind: 'quantity', value, unit, exact };
  const v: { kind: 'quantity'; value: number; unit: Unit; err?: number; loose?: true } = { kind: 'quantity', value, unit };
  if (worthCarrying(err, value)) v.err = err;
  if (loose) v.loose = true;
  return v;
}

/** A sequence of values, flattened; one element stays that element. */
export function sequence(values: readonly Value[]): Value {
  const items: Scalar[] = [];
  for (const v of values) {
    if (v.kind === 'sequence') items.push(...v.items);
    else items.push(v);
  }
  return items.length === 1 ? items[0]! : { kind: 'sequence', items };
}

/** Where an operation is written: a range, or the node itself, whose range (made on each read, see
 * SpannedNode) is read only when an error needs it: evaluation passes nodes, so a run of a sweep
 * makes no range for the expressions that evaluate without error. */
export type Place = SourceRange | { readonly range: SourceRange };

export function rangeOfPlace(place: Place): SourceRange {
  return 'start' in place ? place : place.range;
}

export function error(message: string, range?: Place, code?: ValueError['code']): ValueError {
  const e: { kind: 'error'; message: string; range?: SourceRange; code?: ValueError['code'] } = { kind: 'error', message };
  if (range) e.range = rangeOfPlace(range);
  if (code) e.code = code;
  return e;
}

export function isError(v: Outcome): v is ValueError {
  return v.kind === 'error';
}

/** The elements of a value seen as a sequence. */
export function itemsOf(v: Value): readonly Scalar[] {
  return v.kind === 'sequence' ? v.items : [v];
}

export function isNull(v: Value): boolean {
  return v.kind === 'sequence' && v.items.length === 0;
}

/** Numeric magnitude of an Integer, Real or Quantity (in its own unit). */
export function magnitude(v: Scalar): number | undefined {
  switch (v.kind) {
    case 'integer': return Number(v.value);
    case 'real': return v.value;
    case 'quantity': return v.value;
    default: return undefined;
  }
}

/** A number as a ScalarValues::Complex: an Integer or Real is (x, 0) (Real specializes Complex);
 * undefined for anything else (a quantity is not a Complex). */
export function complexParts(v: Scalar): { re: number; im: number } | undefined {
  switch (v.kind) {
    case 'integer': return { re: Number(v.value), im: 0 };
    case 'real': return { re: v.value, im: 0 };
    case 'complex': return { re: v.re, im: v.im };
    default: return undefined;
  }
}

export function isNumeric(v: Value): v is Scalar & { kind: 'integer' | 'real' | 'quantity' } {
  return v.kind === 'integer' || v.kind === 'real' || v.kind === 'quantity';
}

// ---------------------------------------------------------------------------------------------------
// Notation

/** A Real always shows a point or exponent, so it reads back as a Real (`2.0`, not `2`). */
export function formatReal(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  const s = String(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

function formatNumber(x: number): string {
  return Number.isFinite(x) ? String(x) : formatReal(x);
}

export function quoteString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

/** A name as notation: a basic name as is, anything else as an unrestricted name `'dark red'`. */
export function nameNotation(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/['\\]/g, '\\$&')}'`;
}

/** The value as SysML notation: `12.5 [km/h]`, `"text"`, `true`, `Colour::red`, `(1, 2)`, `null`. */
export function format(v: Outcome): string {
  switch (v.kind) {
    case 'boolean': return String(v.value);
    case 'integer': return v.value.toString();
    case 'real': return formatReal(v.value);
    // The library gives Complex no literal: its constructor reads as one (`rect(1.0, -2.0)`).
    case 'complex': return `rect(${formatReal(v.re)}, ${formatReal(v.im)})`;
    case 'string': return quoteString(v.value);
    case 'enum': return `${v.definition.split('::').map(nameNotation).join('::')}::${nameNotation(v.literal)}`;
    case 'quantity': return `${formatNumber(v.value)} [${v.unit.name}]`;
    case 'unit': return `[${v.unit.name}]`;
    case 'instance': return v.label;
    case 'sequence': return v.items.length === 0 ? 'null' : `(${v.items.map(format).join(', ')})`;
    case 'error': return `error: ${v.message}`;
  }
}

/** Short kind name for messages: `Integer`, `Real`, `[kg]`, `String`… */
export function describeKind(v: Value): string {
  switch (v.kind) {
    case 'boolean': return 'Boolean';
    case 'integer': return 'Integer';
    case 'real': return 'Real';
    case 'complex': return 'Complex';
    case 'string': return 'String';
    case 'enum': return v.definition;
    case 'quantity': return `[${v.unit.name}]`;
    case 'unit': return `unit [${v.unit.name}]`;
    case 'instance': return v.label;
    case 'sequence': return v.items.length === 0 ? 'null' : `sequence of ${v.items.length}`;
  }
}

// ---------------------------------------------------------------------------------------------------
// Equality and ordering

/** Relative tolerance for quantities compared across units (conversion factors are not all exact). */
const CROSS_UNIT_TOLERANCE = 1e-12;

function closeEnough(a: number, b: number): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= CROSS_UNIT_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * Orders two scalars: negative, zero or positive; undefined when they are not comparable (different
 * dimensions, a Boolean against a number…). Quantities are converted to the left operand's unit
 * (affine units as points); a plain number compares with a dimensionless quantity only.
 */
export function compare(a: Scalar, b: Scalar): number | undefined {
  if (a.kind === 'integer' && b.kind === 'integer') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  // Reals with their exact values (0.1 + 0.2 is 3/10, the literal 0.3 too): compared exactly.
  if (a.kind === 'real' || b.kind === 'real') {
    const x = exactOf(a);
    const y = x && exactOf(b);
    if (x && y) return compareRational(x, y);
  }
  if (a.kind === 'string' && b.kind === 'string') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a.kind === 'quantity' || b.kind === 'quantity') {
    if (a.kind === 'quantity' && b.kind === 'quantity') {
      // Exact magnitudes in units with exact factors: compared exactly (1.000000000000001 m > 100 cm).
      const be = a.exact && b.exact ? convertExact(b.exact, b.unit, a.unit) : undefined;
      if (be) return compareRational(a.exact!, be);
      const bv = convertMagnitude(b.value, b.unit, a.unit);
      if (bv === undefined) return undefined;
      const crossUnit = a.unit.name !== b.unit.name;
      if (crossUnit && closeEnough(a.value, bv)) return 0;
      return Math.sign(a.value - bv);
    }
    const q = (a.kind === 'quantity' ? a : b) as Scalar & { kind: 'quantity' };
    const other = a.kind === 'quantity' ? b : a;
    const n = magnitude(other);
    if (n === undefined || !isDimensionless(q.unit.dimension)) return undefined;
    const f = exactFactor(q.unit);
    const ne = exactOf(other);
    const qe = q.exact && f ? multiplyRational(q.exact, f) : undefined;
    if (qe && ne) return a.kind === 'quantity' ? compareRational(qe, ne) : compareRational(ne, qe);
    const qv = (q.value * q.unit.num) / q.unit.den;
    return a.kind === 'quantity' ? Math.sign(qv - n) : Math.sign(n - qv);
  }
  // An Integer against a Real exactly: converting the Integer to a double rounds one past 2^53
  // (9007199254740993 == 9007199254740992.0 was true).
  if (a.kind === 'integer' && b.kind === 'real') return compareIntegerReal(a.value, b.value);
  if (a.kind === 'real' && b.kind === 'integer') {
    const c = compareIntegerReal(b.value, a.value);
    return c === undefined ? undefined : -c;
  }
  const x = magnitude(a);
  const y = magnitude(b);
  if (x === undefined || y === undefined) return undefined;
  return x < y ? -1 : x > y ? 1 : x === y ? 0 : undefined;
}

/** Orders an Integer and a Real by their exact values (a double's floor is an exact Integer). */
function compareIntegerReal(i: bigint, r: number): number | undefined {
  if (Number.isNaN(r)) return undefined;
  if (r === Infinity) return -1;
  if (r === -Infinity) return 1;
  const f = Math.floor(r);
  const fb = BigInt(f);
  if (i < fb) return -1;
  if (i > fb) return 1;
  return r === f ? 0 : -1;
}

/** `==`: Integer 1 equals Real 1.0; quantities equal after conversion; sequences element-wise. */
export function equals(a: Value, b: Value): boolean {
  const xs = itemsOf(a);
  const ys = itemsOf(b);
  if (xs.length !== ys.length) return false;
  for (let i = 0; i < xs.length; i++) if (!scalarEquals(xs[i]!, ys[i]!)) return false;
  return true;
}

function scalarEquals(a: Scalar, b: Scalar): boolean {
  if (a.kind === 'complex' || b.kind === 'complex') {
    // ComplexFunctions::'==': a Real is the Complex (x, 0), so rect(1.0, 0.0) == 1 holds.
    const x = complexParts(a);
    const y = complexParts(b);
    return x !== undefined && y !== undefined && x.re === y.re && x.im === y.im;
  }
  switch (a.kind) {
    case 'boolean': return b.kind === 'boolean' && a.value === b.value;
    case 'string': return b.kind === 'string' && a.value === b.value;
    case 'enum': return b.kind === 'enum' && a.literal === b.literal && a.definition === b.definition;
    case 'unit': return b.kind === 'unit' && a.unit.name === b.unit.name;
    case 'instance': return b.kind === 'instance' && a.identity === b.identity;
    default: return compare(a, b) === 0;
  }
}

/** `===`: equal and of the same kind and unit, with no numeric widening or unit conversion. */
export function identical(a: Value, b: Value): boolean {
  const xs = itemsOf(a);
  const ys = itemsOf(b);
  if (xs.length !== ys.length) return false;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (x.kind !== y.kind) return false;
    if (x.kind === 'quantity' && y.kind === 'quantity') {
      if (x.unit.name !== y.unit.name || x.value !== y.value) return false;
    } else if (!scalarEquals(x, y)) return false;
  }
  return true;
}

/** Whether two quantities are of one dimension (so `+`, `<` and conversion apply). */
export function commensurable(a: Unit, b: Unit): boolean {
  return sameDimension(a.dimension, b.dimension);
}

// ---------------------------------------------------------------------------------------------------
// Protocol form: `{ name, value: number | boolean | string, unit? }`

export interface ProtocolValue {
  name: string;
  value: number | boolean | string;
  unit?: string;
}

/**
 * The protocol's `value` object. Integers outside ±(2^53−1) are sent as a string of digits; enum
 * literals as `Definition::literal`; a sequence of other than one element as its notation (`(1, 2)`,
 * `null`); a unit as its short name in `unit` with value 1.
 */
export function toProtocolValue(name: string, v: Value): ProtocolValue {
  switch (v.kind) {
    case 'boolean': return { name, value: v.value };
    case 'integer': {
      const safe = v.value <= BigInt(Number.MAX_SAFE_INTEGER) && v.value >= BigInt(Number.MIN_SAFE_INTEGER);
      return { name, value: safe ? Number(v.value) : v.value.toString() };
    }
    case 'real': return { name, value: Number.isFinite(v.value) ? wireNumber(v.value, v.exact) : formatReal(v.value) };
    case 'complex': return { name, value: format(v) };
    case 'string': return { name, value: v.value };
    case 'enum': return { name, value: format(v) };
    case 'quantity':
      return { name, value: Number.isFinite(v.value) ? wireNumber(v.value, v.exact) : formatReal(v.value), unit: v.unit.name };
    case 'unit': return { name, value: 1, unit: v.unit.name };
    case 'instance': return { name, value: v.label };
    case 'sequence': return { name, value: format(v) };
  }
}

/**
 * A Real on the wire: its double, read as its shortest decimal (`fromProtocolValue`), unless that
 * decimal is not its exact value and the exact value is a decimal that ends: then that decimal as text
 * (`1.999999999999999999` is not shown as 2). A value whose decimal repeats (1/3) goes as its double.
 */
function wireNumber(value: number, exact: Rational | undefined): number | string {
  if (exact === undefined) return value;
  // Most exact values are short decimals (a literal, a grid point, a sum of them): fewer than 15
  // significant digits, which the nearest double prints back exactly. Told apart with numbers alone
  // (a sweep sends one per row and feature).
  const short = shortDecimalDouble(exact);
  if (short !== undefined) return short;
  const shortest = decimalRational(String(value));
  if (shortest !== undefined && shortest.n === exact.n && shortest.d === exact.d) return value;
  return terminatingDecimal(exact) ?? value;
}

const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** The nearest double to a decimal of fewer than 15 significant digits (n/d, d = 2^a·5^b), else undefined. */
function shortDecimalDouble(r: Rational): number | undefined {
  if (r.n > SAFE_BIG || r.n < -SAFE_BIG || r.d > SAFE_BIG) return undefined;
  const n = Math.abs(Number(r.n));
  let d = Number(r.d);
  let twos = 0;
  let fives = 0;
  while (d % 2 === 0) {
    d /= 2;
    twos++;
  }
  while (d % 5 === 0) {
    d /= 5;
    fives++;
  }
  if (d !== 1) return undefined;
  // n/d = n·2^(p−a)·5^(p−b) / 10^p, p = max(a, b): its digits are that product (below 10^14: no rounding decides it).
  const p = Math.max(twos, fives);
  if (n * 2 ** (p - twos) * 5 ** (p - fives) >= 1e14) return undefined;
  // Both parts are doubles exactly, and one division rounds once: the double nearest n/d.
  return Number(r.n) / Number(r.d);
}

/** What a binding or witness means: number → Integer when integral (Real when `type` says Real). */
export function fromProtocolValue(
  v: { value: number | boolean | string; unit?: string | undefined },
  resolveUnit: (name: string) => Unit | undefined,
  type?: string,
): Outcome {
  const realType = type !== undefined && /(^|::)(Real|Rational|Number)$/.test(type);
  const integerType = type !== undefined && /(^|::)(Integer|Natural|Positive)$/.test(type);
  if (v.unit !== undefined && v.unit !== '') {
    const unit = resolveUnit(v.unit);
    if (!unit) return error(`unknown unit '${v.unit}'`);
    const n = typeof v.value === 'number' ? v.value : typeof v.value === 'string' ? Number(v.value) : NaN;
    if (Number.isNaN(n)) return error(`a value in [${v.unit}] must be a number, not ${JSON.stringify(v.value)}`);
    // The decimal as written, exactly, as a number without a unit is read (below).
    return quantity(n, unit, Number.isFinite(n) ? decimalRational(typeof v.value === 'string' ? v.value.trim() : String(n)) : undefined);
  }
  if (typeof v.value === 'boolean') return bool(v.value);
  if (typeof v.value === 'number') {
    if (!realType && Number.isInteger(v.value)) return int(v.value);
    // A number on the wire is the decimal it is written as (`0.1`: what a user typed, or the
    // shortest decimal of an engine's double): its exact value, as a literal's (rational.ts).
    return real(v.value, Number.isFinite(v.value) ? decimalRational(String(v.value)) : undefined);
  }
  if (integerType && /^-?[0-9]+$/.test(v.value)) return int(BigInt(v.value));
  if (realType && v.value.trim() !== '' && !Number.isNaN(Number(v.value))) return real(Number(v.value), decimalRational(v.value.trim()));
  return str(v.value);
}

// ---------------------------------------------------------------------------------------------------
// Reading notation back: what `format` writes (witness inputs are spelled this way)

/**
 * Reads a value written as `format` writes it: `true`, `-42`, `2.5`, `1e-3`, `"text"`, `Colour::red`,
 * `12.5 [km/h]`, `null`, `(1, 2, 3)`. Anything else is an error naming the position.
 */
export function parseNotation(text: string): Outcome {
  let pos = 0;
  const fail = (what: string): ValueError => error(`cannot read ${JSON.stringify(text)} as a value: ${what} at character ${pos + 1}`);
  const skip = (): void => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };

  function item(): Value | ValueError {
    skip();
    const rest = text.slice(pos);
    if (rest.startsWith('(')) {
      pos++;
      const items: Value[] = [];
      skip();
      if (text[pos] === ')') { pos++; return NULL; }
      for (;;) {
        const v = item();
        if (v.kind === 'error') return v;
        items.push(v);
        skip();
        if (text[pos] === ',') { pos++; continue; }
        if (text[pos] === ')') { pos++; return sequence(items); }
        return fail("expected ',' or ')'");
      }
    }
    if (rest.startsWith('"')) {
      let out = '';
      pos++;
      while (pos < text.length && text[pos] !== '"') {
        if (text[pos] === '\\') {
          const c = text[pos + 1];
          out += c === 'n' ? '\n' : c === 't' ? '\t' : (c ?? '');
          pos += 2;
        } else out += text[pos++];
      }
      if (text[pos] !== '"') return fail('unclosed string');
      pos++;
      return str(out);
    }
    const number = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|Infinity)/.exec(rest);
    if (number) {
      pos += number[0].length;
      const digits = number[0];
      skip();
      if (text[pos] === '[') {
        const end = text.indexOf(']', pos);
        if (end < 0) return fail("missing ']'");
        const unitText = text.slice(pos + 1, end).trim();
        const unit = tryParseUnit(unitText);
        if (!unit) return fail(`unknown unit '${unitText}'`);
        pos = end + 1;
        return quantity(Number(digits), unit, decimalRational(digits));
      }
      if (/^[+-]?[0-9]+$/.test(digits)) return int(BigInt(digits));
      return real(Number(digits), decimalRational(digits));
    }
    const word = /^(?:[A-Za-z_][A-Za-z0-9_]*|'(?:[^'\\]|\\.)*')(?:::(?:[A-Za-z_][A-Za-z0-9_]*|'(?:[^'\\]|\\.)*'))*/.exec(rest);
    if (word) {
      pos += word[0].length;
      if (word[0] === 'true' || word[0] === 'false') return bool(word[0] === 'true');
      if (word[0] === 'null') return NULL;
      if (word[0] === 'NaN') return real(NaN);
      const segments = (word[0].match(/[A-Za-z_][A-Za-z0-9_]*|'(?:[^'\\]|\\.)*'/g) ?? [])
        .map((seg) => (seg.startsWith("'") ? seg.slice(1, -1).replace(/\\(.)/g, '$1') : seg));
      if (segments.length >= 2) return enumLiteral(segments.slice(0, -1).join('::'), segments.at(-1)!);
      return fail(`'${word[0]}' is not a value`);
    }
    return fail('expected a value');
  }

  const v = item();
  if (v.kind === 'error') return v;
  skip();
  if (pos < text.length) return fail('unexpected text');
  return v;
}
