// Complex arithmetic (KerML Kernel Function Library, ComplexFunctions.kerml). The library declares
// rect, polar, re, im, abs, arg and the operators on Complex without bodies: they are the usual
// complex arithmetic on (re, im) pairs of doubles. Where the library itself gives a Real operand
// another answer (RealFunctions specializes these functions for Reals), the result is refused, never
// picked: see docs/semantics.md#library-functions.

import { complex, complexParts, describeKind, error, type Outcome, type Place, type Scalar } from './values';

export interface ComplexParts {
  readonly re: number;
  readonly im: number;
}

const ONE: ComplexParts = { re: 1, im: 0 };

export const add = (x: ComplexParts, y: ComplexParts): ComplexParts => ({ re: x.re + y.re, im: x.im + y.im });
export const subtract = (x: ComplexParts, y: ComplexParts): ComplexParts => ({ re: x.re - y.re, im: x.im - y.im });
export const multiply = (x: ComplexParts, y: ComplexParts): ComplexParts => ({ re: x.re * y.re - x.im * y.im, im: x.re * y.im + x.im * y.re });

const isZero = (x: ComplexParts): boolean => x.re === 0 && x.im === 0;

/** x / y for y ≠ 0, scaled by the larger part of y (Smith's method) so c² + d² cannot overflow. */
function quotient(x: ComplexParts, y: ComplexParts): ComplexParts {
  if (Math.abs(y.re) >= Math.abs(y.im)) {
    const r = y.im / y.re;
    const d = y.re + y.im * r;
    return { re: (x.re + x.im * r) / d, im: (x.im - x.re * r) / d };
  }
  const r = y.re / y.im;
  const d = y.re * r + y.im;
  return { re: (x.re * r + x.im) / d, im: (x.im * r - x.re) / d };
}

export function modulus(x: ComplexParts): number {
  return Math.hypot(x.re, x.im);
}

/** The principal argument in (−π, π] of a number off the real axis (on it, see `argumentOf`). */
function offAxisArgument(x: ComplexParts): number {
  return Math.atan2(x.im, x.re);
}

/** x ** n for a whole n by repeated squaring: exact wherever the products are ((1+2i)**2 = −3+4i). */
function wholePower(x: ComplexParts, n: number): ComplexParts {
  let result = ONE;
  let base = x;
  for (let k = Math.abs(n); k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) result = multiply(result, base);
    base = multiply(base, base);
  }
  return n < 0 ? quotient(ONE, result) : result;
}

/** exp(w · Log z) with Log on its principal branch, ln|z| + i·Arg z, Arg in (−π, π]; z ≠ 0. */
function principalPower(z: ComplexParts, w: ComplexParts): ComplexParts {
  const logModulus = Math.log(modulus(z));
  const theta = z.im === 0 ? (z.re < 0 ? Math.PI : 0) : offAxisArgument(z);
  const re = w.re * logModulus - w.im * theta;
  const im = w.re * theta + w.im * logModulus;
  const scale = Math.exp(re);
  return { re: scale * Math.cos(im), im: scale * Math.sin(im) };
}

export type ComplexOperator = '+' | '-' | '*' | '/' | '**' | '^';

/**
 * `x op y` where at least one operand is a Complex and both are Complex (an Integer or Real is (x, 0)).
 * `name` is how messages name the operation (`'*'`, `ComplexFunctions::'*'`).
 */
export function complexArithmetic(op: ComplexOperator, a: Scalar, b: Scalar, name: string, range?: Place): Outcome {
  const x = complexParts(a);
  const y = complexParts(b);
  if (!x || !y) return error(`${name} needs Complex operands, got ${describeKind(a)} and ${describeKind(b)}`, range);
  let r: ComplexParts;
  switch (op) {
    case '+': r = add(x, y); break;
    case '-': r = subtract(x, y); break;
    case '*': r = multiply(x, y); break;
    case '/':
      if (isZero(y)) return error(`division by zero: ${describeKind(a)} / ${describeKind(b)}`, range);
      r = quotient(x, y);
      break;
    case '**':
    case '^': {
      const p = power(op, x, y, name, range);
      if ('kind' in p) return p;
      r = p;
      break;
    }
  }
  return complexResult(r, name, range);
}

function power(op: '**' | '^', z: ComplexParts, w: ComplexParts, name: string, range?: Place): ComplexParts | Outcome {
  if (z.im === 0 && w.im === 0) {
    // Both are Reals, for which RealFunctions::'**' specializes the Complex one: its value when it has
    // one; a negative base to a fractional power has none, and the principal complex value is not the
    // Real function's answer, so neither is given.
    if (z.re === 0 && w.re < 0) return error('division by zero: 0 raised to a negative power', range);
    if (z.re < 0 && !Number.isInteger(w.re)) {
      const principal = principalPower(z, w);
      return error(
        `${name} of ${z.re} and ${w.re}: both are Reals, for which RealFunctions::'${op}' (a Real result) has no value, while the principal complex value is (${principal.re}, ${principal.im}); the reference engine gives neither`,
        range,
        'unsupported',
      );
    }
    return { re: z.re ** w.re, im: 0 };
  }
  if (w.im === 0 && Number.isSafeInteger(w.re)) {
    if (isZero(z) && w.re < 0) return error('division by zero: 0 raised to a negative power', range);
    return wholePower(z, w.re);
  }
  if (isZero(z)) {
    // |z ** w| = |z| ** Re(w) · e^(−Im(w)·Arg z) tends to 0 as z does when Re(w) > 0; otherwise no limit.
    if (w.re > 0) return { re: 0, im: 0 };
    return error(`${name}: 0 raised to a power whose real part is not positive (${w.re}) is undefined`, range);
  }
  return principalPower(z, w);
}

/** A Complex result, or an error when a part left the range of a double (it would not read back). */
export function complexResult(r: ComplexParts, name: string, range?: Place): Outcome {
  if (!Number.isFinite(r.re) || !Number.isFinite(r.im)) {
    return error(`${name}: the result (${r.re}, ${r.im}) is outside the range of a double`, range, 'unsupported');
  }
  return complex(r.re, r.im);
}

/**
 * ComplexFunctions::arg of a number: the principal argument in (−π, π] off the real axis. On it the
 * value is a Real, for which RealFunctions::arg's body is 0.0: it agrees at x ≥ 0 (arg(0) is 0.0
 * there, as the library's body says) and contradicts the principal argument π at x < 0, so a
 * negative Real is refused naming both. Returns the angle or the error.
 */
export function argumentOf(x: ComplexParts, name: string, range?: Place): number | Outcome {
  if (x.im !== 0) return offAxisArgument(x);
  if (x.re >= 0) return 0;
  return error(
    `${name} of the negative Real ${x.re}: RealFunctions::arg, which specializes it for Reals, is 0.0 by its library body, while the principal argument is pi; the reference engine gives neither`,
    range,
    'unsupported',
  );
}
