import { strict as assert } from 'node:assert';
import { Random } from '../../../src/sysml/semantics/random';

describe('semantics/random (xoshiro128** seeded by splitmix64)', () => {
  it('matches an independent implementation for seed 42', () => {
    // Computed with a separate Python transcription of splitmix64 + xoshiro128** (splitmix64 checked
    // against its published first output for seed 0, 0xe220a8397b1dcdaf).
    const r = new Random(42);
    assert.deepEqual([1, 2, 3, 4, 5].map(() => r.nextUint32()), [1776835114, 4165204688, 17111135, 2317295270, 2792088233]);
    const f = new Random(42);
    assert.deepEqual([f.next(), f.next(), f.next()], [0.4137016681565887, 0.003983993377814743, 0.6500837027638867]);
  });

  it('gives the same sequence for the same seed and a different one otherwise', () => {
    const a = new Random(123456789);
    const b = new Random(123456789n);
    const c = new Random(123456790);
    const xs = Array.from({ length: 50 }, () => a.next());
    assert.deepEqual(Array.from({ length: 50 }, () => b.next()), xs);
    assert.notDeepEqual(Array.from({ length: 50 }, () => c.next()), xs);
    assert.ok(xs.every((x) => x >= 0 && x < 1));
  });

  it('accepts seeds past 2^53 (taken modulo 2^64)', () => {
    const a = new Random(2n ** 64n + 5n);
    const b = new Random(5);
    assert.equal(a.next(), b.next());
  });
});
