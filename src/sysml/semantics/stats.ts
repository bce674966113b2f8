// Summary statistics of a sweep column: min, max, mean, p5, p95.
//
// Percentiles interpolate linearly between closest ranks (the "inclusive" definition: NumPy's default,
// Excel's PERCENTILE.INC): sort ascending, take rank h = (n − 1)·p (0-based), and return
// x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). One value is its own every percentile.

import { convertMagnitude, type Unit } from './units';
import { describeKind, error, quantity, real, type Outcome, type Scalar, type Value } from './values';

export const SUMMARY_STATISTICS = ['min', 'max', 'mean', 'p5', 'p95'] as const;
export type SummaryStatistic = (typeof SUMMARY_STATISTICS)[number];

export type Summary = Record<SummaryStatistic, number>;

/** The p-th quantile (0 ≤ p ≤ 1) of ascending-sorted numbers. */
export function percentileOfSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * Math.min(1, Math.max(0, p));
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Summary of a non-empty list of finite numbers; undefined for an empty list. */
export function summarize(xs: readonly number[]): Summary | undefined {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  // Kahan-compensated sum: keeps the mean of long sweeps stable.
  let sum = 0;
  let carry = 0;
  for (const x of sorted) {
    const y = x - carry;
    const t = sum + y;
    carry = t - sum - y;
    sum = t;
  }
  return {
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    mean: sum / sorted.length,
    p5: percentileOfSorted(sorted, 0.05),
    p95: percentileOfSorted(sorted, 0.95),
  };
}

/**
 * Summary of a table column of values. Integers and Reals summarize as Reals; quantities are taken in
 * the first quantity's unit. Nulls are skipped. Undefined when the column has no numbers (a Boolean or
 * String column has no summary); an error when it mixes dimensions or numbers with non-numbers.
 */
export function summarizeValues(column: readonly Value[]): Partial<Record<SummaryStatistic, Outcome>> | undefined {
  const numbers: number[] = [];
  let unit: Unit | undefined;
  let plain = false;
  let other: Scalar | undefined;
  for (const v of column) {
    const items = v.kind === 'sequence' ? v.items : [v];
    for (const x of items) {
      if (x.kind === 'integer') { numbers.push(Number(x.value)); plain = true; }
      else if (x.kind === 'real') { numbers.push(x.value); plain = true; }
      else if (x.kind === 'quantity') {
        unit ??= x.unit;
        const n = convertMagnitude(x.value, x.unit, unit);
        if (n === undefined) {
          const e = error(`cannot summarize a column mixing [${unit.name}] and [${x.unit.name}]`);
          return Object.fromEntries(SUMMARY_STATISTICS.map((s) => [s, e]));
        }
        numbers.push(n);
      } else other ??= x;
    }
  }
  if (numbers.length === 0) return undefined;
  if (other || (plain && unit)) {
    const e = error(`cannot summarize a column mixing numbers and ${other ? describeKind(other) : 'quantities'}`);
    return Object.fromEntries(SUMMARY_STATISTICS.map((s) => [s, e]));
  }
  const s = summarize(numbers)!;
  const wrap = (n: number): Outcome => (unit ? quantity(n, unit) : real(n));
  return { min: wrap(s.min), max: wrap(s.max), mean: wrap(s.mean), p5: wrap(s.p5), p95: wrap(s.p95) };
}
