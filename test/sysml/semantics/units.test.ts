import { strict as assert } from 'node:assert';
import { convertMagnitude, parseUnit, tryParseUnit, sameDimension, formatDimension } from '../../../src/sysml/semantics/units';

describe('semantics/units', () => {
  it('parses short names, compounds and library spellings to the same unit', () => {
    assert.equal(parseUnit('km/h').name, 'km/h');
    assert.equal(parseUnit('m/s^2').name, 'm/s^2');
    assert.equal(parseUnit('m/s**2').name, 'm/s^2');
    assert.equal(parseUnit('m/s²').name, 'm/s^2');
    assert.equal(parseUnit('m⋅s⁻²').name, 'm/s^2');
    assert.equal(parseUnit("SI::'m/s'").name, 'm/s');
    assert.equal(parseUnit('SI::kg').name, 'kg');
    assert.equal(parseUnit('N*m').name, 'N*m');
    assert.equal(parseUnit('kg*m^2').name, 'kg*m^2');
    assert.equal(parseUnit('1/s').name, '1/s');
    assert.equal(parseUnit('Ohm').name, 'Ω');
    assert.equal(parseUnit('deg').name, '°');
    assert.equal(parseUnit('J/(kg*K)').name, 'J/(kg*K)');
  });

  it('knows the dimension of derived units', () => {
    assert.ok(sameDimension(parseUnit('N').dimension, parseUnit('kg*m/s^2').dimension));
    assert.ok(sameDimension(parseUnit('J').dimension, parseUnit('N*m').dimension));
    assert.ok(sameDimension(parseUnit('kWh').dimension, parseUnit('J').dimension));
    assert.ok(sameDimension(parseUnit('W').dimension, parseUnit('V*A').dimension));
    assert.ok(sameDimension(parseUnit('Ω').dimension, parseUnit('V/A').dimension));
    assert.ok(sameDimension(parseUnit('Hz').dimension, parseUnit('1/s').dimension));
    assert.ok(!sameDimension(parseUnit('kg').dimension, parseUnit('m').dimension));
    assert.equal(formatDimension(parseUnit('m/s^2').dimension), 'L*T^-2');
    // Angles are dimensionless, so rad and ° convert to each other.
    assert.ok(sameDimension(parseUnit('rad').dimension, parseUnit('°').dimension));
  });

  it('converts exactly where the factors are integers', () => {
    assert.equal(convertMagnitude(90, parseUnit('km/h'), parseUnit('m/s')), 25);
    assert.equal(convertMagnitude(1.5, parseUnit('h'), parseUnit('min')), 90);
    assert.equal(convertMagnitude(1, parseUnit('kWh'), parseUnit('kJ')), 3600);
    assert.equal(convertMagnitude(2, parseUnit('bar'), parseUnit('kPa')), 200);
    assert.equal(convertMagnitude(3, parseUnit('L'), parseUnit('m^3')), 0.003);
    assert.equal(convertMagnitude(2500, parseUnit('g'), parseUnit('kg')), 2.5);
    assert.equal(convertMagnitude(1, parseUnit('t'), parseUnit('kg')), 1000);
    assert.ok(Math.abs(convertMagnitude(180, parseUnit('deg'), parseUnit('rad'))! - Math.PI) < 1e-15);
    assert.equal(convertMagnitude(1, parseUnit('kg'), parseUnit('m')), undefined);
  });

  it('shifts the zero of °C for points and not for differences', () => {
    assert.ok(Math.abs(convertMagnitude(20, parseUnit('°C'), parseUnit('K'))! - 293.15) < 1e-9);
    assert.ok(Math.abs(convertMagnitude(0, parseUnit('K'), parseUnit('°C'))! + 273.15) < 1e-9);
    assert.equal(convertMagnitude(10, parseUnit('°C'), parseUnit('K'), true), 10);
  });

  it('converts US customary units, °F as an affine scale', () => {
    assert.equal(convertMagnitude(1, parseUnit('mi'), parseUnit('km')), 1.609344);
    assert.equal(convertMagnitude(12, parseUnit('in'), parseUnit('ft')), 1);
    assert.equal(convertMagnitude(1, parseUnit('lb'), parseUnit('kg')), 0.45359237);
    assert.ok(Math.abs(convertMagnitude(100, parseUnit('°C'), parseUnit('°F'))! - 212) < 1e-9);
    assert.ok(Math.abs(convertMagnitude(32, parseUnit('°F'), parseUnit('°C'))!) < 1e-9);
    assert.ok(Math.abs(convertMagnitude(60, parseUnit('mi/h'), parseUnit('km/h'))! - 96.56064) < 1e-9);
  });

  it('rejects unknown or malformed unit text', () => {
    assert.equal(tryParseUnit('furlong'), undefined);
    assert.equal(tryParseUnit('m/'), undefined);
    assert.equal(tryParseUnit('m^x'), undefined);
    assert.throws(() => parseUnit('kg*parsec'), /unknown unit 'parsec' in 'kg\*parsec'/);
  });
});
