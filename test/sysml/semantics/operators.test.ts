import { strict as assert } from 'node:assert';
import { parseUnit } from '../../../src/sysml/semantics/units';
import {
  arithmetic, binary, booleanOp, coalesce, comparison, convertQuantity, equality, index, range, unary, withUnit,
} from '../../../src/sysml/semantics/operators';
import { asQuantity, bool, format, int, near, NULL, ok, q, real, sequence, str, unitValue, type SourceRange } from './shorthands';

const at: SourceRange = { start: 40, end: 55, line: 3, column: 5, endLine: 3, endColumn: 20 };

describe('semantics/operators', () => {
  it('converts 90 [km/h] to 25 [m/s]', () => {
    assert.deepEqual(asQuantity(convertQuantity(ok(q(90, 'km/h')) as never, parseUnit('m/s'))), { value: 25, unit: 'm/s' });
    assert.equal(format(withUnit(q(90, 'km/h'), unitValue(parseUnit('m/s')))), '25 [m/s]');
  });

  it('multiplies 2 [kg] by 9.81 [m/s^2] into 19.62 [N]', () => {
    const f = asQuantity(arithmetic('*', q(2, 'kg'), q(9.81, 'm/s^2')));
    assert.equal(f.unit, 'N');
    near(f.value, 19.62, 1e-12);
  });

  it('adds 30 [min] to 1 [h] as 1.5 [h], in the left operand\'s unit', () => {
    assert.deepEqual(asQuantity(arithmetic('+', q(1, 'h'), q(30, 'min'))), { value: 1.5, unit: 'h' });
    assert.deepEqual(asQuantity(arithmetic('+', q(30, 'min'), q(1, 'h'))), { value: 90, unit: 'min' });
  });

  it('treats °C as a point and K on the right as a difference', () => {
    assert.deepEqual(asQuantity(arithmetic('+', q(0, '°C'), q(10, 'K'))), { value: 10, unit: '°C' });
    assert.deepEqual(asQuantity(arithmetic('-', q(20, '°C'), q(10, 'K'))), { value: 10, unit: '°C' });
    const d = asQuantity(arithmetic('-', q(300, 'K'), q(20, '°C')));
    assert.equal(d.unit, 'K');
    near(d.value, 6.85);
    // Two points: an interval, in K (it was the point 5 °C, 278.15 K).
    assert.deepEqual(asQuantity(arithmetic('-', q(25, '°C'), q(20, '°C'))), { value: 5, unit: 'K' });
    assert.deepEqual(asQuantity(arithmetic('-', q(212, '°F'), q(32, '°F'))), { value: 100, unit: 'K' });
    // On two scales: 20 °C and 68 °F are one temperature.
    near(asQuantity(arithmetic('-', q(20, '°C'), q(68, '°F'))).value, 0);
    near(asQuantity(arithmetic('-', q(100, '°C'), q(32, '°F'))).value, 100);
    assert.equal(format(equality('==', ok(arithmetic('-', q(25, '°C'), q(20, '°C'))), q(5, 'K'))), 'true');
    assert.equal(format(comparison('>', q(0, '°C'), q(273, 'K'))), 'true');
    assert.equal(format(comparison('<', q(0, '°C'), q(274, 'K'))), 'true');
  });

  it('compares 1 [km] > 999 [m] after conversion', () => {
    assert.deepEqual(comparison('>', q(1, 'km'), q(999, 'm')), bool(true));
    assert.deepEqual(comparison('<=', q(1, 'km'), q(999, 'm')), bool(false));
    assert.deepEqual(equality('==', q(90, 'km/h'), q(25, 'm/s')), bool(true));
    assert.deepEqual(equality('!=', q(1, 'km'), q(1000, 'm')), bool(false));
  });

  it('refuses to add [kg] to [m], naming both units and the range', () => {
    const e = arithmetic('+', q(1, 'm'), q(2, 'kg'), at);
    assert.equal(e.kind, 'error');
    assert.equal((e as { message: string }).message, 'cannot add [kg] to [m]');
    assert.deepEqual((e as { range?: SourceRange }).range, at);
    const c = comparison('<', q(1, 'm'), q(2, 'kg'), at);
    assert.equal(format(c), 'error: cannot compare [m] with [kg]');
    assert.equal(format(equality('==', q(1, 'm'), q(1, 's'))), 'error: cannot compare [m] with [s]');
    assert.equal(format(arithmetic('-', q(1, 'm'), int(1))), 'error: cannot subtract Integer from [m]');
  });

  it('keeps Integer arithmetic exact past 2^64', () => {
    const big = ok(arithmetic('**', int(2), int(64)));
    assert.equal(format(big), '18446744073709551616');
    assert.equal(format(arithmetic('+', big, int(1))), '18446744073709551617');
    assert.equal(format(arithmetic('*', big, big)), (2n ** 128n).toString());
    assert.equal(format(arithmetic('-', int(0), big)), '-18446744073709551616');
    assert.equal(format(arithmetic('%', arithmetic('+', big, int(5)) as never, int(7))), ((2n ** 64n + 5n) % 7n).toString());
  });

  it('divides Integers into a Real, as IntegerFunctions::\'/\' gives a Rational', () => {
    // With its exact value: 7/2 is a Rational, which the double 3.5 happens to hold.
    assert.deepEqual(arithmetic('/', int(7), int(2)), { kind: 'real', value: 3.5, exact: { n: 7n, d: 2n } });
    assert.deepEqual(arithmetic('/', int(6), int(3)), { kind: 'real', value: 2, exact: { n: 2n, d: 1n } });
    assert.deepEqual(arithmetic('/', int(1), int(3)), { kind: 'real', value: 1 / 3, exact: { n: 1n, d: 3n } });
    assert.equal(format(arithmetic('/', int(1), int(0), at)), 'error: division by zero: Integer / Integer');
    assert.deepEqual(arithmetic('**', int(2), int(-1)), { kind: 'real', value: 0.5, exact: { n: 1n, d: 2n } });
    assert.deepEqual(arithmetic('%', int(-7), int(3)), int(-1));
  });

  it('raises a negative number to a fractional power: no Real value, an error (not NaN)', () => {
    assert.equal(format(arithmetic('**', real(-1), real(0.5), at)), 'error: (-1) ** 0.5 has no Real value: a negative number raised to a fractional power');
    assert.equal(format(arithmetic('^', int(-8), real(1 / 3), at)), 'error: (-8) ** 0.3333333333333333 has no Real value: a negative number raised to a fractional power');
    assert.equal(format(arithmetic('**', q(-4, 'm^2'), real(0.5), at)), 'error: (-4) ** 0.5 has no Real value: a negative number raised to a fractional power');
    // a whole exponent of a negative base is defined: (-8)^3 = -512, (-2.0)^-1 = -0.5
    assert.deepEqual(arithmetic('**', real(-8), real(3)), real(-512));
    assert.deepEqual(arithmetic('**', real(-2), int(-1)), real(-0.5));
  });

  it('combines units in products, quotients and powers', () => {
    assert.deepEqual(asQuantity(arithmetic('/', q(100, 'km'), q(2, 'h'))), { value: 50, unit: 'km/h' });
    assert.deepEqual(asQuantity(arithmetic('*', q(90, 'km/h'), q(10, 's'))), { value: 250, unit: 'm' });
    assert.deepEqual(asQuantity(arithmetic('*', q(2, 'kW'), q(3, 'h'))), { value: 6, unit: 'kWh' });
    assert.deepEqual(asQuantity(arithmetic('*', q(3, 'N'), q(2, 'm'))), { value: 6, unit: 'N*m' });
    assert.deepEqual(asQuantity(arithmetic('/', q(6, 'J'), q(2, 's'))), { value: 3, unit: 'W' });
    assert.deepEqual(asQuantity(arithmetic('/', int(1), q(2, 's'))), { value: 0.5, unit: '1/s' });
    assert.deepEqual(asQuantity(arithmetic('**', q(3, 'm'), int(2))), { value: 9, unit: 'm^2' });
    assert.deepEqual(asQuantity(arithmetic('^', q(2, 'm/s'), int(2))), { value: 4, unit: 'm^2/s^2' });
    const kinetic = arithmetic('*', q(3, 'kg'), ok(arithmetic('**', q(2, 'm/s'), int(2))));
    assert.deepEqual(asQuantity(kinetic), { value: 12, unit: 'J' });
    assert.deepEqual(arithmetic('/', q(1, 'km'), q(500, 'm')), real(2));
    assert.deepEqual(asQuantity(arithmetic('*', q(2, 'kg'), q(3, 'A'))), { value: 6, unit: 'kg*A' });
    assert.deepEqual(asQuantity(arithmetic('*', q(2, 'kg'), real(1.5))), { value: 3, unit: 'kg' });
  });

  it('makes quantities from numbers times units', () => {
    assert.equal(format(withUnit(real(12.5), unitValue(parseUnit('km/h')))), '12.5 [km/h]');
    assert.equal(format(arithmetic('*', int(2), unitValue(parseUnit('kg')))), '2 [kg]');
    assert.equal(format(arithmetic('/', unitValue(parseUnit('km')), unitValue(parseUnit('h')))), '[km/h]');
    assert.equal(format(withUnit(str('x'), unitValue(parseUnit('kg')))), 'error: cannot give String the unit [kg]');
    assert.equal(format(withUnit(q(1, 'kg'), unitValue(parseUnit('m')))), 'error: cannot convert [kg] to [m]: different dimensions');
  });

  it('concatenates strings with +', () => {
    assert.deepEqual(arithmetic('+', str('ab'), str('cd')), str('abcd'));
    assert.deepEqual(arithmetic('+', str('n='), int(3)), str('n=3'));
    // A Real's text is ToString's: it was "n=2", where ToString(2.0) is "2.0".
    assert.deepEqual(arithmetic('+', str('n='), real(2.0)), str('n=2.0'));
    assert.deepEqual(arithmetic('+', real(0.5), str(' kg')), str('0.5 kg'));
  });

  it('evaluates boolean operators and rejects non-Booleans', () => {
    assert.deepEqual(booleanOp('xor', bool(true), bool(false)), bool(true));
    assert.deepEqual(booleanOp('implies', bool(false), bool(false)), bool(true));
    assert.deepEqual(booleanOp('implies', bool(true), bool(false)), bool(false));
    assert.deepEqual(booleanOp('&', bool(true), bool(false)), bool(false));
    assert.deepEqual(booleanOp('|', bool(true), bool(false)), bool(true));
    assert.deepEqual(unary('not', bool(true)), bool(false));
    assert.equal(format(booleanOp('and', int(1), bool(true))), "error: 'and' needs a Boolean, got Integer");
  });

  it('builds ranges and indexes sequences from 1', () => {
    assert.equal(format(range(int(1), int(4))), '(1, 2, 3, 4)');
    assert.deepEqual(range(int(3), int(1)), NULL);
    assert.deepEqual(index(sequence([int(10), int(20), int(30)]), int(2)), int(20));
    assert.deepEqual(index(sequence([int(10), int(20)]), int(5)), NULL);
    assert.equal(format(range(int(0), int(100_000_000))).startsWith('error: range 0..100000000 has more than'), true);
  });

  it('coalesces null with ??', () => {
    assert.deepEqual(coalesce(NULL, int(5)), int(5));
    assert.deepEqual(coalesce(int(1), int(5)), int(1));
    assert.deepEqual(binary('??', NULL, str('d')), str('d'));
  });

  it('reports a null or multi-valued operand instead of guessing', () => {
    assert.equal(format(arithmetic('+', NULL, int(1))), "error: '+' needs a value on its left, but it is null (no value)");
    assert.equal(format(arithmetic('*', int(1), sequence([int(1), int(2)]))), "error: '*' needs a single value on its right, got a sequence of 2");
  });

  it('negates numbers and quantities', () => {
    assert.deepEqual(unary('-', int(5)), int(-5));
    assert.equal(format(unary('-', q(3, 'm/s'))), '-3 [m/s]');
    assert.equal(format(unary('-', str('x'))), "error: unary '-' needs a number, got String");
  });

  it('compares a quantity with a plain zero', () => {
    assert.deepEqual(comparison('>', q(3, 'kg'), int(0)), bool(true));
    assert.deepEqual(equality('==', q(0, 'm'), int(0)), bool(true));
    assert.equal(format(comparison('>', q(3, 'kg'), int(1))), 'error: cannot compare [kg] with Integer');
  });

  it('=== is == on data values (DataFunctions::\'===\' returns x == y)', () => {
    assert.deepEqual(equality('==', int(1), real(1)), bool(true));
    assert.deepEqual(equality('===', int(1), real(1)), bool(true));
    assert.deepEqual(equality('===', q(1, 'km'), q(1000, 'm')), bool(true));
    assert.deepEqual(equality('!==', q(1, 'km'), q(1, 'km')), bool(false));
    assert.deepEqual(equality('!==', int(2), real(2.5)), bool(true));
    assert.equal(format(equality('===', q(1, 'km'), q(1, 'kg'))), 'error: cannot compare [km] with [kg]');
  });
});
