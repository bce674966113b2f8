import { strict as assert } from 'node:assert';
import { parseUnit } from '../../../src/sysml/semantics/units';
import {
  compare, enumLiteral, equals, format, fromProtocolValue, identical, int, NULL, quantity, real, sequence, str,
  toProtocolValue, bool, tryGet, parseNotation,
} from './shorthands';

describe('semantics/values', () => {
  it('formats values as notation', () => {
    assert.equal(format(quantity(12.5, parseUnit('km/h'))), '12.5 [km/h]');
    assert.equal(format(str('say "hi"')), '"say \\"hi\\""');
    assert.equal(format(bool(true)), 'true');
    assert.equal(format(enumLiteral('Colour', 'red')), 'Colour::red');
    assert.equal(format(real(2)), '2.0');
    assert.equal(format(int(2)), '2');
    assert.equal(format(NULL), 'null');
    assert.equal(format(sequence([int(1), sequence([int(2), int(3)])])), '(1, 2, 3)');
  });

  it('flattens sequences and treats a one-element sequence as its element', () => {
    assert.deepEqual(sequence([int(7)]), int(7));
    assert.deepEqual(sequence([]), NULL);
  });

  it('compares numbers across Integer and Real and quantities across units', () => {
    assert.equal(compare(int(1), real(1.5)), -1);
    assert.ok(equals(int(1), real(1)));
    // Exactly, past 2^53: 9007199254740993 is not the Real 9007199254740992.0 (it rounded to it).
    const past = int(9007199254740993n);
    assert.ok(!equals(past, real(9007199254740992)));
    assert.equal(compare(past, real(9007199254740992)), 1);
    assert.equal(compare(real(9007199254740992), past), -1);
    assert.equal(compare(int(-3), real(-2.5)), -1);
    assert.equal(compare(int(-2), real(-2.5)), 1);
    assert.equal(compare(int(5), real(Infinity)), -1);
    assert.ok(!identical(int(1), real(1)));
    assert.equal(compare(quantity(1, parseUnit('km')), quantity(999, parseUnit('m'))), 1);
    assert.ok(equals(quantity(90, parseUnit('km/h')), quantity(25, parseUnit('m/s'))));
    assert.equal(compare(quantity(1, parseUnit('kg')), quantity(1, parseUnit('m'))), undefined);
    assert.ok(equals(enumLiteral('Colour', 'red'), enumLiteral('Colour', 'red')));
    assert.ok(!equals(enumLiteral('Colour', 'red'), enumLiteral('Colour', 'blue')));
  });

  it('converts to the protocol value object', () => {
    assert.deepEqual(toProtocolValue('v', quantity(25, parseUnit('m/s'))), { name: 'v', value: 25, unit: 'm/s' });
    assert.deepEqual(toProtocolValue('n', int(2n ** 70n)), { name: 'n', value: '1180591620717411303424' });
    assert.deepEqual(toProtocolValue('n', int(42)), { name: 'n', value: 42 });
    assert.deepEqual(toProtocolValue('c', enumLiteral('Colour', 'red')), { name: 'c', value: 'Colour::red' });
    assert.deepEqual(toProtocolValue('s', sequence([int(1), int(2)])), { name: 's', value: '(1, 2)' });
    assert.deepEqual(toProtocolValue('b', bool(false)), { name: 'b', value: false });
    // A Real goes as its double when its shortest decimal is its exact value; as the exact decimal
    // when that ends and the double's is another (no double is 1.999999999999999999); a repeating
    // decimal (1/3) as its double.
    assert.deepEqual(toProtocolValue('x', real(0.1)), { name: 'x', value: 0.1 });
    assert.deepEqual(toProtocolValue('x', real(2, { n: 1999999999999999999n, d: 10n ** 18n })), { name: 'x', value: '1.999999999999999999' });
    assert.deepEqual(toProtocolValue('x', real(-1e-30, { n: -1n, d: 10n ** 30n })), { name: 'x', value: -1e-30 });
    assert.deepEqual(toProtocolValue('x', real(1 / 3, { n: 1n, d: 3n })), { name: 'x', value: 1 / 3 });
    assert.deepEqual(toProtocolValue('m', quantity(0.5, parseUnit('kg'), { n: 500000000000000001n, d: 10n ** 18n })), { name: 'm', value: '0.500000000000000001', unit: 'kg' });
  });

  it('reads protocol values back, with the declared type deciding Integer or Real', () => {
    const units = (n: string) => tryGet(n);
    assert.deepEqual(fromProtocolValue({ value: 3 }, units), int(3));
    assert.deepEqual(fromProtocolValue({ value: 3 }, units, 'ScalarValues::Real'), { kind: 'real', value: 3, exact: { n: 3n, d: 1n } });
    // A number on the wire is the decimal it is written as: 0.1 is one tenth.
    assert.deepEqual(fromProtocolValue({ value: 0.1 }, units), { kind: 'real', value: 0.1, exact: { n: 1n, d: 10n } });
    assert.deepEqual(fromProtocolValue({ value: '-2.5e-3' }, units, 'Real'), { kind: 'real', value: -0.0025, exact: { n: -1n, d: 400n } });
    assert.deepEqual(fromProtocolValue({ value: '1180591620717411303424' }, units, 'Integer'), int(2n ** 70n));
    assert.equal(format(fromProtocolValue({ value: 90, unit: 'km/h' }, units)), '90 [km/h]');
    const bad = fromProtocolValue({ value: 1, unit: 'furlong' }, units);
    assert.equal(bad.kind, 'error');
  });

  it('reads notation back as format writes it', () => {
    const samples = [
      bool(true), int(-42), int(2n ** 80n), real(2), real(-0.125), real(1e-30), str('say "hi"\n\ttab \\ done'),
      enumLiteral('Colour', 'red'), enumLiteral('P::Colour', 'dark red'), quantity(12.5, parseUnit('km/h')),
      quantity(-3, parseUnit('m/s^2')), quantity(20, parseUnit('°C')), NULL, sequence([int(1), real(2.5), str('x')]),
    ];
    for (const v of samples) {
      const back = parseNotation(format(v));
      assert.ok(back.kind !== 'error', `${format(v)}: ${back.kind === 'error' ? back.message : ''}`);
      assert.equal(format(back), format(v));
      assert.ok(identical(back as never, v), format(v));
    }
    assert.equal(format(parseNotation('12.5 [furlong]')), 'error: cannot read "12.5 [furlong]" as a value: unknown unit \'furlong\' at character 6');
    assert.equal(parseNotation('(1, 2').kind, 'error');
    assert.equal(parseNotation('banana').kind, 'error');
  });
});
