// Shorthands shared by the semantics tests.
export * from '../../../src/sysml/semantics/values';
import { parseUnit, tryParseUnit, type Unit } from '../../../src/sysml/semantics/units';
import { quantity, type Outcome, type Value } from '../../../src/sysml/semantics/values';
import { strict as assert } from 'node:assert';

export const tryGet = (name: string): Unit | undefined => tryParseUnit(name);
export const q = (value: number, unit: string): Value => quantity(value, parseUnit(unit));

/** The value, failing the test with the error message when it is an error. */
export function ok(v: Outcome): Value {
  if (v.kind === 'error') assert.fail(`unexpected error: ${v.message}`);
  return v;
}

/** A quantity's magnitude and unit name, asserting it is one. */
export function asQuantity(v: Outcome): { value: number; unit: string } {
  const x = ok(v);
  if (x.kind !== 'quantity') assert.fail(`expected a quantity, got ${x.kind}`);
  return { value: x.value, unit: x.unit.name };
}

export function near(actual: number, expected: number, tolerance = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}
