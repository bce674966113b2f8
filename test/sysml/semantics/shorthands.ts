// Shorthands shared by the semantics tests.
export * from '../../../src/sysml/semantics/values';
import { parseUnit, tryParseUnit, type Unit } from '../../../src/sysml/semantics/units';
import { quantity, real as realValue, type Outcome, type Scalar, type Value } from '../../../src/sysml/semantics/values';
import { decimalRational, type Rational } from '../../../src/sysml/semantics/rational';
import { strict as assert } from 'node:assert';

export const tryGet = (name: string): Unit | undefined => tryParseUnit(name);
/** The exact value of a number as a model writes it (`2.5`, `9.81`): what a literal carries. */
const written = (value: number): Rational | undefined => (Number.isFinite(value) ? decimalRational(String(value)) : undefined);
/** A quantity literal (`9.81 [m/s^2]`): exact, as the evaluator reads one. */
export const q = (value: number, unit: string): Value => quantity(value, parseUnit(unit), written(value));
/** A Real literal (`2.5`): exact, as the evaluator reads one; `inexactReal` for a double without one. */
export const real = (value: number, exact?: Rational): Scalar => realValue(value, exact ?? written(value));
export const inexactReal = (value: number): Scalar => realValue(value);

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
