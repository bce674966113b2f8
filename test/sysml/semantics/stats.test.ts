import { strict as assert } from 'node:assert';
import { percentileOfSorted, summarize, summarizeValues } from '../../../src/sysml/semantics/stats';
import { bool, format, int, near, q, inexactReal } from './shorthands';

describe('semantics/stats', () => {
  it('interpolates percentiles linearly between closest ranks', () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    // h = 9·0.05 = 0.45 → 1 + 0.45·(2 − 1); h = 9·0.95 = 8.55 → 9 + 0.55·(10 − 9)
    near(percentileOfSorted(xs, 0.05), 1.45, 1e-12);
    near(percentileOfSorted(xs, 0.95), 9.55, 1e-12);
    assert.equal(percentileOfSorted(xs, 0.5), 5.5);
    assert.equal(percentileOfSorted([42], 0.05), 42);
  });

  it('summarizes min, max, mean, p5 and p95 of unsorted data', () => {
    const s = summarize([15, 20, 35, 40, 50]);
    assert.ok(s);
    assert.equal(s.min, 15);
    assert.equal(s.max, 50);
    assert.equal(s.mean, 32);
    near(s.p5, 16, 1e-12); // h = 0.2 → 15 + 0.2·5
    near(s.p95, 48, 1e-12); // h = 3.8 → 40 + 0.8·10
    assert.equal(summarize([]), undefined);
  });

  it('summarizes a column of quantities in the first unit', () => {
    const s = summarizeValues([q(1, 'km'), q(500, 'm'), q(2, 'km')]);
    assert.ok(s);
    assert.equal(format(s.min!), '0.5 [km]');
    assert.equal(format(s.max!), '2 [km]');
    assert.equal(format(s.mean!), '1.1666666666666667 [km]');
  });

  it('summarizes Integers as Reals and has no summary for a Boolean column', () => {
    const s = summarizeValues([int(1), int(3)]);
    assert.deepEqual(s?.mean, inexactReal(2));
    assert.equal(summarizeValues([bool(true), bool(false)]), undefined);
  });

  it('reports a column mixing dimensions', () => {
    const s = summarizeValues([q(1, 'km'), q(1, 'kg')]);
    assert.equal(format(s!.mean!), 'error: cannot summarize a column mixing [km] and [kg]');
  });
});
