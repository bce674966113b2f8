// The expression evaluator over the AST's expression nodes. Names are resolved through an injected
// Environment (the engine's model, with bindings overriding model values; a test's in-memory map);
// this module never resolves names across documents itself. Calc and constraint bodies are evaluated
// by `callBody` once the environment has found them.

import type {
  Argument, BodyExpression, Expression, Member, QualifiedName, Reference, SourceRange, Usage,
} from '../ast';
import { refusalMessage, unmodeled, type Unmodeled } from '../support';
import { asInstanceOf, wholeNumberDoubt } from './types';
import { CalcBodyRunner, hasBodyActions } from './calc-body';
import { BODY_FUNCTIONS, callBodyFunction, callLibraryFunction, isBodyFunction, type BodyFunction } from './functions';
import { binary, index, single, truth, unary, withUnit, type BinaryOperator } from './operators';
import type { Draws } from './random';
import { decimalRational, type Rational } from './rational';
import { ONE, quantityKindHolds, quantityKindUnit, tryParseUnit } from './units';
import {
  bool, equals, error, format, int, isError, isNull, itemsOf, NULL, rangeOfPlace, real, sequence, str, unitValue, describeKind,
  type Instance, type Outcome, type Place, type Scalar, type Value, type ValueError,
} from './values';

/** An evaluated argument of an invocation: positional (name null) or named (`f(x = 1)`). */
export interface CallArgument {
  readonly name: string | null;
  readonly value: Value;
}

/**
 * What the evaluator asks of the model. The engine implements it over resolved documents; bindings
 * given with a question override model values inside `lookup`.
 */
export interface Environment {
  /**
   * The value of a name in this scope: a feature's value (evaluated however the environment likes,
   * usually by calling back into an Evaluator), an enumeration literal (`Colour::red`), a unit
   * (`SI::kg`), an instance (a part, with `member` reading its features), or an error. Undefined when
   * the name means nothing here; the evaluator then tries built-in unit names, then reports it.
   */
  lookup(name: QualifiedName): Outcome | undefined;
  /**
   * Invokes a calc or constraint (definition or usage) named by `callee` with evaluated arguments,
   * typically through `evaluator.callBody`. Undefined when the callee is not a model element: the
   * evaluator then tries the library functions by simple name.
   */
  invoke?(callee: Reference, args: readonly CallArgument[], evaluator: Evaluator, at: SourceRange): Outcome | undefined;
  /**
   * The value of a member of the body being read, by its declaration: an unnamed constraint usage that
   * specializes a constraint and binds its parameters (`require constraint : MassLimit { in mass =
   * … }`), which no name reaches. Undefined when the environment does not hold it as a feature.
   */
  memberValue?(member: Usage): Outcome | undefined;
  /**
   * `new T(args)`: a new instance of the model's definition T, its features given by the arguments
   * (positional ones in the order T declares its own public features, named ones by name). Undefined
   * when the environment does not construct instances (the evaluator then refuses it).
   */
  construct?(type: Reference, args: readonly CallArgument[], at: SourceRange): Outcome | undefined;
  /** Whether a value conforms to a named type (`istype`, `hastype`, `@`, `as`); undefined when the
   * environment does not know the type (built-in scalar and ISQ quantity types are then tried). */
  classify?(value: Scalar, type: QualifiedName): boolean | undefined;
  /** `x @@ T`: whether the metadata of the element `x` names (not its value) is classified by the
   * metaclass or metadata definition `T`, or the error saying why that is not answered; undefined when
   * the environment does not read elements' metadata. */
  metaclassify?(element: QualifiedName, type: QualifiedName, at: Place): Outcome | undefined;
  /**
   * Whether a name the environment has no value for names a declaration of the library where it is
   * written (a unit: `g` with SI imported). False for a name that resolves to nothing: outside `[ ]`
   * it is then an unknown name, not the unit of that spelling. Undefined: the environment does not
   * resolve names (the unit of that spelling is taken).
   */
  namesLibraryElement?(name: QualifiedName): boolean | undefined;
  /** The source text of a range; lets Integer literals past 2^53 stay exact. */
  sourceText?(range: SourceRange): string | undefined;
  /**
   * `c.a` where `c` names a calc usage in scope and `a` is one of its outputs (`out a = n + 1;`): the
   * output of that invocation. Undefined when `c` is no such usage (the evaluator then reads `c.a` as a
   * feature chain).
   */
  calcOutput?(usage: QualifiedName, output: string): Outcome | undefined;
  /**
   * The value of a usage of a body (a parameter, a local, a result) as an instance of the types it is
   * declared with (KerML FeatureTyping), or the model error saying it is none; undefined when the
   * environment does not know the usage's types (the value is then taken as it is).
   */
  conform?(usage: Usage, value: Value): Outcome | undefined;
}

export interface EvaluationOptions {
  /** How random functions resolve: a policy (min, max, average) or draws from a seeded generator. */
  readonly draws?: Draws;
  /** Deepest nesting of calc invocations and lazily evaluated features (default: as deep as the stack holds). */
  readonly maxDepth?: number;
  /** Expression nodes evaluated before giving up with a `budget` error (default unlimited). */
  readonly maxSteps?: number;
  /** Polled every 1024 nodes: return a message to stop with a `budget` error (cancel, deadline). */
  readonly interrupt?: () => string | undefined;
}

const INTERRUPT_EVERY = 1024;

/** Whether a Complex value is of Real or a type below it: not when it is off the real axis; on the
 * axis its value is a Real, which the engine holds as another kind, so it cannot tell (undefined). */
const complexOfRealType = (v: Scalar): false | undefined => (v.kind === 'complex' && v.im !== 0 ? false : undefined);

/** Whether a value is an instance of Integer, Natural or Positive; undefined when its rounding cannot tell. */
function wholeInstance(v: Scalar, type: 'Integer' | 'Natural' | 'Positive'): boolean | undefined {
  if (v.kind === 'complex') return complexOfRealType(v);
  if (wholeNumberDoubt(v) !== undefined) return undefined;
  return asInstanceOf(v, type) !== undefined;
}

/** A Real literal's exact value, read from its digits once per literal (a sweep evaluates it per row). */
const LITERAL_RATIONALS = new WeakMap<object, Rational | null>();
function literalRational(expr: Expression & { kind: 'Literal' }): Rational | undefined {
  let r = LITERAL_RATIONALS.get(expr);
  if (r === undefined) {
    r = decimalRational(expr.digits!) ?? null;
    LITERAL_RATIONALS.set(expr, r);
  }
  return r ?? undefined;
}

/** Names of the built-in scalar types, for classification when the environment does not know them;
 * undefined when it cannot tell. */
const SCALAR_TYPES: Record<string, (v: Scalar) => boolean | undefined> = {
  Boolean: (v) => v.kind === 'boolean',
  String: (v) => v.kind === 'string',
  // A whole number is an Integer whichever expression made it (`6 / 2`, `3.0`), as a feature's type
  // check reads it (types.ts asInstanceOf): `3.0 istype Integer` was false while `t : Integer = 3.0` held.
  Integer: (v) => wholeInstance(v, 'Integer'),
  Natural: (v) => wholeInstance(v, 'Natural'),
  Positive: (v) => wholeInstance(v, 'Positive'),
  Rational: (v) => (v.kind === 'complex' ? complexOfRealType(v) : v.kind === 'integer' || v.kind === 'real'),
  Real: (v) => (v.kind === 'complex' ? complexOfRealType(v) : v.kind === 'integer' || v.kind === 'real'),
  // ScalarValues: Real specializes Complex, which specializes Number.
  Complex: (v) => v.kind === 'integer' || v.kind === 'real' || v.kind === 'complex',
  Number: (v) => v.kind === 'integer' || v.kind === 'real' || v.kind === 'complex',
  NumericalValue: (v) => v.kind === 'integer' || v.kind === 'real' || v.kind === 'complex' || v.kind === 'quantity',
  ScalarValue: (v) => v.kind !== 'instance' && v.kind !== 'unit',
  DataValue: (v) => v.kind !== 'instance',
  Anything: () => true,
};

/** The name a usage declares: its name, short name, or the feature it redefines (`:>> mass = …`). */
export function declaredName(usage: Usage): string | null {
  if (usage.name !== null) return usage.name;
  if (usage.shortName !== null) return usage.shortName;
  for (const r of usage.relations) {
    if (r.relation !== 'redefinition') continue;
    const q = r.target.kind === 'QualifiedName' ? r.target : r.target.chain.at(-1);
    const last = q?.segments.at(-1);
    if (last !== undefined) return last;
  }
  return null;
}

function nameText(name: QualifiedName): string {
  return name.segments.map((s) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? s : `'${s}'`)).join('::');
}

function referenceText(ref: Reference): string {
  return ref.kind === 'QualifiedName' ? nameText(ref) : ref.chain.map(nameText).join('.');
}

function simpleName(ref: Reference): string {
  const q = ref.kind === 'QualifiedName' ? ref : ref.chain.at(-1)!;
  return q.segments.at(-1) ?? '';
}

function withRange(v: Outcome, at: Place): Outcome {
  return v.kind === 'error' && !v.range ? { ...v, range: rangeOfPlace(at) } : v;
}

type Thunk = () => Outcome;

/**
 * Local names over an outer environment: parameters, body locals and arguments. Values are computed
 * on first use and remembered; a name that needs itself while being computed is an error.
 */
export class LocalScope implements Environment {
  private readonly entries = new Map<string, { state: 'pending' | 'running' | 'done'; thunk: Thunk; value?: Outcome; usage?: Usage }>();

  constructor(private readonly outer: Environment) {}

  /** `usage`: the body's declaration of the name, whose types an assigned value must have. */
  define(name: string, value: Outcome | Thunk, usage?: Usage): this {
    const declared = usage ? { usage } : {};
    if (typeof value === 'function') this.entries.set(name, { state: 'pending', thunk: value, ...declared });
    else this.entries.set(name, { state: 'done', thunk: () => value, value, ...declared });
    return this;
  }

  /** The usage that declares a local of this scope or of an enclosing local scope. */
  declaration(name: string): Usage | undefined {
    const e = this.entries.get(name);
    if (e) return e.usage;
    return this.outer instanceof LocalScope ? this.outer.declaration(name) : undefined;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Sets a local of this scope or of an enclosing local scope (an `assign` in a calc body); false when
   * no local scope declares the name. */
  assign(name: string, value: Outcome): boolean {
    const e = this.entries.get(name);
    if (e) {
      this.entries.set(name, { state: 'done', thunk: () => value, value, ...(e.usage ? { usage: e.usage } : {}) });
      return true;
    }
    return this.outer instanceof LocalScope ? this.outer.assign(name, value) : false;
  }

  /** The value of a local name, or undefined when it is not local. */
  local(name: string): Outcome | undefined {
    const e = this.entries.get(name);
    if (!e) return undefined;
    if (e.state === 'done') return e.value!;
    if (e.state === 'running') return error(`'${name}' depends on itself`);
    e.state = 'running';
    try {
      e.value = e.thunk();
    } finally {
      e.state = 'done';
    }
    return e.value;
  }

  lookup(name: QualifiedName): Outcome | undefined {
    if (!name.isGlobal && name.segments.length === 1 && this.entries.has(name.segments[0]!)) return this.local(name.segments[0]!);
    return this.outer.lookup(name);
  }

  invoke(callee: Reference, args: readonly CallArgument[], evaluator: Evaluator, at: SourceRange): Outcome | undefined {
    return this.outer.invoke?.(callee, args, evaluator, at);
  }
  /** The outer environment's, where it constructs instances (absent otherwise, so `new` is refused before its arguments are read). */
  get construct(): Environment['construct'] {
    const outer = this.outer;
    return outer.construct ? (type, args, at) => outer.construct!(type, args, at) : undefined;
  }

  classify(value: Scalar, type: QualifiedName): boolean | undefined {
    return this.outer.classify?.(value, type);
  }

  memberValue(member: Usage): Outcome | undefined {
    return this.outer.memberValue?.(member);
  }

  metaclassify(element: QualifiedName, type: QualifiedName, at: Place): Outcome | undefined {
    return this.outer.metaclassify?.(element, type, at);
  }

  conform(usage: Usage, value: Value): Outcome | undefined {
    return this.outer.conform?.(usage, value);
  }

  sourceText(range: SourceRange): string | undefined {
    return this.outer.sourceText?.(range);
  }
}

/** One name bound over an outer environment: the parameter of a body applied per element. */
class ParameterScope implements Environment {
  constructor(private readonly outer: Environment, private readonly name: string, private readonly value: Value) {}

  lookup(name: QualifiedName): Outcome | undefined {
    if (!name.isGlobal && name.segments.length === 1 && name.segments[0] === this.name) return this.value;
    return this.outer.lookup(name);
  }

  invoke(callee: Reference, args: readonly CallArgument[], evaluator: Evaluator, at: SourceRange): Outcome | undefined {
    return this.outer.invoke?.(callee, args, evaluator, at);
  }
  /** The outer environment's, where it constructs instances (absent otherwise, so `new` is refused before its arguments are read). */
  get construct(): Environment['construct'] {
    const outer = this.outer;
    return outer.construct ? (type, args, at) => outer.construct!(type, args, at) : undefined;
  }

  classify(value: Scalar, type: QualifiedName): boolean | undefined {
    return this.outer.classify?.(value, type);
  }

  metaclassify(element: QualifiedName, type: QualifiedName, at: Place): Outcome | undefined {
    return this.outer.metaclassify?.(element, type, at);
  }

  conform(usage: Usage, value: Value): Outcome | undefined {
    return this.outer.conform?.(usage, value);
  }

  sourceText(range: SourceRange): string | undefined {
    return this.outer.sourceText?.(range);
  }
}

export class Evaluator {
  private steps = 0;
  private depth = 0;

  constructor(readonly options: EvaluationOptions = {}) {}

  /** Evaluates an expression to a value or an error with the range of the offending node. */
  evaluate(expr: Expression, env: Environment): Outcome {
    return this.eval(expr, env, false);
  }

  /** Evaluates the inside of `[ … ]`: names mean units first (`[m]` is metres even where `m` is a feature). */
  evaluateUnit(expr: Expression, env: Environment): Outcome {
    return this.eval(expr, env, true);
  }

  /** A body usage's value against its declared types (Environment.conform); as it is where the environment cannot tell. */
  typed(usage: Usage, v: Outcome, env: Environment): Outcome {
    return isError(v) ? v : (env.conform?.(usage, v) ?? v);
  }

  /** Counts one loop iteration of a calc body as a step: the step limit, cancel and deadline stop it. */
  tick(at: SourceRange): ValueError | undefined {
    this.steps++;
    if (this.steps % INTERRUPT_EVERY === 0) {
      const stop = this.options.interrupt?.();
      if (stop !== undefined) return error(stop, at, 'budget');
    }
    if (this.options.maxSteps !== undefined && this.steps > this.options.maxSteps) {
      return error(`evaluation stopped after ${this.options.maxSteps} steps`, at, 'budget');
    }
    return undefined;
  }

  /** A scope over `outer` holding the named usages of `members`, evaluated when first read. */
  localScope(members: readonly Member[], outer: Environment): LocalScope {
    const scope = new LocalScope(outer);
    this.defineLocals(scope, members, []);
    return scope;
  }

  /** Expression nodes evaluated so far by this evaluator. */
  get stepCount(): number {
    return this.steps;
  }

  /**
   * Runs `f` one level deeper. A recursion through calcs or features ends by the run's budget or by
   * maxDepth when given; one deeper than the evaluator's stack holds is refused at the level it reached
   * (the stack's RangeError becomes that refusal instead of an internal error).
   */
  nested(what: string, at: Place | undefined, f: () => Outcome): Outcome {
    const max = this.options.maxDepth;
    if (max !== undefined && this.depth >= max) return error(`evaluation nested deeper than ${max} levels at ${what} (recursive definition?)`, at);
    this.depth++;
    try {
      return f();
    } catch (e) {
      // (Near the stack's end even this test may overflow: the level above then catches that.)
      if (e instanceof RangeError && e.message.includes('call stack')) {
        return error(`evaluation nested ${this.depth} levels deep${what === "'(anonymous)'" ? '' : ` at ${what}`}, deeper than the evaluator's stack holds (a recursion that deep, or a recursive definition?)`, at, 'unsupported');
      }
      throw e;
    } finally {
      this.depth--;
    }
  }

  private eval(expr: Expression, env: Environment, unitContext: boolean): Outcome {
    this.steps++;
    if (this.steps % INTERRUPT_EVERY === 0) {
      const stop = this.options.interrupt?.();
      if (stop !== undefined) return error(stop, expr.range, 'budget');
    }
    if (this.options.maxSteps !== undefined && this.steps > this.options.maxSteps) {
      return error(`evaluation stopped after ${this.options.maxSteps} steps`, expr.range, 'budget');
    }
    // The node stands for its range: made only if an error needs it.
    const at: Place = expr;
    switch (expr.kind) {
      case 'Literal':
        return this.literal(expr, env, unitContext, at);
      case 'Null':
        return NULL;
      case 'Name':
        return this.name(expr.name, env, unitContext, at);
      case 'Unary': {
        const v = this.eval(expr.operand, env, unitContext);
        if (isError(v)) return v;
        // `-20 ['°C']` is a reading on the scale; `-t` of a temperature on an offset scale depends on
        // where the scale puts zero (−20 °C, or −293.15 K from 0 K): not decided (it answered −20 °C).
        const offset = expr.operator === '-' && v.kind === 'quantity' && v.unit.offset !== 0;
        if (offset && !(expr.operand.kind === 'Quantity' && expr.operand.value.kind === 'Literal')) {
          return error(`unary '-' of ${format(v)}: a temperature on an offset scale (°C, °F), whose negation depends on where the scale puts zero; not decided: convert it to [K] first, or negate a difference (t - t0)`, at, 'unsupported');
        }
        return unary(expr.operator, v, at);
      }
      case 'Binary':
        return this.binaryExpression(expr.operator, expr.left, expr.right, env, unitContext, at);
      case 'Conditional': {
        const c = this.eval(expr.condition, env, false);
        if (isError(c)) return c;
        const t = truth(c, 'the condition of if', expr.condition);
        if (typeof t !== 'boolean') return t;
        return this.eval(t ? expr.then : expr.else, env, unitContext);
      }
      case 'Classification':
        return this.classification(expr.operator, expr.operand, expr.type, env, at);
      case 'Extent':
        return error(`'all ${nameText(expr.type)}' (the extent of a type) is not supported`, at, 'unsupported');
      case 'MemberAccess': {
        if (expr.target.kind === 'Name' && env.calcOutput && expr.member.segments.length === 1) {
          const output = env.calcOutput(expr.target.name, expr.member.segments[0]!);
          if (output !== undefined) return isError(output) ? withRange(output, at) : output;
        }
        const target = this.eval(expr.target, env, false);
        if (isError(target)) return target;
        return this.member(target, expr.member.segments.at(-1) ?? '', at, expr.member.segments.length > 1 ? expr.member.segments.join('::') : undefined);
      }
      case 'Collect':
      case 'Select': {
        const target = this.eval(expr.target, env, false);
        if (isError(target)) return target;
        return this.applyBody(expr.kind === 'Collect' ? 'collect' : 'select', target, expr.body, env, at);
      }
      case 'Index': {
        const target = this.eval(expr.target, env, false);
        if (isError(target)) return target;
        const i = this.eval(expr.index, env, false);
        if (isError(i)) return i;
        return index(target, i, at);
      }
      case 'Quantity': {
        const v = this.eval(expr.value, env, false);
        if (isError(v)) return v;
        const u = this.eval(expr.unit, env, true);
        if (isError(u)) return u;
        return withUnit(v, u, at);
      }
      case 'Sequence': {
        const items: Value[] = [];
        for (const item of expr.items) {
          const v = this.eval(item, env, unitContext);
          if (isError(v)) return v;
          items.push(v);
        }
        return sequence(items);
      }
      case 'Invocation':
        return this.invocation(expr.callee, expr.args, env, at);
      case 'ArrowInvocation':
        return this.arrowInvocation(expr.target, expr.callee, expr.args, env, at);
      case 'Constructor': {
        const refused = error(`'new ${referenceText(expr.type)}(…)' (constructing an instance) is not supported`, at, 'unsupported');
        if (!env.construct) return refused;
        const evaluated = this.arguments(expr.args, env);
        if (isError(evaluated as Outcome)) return evaluated as ValueError;
        const made = env.construct(expr.type, evaluated as CallArgument[], rangeOfPlace(at));
        return made !== undefined ? withRange(made, at) : refused;
      }
      case 'Body':
        return error('a body expression { … } can only be the argument of collect, select, forAll, exists or reject', at, 'unsupported');
      case 'MetadataAccess':
        return error(`'${nameText(expr.target)}.metadata' is not supported`, at, 'unsupported');
      case 'Missing':
        return error('expression missing (syntax error)', at);
    }
  }

  private literal(expr: Expression & { kind: 'Literal' }, env: Environment, unitContext: boolean, at: Place): Outcome {
    switch (expr.literal) {
      case 'integer': {
        const n = expr.value as number;
        // `[1/s]`: the 1 of a unit expression is the unit one.
        if (unitContext && n === 1) return unitValue(ONE);
        if (Number.isSafeInteger(n)) return int(n);
        if (expr.digits !== undefined && /^[0-9]+$/.test(expr.digits)) return int(BigInt(expr.digits));
        const text = env.sourceText?.(expr.range);
        if (text !== undefined && /^[0-9]+$/.test(text.trim())) return int(BigInt(text.trim()));
        return Number.isFinite(n) ? int(BigInt(n)) : real(n);
      }
      case 'real': {
        // Its exact value from its digits (0.1 is one tenth; the double is only near it).
        const exact = expr.digits !== undefined ? literalRational(expr) : undefined;
        const v = expr.value as number;
        // Without its exact value (an exponent past ±300), a literal outside the doubles' range would
        // be read as Infinity or 0 (`1e400 == 1e401` was true, `1e-400 > 0.0` false): refused.
        if (exact === undefined && (!Number.isFinite(v) || Math.abs(v) < 2.2250738585072014e-308)) {
          const text = expr.digits ?? env.sourceText?.(expr.range) ?? String(v);
          if (!Number.isFinite(v) || /[1-9]/.test(text.replace(/[eE].*$/, ''))) {
            return error(`the Real literal ${text.trim()} is outside the range of the binary floating point the engine computes with (about 2.2e-308 to 1.8e308 in size), and its exact value is not kept (exponents past ±300); not decided`, at, 'unsupported');
          }
        }
        return real(v, exact);
      }
      case 'string': return str(expr.value as string);
      case 'boolean': return bool(expr.value as boolean);
      case 'infinity': return real(Infinity);
    }
  }

  private name(name: QualifiedName, env: Environment, unitContext: boolean, at: Place): Outcome {
    const asUnit = (): Outcome | undefined => {
      const first = name.segments[0];
      if (name.segments.length > 2 || (name.segments.length === 2 && first !== 'SI' && first !== 'USCustomaryUnits')) return undefined;
      const u = tryParseUnit(name.segments.at(-1)!);
      return u ? unitValue(u) : undefined;
    };
    if (unitContext) {
      // Inside `[ ]` a unit's name is the unit even where a feature of the model has the same name
      // (`subject m` and `[m/s]`): the modeler meant the unit. Ordinary lookup (KerML) would take the
      // feature; the language server warns where a feature hides a unit name this way (names/workspace.ts).
      const u = asUnit();
      if (u) return u;
    }
    const v = env.lookup(name);
    if (v !== undefined) return withRange(v, at);
    const u = asUnit();
    // A bare name outside `[ ]` is the unit only where it names it (SI imported): `g` in a model that
    // imports no units resolves to nothing, and was read as grams.
    if (u && (name.segments.length > 1 || env.namesLibraryElement?.(name) !== false)) return u;
    return error(`unknown name '${nameText(name)}'`, at);
  }

  private binaryExpression(
    op: BinaryOperator, leftExpr: Expression, rightExpr: Expression, env: Environment, unitContext: boolean, at: Place,
  ): Outcome {
    const unitOperands = unitContext && (op === '*' || op === '/' || op === '**' || op === '^');
    const left = this.eval(leftExpr, env, unitOperands);
    if (isError(left)) return left;
    // Conditional operators evaluate the right operand only when it decides the result.
    if (op === 'and' || op === 'or' || op === 'implies') {
      const a = truth(left, `'${op}'`, leftExpr);
      if (typeof a !== 'boolean') return a;
      if (op === 'and' && !a) return bool(false);
      if (op === 'or' && a) return bool(true);
      if (op === 'implies' && !a) return bool(true);
      const right = this.eval(rightExpr, env, false);
      if (isError(right)) return right;
      const b = truth(right, `'${op}'`, rightExpr);
      return typeof b === 'boolean' ? bool(b) : b;
    }
    if (op === '??') return isNull(left) ? this.eval(rightExpr, env, unitContext) : left;
    // Exponents are numbers even inside brackets (`[m/s^2]`).
    const right = this.eval(rightExpr, env, unitOperands && op !== '**' && op !== '^');
    if (isError(right)) return right;
    return binary(op, left, right, at);
  }

  private classification(
    op: 'istype' | 'hastype' | '@' | 'as' | '@@' | 'meta', operandExpr: Expression | null, type: QualifiedName, env: Environment, at: Place,
  ): Outcome {
    if (op === '@@' && operandExpr?.kind === 'Name') {
      const m = env.metaclassify?.(operandExpr.name, type, at);
      if (m !== undefined) return m;
    }
    if (op === '@@' || op === 'meta') return error(`metaclassification '${op}' is not supported`, at, 'unsupported');
    if (!operandExpr) return error(`'${op} ${nameText(type)}' without an operand is only meaningful in a filter`, at, 'unsupported');
    const v = this.eval(operandExpr, env, false);
    if (isError(v)) return v;
    const items = itemsOf(v);
    const kept: Scalar[] = [];
    for (const x of items) {
      // `hastype` asks for T itself, not a subtype; of a structure the model types it by its declaration
      // and what that specializes, among which which one is its own is not told apart.
      if (op === 'hastype' && x.kind === 'instance') return error(`'hastype ${nameText(type)}' of ${describeKind(x)}: whether T is its type itself rather than one it specializes is not modeled (istype asks whether it is a T)`, at, 'unsupported');
      const c = env.classify?.(x, type) ?? builtInClassify(x, type);
      if (c === undefined) {
        const why = x.kind === 'quantity' && quantityKindHolds(x.unit, type.segments.at(-1) ?? '') === 'ambiguous'
          ? `: another quantity kind has its dimension, and a value in ${x.unit.name} is typed by its unit's declaration, which is not modeled`
          : '';
        return error(`cannot tell whether ${why ? format(x) : describeKind(x)} is a '${nameText(type)}'${why}`, at, 'unsupported');
      }
      // A number that is a T is also an instance of T's subtypes and supertypes among the number types
      // (3 is a Positive, a Natural, an Integer, a Real …): which one is its type itself is not told
      // apart (`3 hastype Real` was true). A Boolean, a String and an enumeration literal have one type.
      if (op === 'hastype' && c && x.kind !== 'boolean' && x.kind !== 'string' && x.kind !== 'enum') {
        return error(`'hastype ${nameText(type)}' of ${format(x)}: it is a '${nameText(type)}', but whether that is its type itself rather than a supertype of it is not modeled (istype asks whether it is one)`, at, 'unsupported');
      }
      // An enumeration literal's type is its enumeration, not what that specializes.
      if (op === 'hastype' && c && x.kind === 'enum' && x.definition.split('::').at(-1) !== type.segments.at(-1)) return bool(false);
      if (op === 'as') {
        if (c) kept.push(x);
      } else if (!c) return bool(false);
    }
    if (op === 'as') return sequence(kept);
    return bool(items.length > 0);
  }

  /**
   * `target.name` over every element of target (feature chains over sequences flatten). `qualified`:
   * the name as written when it has several segments (`ring.nesting::nestingTrue`, a variant of the
   * feature), which the instance reads first.
   */
  private member(target: Value, name: string, at: Place, qualified?: string): Outcome {
    const out: Value[] = [];
    for (const item of itemsOf(target)) {
      if (item.kind !== 'instance') return error(`cannot read feature '${name}' of ${describeKind(item)}`, at);
      const v = (qualified !== undefined ? item.member(qualified) : undefined) ?? item.member(name);
      if (v === undefined) return error(`${item.label} has no feature '${name}'`, at);
      if (isError(v)) return withRange(v, at);
      out.push(v);
    }
    return sequence(out);
  }

  private arguments(args: readonly Argument[], env: Environment): CallArgument[] | ValueError {
    const out: CallArgument[] = [];
    for (const a of args) {
      const v = this.eval(a.value, env, false);
      if (isError(v)) return v;
      out.push({ name: a.name, value: v });
    }
    return out;
  }

  private invocation(callee: Reference, args: readonly Argument[], env: Environment, at: Place): Outcome {
    const name = simpleName(callee);
    if (isBodyFunction(name) && args.length === 2 && args[1]!.value.kind === 'Body') {
      const target = this.eval(args[0]!.value, env, false);
      if (isError(target)) return target;
      return this.applyBody(name, target, args[1]!.value, env, at);
    }
    const evaluated = this.arguments(args, env);
    if (isError(evaluated as Outcome)) return evaluated as ValueError;
    return this.call(callee, evaluated as CallArgument[], env, at);
  }

  /** Calls a model calc through the environment, else a library function by simple name. */
  private call(callee: Reference, args: readonly CallArgument[], env: Environment, at: Place): Outcome {
    const fromModel = env.invoke?.(callee, args, this, rangeOfPlace(at));
    if (fromModel !== undefined) return withRange(fromModel, at);
    const name = simpleName(callee);
    const named = args.find((a) => a.name !== null);
    const library = callLibraryFunction(name, args.map((a) => a.value), { draws: this.options.draws ?? {}, range: at });
    if (library !== undefined) {
      if (named) return error(`${name}() takes positional arguments only, got '${named.name} = …'`, at);
      return library;
    }
    return error(`unknown calc or function '${referenceText(callee)}'`, at, 'unsupported');
  }

  private arrowInvocation(targetExpr: Expression, callee: Reference, args: readonly Argument[], env: Environment, at: Place): Outcome {
    const target = this.eval(targetExpr, env, false);
    if (isError(target)) return target;
    const name = simpleName(callee);
    if (isBodyFunction(name)) {
      const body = args[0]?.value;
      if (args.length !== 1 || body?.kind !== 'Body') {
        return error(`->${name} needs a body { in x; … }`, at, 'unsupported');
      }
      return this.applyBody(name, target, body, env, at);
    }
    if (name === 'reduce') return this.reduce(target, args, env, at);
    const evaluated = this.arguments(args, env);
    if (isError(evaluated as Outcome)) return evaluated as ValueError;
    return this.call(callee, [{ name: null, value: target }, ...(evaluated as CallArgument[])], env, at);
  }

  /**
   * `seq->reduce '+'` with an operator name, or `seq->reduce { in a; in b; a + b }` with a body of two
   * parameters (ControlFunctions::reduce, its reducer `{ in firstArg; in secondArg; }`): a left fold,
   * f(…f(f(x1, x2), x3)…, xn); one element is itself, none is null.
   */
  private reduce(target: Value, args: readonly Argument[], env: Environment, at: Place): Outcome {
    const fn = args[0]?.value;
    if (args.length === 1 && fn?.kind === 'Body') return this.reduceBody(target, fn, env, at);
    const op = fn?.kind === 'Name' ? fn.name.segments.at(-1) : undefined;
    const operators = new Set(['+', '-', '*', '/', '%', '**', '^', 'and', 'or', 'xor', '&', '|']);
    if (args.length !== 1 || op === undefined || !operators.has(op)) {
      return error('->reduce is supported with an operator only (for example reduce \'+\')', at, 'unsupported');
    }
    const items = itemsOf(target);
    if (items.length === 0) return NULL;
    let acc: Value = items[0]!;
    for (let i = 1; i < items.length; i++) {
      const next = binary(op as BinaryOperator, acc, items[i]!, at);
      if (isError(next)) return next;
      acc = next;
    }
    return acc;
  }

  private reduceBody(target: Value, body: BodyExpression, env: Environment, at: Place): Outcome {
    const params = body.members.filter((m): m is Usage => m.kind === 'Usage' && m.direction === 'in');
    const names = params.map((p) => declaredName(p));
    const [first, second] = names;
    if (params.length !== 2 || first == null || second == null || first === second) {
      return error('the body of ->reduce takes two named parameters ({ in a; in b; … }), the value so far and the next element', body.range, 'unsupported');
    }
    if (!body.result) return error('the body of reduce has no result expression', body.range);
    const result = body.result;
    const others = body.members.filter((m) => m.kind === 'Usage' && !params.includes(m as Usage));
    const items = itemsOf(target);
    if (items.length === 0) return NULL;
    let acc: Value = items[0]!;
    for (let i = 1; i < items.length; i++) {
      const stop = this.tick(rangeOfPlace(at));
      if (stop) return stop;
      const scope = new LocalScope(env);
      scope.define(first, acc, params[0]);
      scope.define(second, items[i]!, params[1]);
      if (others.length > 0) this.defineLocals(scope, body.members, params);
      const next = this.eval(result, scope, false);
      if (isError(next)) return next;
      const one = itemsOf(next);
      if (one.length !== 1) return error(`the body of ->reduce gave ${one.length} values for one step (its result is one value)`, result.range);
      acc = one[0]!;
    }
    return acc;
  }

  /** collect/select/reject/forAll/exists with a body `{ in x; … }` evaluated per element. */
  private applyBody(name: BodyFunction, target: Value, body: BodyExpression, env: Environment, at: Place): Outcome {
    const param = body.members.find((m): m is Usage => m.kind === 'Usage' && m.direction === 'in');
    const paramName = param ? declaredName(param) : null;
    if (!body.result) return error(`the body of ${name} has no result expression`, body.range);
    const result = body.result;
    const hasLocals = body.members.some((m) => m !== param && m.kind === 'Usage');
    return callBodyFunction(name, target, (item) => {
      if (!hasLocals && paramName !== null) return this.eval(result, new ParameterScope(env, paramName, item), false);
      const scope = new LocalScope(env);
      if (paramName !== null) scope.define(paramName, item);
      if (hasLocals) this.defineLocals(scope, body.members, param ? [param] : []);
      return this.eval(result, scope, false);
    }, { range: at });
  }

  /** Defines every named usage with a value (or a body) among `members` lazily in `scope`. */
  private defineLocals(scope: LocalScope, members: readonly Member[], skip: readonly Member[]): void {
    for (const member of members) {
      // `then action a { … }` declares `a` as a feature of the body like `action a { … };` (the
      // succession is a member of its own, SysML 8.2.2.16 SourceSuccessionMember).
      const m = member.kind === 'Succession' && member.targetMember?.kind === 'Usage' ? member.targetMember : member;
      if (m.kind !== 'Usage' || skip.includes(m)) continue;
      const n = declaredName(m);
      if (n === null || scope.has(n)) continue;
      const thunk = this.usageThunk(m, scope);
      if (thunk) scope.define(n, thunk, m);
      // An output or result without a value is still the body's own: its actions may assign it.
      else if (m.direction === 'out' || m.role === 'return') scope.define(n, () => error(`'${n}' has no value: no action of the body assigned it`, m), m);
    }
  }

  /** How a local usage gets its value: its `= expr`, or an instance built from its body. */
  private usageThunk(usage: Usage, scope: LocalScope): Thunk | undefined {
    const name = declaredName(usage) ?? '(anonymous)';
    if (usage.value) {
      const expr = usage.value.expression;
      return () => this.nested(`'${name}'`, expr.range, () => this.typed(usage, this.eval(expr, scope, false), scope));
    }
    if (isPredicateUsage(usage)) {
      // A constraint or requirement usage is read as true/false. One that specializes a definition
      // needs the inherited members only the environment knows: it is left to the environment.
      if (inherits(usage) || !usage.body) return undefined;
      const members = usage.body;
      const requirement = usage.keyword === 'requirement';
      return () => this.nested(`'${name}'`, usage.range, () => {
        const inner = this.bindBody(name, members, [], scope, usage);
        if (isError(inner as Outcome)) return inner as ValueError;
        const v = requirement ? this.requirement(name, members, inner as LocalScope) : this.predicate(name, members, inner as LocalScope, usage.nameRange ?? usage.range);
        return isError(v as Outcome) ? (v as ValueError) : bool((v as Verdict).value);
      });
    }
    if (usage.body && usage.body.some((m) => m.kind === 'Usage')) {
      const body = usage.body;
      for (const m of body) {
        const u = unmodeled(m, 'values');
        if (u) return () => error(`${name}: ${refusalMessage(u, `in '${name}', whose features are read`)}`, u.range, 'unsupported');
      }
      return () => this.instanceFromBody(name, body, scope);
    }
    return undefined;
  }

  /** A structured value whose features are the named usages of a body (`attribute s : State { :>> v = …; }`). */
  instanceFromBody(label: string, members: readonly Member[], outer: Environment): Instance {
    const scope = new LocalScope(outer);
    this.defineLocals(scope, members, []);
    const identity = {};
    return { kind: 'instance', label, identity, member: (n) => (scope.has(n) ? scope.local(n) : undefined) };
  }

  /**
   * The scope of a calc, constraint or requirement body for one invocation. `in` parameters (and a
   * requirement's `subject`) take the arguments in order (positional) or by name; a parameter without
   * an argument uses its own `= expr`; other named usages are locals, evaluated when first needed.
   */
  bindBody(label: string, members: readonly Member[], args: readonly CallArgument[], outer: Environment, at?: Place): LocalScope | ValueError {
    // Soundness: every member of the body is modeled here, or the invocation is refused (src/sysml/support.ts).
    const shape = bodyShape(members);
    if (shape.refused) return error(`${label}: ${refusalMessage(shape.refused, 'in a calc, constraint or requirement body')}`, shape.refused.range, 'unsupported');
    const params = members.filter((m): m is Usage =>
      m.kind === 'Usage' && m.role !== 'return' && (m.direction === 'in' || m.direction === 'inout' || m.role === 'subject'));
    const scope = new LocalScope(outer);
    const given = new Map<Usage, Value>();
    let positional = 0;
    for (const a of args) {
      if (a.name === null) {
        const p = params[positional++];
        if (!p) return error(`${label} takes ${params.length} argument${params.length === 1 ? '' : 's'}, got ${args.filter((x) => x.name === null).length}`, at);
        given.set(p, a.value);
      } else {
        const p = params.find((x) => declaredName(x) === a.name);
        if (!p) return error(`${label} has no parameter '${a.name}'`, at);
        if (given.has(p)) return error(`${label}: parameter '${a.name}' is given twice`, at);
        given.set(p, a.value);
      }
    }
    /** Parameters bound with `=` in the body that the call also gives a value: both must agree. */
    const bound: [Usage, string, Value][] = [];
    for (const p of params) {
      const n = declaredName(p);
      if (n === null) continue;
      const v = given.get(p);
      if (v !== undefined) {
        const typed = this.typed(p, v, outer);
        if (isError(typed)) return typed;
        scope.define(n, typed, p);
        if (p.role !== 'subject' && p.value && !p.value.isDefault && !p.value.isInitial) bound.push([p, n, v]);
      } else {
        const thunk = this.usageThunk(p, scope);
        scope.define(n, thunk ?? (() => error(`${label}: no value for parameter '${n}'`, at)), p);
      }
    }
    this.defineLocals(scope, members, params);
    // `in y = 7` binds the parameter (KerML feature values; `default` is the overridable form): an
    // argument of another value contradicts it rather than replacing it.
    for (const [p, n, v] of bound) {
      const own = this.eval(p.value!.expression, scope, false);
      if (isError(own)) return own;
      if (own.kind === 'instance' || v.kind === 'instance') continue;
      if (!equals(own, v)) {
        return error(`${label}: parameter '${n}' is bound with '=' to ${format(own)} (${p.value!.range.line}:${p.value!.range.column}) but the call gives ${format(v)}; declare it with 'default' for a value the call may replace`, at ?? p.value!.range);
      }
    }
    return scope;
  }

  /**
   * Evaluates a calc or constraint body for an invocation (see bindBody). The result is the body's
   * result expression, else the `return` usage's value (or an instance built from its body).
   */
  callBody(label: string, members: readonly Member[], args: readonly CallArgument[], outer: Environment, at?: Place, kind?: string): Outcome {
    return this.callBodyDetailed(label, members, args, outer, at, kind).value;
  }

  /** callBody, with the body's outputs and, when the value is false because an assertion failed, which one. */
  callBodyDetailed(label: string, members: readonly Member[], args: readonly CallArgument[], outer: Environment, at?: Place, kind?: string): BodyOutcome {
    let outputs: { name: string; value: Outcome }[] = [];
    let failing: { label: string; range: SourceRange } | undefined;
    let ended: LocalScope | undefined;
    const value = this.nested(label, at, () => {
      const run = this.runBody(label, members, args, outer, at);
      if (isError(run as Outcome)) return run as ValueError;
      const scope = run as LocalScope;
      ended = scope;
      const r = this.bodyResult(label, members, scope, at, kind);
      if (r.kind === 'boolean' && !r.value) {
        const f = this.assertedFailure(label, members, scope);
        if (f && !isError(f as Outcome)) failing = f as { label: string; range: SourceRange };
      }
      if (!isError(r)) outputs = this.outputsOf(members).map((o) => ({ name: declaredName(o)!, value: scope.local(declaredName(o)!) ?? NULL }));
      return r;
    });
    const base = failing ? { value, outputs, failing } : { value, outputs };
    return ended ? { ...base, scope: ended } : base;
  }

  /**
   * Binds a calc body's parameters and runs its actions (a calc is a behaviour: its body runs, then the
   * result is read): the scope holding the locals' values at the end.
   */
  runBody(label: string, members: readonly Member[], args: readonly CallArgument[], outer: Environment, at?: Place): LocalScope | ValueError {
    const scope = this.bindBody(label, members, args, outer, at);
    if (isError(scope as Outcome)) return scope as ValueError;
    if (bodyShape(members).actions) {
      const local = scope as LocalScope;
      // Initial values (`:=`) are the values before the actions run.
      for (const m of members) {
        if (m.kind !== 'Usage' || !m.value?.isInitial) continue;
        const n = declaredName(m);
        if (n === null || !local.has(n)) continue;
        const v = local.local(n)!;
        if (isError(v)) return v;
      }
      const host = { evaluator: this, localScope: (ms: readonly Member[], o: Environment) => this.localScope(ms, o), tick: (r: SourceRange) => this.tick(r) };
      const stop = new CalcBodyRunner(host, label).run(members, local);
      if (stop) return stop;
    }
    return scope;
  }

  /**
   * A body's asserted constraints (`assert constraint …` in a calc or analysis): the first false one, or
   * undefined when all hold.
   */
  assertedFailure(label: string, members: readonly Member[], scope: LocalScope): { label: string; range: SourceRange } | ValueError | undefined {
    for (const m of members) {
      if (m.kind !== 'Usage' || m.role !== 'assert' || m.keyword !== 'constraint') continue;
      const v = this.constraintMember(m, scope);
      if (isError(v as Outcome)) return v as ValueError;
      const verdict = v as Verdict;
      const holds = m.isNegated ? !verdict.value : verdict.value;
      if (!holds) return verdict.failing && !m.isNegated ? verdict.failing : { label: usageLabel(m, 'assert constraint'), range: m.range };
    }
    void label;
    return undefined;
  }

  /** A body's output parameters (`out x`, not the result), in order. */
  outputsOf(members: readonly Member[]): readonly Usage[] {
    return bodyShape(members).outputs;
  }

  private bodyResult(label: string, members: readonly Member[], scope: LocalScope, at?: Place, kind?: string): Outcome {
    const requirementLike = kind === 'requirement' || kind === 'concern' ||
      (kind === undefined && members.some((m) => m.kind === 'Usage' && (m.role === 'require' || m.role === 'assume' || (m.keyword === 'requirement' && m.role === null))));
    if (requirementLike) {
      // A requirement body (subject, assume, require, assert, nested requirements) reads as true or false.
      const v = this.requirement(label, members, scope);
      return isError(v as Outcome) ? (v as ValueError) : bool((v as Verdict).value);
    }
    const result = this.plainResult(label, members, scope);
    const failed = this.assertedFailure(label, members, scope);
    if (failed !== undefined && isError(failed as Outcome)) return failed as ValueError;
    if (result === undefined) {
      // No result and no outputs: an analysis (or calc) that only asserts reads as whether its assertions hold.
      if (members.some((m) => m.kind === 'Usage' && m.role === 'assert')) return bool(failed === undefined);
      return error(`${label} has no result to evaluate (no result expression, return value or output)`, at, 'unsupported');
    }
    if (failed !== undefined) {
      const f = failed as { label: string; range: SourceRange };
      return error(`${label}: its asserted constraint ${f.label} is false, so it has no result`, f.range);
    }
    return result;
  }

  /** The result expression, else the return parameter's value, else the single output's (or the outputs as one value). */
  private plainResult(label: string, members: readonly Member[], scope: LocalScope): Outcome | undefined {
    const resultExpr = resultExpressionOf(members);
    const ret = members.find((m): m is Usage => m.kind === 'Usage' && m.role === 'return');
    if (resultExpr) {
      const r = this.eval(resultExpr, scope, false);
      // `return r = a; b` gives the result twice (the return parameter's binding and the result
      // expression, which binds it too): both hold, so they must agree.
      if (isError(r) || !ret?.value || ret.value.isDefault) return r;
      const n = declaredName(ret);
      const other = n !== null && scope.has(n) ? scope.local(n)! : this.eval(ret.value.expression, scope, false);
      if (isError(other)) return other;
      if (r.kind !== 'instance' && other.kind !== 'instance' && !equals(r, other)) {
        return error(`${label}: its result is given twice, ${format(other)} by the return value (${ret.value.range.line}:${ret.value.range.column}) and ${format(r)} by the result expression`, resultExpr.range);
      }
      return r;
    }
    if (ret) {
      const n = declaredName(ret);
      if (n !== null && scope.has(n)) return scope.local(n)!;
      const thunk = this.usageThunk(ret, scope);
      if (thunk) return thunk();
      return error(`${label}: its result '${n ?? 'return'}' has no value`, ret.range);
    }
    const bound = bodyShape(members).resultBinding;
    if (bound) return this.eval({ kind: 'Name', name: bound, range: bound.range } as Expression, scope, false);
    const outs = this.outputsOf(members);
    if (outs.length === 1) {
      const n = declaredName(outs[0]!)!;
      return scope.has(n) ? scope.local(n)! : error(`${label}: its output '${n}' has no value`, outs[0]!.range);
    }
    if (outs.length > 1) {
      const identity = {};
      return {
        kind: 'instance', label, identity,
        member: (name: string) => (outs.some((o) => declaredName(o) === name) && scope.has(name) ? scope.local(name) : undefined),
      };
    }
    return undefined;
  }

  /**
   * Checks a constraint body (definition or usage) for one invocation: its result expression must be
   * true. When it is false, `failing` names the first false conjunct of a top-level `and` chain (by its
   * source text when the environment provides it) and its range. A body without an expression has no verdict.
   */
  checkConstraint(label: string, members: readonly Member[], args: readonly CallArgument[], outer: Environment, at?: Place): Verdict | ValueError {
    const r = this.nested(label, at, () => {
      const scope = this.bindBody(label, members, args, outer, at);
      if (isError(scope as Outcome)) return scope as ValueError;
      const v = this.predicate(label, members, scope as LocalScope, at);
      return isError(v as Outcome) ? (v as ValueError) : verdictValue(v as Verdict);
    });
    return isError(r) ? r : verdictOf(r);
  }

  /**
   * Checks a requirement body: every `require` constraint must hold whenever every `assume`
   * constraint holds. `failing` names the first unmet requirement (its name, or its expression), and
   * `vacuous` is set when an assumption is false (the requirement then holds without being tested).
   * Nested requirement usages (requirement groups) are checked too.
   */
  checkRequirement(label: string, members: readonly Member[], args: readonly CallArgument[], outer: Environment, at?: Place): Verdict | ValueError {
    const r = this.nested(label, at, () => {
      const scope = this.bindBody(label, members, args, outer, at);
      if (isError(scope as Outcome)) return scope as ValueError;
      const v = this.requirement(label, members, scope as LocalScope);
      return isError(v as Outcome) ? (v as ValueError) : verdictValue(v as Verdict);
    });
    return isError(r) ? r : verdictOf(r);
  }

  private requirement(label: string, members: readonly Member[], scope: LocalScope): Verdict | ValueError {
    for (const m of members) {
      if (m.kind !== 'Usage' || m.role !== 'assume') continue;
      const v = this.constraintMember(m, scope);
      if (isError(v as Outcome)) return v as ValueError;
      const verdict = v as Verdict;
      if (!verdict.value) return { value: true, vacuous: { label: verdict.failing?.label ?? usageLabel(m, 'assume'), range: verdict.failing?.range ?? m.range } };
    }
    for (const m of members) {
      if (m.kind !== 'Usage') continue;
      // `assert constraint` in a requirement is required as `require` is (an asserted constraint must hold).
      const isRequire = m.role === 'require' || (m.role === 'assert' && m.keyword === 'constraint');
      // A composite nested requirement is a required constraint (SysML: it subsets subrequirements);
      // a `ref requirement` only refers to one.
      const isSubRequirement = m.keyword === 'requirement' && m.role === null && !m.isRef;
      if (!isRequire && !isSubRequirement) continue;
      const v = isSubRequirement ? this.subRequirement(m, scope) : this.constraintMember(m, scope);
      if (isError(v as Outcome)) return v as ValueError;
      const verdict = m.isNegated ? { value: !(v as Verdict).value } : (v as Verdict);
      if (!verdict.value) {
        const name = declaredName(m);
        return { value: false, failing: name !== null ? { label: name, range: m.range } : verdict.failing ?? { label: usageLabel(m, 'require'), range: m.range } };
      }
    }
    void label;
    return { value: true };
  }

  /** A requirement nested in a requirement (a group): its own body, or the environment's verdict. */
  private subRequirement(m: Usage, scope: LocalScope): Verdict | ValueError {
    const name = declaredName(m);
    const label = usageLabel(m, 'requirement');
    if (name !== null) {
      const v = scope.has(name) ? scope.local(name) : scope.lookup(qualifiedName(name, m.range));
      if (v !== undefined) {
        const b = expectBoolean(v, label, m);
        if (typeof b !== 'boolean') return b;
        return b ? { value: true } : { value: false, failing: { label, range: m.range } };
      }
    }
    if (inherits(m)) return error(`requirement ${label} specializes a definition the environment did not resolve`, m.range, 'unsupported');
    if (!m.body) return { value: true };
    const inner = this.bindBody(label, m.body, [], scope, m);
    if (isError(inner as Outcome)) return inner as ValueError;
    return this.requirement(label, m.body, inner as LocalScope);
  }

  /** A `require`/`assume`/`assert` constraint member: an inline body, or a reference to a constraint. */
  private constraintMember(m: Usage, scope: LocalScope): Verdict | ValueError {
    const label = usageLabel(m, m.role ?? 'constraint');
    const mixed = referencedConstraintMix(m);
    if (mixed) return mixed;
    if (m.body !== null && resultExpressionOf(m.body)) {
      const inner = this.bindBody(label, m.body, [], scope, m);
      if (isError(inner as Outcome)) return inner as ValueError;
      return this.predicate(label, m.body, inner as LocalScope);
    }
    // `assume constraint c : C { … }` (members inherited from C) or `require massConstraint;` (a
    // reference): the environment gives the constraint's value, by the usage's own name or the target's.
    const own = declaredName(m);
    const referenced = referencedConstraint(m);
    if (referenced && m.name === null) {
      // The named feature itself, a chain (`require engine.ok;`) read through its links.
      const b = expectBoolean(this.eval(referenceExpression(referenced), scope, false), label, m);
      if (typeof b !== 'boolean') return b;
      return b ? { value: true } : { value: false, failing: { label: referenceText(referenced), range: m.range } };
    }
    if (own === null && inherits(m)) {
      // An unnamed one that specializes a constraint (`require constraint : MassLimit { in mass = … }`):
      // the member itself, read by its declaration; the name of what it specializes would be another
      // element (a definition has no value, a usage it subsets is not this one with these bindings).
      const v = scope.memberValue?.(m);
      if (v !== undefined) {
        const b = expectBoolean(v, label, m);
        if (typeof b !== 'boolean') return b;
        return b ? { value: true } : { value: false, failing: { label, range: m.range } };
      }
    }
    const target = m.relations.find((r) => r.relation === 'reference' || r.relation === 'subsetting' || r.relation === 'typing')?.target;
    const targetName = target ? (target.kind === 'QualifiedName' ? target : target.chain.at(-1)) : undefined;
    const name = own !== null && m.name !== null ? qualifiedName(own, m.range) : targetName;
    if (!name) return error(`${label} has no constraint to check`, m.range, 'unsupported');
    const v = this.name(name, scope, false, m);
    const b = expectBoolean(v, label, m);
    if (typeof b !== 'boolean') return b;
    return b ? { value: true } : { value: false, failing: { label: nameText(name), range: m.range } };
  }

  private predicate(label: string, members: readonly Member[], scope: LocalScope, at?: Place): Verdict | ValueError {
    // `require`/`assume` belong to requirement bodies; in a constraint body their meaning is not modeled.
    const stray = members.find((m): m is Usage => m.kind === 'Usage' && (m.role === 'require' || m.role === 'assume'));
    if (stray) return error(`${label}: a '${stray.role}' constraint in a constraint body is not modeled (it belongs to a requirement)`, stray.range, 'unsupported');
    // OpenSysML's `assert <expression>;` statements in a constraint's own body state its condition (the
    // parser warns of the notation and marks them keyword-implicit): read as its expression, conjoined.
    const asserted = members.filter((m): m is Usage => m.kind === 'Usage' && m.role === 'assert' && m.keyword === 'constraint');
    if (!resultExpressionOf(members) && asserted.length > 0 && asserted.every((m) => m.isKeywordImplicit)) {
      const f = this.assertedFailure(label, members, scope);
      if (f === undefined) return { value: true };
      if (isError(f as Outcome)) return f as ValueError;
      return { value: false, failing: f as { label: string; range: SourceRange } };
    }
    // An asserted constraint holds for every evaluation of the body (KerML invariant): where it is
    // false the model has no instance at these values, so the constraint has no verdict to give.
    const failed = this.assertedFailure(label, members, scope);
    if (failed !== undefined) {
      if (isError(failed as Outcome)) return failed as ValueError;
      const f = failed as { label: string; range: SourceRange };
      return error(`${label}: its asserted constraint ${f.label} is false, so the model has no instance at these values and ${label} no verdict`, f.range);
    }
    const expr = resultExpressionOf(members);
    // Nothing binds the result of a constraint without an expression (`constraint def C;`): the model
    // does not say whether it holds, so no verdict is given (it once read as true).
    if (!expr) return error(`${label} has no expression: the model does not say when it holds (give it one, e.g. constraint ${label} { x > 0 })`, at, 'unsupported');
    for (const part of conjuncts(expr)) {
      const v = this.eval(part, scope, false);
      const b = expectBoolean(v, label, part);
      if (typeof b !== 'boolean') return b;
      if (!b) return { value: false, failing: { label: scope.sourceText(part.range) ?? `${label} at ${part.range.line}:${part.range.column}`, range: part.range } };
    }
    return { value: true };
  }
}

/** A calc body's result with its outputs (`out` parameters) and the assertion that made it false, if any. */
export interface BodyOutcome {
  readonly value: Outcome;
  readonly outputs: readonly { readonly name: string; readonly value: Outcome }[];
  readonly failing?: { readonly label: string; readonly range: SourceRange };
  /** A case's objective checked against its result: its name and verdict (or why it has none). */
  readonly objective?: { readonly label: string; readonly verdict: Verdict | ValueError; readonly range: SourceRange; readonly unstated?: boolean };
  /** The body's scope at the end of the run (its parameters, locals and result as the run left them). */
  readonly scope?: LocalScope;
}

/** What an invocation needs to know of a body besides its values, computed once per body (bodies never
 * change): the first construct it refuses, whether it has actions to run, its outputs. */
interface BodyShape {
  readonly refused: Unmodeled | undefined;
  readonly actions: boolean;
  readonly outputs: readonly Usage[];
  /** `bind result = x;` (or `bind x = result;`) in a body without a return or result expression: x. */
  readonly resultBinding: QualifiedName | undefined;
}

/**
 * The other end of a binding connector that binds a calc's result parameter (`bind result = x;`, SysML
 * 8.3.12 with 8.3.16: the result equals x), when both ends are plain names.
 */
function resultBindingOf(m: Member): QualifiedName | undefined {
  if (m.kind !== 'Usage' || (m.keyword !== 'bind' && m.keyword !== 'binding') || m.name !== null || (m.body ?? []).length > 0) return undefined;
  const ends = m.ends ?? [];
  if (ends.length !== 2 || ends.some((e) => e.target.kind !== 'QualifiedName' || e.multiplicity !== null || e.name !== null)) return undefined;
  const [a, b] = ends.map((e) => e.target as QualifiedName);
  const isResult = (q: QualifiedName) => !q.isGlobal && q.segments.length === 1 && q.segments[0] === 'result';
  if (isResult(a!) && !isResult(b!)) return b;
  if (isResult(b!) && !isResult(a!)) return a;
  return undefined;
}

const BODY_SHAPES = new WeakMap<readonly Member[], BodyShape>();

function bodyShape(members: readonly Member[]): BodyShape {
  let shape = BODY_SHAPES.get(members);
  if (!shape) {
    let refused: Unmodeled | undefined;
    let resultBinding: QualifiedName | undefined;
    const hasOwnResult = members.some((m) => m.kind === 'ResultExpression' || (m.kind === 'Usage' && m.role === 'return'));
    for (const m of members) {
      const bound = hasOwnResult ? undefined : resultBindingOf(m);
      // One binding of the result is its value; a second would need the two checked equal.
      if (bound && !resultBinding) {
        resultBinding = bound;
        continue;
      }
      refused = unmodeled(m, 'calc');
      if (refused) break;
    }
    shape = {
      refused,
      resultBinding,
      actions: hasBodyActions(members),
      outputs: members.filter((m): m is Usage => m.kind === 'Usage' && m.role !== 'return' && m.direction === 'out' && declaredName(m) !== null),
    };
    BODY_SHAPES.set(members, shape);
  }
  return shape;
}

/** The outcome of checking a constraint or requirement. */
export interface Verdict {
  readonly value: boolean;
  /** What failed first: a requirement's name, or a conjunct's source text, with its range. */
  readonly failing?: { readonly label: string; readonly range: SourceRange };
  /** The assumption that was false, when a requirement holds only because of it. */
  readonly vacuous?: { readonly label: string; readonly range: SourceRange };
}

// Verdicts travel through `nested` (which returns Outcomes) wrapped in an instance.
function verdictValue(v: Verdict): Outcome {
  return { kind: 'instance', label: 'verdict', identity: v, member: () => undefined };
}

function verdictOf(o: Outcome): Verdict {
  return (o as Instance).identity as Verdict;
}

/** A reference (`heavy`, `engine.heavy`) as the expression that reads the feature it names. */
export function referenceExpression(ref: Reference): Expression {
  if (ref.kind === 'QualifiedName') return { kind: 'Name', name: ref, range: ref.range };
  let e: Expression = { kind: 'Name', name: ref.chain[0]!, range: ref.chain[0]!.range };
  for (const link of ref.chain.slice(1)) e = { kind: 'MemberAccess', target: e, member: link, range: link.range };
  return e;
}

/**
 * The constraint a constraint usage names by reference subsetting (`assert heavy;`, `require
 * engine.ok;`: SysML AssertConstraintUsage and RequirementConstraintUsage, whose constraint is then
 * the referenced feature), or undefined when it names none.
 */
export function referencedConstraint(u: Usage): Reference | undefined {
  return isReferencingWithParameters(u) ? undefined : constraintReference(u);
}

/** The constraint a constraint usage names by reference subsetting, however it is read (for its label). */
export function constraintReference(u: Usage): Reference | undefined {
  return u.keyword === 'constraint' ? u.relations.find((r) => r.relation === 'reference')?.target : undefined;
}

/**
 * A constraint usage that names its constraint by reference subsetting and binds parameters in its body,
 * stating no expression of its own (`assert massConstraint { in partMasses = (…); in massLimit = 2500
 * [kg]; }`): its values are among the referenced constraint's (ReferenceSubsetting is a Subsetting, KerML
 * 7.3.4.5), so it is read as a constraint of its own that specializes the one it names (the model's
 * typesOf), its parameters redefining that one's by position, not as the named constraint itself.
 * One that also states an expression stays refused (referencedConstraintMix).
 */
export function isReferencingWithParameters(u: Member | Usage | { kind: string }): boolean {
  if (u.kind !== 'Usage') return false;
  const usage = u as Usage;
  if (usage.keyword !== 'constraint' || !usage.relations.some((r) => r.relation === 'reference')) return false;
  const body = usage.body ?? [];
  return body.some((m) => m.kind === 'Usage') && !resultExpressionOf(body);
}

/** A usage that names a constraint and states an expression of its own (`assert heavy { m < 3.0 }`): refused, the two are not conjoined here. */
export function referencedConstraintMix(u: Usage): ValueError | undefined {
  const ref = constraintReference(u);
  if (!ref || !u.body || !resultExpressionOf(u.body)) return undefined;
  return error(`'${u.role ?? 'constraint'} ${referenceText(ref)}' names a constraint and states an expression of its own: not modeled`, u.range, 'unsupported');
}

function resultExpressionOf(members: readonly Member[]): Expression | undefined {
  for (let i = members.length - 1; i >= 0; i--) {
    const m = members[i]!;
    if (m.kind === 'ResultExpression') return m.expression;
  }
  return undefined;
}

/** The operands of a top-level `and` / `&` chain, left to right. */
function conjuncts(e: Expression): Expression[] {
  if (e.kind === 'Binary' && (e.operator === 'and' || e.operator === '&')) return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

function isPredicateUsage(u: Usage): boolean {
  return (u.keyword === 'constraint' || u.keyword === 'requirement') && u.role !== 'return';
}

/** Whether a usage specializes something (so its effective members include inherited ones). */
function inherits(u: Usage): boolean {
  return u.relations.some((r) => r.relation === 'typing' || r.relation === 'subsetting' || r.relation === 'redefinition' || r.relation === 'reference');
}

function qualifiedName(name: string, range: SourceRange): QualifiedName {
  return { kind: 'QualifiedName', segments: [name], segmentStarts: [range.start], isGlobal: false, range };
}

function usageLabel(u: Usage, fallback: string): string {
  return declaredName(u) ?? `${fallback} at ${u.range.line}:${u.range.column}`;
}

/** Classification against ScalarValues types and ISQ quantity kinds. */
function builtInClassify(v: Scalar, type: QualifiedName): boolean | undefined {
  const last = type.segments.at(-1) ?? '';
  const scalar = SCALAR_TYPES[last];
  if (scalar) return scalar(v);
  if (!quantityKindUnit(last)) return undefined;
  if (v.kind !== 'quantity') return false;
  const holds = quantityKindHolds(v.unit, last);
  return holds === 'ambiguous' ? undefined : holds;
}

/** Evaluates one expression with a fresh evaluator. */
export function evaluate(expr: Expression, env: Environment, options: EvaluationOptions = {}): Outcome {
  return new Evaluator(options).evaluate(expr, env);
}

/** Every body function name, for `covers`. */
export const BODY_FUNCTION_NAMES: readonly string[] = BODY_FUNCTIONS;

/** The single Boolean an expression must produce (constraints, requirements, conditions). */
export function expectBoolean(v: Outcome, what: string, at?: Place): boolean | ValueError {
  if (isError(v)) return v;
  const x = single(v, what, '', at);
  if (isError(x)) return x;
  if (x.kind !== 'boolean') return error(`${what} must be true or false, got ${describeKind(x)}`, at);
  return x.value;
}
