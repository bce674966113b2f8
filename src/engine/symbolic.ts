// Expressions over the model as solver terms: the symbolic twin of the evaluator, used by `satisfiable`.
//
// Numbers become terms in coherent SI magnitudes (a free `mass` in [t] is `1000·mass`), with their
// dimension checked as the evaluator checks it; constants stay exact (decimals as fractions). Features
// that are free become solver variables named by their instance path (`engine.mass`); features with a
// value in the model are translated through that value, so a constraint over derived features
// constrains the free ones they derive from. Calcs and constraints are inlined through their bodies.
import type { Argument, Expression, Member, QualifiedName, Reference, SourceRange, Usage } from '../sysml/ast';
import { declaredName, Evaluator } from '../sysml/semantics/evaluate';
import { callLibraryFunction, isQualifiedLibraryPackage } from '../sysml/semantics/functions';
import { binary as concreteBinary } from '../sysml/semantics/operators';
import { DIMENSIONLESS, formatDimension, isDimensionless, quantityKindUnit, sameDimension, type Dimension, type Unit } from '../sysml/semantics/units';
import { describeKind, format, isError, itemsOf, nameNotation, type Scalar, type Value } from '../sysml/semantics/values';
import { isCallable, joinPath, type InstanceContext, type ModelValues } from '../sysml/model/environment';
import { UnsupportedError, place } from '../sysml/model/errors';
import { rangeOf, typeName, type ModelElement, type ModelIndex } from '../sysml/model/model';
import { refusalMessage, unmodeled } from '../sysml/support';
import { hasBodyActions } from '../sysml/semantics/calc-body';
import type { Sort, Term } from './solver';

export type Sym =
  /** A number: `term` in coherent SI units of `dim`; `integral` when it is an Integer. */
  | { kind: 'num'; term: Term; dim: Dimension; integral: boolean }
  | { kind: 'bool'; term: Term }
  | { kind: 'seq'; items: Sym[] }
  | { kind: 'unit'; unit: Unit }
  /** A value the solver does not reason about (a string, an enum literal): compared concretely. */
  | { kind: 'const'; value: Scalar }
  /** A free enumeration-typed feature: an Integer variable indexing `literals`. */
  | { kind: 'enum'; term: Term; definition: string; literals: string[] }
  | { kind: 'instance'; ctx: InstanceContext };

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

const num = (value: string): Term => ({ op: 'num', value });
const isZero = (t: Term) => t.op === 'num' && /^-?0+(\.0+)?$/.test(t.value);
const isOneTerm = (t: Term) => t.op === 'num' && /^1(\.0+)?$/.test(t.value);

/** `term · num/den` without noise for factor 1. */
function scale(term: Term, factorNum: number, factorDen: number): Term {
  let t = term;
  if (factorNum !== 1) t = { op: 'mul', args: [num(numeral(factorNum)), t] };
  if (factorDen !== 1) t = { op: 'div', left: t, right: num(numeral(factorDen)) };
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
      return this.nested(() => this.expression(expr, this.environment(owner, valued.parent ?? valued)));
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
    if (!v.unit) return { kind: 'num', term, dim: DIMENSIONLESS, integral: v.sort === 'Int' };
    let t = scale(term, v.unit.num, v.unit.den);
    if (v.unit.offset !== 0) t = { op: 'add', args: [t, num(numeral(v.unit.offset))] };
    return { kind: 'num', term: t, dim: v.unit.dimension, integral: false };
  }

  /** A concrete value as a symbol (SI magnitudes for quantities). */
  fromValue(v: Value, path: string, at: SourceRange | undefined): Sym {
    if (v.kind === 'sequence') return { kind: 'seq', items: v.items.map((x) => this.fromValue(x, path, at)) };
    switch (v.kind) {
      case 'boolean':
        return { kind: 'bool', term: { op: 'bool', value: v.value } };
      case 'integer':
        return { kind: 'num', term: num(v.value.toString()), dim: DIMENSIONLESS, integral: true };
      case 'real':
        return { kind: 'num', term: num(numeral(v.value)), dim: DIMENSIONLESS, integral: false };
      case 'quantity': {
        let t = scale(num(numeral(v.value)), v.unit.num, v.unit.den);
        if (v.unit.offset !== 0) t = { op: 'add', args: [t, num(numeral(v.unit.offset))] };
        return { kind: 'num', term: t, dim: v.unit.dimension, integral: false };
      }
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

  private nested<T>(f: () => T): T {
    if (this.depth > 200) throw new UnsupportedError('expressions nested deeper than 200 levels (recursive definition?)');
    this.depth++;
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private lookupName(ctx: InstanceContext, lexical: ModelElement, name: QualifiedName, at: SourceRange): Sym | undefined {
    if (name.segments.length === 1 && !name.isGlobal) {
      // The instance's features and those of the instances holding it that enclose the expression.
      for (const c of this.values.enclosing(ctx, lexical)) {
        const f = this.values.feature(c.element, name.segments[0]!);
        if (f) return this.feature(c, f);
      }
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
    lexical: ModelElement,
    callee: Reference,
    args: readonly { name: string | null; value: Sym }[],
    at: SourceRange,
  ): Sym | undefined {
    let element: ModelElement | undefined;
    let target = ctx;
    if (callee.kind === 'QualifiedName' && callee.segments.length === 1) {
      for (const c of this.values.enclosing(ctx, lexical)) {
        const f = this.values.feature(c.element, callee.segments[0]!);
        if (f && isCallable(f)) {
          element = f;
          target = this.values.child(c, f);
          break;
        }
      }
    }
    element ??= this.values.index.resolveReference(lexical, callee);
    if (!element || !isCallable(element)) return undefined;
    if (element.node.kind === 'Definition') target = { element, path: ctx.path, parent: ctx };
    return this.invokeElement(element, args, target, at);
  }

  /** A calc or constraint body as a symbol: parameters bound to arguments, locals lazily, the result. */
  invokeElement(element: ModelElement, args: readonly { name: string | null; value: Sym }[], ctx: InstanceContext, at: SourceRange | undefined): Sym {
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
      if (v) scope.define(n, v);
      else if (p.value) {
        const expr = p.value.expression;
        scope.define(n, () => this.expression(expr, scope));
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
      scope.define(n, () => this.expression(expr, scope));
    }
    const result = [...members].reverse().find((m) => m.kind === 'ResultExpression');
    const hasResult = result !== undefined || members.some((m) => m.kind === 'Usage' && m.role === 'return');
    const asserted = members.find((m) => m.kind === 'Usage' && m.role === 'assert');
    if (hasResult && asserted) this.fail(asserted.range, path, `${label}: an asserted constraint inside a calc with a result is not modeled by the solver`);
    if (result && result.kind === 'ResultExpression') return this.expression(result.expression, scope);
    const ret = members.find((m): m is Usage => m.kind === 'Usage' && m.role === 'return' && m.value !== null);
    if (ret) return this.expression(ret.value!.expression, scope);
    // A constraint without a result expression, made of nested constraints: all of them.
    const nested = members.filter((m): m is Usage => m.kind === 'Usage' && (m.keyword === 'constraint' || m.role === 'assert' || m.role === 'require'));
    if (nested.length > 0) {
      const terms = nested.map((c) => this.asBool(this.expressionOfConstraintUsage(c, scope, path), c.range, path));
      return { kind: 'bool', term: { op: 'and', args: terms } };
    }
    this.fail(at, path, `${label} has no result expression to solve`);
  }

  private expressionOfConstraintUsage(c: Usage, scope: SymEnv, path: string): Sym {
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
          case 'integer':
            return { kind: 'num', term: num(numeral(expr.value as number)), dim: DIMENSIONLESS, integral: true };
          case 'real':
            return { kind: 'num', term: num(numeral(expr.value as number)), dim: DIMENSIONLESS, integral: false };
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
        return { kind: 'num', term: { op: 'ite', cond: c, then: tn.term, else: en.term }, dim: tn.dim, integral: tn.integral && en.integral };
      }
      case 'Quantity': {
        const v = this.asNum(this.expression(expr.value, env), expr.value.range, path, 'a quantity');
        const u = this.concrete.evaluateUnit(expr.unit, this.values.environment(this.values.root, env.lexical));
        if (isError(u)) this.fail(u.range ?? expr.unit.range, path, u.message);
        if (u.kind !== 'unit') this.fail(expr.unit.range, path, `expected a unit in [ ], got ${describeKind(u)}`);
        if (!isDimensionless(v.dim)) this.fail(at, path, 'a unit applies to a plain number');
        let t = scale(v.term, u.unit.num, u.unit.den);
        if (u.unit.offset !== 0) t = { op: 'add', args: [t, num(numeral(u.unit.offset))] };
        return { kind: 'num', term: t, dim: u.unit.dimension, integral: false };
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
          return this.library(name, [this.expression(expr.target, env)], at, path);
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
        if (items.length === 0) return { kind: 'num', term: num(name === 'sum' ? '0' : '1'), dim: DIMENSIONLESS, integral: true };
        const nums = items.map((i) => this.asNum(i, at, path, `${name}()`));
        if (name === 'sum') {
          for (const n of nums) if (!sameDimension(n.dim, nums[0]!.dim)) this.fail(at, path, `sum() mixes dimensions ${formatDimension(nums[0]!.dim)} and ${formatDimension(n.dim)}`);
          return { kind: 'num', term: { op: 'add', args: nums.map((n) => n.term) }, dim: nums[0]!.dim, integral: nums.every((n) => n.integral) };
        }
        return {
          kind: 'num',
          term: { op: 'mul', args: nums.map((n) => n.term) },
          dim: nums.reduce<Dimension>((d, n) => addDims(d, n.dim, 1), DIMENSIONLESS),
          integral: nums.every((n) => n.integral),
        };
      }
      case 'size':
        return { kind: 'num', term: num(String(items.length)), dim: DIMENSIONLESS, integral: true };
      case 'min':
      case 'max': {
        if (items.length === 0) this.fail(at, path, `${name}() of nothing`);
        const nums = items.map((i) => this.asNum(i, at, path, `${name}()`));
        for (const n of nums) if (!sameDimension(n.dim, nums[0]!.dim)) this.fail(at, path, `${name}() mixes dimensions`);
        return { kind: 'num', term: { op: name, args: nums.map((n) => n.term) }, dim: nums[0]!.dim, integral: nums.every((n) => n.integral) };
      }
      case 'abs': {
        const n = this.asNum(args[0] ?? { kind: 'seq', items: [] }, at, path, 'abs()');
        return { ...n, term: { op: 'abs', arg: n.term } };
      }
      case 'sqrt': {
        const n = this.asNum(args[0] ?? { kind: 'seq', items: [] }, at, path, 'sqrt()');
        if (n.dim.some((d) => d % 2 !== 0)) this.fail(at, path, `sqrt() of ${formatDimension(n.dim)} has no unit`);
        return { kind: 'num', term: { op: 'sqrt', arg: n.term }, dim: n.dim.map((d) => d / 2) as unknown as Dimension, integral: false };
      }
    }
    // Other functions (floor, round, sin …) only over constants: evaluate them.
    const values = args.map((a) => this.constantValue(a));
    if (values.some((v) => v === undefined)) this.fail(at, path, `${name}() over free features is not supported by the solver`);
    const r = callLibraryFunction(name, values as Value[], { draws: this.concrete.options.draws ?? {}, range: at });
    if (r === undefined) this.fail(at, path, `unknown calc or function '${name}'`);
    if (isError(r)) this.fail(r.range ?? at, path, r.message);
    return this.fromValue(r, path, at);
  }

  /** The concrete value of a constant symbol (a number as a Real in SI), or undefined when it is not constant. */
  private constantValue(s: Sym): Value | undefined {
    if (s.kind === 'const') return s.value;
    if (s.kind === 'bool' && s.term.op === 'bool') return { kind: 'boolean', value: s.term.value };
    if (s.kind === 'num' && isDimensionless(s.dim)) {
      const v = evaluateConstant(s.term);
      if (v === undefined) return undefined;
      return s.integral && Number.isInteger(v) ? { kind: 'integer', value: BigInt(v) } : { kind: 'real', value: v };
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
        return { kind: 'bool', term: { op: 'and', args: [this.asBool(left, at, path), this.asBool(right, at, path)] } };
      case 'or':
      case '|':
        return { kind: 'bool', term: { op: 'or', args: [this.asBool(left, at, path), this.asBool(right, at, path)] } };
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
        const term: Term = op === '+' ? { op: 'add', args: [l.term, r.term] } : { op: 'sub', left: l.term, right: r.term };
        return { kind: 'num', term, dim: l.dim, integral: l.integral && r.integral };
      }
      case '*': {
        const l = this.asNum(left, at, path, "'*'");
        const r = this.asNum(right, at, path, "'*'");
        return { kind: 'num', term: { op: 'mul', args: [l.term, r.term] }, dim: addDims(l.dim, r.dim, 1), integral: l.integral && r.integral };
      }
      case '/': {
        const l = this.asNum(left, at, path, "'/'");
        const r = this.asNum(right, at, path, "'/'");
        if (isZero(r.term)) this.fail(at, path, 'division by zero');
        if (isOneTerm(r.term)) return { ...l, integral: false };
        return { kind: 'num', term: { op: 'div', left: l.term, right: r.term }, dim: addDims(l.dim, r.dim, -1), integral: false };
      }
      case '%': {
        const l = this.asNum(left, at, path, "'%'");
        const r = this.asNum(right, at, path, "'%'");
        if (!l.integral || !r.integral) this.fail(at, path, "'%' needs Integers for the solver");
        return { kind: 'num', term: { op: 'mod', left: l.term, right: r.term }, dim: DIMENSIONLESS, integral: true };
      }
      case '**':
      case '^': {
        const l = this.asNum(left, at, path, `'${op}'`);
        const r = this.asNum(right, at, path, `'${op}'`);
        if (!isDimensionless(r.dim)) this.fail(at, path, 'an exponent must be a plain number');
        const e = evaluateConstant(r.term);
        if (!isDimensionless(l.dim) && (e === undefined || !Number.isInteger(e))) this.fail(at, path, 'a quantity can only be raised to a whole constant power');
        const dim = e === undefined ? DIMENSIONLESS : (l.dim.map((d) => d * e) as unknown as Dimension);
        const exponent = e !== undefined && Number.isInteger(e) && e >= 0 ? num(String(e)) : r.term;
        return { kind: 'num', term: { op: 'pow', left: l.term, right: exponent }, dim, integral: l.integral && e !== undefined && Number.isInteger(e) && e >= 0 };
      }
      default:
        this.fail(at, path, `the operator '${op}' is not supported by the solver`);
    }
  }

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
      return { op: 'and', args: xs.map((x, i) => this.equality(x, ys[i]!, at, path)) };
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

/** The value of a term made of numerals only; undefined when it holds a variable. */
export function evaluateConstant(t: Term): number | undefined {
  switch (t.op) {
    case 'num': {
      const m = /^(-?\d+)\/(\d+)$/.exec(t.value);
      return m ? Number(m[1]) / Number(m[2]) : Number(t.value);
    }
    case 'neg': {
      const v = evaluateConstant(t.arg);
      return v === undefined ? undefined : -v;
    }
    case 'add':
    case 'mul': {
      let acc = t.op === 'add' ? 0 : 1;
      for (const a of t.args) {
        const v = evaluateConstant(a);
        if (v === undefined) return undefined;
        acc = t.op === 'add' ? acc + v : acc * v;
      }
      return acc;
    }
    case 'sub':
    case 'div':
    case 'pow': {
      const a = evaluateConstant(t.left);
      const b = evaluateConstant(t.right);
      if (a === undefined || b === undefined) return undefined;
      return t.op === 'sub' ? a - b : t.op === 'div' ? a / b : a ** b;
    }
    default:
      return undefined;
  }
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
