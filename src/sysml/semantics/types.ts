// A value against the ScalarValues type a feature is declared with (KerML FeatureTyping: a feature's
// values are instances of its types). The model layer, the behaviours and the solver share it.
import { isDimensionless } from './units';
import { format, int, type Scalar } from './values';

/** The ScalarValues types whose instances the engine tells apart (KerML 9.2.2, ScalarValues.kerml). */
export type ScalarTypeName = 'Boolean' | 'String' | 'Integer' | 'Natural' | 'Positive' | 'Rational' | 'Real' | 'Complex' | 'Number' | 'NumericalValue';

const SCALAR_TYPE_NAMES: ReadonlySet<string> = new Set<ScalarTypeName>(['Boolean', 'String', 'Integer', 'Natural', 'Positive', 'Rational', 'Real', 'Complex', 'Number', 'NumericalValue']);

export function isScalarTypeName(name: string): name is ScalarTypeName {
  return SCALAR_TYPE_NAMES.has(name);
}

/** Integer, Natural and Positive: their values are whole numbers. */
export function isIntegerTypeName(name: ScalarTypeName): boolean {
  return name === 'Integer' || name === 'Natural' || name === 'Positive';
}

/** The least value of an Integer type with a lower bound (Natural ≥ 0, Positive ≥ 1). */
export function integerLowerBound(name: ScalarTypeName): bigint | undefined {
  return name === 'Natural' ? 0n : name === 'Positive' ? 1n : undefined;
}

/**
 * `v` as an instance of a ScalarValues type, or undefined when it is none. A Real that is a whole number
 * is that Integer (the number 2 is an Integer, whichever expression made it: `10 / 5`), and becomes one.
 * Reals are IEEE doubles here, so Rational admits every finite Real. A dimensionless quantity is a number.
 * `*` (LiteralInfinity) is a Positive.
 */
export function asInstanceOf(v: Scalar, type: ScalarTypeName): Scalar | undefined {
  switch (type) {
    case 'Boolean':
      return v.kind === 'boolean' ? v : undefined;
    case 'String':
      return v.kind === 'string' ? v : undefined;
    case 'Integer':
    case 'Natural':
    case 'Positive': {
      const whole = wholeNumber(v);
      if (whole === undefined) return undefined;
      if (whole === Infinity) return v;
      const least = integerLowerBound(type);
      if (least !== undefined && (whole as bigint) < least) return undefined;
      return v.kind === 'real' ? int(whole as bigint) : v;
    }
    case 'Rational':
    case 'Real':
      return realPart(v) !== undefined ? v : undefined;
    case 'Complex':
    case 'Number':
      return realPart(v) !== undefined || v.kind === 'complex' ? v : undefined;
    case 'NumericalValue':
      return realPart(v) !== undefined || v.kind === 'complex' || v.kind === 'quantity' ? v : undefined;
  }
}

/** The number a Real-valued scalar is (an Integer, a Real, a dimensionless quantity, a Complex on the real axis). */
function realPart(v: Scalar): number | undefined {
  switch (v.kind) {
    case 'integer': return Number(v.value);
    case 'real': return Number.isNaN(v.value) ? undefined : v.value;
    case 'quantity': return isDimensionless(v.unit.dimension) ? v.value : undefined;
    case 'complex': return v.im === 0 ? v.re : undefined;
    default: return undefined;
  }
}

/** The whole number a scalar is, Infinity for `*`, or undefined. A Real with an exact value is whole
 * when that value is (2.99999999999999999999 is not, though its double is 3.0). */
function wholeNumber(v: Scalar): bigint | typeof Infinity | undefined {
  if (v.kind === 'integer') return v.value;
  if (v.kind === 'real' && v.value === Infinity) return Infinity;
  if (v.kind === 'real' && v.exact) return v.exact.d === 1n ? v.exact.n : undefined;
  const x = realPart(v);
  return x !== undefined && Number.isInteger(x) ? BigInt(x) : undefined;
}

/**
 * Why whether `v` is a whole number (an instance of Integer, Natural, Positive) is not known: a Real
 * without an exact value whose rounding (a function's result, a cancelling difference) reaches a whole
 * number. Undefined when it is known.
 */
export function wholeNumberDoubt(v: Scalar): string | undefined {
  if ((v.kind !== 'real' && v.kind !== 'quantity') || v.exact || (v.err === undefined && !v.loose)) return undefined;
  const e = v.err ?? 1e-9 * Math.abs(v.value);
  if (Math.floor(v.value + e) < Math.ceil(v.value - e)) return undefined; // no whole number within
  return `whether ${format(v)} is a whole number is not known: it is a double near a number computed in binary floating point (a function's result, or a difference of nearly equal numbers), and a whole number lies within its rounding; not decided`;
}

/** Whether `a` is `b` or specializes it transitively, through `typesOf` (the model's or the
 * behaviours' index of types: both layers ask it of their own elements). */
export function specializesThrough<T>(a: T, b: T, typesOf: (x: T) => readonly T[], seen = new Set<T>()): boolean {
  if (a === b) return true;
  if (seen.has(a)) return false;
  seen.add(a);
  return typesOf(a).some((t) => specializesThrough(t, b, typesOf, seen));
}
