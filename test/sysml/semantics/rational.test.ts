// Exact Real values (src/sysml/semantics/rational.ts): a decimal as written, and arithmetic that keeps
// it exact until the numbers grow too large to keep.
import { strict as assert } from 'node:assert';
import { addRational, compareRational, decimalRational, divideRational, formatRational, multiplyRational, powerRational, rational, rationalToNumber } from '../../../src/sysml/semantics/rational';

const r = (text: string) => {
  const v = decimalRational(text);
  assert.ok(v, text);
  return v;
};

describe('semantics/rational', () => {
  it('reads decimals as written, in lowest terms', () => {
    assert.deepEqual(['0.1', '.5', '2.', '2.5e-3', '-1.25', '1E3', '+7', '0.000', '1.5e+2'].map((t) => formatRational(r(t))), ['1/10', '1/2', '2', '1/400', '-5/4', '1000', '7', '0', '150']);
    for (const bad of ['', '.', 'e3', '1e', '1.2.3', 'x', '--1', '1e400']) assert.equal(decimalRational(bad), undefined, bad);
  });

  it('adds, multiplies, divides and raises exactly: 0.1 + 0.2 is 0.3, one third times 3 is 1', () => {
    assert.equal(compareRational(addRational(r('0.1'), r('0.2'))!, r('0.3')), 0);
    assert.equal(compareRational(multiplyRational(divideRational(rational(1n)!, rational(3n)!)!, rational(3n)!)!, rational(1n)!), 0);
    assert.equal(divideRational(r('1'), r('0')), undefined, 'no value for a division by zero');
    assert.equal(formatRational(powerRational(r('0.5'), -3n)!), '8');
    assert.equal(powerRational(r('0'), -1n), undefined);
    assert.equal(powerRational(r('2'), 65n), undefined, 'exponents past 64 are not kept');
    assert.equal(compareRational(r('0.30000000000000004'), r('0.3')), 1);
  });

  it('gives the nearest double, and stops keeping numbers past 1024 bits', () => {
    assert.equal(rationalToNumber(r('0.3'), NaN), 0.3);
    assert.equal(rationalToNumber(rational(1n, 3n)!, NaN), 1 / 3);
    assert.equal(rationalToNumber(rational(2n ** 60n + 1n, 3n)!, 42), 42, 'beyond 2^53 the double computed is kept');
    assert.equal(rational(2n ** 1024n), undefined);
    assert.ok(rational(2n ** 1023n));
  });
});
