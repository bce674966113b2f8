// Exact rationals for Real values that have one: a decimal literal (`0.1` is one tenth, which no double
// is) and what + - * / and integer powers make of such values and Integers. ScalarValues::Real is the
// mathematical reals, so `0.1 + 0.2 == 0.3` is true; in doubles it is false. A Real carries its exact
// value beside its double while its operands had one (values.ts `exact`); comparisons then decide on
// the exact values (operators.ts). Past MAX_BITS a value keeps only its double.

export interface Rational {
  /** Numerator and denominator in lowest terms, the denominator positive. */
  readonly n: bigint;
  readonly d: bigint;
}

/** Larger numerators or denominators are not kept (a long product would grow without end). */
const MAX_BITS = 1024n;
const LIMIT = 1n << MAX_BITS;

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

const SAFE = 9007199254740991n;

function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  // Small parts (most of a model's numbers): Euclid on doubles, which hold them exactly.
  if (a <= SAFE && b <= SAFE) {
    let x = Number(a);
    let y = Number(b);
    while (y !== 0) {
      const r = x % y;
      x = y;
      y = r;
    }
    return BigInt(x);
  }
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** n/d in lowest terms, or undefined when d is 0 or either part is too large to keep. */
export function rational(n: bigint, d: bigint = 1n): Rational | undefined {
  if (d === 0n) return undefined;
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = d === 1n ? 1n : gcd(n, d);
  if (g > 1n) {
    n /= g;
    d /= g;
  }
  if (abs(n) >= LIMIT || d >= LIMIT) return undefined;
  return { n, d };
}

export const addRational = (a: Rational, b: Rational): Rational | undefined => rational(a.n * b.d + b.n * a.d, a.d * b.d);
export const subtractRational = (a: Rational, b: Rational): Rational | undefined => rational(a.n * b.d - b.n * a.d, a.d * b.d);
export const multiplyRational = (a: Rational, b: Rational): Rational | undefined => rational(a.n * b.n, a.d * b.d);
export const divideRational = (a: Rational, b: Rational): Rational | undefined => (b.n === 0n ? undefined : rational(a.n * b.d, a.d * b.n));

/** a ** e for a whole exponent (|e| up to 64), or undefined. */
export function powerRational(a: Rational, e: bigint): Rational | undefined {
  if (e < -64n || e > 64n) return undefined;
  if (e < 0n) return a.n === 0n ? undefined : rational(a.d ** -e, a.n ** -e);
  return rational(a.n ** e, a.d ** e);
}

/** -1, 0 or 1 as a < b, a = b, a > b. */
export function compareRational(a: Rational, b: Rational): number {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
}

/**
 * The double nearest to the rational where both parts fit a double exactly (IEEE division rounds
 * correctly); otherwise `fallback`, the double its computation gave.
 */
export function rationalToNumber(a: Rational, fallback: number): number {
  const safe = 2n ** 53n;
  if (abs(a.n) <= safe && a.d <= safe) return Number(a.n) / Number(a.d);
  return fallback;
}

const DECIMAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/** The exact value of a decimal as written (`0.1`, `2.5e-3`, `.5`, `-1.25`), or undefined. */
export function decimalRational(text: string): Rational | undefined {
  const m = DECIMAL.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const negative = m[1] === '-';
  const whole = m[2] ?? '';
  const fraction = m[3] ?? '';
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  // Exponents beyond this make numbers no model writes (and bigints too large to keep).
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 300) return undefined;
  const digits = (negative ? -1n : 1n) * BigInt(`${whole}${fraction}` || '0');
  const scale = exponent - fraction.length;
  return scale >= 0 ? rational(digits * 10n ** BigInt(scale)) : rational(digits, 10n ** BigInt(-scale));
}

/**
 * The decimal numeral of a rational whose decimal ends (its denominator's only prime factors are 2
 * and 5: `1.999999999999999999`, `0.1`), with at most `maxDigits` digits after the point; undefined
 * for one that repeats (1/3) or is longer.
 */
export function terminatingDecimal(a: Rational, maxDigits = 60): string | undefined {
  let d = a.d;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  const places = Math.max(twos, fives);
  if (d !== 1n || places > maxDigits) return undefined;
  const scaled = abs(a.n) * 10n ** BigInt(places) / a.d;
  const digits = scaled.toString().padStart(places + 1, '0');
  const sign = a.n < 0n ? '-' : '';
  return places === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, digits.length - places)}.${digits.slice(digits.length - places)}`;
}

export function formatRational(a: Rational): string {
  return a.d === 1n ? a.n.toString() : `${a.n}/${a.d}`;
}
