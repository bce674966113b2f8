// SI/ISQ units by short name: dimensions as exponent vectors, exact-ish conversion factors kept as a
// numerator/denominator pair (so 90 km/h → m/s is 90·1000/3600 = 25 exactly), and an affine offset
// for °C. The hand-written atoms below are the exact definitions (and the affine temperature scales);
// every other unit the standard library declares comes from its own text (library-units.ts, generated).
// Pure data and functions; no state beyond caches.

import type { Expression, QualifiedName } from '../ast';
import { LIBRARY_UNIT_ALIASES, LIBRARY_UNITS } from './library-units';
import { addRational, divideRational, multiplyRational, rational, subtractRational, type Rational } from './rational';

/** Exponents over L M T I Θ N J, plus a plane-angle slot that never blocks compatibility (angle is
 * dimensionless in SI) but keeps rad/° recognisable in results, plus OWN_SLOTS slots for units a model
 * declares with a dimension of their own (a currency: `attribute <USD> dollar : MeasurementUnit;`). */
export type Dimension = readonly number[];

const BASE_SYMBOLS = ['L', 'M', 'T', 'I', 'Θ', 'N', 'J', 'angle'] as const;
const ANGLE = 7;
/** Units of their own dimension per engine process (their names; the same name shares a slot). */
const OWN_SLOTS = 8;
const OWN_NAMES: string[] = [];

export const DIMENSIONLESS: Dimension = new Array<number>(BASE_SYMBOLS.length + OWN_SLOTS).fill(0);

/** One unit as written: a product of named atoms with integer exponents (`km/h` is km¹·h⁻¹). */
export interface Unit {
  /** Short name as results report it (`km/h`, `N`, `kg*m^2/s^2`). */
  readonly name: string;
  readonly terms: ReadonlyArray<readonly [atom: string, exponent: number]>;
  readonly dimension: Dimension;
  /** Value in the coherent SI unit = value · num / den (+ offset for an affine unit). */
  readonly num: number;
  readonly den: number;
  /** Zero shift in coherent SI units; only a lone affine atom (°C) has one. */
  readonly offset: number;
}

interface Atom {
  readonly name: string;
  readonly dimension: Dimension;
  readonly num: number;
  readonly den: number;
  readonly offset: number;
  /** Eligible as the name of an arithmetic result that lands on its dimension and factor. */
  readonly preferred: boolean;
  /** The factor num/den exactly, where the doubles cannot hold it (a model's unit of a library one). */
  readonly exact?: Rational;
}

const ATOMS = new Map<string, Atom>();
const ALIASES = new Map<string, string>();

function dim(spec: Partial<Record<(typeof BASE_SYMBOLS)[number], number>>): Dimension {
  return DIMENSIONLESS.map((_, i) => spec[BASE_SYMBOLS[i]!] ?? 0);
}

function atom(
  name: string,
  dimension: Dimension,
  num: number,
  den: number,
  options: { aliases?: string[]; offset?: number; preferred?: boolean; exact?: Rational } = {},
): void {
  ATOMS.set(name, { name, dimension, num, den, offset: options.offset ?? 0, preferred: options.preferred ?? true, ...(options.exact ? { exact: options.exact } : {}) });
  ALIASES.set(name, name);
  for (const alias of options.aliases ?? []) ALIASES.set(alias, name);
}

const LENGTH = dim({ L: 1 });
const MASS = dim({ M: 1 });
const TIME = dim({ T: 1 });
const CURRENT = dim({ I: 1 });
const TEMPERATURE = dim({ Θ: 1 });
const FORCE = dim({ M: 1, L: 1, T: -2 });
const ENERGY = dim({ M: 1, L: 2, T: -2 });
const POWER = dim({ M: 1, L: 2, T: -3 });
const PRESSURE = dim({ M: 1, L: -1, T: -2 });
const VOLTAGE = dim({ M: 1, L: 2, T: -3, I: -1 });
const RESISTANCE = dim({ M: 1, L: 2, T: -3, I: -2 });
const VOLUME = dim({ L: 3 });
const ANGLE_DIM = dim({ angle: 1 });

// Length
atom('m', LENGTH, 1, 1, { aliases: ['metre', 'meter'] });
atom('km', LENGTH, 1000, 1, { aliases: ['kilometre', 'kilometer'] });
atom('cm', LENGTH, 1, 100, { aliases: ['centimetre', 'centimeter'] });
atom('mm', LENGTH, 1, 1000, { aliases: ['millimetre', 'millimeter'] });
atom('µm', LENGTH, 1, 1e6, { aliases: ['μm', 'um', 'micrometre'] });
atom('nm', LENGTH, 1, 1e9, { aliases: ['nanometre'] });
// Mass (coherent SI unit is kg, so g is 1/1000 of it)
atom('kg', MASS, 1, 1, { aliases: ['kilogram'] });
atom('g', MASS, 1, 1000, { aliases: ['gram'] });
atom('mg', MASS, 1, 1e6, { aliases: ['milligram'] });
atom('t', MASS, 1000, 1, { aliases: ['tonne'] });
// Time
atom('s', TIME, 1, 1, { aliases: ['second', 'sec'] });
atom('ms', TIME, 1, 1000, { aliases: ['millisecond'] });
atom('min', TIME, 60, 1, { aliases: ['minute'] });
atom('h', TIME, 3600, 1, { aliases: ['hour', 'hr'] });
atom('d', TIME, 86400, 1, { aliases: ['day'] });
// Mechanics
atom('N', FORCE, 1, 1, { aliases: ['newton'] });
atom('kN', FORCE, 1000, 1, { aliases: ['kilonewton'] });
atom('mN', FORCE, 1, 1000, { aliases: ['millinewton'] });
atom('J', ENERGY, 1, 1, { aliases: ['joule'] });
atom('kJ', ENERGY, 1000, 1, { aliases: ['kilojoule'] });
atom('MJ', ENERGY, 1e6, 1, { aliases: ['megajoule'] });
atom('GJ', ENERGY, 1e9, 1, { aliases: ['gigajoule'] });
atom('Wh', ENERGY, 3600, 1, { aliases: ['W⋅h'] });
atom('kWh', ENERGY, 3.6e6, 1, { aliases: ['kW⋅h'] });
atom('W', POWER, 1, 1, { aliases: ['watt'] });
atom('kW', POWER, 1000, 1, { aliases: ['kilowatt'] });
atom('MW', POWER, 1e6, 1, { aliases: ['megawatt'] });
atom('Pa', PRESSURE, 1, 1, { aliases: ['pascal'] });
atom('kPa', PRESSURE, 1000, 1, { aliases: ['kilopascal'] });
atom('MPa', PRESSURE, 1e6, 1, { aliases: ['megapascal'] });
atom('bar', PRESSURE, 100000, 1);
// Electromagnetism
atom('A', CURRENT, 1, 1, { aliases: ['ampere'] });
atom('mA', CURRENT, 1, 1000, { aliases: ['milliampere'] });
atom('V', VOLTAGE, 1, 1, { aliases: ['volt'] });
atom('mV', VOLTAGE, 1, 1000, { aliases: ['millivolt'] });
atom('kV', VOLTAGE, 1000, 1, { aliases: ['kilovolt'] });
atom('Ω', RESISTANCE, 1, 1, { aliases: ['Ohm', 'ohm', 'Ω'] });
atom('C', dim({ I: 1, T: 1 }), 1, 1, { aliases: ['coulomb'], preferred: false });
// Thermodynamics: K is both a point and a difference; °C is a point on the shifted scale.
atom('K', TEMPERATURE, 1, 1, { aliases: ['kelvin'] });
atom('°C', TEMPERATURE, 1, 1, { aliases: ['degC', '℃', '°C_abs'], offset: 273.15, preferred: false });
// Other base units
atom('mol', dim({ N: 1 }), 1, 1, { aliases: ['mole'] });
atom('cd', dim({ J: 1 }), 1, 1, { aliases: ['candela'] });
// Frequency: never chosen for a result (1/s stays 1/s; rad/s is not Hz).
atom('Hz', dim({ T: -1 }), 1, 1, { aliases: ['hertz'], preferred: false });
atom('kHz', dim({ T: -1 }), 1000, 1, { aliases: ['kilohertz'], preferred: false });
// Angles: dimensionless, distinguishable.
atom('rad', ANGLE_DIM, 1, 1, { aliases: ['radian'] });
atom('°', ANGLE_DIM, Math.PI, 180, { aliases: ['deg', 'degree'] });
atom('sr', dim({ angle: 2 }), 1, 1, { aliases: ['steradian'], preferred: false });
// Volume
atom('L', VOLUME, 1, 1000, { aliases: ['l', 'litre', 'liter'] });
atom('mL', VOLUME, 1, 1e6, { aliases: ['ml', 'millilitre'] });
// US customary (USCustomaryUnits): read and converted, never chosen to name a result.
atom('ft', LENGTH, 3048, 10000, { aliases: ['foot'], preferred: false });
atom('in', LENGTH, 254, 10000, { aliases: ['inch'], preferred: false });
atom('yd', LENGTH, 9144, 10000, { aliases: ['yard'], preferred: false });
atom('mi', LENGTH, 1609344, 1000, { aliases: ['mile'], preferred: false });
atom('lb', MASS, 45359237, 1e8, { aliases: ['pound'], preferred: false });
// Their definitions are exact fractions the doubles only approach: lbf = 0.45359237 kg × 9.80665 m/s²,
// psi = lbf/in² (in = 0.0254 m), gal = 231 in³.
atom('lbf', FORCE, 4.4482216152605, 1, { aliases: ['pound-force'], preferred: false, exact: { n: 8896443230521n, d: 2000000000000n } });
atom('psi', PRESSURE, 6894.757293168362, 1, { preferred: false, exact: { n: 8896443230521n, d: 1290320000n } });
atom('gal', VOLUME, 3.785411784, 1000, { aliases: ['gallon'], preferred: false, exact: { n: 473176473n, d: 125000000000n } });
// °F: 5/9 K per degree, zero at 459.67 °R = 255.372… K.
atom('°F', TEMPERATURE, 5, 9, { aliases: ['degF', '℉'], offset: (459.67 * 5) / 9, preferred: false });
// The dimensionless unit of the SI library.
atom('one', DIMENSIONLESS, 1, 1, { preferred: false });

// Percent: the dimensionless 1/100 (`50 [%]` is 0.5).
atom('%', DIMENSIONLESS, 1, 100, { aliases: ['percent'], preferred: false });

/** Library units declared as an expression of others (`'in³' = 'in'^3`, `mph` for `'mi/h'`), by name. */
const EXPRESSION_ALIASES = new Map<string, string>();

/** `5/9`, `3.048E-01`, `24`, `1.0e-28` as numerator/denominator, exact for decimals (3048/10000). */
function libraryFactor(text: string): [number, number] | undefined {
  const ratio = /^\s*([0-9.eE+-]+)\s*\/\s*([0-9.eE+-]+)\s*$/.exec(text);
  if (ratio) {
    const a = libraryFactor(ratio[1]!);
    const b = libraryFactor(ratio[2]!);
    return a && b ? [a[0] * b[1], a[1] * b[0]] : undefined;
  }
  const m = /^\s*([0-9]+)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?\s*$/.exec(text);
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  const exponent = Number(m[3] ?? 0) - fraction.length;
  const mantissa = Number(m[1]! + fraction);
  return exponent >= 0 ? [mantissa * 10 ** exponent, 1] : [mantissa, 10 ** -exponent];
}

/**
 * Adds every unit of the library's text (library-units.ts) that the exact table above does not
 * already name: a ConversionByConvention/ConversionByPrefix unit becomes an atom (its reference
 * unit's dimension, factor × the reference's factor), a DerivedUnit expression an alias of that
 * expression. A unit whose reference the engine cannot read stays unknown (refused by name).
 */
let libraryUnitsLoaded = false;

function loadLibraryUnits(): void {
  if (libraryUnitsLoaded) return;
  libraryUnitsLoaded = true;
  const known = (n: string): boolean => ALIASES.has(n) || EXPRESSION_ALIASES.has(n);
  let pending = LIBRARY_UNITS.filter(([short, name]) => !(short !== null && known(short)) && !known(name));
  for (let progress = true; progress && pending.length; ) {
    progress = false;
    const next: typeof pending = [];
    for (const row of pending) {
      const [short, name, , reference, factorOrExpression, kind] = row;
      const names = [short, name].filter((n): n is string => n !== null && !known(n));
      if (!names.length) continue;
      try {
        if (kind === 'derived' && factorOrExpression !== null) {
          const terms = parseTerms(factorOrExpression);
          const u = fromTerms(terms);
          // A named unit of its own dimension (`H` = Wb/A, `Wb`, `T`, `F`, `Gy`) keeps its name where a
          // model writes it (`0.2 [H]` read as `V*s/A` before); a dimensionless one (`B`, `dB`) and a
          // product of units without a name of its own stay the expression they are.
          if (u.offset === 0 && !isDimensionless(u.dimension) && /^[A-Za-zΩ]+$/.test(names[0]!)) {
            atom(names[0]!, u.dimension, u.num, u.den, { aliases: names.slice(1), preferred: false });
          } else for (const n of names) EXPRESSION_ALIASES.set(n, factorOrExpression);
        } else if ((kind === 'exact' || kind === 'inexact') && reference !== null && factorOrExpression !== null) {
          const factor = libraryFactor(factorOrExpression);
          if (!factor) continue;
          const ref = fromTerms(parseTerms(reference));
          if (ref.offset !== 0) continue;
          atom(names[0]!, ref.dimension, factor[0] * ref.num, factor[1] * ref.den, { aliases: names.slice(1), preferred: false });
        } else continue;
        progress = true;
      } catch (e) {
        if (!(e instanceof UnitSyntaxError)) throw e;
        next.push(row);
      }
    }
    pending = next;
  }
  for (const [alias, target] of LIBRARY_UNIT_ALIASES) {
    if (known(alias) || !known(target)) continue;
    const canonical = ALIASES.get(target);
    if (canonical) ALIASES.set(alias, canonical);
    else EXPRESSION_ALIASES.set(alias, EXPRESSION_ALIASES.get(target)!);
  }
}

/** Compound units that keep their own name when a result lands on them (`N*m` stays torque). */
const NAMED_COMPOUNDS = ['m/s', 'm/s^2', 'km/h', 'N*m', 'kg*m^2', 'm^2', 'm^3', 'kg/m^3', 'rad/s', '1/s', 'N/m'];

/** Coherent names for a derived dimension at factor 1, tried before composing a name from base atoms. */
const COHERENT_BY_DIMENSION: ReadonlyArray<readonly [Dimension, string]> = [
  [LENGTH, 'm'], [MASS, 'kg'], [TIME, 's'], [CURRENT, 'A'], [TEMPERATURE, 'K'],
  [FORCE, 'N'], [ENERGY, 'J'], [POWER, 'W'], [PRESSURE, 'Pa'], [VOLTAGE, 'V'], [RESISTANCE, 'Ω'],
  [dim({ L: 1, T: -1 }), 'm/s'], [dim({ L: 1, T: -2 }), 'm/s^2'], [dim({ L: 2 }), 'm^2'], [VOLUME, 'm^3'],
  [ANGLE_DIM, 'rad'], [dim({ T: -1 }), '1/s'], [dim({ M: 1, L: -3 }), 'kg/m^3'],
  [dim({ angle: 1, T: -1 }), 'rad/s'],
];

export class UnitSyntaxError extends Error {}

// ---------------------------------------------------------------------------------------------------
// Dimension arithmetic

export function sameDimension(a: Dimension, b: Dimension): boolean {
  for (let i = 0; i < a.length; i++) if (i !== ANGLE && a[i] !== b[i]) return false;
  return true;
}

function exactlySameDimension(a: Dimension, b: Dimension): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function isDimensionless(d: Dimension): boolean {
  return sameDimension(d, DIMENSIONLESS);
}

function addDims(a: Dimension, b: Dimension, scale = 1): Dimension {
  return a.map((x, i) => x + scale * b[i]!) as unknown as Dimension;
}

/** Human text for a dimension, e.g. `L·T⁻¹` → `L*T^-1`. */
export function formatDimension(d: Dimension): string {
  const parts: string[] = [];
  d.forEach((e, i) => {
    const symbol = BASE_SYMBOLS[i] ?? OWN_NAMES[i - BASE_SYMBOLS.length] ?? `own${i}`;
    if (e !== 0) parts.push(e === 1 ? symbol : `${symbol}^${e}`);
  });
  return parts.length ? parts.join('*') : '1';
}

// ---------------------------------------------------------------------------------------------------
// Building units from terms

type Terms = Array<[string, number]>;

function normaliseTerms(terms: ReadonlyArray<readonly [string, number]>): Terms {
  const merged = new Map<string, number>();
  for (const [name, e] of terms) merged.set(name, (merged.get(name) ?? 0) + e);
  return [...merged].filter(([, e]) => e !== 0);
}

/** How a model-defined atom reads (its key also holds its definition, so two models' `mpg` never mix). */
const DISPLAY = new Map<string, string>();

function powerText(key: string, e: number): string {
  const name = DISPLAY.get(key) ?? key;
  return e === 1 ? name : `${name}^${e}`;
}

/** `kg*m^2/s^2`, `1/s`, `J/(kg*K)`: numerator atoms in order, then the denominator. */
function composeName(terms: ReadonlyArray<readonly [string, number]>): string {
  const up = terms.filter(([, e]) => e > 0).map(([n, e]) => powerText(n, e));
  const down = terms.filter(([, e]) => e < 0).map(([n, e]) => powerText(n, -e));
  const top = up.length ? up.join('*') : '1';
  if (!down.length) return top;
  return `${top}/${down.length > 1 ? `(${down.join('*')})` : down[0]}`;
}

function signature(terms: ReadonlyArray<readonly [string, number]>): string {
  return [...terms].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, e]) => `${n}^${e}`).join(' ');
}

function fromTerms(rawTerms: ReadonlyArray<readonly [string, number]>, name?: string): Unit {
  const terms = normaliseTerms(rawTerms);
  let dimension = DIMENSIONLESS;
  let num = 1;
  let den = 1;
  for (const [n, e] of terms) {
    const a = ATOMS.get(n)!;
    dimension = addDims(dimension, a.dimension, e);
    const k = Math.abs(e);
    const [an, ad] = e > 0 ? [a.num, a.den] : [a.den, a.num];
    num *= an ** k;
    den *= ad ** k;
  }
  // Only a lone affine atom at power 1 is a point on a shifted scale (°C); in compounds it is a difference.
  const only = terms.length === 1 && terms[0]![1] === 1 ? ATOMS.get(terms[0]![0])! : undefined;
  return { name: name ?? composeName(terms), terms, dimension, num, den, offset: only?.offset ?? 0 };
}

let knownBySignature: Map<string, Unit> | undefined;

/** Atoms and named compounds by term signature, built on first use (after the parser exists). */
function known(): Map<string, Unit> {
  if (knownBySignature) return knownBySignature;
  const table = new Map<string, Unit>();
  for (const a of ATOMS.values()) table.set(signature([[a.name, 1]]), fromTerms([[a.name, 1]]));
  knownBySignature = table;
  for (const text of NAMED_COMPOUNDS) {
    const u = fromTerms(parseTerms(text));
    table.set(signature(u.terms), { ...u, name: text });
  }
  return table;
}

let namedCompoundUnits: Unit[] | undefined;

function namedCompounds(): Unit[] {
  namedCompoundUnits ??= NAMED_COMPOUNDS.map((text) => known().get(signature(fromTerms(parseTerms(text)).terms))!);
  return namedCompoundUnits;
}

function factorOf(u: { num: number; den: number }): number {
  return u.num / u.den;
}

function closeFactor(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
}

// Arithmetic meets the same few units over and over: remember what each product of terms becomes.
const FROM_TERMS_CACHE = new Map<string, Unit>();

/** A unit from a product of terms, named the most natural way (see docs/semantics.md, "Result units"). */
export function unitFromTerms(rawTerms: ReadonlyArray<readonly [string, number]>): Unit {
  const key = rawTerms.map(([n, e]) => `${n}^${e}`).join(' ');
  let unit = FROM_TERMS_CACHE.get(key);
  if (!unit) {
    unit = nameResult(rawTerms);
    if (FROM_TERMS_CACHE.size < 10_000) FROM_TERMS_CACHE.set(key, unit);
  }
  return unit;
}

function nameResult(rawTerms: ReadonlyArray<readonly [string, number]>): Unit {
  const composed = fromTerms(rawTerms);
  if (composed.terms.length === 0) return composed;
  const named = known().get(signature(composed.terms));
  if (named) return named;
  const f = factorOf(composed);
  for (const a of ATOMS.values()) {
    if (a.preferred && exactlySameDimension(a.dimension, composed.dimension) && closeFactor(a.num / a.den, f)) {
      return fromTerms([[a.name, 1]]);
    }
  }
  for (const u of namedCompounds()) {
    if (exactlySameDimension(u.dimension, composed.dimension) && closeFactor(factorOf(u), f)) return u;
  }
  return composed;
}

/** The coherent SI unit of a dimension: a derived name (N, J, W, m/s) or a product of base units. */
export function coherentUnit(d: Dimension): Unit {
  for (const [cd, name] of COHERENT_BY_DIMENSION) if (exactlySameDimension(cd, d)) return parseUnit(name);
  const base = ['m', 'kg', 's', 'A', 'K', 'mol', 'cd', 'rad', ...OWN_NAMES.map(ownKey)];
  return fromTerms(base.map((n, i) => [n, d[i]!] as [string, number]));
}

/** True when the unit mixes two atoms of one base dimension (km·s/h): such results read better coherent. */
function mixesScales(u: Unit): boolean {
  const seen = new Set<number>();
  for (const [n] of u.terms) {
    const d = ATOMS.get(n)!.dimension;
    const nonzero = d.map((e, i) => (e !== 0 ? i : -1)).filter((i) => i >= 0);
    if (nonzero.length !== 1) continue;
    const axis = nonzero[0]!;
    if (seen.has(axis)) return true;
    seen.add(axis);
  }
  return false;
}

export const ONE: Unit = fromTerms([]);

export function isOne(u: Unit): boolean {
  return u.terms.length === 0;
}

// ---------------------------------------------------------------------------------------------------
// Parsing unit text: `km/h`, `m/s^2`, `m/s**2`, `N*m`, `kg*m^2`, `1/s`, `m⋅s⁻²`, `'m/s'`, `SI::'m/s'`

const SUPERSCRIPTS: Record<string, string> = {
  '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', '⁻': '-',
};

type Token = { kind: 'name'; text: string } | { kind: 'number'; value: number } | { kind: 'op'; text: string };

function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '*' && text[i + 1] === '*') { tokens.push({ kind: 'op', text: '^' }); i += 2; continue; }
    if (c === '*' || c === '⋅' || c === '·' || c === '/' || c === '^' || c === '(' || c === ')') {
      tokens.push({ kind: 'op', text: c === '⋅' || c === '·' ? '*' : c });
      i++;
      continue;
    }
    if (c in SUPERSCRIPTS) {
      let digits = '';
      while (i < text.length && text[i]! in SUPERSCRIPTS) digits += SUPERSCRIPTS[text[i++]!];
      tokens.push({ kind: 'op', text: '^' }, { kind: 'number', value: Number(digits) });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(text[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < text.length && /[0-9.]/.test(text[j]!)) j++;
      tokens.push({ kind: 'number', value: Number(text.slice(i, j)) });
      i = j;
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new UnitSyntaxError(`unclosed quote in unit '${text}'`);
      tokens.push({ kind: 'name', text: text.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    // A name: letters, °, Ω, µ, underscores, and a `::` qualifier (only the last segment counts).
    let j = i;
    // Digits after the first character (`Btu_IT`, `ftH2O`); superscripts stay exponents.
    while (j < text.length && (j === i ? /[\p{L}°℃%_]/u : /[\p{L}\p{Nd}°℃_]/u).test(text[j]!)) j++;
    if (j === i) throw new UnitSyntaxError(`unexpected '${c}' in unit '${text}'`);
    if (text.startsWith('::', j)) { i = j + 2; continue; }
    tokens.push({ kind: 'name', text: text.slice(i, j) });
    i = j;
  }
  return tokens;
}

/** Resolves one short name (or a quoted compound like `'m/s'`) to its terms. */
/** Units a caller knows besides the library's (a model's own, by the name its `[ … ]` would use). */
type UnitNames = (name: string) => Unit | undefined;

function termsOfName(name: string, whole: string, more?: UnitNames): Terms {
  const canonical = ALIASES.get(name);
  if (canonical) return [[canonical, 1]];
  // A name the exact table does not know: the library's units are read on first need, not at start-up
  // (about 20 ms that every process importing this module would otherwise pay).
  if (!libraryUnitsLoaded) {
    loadLibraryUnits();
    return termsOfName(name, whole, more);
  }
  const expression = EXPRESSION_ALIASES.get(name);
  if (expression !== undefined) return parseTerms(expression);
  if (/[*/^⋅·⁻²³]/.test(name)) return parseTerms(name, more);
  const own = more?.(name);
  if (own) return own.terms.map(([n, e]) => [n, e] as [string, number]);
  throw new UnitSyntaxError(`unknown unit '${name}'${whole !== name ? ` in '${whole}'` : ''}`);
}

const PARSE_CACHE = new Map<string, Unit>();

/** Parses unit text as written inside `[ … ]` or after `SI::`. Throws UnitSyntaxError on bad text. */
export function parseUnit(text: string): Unit {
  const cached = PARSE_CACHE.get(text);
  if (cached) return cached;
  const parsed = fromTerms(parseTerms(text));
  const unit = known().get(signature(parsed.terms)) ?? parsed;
  if (PARSE_CACHE.size < 10_000) PARSE_CACHE.set(text, unit);
  return unit;
}

function parseTerms(text: string, more?: UnitNames): Terms {
  const tokens = tokenise(text.trim());
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isOp = (t: Token | undefined, op: string): boolean => t?.kind === 'op' && t.text === op;

  function factor(): Terms {
    const t = tokens[pos++];
    let terms: Terms;
    if (!t) throw new UnitSyntaxError(`unit '${text}' ends early`);
    if (t.kind === 'name') terms = termsOfName(t.text, text, more);
    else if (t.kind === 'number' && t.value === 1) terms = [];
    else if (isOp(t, '(')) {
      terms = product();
      if (!isOp(tokens[pos++], ')')) throw new UnitSyntaxError(`missing ')' in unit '${text}'`);
    } else throw new UnitSyntaxError(`unexpected ${t.kind === 'number' ? t.value : t.text} in unit '${text}'`);
    while (isOp(peek(), '^')) {
      pos++;
      const parenthesised = isOp(peek(), '(');
      if (parenthesised) pos++;
      const e = tokens[pos++];
      if (e?.kind !== 'number' || !Number.isInteger(e.value)) throw new UnitSyntaxError(`exponent must be an integer in unit '${text}'`);
      if (parenthesised && !isOp(tokens[pos++], ')')) throw new UnitSyntaxError(`missing ')' in unit '${text}'`);
      terms = terms.map(([n, x]) => [n, x * e.value]);
    }
    return terms;
  }

  function product(): Terms {
    let terms = factor();
    for (;;) {
      if (isOp(peek(), '*')) { pos++; terms = terms.concat(factor()); }
      else if (isOp(peek(), '/')) { pos++; terms = terms.concat(factor().map(([n, e]) => [n, -e] as [string, number])); }
      else return terms;
    }
  }

  const terms = product();
  if (pos < tokens.length) throw new UnitSyntaxError(`unexpected text after unit in '${text}'`);
  return terms;
}

const NOT_A_UNIT = new Set<string>();

/** Parses, returning undefined for unknown or malformed unit text. */
export function tryParseUnit(text: string): Unit | undefined {
  if (NOT_A_UNIT.has(text)) return undefined;
  try {
    return parseUnit(text);
  } catch (e) {
    if (!(e instanceof UnitSyntaxError)) throw e;
    if (NOT_A_UNIT.size < 10_000) NOT_A_UNIT.add(text);
    return undefined;
  }
}

/**
 * Unit text whose names may also be units the caller knows (a model's own: `mi/gallon` where the model
 * declares `gallon`), read as `[ … ]` reads them; undefined for unknown or malformed text. Not cached:
 * the names depend on the caller.
 */
export function tryParseUnitWith(text: string, more: UnitNames): Unit | undefined {
  const library = tryParseUnit(text);
  if (library) return library;
  try {
    return fromTerms(parseTerms(text, more));
  } catch (e) {
    if (!(e instanceof UnitSyntaxError)) throw e;
    return undefined;
  }
}

/** Every short name and alias the library knows, for completions and docs. */
export function knownUnitNames(): string[] {
  loadLibraryUnits();
  return [...ALIASES.keys(), ...EXPRESSION_ALIASES.keys()];
}

/**
 * A unit a model defines by a feature typed by a unit type: `attribute gallon : VolumeUnit =
 * 231.0 * 'in' ** 3;` is `scale` (231) times `base` (in³), named `gallon`; `attribute mpg :
 * DerivedUnit = 'mi' / gallon;` is mi/gallon named `mpg`. Known only through that feature (not by
 * text), so the same name in another model is another unit.
 */
export function modelUnit(name: string, base: Unit, scale = 1, scaleExact?: Rational): Unit | undefined {
  if (!Number.isFinite(scale) || scale <= 0 || base.offset !== 0) return undefined;
  const [num, den] = [base.num * scale, base.den];
  const key = `${name}⟨${formatDimension(base.dimension)}·${num}/${den}⟩`;
  if (!ATOMS.has(key)) {
    // Exact when the scale and the base's factor are (`4.0 * 'in' ** 3`; 'mi' / that).
    const b = exactFactor(base);
    const exact = b && scaleExact ? multiplyRational(b, scaleExact) : undefined;
    ATOMS.set(key, { name: key, dimension: base.dimension, num, den, offset: 0, preferred: false, ...(exact ? { exact } : {}) });
    DISPLAY.set(key, name);
  }
  return fromTerms([[key, 1]]);
}

const ownKey = (name: string): string => `${name}⟨own dimension⟩`;

/**
 * A unit a model declares without a conversion to any other (`attribute <USD> dollar :
 * MeasurementUnit;`): the base unit of a dimension of its own, so `10 [USD] + 5 [EUR]` is a dimension
 * error unless the model defines one from the other (`EUR : MeasurementUnit = 1.1 * USD`). Undefined
 * when the engine has no slot left (OWN_SLOTS names per process).
 */
export function ownDimensionUnit(name: string): Unit | undefined {
  let slot = OWN_NAMES.indexOf(name);
  if (slot < 0) {
    if (OWN_NAMES.length >= OWN_SLOTS) return undefined;
    slot = OWN_NAMES.push(name) - 1;
    const at = BASE_SYMBOLS.length + slot;
    ATOMS.set(ownKey(name), { name: ownKey(name), dimension: DIMENSIONLESS.map((_, i) => (i === at ? 1 : 0)), num: 1, den: 1, offset: 0, preferred: false });
    DISPLAY.set(ownKey(name), name);
  }
  return fromTerms([[ownKey(name), 1]]);
}

// ---------------------------------------------------------------------------------------------------
// Arithmetic on units

// Products and quotients by the pair of units (a sweep multiplies the same units every row).
const PRODUCTS = new WeakMap<Unit, WeakMap<Unit, Unit>>();
const QUOTIENTS = new WeakMap<Unit, WeakMap<Unit, Unit>>();

function byPair(cache: WeakMap<Unit, WeakMap<Unit, Unit>>, a: Unit, b: Unit, make: () => Unit): Unit {
  let inner = cache.get(a);
  if (!inner) cache.set(a, (inner = new WeakMap()));
  let u = inner.get(b);
  if (!u) inner.set(b, (u = make()));
  return u;
}

export function multiplyUnits(a: Unit, b: Unit): Unit {
  return byPair(PRODUCTS, a, b, () => unitFromTerms([...a.terms, ...b.terms]));
}

export function divideUnits(a: Unit, b: Unit): Unit {
  return byPair(QUOTIENTS, a, b, () => unitFromTerms([...a.terms, ...b.terms.map(([n, e]) => [n, -e] as [string, number])]));
}

/** `u ** e` for a rational `e` that leaves every exponent an integer; undefined otherwise. */
export function powerUnit(u: Unit, e: number): Unit | undefined {
  const terms: Terms = [];
  for (const [n, x] of u.terms) {
    const y = x * e;
    if (!Number.isInteger(Math.round(y * 1e9) / 1e9)) return undefined;
    terms.push([n, Math.round(y)]);
  }
  return unitFromTerms(terms);
}

/** Scale factor from `u` to the coherent SI unit of its dimension, as a plain number. */
export function factorToCoherent(u: Unit): number {
  return u.num / u.den;
}

/** Exact zero shifts of the affine scales, in K (the doubles in their atoms round them). */
const EXACT_OFFSETS: ReadonlyMap<string, Rational> = new Map([
  ['°C', { n: 27315n, d: 100n }],
  // 459.67 °R · 5/9 K/°R.
  ['°F', { n: 45967n, d: 180n }],
]);

const EXACT_FACTORS = new WeakMap<Unit, Rational | null>();

/**
 * A unit's factor to the coherent SI unit as an exact fraction: the product of its atoms' factors,
 * each a ratio of whole numbers a double holds exactly (km, h, ft, lb, a model's `4 * 'in' ** 3`);
 * undefined when one is not (lbf, gal, °) or the product disagrees with the unit's own factor.
 */
export function exactFactor(u: Unit): Rational | undefined {
  let f = EXACT_FACTORS.get(u);
  if (f === undefined) {
    f = computeExactFactor(u) ?? null;
    EXACT_FACTORS.set(u, f);
  }
  return f ?? undefined;
}

function computeExactFactor(u: Unit): Rational | undefined {
  if (Number.isSafeInteger(u.num) && Number.isSafeInteger(u.den) && u.terms.every(([n]) => !ATOMS.get(n)?.exact)) return rational(BigInt(u.num), BigInt(u.den));
  let f: Rational | undefined = { n: 1n, d: 1n };
  for (const [name, exponent] of u.terms) {
    const a = ATOMS.get(name);
    if (!a || !Number.isInteger(exponent)) return undefined;
    const af = a.exact ?? (Number.isSafeInteger(a.num) && Number.isSafeInteger(a.den) ? rational(BigInt(a.num), BigInt(a.den)) : undefined);
    if (!af) return undefined;
    const k = BigInt(Math.abs(exponent));
    const [n, d] = exponent >= 0 ? [af.n, af.d] : [af.d, af.n];
    f = rational(f.n * n ** k, f.d * d ** k);
    if (!f) return undefined;
  }
  // The unit's own factor is the same product in doubles: a unit not made of its terms alone is not taken.
  const approx = Number(f.n) / Number(f.d);
  return Math.abs(approx - u.num / u.den) <= 1e-12 * Math.abs(u.num / u.den) ? f : undefined;
}

/** The exact zero shift whose double is `offset` (an affine scale's, 273.15 for °C), or undefined. */
export function exactOffsetOf(offset: number): Rational | undefined {
  if (offset === 0) return { n: 0n, d: 1n };
  for (const r of EXACT_OFFSETS.values()) if (Number(r.n) / Number(r.d) === offset) return r;
  return undefined;
}

/** A unit's zero shift in K as an exact fraction (0 for units without one), undefined when it is not known exactly. */
export function exactOffset(u: Unit): Rational | undefined {
  if (u.offset === 0) return { n: 0n, d: 1n };
  return u.terms.length === 1 ? EXACT_OFFSETS.get(u.terms[0]![0]) : undefined;
}

/** convertMagnitude on an exact magnitude: exact where the units' factors and offsets are, else undefined. */
export function convertExact(x: Rational, from: Unit, to: Unit, asDifference = false): Rational | undefined {
  if (!sameDimension(from.dimension, to.dimension)) return undefined;
  if (from === to || (from.name === to.name && from.num === to.num && from.den === to.den)) return x;
  const f = exactFactor(from);
  const t = exactFactor(to);
  if (!f || !t) return undefined;
  let coherent = multiplyRational(x, f);
  if (!coherent) return undefined;
  if (!asDifference && (from.offset !== 0 || to.offset !== 0)) {
    const fo = exactOffset(from);
    const to_ = exactOffset(to);
    if (!fo || !to_) return undefined;
    coherent = addRational(coherent, subtractRational(fo, to_) ?? { n: 0n, d: 1n });
    if (!coherent) return undefined;
  }
  return divideRational(coherent, t);
}

/**
 * Converts a magnitude between units of the same dimension. `asDifference` drops the zero shift
 * (an interval of 10 °C is 10 K). Returns undefined when dimensions differ.
 */
export function convertMagnitude(value: number, from: Unit, to: Unit, asDifference = false): number | undefined {
  if (!sameDimension(from.dimension, to.dimension)) return undefined;
  if (from === to || (from.name === to.name && from.num === to.num && from.den === to.den)) return value;
  if (asDifference || (from.offset === 0 && to.offset === 0)) {
    // Multiply first, divide last: keeps 90·1000/3600 exact where the factors are integers.
    return (value * from.num * to.den) / (from.den * to.num);
  }
  return (((value * from.num) / from.den + from.offset - to.offset) * to.den) / to.num;
}

/**
 * After a product or quotient, a unit mixing scales of one dimension (km·s/h) is rewritten in the
 * coherent unit, with the factor to apply to the magnitude.
 */
const TIDY_CACHE = new WeakMap<Unit, { unit: Unit; scale: number }>();

export function tidyUnit(u: Unit): { unit: Unit; scale: number } {
  let tidy = TIDY_CACHE.get(u);
  if (!tidy) {
    tidy = computeTidy(u);
    TIDY_CACHE.set(u, tidy);
  }
  return tidy;
}

function computeTidy(u: Unit): { unit: Unit; scale: number } {
  // A pure number unit (`%`) among other units is a factor of the magnitude: 200 kg · 5 % is 10 kg.
  const pure = u.terms.filter(([n]) => exactlySameDimension(ATOMS.get(n)!.dimension, DIMENSIONLESS));
  if (pure.length && pure.length < u.terms.length) {
    const rest = unitFromTerms(u.terms.filter(([n]) => !exactlySameDimension(ATOMS.get(n)!.dimension, DIMENSIONLESS)));
    const inner = computeTidy(rest);
    return { unit: inner.unit, scale: (inner.scale * factorToCoherent(u)) / factorToCoherent(rest) };
  }
  if (!mixesScales(u)) return { unit: u, scale: 1 };
  const coherent = coherentUnit(u.dimension);
  return { unit: coherent, scale: factorToCoherent(u) / factorToCoherent(coherent) };
}

// ---------------------------------------------------------------------------------------------------
// ISQ quantity kinds: `ISQ::MassValue` / `ISQ::mass` → dimension and coherent unit

const QUANTITY_KINDS: ReadonlyArray<readonly [names: readonly string[], unit: string]> = [
  [['LengthValue', 'length', 'distance', 'DistanceValue'], 'm'],
  [['MassValue', 'mass'], 'kg'],
  [['DurationValue', 'duration', 'TimeValue', 'time'], 's'],
  [['ElectricCurrentValue', 'electricCurrent'], 'A'],
  [['ThermodynamicTemperatureValue', 'thermodynamicTemperature', 'TemperatureValue', 'temperature'], 'K'],
  [['AmountOfSubstanceValue', 'amountOfSubstance'], 'mol'],
  [['LuminousIntensityValue', 'luminousIntensity'], 'cd'],
  [['SpeedValue', 'speed', 'VelocityValue'], 'm/s'],
  [['AccelerationValue', 'acceleration'], 'm/s^2'],
  [['ForceValue', 'force'], 'N'],
  [['EnergyValue', 'energy', 'WorkValue', 'work'], 'J'],
  [['PowerValue', 'power'], 'W'],
  [['PressureValue', 'pressure'], 'Pa'],
  [['TorqueValue', 'torque', 'MomentOfForceValue'], 'N*m'],
  [['AreaValue', 'area'], 'm^2'],
  [['VolumeValue', 'volume'], 'm^3'],
  [['FrequencyValue', 'frequency'], 'Hz'],
  [['AngularMeasureValue', 'angularMeasure', 'PlaneAngleValue'], 'rad'],
  [['ElectricPotentialValue', 'electricPotential', 'VoltageValue', 'voltage'], 'V'],
  [['ResistanceValue', 'resistance'], 'Ω'],
  [['ElectricChargeValue', 'electricCharge'], 'C'],
  [['InductanceValue', 'inductance'], 'H'],
  [['MassDensityValue', 'massDensity', 'DensityValue', 'density'], 'kg/m^3'],
  [['MomentOfInertiaValue', 'momentOfInertia'], 'kg*m^2'],
];

/** The coherent unit of an ISQ quantity kind named by its definition (`MassValue`) or its usage
 * (`mass`), qualified or not; undefined for names that are not quantity kinds. */
export function quantityKindUnit(typeName: string): Unit | undefined {
  // Asked for every value a row or a state checks against its feature's type: kept per name.
  let u = KIND_UNITS.get(typeName);
  if (u === undefined) {
    const simple = typeName.split('::').at(-1)!.replace(/^'|'$/g, '');
    u = null;
    for (const [names, unit] of QUANTITY_KINDS) {
      if (names.includes(simple)) {
        u = parseUnit(unit);
        break;
      }
    }
    KIND_UNITS.set(typeName, u);
  }
  return u ?? undefined;
}

const KIND_UNITS = new Map<string, Unit | null>();

/**
 * Whether a quantity in `unit` is a value of the quantity kind named `typeName` (`istype`, `@`, `as`):
 * undefined when `typeName` is not a kind of the table. Another dimension: false. The same dimension
 * decides alone only where no other kind of the table shares it: energy and torque both measure
 * kg·m²/s², and the library types a value by its unit's declaration (`J : EnergyUnit`, `'N⋅m' :
 * TorqueUnit`), so there a value is one of the kind only in the kind's own unit as the table names it
 * (`1 [J] istype EnergyValue`) when that is one named unit; in any other unit of that dimension (a
 * product N·m is a torque and a work) the kind is not known: 'ambiguous'.
 */
export function quantityKindHolds(unit: Unit, typeName: string): boolean | 'ambiguous' | undefined {
  const kind = quantityKindUnit(typeName);
  if (!kind) return undefined;
  if (!sameDimension(unit.dimension, kind.dimension)) return false;
  // Angles: the plane-angle slot tells an angle (rad) from a pure number where both are dimensionless.
  if (isDimensionless(kind.dimension) && unit.dimension[ANGLE] !== kind.dimension[ANGLE]) return false;
  const shared = QUANTITY_KINDS.some(([, other]) => {
    const o = parseUnit(other);
    return o.name !== kind.name && exactlySameDimension(o.dimension, kind.dimension);
  });
  if (!shared) return true;
  // A product such as N·m is torque and also work (force times distance): only a named unit declared
  // for the kind itself tells.
  const named = unit.terms.length === 1 && kind.terms.length === 1 && unit.terms[0]![1] === 1 && kind.terms[0]![1] === 1 && unit.terms[0]![0] === kind.terms[0]![0];
  return named ? true : 'ambiguous';
}


/**
 * For a value in `unit` given to a feature of the kind `typeName` of the same dimension: the kind whose
 * own named unit `unit` is, when that is another kind (`5 [J]` for a `TorqueValue`: the library declares
 * `joule : EnergyUnit`, not a TorqueUnit); undefined otherwise (a product such as N·m is either).
 */
export function namedUnitOfOtherKind(unit: Unit, typeName: string): string | undefined {
  if (quantityKindHolds(unit, typeName) !== 'ambiguous') return undefined;
  if (unit.terms.length !== 1 || unit.terms[0]![1] !== 1) return undefined;
  const kind = quantityKindUnit(typeName)!;
  for (const [names, other] of QUANTITY_KINDS) {
    const o = parseUnit(other);
    if (o.name === kind.name || !exactlySameDimension(o.dimension, kind.dimension)) continue;
    // Every named unit of the energy dimension (J, kJ, MJ, Wh …) is declared an EnergyUnit; none a TorqueUnit.
    if (o.terms.length === 1 && o.terms[0]![1] === 1 && !(kind.terms.length === 1 && kind.terms[0]![1] === 1)) return names[0];
  }
  return undefined;
}

/**
 * The coherent unit of a quantity kind a model writes as an expression of kinds (`attribute
 * distancePerVolume : ScalarQuantityValue = length / volume;`, `mass * length ** 2`): products,
 * quotients and integer powers of names `kindOf` reads as kinds. Undefined when the expression is
 * anything else (a value, a call), so it is only ever read as a kind where it is one.
 */
export function kindExpressionUnit(e: Expression, kindOf: (name: QualifiedName) => Unit | undefined): Unit | undefined {
  switch (e.kind) {
    case 'Name':
      return kindOf(e.name);
    case 'Binary': {
      if (e.operator === '*' || e.operator === '/') {
        const a = kindExpressionUnit(e.left, kindOf);
        const b = a ? kindExpressionUnit(e.right, kindOf) : undefined;
        if (!a || !b) return undefined;
        return coherentUnit((e.operator === '*' ? multiplyUnits(a, b) : divideUnits(a, b)).dimension);
      }
      if ((e.operator === '**' || e.operator === '^') && e.right.kind === 'Literal' && e.right.literal === 'integer') {
        const a = kindExpressionUnit(e.left, kindOf);
        const p = a ? powerUnit(a, e.right.value as number) : undefined;
        return p ? coherentUnit(p.dimension) : undefined;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}
