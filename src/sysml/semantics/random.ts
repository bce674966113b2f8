// Seeded pseudo-random numbers for modeled draws: xoshiro128** (Blackman & Vigna), its 128-bit state
// filled from the seed by splitmix64, as the xoshiro authors recommend. Same seed → same sequence on
// every platform. An instance is owned by one run; there is no shared generator.

const MASK64 = (1n << 64n) - 1n;

/** splitmix64 step: returns the next output and the advanced state. */
function splitmix64(state: bigint): [output: bigint, next: bigint] {
  const next = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return [z ^ (z >> 31n), next];
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

export class Random {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** `seed` is any non-negative integer; it is taken modulo 2^64. */
  constructor(seed: number | bigint) {
    let state = BigInt(seed) & MASK64;
    const [a, s] = splitmix64(state);
    state = s;
    const [b] = splitmix64(state);
    this.s0 = Number(a & 0xffffffffn);
    this.s1 = Number(a >> 32n);
    this.s2 = Number(b & 0xffffffffn);
    this.s3 = Number(b >> 32n);
  }

  /** Next 32-bit unsigned output of xoshiro128**. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 = (this.s2 ^ this.s0) >>> 0;
    this.s3 = (this.s3 ^ this.s1) >>> 0;
    this.s1 = (this.s1 ^ this.s2) >>> 0;
    this.s0 = (this.s0 ^ this.s3) >>> 0;
    this.s2 = (this.s2 ^ t) >>> 0;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform in [0, 1) with 53 random bits, from two 32-bit outputs (27 high bits, then 26). */
  next(): number {
    const hi = this.nextUint32() >>> 5;
    const lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }
}

export type DrawPolicy = 'min' | 'max' | 'average';

/**
 * How a random function resolves: by a fixed policy, or by a draw from the generator. With neither,
 * the caller has not said how to draw and gets an error.
 */
export interface Draws {
  readonly policy?: DrawPolicy;
  readonly random?: Random;
}

/**
 * Assay's own random functions (docs/semantics.md): not declared by the SysML standard library, so
 * name resolution knows them by name, as the evaluator does, instead of reporting them unresolved.
 */
export const RANDOM_FUNCTIONS: readonly string[] = ['uniform', 'normal', 'triangular'];

/** Standard deviations from the mean that `normal` resolves to under the min and max policies. */
export const NORMAL_POLICY_SIGMAS = 3;

export function drawUniform(min: number, max: number, draws: Draws): number | string {
  if (!(min <= max)) return `uniform(min, max) needs min ≤ max, got ${min} and ${max}`;
  switch (draws.policy) {
    case 'min': return min;
    case 'max': return max;
    case 'average': return (min + max) / 2;
  }
  if (!draws.random) return 'uniform() needs a draws policy or a seed';
  return min + draws.random.next() * (max - min);
}

/** Box–Muller, cosine branch only: every normal draw consumes exactly two uniforms. */
export function drawNormal(mean: number, stddev: number, draws: Draws): number | string {
  if (!(stddev >= 0)) return `normal(mean, stddev) needs stddev ≥ 0, got ${stddev}`;
  switch (draws.policy) {
    case 'min': return mean - NORMAL_POLICY_SIGMAS * stddev;
    case 'max': return mean + NORMAL_POLICY_SIGMAS * stddev;
    case 'average': return mean;
  }
  if (!draws.random) return 'normal() needs a draws policy or a seed';
  const u1 = 1 - draws.random.next(); // (0, 1]: keeps log finite
  const u2 = draws.random.next();
  return mean + stddev * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Inverse-CDF sampling; `average` is the distribution's mean (low + mode + high) / 3. */
export function drawTriangular(low: number, mode: number, high: number, draws: Draws): number | string {
  if (!(low <= mode && mode <= high)) return `triangular(low, mode, high) needs low ≤ mode ≤ high, got ${low}, ${mode}, ${high}`;
  switch (draws.policy) {
    case 'min': return low;
    case 'max': return high;
    case 'average': return (low + mode + high) / 3;
  }
  if (!draws.random) return 'triangular() needs a draws policy or a seed';
  const u = draws.random.next();
  const width = high - low;
  if (width === 0) return low;
  const split = (mode - low) / width;
  return u < split
    ? low + Math.sqrt(u * width * (mode - low))
    : high - Math.sqrt((1 - u) * width * (high - mode));
}
