// Expressions over the model as solver terms: the symbolic twin of the evaluator, used by `satisfiable`.
//
// Numbers become terms in coherent SI magnitudes (a free `mass` in [t] is `1000·mass`), with their
// dimension checked as the evaluator checks it; constants stay exact (decimals as fractions). Features
// that are free become solver variables named by their instance path (`engine.mass`); features with a
// value in the model are translated through that value, so a constraint over derived features
// constrains the free ones they derive from. Calcs and constraints are inlined through their bodies.
import type { Argument, Expression, Member, QualifiedName, Reference, SourceRange, Usage } from '../sysml/ast';
import { declaredName, Evaluator, referencedConstraint, referencedConstraintMix, referenceExpression } from '../sysml/semantics/evaluate';
import { callLibraryFunction, isQualifiedLibraryPackage } from '../sysml/semantics/functions';
import { binary as concreteBinary } from '../sysml/semantics/operators';
import { coherentUnit, DIMENSIONLESS, exactFactor, exactOffset, exactOffsetOf, formatDimension, isDimensionless, quantityKindUnit, sameDimension, type Dimension, type Unit } from '../sysml/semantics/units';
import { decimalRational, formatRational, type Rational } from '../sysml/semantics/rational';
import { describeKind, format, isError, itemsOf, nameNotation, type Scalar, type Value } from '../sysml/semantics/values';
import { isCallable, joinPath, type InstanceContext, type ModelValues } from '../sysml/model/environment';
import { UnsupportedError, place } from '../sysml/model/errors';
import { rangeOf, typeName, type ModelElement, type ModelIndex } from '../sysml/model/model';
import { refusalMessage, unmodeled } from '../sysml/support';
import { hasBodyActions } from '../sysml/semantics/calc-body';
import type { Assertion, Sort, Term } from './solver';
import { integerLowerBound, isIntegerTypeName } from '../sysml/semantics/types';

export type Sym =
  /**
   * A number: `term` in coherent SI units of `dim`; `integral` when it is an Integer. `shape`: what `===`
   * tells apart besides the value, when known before solving. `affine`: the offset of the scale `term` is
   * a point on (°C: 273.15; NaN when it depends on the solution), which arithmetic must not add twice.
   */
  | { kind: 'num'; term: Term; dim: Dimension; integral: boolean; shape?: Shape; affine?: number }
  | { kind: 'bool'; term: Term }
  | { kind: 'seq'; items: Sym[] }
  | { kind: 'unit'; unit: Unit }
  /** A value the solver does not reason about (a string, an enum literal): compared concretely. */
  | { kind: 'const'; value: Scalar }
  /** A free enumeration-typed feature: an Integer variable indexing `literals`. */
  | { kind: 'enum'; term: Term; definition: string; literals: string[] }
  | { kind: 'instance'; ctx: InstanceContext };

/**
 * What a number is besides its value, as `===` tells it apart (docs/semantics.md): an Integer, a Real, a
 * plain number of either kind (`number`), a quantity in a unit (by name), or a quantity in a unit not known
 * before solving (`quantity`: a free quantity may be bound in any unit of its dimension).
 */
export type Shape = 'integer' | 'real' | 'number' | 'quantity' | Unit;

type NumSym = Extract<Sym, { kind: 'num' }>;

const isPlain = (s: Shape | undefined): boolean => s === 'integer' || s === 'real' || s === 'number';
const isQuantity = (s: Shape | undefined): boolean => s === 'quantity' || typeof s === 'object';

/** Whether two numbers are of one shape; undefined when that is not known before solving. */
function sameShape(a: Shape | undefined, b: Shape | undefined): boolean | undefined {
  if (isPlain(a) && isPlain(b)) return a === 'number' || b === 'number' ? undefined : a === b;
  if (isQuantity(a) && isQuantity(b)) return typeof a === 'object' && typeof b === 'object' ? a.name === b.name : undefined;
  return a === undefined || b === undefined ? undefined : false;
}

/** The shape of one of two numbers (the branches of `if`, the arguments of `min`). */
function eitherShape(a: Shape | undefined, b: Shape | undefined): Shape | undefined {
  if (sameShape(a, b)) return a;
  return isPlain(a) && isPlain(b) ? 'number' : isQuantity(a) && isQuantity(b) ? 'quantity' : undefined;
}

/** The shape of an arithmetic result of dimension `dim`, as src/sysml/semantics/operators.ts makes it; undefined when not known. */
function arithmeticShape(op: '+' | '-' | '*' | '/', l: Shape | undefined, r: Shape | undefined, dim: Dimension): Shape | undefined {
  if (isPlain(l) && isPlain(r)) {
    if (op === '/') return 'real';
    if (l === 'integer' && r === 'integer') return 'integer';
    return l === 'real' || r === 'real' ? 'real' : 'number';
  }
  if (!isQuantity(l) && !isQuantity(r)) return undefined;
  // + and - keep the left operand's unit; a quantity scaled by a number keeps its own; products and
  // quotients of quantities have a composed unit, or are plain numbers when it cancels.
  if (op === '+' || op === '-') return isQuantity(l) && isQuantity(r) ? l : undefined;
  if (op === '*' && isPlain(l)) return r;
  if (isPlain(r)) return l;
  return isDimensionless(dim) ? undefined : 'quantity';
}

/** A solver variable standing for one free feature. */
export interface FreeVariable {
  /** Instance path of the feature, and the solver variable's name. */
  name: string;
  sort: Sort;
  /** The unit the variable's value is in (undefined: a plain number or Boolean). */
  unit: Unit | undefined;
  /** The type as the model or the question wrote it. */
  type: string | undefined;
  domain: string | undefined;
  lower?: string;
  upper?: string;
  values?: string[];
  /** Declared by the question (true) or found free in the model (false). */
  declared: boolean;
  /** For an enumeration-typed feature: its definition's name and literals (the variable is their index). */
  enumeration?: { definition: string; literals: string[] };
}

/** The enumeration an element is typed by, as a free variable's sort and domain. */
export function enumerationVariable(index: ModelIndex, typed: ModelElement): Pick<FreeVariable, 'sort' | 'unit' | 'lower' | 'upper' | 'enumeration'> | undefined {
  for (const t of index.typesOf(typed)) {
    if (t.node.kind !== 'Definition' || t.node.keyword !== 'enum') continue;
    const literals = t.members.filter((m) => m.node.kind === 'Usage' && m.name).map((m) => m.name!);
    if (literals.length === 0) return undefined;
    return { sort: 'Int', unit: undefined, lower: '0', upper: String(literals.length - 1), enumeration: { definition: t.name ?? t.qualifiedName, literals } };
  }
  return undefined;
}

// ---- exact numerals ---------------------------------------------------------------------------------

/** A JS number as an exact numeral z3 reads (`0.1` stays 1/10 as written, `1e-7` as 1/10000000). */
export function numeral(x: number): string {
  if (!Number.isFinite(x)) throw new UnsupportedError(`the number ${x} cannot be given to the solver`);
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return BigInt(x).toString();
  const s = String(x);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s; // plain decimal
  const [, sign, whole, frac = '', expText] = m;
  const exp = Number(expText) - frac.length;
  const digits = BigInt(whole! + frac).toString();
  if (exp >= 0) return `${sign}${digits}${'0'.repeat(exp)}`;
  return `${sign}${digits}/1${'0'.repeat(-exp)}`;
}

/** A Real's or quantity's magnitude as a numeral: its exact value where it has one (a decimal no double
 * is, 1.999999999999999999, was its double 2), else its double as the decimal it prints as. */
function magnitudeNumeral(value: number, exact: Rational | undefined): string {
  return exact !== undefined ? formatRational(exact) : numeral(value);
}

const num = (value: string): Term => ({ op: 'num', value });
const isZero = (t: Term) => t.op === 'num' && /^-?0+(\.0+)?$/.test(t.value);
const isOneTerm = (t: Term) => t.op === 'num' && /^1(\.0+)?$/.test(t.value);

/** A magnitude in `unit` as a number in coherent SI units (a point on the scale for °C and °F). */
function inUnit(magnitude: Term, unit: Unit, shape: Shape, refuse: (message: string) => never): NumSym {
  // The unit's exact factor and zero shift where they are known (ft³, lb, °F): their doubles are only near them.
  const factor = exactFactor(unit);
  // A factor no fraction is (° is π/180 rad): the solver would decide on its double, which a
  // boundary can fall between (an `unsatisfiable` the host does not re-check): refused by name.
  if (!factor) refuse(`the unit [${unit.name}] has no exact factor to [${coherentUnit(unit.dimension).name}] (its double ${unit.num / unit.den} only approaches it), so the solver cannot state it exactly; ask evaluate`);
  let t = scaleExact(magnitude, factor);
  if (unit.offset !== 0) {
    const offset = exactOffset(unit);
    if (!offset) refuse(`the zero of [${unit.name}] has no exact value in K, so the solver cannot state it exactly; ask evaluate`);
    t = { op: 'add', args: [t, num(formatRational(offset))] };
  }
  return { kind: 'num', term: t, dim: unit.dimension, integral: false, shape, ...(unit.offset !== 0 ? { affine: unit.offset } : {}) };
}

/** `term · n/d` for an exact factor, without noise for 1. */
function scaleExact(term: Term, f: Rational): Term {
  let t = term;
  if (f.n !== 1n) t = { op: 'mul', args: [num(f.n.toString()), t] };
  if (f.d !== 1n) t = { op: 'div', left: t, right: num(f.d.toString()) };
  return t;
}


function addDims(a: Dimension, b: Dimension, sign: 1 | -1): Dimension {
  return a.map((x, i) => x + sign * b[i]!) as unknown as Dimension;
}

// ---- scopes -----------------------------------------------------------------------------------------

interface SymEnv {
  /** Where the expression is written (names that are not features resolve from here). */
  readonly lexical: ModelElement;
  lookup(name: QualifiedName, at: SourceRange): Sym | undefined;
  invoke(callee: Reference, args: readonly { name: string | null; value: Sym }[], at: SourceRange): Sym | undefined;
}

class SymLocal implements SymEnv {
  private readonly entries = new Map<string, { thunk: () => Sym; value?: Sym; running?: boolean }>();
  constructor(private readonly outer: SymEnv) {}
  get lexical(): ModelElement {
    return this.outer.lexical;
  }
  define(name: string, value: Sym | (() => Sym)): void {
    if (typeof value === 'function') this.entries.set(name, { thunk: value });
    else this.entries.set(name, { thunk: () => value, value });
  }
  has(name: string): boolean {
    return this.entries.has(name);
  }
  local(name: string, at: SourceRange, path: string): Sym {
    const e = this.entries.get(name)!;
    if (e.value) return e.value;
    if (e.running) throw new UnsupportedError(`${place(path, at)}: '${name}' depends on itself`);
    e.running = true;
    try {
      e.value = e.thunk();
    } finally {
      e.running = false;
    }
    return e.value;
  }
  lookup(name: QualifiedName, at: SourceRange): Sym | undefined {
    if (!name.isGlobal && name.segments.length === 1 && this.entries.has(name.segments[0]!)) return this.local(name.segments[0]!, at, this.lexical.path);
    return this.outer.lookup(name, at);
  }
  invoke(callee: Reference, args: readonly { name: string | null; value: Sym }[], at: SourceRange): Sym | undefined {
    return this.outer.invoke(callee, args, at);
  }
}

// ---- the translator ---------------------------------------------------------------------------------

export class Symbolizer {
  /** Free variables by instance path, in the order they were met. */
  readonly variables = new Map<string, FreeVariable>();
  /** What the features' declared types say of their computed values (`trips : Integer = load / 4` is whole): asserted with the problem. */
  readonly typeAssertions: Assertion[] = [];
  private readonly cache = new Map<string, Sym | 'running'>();
  private readonly concrete: Evaluator;
  private depth = 0;

  constructor(
    private readonly values: ModelValues,
    /** Features the question declares free, by instance path. */
    declared: readonly FreeVariable[],
    /** Features pinned to a value, by instance path. */
    private readonly pinned: ReadonlyMap<string, Value>,
    /** How a message names a place: `file:line:col`, or a condition's text. */
    private readonly placeOf: (at: SourceRange | undefined, fallback: string) => string = (at, fallback) => place(fallback, at),
  ) {
    for (const v of declared) this.variables.set(v.name, v);
    this.concrete = values.evaluator;
  }

  private fail(at: SourceRange | undefined, path: string, message: string): never {
    throw new UnsupportedError(`${this.placeOf(at, path)}: ${message}`);
  }

  /** The environment for an expression written in `lexical`, read on instance `ctx`. */
  environment(ctx: InstanceContext, lexical: ModelElement = ctx.element): SymEnv {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    return {
      lexical,
      lookup(name, at) {
        return self.lookupName(ctx, lexical, name, at);
      },
      invoke(callee, args, at) {
        return self.invokeName(ctx, lexical, callee, args, at);
      },
    };
  }

  /** A feature of an instance as a symbol: free variable, pinned or bound value, or its model value. */
  feature(owner: InstanceContext, feature: ModelElement): Sym {
    const path = joinPath(owner.path, feature.name ?? '<unnamed>');
    const v = this.variables.get(path);
    if (v) return this.variableSym(v);
    const pinned = this.pinned.get(path) ?? this.values.bindings.get(path);
    if (pinned !== undefined) return this.fromValue(pinned, feature.path, rangeOf(feature));
    const cached = this.cache.get(path);
    if (cached === 'running') this.fail(rangeOf(feature), feature.path, `'${path}' depends on itself`);
    if (cached) return cached;
    this.cache.set(path, 'running');
    try {
      const s = this.computeFeature(owner, feature, path);
      this.cache.set(path, s);
      return s;
    } catch (e) {
      this.cache.delete(path);
      throw e;
    }
  }

  private computeFeature(owner: InstanceContext, feature: ModelElement, path: string): Sym {
    const node = feature.node;
    const ctx = this.values.child(owner, feature);
    // Soundness: what the evaluator refuses, and what only the evaluator models (several values, bindings).
    const refused = this.values.solverRefusal(owner, feature);
    if (refused) this.fail(refused.range, feature.path, refused.message);
    // A redefinition without a value keeps the redefined feature's (ModelIndex.valueSource): not free.
    const valued = this.values.index.valueSource(feature);
    if (valued) {
      const expr = valued.node.value.expression;
      return this.typed(feature, path, this.nested(() => this.expression(expr, this.environment(owner, valued.parent ?? valued))));
    }
    if (node.kind === 'Usage' && isCallable(feature)) {
      // A calc usage that names its result is read through it (`energy.e`).
      if (this.values.namedResult(feature) !== undefined) return { kind: 'instance', ctx };
      return this.invokeElement(feature, [], ctx, rangeOf(feature));
    }
    // An enumeration-typed feature (whose "features" are the literals) is a value, not an instance.
    const enumeration = enumerationVariable(this.values.index, feature);
    if (enumeration) {
      const v: FreeVariable = { name: path, ...enumeration, type: enumeration.enumeration!.definition, domain: undefined, declared: false };
      this.variables.set(path, v);
      return this.variableSym(v);
    }
    const features = this.values.index.featuresOf(feature);
    if (features.length > 0 || (node.kind === 'Usage' && node.keyword !== 'attribute' && node.keyword !== 'ref')) {
      return { kind: 'instance', ctx };
    }
    // A feature without a value the question did not mention: free over its type.
    const v = this.implicitVariable(feature, path);
    this.variables.set(path, v);
    return this.variableSym(v);
  }

  /**
   * A feature's value against its declared types, as the evaluator checks it (ModelValues.checkType):
   * a constant is checked as a value; a term of another kind is refused; what only the solver can tell
   * is stated beside the problem's assertions (an Integer's value is whole, a Natural's at least 0).
   */
  private typed(feature: ModelElement, path: string, s: Sym): Sym {
    const { index } = this.values;
    const types = index.valueTypesOf(feature);
    const last = typeName(feature, index)?.split('::').at(-1)?.replace(/^'|'$/g, '');
    const kind = last ? quantityKindUnit(last) : undefined;
    if (types.length === 0 && !kind) return s;
    const at = rangeOf(feature);
    for (const item of s.kind === 'seq' ? s.items : [s]) {
      const constant = this.constantValue(item);
      if (constant !== undefined) {
        const checked = this.values.conforming(feature, `'${path}'`, constant);
        if (isError(checked)) this.fail(checked.range ?? at, feature.path, checked.message);
        continue;
      }
      const wrong: (written: string) => never = (written) => this.fail(at, feature.path, `'${path}' is declared ${written} but its value is ${symKind(item)}`);
      if (kind && (item.kind !== 'num' || !(isDimensionless(item.dim) || sameDimension(item.dim, kind.dimension)))) wrong(last!);
      for (const t of types) {
        if (t.kind === 'enumeration') {
          if (item.kind !== 'enum' || item.definition !== (t.definition.name ?? t.definition.qualifiedName)) wrong(t.written);
          continue;
        }
        if (t.name === 'Boolean' || t.name === 'String') {
          if (t.name === 'String' || item.kind !== 'bool') wrong(t.written);
          continue;
        }
        if (item.kind !== 'num' || (t.name !== 'NumericalValue' && !isDimensionless(item.dim))) wrong(t.written);
        if (!isIntegerTypeName(t.name)) continue;
        const name = `${path} : ${t.written}`;
        if (!item.integral) this.typeAssertions.push({ name, term: { op: 'isint', arg: item.term } });
        const least = integerLowerBound(t.name);
        if (least !== undefined) this.typeAssertions.push({ name, term: { op: 'ge', left: item.term, right: num(least.toString()) } });
      }
    }
    return s;
  }

  /** A body member's value (a parameter, a local, the result) against its declared types, as `typed`. */
  private typedMember(label: string, m: Usage, s: Sym): Sym {
    const element = this.values.index.elementOf(m);
    return element ? this.typed(element, `${label}.${declaredName(m) ?? 'result'}`, s) : s;
  }

  /**
   * Translates each feature of an instance that has a value and a type the engine knows, so that what
   * its type says of the value is stated even where no constraint reads it: every instance the problem
   * admits has these features too (`k : Natural = a - 10` with `a < 5` admits none).
   */
  stateDeclaredTypes(ctx: InstanceContext): void {
    const { index } = this.values;
    for (const f of index.featuresOf(ctx.element)) {
      if (f.node.kind !== 'Usage' || isCallable(f) || index.valueTypesOf(f).length === 0 || !index.valueSource(f)) continue;
      this.feature(ctx, f);
    }
  }

  private implicitVariable(feature: ModelElement, path: string): FreeVariable {
    // `attribute m :> ISQ::mass` is a mass as `m : MassValue` is.
    const type = typeName(feature, this.values.index);
    const t = describeType(type, undefined) ?? enumerationVariable(this.values.index, feature);
    if (!t) {
      this.fail(rangeOf(feature), feature.path, `'${path}' has no value and its type ${type ?? '(none)'} is not one the solver can choose a value of (Boolean, Integer, Real or a quantity)`);
    }
    return { name: path, ...t, type, domain: undefined, declared: false };
  }

  variableSym(v: FreeVariable): Sym {
    const term: Term = { op: 'var', name: v.name };
    if (v.sort === 'Bool') return { kind: 'bool', term };
    if (v.enumeration) return { kind: 'enum', term, definition: v.enumeration.definition, literals: v.enumeration.literals };
    if (!v.unit) {
      // A witness binds an Integer feature to an Integer, a Real (Rational, Number) one to a Real; an untyped
      // one to either (fromProtocolValue). A quantity may be bound in any unit of its dimension.
      const shape = v.sort === 'Int' ? 'integer' : v.type !== undefined && /(^|::)(Real|Rational|Number)$/.test(v.type) ? 'real' : 'number';
      return { kind: 'num', term, dim: DIMENSIONLESS, integral: v.sort === 'Int', shape };
    }
    return inUnit(term, v.unit, 'quantity', (m) => {
      throw new UnsupportedError(`feature ${v.name}: ${m}`);
    });
  }

  /** A concrete value as a symbol (SI magnitudes for quantities). */
  fromValue(v: Value, path: string, at: SourceRange | undefined): Sym {
    if (v.kind === 'sequence') return { kind: 'seq', items: v.items.map((x) => this.fromValue(x, path, at)) };
    switch (v.kind) {
      case 'boolean':
        return { kind: 'bool', term: { op: 'bool', value: v.value } };
      case 'integer':
        return { kind: 'num', term: num(v.value.toString()), dim: DIMENSIONLESS, integral: true, shape: 'integer' };
      case 'real':
        this.notRounded(v, path, at);
        return { kind: 'num', term: num(magnitudeNumeral(v.value, v.exact)), dim: DIMENSIONLESS, integral: false, shape: 'real' };
      case 'quantity':
        this.notRounded(v, path, at);
        return inUnit(num(magnitudeNumeral(v.value, v.exact)), v.unit, v.unit, (m) => this.fail(at, path, m));
      case 'unit':
        return { kind: 'unit', unit: v.unit };
      case 'complex':
        this.fail(at, path, `the Complex value ${format(v)} is not modeled by the solver; ask evaluate`);
      // eslint-disable-next-line no-fallthrough
      case 'instance':
        this.fail(at, path, `${v.label} cannot be used as a number by the solver`);
      // eslint-disable-next-line no-fallthrough
      default:
        return { kind: 'const', value: v };
    }
  }

  /**
   * A constant the evaluator computed whose double is only near the number (a function's result such as
   * `sin(pi)`, a difference that cancels): stated as the exact numeral of its double, it would let z3
   * prove what the number does not say (`x > 0.0 and sin(pi) == 0.0` was unsatisfiable).
   */
  private notRounded(v: Value & { kind: 'real' | 'quantity' }, path: string, at: SourceRange | undefined): void {
    if (v.loose || v.err !== undefined) {
      this.fail(at, path, `the value ${format(v)} computed here is only near the number it stands for (a function's result or a difference of nearly equal numbers, rounded in binary floating point), so the solver cannot state it exactly`);
    }
  }

  private nested<T>(f: () => T): T {
    if (this.depth > 200) throw new UnsupportedError('expressions nested deeper than 200 levels (recursive definition?)');
    this.depth++;
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private lookupName(ctx: InstanceContext, where: ModelElement, name: QualifiedName, at: SourceRange): Sym | undefined {
    // Names resolve where they are written (an inherited member's in the supertype that declares it).
    const lexical = this.values.index.writtenIn(name) ?? where;
    if (name.segments.length === 1 && !name.isGlobal) {
      // The instance's features and those of the instances holding it that enclose the expression.
      const found = this.values.namedFeature(ctx, lexical, name.segments[0]!, name.range);
      if (found) return this.feature(found.owner, found.feature);
    }
    // A free input the question declares that is not a feature of the model.
    const declared = this.variables.get(name.segments.join('.'));
    if (declared?.declared) return this.variableSym(declared);
    // Anything else (enum literals, package-level values, units) is a constant: the evaluator reads it.
    const v = this.values.environment(ctx, lexical).lookup(name);
    if (v === undefined) return undefined;
    if (isError(v)) this.fail(v.range ?? at, lexical.path, v.message);
    return this.fromValue(v, lexical.path, at);
  }

  private invokeName(
    ctx: InstanceContext,
    where: ModelElement,
    callee: Reference,
    args: readonly { name: string | null; value: Sym }[],
    at: SourceRange,
  ): Sym | undefined {
    const lexical = this.values.index.writtenIn(callee) ?? where;
    let element: ModelElement | undefined;
    let target = ctx;
    if (callee.kind === 'QualifiedName' && callee.segments.length === 1) {
      const found = this.values.namedFeature(ctx, lexical, callee.segments[0]!, callee.range);
      if (found && isCallable(found.feature)) {
        element = found.feature;
        target = this.values.child(found.owner, found.feature);
      }
    }
    element ??= this.values.index.resolveReference(lexical, callee);
    if (!element || !isCallable(element)) return undefined;
    if (element.node.kind === 'Definition') target = { element, path: ctx.path, parent: ctx };
    return this.invokeElement(element, args, target, at);
  }

  /** A calc or constraint body as a symbol: parameters bound to arguments, locals lazily, the result. */
  invokeElement(element: ModelElement, args: readonly { name: string | null; value: Sym }[], ctx: InstanceContext, at: SourceRange | undefined): Sym {
    const named = element.node.kind === 'Usage' ? referencedConstraint(element.node) : undefined;
    if (named && element.node.kind === 'Usage') {
      // `assert heavy;`: the constraint it names, read on the instance holding it (ModelValues.namedConstraint).
      const mixed = referencedConstraintMix(element.node);
      if (mixed) this.fail(mixed.range, element.path, mixed.message);
      const owner = ctx.element === element && ctx.parent ? ctx.parent : ctx;
      return this.nested(() => this.expression(referenceExpression(named), this.environment(owner, element.parent ?? owner.element)));
    }
    const label = element.name ?? element.qualifiedName;
    const members = this.values.bodyMembers(element);
    const outer = this.environment(ctx, element);
    return this.nested(() => this.callBody(label, members, args, outer, at, element.path));
  }

  private callBody(
    label: string,
    members: readonly Member[],
    args: readonly { name: string | null; value: Sym }[],
    outer: SymEnv,
    at: SourceRange | undefined,
    path: string,
  ): Sym {
    for (const m of members) {
      const u = unmodeled(m, 'calc');
      if (u) this.fail(u.range, path, `${label}: ${refusalMessage(u, 'in a calc, constraint or requirement body')}`);
      // Evaluate checks an objective against the result; the solver does not state it.
      if (m.kind === 'Usage' && m.role === 'objective') this.fail(m.range, path, `${label}: an objective is not modeled by the solver (evaluate checks it against the case's result)`);
    }
    if (hasBodyActions(members)) this.fail(at, path, `${label}: a body with actions (assign, if, loops) is evaluated by running it, which the solver does not model; ask evaluate or compute`);
    const params = members.filter((m): m is Usage => m.kind === 'Usage' && (m.direction === 'in' || m.direction === 'inout') && m.role !== 'return');
    const scope = new SymLocal(outer);
    const given = new Map<Usage, Sym>();
    let positional = 0;
    for (const a of args) {
      const p = a.name === null ? params[positional++] : params.find((x) => declaredName(x) === a.name);
      if (!p) this.fail(at, path, a.name === null ? `${label} takes ${params.length} arguments` : `${label} has no parameter '${a.name}'`);
      given.set(p, a.value);
    }
    for (const p of params) {
      const n = declaredName(p);
      if (n === null) continue;
      const v = given.get(p);
      if (v) scope.define(n, this.typedMember(label, p, v));
      else if (p.value) {
        const expr = p.value.expression;
        scope.define(n, () => this.typedMember(label, p, this.expression(expr, scope)));
      } else {
        // An input nobody gave: it is the feature of the instance (free when it has no value).
        scope.define(n, () => {
          const found = outer.lookup({ kind: 'QualifiedName', segments: [n], segmentStarts: [0], isGlobal: false, range: p.range }, p.range);
          if (!found) this.fail(p.range, path, `${label}: no value for parameter '${n}'`);
          return found;
        });
      }
    }
    for (const m of members) {
      if (m.kind !== 'Usage' || params.includes(m)) continue;
      const n = declaredName(m);
      if (n === null || scope.has(n) || !m.value) continue;
      const expr = m.value.expression;
      scope.define(n, () => this.typedMember(label, m, this.expression(expr, scope)));
    }
    const result = [...members].reverse().find((m) => m.kind === 'ResultExpression');
    const returned = members.find((m): m is Usage => m.kind === 'Usage' && m.role === 'return');
    const hasResult = result !== undefined || members.some((m) => m.kind === 'Usage' && m.role === 'return');
    const asserted = members.find((m) => m.kind === 'Usage' && m.role === 'assert');
    if (hasResult && asserted) this.fail(asserted.range, path, `${label}: an asserted constraint inside a calc with a result is not modeled by the solver`);
    if (result && result.kind === 'ResultExpression') {
      const value = this.expression(result.expression, scope);
      return returned ? this.typedMember(label, returned, value) : value;
    }
    const ret = members.find((m): m is Usage => m.kind === 'Usage' && m.role === 'return' && m.value !== null);
    if (ret) return this.typedMember(label, ret, this.expression(ret.value!.expression, scope));
    // A constraint without a result expression, made of nested constraints: all of them.
    const nested = members.filter((m): m is Usage => m.kind === 'Usage' && (m.keyword === 'constraint' || m.role === 'assert' || m.role === 'require'));
    if (nested.length > 0) {
      const terms = nested.map((c) => this.asBool(this.expressionOfConstraintUsage(c, scope, path), c.range, path));
      return { kind: 'bool', term: { op: 'and', args: terms } };
    }
    this.fail(at, path, `${label} has no result expression to solve`);
  }

  private expressionOfConstraintUsage(c: Usage, scope: SymEnv, path: string): Sym {
    const named = referencedConstraint(c);
    if (named) {
      const mixed = referencedConstraintMix(c);
      if (mixed) this.fail(mixed.range, path, mixed.message);
      const s = this.expression(referenceExpression(named), scope);
      return c.isNegated ? { kind: 'bool', term: { op: 'not', arg: this.asBool(s, c.range, path) } } : s;
    }
    const result = (c.body ?? []).find((m) => m.kind === 'ResultExpression');
    if (result && result.kind === 'ResultExpression') {
      const s = this.expression(result.expression, scope);
      return c.isNegated ? { kind: 'bool', term: { op: 'not', arg: this.asBool(s, result.range, path) } } : s;
    }
    this.fail(c.range, path, 'a nested constraint without an expression');
  }

  asBool(s: Sym, at: SourceRange | undefined, path: string): Term {
    if (s.kind === 'bool') return s.term;
    if (s.kind === 'seq' && s.items.length === 1) return this.asBool(s.items[0]!, at, path);
    this.fail(at, path, `expected true or false, got ${symKind(s)}`);
  }

  private asNum(s: Sym, at: SourceRange | undefined, path: string, what: string): Extract<Sym, { kind: 'num' }> {
    if (s.kind === 'num') return s;
    if (s.kind === 'seq' && s.items.length === 1) return this.asNum(s.items[0]!, at, path, what);
    this.fail(at, path, `${what} needs a number, got ${symKind(s)}`);
  }

  /** Translates an expression written in `env`. */
  expression(expr: Expression, env: SymEnv): Sym {
    const path = env.lexical.path;
    const at = expr.range;
    switch (expr.kind) {
      case 'Literal':
        switch (expr.literal) {
          case 'integer': {
            if (Number.isSafeInteger(expr.value)) return { kind: 'num', term: num(numeral(expr.value as number)), dim: DIMENSIONLESS, integral: true, shape: 'integer' };
            // Past 2^53 the AST's number is rounded; the evaluator reads the digits of the source (exact).
            const v = this.concrete.evaluate(expr, this.values.environment(this.values.root, env.lexical));
            if (isError(v)) this.fail(v.range ?? at, path, v.message);
            return this.fromValue(v, path, at);
          }
          case 'real': {
            const x = expr.value as number;
            // Outside the doubles' range (1e400, 1e-400) the evaluator refuses the literal: so does the solver.
            if (!Number.isFinite(x) || Math.abs(x) < 2.2250738585072014e-308) {
              const v = this.concrete.evaluate(expr, this.values.environment(this.values.root, env.lexical));
              if (isError(v)) this.fail(v.range ?? at, path, v.message);
            }
            // Its digits, exactly, as the evaluator reads them (1.999999999999999999 is not 2).
            const exact = expr.digits !== undefined ? decimalRational(expr.digits) : undefined;
            return { kind: 'num', term: num(magnitudeNumeral(x, exact)), dim: DIMENSIONLESS, integral: false, shape: 'real' };
          }
          case 'boolean':
            return { kind: 'bool', term: { op: 'bool', value: expr.value as boolean } };
          case 'string':
            return { kind: 'const', value: { kind: 'string', value: expr.value as string } };
          default:
            this.fail(at, path, 'infinity (*) cannot be given to the solver');
        }
      // eslint-disable-next-line no-fallthrough
      case 'Null':
        return { kind: 'seq', items: [] };
      case 'Name': {
        const s = env.lookup(expr.name, at);
        if (s) return s;
        // A unit name (`kg`) written outside brackets.
        const u = this.concrete.evaluateUnit(expr, this.values.environment(this.values.root, env.lexical));
        if (!isError(u) && u.kind === 'unit') return { kind: 'unit', unit: u.unit };
        this.fail(at, path, `unknown name '${expr.name.segments.join('::')}'`);
      }
      // eslint-disable-next-line no-fallthrough
      case 'Unary': {
        const x = this.expression(expr.operand, env);
        if (expr.operator === 'not') return { kind: 'bool', term: { op: 'not', arg: this.asBool(x, at, path) } };
        if (expr.operator === '~') this.fail(at, path, "'~' is not supported by the solver");
        const n = this.asNum(x, at, path, `'${expr.operator}'`);
        if (expr.operator === '-') this.noAffine(n, at, path, "unary '-'");
        return expr.operator === '-' ? { ...n, term: { op: 'neg', arg: n.term } } : n;
      }
      case 'Binary':
        return this.binary(expr.operator, this.expression(expr.left, env), () => this.expression(expr.right, env), at, path);
      case 'Conditional': {
        const c = this.asBool(this.expression(expr.condition, env), expr.condition.range, path);
        const t = this.expression(expr.then, env);
        const e = this.expression(expr.else, env);
        if (t.kind === 'bool' && e.kind === 'bool') return { kind: 'bool', term: { op: 'ite', cond: c, then: t.term, else: e.term } };
        const tn = this.asNum(t, expr.then.range, path, 'if … else');
        const en = this.asNum(e, expr.else.range, path, 'if … else');
        if (!sameDimension(tn.dim, en.dim)) this.fail(at, path, `the branches of if have different dimensions (${formatDimension(tn.dim)} and ${formatDimension(en.dim)})`);
        const shape = eitherShape(tn.shape, en.shape);
        const affine = tn.affine === en.affine ? tn.affine : NaN;
        return {
          kind: 'num',
          term: { op: 'ite', cond: c, then: tn.term, else: en.term },
          dim: tn.dim,
          integral: tn.integral && en.integral,
          ...(shape ? { shape } : {}),
          ...(affine !== undefined ? { affine } : {}),
        };
      }
      case 'Quantity': {
        const v = this.asNum(this.expression(expr.value, env), expr.value.range, path, 'a quantity');
        const u = this.concrete.evaluateUnit(expr.unit, this.values.environment(this.values.root, env.lexical));
        if (isError(u)) this.fail(u.range ?? expr.unit.range, path, u.message);
        if (u.kind !== 'unit') this.fail(expr.unit.range, path, `expected a unit in [ ], got ${describeKind(u)}`);
        if (isPlain(v.shape)) return inUnit(v.term, u.unit, u.unit, (m) => this.fail(expr.unit.range, path, m));
        // `q [u]` converts a quantity (withUnit): the same point in SI units, now in u.
        if (!isQuantity(v.shape)) this.fail(at, path, `a unit applies to a number or converts a quantity; the solver does not know which ${symKind(v)} is`);
        if (!sameDimension(v.dim, u.unit.dimension)) this.fail(at, path, `cannot convert ${symKind(v)} to [${u.unit.name}]: different dimensions`);
        return { kind: 'num', term: v.term, dim: u.unit.dimension, integral: false, shape: u.unit, ...(u.unit.offset !== 0 ? { affine: u.unit.offset } : {}) };
      }
      case 'Sequence':
        return { kind: 'seq', items: expr.items.flatMap((i) => flatten(this.expression(i, env))) };
      case 'MemberAccess': {
        const target = this.expression(expr.target, env);
        const name = expr.member.segments.at(-1) ?? '';
        const items = target.kind === 'seq' ? target.items : [target];
        const out: Sym[] = [];
        for (const item of items) {
          if (item.kind !== 'instance') this.fail(at, path, `cannot read feature '${name}' of ${symKind(item)}`);
          if (isCallable(item.ctx.element) && this.values.namedResult(item.ctx.element) === name) {
            out.push(this.invokeElement(item.ctx.element, [], item.ctx, at));
            continue;
          }
          const f = this.values.feature(item.ctx.element, name);
          if (!f) this.fail(at, path, `${item.ctx.path || item.ctx.element.name} has no feature '${name}'`);
          out.push(this.feature(item.ctx, f));
        }
        return out.length === 1 ? out[0]! : { kind: 'seq', items: out };
      }
      case 'Invocation':
        return this.invocation(expr.callee, expr.args, env, at, path);
      case 'ArrowInvocation': {
        const name = simpleName(expr.callee);
        if (['sum', 'size', 'min', 'max', 'product'].includes(name) && expr.args.length === 0) {
          // `xs->sum()` is sum(xs): a calc of the model by that name is the one called, as in evaluate.
          return this.call(expr.callee, [{ name: null, value: this.expression(expr.target, env) }], env, at, path);
        }
        this.fail(at, path, `->${name} is not supported by the solver`);
      }
      // eslint-disable-next-line no-fallthrough
      default:
        this.fail(at, path, `${describeExpression(expr)} is not supported by the solver`);
    }
  }

  private invocation(callee: Reference, args: readonly Argument[], env: SymEnv, at: SourceRange, path: string): Sym {
    const evaluated = args.map((a) => ({ name: a.name, value: this.expression(a.value, env) }));
    return this.call(callee, evaluated, env, at, path);
  }

  /** A call with its arguments translated: a calc or constraint of the model by that name, else a library function. */
  private call(callee: Reference, evaluated: readonly { name: string | null; value: Sym }[], env: SymEnv, at: SourceRange, path: string): Sym {
    const fromModel = env.invoke(callee, evaluated, at);
    if (fromModel) return fromModel;
    // The packages the evaluator calls by qualified name give their own meaning to names (`sum`, `abs`,
    // `'*'`) that the solver would read as NumericalFunctions'.
    const library = this.values.index.libraryNameOf(env.lexical, callee);
    const pkg = library?.slice(0, library.lastIndexOf('::'));
    if (library && pkg && isQualifiedLibraryPackage(pkg)) {
      const fn = `${pkg}::${nameNotation(library.slice(pkg.length + 2))}`;
      this.fail(at, path, `${fn} is not modeled by the solver${pkg === 'ComplexFunctions' ? ' (it holds no Complex values)' : ''}; ask evaluate`);
    }
    if (evaluated.some((a) => a.name !== null)) this.fail(at, path, `${simpleName(callee)}() takes positional arguments only`);
    return this.library(simpleName(callee), evaluated.map((a) => a.value), at, path);
  }

  /** The library functions the solver reasons about; any other function of constants is evaluated. */
  private library(name: string, args: Sym[], at: SourceRange, path: string): Sym {
    const items = args.length === 1 ? flatten(args[0]!) : args.flatMap(flatten);
    switch (name) {
      case 'sum':
      case 'product': {
        if (items.length === 0) return { kind: 'num', term: num(name === 'sum' ? '0' : '1'), dim: DIMENSIONLESS, integral: true, shape: 'integer' };
        const nums = items.map((i) => this.asNum(i, at, path, `${name}()`));
        // One item is the result itself; more are folded with '+' or '*' (which the solver refuses over °C).
        if (nums.length === 1) return nums[0]!;
        for (const n of nums) this.noAffine(n, at, path, `${name}()`);
        const dim = name === 'sum' ? nums[0]!.dim : nums.reduce<Dimension>((d, n) => addDims(d, n.dim, 1), DIMENSIONLESS);
        const shape = nums.slice(1).reduce<Shape | undefined>((acc, n) => arithmeticShape(name === 'sum' ? '+' : '*', acc, n.shape, dim), nums[0]!.shape);
        if (name === 'sum') {
          for (const n of nums) if (!sameDimension(n.dim, nums[0]!.dim)) this.fail(at, path, `sum() mixes dimensions ${formatDimension(nums[0]!.dim)} and ${formatDimension(n.dim)}`);
          return { kind: 'num', term: { op: 'add', args: nums.map((n) => n.term) }, dim, integral: nums.every((n) => n.integral), ...(shape ? { shape } : {}) };
        }
        return {
          kind: 'num',
          term: { op: 'mul', args: nums.map((n) => n.term) },
          dim,
          integral: nums.every((n) => n.integral),
          ...(shape ? { shape } : {}),
        };
      }
      case 'size':
        return { kind: 'num', term: num(String(items.length)), dim: DIMENSIONLESS, integral: true, shape: 'integer' };
      case 'min':
      case 'max': {
        if (items.length === 0) this.fail(at, path, `${name}() of nothing`);
        const nums = items.map((i) => this.asNum(i, at, path, `${name}()`));
        for (const n of nums) if (!sameDimension(n.dim, nums[0]!.dim)) this.fail(at, path, `${name}() mixes dimensions`);
        // The result is one of the items (compared as points on their scales).
        const shape = nums.slice(1).reduce<Shape | undefined>((acc, n) => eitherShape(acc, n.shape), nums[0]!.shape);
        const affine = nums.every((n) => n.affine === nums[0]!.affine) ? nums[0]!.affine : NaN;
        return {
          kind: 'num',
          term: { op: name, args: nums.map((n) => n.term) },
          dim: nums[0]!.dim,
          integral: nums.every((n) => n.integral),
          ...(shape ? { shape } : {}),
          ...(affine !== undefined ? { affine } : {}),
        };
      }
      case 'abs': {
        const n = this.asNum(args[0] ?? { kind: 'seq', items: [] }, at, path, 'abs()');
        this.noAffine(n, at, path, 'abs()');
        return { ...n, term: { op: 'abs', arg: n.term } };
      }
      case 'sqrt': {
        const n = this.asNum(args[0] ?? { kind: 'seq', items: [] }, at, path, 'sqrt()');
        this.noAffine(n, at, path, 'sqrt()');
        if (n.dim.some((d) => d % 2 !== 0)) this.fail(at, path, `sqrt() of ${formatDimension(n.dim)} has no unit`);
        const shape: Shape | undefined = isPlain(n.shape) ? 'real' : isQuantity(n.shape) ? 'quantity' : undefined;
        return { kind: 'num', term: { op: 'sqrt', arg: n.term }, dim: n.dim.map((d) => d / 2) as unknown as Dimension, integral: false, ...(shape ? { shape } : {}) };
      }
    }
    // Other functions (floor, round, sin …) only over constants: evaluate them.
    const values = args.map((a) => this.constantValue(a));
    if (values.some((v) => v === undefined)) this.fail(at, path, `${name}() over free features or quantities is not supported by the solver`);
    const r = callLibraryFunction(name, values as Value[], { draws: this.concrete.options.draws ?? {}, range: at });
    if (r === undefined) this.fail(at, path, `unknown calc or function '${name}'`);
    if (isError(r)) this.fail(r.range ?? at, path, r.message);
    return this.fromValue(r, path, at);
  }

  /** The concrete value of a constant symbol (a number as a Real in SI), or undefined when it is not constant. */
  private constantValue(s: Sym): Value | undefined {
    if (s.kind === 'const') return s.value;
    if (s.kind === 'bool' && s.term.op === 'bool') return { kind: 'boolean', value: s.term.value };
    // A quantity (even a dimensionless one, 50 ['%']) is not its SI magnitude to a library function.
    if (s.kind === 'num' && isDimensionless(s.dim) && isPlain(s.shape)) {
      if (s.integral) {
        const i = exactInteger(s.term);
        return i === undefined ? undefined : { kind: 'integer', value: i };
      }
      const v = evaluateConstant(s.term);
      return v === undefined ? undefined : { kind: 'real', value: v };
    }
    if (s.kind === 'seq') {
      const items = s.items.map((i) => this.constantValue(i));
      if (items.some((i) => i === undefined)) return undefined;
      return { kind: 'sequence', items: (items as Value[]).flatMap((v) => itemsOf(v)) };
    }
    return undefined;
  }

  private binary(op: string, left: Sym, rightThunk: () => Sym, at: SourceRange, path: string): Sym {
    const right = rightThunk();
    switch (op) {
      case 'and':
      case '&':
      case 'or':
      case '|': {
        // `and`/`or` evaluate the right operand only when it decides; `&` and `|` evaluate both (operators.ts).
        const term: Term = { op: op === 'and' || op === '&' ? 'and' : 'or', args: [this.asBool(left, at, path), this.asBool(right, at, path)] };
        return { kind: 'bool', term: op === '&' || op === '|' ? { ...term, strict: true } : term };
      }
      case 'xor':
        return { kind: 'bool', term: { op: 'xor', left: this.asBool(left, at, path), right: this.asBool(right, at, path) } };
      case 'implies':
        return { kind: 'bool', term: { op: 'implies', left: this.asBool(left, at, path), right: this.asBool(right, at, path) } };
      case '==':
      case '!=':
      case '===':
      case '!==': {
        const eq = this.equality(left, right, at, path);
        return { kind: 'bool', term: op === '==' || op === '===' ? eq : { op: 'not', arg: eq } };
      }
      case '<':
      case '>':
      case '<=':
      case '>=': {
        const [l, r] = this.commensurate(left, right, op, at, path);
        const map = { '<': 'lt', '>': 'gt', '<=': 'le', '>=': 'ge' } as const;
        return { kind: 'bool', term: { op: map[op], left: l.term, right: r.term } };
      }
      case '+':
      case '-': {
        const [l, r] = this.commensurate(left, right, op, at, path);
        if ((isPlain(l.shape) && isQuantity(r.shape)) || (isQuantity(l.shape) && isPlain(r.shape))) {
          this.fail(at, path, `'${op}' of ${symKind(l)} and ${symKind(r)}: a number and a quantity do not add`);
        }
        let rt = r.term;
        if (op === '-' && l.affine !== undefined && r.affine !== undefined) {
          // Two points on offset scales (25 °C − 20 °C): their difference is an interval in K, not a point
          // (operators.ts): the SI points subtract, and no offset is left.
          if (!Number.isFinite(r.affine) || !Number.isFinite(l.affine)) this.fail(at, path, `'${op}' of temperatures whose scales depend on the solution is not modeled by the solver; ask evaluate`);
          const kelvin = coherentUnit(l.dim);
          return { kind: 'num', term: { op: 'sub', left: l.term, right: r.term }, dim: l.dim, integral: false, shape: kelvin };
        }
        if (l.affine !== undefined && r.affine !== undefined) {
          // Two points on offset scales (20 [°C] + 10 [°C]): the right one is read as a difference, 10 K
          // (docs/semantics.md, Temperatures), so its scale's offset is not added twice.
          if (!Number.isFinite(r.affine) || !Number.isFinite(l.affine)) this.fail(at, path, `'${op}' of temperatures whose scales depend on the solution is not modeled by the solver; ask evaluate`);
          const zero = exactOffsetOf(r.affine);
          if (!zero) this.fail(at, path, `the zero of a temperature scale here has no exact value in K, so the solver cannot state it exactly; ask evaluate`);
          rt = { op: 'sub', left: r.term, right: num(formatRational(zero)) };
        } else if (r.affine !== undefined && !Number.isFinite(r.affine)) {
          this.fail(at, path, `'${op}' of temperatures whose scales depend on the solution is not modeled by the solver; ask evaluate`);
        }
        const term: Term = op === '+' ? { op: 'add', args: [l.term, rt] } : { op: 'sub', left: l.term, right: rt };
        const shape = arithmeticShape(op, l.shape, r.shape, l.dim);
        // The result is in the left operand's unit: a point on its scale when it has an offset.
        return { kind: 'num', term, dim: l.dim, integral: l.integral && r.integral, ...(shape ? { shape } : {}), ...(l.affine !== undefined ? { affine: l.affine } : {}) };
      }
      case '*': {
        const l = this.asNum(left, at, path, "'*'");
        const r = this.asNum(right, at, path, "'*'");
        this.noAffine(l, at, path, "'*'");
        this.noAffine(r, at, path, "'*'");
        const dim = addDims(l.dim, r.dim, 1);
        const shape = arithmeticShape('*', l.shape, r.shape, dim);
        return { kind: 'num', term: { op: 'mul', args: [l.term, r.term] }, dim, integral: l.integral && r.integral, ...(shape ? { shape } : {}) };
      }
      case '/': {
        const l = this.asNum(left, at, path, "'/'");
        const r = this.asNum(right, at, path, "'/'");
        this.noAffine(l, at, path, "'/'");
        this.noAffine(r, at, path, "'/'");
        if (isZero(r.term)) this.fail(at, path, 'division by zero');
        const dim = addDims(l.dim, r.dim, -1);
        const shape = arithmeticShape('/', l.shape, r.shape, dim);
        const rest = { dim, integral: false, ...(shape ? { shape } : {}) };
        if (isOneTerm(r.term)) return { kind: 'num', term: l.term, ...rest };
        return { kind: 'num', term: { op: 'div', left: l.term, right: r.term }, ...rest };
      }
      case '%': {
        const l = this.asNum(left, at, path, "'%'");
        const r = this.asNum(right, at, path, "'%'");
        if (!l.integral || !r.integral) this.fail(at, path, "'%' needs Integers for the solver");
        return { kind: 'num', term: { op: 'mod', left: l.term, right: r.term }, dim: DIMENSIONLESS, integral: true, shape: 'integer' };
      }
      case '**':
      case '^':
        return this.power(op, this.asNum(left, at, path, `'${op}'`), this.asNum(right, at, path, `'${op}'`), at, path);
      default:
        this.fail(at, path, `the operator '${op}' is not supported by the solver`);
    }
  }

  /**
   * `x ** e` for a whole constant e. The evaluator's other powers are not modeled: a fractional or free
   * exponent (a negative base has no Real power; z3 reads 0 ** 0 and x ** 0.5 its own way), and a negative
   * power of a Real that may be 0.0 (Infinity in the evaluator, no number in the solver).
   */
  private power(op: string, l: NumSym, r: NumSym, at: SourceRange, path: string): Sym {
    if (!isDimensionless(r.dim) || !isPlain(r.shape)) this.fail(at, path, 'an exponent must be a plain number');
    this.noAffine(l, at, path, `'${op}'`);
    // Constants: the evaluator's own power, with its kinds and errors.
    const a = isDimensionless(l.dim) && isPlain(l.shape) ? this.constantValue(l) : undefined;
    const b = this.constantValue(r);
    if (a !== undefined && b !== undefined) {
      const v = concreteBinary(op as '**', a, b, at);
      if (isError(v)) this.fail(v.range ?? at, path, v.message);
      return this.fromValue(v, path, at);
    }
    const e = evaluateConstant(r.term);
    if (e === undefined) this.fail(at, path, `'${op}' with an exponent that depends on the solution is not modeled by the solver; ask evaluate`);
    if (!Number.isInteger(e)) this.fail(at, path, `'${op}' with the fractional exponent ${e} is not modeled by the solver (write sqrt() for a square root); ask evaluate`);
    const dim = l.dim.map((d) => d * e) as unknown as Dimension;
    const integer = l.shape === 'integer' && r.shape === 'integer';
    const shape: Shape | undefined =
      isPlain(l.shape) && isPlain(r.shape)
        ? integer && e >= 0
          ? 'integer'
          : l.shape === 'real' || r.shape === 'real' || e < 0
            ? 'real'
            : 'number'
        : isQuantity(l.shape) && !isDimensionless(dim)
          ? 'quantity'
          : undefined;
    const whole: Term = { op: 'pow', left: l.term, right: num(String(Math.abs(e))) };
    if (e >= 0) return { kind: 'num', term: whole, dim, integral: l.integral && r.integral, ...(shape ? { shape } : {}) };
    // An Integer to a negative Integer power is 1 / x ** n, an error at 0 (the division's side condition);
    // a Real at 0.0 would be Infinity.
    if (!integer && evaluateConstant(l.term) === undefined) {
      this.fail(at, path, `'${op}' with a negative exponent over a Real that may be 0.0 is not modeled by the solver (0.0 ** ${e} is Infinity in evaluate); ask evaluate`);
    }
    if (evaluateConstant(l.term) === 0) this.fail(at, path, `0 ** ${e}: division by zero`);
    return { kind: 'num', term: { op: 'div', left: num('1'), right: whole }, dim, integral: false, ...(shape ? { shape } : {}) };
  }

  /** Refuses arithmetic other than comparison on a point of an offset scale (°C, °F), which the evaluator reads in its own unit. */
  private noAffine(n: NumSym, at: SourceRange, path: string, what: string): void {
    if (n.affine !== undefined) {
      this.fail(at, path, `${what} of a temperature on an offset scale (°C, °F) is not modeled by the solver (evaluate computes it in that unit); convert it to [K] or ask evaluate`);
    }
  }

  /** `==`; also `===` / `!==`, which on data values is `==` (DataFunctions::'===' returns `x == y`). */
  private equality(left: Sym, right: Sym, at: SourceRange, path: string): Term {
    if (left.kind === 'enum' || right.kind === 'enum') return this.enumEquality(left, right, at, path);
    if (left.kind === 'bool' || right.kind === 'bool') return { op: 'eq', left: this.asBool(left, at, path), right: this.asBool(right, at, path) };
    if (left.kind === 'const' || right.kind === 'const') {
      const a = this.constantValue(left);
      const b = this.constantValue(right);
      if (a === undefined || b === undefined) this.fail(at, path, `cannot compare ${symKind(left)} with ${symKind(right)} in the solver`);
      const r = concreteBinary('==', a, b, at);
      return { op: 'bool', value: !isError(r) && r.kind === 'boolean' && r.value };
    }
    if (left.kind === 'seq' || right.kind === 'seq') {
      const xs = flatten(left);
      const ys = flatten(right);
      if (xs.length !== ys.length) return { op: 'bool', value: false };
      // Both sequences are evaluated whole before they are compared.
      return { op: 'and', args: xs.map((x, i) => this.equality(x, ys[i]!, at, path)), strict: true };
    }
    const [l, r] = this.commensurate(left, right, '==', at, path);
    return { op: 'eq', left: l.term, right: r.term };
  }

  /** `colour == Colour::red`: the variable equals the literal's index; two enumeration variables, each other. */
  private enumEquality(left: Sym, right: Sym, at: SourceRange, path: string): Term {
    const single = (x: Sym) => (x.kind === 'seq' && x.items.length === 1 ? x.items[0]! : x);
    const a = single(left);
    const b = single(right);
    if (a.kind === 'enum' && b.kind === 'enum') {
      return a.definition === b.definition ? { op: 'eq', left: a.term, right: b.term } : { op: 'bool', value: false };
    }
    const variable = (a.kind === 'enum' ? a : b) as Extract<Sym, { kind: 'enum' }>;
    const other = a.kind === 'enum' ? b : a;
    if (other.kind !== 'const' || other.value.kind !== 'enum') this.fail(at, path, `cannot compare a ${variable.definition} with ${symKind(other)}`);
    const literal = other.value as Extract<Scalar, { kind: 'enum' }>;
    const index = variable.literals.indexOf(literal.literal);
    if (literal.definition !== variable.definition || index < 0) return { op: 'bool', value: false };
    return { op: 'eq', left: variable.term, right: num(String(index)) };
  }

  private commensurate(left: Sym, right: Sym, op: string, at: SourceRange, path: string): [Extract<Sym, { kind: 'num' }>, Extract<Sym, { kind: 'num' }>] {
    const l = this.asNum(left, at, path, `'${op}'`);
    const r = this.asNum(right, at, path, `'${op}'`);
    if (!sameDimension(l.dim, r.dim)) {
      this.fail(at, path, `'${op}' compares or adds ${formatDimension(l.dim)} with ${formatDimension(r.dim)}: the dimensions differ`);
    }
    return [l, r];
  }
}

function flatten(s: Sym): Sym[] {
  return s.kind === 'seq' ? s.items.flatMap(flatten) : [s];
}

function symKind(s: Sym): string {
  switch (s.kind) {
    case 'num':
      return isDimensionless(s.dim) ? 'a number' : `a quantity of ${formatDimension(s.dim)}`;
    case 'bool':
      return 'a Boolean';
    case 'seq':
      return s.items.length === 0 ? 'null' : `a sequence of ${s.items.length}`;
    case 'unit':
      return `the unit [${s.unit.name}]`;
    case 'const':
      return format(s.value);
    case 'enum':
      return `a ${s.definition}`;
    case 'instance':
      return s.ctx.path || (s.ctx.element.name ?? 'an instance');
  }
}

function simpleName(ref: Reference): string {
  const q = ref.kind === 'QualifiedName' ? ref : ref.chain.at(-1)!;
  return q.segments.at(-1) ?? '';
}

function describeExpression(e: Expression): string {
  switch (e.kind) {
    case 'Classification':
      return `'${e.operator}'`;
    case 'Collect':
      return 'collect (.{ … })';
    case 'Select':
      return 'select (.? { … })';
    case 'Index':
      return "indexing ('#')";
    case 'Extent':
      return "'all'";
    case 'Constructor':
      return "'new'";
    case 'Body':
      return 'a body expression';
    case 'MetadataAccess':
      return 'metadata access';
    case 'Missing':
      return 'a missing expression (syntax error)';
    default:
      return `a ${e.kind.toLowerCase()} expression`;
  }
}

/** The arithmetic a term made of numerals is folded in; `div` absent: a quotient has no value in it. */
interface Arithmetic<T> {
  numeral(text: string): T | undefined;
  zero: T;
  one: T;
  neg(a: T): T;
  add(a: T, b: T): T;
  mul(a: T, b: T): T;
  sub(a: T, b: T): T;
  div?(a: T, b: T): T;
  /** undefined where the power has no value in this arithmetic. */
  pow(a: T, b: T): T | undefined;
}

/** The value of a term made of numerals only, in arithmetic `k`; undefined when it holds anything else. */
function foldConstant<T>(t: Term, k: Arithmetic<T>): T | undefined {
  switch (t.op) {
    case 'num':
      return k.numeral(t.value);
    case 'neg': {
      const v = foldConstant(t.arg, k);
      return v === undefined ? undefined : k.neg(v);
    }
    case 'add':
    case 'mul': {
      let acc = t.op === 'add' ? k.zero : k.one;
      for (const a of t.args) {
        const v = foldConstant(a, k);
        if (v === undefined) return undefined;
        acc = t.op === 'add' ? k.add(acc, v) : k.mul(acc, v);
      }
      return acc;
    }
    case 'sub':
    case 'div':
    case 'pow': {
      const div = k.div;
      if (t.op === 'div' && !div) return undefined;
      const a = foldConstant(t.left, k);
      const b = foldConstant(t.right, k);
      if (a === undefined || b === undefined) return undefined;
      return t.op === 'sub' ? k.sub(a, b) : t.op === 'div' ? div!(a, b) : k.pow(a, b);
    }
    default:
      return undefined;
  }
}

/** Integers, exactly: a power only to a whole exponent from 0 to 64, no quotient. */
const EXACT_INTEGERS: Arithmetic<bigint> = {
  numeral: (text) => (/^-?\d+$/.test(text) ? BigInt(text) : undefined),
  zero: 0n,
  one: 1n,
  neg: (a) => -a,
  add: (a, b) => a + b,
  mul: (a, b) => a * b,
  sub: (a, b) => a - b,
  pow: (a, b) => (b < 0n || b > 64n ? undefined : a ** b),
};

/** Doubles: a numeral p/q is p divided by q. */
const DOUBLES: Arithmetic<number> = {
  numeral: (text) => {
    const m = /^(-?\d+)\/(\d+)$/.exec(text);
    return m ? Number(m[1]) / Number(m[2]) : Number(text);
  },
  zero: 0,
  one: 1,
  neg: (a) => -a,
  add: (a, b) => a + b,
  mul: (a, b) => a * b,
  sub: (a, b) => a - b,
  div: (a, b) => a / b,
  pow: (a, b) => a ** b,
};

/** The exact value of an Integer term made of numerals only; undefined when it holds anything else. */
function exactInteger(t: Term): bigint | undefined {
  return foldConstant(t, EXACT_INTEGERS);
}

/** The value of a term made of numerals only; undefined when it holds a variable. */
export function evaluateConstant(t: Term): number | undefined {
  return foldConstant(t, DOUBLES);
}

/** Sort, unit and bounds of a type as written (`Real`, `Integer`, `ISQ::MassValue`, `Boolean`) and an optional unit. */
export function describeType(type: string | undefined, unitName: string | undefined, resolveUnit?: (n: string) => Unit | undefined): Pick<FreeVariable, 'sort' | 'unit' | 'lower'> | undefined {
  const last = type?.split('::').at(-1)?.replace(/^'|'$/g, '');
  const unit = unitName ? resolveUnit?.(unitName) : undefined;
  if (unitName && !unit) return undefined;
  if (last === 'Boolean') return { sort: 'Bool', unit: undefined };
  if (last === 'Integer') return { sort: 'Int', unit };
  if (last === 'Natural') return { sort: 'Int', unit, lower: '0' };
  if (last === 'Positive') return { sort: 'Int', unit, lower: '1' };
  if (last === undefined || last === 'Real' || last === 'Rational' || last === 'Number' || last === 'NumericalValue') return { sort: 'Real', unit };
  const kind = quantityKindUnit(last);
  if (kind) return { sort: 'Real', unit: unit ?? kind };
  return undefined;
}
