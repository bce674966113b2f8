// The inputs of a compute or sweep question as the Ask flow asks for them: a subject's parameters
// (name, type, unit, the model's default), a typed value or range checked as the user types, and the
// words for a computed value. Pure: no vscode.
import type { Range, Scalar, Sweep, Value } from '../../protocol';
import { parseScalarWithUnit } from '../../cli/ask-args';
import { quantityKindUnit, sameDimension, tryParseUnit } from '../../sysml/semantics/units';

/** One input of a subject (an `in` parameter of a calc, or an input of a constraint or analysis). */
export interface Parameter {
  name: string;
  /** The type as written (`SpeedValue`, `ISQ::MassValue`, `Real`), when one is. */
  type?: string;
  /** The unit a value of the type carries by default (`m/s` for SpeedValue), when it is a quantity. */
  unit?: string;
  /** The default expression as the model spells it (`1000 [kg]`), when it has one. */
  defaultText?: string;
}

/** `m : MassValue [kg] = 1000 [kg]` — how a parameter is shown in a prompt. */
export function parameterText(p: Parameter): string {
  return `${p.name}${p.type ? ` : ${p.type}` : ''}${p.unit ? ` [${p.unit}]` : ''}${p.defaultText ? ` = ${p.defaultText}` : ''}`;
}

function isNumericType(p: Parameter): boolean {
  return p.unit !== undefined || /(^|::)(Real|Integer|Natural|Positive|Rational|Number|ScalarValue|NumericalValue)$/.test(p.type ?? '');
}

function isIntegralType(p: Parameter): boolean {
  return /(^|::)(Integer|Natural|Positive)$/.test(p.type ?? '');
}

/** Checks a scalar typed for a parameter: its kind against the type, its unit against the type's dimension. */
function checkScalar(p: Parameter, text: string): { value: Scalar; unit?: string } | string {
  let parsed: ReturnType<typeof parseScalarWithUnit>;
  try {
    parsed = parseScalarWithUnit(text);
  } catch (e) {
    // A number the question could not carry exactly (too many digits, beyond the doubles' range).
    return `${p.name}: ${(e as Error).message}`;
  }
  if (isNumericType(p)) {
    if (typeof parsed.value !== 'number' || !Number.isFinite(parsed.value)) return `${p.name} takes a number${p.unit ? ` with a unit like [${p.unit}]` : ''}, e.g. ${p.unit ? `10 [${p.unit}]` : '10'}`;
    if (isIntegralType(p) && !Number.isInteger(parsed.value)) return `${p.name} is ${p.type}: a whole number`;
  }
  if (/(^|::)Boolean$/.test(p.type ?? '') && typeof parsed.value !== 'boolean') return `${p.name} is Boolean: true or false`;
  if (parsed.unit !== undefined) {
    const unit = tryParseUnit(parsed.unit);
    if (!unit) return `[${parsed.unit}] is not a unit Assay knows (e.g. m, km/h, kg, s, J)`;
    const expected = p.unit !== undefined ? tryParseUnit(p.unit) : undefined;
    if (expected && !sameDimension(unit.dimension, expected.dimension)) return `[${parsed.unit}] is not a unit of ${p.type ?? p.name} (use a unit like [${p.unit}])`;
    if (!expected && p.type !== undefined && isNumericType(p)) return `${p.name} is ${p.type}, a plain number: no unit`;
  }
  return parsed;
}

/**
 * A value typed for a parameter: `undefined` value with no error when left empty and the model has a
 * default (the model's default applies), else the value to bind or the reason it cannot be.
 */
export function parseInputValue(p: Parameter, text: string): { value?: Value; error?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return p.defaultText !== undefined ? {} : { error: `${p.name} has no default in the model: type a value` };
  const checked = checkScalar(p, trimmed);
  if (typeof checked === 'string') return { error: checked };
  return { value: { name: p.name, value: checked.value, ...(checked.unit ? { unit: checked.unit } : {}) } };
}

/** `10 [m/s]`, `true`, `"text"` — a binding as the user would type it again. */
export function valueInputText(v: Pick<Value, 'value' | 'unit'>): string {
  const scalar = typeof v.value === 'string' ? JSON.stringify(v.value) : String(v.value);
  return v.unit ? `${scalar} [${v.unit}]` : scalar;
}

/** A parsed range text: the range, and whether it has no step (a sampled sweep then draws it). */
export interface ParsedRange {
  range?: Range;
  sampled?: boolean;
  error?: string;
}

const RANGE = /^(.+?)\s*\.\.\s*(.+?)(?:\s+step\s+(.+))?$/;

/** `0 [m/s] .. 30 [m/s] step 10 [m/s]`, `0 .. 30 step 10` (the type's unit), or `0 .. 30` (sampled). */
export function parseRangeText(p: Parameter, text: string): ParsedRange {
  const m = RANGE.exec(text.trim());
  if (!m) return { error: `type <from> .. <to> step <step>, e.g. ${exampleRange(p)} (leave out "step …" to draw samples)` };
  const parts = [m[1]!, m[2]!, ...(m[3] !== undefined ? [m[3]] : [])].map((s) => checkScalar(p, s));
  const bad = parts.find((x): x is string => typeof x === 'string');
  if (bad) return { error: bad };
  const [from, to, step] = parts as { value: Scalar; unit?: string }[];
  if (typeof from!.value !== 'number' || typeof to!.value !== 'number' || (step && typeof step.value !== 'number')) {
    return { error: `${p.name}: a range goes over numbers or quantities` };
  }
  const units = [from!.unit, to!.unit, step?.unit].filter((u): u is string => u !== undefined);
  if (new Set(units).size > 1) return { error: `from, to and step use different units (${[...new Set(units)].join(', ')}): use one` };
  if (to!.value < from!.value) return { error: `"to" (${to!.value}) is below "from" (${from!.value})` };
  if (step && !((step.value as number) > 0)) return { error: 'the step must be greater than 0' };
  if (step && (to!.value - from!.value) / (step.value as number) > 100_000) return { error: 'more than 100,000 rows: use a larger step' };
  const range: Range = { parameter: p.name, type: p.type ?? 'Real', from: from!.value, to: to!.value };
  const unit = units[0];
  if (unit !== undefined) range.unit = unit;
  if (step) range.step = step.value;
  return { range, sampled: !step };
}

function exampleRange(p: Parameter): string {
  const u = p.unit ? ` [${p.unit}]` : '';
  return `0${u} .. 30${u} step 10${u}`;
}

/** A range as the user would type it again. */
export function rangeInputText(r: Range): string {
  const u = r.unit ? ` [${r.unit}]` : '';
  return `${r.from}${u} .. ${r.to}${u}${r.step !== undefined ? ` step ${r.step}${u}` : ''}`;
}

/** The sweep of a question from its ranges: sampled (with `samples` draws, seed 0) when a range has no step. */
export function sweepOf(ranges: readonly ParsedRange[], samples: number): Sweep {
  const sweep: Sweep = { ranges: ranges.map((r) => r.range!) };
  if (ranges.some((r) => r.sampled)) {
    sweep.sampled = true;
    sweep.samples = samples;
    sweep.seed = 0; // the protocol: seed present, zero included, for a sampled sweep
  }
  return sweep;
}

/** The number of samples typed for a sampled sweep, or why it cannot be. */
export function parseSamples(text: string): number | string {
  const t = text.trim();
  if (!/^[1-9][0-9]*$/.test(t) || Number(t) > 100_000) return 'a whole number of samples from 1 to 100,000';
  return Number(t);
}

/** The unit a type's values carry (`SpeedValue` → `m/s`), when it is a quantity kind Assay knows. */
export function unitOfType(type: string | undefined): string | undefined {
  return type ? quantityKindUnit(type)?.name : undefined;
}

function numberText(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : String(Number(n.toPrecision(10)));
}

/** `Kinetic = 50,000 [J]` (at most three values, then how many more) for the settled notification. */
export function computedText(values: readonly Value[] | undefined): string {
  if (!values || values.length === 0) return '';
  const shown = values.slice(0, 3).map((v) => `${v.name} = ${typeof v.value === 'number' ? numberText(v.value) : String(v.value)}${v.unit ? ` [${v.unit}]` : ''}`);
  return `${shown.join(', ')}${values.length > 3 ? ` and ${values.length - 3} more` : ''}`;
}

/** `a table of 4 rows` from a sweep's `<column>@<row>` values. */
export function tableText(values: readonly Value[] | undefined): string {
  let rows = 0;
  for (const v of values ?? []) {
    const m = /@([1-9][0-9]*)$/.exec(v.name);
    if (m) rows = Math.max(rows, Number(m[1]));
  }
  return `a table of ${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`;
}
