import { strict as assert } from 'node:assert';
import { callBodyFunction, callLibraryFunction } from '../../../src/sysml/semantics/functions';
import { arithmetic } from '../../../src/sysml/semantics/operators';
import { Random } from '../../../src/sysml/semantics/random';
import { parseUnit } from '../../../src/sysml/semantics/units';
import { asQuantity, bool, format, int, near, NULL, ok, q, real, sequence, str, unitValue, type Outcome, type Value, inexactReal } from './shorthands';

const call = (name: string, ...args: Value[]): Outcome => {
  const r = callLibraryFunction(name, args, {});
  assert.ok(r, `${name} is a library function`);
  return r;
};

describe('semantics/functions', () => {
  it('sums and multiplies sequences, Integers exactly and quantities in the first unit', () => {
    assert.deepEqual(call('sum', sequence([int(1), int(2), int(3)])), int(6));
    assert.deepEqual(call('sum', NULL), int(0));
    assert.deepEqual(call('product', sequence([int(2), int(3), int(4)])), int(24));
    assert.deepEqual(asQuantity(call('sum', sequence([q(1000, 'kg'), q(100, 'kg'), q(50000, 'g')]))), { value: 1150, unit: 'kg' });
    assert.equal(format(call('sum', sequence([q(1, 'kg'), q(1, 'm')]))), 'error: cannot add [m] to [kg]');
  });

  it('counts, tests emptiness and membership, and picks ends', () => {
    const s = sequence([int(4), int(5), int(6)]);
    assert.deepEqual(call('size', s), int(3));
    assert.deepEqual(call('size', NULL), int(0));
    assert.deepEqual(call('isEmpty', NULL), bool(true));
    assert.deepEqual(call('notEmpty', s), bool(true));
    assert.deepEqual(call('includes', s, int(5)), bool(true));
    assert.deepEqual(call('includes', s, int(9)), bool(false));
    assert.deepEqual(call('first', s), int(4));
    assert.deepEqual(call('last', s), int(6));
    assert.deepEqual(call('first', NULL), NULL);
  });

  it('implements the SequenceFunctions and StringFunctions a model uses', () => {
    const s = sequence([int(1), int(2), int(3), int(4)]);
    assert.equal(format(call('head', s)), '1');
    assert.equal(format(call('tail', s)), '(2, 3, 4)');
    assert.equal(format(call('subsequence', s, int(2), int(3))), '(2, 3)');
    assert.equal(format(call('subsequence', s, int(3))), '(3, 4)');
    assert.equal(format(call('including', s, int(5))), '(1, 2, 3, 4, 5)');
    assert.equal(format(call('excluding', s, int(2))), '(1, 3, 4)');
    assert.equal(format(call('union', s, sequence([int(9)]))), '(1, 2, 3, 4, 9)');
    assert.equal(format(call('intersection', s, sequence([int(4), int(2), int(8)]))), '(2, 4)');
    assert.deepEqual(call('includesOnly', sequence([int(1), int(2)]), sequence([int(2), int(1)])), bool(true));
    assert.deepEqual(call('isZero', q(0, 'm')), bool(true));
    assert.deepEqual(call('Length', str('héllo')), int(5));
    assert.deepEqual(call('Substring', str('assay'), int(2), int(4)), str('ssa'));
    assert.deepEqual(call('Substring', str('assay'), int(3), int(2)), str(''));
    // Bounds outside the string: the library does not say (it answered 'as' and 'say', clamped).
    assert.match(format(call('Substring', str('assay'), int(0), int(2))), /^error: Substring\(\) from 0 to 2 of a String of 5 characters/);
    assert.match(format(call('Substring', str('assay'), int(3), int(9))), /^error: Substring\(\) from 3 to 9/);
    assert.deepEqual(call('ToString', q(2.5, 'kg')), str('2.5 [kg]'));
    assert.deepEqual(call('ToInteger', str(' 42 ')), int(42));
    assert.deepEqual(call('ToReal', str('2.5')), real(2.5, { n: 5n, d: 2n }));
    // a decimal as a literal writes it, exactly; not JavaScript's other spellings, not past the doubles
    assert.equal(format(call('ToReal', str('0x10'))), 'error: ToReal() cannot convert "0x10"');
    assert.match(format(call('ToReal', str('1e400'))), /ToReal\("1e400"\) is Infinity: outside the range/);
    // an exact value decides integral functions, not its double (2.99999999999999999999 is the double 3.0)
    const nearly3 = real(3, { n: 299999999999999999999n, d: 100000000000000000000n });
    assert.deepEqual(call('floor', nearly3), int(2));
    assert.deepEqual(call('truncate', nearly3), int(2));
    assert.deepEqual(call('ToInteger', nearly3), int(2));
    assert.deepEqual(call('ceiling', real(-2.5, { n: -5n, d: 2n })), int(-2));
    assert.deepEqual(call('round', real(-2.5, { n: -5n, d: 2n })), int(-3));
    assert.deepEqual(call('round', real(2.5, { n: 5n, d: 2n })), int(3));
    assert.equal(format(call('ToInteger', str('x'))), 'error: ToInteger() cannot convert "x"');
    const big = (x: Value) => ({ kind: 'boolean', value: (x as { value: bigint }).value > 2n }) as Value;
    assert.deepEqual(callBodyFunction('selectOne', s, big), int(3));
    assert.deepEqual(callBodyFunction('selectOne', NULL, big), NULL);
  });

  it('finds min and max of a sequence or of arguments, across units', () => {
    assert.deepEqual(call('min', sequence([int(4), int(2), int(6)])), int(2));
    assert.deepEqual(call('max', int(4), real(7.5)), real(7.5));
    assert.equal(format(call('max', sequence([q(1, 'km'), q(1200, 'm'), q(90000, 'cm')]))), '1200 [m]');
    assert.deepEqual(call('min', NULL), NULL);
    assert.equal(format(call('min', q(1, 'kg'), q(1, 's'))), 'error: min(): cannot compare [s] with [kg]');
  });

  it('rounds, takes roots and absolute values', () => {
    assert.deepEqual(call('abs', int(-3)), int(3));
    assert.equal(format(call('abs', q(-2.5, 'm'))), '2.5 [m]');
    assert.deepEqual(call('floor', real(2.7)), int(2));
    assert.deepEqual(call('ceiling', real(2.1)), int(3));
    assert.deepEqual(call('round', real(2.5)), int(3));
    assert.deepEqual(call('round', real(-2.5)), int(-3));
    assert.deepEqual(call('truncate', real(-2.7)), int(-2));
    // 16 is a square: its root is exactly 4; 2's is no double, and carries its rounding
    assert.deepEqual(call('sqrt', int(16)), real(4, { n: 4n, d: 1n }));
    assert.equal((call('sqrt', real(2)) as { loose?: boolean }).loose, true);
    assert.equal(format(call('sqrt', q(16, 'm^2'))), '4 [m]');
    assert.equal(format(call('sqrt', int(-1))), 'error: sqrt() of a negative number (-1)');
    assert.equal(format(call('sqrt', q(2, 'm'))), 'error: sqrt() of [m] has no unit: an exponent would be fractional');
  });

  it('computes transcendental functions, converting degrees to radians', () => {
    near((call('sin', q(30, 'deg')) as { value: number }).value, 0.5, 1e-12);
    near((call('cos', real(Math.PI)) as { value: number }).value, -1, 1e-12);
    near((call('exp', int(1)) as { value: number }).value, Math.E, 1e-12);
    near((call('ln', real(Math.E)) as { value: number }).value, 1, 1e-12);
    assert.equal(format(call('ln', int(0))), 'error: ln(0) is undefined');
    assert.equal(format(call('sin', q(1, 'm'))), 'error: sin() needs a number or an angle, got [m]');
  });

  it('converts quantities to a unit', () => {
    assert.equal(format(call('convert', q(90, 'km/h'), unitValue(parseUnit('m/s')))), '25 [m/s]');
  });

  it('names the function and its arity when called wrongly', () => {
    assert.equal(format(call('size', int(1), int(2))), 'error: size() takes 1 argument, got 2');
    assert.equal(callLibraryFunction('noSuchFunction', []), undefined);
  });

  it('applies bodies with collect, select, reject, forAll and exists', () => {
    const s = sequence([int(1), int(2), int(3), int(4)]);
    const double = (x: Value) => arithmetic('*', x, int(2));
    const even = (x: Value): Outcome => bool((ok(arithmetic('%', x, int(2))) as { value: bigint }).value === 0n);
    assert.equal(format(callBodyFunction('collect', s, double)), '(2, 4, 6, 8)');
    assert.equal(format(callBodyFunction('select', s, even)), '(2, 4)');
    assert.equal(format(callBodyFunction('reject', s, even)), '(1, 3)');
    assert.deepEqual(callBodyFunction('forAll', s, even), bool(false));
    assert.deepEqual(callBodyFunction('exists', s, even), bool(true));
    assert.deepEqual(callBodyFunction('forAll', NULL, even), bool(true));
    assert.equal(format(callBodyFunction('select', s, () => str('yes'))), 'error: the body of select() needs a Boolean, got String');
  });

  describe('random functions', () => {
    it('resolve by the draws policy', () => {
      const at = (policy: 'min' | 'max' | 'average', name: string, ...args: Value[]) =>
        callLibraryFunction(name, args, { draws: { policy } })!;
      assert.deepEqual(at('min', 'uniform', int(2), int(4)), inexactReal(2));
      assert.deepEqual(at('max', 'uniform', int(2), int(4)), inexactReal(4));
      assert.deepEqual(at('average', 'uniform', int(2), int(4)), inexactReal(3));
      assert.deepEqual(at('min', 'normal', int(10), int(2)), inexactReal(4));
      assert.deepEqual(at('max', 'normal', int(10), int(2)), inexactReal(16));
      assert.deepEqual(at('average', 'normal', int(10), int(2)), inexactReal(10));
      assert.deepEqual(at('min', 'triangular', int(1), int(2), int(6)), inexactReal(1));
      assert.deepEqual(at('max', 'triangular', int(1), int(2), int(6)), inexactReal(6));
      assert.deepEqual(at('average', 'triangular', int(1), int(2), int(6)), inexactReal(3));
      assert.equal(format(at('max', 'uniform', q(1, 'km'), q(1500, 'm'))), '1.5 [km]');
      assert.equal(format(at('min', 'uniform', int(5), int(1))), 'error: uniform(min, max) needs min ≤ max, got 5 and 1');
    });

    it('draw reproducibly from a seed, within their support', () => {
      const drawMany = (seed: number) => {
        const random = new Random(seed);
        const out: number[] = [];
        for (let i = 0; i < 200; i++) {
          out.push((callLibraryFunction('uniform', [int(10), int(20)], { draws: { random } }) as { value: number }).value);
          out.push((callLibraryFunction('triangular', [int(0), int(1), int(4)], { draws: { random } }) as { value: number }).value);
        }
        return out;
      };
      const a = drawMany(7);
      assert.deepEqual(drawMany(7), a);
      assert.notDeepEqual(drawMany(8), a);
      for (let i = 0; i < a.length; i += 2) {
        assert.ok(a[i]! >= 10 && a[i]! < 20);
        assert.ok(a[i + 1]! >= 0 && a[i + 1]! <= 4);
      }
    });

    it('sample a normal distribution with the requested mean and spread', () => {
      const random = new Random(2024);
      const xs: number[] = [];
      for (let i = 0; i < 20000; i++) xs.push((callLibraryFunction('normal', [int(5), int(2)], { draws: { random } }) as { value: number }).value);
      const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
      near(mean, 5, 0.06); // 4 standard errors of the mean
      near(sd, 2, 0.05);
    });

    it('ask for a policy or seed when given neither', () => {
      assert.equal(format(callLibraryFunction('uniform', [int(0), int(1)], {})!), 'error: uniform() needs a draws policy or a seed');
    });
  });
});
