// The runtime of an ExecutionModel: states, the canonically ordered enabled moves, firing a move, the
// implicit clock, and a state's canonical encoding (`encode`, text) and key (`writeKey`, the same
// distinctions as bytes: the explorer's visited-set key).
import type { Expression, QualifiedName, Reference, SourceRange } from '../ast';
import { Evaluator, type CallArgument, type Environment } from '../semantics/evaluate';
import { binary, unary } from '../semantics/operators';
import { formatRational } from '../semantics/rational';
import { convertMagnitude, tryParseUnit } from '../semantics/units';
import { bool, enumLiteral, error, format, int, isError, itemsOf, sequence, type Outcome, type Scalar, type Value } from '../semantics/values';
import { asInstanceOf } from '../semantics/types';
import { BehaviorError, type Effect, type ExecNode, type ExecTransition, type ExecutionModel, type FeatureDecl, type Trigger } from './model';
import type { StateKey } from './state-store';

export interface Token {
  readonly id: number;
  readonly node: number;
  /** When the token entered each state of its chain (outermost first), or arrived at its node. */
  readonly since: readonly number[];
  /** At a join: the node whose succession it arrived along (a join waits for one along each). */
  readonly via?: number;
}

export interface BehaviorState {
  readonly clock: number;
  /** Sorted by id. */
  readonly tokens: readonly Token[];
  /** Feature values by feature index (undefined: no value). */
  readonly values: readonly (Value | undefined)[];
  /** Pending signals per receiver path, oldest first. */
  readonly queues: ReadonlyMap<string, readonly string[]>;
  readonly terminated: boolean;
  readonly nextToken: number;
}

export interface Move {
  readonly token: number;
  readonly node: number;
  /** decide: successor index; state: transition id; otherwise 0. */
  readonly branch: number;
  readonly label: string;
}

export type EndStatus = 'done' | 'terminated' | 'deadlock';

export interface StateView {
  readonly clock: number;
  readonly status: EndStatus | 'running';
  readonly tokens: readonly { readonly token: string; readonly node: string }[];
  /** Feature values in notation (`no value` when unset). */
  readonly values: readonly { readonly name: string; readonly value: string }[];
  readonly pending: readonly { readonly receiver: string; readonly signals: readonly string[] }[];
}

export interface RuntimeOptions {
  /** Seconds per clock tick; absent: a continuous clock. */
  readonly clockStep?: number;
  /** Signals the model never sends are accepted as environment events. */
  readonly environmentSignals?: boolean;
  readonly evaluator?: Evaluator;
  /** false: every expression through the evaluator (tests compare Runtime.direct against it). */
  readonly directExpressions?: boolean;
  /** false: every move through the general `step` (tests compare Runtime.quickStep against it). */
  readonly quickMoves?: boolean;
}

/** A `when` trigger a token waits on: its accept (depth -1) or a transition of the state at that depth of its chain. */
interface WhenWait {
  readonly where: ExecNode | ExecTransition;
  readonly depth: number;
  readonly expr: Expression;
  readonly scope: readonly string[];
}

const SECOND = tryParseUnit('s')!;

/** Writes a non-negative integer as StateKey.uint does (seven bits a byte, high bit on all but the
 * last) at `n`, in a buffer with room for it (StateKey.reserve); where it ends. */
function putUint(b: Uint8Array, n: number, u: number): number {
  while (u >= 0x80) {
    b[n++] = (u % 0x80) | 0x80;
    u = Math.floor(u / 0x80);
  }
  b[n++] = u;
  return n;
}

/**
 * A value as states tell values apart: its notation, except that a Real says whether it has an exact
 * value and which (two Reals with one double may differ, and compare differently: rational.ts).
 */
/** Small Integers as shared values: a counter's assignments allocate none (values are never mutated). */
const SMALL_INTEGERS: Scalar[] = Array.from({ length: 1280 }, (_, k) => int(k - 256));
function integer(v: bigint): Scalar {
  return v >= -256n && v < 1024n ? SMALL_INTEGERS[Number(v) + 256]! : int(v);
}

/**
 * An operator on two Integers as `binary` answers it (operators.ts: exact sums, differences and
 * products of bigints; comparisons and equality of their values), or undefined for the operators
 * whose Integer result is not an Integer or can be an error (`/`, `%`, `**`).
 */
function integerOperator(op: string): ((a: bigint, b: bigint) => Value) | undefined {
  switch (op) {
    case '+': return (a, b) => integer(a + b);
    case '-': return (a, b) => integer(a - b);
    case '*': return (a, b) => integer(a * b);
    case '<': return (a, b) => bool(a < b);
    case '<=': return (a, b) => bool(a <= b);
    case '>': return (a, b) => bool(a > b);
    case '>=': return (a, b) => bool(a >= b);
    case '==': case '===': return (a, b) => bool(a === b);
    case '!=': case '!==': return (a, b) => bool(a !== b);
    default: return undefined;
  }
}

function stateText(v: Value): string {
  if (v.kind === 'real') return v.exact ? `r${formatRational(v.exact)}` : `~${format(v)}`;
  if (v.kind === 'quantity') return `${v.exact ? `q${formatRational(v.exact)}` : `~${format(v)}`}[${v.unit.name}]`;
  if (v.kind === 'sequence') return `(${v.items.map(stateText).join(',')})`;
  return format(v);
}

/** A compiled expression (Runtime.direct): its value in a state, or undefined to ask the evaluator. */
type Direct = (values: readonly (Value | undefined)[]) => Value | undefined;
/** The times of a token that arrived at clock 0 (shared: a token's times are never changed in place). */
const SINCE_ZERO: readonly number[] = Object.freeze([0]);

function joinPath(p: string, n: string): string {
  return p === '' ? n : `${p}.${n}`;
}

/** The subject's simple name (`car` of `Params::car`, `take picture` of `P::'take picture'`). */
function subjectName(subject: string): string {
  return subject.split('::').at(-1)!.replace(/^'|'$/g, '');
}

/** Names in an expression read against a state: features by path from the scope's prefixes. */
class StateEnvironment implements Environment {
  constructor(private readonly rt: Runtime, private readonly values: readonly (Value | undefined)[], private readonly scope: readonly string[]) {}

  private read(key: string): Outcome | undefined {
    const i = this.rt.model.featureIndex.get(key);
    if (i !== undefined && this.rt.model.features[i]!.bound) return this.rt.boundValue(i, this.values);
    if (i !== undefined) return this.values[i] ?? error(this.rt.model.features[i]!.outside ?? `'${key}' has no value (give it one, bind it, or make it a free input)`);
    const opaque = this.rt.model.opaque.get(key);
    if (opaque) return error(opaque);
    if (this.rt.model.calcs.has(key)) {
      return this.rt.model.featureIndex.has(`${key}#result`) ? this.read(`${key}#result`) : error(`the calc usage '${key}' has no result to read (no return value or result expression): read one of its features`);
    }
    if (this.rt.model.instances.has(key)) return this.instance(key);
    return undefined;
  }

  private instance(key: string): Scalar {
    return { kind: 'instance', label: key || this.rt.model.subject, identity: `behavior:${key}`, member: (m: string) => this.read(joinPath(key, m)) };
  }

  lookup(name: QualifiedName): Outcome | undefined {
    const segs = name.segments;
    const misread = this.rt.model.misreads.get(name);
    if (misread) throw misread;
    if (segs.length === 1) {
      // Which prefix a name resolves by depends on the model only (see Runtime.nameKeys).
      const hit = this.rt.nameKeys.get(name);
      if (hit !== undefined && hit.scope === this.scope) return this.read(hit.key);
      for (const p of this.scope) {
        const key = joinPath(p, segs[0]!);
        const v = this.read(key);
        if (v !== undefined) {
          // Bounded: a name built afresh at each evaluation would otherwise be kept each time.
          if (this.rt.nameKeys.size < 4096) this.rt.nameKeys.set(name, { scope: this.scope, key });
          return v;
        }
      }
      // The subject by its own name (`perform check { in vehicle = car; }` inside part car).
      if (segs[0] === subjectName(this.rt.model.subject)) return this.read('');
      return this.global(name);
    }
    const g = this.global(name);
    if (g !== undefined) return g;
    const def = segs.at(-2)!;
    const lits = this.rt.model.enums.get(def);
    if (lits?.includes(segs.at(-1)!)) return enumLiteral(def, segs.at(-1)!);
    // `takePicture::scene` in the subject takePicture (or `a::x` in its action a): the feature by its path.
    const rest = segs[0] === subjectName(this.rt.model.subject) ? segs.slice(1) : segs;
    if (rest.length === 0) return undefined;
    for (const p of rest === segs ? this.scope : ['']) {
      const v = this.read(joinPath(p, rest.join('.')));
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** `t.d` where `t` is a calc usage: its feature `d` (the evaluator would otherwise read `t`, its result, first). */
  calcOutput(usage: QualifiedName, output: string): Outcome | undefined {
    // Asked at every member access: nothing to look for in a behaviour without calc usages.
    if (usage.segments.length !== 1 || this.rt.model.calcs.size === 0) return undefined;
    for (const p of this.scope) {
      const key = joinPath(p, usage.segments[0]!);
      if (this.rt.model.calcs.has(key)) return this.read(joinPath(key, output)) ?? error(`'${output}' is not a feature of the calc usage '${key}'`);
      if (this.rt.model.featureIndex.has(key) || this.rt.model.opaque.has(key) || this.rt.model.instances.has(key)) return undefined;
    }
    return undefined;
  }

  /** A package's attribute the compiler found for this name (ExecutionModel.globals). */
  private global(name: QualifiedName): Outcome | undefined {
    const key = this.rt.model.globals.get(name);
    return key === undefined ? undefined : this.read(key);
  }

  invoke(_callee: Reference, _args: readonly CallArgument[], _evaluator: Evaluator, _at: SourceRange): Outcome | undefined {
    return undefined;
  }

  classify(value: Scalar, type: QualifiedName): boolean | undefined {
    if (value.kind === 'enum' && this.rt.model.enums.has(type.segments.at(-1)!)) return value.definition === type.segments.at(-1);
    return undefined;
  }
}

export class Runtime {
  readonly evaluator: Evaluator;
  constructor(readonly model: ExecutionModel, readonly options: RuntimeOptions = {}) {
    this.evaluator = options.evaluator ?? new Evaluator({});
    this.boundFeatures = model.features.flatMap((f, i) => (f.bound ? [i] : []));
    this.hasWhen = model.nodes.some((x) => x.trigger?.kind === 'when') || model.transitions.some((x) => x.trigger?.kind === 'when');
    const waits = (t: Trigger | null) => t?.kind === 'after' || t?.kind === 'at';
    this.timed = model.nodes.some((n) => waits(n.trigger)) || model.transitions.some((t) => waits(t.trigger));
    // `accept at t` waits for an instant of the run's clock. The instants must be constants: past the
    // latest one the clock no longer matters to them, so a state keeps its clock only up to there.
    let horizon = -1;
    const none: (Value | undefined)[] = model.features.map(() => undefined);
    for (const x of [...model.nodes.map((n) => ({ trigger: n.trigger, scope: n.scope, where: n as { path: string; range: SourceRange } })), ...model.transitions.map((t) => ({ trigger: t.trigger, scope: t.scope, where: t as { path: string; range: SourceRange } }))]) {
      if (x.trigger?.kind !== 'at') continue;
      let instant: number;
      try {
        instant = this.due(this.seconds(x.trigger.expr, none, x.scope, x.where));
      } catch (e) {
        if (!(e instanceof BehaviorError)) throw e;
        throw new BehaviorError(`the instant of 'accept at' must be a constant time (seconds, or a time quantity, from the start of the run): ${e.message}`, x.where.path, x.trigger.expr.range);
      }
      horizon = Math.max(horizon, instant);
    }
    this.atHorizon = horizon;
    this.quick = options.quickMoves !== false && this.boundFeatures.length === 0 && !this.timed && !this.hasWhen ? 1 : 0;
    if (this.quick !== 0) {
      this.quickTargets = new Int32Array(model.nodes.length).fill(-1);
      this.plainNodes = new Uint8Array(model.nodes.map((n) => (n.kind === 'join' || n.kind === 'decide' || n.kind === 'accept' || n.kind === 'state' ? 0 : 1)));
    }
  }

  /** The latest instant an `accept at` waits for (-1: none): a state's clock matters up to there. */
  private readonly atHorizon: number;

  /** Some accept or transition waits (`after`): only then can settling move the clock. */
  readonly timed: boolean;

  /**
   * Set by `holds`: whether the checked conditions fail on these values. A move runs several effects
   * one after another (a transition's exit actions, its effect, the entry actions; a state's entry and
   * do actions), and SysML v2 performs them one after another, so a condition may fail between two of
   * them and hold again at the end of the move, where the run checks it: refused there (the schedule
   * cannot witness a violation inside a move).
   */
  watch: ((values: readonly (Value | undefined)[]) => boolean) | undefined = undefined;
  /** The first effect of the move being fired after which `watch` failed. */
  private failedInside: { effect: Effect; path: string } | undefined = undefined;

  // ---- evaluation -------------------------------------------------------------------------------

  /**
   * The feature key a one-segment name read in a scope resolved to, by the name's node: the first of
   * the scope's prefixes under which the model has a feature, an opaque feature or an instance. That
   * depends on the model, not on the state, so it is found once and reused.
   */
  readonly nameKeys = new Map<QualifiedName, { readonly scope: readonly string[]; readonly key: string }>();

  private readonly evaluating = new Set<number>();
  /** A bound feature (`= e`) has the value of `e` in the state it is read in. */
  boundValue(i: number, values: readonly (Value | undefined)[]): Outcome {
    const f = this.model.features[i]!;
    if (this.evaluating.has(i)) return error(`'${f.key}' is bound to a value that depends on itself`, f.range);
    this.evaluating.add(i);
    try {
      const v = this.evaluator.evaluate(f.init!, new StateEnvironment(this, values, f.scope));
      if (isError(v) || !f.valueTypes) return v;
      const typed = this.typed(i, v);
      return typeof typed === 'string' ? error(typed, f.range) : typed;
    } finally {
      this.evaluating.delete(i);
    }
  }

  /** Stores the bound features' values in a state being built (what views, outcomes and encodings show). */
  private refreshBound(values: (Value | undefined)[]): void {
    for (const i of this.boundFeatures) {
      const v = this.boundValue(i, values);
      // A parameter bound to what the model cannot compute here has no value; reading it is refused.
      if (isError(v) && v.code !== 'budget' && this.model.features[i]!.parameter) {
        values[i] = undefined;
        continue;
      }
      if (isError(v)) throw new BehaviorError(v.message, this.model.features[i]!.path, v.range ?? this.model.features[i]!.range, v.code === 'budget' ? 'budget' : 'unsupported');
      values[i] = v;
    }
  }

  private readonly boundFeatures: number[];

  evaluate(expr: Expression, values: readonly (Value | undefined)[], scope: readonly string[], where: ExecNode | { path: string }): Value {
    const fast = this.options.directExpressions === false ? null : this.direct(expr, scope);
    if (fast !== null) {
      const d = fast(values);
      if (d !== undefined) return d;
    }
    const v = this.evaluator.evaluate(expr, new StateEnvironment(this, values, scope));
    if (isError(v)) throw new BehaviorError(v.message, where.path, v.range ?? expr.range, v.code === 'budget' ? 'budget' : 'unsupported');
    return v;
  }

  /**
   * Expressions of plain features, literals and operators (`c < 49`, `c + 1`, `a and not b`), by
   * expression and scope: compiled once into a function of the state's values that applies the same
   * operator functions the evaluator does (operators.ts) with each name's feature found once, so the
   * explorer's millions of evaluations skip the tree walk and the name lookups. It answers undefined
   * whenever the evaluator could answer anything else than a plain value (a name with no value, an
   * operator error, a non-Boolean operand of `and`): the evaluator then evaluates the expression
   * itself (these expressions read nothing but values, so evaluating again changes nothing).
   */
  private readonly directs = new Map<Expression, { readonly scope: readonly string[]; readonly fn: Direct | null }>();
  private direct(expr: Expression, scope: readonly string[]): Direct | null {
    const hit = this.directs.get(expr);
    if (hit !== undefined && hit.scope === scope) return hit.fn;
    const fn = this.compileDirect(expr, scope);
    if (this.directs.size < 4096) this.directs.set(expr, { scope, fn });
    return fn;
  }

  private compileDirect(expr: Expression, scope: readonly string[]): Direct | null {
    switch (expr.kind) {
      case 'Literal': {
        // As Evaluator.literal outside `[ ]`: a safe integer, a Real, a Boolean.
        if (expr.literal === 'integer' && typeof expr.value === 'number' && Number.isSafeInteger(expr.value)) {
          const v = int(expr.value);
          return () => v;
        }
        if (expr.literal === 'boolean' && typeof expr.value === 'boolean') {
          const v = bool(expr.value);
          return () => v;
        }
        return null;
      }
      case 'Name': {
        // As StateEnvironment.lookup: no misread, and the first scope prefix naming anything names a
        // feature that holds its own value (not bound, not a calc, an instance or an opaque parameter).
        const segs = expr.name.segments;
        if (segs.length !== 1 || this.model.misreads.has(expr.name)) return null;
        const m = this.model;
        for (const p of scope) {
          const key = joinPath(p, segs[0]!);
          const i = m.featureIndex.get(key);
          if (i !== undefined) {
            if (m.features[i]!.bound) return null;
            return (values) => values[i];
          }
          if (m.opaque.has(key) || m.calcs.has(key) || m.instances.has(key)) return null;
        }
        return null;
      }
      case 'Unary': {
        const operand = this.compileDirect(expr.operand, scope);
        if (operand === null) return null;
        const op = expr.operator;
        return (values) => {
          const v = operand(values);
          if (v === undefined) return undefined;
          const r = unary(op, v, expr);
          return isError(r) ? undefined : r;
        };
      }
      case 'Binary': {
        const op = expr.operator;
        if (op === '??' || op === '..') return null;
        const left = this.compileDirect(expr.left, scope);
        const right = left && this.compileDirect(expr.right, scope);
        if (left === null || right === null) return null;
        if (op === 'and' || op === 'or' || op === 'implies') {
          // Conditional, as Evaluator.binaryExpression: the right operand only when it decides.
          return (values) => {
            const a = left(values);
            if (a === undefined || a.kind !== 'boolean') return undefined;
            if (op === 'and' && !a.value) return a;
            if (op === 'or' && a.value) return a;
            if (op === 'implies' && !a.value) return bool(true);
            const b = right(values);
            return b === undefined || b.kind !== 'boolean' ? undefined : b;
          };
        }
        const onIntegers = integerOperator(op);
        return (values) => {
          const a = left(values);
          if (a === undefined) return undefined;
          const b = right(values);
          if (b === undefined) return undefined;
          // Two Integers (the loops and counters of most behaviours): the operator at once, with the
          // same result `binary` gives them; everything else through `binary`.
          if (onIntegers !== undefined && a.kind === 'integer' && b.kind === 'integer') return onIntegers(a.value, b.value);
          const r = binary(op, a, b, expr);
          return isError(r) ? undefined : r;
        };
      }
      default:
        return null;
    }
  }

  truth(expr: Expression, values: readonly (Value | undefined)[], scope: readonly string[], where: { path: string }): boolean {
    const v = this.evaluate(expr, values, scope, where);
    if (v.kind !== 'boolean') throw new BehaviorError(`a condition must be a Boolean, got ${format(v)}`, where.path, expr.range);
    return v.value;
  }

  /** A value stored in feature i (initial, given, assigned or transferred), refused at `at` when it is no instance of the feature's types. */
  private store(i: number, v: Value, where: { path: string }, at: SourceRange): Value {
    if (!this.model.features[i]!.valueTypes) return v;
    const typed = this.typed(i, v);
    if (typeof typed === 'string') throw new BehaviorError(typed, where.path, at);
    return typed;
  }

  /**
   * A value against feature i's declared types (KerML FeatureTyping; src/sysml/semantics/types.ts): the
   * value (a whole Real for an Integer made that Integer), or why it is none.
   */
  private typed(i: number, v: Value): Value | string {
    const f = this.model.features[i]!;
    const types = f.valueTypes;
    // Most features have no type the engine tells apart; a single value needs no list (this runs at
    // every assignment the explorer makes).
    if (types === undefined || types.length === 0) return v;
    // An Integer (a Boolean) is an instance of Integer (Boolean) as it is (asInstanceOf): the common case at once.
    if (types.length === 1) {
      const t = types[0]!;
      if (t.kind === 'scalar' && ((t.name === 'Integer' && v.kind === 'integer') || (t.name === 'Boolean' && v.kind === 'boolean'))) return v;
    }
    if (v.kind !== 'sequence') return this.instanceOf(f, v as Scalar, types);
    const items = itemsOf(v);
    const out: Scalar[] = [];
    for (const item of items) {
      const x = this.instanceOf(f, item, types);
      if (typeof x === 'string') return x;
      out.push(x);
    }
    return out.every((x, k) => x === items[k]) ? v : sequence(out);
  }

  /** The value as an instance of every one of the feature's types, or why it is none. */
  private instanceOf(f: FeatureDecl, item: Scalar, types: NonNullable<FeatureDecl['valueTypes']>): Scalar | string {
    let x: Scalar | undefined = item;
    for (const t of types) {
      x = t.kind === 'scalar' ? asInstanceOf(x, t.name) : x.kind === 'enum' && x.definition === t.definition && t.literals.includes(x.literal) ? x : undefined;
      if (!x) return `'${f.key}' is declared ${t.written} but its value is ${format(item)}`;
    }
    return x;
  }

  /** The feature index an assignment target names, resolved from the scope's prefixes. */
  featureOf(target: readonly string[], scope: readonly string[], where: { path: string; range: SourceRange }): number {
    const miswrite = this.model.miswrites.get(target);
    if (miswrite) throw miswrite;
    // What a target names depends on the model only: found once per target and scope.
    const hit = this.targets.get(target);
    if (hit !== undefined && hit.scope === scope) return hit.index;
    const index = this.findTarget(target, scope, where);
    if (this.targets.size < 4096) this.targets.set(target, { scope, index });
    return index;
  }

  private readonly targets = new Map<readonly string[], { readonly scope: readonly string[]; readonly index: number }>();

  private findTarget(target: readonly string[], scope: readonly string[], where: { path: string; range: SourceRange }): number {
    const key = target.join('.');
    for (const p of scope) {
      const i = this.model.featureIndex.get(joinPath(p, key));
      if (i === undefined) continue;
      const f = this.model.features[i]!;
      if (f.bound) throw new BehaviorError(`'${f.key}' is bound to a value ('=' at ${f.range.line}:${f.range.column}) and cannot also be assigned (':=' gives an initial value)`, where.path, where.range);
      if (f.defaultBinding) throw new BehaviorError(`'${f.key}' has a default value ('default' at ${f.defaultBinding.line}:${f.defaultBinding.column}), which binds it for the whole life of an instance given no other value (KerML FeatureValue: isInitial = false), and cannot also be assigned ('default :=' gives an initial default)`, where.path, where.range);
      if (f.constant) throw new BehaviorError(`'${f.key}' is constant (declared at ${f.range.line}:${f.range.column}: a constant feature keeps its value) and cannot be assigned`, where.path, where.range);
      return i;
    }
    // Through a feature the model leaves outside (a referential part, a parameter computed outside): why.
    for (const p of scope) {
      for (let n = target.length - 1; n >= 1; n--) {
        const why = this.model.opaque.get(joinPath(p, target.slice(0, n).join('.')));
        if (why) throw new BehaviorError(`'${key}' cannot be assigned: ${why}`, where.path, where.range);
      }
    }
    throw new BehaviorError(`'${key}' is not a feature this behaviour can assign (declare it as an attribute)`, where.path, where.range);
  }

  seconds(expr: Expression, values: readonly (Value | undefined)[], scope: readonly string[], where: { path: string }): number {
    const v = this.evaluate(expr, values, scope, where);
    if (v.kind === 'integer') return Number(v.value);
    if (v.kind === 'real') return v.value;
    if (v.kind === 'quantity') {
      const s = convertMagnitude(v.value, v.unit, SECOND, true);
      if (s !== undefined) return s;
    }
    throw new BehaviorError(`'accept after' needs a duration, got ${format(v)}`, where.path, expr.range);
  }

  /** When a wait that ends at `t` comes due on this clock. */
  due(t: number): number {
    const step = this.options.clockStep;
    if (!step) return t;
    const k = Math.ceil(t / step - 1e-9);
    return k * step;
  }

  // ---- initial state ------------------------------------------------------------------------------

  /**
   * The initial state: features from their initial values (the given ones override), one token per
   * top-level behaviour, the clock at 0, settled (time advanced while nothing can move).
   */
  initial(given: ReadonlyMap<string, Value> = new Map()): BehaviorState {
    this.failedInside = undefined;
    this.moveCount = 0;
    this.firstWrite = undefined;
    this.moveWrites = undefined;
    this.whenPending = undefined;
    this.whenSeen = undefined;
    const values: (Value | undefined)[] = new Array(this.model.features.length).fill(undefined);
    this.model.features.forEach((f, i) => {
      const g = given.get(f.key);
      if (g !== undefined) values[i] = this.store(i, g, f, f.range);
      else if (f.init && !f.bound) values[i] = this.store(i, this.evaluate(f.init, values, f.scope, f), f, f.range);
    });
    if (this.boundFeatures.length > 0) this.refreshBound(values);
    const s = new Mutable({ clock: 0, tokens: [], values, queues: new Map(), terminated: false, nextToken: 1 });
    for (const b of this.model.behaviors) {
      const id = s.nextToken++;
      this.arrive(s, id, b);
    }
    // The machines' initial entry actions may have changed what bound features read.
    if (this.boundFeatures.length > 0) this.refreshBound(s.values);
    if (this.watch) this.checkInside(s.values, 'the initial entry actions');
    const settled = this.settle(s.freeze());
    this.enabled(settled);
    return settled;
  }

  // ---- moves --------------------------------------------------------------------------------------

  private readonly labels = new Map<string, string[]>();
  /** A move's label, `t<token>@<name>`; kept for the first tokens (most moves repeat them). */
  /**
   * The move of a token at a node (a decision's branch, a transition), made once and shared: moves
   * are immutable, and a state's enabled moves are listed for every state explored.
   */
  private readonly moves: (Move | undefined)[][][] = [];
  private move(token: number, node: number, branch: number, name: string): Move {
    if (token >= 1024) return { token, node, branch, label: this.label(token, name) };
    const byBranch = (this.moves[node] ??= []);
    const byToken = (byBranch[branch] ??= []);
    return (byToken[token] ??= { token, node, branch, label: this.label(token, name) });
  }

  private label(token: number, name: string): string {
    if (token >= 1024) return `t${token}@${name}`;
    let byToken = this.labels.get(name);
    if (!byToken) this.labels.set(name, (byToken = []));
    return (byToken[token] ??= `t${token}@${name}`);
  }

  /**
   * The moves enabled in a (settled) state, in canonical order. States are immutable, so the list is
   * computed once and kept on the state (settle asks first, the explorer next); do not modify it.
   */
  enabled(state: BehaviorState): readonly Move[] {
    const cached = state as { enabledMoves?: readonly Move[] };
    return (cached.enabledMoves ??= this.computeEnabled(state));
  }

  private computeEnabled(state: BehaviorState): Move[] {
    if (state.terminated) return [];
    // Moves and their sort keys side by side (no wrapper per move), gathered in arrays kept for the
    // next state (the list returned is allocated once, at its size); the sets only when a join or a
    // nested state needs them.
    this.gatheredCount = 0;
    let joinsSeen: Set<number> | undefined;
    let offered: Set<number> | undefined;
    let transitionMoves = 0;
    for (const t of state.tokens) {
      const n = this.model.nodes[t.node]!;
      switch (n.kind) {
        case 'join': {
          joinsSeen ??= new Set<number>();
          if (joinsSeen.has(n.id)) break;
          joinsSeen.add(n.id);
          if (this.joinReady(state.tokens, n.id) !== undefined) {
            this.gather(this.move(t.id, n.id, 0, n.name), n.id);
          }
          break;
        }
        case 'decide': {
          let any = false;
          for (let i = 0; i < n.succ.length; i++) {
            if (i === n.elseIndex) continue;
            const g = n.guards[i];
            if (g && !this.truth(g, state.values, n.scope, n)) continue;
            any = true;
            this.gather(this.move(t.id, n.id, i, this.branchName(n, i)), n.id + i / (n.succ.length + 1));
          }
          if (!any && n.elseIndex >= 0) {
            this.gather(this.move(t.id, n.id, n.elseIndex, this.branchName(n, n.elseIndex)), n.id);
          }
          break;
        }
        case 'accept':
          if (this.triggerReady(state, n.trigger!, t.since.at(-1) ?? 0, n.scope, n)) {
            this.gather(this.move(t.id, n.id, 0, n.name), n.id);
          }
          break;
        case 'state': {
          const chain = this.stateChain(n.id);
          chain.forEach((sid, depth) => {
            // A transition of a state that holds several region tokens fires once: offered by the
            // lowest-numbered token inside it (tokens are visited in number order).
            if (depth < chain.length - 1) {
              offered ??= new Set<number>();
              if (offered.has(sid)) return;
              offered.add(sid);
            }
            for (const trId of this.model.nodes[sid]!.transitions) {
              const tr = this.model.transitions[trId]!;
              const since = t.since[depth] ?? t.since.at(-1) ?? 0;
              // A completion transition (no trigger) of a composite state waits until it completes.
              if (!tr.trigger && depth < chain.length - 1 && !this.complete(state, sid)) continue;
              if (tr.trigger && !this.triggerReady(state, tr.trigger, since, tr.scope, tr)) continue;
              if (tr.guard && !this.truth(tr.guard, state.values, tr.scope, tr)) continue;
              this.gather(this.move(t.id, n.id, trId, tr.name), this.model.nodes.length + trId);
              transitionMoves++;
            }
          });
          break;
        }
        default:
          this.gather(this.move(t.id, n.id, 0, n.name), n.id);
      }
    }
    const moves = this.gatheredMoves.slice(0, this.gatheredCount);
    const orders = this.gatheredOrders;
    if (transitionMoves > 1) this.checkNestedConflict(moves);
    if (this.timed && this.options.environmentSignals === true && moves.length > 0) this.checkEnvironmentWait(state, moves);
    // By order, then token; stable (insertion sort: a move passes only those strictly after it).
    for (let i = 1; i < moves.length; i++) {
      const m = moves[i]!;
      const o = orders[i]!;
      let j = i - 1;
      while (j >= 0 && (orders[j]! > o || (orders[j] === o && moves[j]!.token > m.token))) {
        moves[j + 1] = moves[j]!;
        orders[j + 1] = orders[j]!;
        j--;
      }
      moves[j + 1] = m;
      orders[j + 1] = o;
    }
    return moves;
  }

  private readonly gatheredMoves: Move[] = [];
  private gatheredOrders = new Float64Array(16);
  private gatheredCount = 0;
  /** computeEnabled's: one more move and its sort key. */
  private gather(m: Move, o: number): void {
    const k = this.gatheredCount++;
    if (k === this.gatheredOrders.length) {
      const grown = new Float64Array(k * 2);
      grown.set(this.gatheredOrders);
      this.gatheredOrders = grown;
    }
    this.gatheredMoves[k] = m;
    this.gatheredOrders[k] = o;
  }

  /**
   * With the environment's events free, the environment may also send nothing until a pending timed
   * wait comes due. Time passes only when no move is enabled, and an event of the environment is
   * always enabled: where every enabled move is one and a wait is pending, the runs in which the wait
   * comes due first would be missing, so the run is refused there.
   */
  private checkEnvironmentWait(state: BehaviorState, moves: readonly Move[]): void {
    const where = (m: Move): ExecNode | ExecTransition => {
      const n = this.model.nodes[m.node]!;
      return n.kind === 'state' ? this.model.transitions[m.branch]! : n;
    };
    const environmental = (m: Move) => {
      const t = where(m).trigger;
      return t?.kind === 'signal' && this.environmentSignal(t.signal);
    };
    if (!moves.every(environmental)) return;
    const due = this.nextDue(state);
    if (due === undefined) return;
    const at = where(moves[0]!);
    const signal = (at.trigger as { signal: string }).signal;
    throw new BehaviorError(
      `with the environment's events free, ${signal} may come from the environment at any time or not before the wait pending here comes due (at ${due} s): a timed wait racing an event of the environment is not modeled (time passes only when no move is enabled)`,
      at.path, at.range,
    );
  }

  private readonly branchNames: string[][] = [];
  /** A decision's branch as moves name it: `decide->target`. */
  private branchName(n: ExecNode, i: number): string {
    const names = (this.branchNames[n.id] ??= []);
    return (names[i] ??= `${n.name}->${this.model.nodes[n.succ[i]!]!.name}`);
  }

  /**
   * A transition of a state and one of a state it is nested in, both enabled by one event (the same
   * signal, or neither with a trigger): SysML v2 does not say which is taken (UML 2.5.1 gives the
   * nested state's priority), so the run is refused there rather than choosing.
   */
  private checkNestedConflict(moves: readonly Move[]): void {
    const nodes = this.model.nodes;
    const trs: ExecTransition[] = [];
    for (const m of moves) if (nodes[m.node]!.kind === 'state') trs.push(this.model.transitions[m.branch]!);
    // One event enables both: neither has a trigger, or one signal (of a type both accept: a Sub is a Base).
    const matches = (sent: string, accepted: string) => sent === accepted || this.model.signalMatches.get(sent)?.has(accepted) === true;
    const oneEvent = (a: ExecTransition, b: ExecTransition): boolean => {
      if (a.trigger === null || b.trigger === null) return a.trigger === null && b.trigger === null;
      if (a.trigger.kind !== 'signal' || b.trigger.kind !== 'signal' || a.trigger.receiver !== b.trigger.receiver) return false;
      const x = a.trigger.signal;
      const y = b.trigger.signal;
      if (x === y || matches(x, y) || matches(y, x)) return true;
      for (const sent of this.model.signalMatches.keys()) if (matches(sent, x) && matches(sent, y)) return true;
      return false;
    };
    for (const inner of trs) {
      if (inner.trigger !== null && inner.trigger.kind !== 'signal') continue;
      for (const outer of trs) {
        if (outer === inner || !oneEvent(inner, outer) || !nodes[inner.source]!.ancestors.includes(outer.source)) continue;
        const by = inner.trigger?.kind === 'signal' ? `by the signal ${inner.trigger.signal}` : 'without a trigger';
        throw new BehaviorError(
          `the transition '${inner.name}' of '${nodes[inner.source]!.name}' and the transition '${outer.name}' at ${outer.path}:${outer.range.line}:${outer.range.column} of '${nodes[outer.source]!.name}', a state it is nested in, are both enabled ${by}: SysML v2 does not say which one is taken (UML gives the nested state's transition priority), so this is not modeled`,
          inner.path, inner.range,
        );
      }
    }
  }

  /**
   * Whether composite state `sid` has completed (UML 2.5.1 §14.2.3 completion events; StatePerformance:
   * a state's transitions follow its nonDoMiddle steps, its substates): its region reached its own done
   * (the token rests at the state itself), or for a parallel state every region did. The compiler
   * refuses a completion transition of a parallel state with a region that is a simple state.
   */
  private complete(state: BehaviorState, sid: number): boolean {
    const n = this.model.nodes[sid]!;
    if (n.parallel) return n.children.every((c) => this.complete(state, c));
    for (const t of state.tokens) if (t.node === sid) return true;
    return false;
  }

  private predecessorsCache = new Map<number, number[]>();
  /** The nodes with a succession into a join; an if's bodies continue along the if's own edge, so they do not count. */
  private predecessors(id: number): number[] {
    let d = this.predecessorsCache.get(id);
    if (d === undefined) {
      d = this.model.nodes.filter((n) => !n.inheritsSucc && n.succ.includes(id)).map((n) => n.id);
      this.predecessorsCache.set(id, d);
    }
    return d;
  }

  /**
   * The tokens a join takes when it fires, lowest-numbered first: the lowest-numbered token that came
   * along each incoming succession (SysML 7.16.5: a join waits for every incoming succession). Two tokens
   * along one succession (from a merge, or a loop) do not stand for another one. Undefined: not ready.
   */
  private joinReady(tokens: readonly Token[], id: number): Token[] | undefined {
    const out: Token[] = [];
    for (const p of this.predecessors(id)) {
      let found: Token | undefined;
      for (const t of tokens) if (t.node === id && t.via === p) { found = t; break; }
      if (!found) return undefined;
      out.push(found);
    }
    return out.sort((a, b) => a.id - b.id);
  }

  private readonly edgeOwnerCache: number[] = [];
  /** The node whose successions `n`'s are: an if body's last node continues along the if's own. */
  private edgeOwner(n: ExecNode): number {
    if (!n.inheritsSucc) return n.id;
    let o = this.edgeOwnerCache[n.id];
    if (o === undefined) {
      o = this.model.nodes.find((m) => !m.inheritsSucc && m.succ === n.succ)?.id ?? n.id;
      this.edgeOwnerCache[n.id] = o;
    }
    return o;
  }

  /** The states from the machine's top down to `leaf`. */
  stateChain(leaf: number): number[] {
    const out: number[] = [];
    for (let s = leaf; s >= 0; s = this.model.nodes[s]!.parentState) out.unshift(s);
    return out;
  }

  private triggerReady(state: BehaviorState, trigger: Trigger, since: number, scope: readonly string[], where: { path: string }): boolean {
    switch (trigger.kind) {
      case 'signal':
        return this.pendingIndex(state.queues.get(trigger.receiver), trigger.signal) >= 0 || this.environmentSignal(trigger.signal);
      case 'when':
        return this.truth(trigger.expr, state.values, scope, where);
      case 'after': {
        // TriggerAfter is TriggerAt(currentTime + delay): a negative delay names an instant already past, which never comes.
        const delay = this.seconds(trigger.expr, state.values, scope, where);
        return delay >= 0 && state.clock >= this.due(since + delay) - 1e-9;
      }
      case 'at': {
        // The TimeSignal is sent when the clock's time equals the instant (Triggers.kerml TimeSignal:
        // `signalClock.currentTime == signalTime`; Observation.kerml ObserveChange waits for that to
        // become true): an instant already past when the wait begins never comes, and the wait stays.
        const due = this.due(this.seconds(trigger.expr, state.values, scope, where));
        return due >= since - 1e-9 && state.clock >= due - 1e-9;
      }
    }
  }

  /**
   * The oldest pending signal an accept of `signal` takes: one of that type or of a subtype (a Sub is a
   * Base). Transfers are accepted earliest first (Occurrences.kerml: `incomingTransferSort default
   * earlierFirstIncomingTransferSort`).
   */
  pendingIndex(queue: readonly string[] | undefined, signal: string): number {
    if (!queue) return -1;
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i]!;
      if (s === signal || this.model.signalMatches.get(s)?.has(signal) === true) return i;
    }
    return -1;
  }

  private environmentSignal(signal: string): boolean {
    return this.options.environmentSignals === true && !this.model.sentSignals.has(signal);
  }

  /** Fires a move; the result is settled (time advanced while nothing can move) and its enabled moves known. */
  fire(state: BehaviorState, move: Move): BehaviorState {
    const next = this.step(state, move);
    this.enabled(next);
    return next;
  }

  /**
   * Fires a move, settled like `fire`, but without computing the result's enabled moves when settling
   * does not need them (no timed waits in the model): the explorer asks `enabled` only of states it
   * has not seen (an already-seen state is equal to one whose moves were computed).
   */
  step(state: BehaviorState, move: Move): BehaviorState {
    if (this.quick !== 0 && this.watch === undefined) {
      const q = this.quickStep(state, move);
      if (q !== undefined) return q;
    }
    return this.stepInFull(state, move);
  }

  /** `step` through the general machinery (after quickPlan said no: asking it again would compute the move twice). */
  stepInFull(state: BehaviorState, move: Move): BehaviorState {
    this.beginMove(state);
    const s = new Mutable(state);
    let tok: Token | undefined;
    for (const t of s.tokens) {
      if (t.id === move.token) {
        tok = t;
        break;
      }
    }
    if (!tok) throw new BehaviorError(`no token t${move.token}`, undefined, undefined);
    const n = this.model.nodes[move.node]!;
    switch (n.kind) {
      case 'action':
      case 'send':
        s.remove(tok.id);
        this.runEffects(s, n.effects, n);
        this.go(s, tok.id, n.succ, n);
        break;
      case 'assign': {
        s.remove(tok.id);
        const i = this.featureOf(n.target!, n.scope, n);
        s.values[i] = this.store(i, this.evaluate(n.expr!, s.values, n.scope, n), n, n.range);
        this.go(s, tok.id, n.succ, n);
        break;
      }
      case 'accept': {
        s.remove(tok.id);
        if (n.trigger!.kind === 'signal') s.consume(n.trigger!.receiver, this.pendingIndex(s.queues.get(n.trigger!.receiver), n.trigger!.signal));
        this.go(s, tok.id, n.succ, n);
        break;
      }
      case 'join': {
        const at = this.joinReady(s.tokens, n.id)!;
        for (const t of at) s.remove(t.id);
        this.go(s, at[0]!.id, n.succ, n);
        break;
      }
      case 'decide':
        s.remove(tok.id);
        this.go(s, tok.id, [n.succ[move.branch]!], n);
        break;
      case 'if': {
        s.remove(tok.id);
        const c = this.truth(n.expr!, s.values, n.scope, n);
        const next = c ? n.thenNode : n.elseNode;
        this.go(s, tok.id, next >= 0 ? [next] : n.succ, n);
        break;
      }
      case 'loop': {
        s.remove(tok.id);
        const c = n.expr ? this.truth(n.expr, s.values, n.scope, n) : true;
        this.go(s, tok.id, c ? [n.body] : n.succ, n);
        break;
      }
      case 'until': {
        s.remove(tok.id);
        const c = this.truth(n.expr!, s.values, n.scope, n);
        this.go(s, tok.id, c ? n.succ : [n.head], n);
        break;
      }
      case 'for': {
        s.remove(tok.id);
        const fi = this.model.featureIndex;
        const iKey = fi.get(`${n.name}#i`)!;
        const sKey = fi.get(`${n.name}#s`)!;
        const vKey = fi.get(n.forVar!)!;
        let i = s.values[iKey];
        if (i === undefined) {
          s.values[sKey] = this.evaluate(n.expr!, s.values, n.scope, n);
          i = { kind: 'integer', value: 0n };
        }
        const items = itemsOf(s.values[sKey]!);
        const k = Number((i as { value: bigint }).value);
        if (k < items.length) {
          s.values[vKey] = items[k]!;
          s.values[iKey] = { kind: 'integer', value: BigInt(k + 1) };
          this.go(s, tok.id, [n.body], n);
        } else {
          s.values[iKey] = undefined;
          s.values[sKey] = undefined;
          s.values[vKey] = undefined;
          this.go(s, tok.id, n.succ, n);
        }
        break;
      }
      case 'terminate': {
        const ended = n.terminates ?? -1;
        if (ended < 0) {
          s.tokens.length = 0;
          s.terminated = true;
          break;
        }
        // Every token inside the terminated action ends; the action has ended, and its successors follow.
        for (const t of [...s.tokens]) if (t.id === tok.id || this.model.nodes[t.node]!.ancestors.includes(ended)) s.remove(t.id);
        const call = this.model.nodes[ended]!;
        this.go(s, tok.id, call.succ, call);
        // A behaviour a part performs (a top-level one) has no successors: when it was the last one
        // running, the run ended by its termination.
        if (call.container < 0 && s.tokens.length === 0) s.terminated = true;
        break;
      }
      case 'state':
        this.fireTransition(s, tok, move.branch);
        break;
      default:
        throw new BehaviorError(`node ${n.name} cannot fire`, n.path, n.range);
    }
    if (this.boundFeatures.length > 0) this.refreshBound(s.values);
    const after = s.freeze();
    this.endMove(state, after, move);
    return this.settle(after);
  }

  /**
   * 1: the model allows quick moves (quickStep); 0: it does not (bound features, timed waits, change
   * triggers), or RuntimeOptions.quickMoves is false.
   */
  private readonly quick: number;

  /**
   * The common moves without the general machinery (`step`): a token at an assignment, at an action
   * whose body is one assignment, or at a loop, if or until, whose token then comes to rest at one
   * node along successions without guards, passing through starts, merges, calls and ends of bodies
   * (no fork, no state, no join's other tokens taken). The new state is built at once: the other
   * tokens and, when nothing is written, the values array are shared (states are never changed).
   * Undefined when the move is not one of these: `step` then fires it. Only in models where a move
   * is nothing else (no bound feature to refresh, no clock to settle, no change trigger to check) and
   * while no condition is watched inside moves: `step` would do exactly this then.
   */
  private quickStep(state: BehaviorState, move: Move): BehaviorState | undefined {
    return this.quickPlan(state, move) ? this.quickBuild(state) : undefined;
  }

  /**
   * Per node, the feature its assignment writes (an assignment, or an action whose body is one), once
   * featureOf found it (-1 before): what a target names depends on the model only, and a target
   * featureOf refuses is refused every time (nothing is kept then).
   */
  private quickTargets: Int32Array = new Int32Array(0);

  /** What quickPlan found: the moving token's index in the state's tokens, where it rests (-1: it ends), its `via`, the feature written (-1: none) and its value. */
  private planAt = -1;
  private planRest = -1;
  private planVia: number | undefined = undefined;
  private planWritten = -1;
  private planValue: Value | undefined = undefined;
  private planToken = -1;

  /**
   * The first half of quickStep: whether the move is a quick one, and if so what it does (the value
   * computed, where its token rests), kept until quickBuild or quickKey; nothing is allocated but the
   * value. The explorer asks this, then the successor's key (quickKey, patched from the parent's),
   * and builds the successor (quickBuild) only when the key is new. False: `step` fires the move.
   */
  quickPlan(state: BehaviorState, move: Move): boolean {
    if (this.quick === 0 || this.watch !== undefined) return false;
    const n = this.model.nodes[move.node]!;
    const tokens = state.tokens;
    // Arrivals at clock 0 only (an untimed model's clock never moves): the resting token's times are SINCE_ZERO.
    if (state.clock !== 0) return false;
    let at = -1;
    for (let k = 0; k < tokens.length; k++) {
      if (tokens[k]!.id === move.token) {
        at = k;
        break;
      }
    }
    if (at < 0) return false;
    const values = state.values;
    let targets: readonly number[];
    switch (n.kind) {
      case 'assign':
        targets = n.succ;
        break;
      case 'action': {
        const e = n.effects;
        if (e.length > 1 || (e.length === 1 && e[0]!.kind !== 'assign')) return false;
        targets = n.succ;
        break;
      }
      case 'loop':
      case 'if':
      case 'until':
        targets = n.succ;
        break;
      default:
        return false;
    }
    // What the move computes, as `step` computes it (so a refusal is the same); then where its token comes to rest.
    this.beginMove(state);
    let written = -1;
    let v: Value | undefined;
    switch (n.kind) {
      case 'assign': {
        written = this.quickTargets[n.id]!;
        if (written < 0) written = this.quickTargets[n.id] = this.featureOf(n.target!, n.scope, n);
        v = this.store(written, this.evaluate(n.expr!, values, n.scope, n), n, n.range);
        break;
      }
      case 'action': {
        const e = n.effects[0];
        if (e !== undefined && e.kind === 'assign') {
          written = this.quickTargets[n.id]!;
          if (written < 0) written = this.quickTargets[n.id] = this.featureOf(e.target, e.scope, { path: n.path, range: e.range });
          // One write: what `wrote` records only matters from a move's second write on (checkHiddenValues).
          v = this.store(written, this.evaluate(e.expr, values, e.scope, n), n, e.range);
        }
        break;
      }
      case 'loop': {
        const c = n.expr ? this.truth(n.expr, values, n.scope, n) : true;
        if (c) targets = this.only(n.body);
        break;
      }
      case 'if': {
        const c = this.truth(n.expr!, values, n.scope, n);
        const next = c ? n.thenNode : n.elseNode;
        if (next >= 0) targets = this.only(next);
        break;
      }
      case 'until': {
        const c = this.truth(n.expr!, values, n.scope, n);
        if (!c) targets = this.only(n.head);
        break;
      }
    }
    this.restVia = undefined;
    const rest = this.route(tokens, move.token, targets, n, 0);
    if (rest === -2) return false;
    this.planAt = at;
    this.planRest = rest;
    this.planVia = this.restVia;
    this.planWritten = written;
    this.planValue = v;
    this.planToken = move.token;
    return true;
  }

  /** The successor quickPlan planned (of the same state): the other tokens and, when nothing is written, the values shared. */
  quickBuild(state: BehaviorState): BehaviorState {
    const tokens = state.tokens;
    let values = state.values;
    const at = this.planAt;
    const rest = this.planRest;
    if (this.planWritten >= 0) {
      values = values.slice();
      (values as (Value | undefined)[])[this.planWritten] = this.planValue;
    }
    let next: Token[];
    if (rest === -1) {
      next = tokens.slice();
      next.splice(at, 1);
    } else {
      next = tokens.slice();
      next[at] = this.restingToken(this.planToken, rest, this.planVia);
    }
    return { clock: state.clock, tokens: next, values, queues: state.queues, terminated: state.terminated, nextToken: state.nextToken, enabledMoves: this.quickEnabled(state) } as BehaviorState;
  }

  /**
   * The enabled moves of quickBuild's successor from its parent's, when the parent's are known and
   * every token of both rests at a node whose move is always enabled and one (not a join, decision,
   * accept or state: computeEnabled's last case): then they are the parent's with the moving token's
   * move replaced by its move at its new node (or left out when it ends), in the same order (by node,
   * then token). Undefined otherwise (computed when asked, as before).
   */
  private quickEnabled(parent: BehaviorState): Move[] | undefined {
    const before = (parent as { enabledMoves?: readonly Move[] }).enabledMoves;
    if (before === undefined || before.length !== parent.tokens.length || parent.terminated) return undefined;
    const rest = this.planRest;
    const plain = this.plainNodes;
    if (rest >= 0 && plain[rest] !== 1) return undefined;
    for (let k = 0; k < before.length; k++) if (plain[before[k]!.node] !== 1) return undefined;
    const token = this.planToken;
    // A copy at its size; the moving token's move taken out, its new one put in its place in the order.
    const moves = before.slice();
    let n = moves.length;
    let k = 0;
    while (k < n && moves[k]!.token !== token) k++;
    if (k === n) return undefined;
    for (; k < n - 1; k++) moves[k] = moves[k + 1]!;
    n--;
    if (rest < 0) {
      moves.length = n;
      return moves;
    }
    const m = this.move(token, rest, 0, this.model.nodes[rest]!.name);
    let j = n - 1;
    while (j >= 0 && (moves[j]!.node > rest || (moves[j]!.node === rest && moves[j]!.token > token))) {
      moves[j + 1] = moves[j]!;
      j--;
    }
    moves[j + 1] = m;
    return moves;
  }

  /** Per node, 1 when a token there has one move, always enabled (computeEnabled's last case). */
  private plainNodes: Uint8Array = new Uint8Array(0);

  private readonly onlyTargets: (readonly number[])[] = [];
  /** `[node]`, made once per node (quickStep's single targets). */
  private only(node: number): readonly number[] {
    if (node < 0) return [node];
    return (this.onlyTargets[node] ??= [node]);
  }

  /** The `via` of the node `route` last found (at a join). */
  private restVia: number | undefined = undefined;

  /**
   * Where token `id` comes to rest when sent along `targets` from `from`, as `go` would send it: a
   * node, -1 when it ends (its container has no successor to continue along, or another token is
   * still inside), or -2 when `go` would do more than move one token (a fork, a guard, a state
   * entered, a long chain): quickStep then leaves the move to `step`. Reads the other tokens only.
   */
  private route(tokens: readonly Token[], id: number, targets: readonly number[], from: ExecNode, depth: number): number {
    if (depth > 200) return -2;
    if (targets === from.succ && from.kind !== 'decide' && this.guarded(from)) return -2;
    if (targets.length === 0) return this.routeEnd(tokens, id, from.container, depth);
    if (targets.length > 1 || targets[0]! < 0) return -2;
    const n = this.model.nodes[targets[0]!]!;
    const d = depth + 1;
    switch (n.kind) {
      case 'merge':
      case 'fork':
      case 'start':
        return this.route(tokens, id, n.succ, n, d + 1);
      case 'call': {
        const start = this.model.nodes[n.bodyStart]!;
        return start.succ.length === 0 ? this.route(tokens, id, n.succ, n, d + 1) : this.route(tokens, id, start.succ, start, d + 1);
      }
      case 'done':
        return this.routeEnd(tokens, id, n.container, d);
      case 'state':
        return -2;
      case 'join':
        this.restVia = this.edgeOwner(from);
        return n.id;
      default:
        return n.id;
    }
  }

  /** endIn's part of `route`. */
  private routeEnd(tokens: readonly Token[], id: number, c: number, depth: number): number {
    if (c < 0) return -1;
    const cn = this.model.nodes[c]!;
    if (cn.kind === 'state') return -1;
    const inside = this.insideOf(c);
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      if (t.id !== id && inside[t.node] === 1) return -1;
    }
    return this.route(tokens, id, cn.succ, cn, depth + 1);
  }

  private readonly insides: Uint8Array[] = [];
  /** Per node, 1 when it is inside node `c` (`c` among its ancestors): made once per `c` (routeEnd's test of the other tokens). */
  private insideOf(c: number): Uint8Array {
    let inside = this.insides[c];
    if (inside === undefined) {
      const nodes = this.model.nodes;
      inside = new Uint8Array(nodes.length);
      for (let k = 0; k < nodes.length; k++) if (nodes[k]!.ancestors.includes(c)) inside[k] = 1;
      this.insides[c] = inside;
    }
    return inside;
  }

  /** Tokens that arrived at clock 0 without a `via`, shared by node and number (tokens are never changed). */
  private readonly restingTokens: Token[][] = [];
  private restingToken(id: number, node: number, via: number | undefined): Token {
    if (via !== undefined || id >= 1024) return via === undefined ? { id, node, since: SINCE_ZERO } : { id, node, since: SINCE_ZERO, via };
    const byId = (this.restingTokens[node] ??= []);
    return (byId[id] ??= { id, node, since: SINCE_ZERO });
  }

  /** Resets what a move records of its effects (see endMove). */
  private beginMove(state: BehaviorState): void {
    this.failedInside = undefined;
    if (this.moveCount > 0) {
      this.moveCount = 0;
      this.firstWrite = undefined;
      this.moveWrites = undefined;
    }
    this.whenPending = undefined;
    this.whenSeen = undefined;
    if (!this.hasWhen) return;
    // A change trigger a token waits on whose condition becomes true and false again inside this move.
    const pending: WhenWait[] = [];
    for (const t of state.tokens) for (const w of this.whensOf(t.node)) if (!pending.includes(w) && !this.truth(w.expr, state.values, w.scope, w.where)) pending.push(w);
    if (pending.length > 0) {
      this.whenPending = pending;
      this.whenSeen = new Set();
    }
  }

  /** What a move passed through between its effects: refused where a condition, a change trigger or another token could see it. */
  private endMove(before: BehaviorState, after: BehaviorState, move: Move): void {
    if (this.watch) this.checkInside(after.values, `the move ${move.label}`);
    if (this.moveCount > 1) this.checkHiddenValues(before, move);
    if (this.hasWhen) this.checkLostChange(before, after, move.label);
  }

  /** Whether the model has a change trigger (checkLostChange runs after each move only then). */
  private readonly hasWhen: boolean;
  private readonly whenCache: (readonly WhenWait[])[] = [];
  /** The `when` triggers a token at `node` waits on: an accept's, or the transitions of the states of its chain. */
  private whensOf(node: number): readonly WhenWait[] {
    let w = this.whenCache[node];
    if (w) return w;
    const out: WhenWait[] = [];
    const n = this.model.nodes[node]!;
    if (n.kind === 'accept' && n.trigger?.kind === 'when') out.push(this.whenWait(n, -1, n.trigger.expr, n.scope));
    if (n.kind === 'state') {
      this.stateChain(n.id).forEach((sid, depth) => {
        for (const trId of this.model.nodes[sid]!.transitions) {
          const tr = this.model.transitions[trId]!;
          if (tr.trigger?.kind === 'when') out.push(this.whenWait(tr, depth, tr.trigger.expr, tr.scope));
        }
      });
    }
    this.whenCache[node] = out;
    return out;
  }

  private readonly whenWaits = new Map<object, WhenWait>();
  private whenWait(where: ExecNode | ExecTransition, depth: number, expr: Expression, scope: readonly string[]): WhenWait {
    let w = this.whenWaits.get(where);
    if (!w) this.whenWaits.set(where, (w = { where, depth, expr, scope }));
    return w;
  }

  /**
   * A change trigger (`accept when c`) is a ChangeSignal sent when c changes from false to true
   * (Observation.kerml ObserveChange), pending until accepted. The run enables the wait only while c
   * holds, so a move that makes c false again while a token still waits on it would lose the signal
   * the change sent: refused there.
   */
  private checkLostChange(before: BehaviorState, after: BehaviorState, moved: string): void {
    for (const t of after.tokens) {
      let b: Token | undefined;
      for (const x of before.tokens) if (x.id === t.id) { b = x; break; }
      if (!b) continue;
      const was = this.whensOf(b.node);
      if (was.length === 0) continue;
      const is = this.whensOf(t.node);
      for (const w of was) {
        if (!is.includes(w)) continue;
        // A state left and entered again starts a new wait.
        if (w.depth >= 0 && b.since[w.depth] !== t.since[w.depth]) continue;
        // True before the move, or between two of its effects (whenSeen), and false at its end.
        const seen = this.truth(w.expr, before.values, w.scope, w.where) || this.whenSeen?.has(w) === true;
        if (!seen || this.truth(w.expr, after.values, w.scope, w.where)) continue;
        const what = w.depth < 0 ? `accept when … '${w.where.name}'` : `the transition '${w.where.name}' (accept when …)`;
        throw new BehaviorError(
          `${what} waits on a condition that held (when the move began, or between two of its effects) and that the move ${moved} leaves false: the change sent a ChangeSignal when the condition became true (Observation.kerml ObserveChange), which stays pending until accepted; a change trigger whose condition turns false again before it is accepted is not modeled`,
          w.where.path, w.where.range,
        );
      }
    }
  }

  private runEffects(s: Mutable, effects: readonly Effect[], where: { path: string }): void {
    for (const e of effects) {
      if (e.kind === 'assign') {
        const i = this.featureOf(e.target, e.scope, { path: where.path, range: e.range });
        s.values[i] = this.store(i, this.evaluate(e.expr, s.values, e.scope, where), where, e.range);
        this.wrote(i, e, where.path);
      } else if (e.kind === 'transfer') {
        const to = this.model.featureIndex.get(e.to)!;
        this.wrote(to, e, where.path);
        const v = s.values[this.model.featureIndex.get(e.from)!];
        s.values[to] = v === undefined ? v : this.store(to, v, where, e.range);
      }
      else s.send(e.receiver, e.signal);
      if (this.whenPending && e.kind !== 'send') this.noteWhens(s.values);
      if (this.watch && e.kind !== 'send' && this.failedInside === undefined) {
        const now = s.values.slice();
        if (this.boundFeatures.length > 0) this.refreshBound(now);
        if (this.watch(now)) this.failedInside = { effect: e, path: where.path };
      }
    }
  }

  /** The features the move being fired writes, in order (an effect each). */
  private moveCount = 0;
  private firstWrite: { feature: number; effect: Effect; path: string } | undefined = undefined;
  private moveWrites: { feature: number; effect: Effect; path: string }[] | undefined = undefined;

  /** Notes a write of the move being fired (a list only from its second write on). */
  private wrote(feature: number, effect: Effect, path: string): void {
    if (this.moveCount++ === 0) {
      this.firstWrite = { feature, effect, path };
      return;
    }
    if (this.moveCount === 2) this.moveWrites = [this.firstWrite!];
    this.moveWrites!.push({ feature, effect, path });
  }

  /**
   * A move that writes one feature twice, or two features, passes through values no state of the run
   * shows (SysML v2 performs its effects one after another; the run, as one move). Another token whose
   * next move reads that feature (or both features) could read them in between: that order is missing,
   * so the run is refused there, naming both.
   */
  private checkHiddenValues(state: BehaviorState, move: Move): void {
    const writes = this.moveWrites;
    if (this.moveCount < 2 || !writes) return;
    const count = new Map<number, number>();
    for (const w of writes) count.set(w.feature, (count.get(w.feature) ?? 0) + 1);
    if (count.size < 2 && [...count.values()].every((c) => c < 2)) return;
    const nodes = this.model.nodes;
    // A state token's transitions may fire meanwhile (not those of the states the moving token is in:
    // they are the move's own, offered once); its entry and exit actions run only in moves of its own.
    const mine = nodes[move.node]!.kind === 'state' ? new Set(this.stateChain(move.node)) : new Set<number>();
    for (const t of state.tokens) {
      if (t.id === move.token) continue;
      const n = nodes[t.node]!;
      const reads = new Set<number>(n.kind === 'state' ? [] : (this.model.reads[n.id] ?? []));
      const where: { name: string } = n;
      if (n.kind === 'state') {
        for (const sid of this.stateChain(n.id)) {
          if (mine.has(sid)) continue;
          for (const tr of nodes[sid]!.transitions) for (const f of this.model.reads[nodes.length + tr] ?? []) reads.add(f);
        }
      }
      const seen = writes.filter((w) => reads.has(w.feature));
      const twice = seen.find((w) => count.get(w.feature)! > 1);
      const two = new Set(seen.map((w) => w.feature)).size > 1;
      if (!twice && !two) continue;
      const w = twice ?? seen[0]!;
      const name = this.model.features[w.feature]!.key;
      const why = twice ? `writes '${name}' twice` : `writes '${name}' and '${this.model.features[seen.find((x) => x.feature !== w.feature)!.feature]!.key}'`;
      throw new BehaviorError(
        `the move ${move.label} ${why}, one effect after another (SysML v2 performs a move's effects in turn: a transition's exit, effect and entry actions; an atomic body's steps), and '${where.name}', which may run meanwhile, reads ${twice ? 'it' : 'both'}: the values between two effects, which it could read, are in no state of the run; not modeled`,
        w.path, w.effect.range,
      );
    }
  }

  /** The change triggers waited on when the move began (whose condition did not hold then), and those seen true since. */
  private whenPending: WhenWait[] | undefined = undefined;
  private whenSeen: Set<WhenWait> | undefined = undefined;

  private noteWhens(values: readonly (Value | undefined)[]): void {
    const now = values.slice();
    if (this.boundFeatures.length > 0) this.refreshBound(now);
    for (const w of this.whenPending!) {
      if (this.whenSeen!.has(w)) continue;
      if (this.truth(w.expr, now, w.scope, w.where)) this.whenSeen!.add(w);
    }
  }

  /** After a move (or the initial entries): a condition that failed inside it and holds at its end is refused. */
  private checkInside(values: readonly (Value | undefined)[], move: string): void {
    const f = this.failedInside;
    this.failedInside = undefined;
    if (!f || !this.watch || this.watch(values)) return;
    throw new BehaviorError(
      `a checked condition fails inside ${move}, right after this assignment, and holds again at its end: SysML v2 performs the effects of a move (a transition's exit actions, effect and entry actions; a state's entry and do actions) one after another, so the condition is violated in between, which no schedule of whole moves can witness; not modeled`,
      f.path, f.effect.range,
    );
  }

  /** Sends token `id` (already removed) along `targets`: the first keeps the id, the others are new tokens. */
  private go(s: Mutable, id: number, targets: readonly number[], from: ExecNode, depth = 0): void {
    if (depth > 200) throw new BehaviorError('a cycle of control nodes with no action in it', from.path, from.range);
    // Guarded successions from an action (`first a if g then b;`): only those whose guard holds.
    if (targets === from.succ && from.kind !== 'decide' && this.guarded(from)) {
      targets = from.succ.filter((_, i) => {
        const g = from.guards[i];
        return !g || this.truth(g, s.values, from.scope, from);
      });
    }
    if (targets.length === 0) {
      this.endIn(s, id, from.container, depth);
      return;
    }
    for (let k = 0; k < targets.length; k++) this.arrive(s, k === 0 ? id : s.nextToken++, targets[k]!, depth + 1, from);
  }

  private readonly guardedCache: boolean[] = [];
  /** Some succession from this node has a guard. */
  private guarded(n: ExecNode): boolean {
    return (this.guardedCache[n.id] ??= n.guards.some((g) => g !== null));
  }

  /** A token that ran out of successors inside container `c`: the composite continues when it was the last token inside. */
  private endIn(s: Mutable, id: number, c: number, depth: number): void {
    if (c < 0) return;
    const cn = this.model.nodes[c]!;
    if (cn.kind === 'state') return;
    for (const t of s.tokens) if (this.model.nodes[t.node]!.ancestors.includes(c)) return;
    this.go(s, id, cn.succ, cn, depth + 1);
  }

  private arrive(s: Mutable, id: number, target: number, depth = 0, from?: ExecNode): void {
    const n = this.model.nodes[target]!;
    switch (n.kind) {
      case 'merge':
      case 'fork':
      case 'start':
        this.go(s, id, n.succ, n, depth + 1);
        return;
      case 'call': {
        const start = this.model.nodes[n.bodyStart]!;
        if (start.succ.length === 0) this.go(s, id, n.succ, n, depth + 1);
        else this.go(s, id, start.succ, start, depth + 1);
        return;
      }
      case 'done':
        this.endIn(s, id, n.container, depth);
        return;
      case 'state':
        this.enterState(s, id, n.id, []);
        return;
      case 'join':
        s.add({ id, node: n.id, since: s.clock === 0 ? SINCE_ZERO : [s.clock], via: from ? this.edgeOwner(from) : -1 });
        return;
      default:
        s.add({ id, node: n.id, since: s.clock === 0 ? SINCE_ZERO : [s.clock] });
    }
  }

  /** Enters state `sid` (its entry/do effects), then its initial substate or its regions. */
  private enterState(s: Mutable, id: number, sid: number, since: number[]): void {
    const n = this.model.nodes[sid]!;
    this.runEffects(s, n.effects, n);
    const chain = [...since, s.clock];
    if (n.parallel && n.children.length > 0) {
      n.children.forEach((c, k) => this.enterState(s, k === 0 ? id : s.nextToken++, c, chain));
      return;
    }
    if (n.initial >= 0) {
      // The initial state may be nested deeper (`entry; then Inner;` with Inner inside Outer): enter the states on the way.
      const path = this.stateChain(n.initial);
      this.enterPath(s, id, path.slice(path.indexOf(sid) + 1), chain);
      return;
    }
    s.add({ id, node: sid, since: chain });
  }

  /**
   * Enters the states of `path` (each a substate of the one before), the last with its default entry
   * (enterState). Each state on the way runs its entry/do effects first; a parallel one also starts its
   * other regions (by their default entry, a new token each), in declaration order.
   */
  private enterPath(s: Mutable, id: number, path: readonly number[], since: readonly number[]): void {
    const [first, ...rest] = path;
    if (rest.length === 0) {
      this.enterState(s, id, first!, [...since]);
      return;
    }
    const n = this.model.nodes[first!]!;
    this.runEffects(s, n.effects, n);
    const chain = [...since, s.clock];
    if (!n.parallel) {
      this.enterPath(s, id, rest, chain);
      return;
    }
    for (const c of n.children) {
      if (c === rest[0]) this.enterPath(s, id, rest, chain);
      else this.enterState(s, s.nextToken++, c, chain);
    }
  }

  private fireTransition(s: Mutable, tok: Token, trId: number): void {
    const tr = this.model.transitions[trId]!;
    if (tr.unmodeled) throw new BehaviorError(tr.unmodeled, tr.path, tr.range);
    const chain = this.stateChain(tok.node);
    const srcDepth = chain.indexOf(tr.source);
    const targetChain = tr.target >= 0 ? this.stateChain(tr.target) : [];
    // The deepest state both keep (a self-transition leaves and re-enters its source); completing a
    // state's region keeps that state.
    let keep = 0;
    if (tr.completes !== undefined) keep = chain.indexOf(tr.completes) + 1;
    else while (keep < srcDepth && keep < targetChain.length - 1 && chain[keep] === targetChain[keep]) keep++;
    const exitTop = chain[keep]!;
    s.remove(tok.id);
    if (tr.trigger?.kind === 'signal') s.consume(tr.trigger.receiver, this.pendingIndex(s.queues.get(tr.trigger.receiver), tr.trigger.signal));
    // Leaving a state ends the tokens of its other regions, running their exit actions (innermost
    // first, each state once), then the firing token's, then the state's own.
    const exited = new Set<number>([exitTop]);
    const exitUpTo = (leafChain: readonly number[]) => {
      for (let d = leafChain.length - 1; d >= 0 && leafChain[d] !== exitTop; d--) {
        if (exited.has(leafChain[d]!)) continue;
        exited.add(leafChain[d]!);
        const st = this.model.nodes[leafChain[d]!]!;
        this.runEffects(s, st.exitEffects, st);
      }
    };
    for (const other of [...s.tokens]) {
      if (other.node !== exitTop && !this.model.nodes[other.node]!.ancestors.includes(exitTop)) continue;
      s.remove(other.id);
      exitUpTo(this.stateChain(other.node));
    }
    exitUpTo(chain);
    const top = this.model.nodes[exitTop]!;
    this.runEffects(s, top.exitEffects, top);
    this.runEffects(s, tr.effects, tr);
    // The completed state's region is done: the token rests at the state, which stays active.
    if (tr.completes !== undefined) s.add({ id: tok.id, node: tr.completes, since: tok.since.slice(0, keep) });
    if (tr.target < 0) return;
    // Enter the states between the kept one and the target (starting the other regions of a parallel
    // one), then the target with its initial substates.
    this.enterPath(s, tok.id, targetChain.slice(keep), tok.since.slice(0, keep));
  }

  // ---- time ---------------------------------------------------------------------------------------

  /** Advances the clock to the earliest pending wait while no move is enabled. */
  settle(state: BehaviorState): BehaviorState {
    // Without a timed wait nothing is ever due: the state is settled as it is.
    if (!this.timed) return state;
    let st = state;
    for (let guard = 0; guard < 10_000; guard++) {
      if (st.terminated || this.enabled(st).length > 0) return st;
      const next = this.nextDue(st);
      if (next === undefined) return st;
      // A new state object: what was enabled before the clock moved is not what is enabled now.
      st = { ...st, clock: next, enabledMoves: undefined } as BehaviorState;
    }
    return st;
  }

  private nextDue(state: BehaviorState): number | undefined {
    let best: number | undefined;
    const consider = (since: number, trigger: Trigger | null, scope: readonly string[], where: { path: string }) => {
      if (trigger?.kind !== 'after' && trigger?.kind !== 'at') return;
      const due = this.due((trigger.kind === 'after' ? since : 0) + this.seconds(trigger.expr, state.values, scope, where));
      if (due > state.clock + 1e-9 && (best === undefined || due < best)) best = due;
    };
    for (const t of state.tokens) {
      const n = this.model.nodes[t.node]!;
      if (n.kind === 'accept') consider(t.since.at(-1) ?? 0, n.trigger, n.scope, n);
      if (n.kind === 'state') {
        this.stateChain(n.id).forEach((sid, depth) => {
          for (const trId of this.model.nodes[sid]!.transitions) {
            const tr = this.model.transitions[trId]!;
            consider(t.since[depth] ?? 0, tr.trigger, tr.scope, tr);
          }
        });
      }
    }
    return best;
  }

  /** How a state with no enabled move ended (undefined while a move is enabled). */
  status(state: BehaviorState): EndStatus | undefined {
    if (state.terminated) return 'terminated';
    if (this.enabled(state).length > 0) return undefined;
    return state.tokens.length === 0 ? 'done' : 'deadlock';
  }

  // ---- encoding -----------------------------------------------------------------------------------

  /** Canonical text of a state: equal states (as the semantics sees them) have equal encodings. */
  encode(state: BehaviorState): string {
    // Time is kept relative: a token's age at each level, capped at the longest wait that counts from
    // it (older is no different), so a cyclic timed behaviour has finitely many states.
    // Token numbers are left out: tokens are listed in number order, and states that differ only by
    // an order-preserving renumbering (re-entering a parallel state makes new tokens) have the same
    // futures up to that renumbering (moves are ordered by node, then token; new tokens get the
    // highest number; a join keeps its lowest-numbered token).
    let out = `${state.terminated ? 'T' : ''}${this.atHorizon >= 0 ? `@${Math.min(state.clock, this.atHorizon + 1)}` : ''}|`;
    for (const t of state.tokens) out += `${t.node}${t.via !== undefined ? `<${t.via}` : ''}:${this.ages(state, t)};`;
    out += '|';
    for (const v of state.values) out += v === undefined ? '_;' : `${stateText(v)};`;
    if (state.queues.size > 0) {
      out += '|';
      for (const k of [...state.queues.keys()].sort()) out += `${k}=${state.queues.get(k)!.join(',')};`;
    }
    return out;
  }

  /**
   * The state's canonical key as bytes, written into `key` (reset first): the same distinctions as
   * `encode`, in the same order — terminated, each token's node and ages, each feature's value,
   * the pending signals — with no string built for the common values. Every part is self-delimiting
   * (see StateKey), so two keys are equal exactly when their parts are.
   */
  writeKey(state: BehaviorState, key: StateKey): void {
    key.reset();
    const tokens = state.tokens;
    const values = state.values;
    // Room for the common parts at once (a number takes at most 8 bytes, a value's tag one more),
    // then bytes written straight into the buffer; texts (ages, other values) through the key.
    key.reserve(24 + tokens.length * 24 + values.length * 9);
    let b = key.bytes;
    let n = 0;
    b[n++] = state.terminated ? 1 : 0;
    if (this.atHorizon >= 0) {
      key.length = n;
      key.text(String(Math.min(state.clock, this.atHorizon + 1)));
      key.reserve(16 + tokens.length * 24 + values.length * 9);
      b = key.bytes;
      n = key.length;
    }
    n = putUint(b, n, tokens.length);
    let marks = this.keyMarks;
    if (marks.length < tokens.length + values.length + 1) marks = this.keyMarks = new Int32Array(2 * (tokens.length + values.length + 1));
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      marks[k] = n;
      n = putUint(b, n, t.node);
      // A token at a join says which succession it came along (every token at a join has one).
      if (t.via !== undefined) n = putUint(b, n, t.via + 1);
      n = putUint(b, n, t.since.length);
      // A node with no timed wait has no age at any level ('-' in `encode`): its number says so.
      if (this.timed && this.isTimedNode(t.node)) {
        key.length = n;
        for (let d = 0; d < t.since.length; d++) key.text(this.age(state, t, d));
        key.reserve(8 + (tokens.length - k) * 24 + values.length * 9);
        b = key.bytes;
        n = key.length;
      }
    }
    const lastValues = this.keyValues;
    const lastNumbers = this.keyNumbers;
    const T = tokens.length;
    for (let k = 0; k < values.length; k++) {
      const v = values[k];
      marks[T + k] = n;
      if (v === undefined) b[n++] = 0;
      else if (v.kind === 'boolean') b[n++] = v.value ? 1 : 2;
      else {
        // Exact: a bigint converts to a safe integer only when it is one. Converting takes time; a
        // feature mostly holds the same value object as in the key written before (values are never
        // changed), whose number is kept.
        let x = NaN;
        if (v.kind === 'integer') {
          if (lastValues[k] === v) x = lastNumbers[k]!;
          else {
            x = Number(v.value);
            lastValues[k] = v;
            lastNumbers[k] = x;
          }
        }
        if (x >= 0 && x < 0x80) {
          b[n++] = 3;
          b[n++] = x;
        } else if (Number.isSafeInteger(x)) {
          b[n++] = x >= 0 ? 3 : 4;
          n = putUint(b, n, x >= 0 ? x : -x);
        } else {
          key.length = n;
          if (v.kind === 'integer') {
            key.byte(5);
            key.text(v.value.toString());
          } else {
            key.byte(6);
            key.text(stateText(v));
          }
          key.reserve(8 + (values.length - k) * 9);
          b = key.bytes;
          n = key.length;
        }
      }
    }
    marks[T + values.length] = n;
    this.keyMarkCount = T + values.length + 1;
    this.marksPatched = false;
    key.length = n;
    key.uint(state.queues.size);
    if (state.queues.size > 0) {
      for (const k of [...state.queues.keys()].sort()) {
        key.text(k);
        const q = state.queues.get(k)!;
        key.uint(q.length);
        for (const sig of q) key.text(sig);
      }
    }
  }

  /**
   * Where the parts of the key writeKey wrote last start: each token's (in order), then each feature
   * value's, then where the values end (keyMarkCount of them; copyKeyMarks gives them for a patched
   * key too). The explorer keeps them with a stored state, so quickKey can patch that state's key
   * into a successor's.
   */
  private keyMarks = new Int32Array(64);
  keyMarkCount = 0;

  /**
   * The key of the successor quickPlan planned, written into `key` from its parent's key (`from`,
   * `start`, `length`: the parent's bytes; `marks` from `base`: the parent's keyMarks) without
   * building the successor: the parent's bytes with the moving token's part and the written value's
   * part replaced (or the token's part left out when it ends), exactly the bytes writeKey writes of
   * quickBuild's state (its marks: copyKeyMarks). False (nothing written) when the
   * written value is not one written in place (no value, a Boolean, a safe Integer).
   */
  quickKey(state: BehaviorState, from: Uint8Array, start: number, length: number, marks: Int32Array, base: number, key: StateKey): boolean {
    const w = this.planWritten;
    let tag = 0;
    let x = 0;
    if (w >= 0) {
      const v = this.planValue;
      if (v === undefined) tag = 0;
      else if (v.kind === 'boolean') tag = v.value ? 1 : 2;
      else if (v.kind === 'integer') {
        x = Number(v.value);
        if (!Number.isSafeInteger(x)) return false;
        tag = x >= 0 ? 3 : 4;
        if (x < 0) x = -x;
      } else return false;
    }
    const T = state.tokens.length;
    const V = state.values.length;
    const at = this.planAt;
    const ends = this.planRest === -1;
    const T2 = ends ? T - 1 : T;
    key.reset();
    key.reserve(length + 40);
    const b = key.bytes;
    let n = 0;
    b[n++] = state.terminated ? 1 : 0;
    n = putUint(b, n, T2);
    // Tokens before the moving one: the same bytes, moved by the header's change.
    const head = n - marks[base]!;
    let p = start + marks[base]!;
    let e = start + marks[base + at]!;
    while (p < e) b[n++] = from[p++]!;
    const tokenAt = n;
    if (!ends) {
      n = putUint(b, n, this.planRest);
      if (this.planVia !== undefined) n = putUint(b, n, this.planVia + 1);
      n = putUint(b, n, SINCE_ZERO.length);
    }
    // The other tokens and the values up to the written one; then that value; then the rest.
    const upTo = w >= 0 ? T + w : T + V;
    const middle = n - marks[base + at + 1]!;
    p = start + marks[base + at + 1]!;
    e = start + marks[base + upTo]!;
    while (p < e) b[n++] = from[p++]!;
    const valueAt = n;
    let tail = middle;
    if (w >= 0) {
      b[n++] = tag;
      if (tag >= 3) n = putUint(b, n, x);
      tail = n - marks[base + upTo + 1]!;
      p = start + marks[base + upTo + 1]!;
    } else p = start + marks[base + upTo]!;
    e = start + length;
    while (p < e) b[n++] = from[p++]!;
    key.length = n;
    // The successor's marks are worked out only when asked for (copyKeyMarks): most successors are found visited.
    const pm = this.patch;
    pm.marks = marks;
    pm.base = base;
    pm.tokens = T;
    pm.at = at;
    pm.ends = ends;
    pm.upTo = upTo;
    pm.written = w >= 0;
    pm.head = head;
    pm.tokenAt = tokenAt;
    pm.middle = middle;
    pm.valueAt = valueAt;
    pm.tail = tail;
    this.marksPatched = true;
    this.keyMarkCount = T2 + V + 1;
    return true;
  }

  /** How quickKey moved the parent's marks (see copyKeyMarks). */
  private readonly patch: { marks: Int32Array; base: number; tokens: number; at: number; ends: boolean; upTo: number; written: boolean; head: number; tokenAt: number; middle: number; valueAt: number; tail: number } = { marks: new Int32Array(0), base: 0, tokens: 0, at: 0, ends: false, upTo: 0, written: false, head: 0, tokenAt: 0, middle: 0, valueAt: 0, tail: 0 };
  /** Whether the last key was patched (quickKey): its marks are then worked out from `patch`. */
  private marksPatched = false;

  /** Copies the marks of the last key written (writeKey or quickKey) into `into` from `at` (keyMarkCount of them; `into` has room). */
  copyKeyMarks(into: Int32Array, at: number): void {
    const count = this.keyMarkCount;
    if (!this.marksPatched) {
      const km = this.keyMarks;
      for (let k = 0; k < count; k++) into[at + k] = km[k]!;
      return;
    }
    const pm = this.patch;
    const marks = pm.marks;
    const base = pm.base;
    const drop = pm.ends ? 1 : 0;
    for (let k = 0; k < pm.at; k++) into[at + k] = marks[base + k]! + pm.head;
    if (!pm.ends) into[at + pm.at] = pm.tokenAt;
    for (let k = pm.at + 1; k < pm.upTo; k++) into[at + k - drop] = marks[base + k]! + pm.middle;
    into[at + pm.upTo - drop] = pm.valueAt;
    const last = count - 1 + drop;
    for (let k = pm.upTo + 1; k <= last; k++) into[at + k - drop] = marks[base + k]! + pm.tail;
  }

  /** Per feature: the Integer value writeKey last met there, and its number. */
  private readonly keyValues: (Value | undefined)[] = [];
  private readonly keyNumbers: number[] = [];

  /** Per node: 0 not yet known, 1 no timed wait counts from a token there, 2 some does (waitsOf). */
  private timedNodes: Uint8Array | undefined = undefined;
  private isTimedNode(node: number): boolean {
    const flags = (this.timedNodes ??= new Uint8Array(this.model.nodes.length));
    let f = flags[node]!;
    if (f === 0) flags[node] = f = this.waitsOf(node).length > 0 ? 2 : 1;
    return f === 2;
  }

  private readonly waitsCache: (readonly { depth: number; at: boolean; expr: Expression; scope: readonly string[]; where: { path: string } }[])[] = [];
  /** The timed waits (`after`) that count from a token's times at `node`, by level (cached per node). */
  private waitsOf(node: number): readonly { depth: number; at: boolean; expr: Expression; scope: readonly string[]; where: { path: string } }[] {
    let w = this.waitsCache[node];
    if (w) return w;
    const out: { depth: number; at: boolean; expr: Expression; scope: readonly string[]; where: { path: string } }[] = [];
    const n = this.model.nodes[node]!;
    // A token at an accept counts from its arrival: the last of its times. An `accept at` wait depends on
    // whether its instant was still to come when the wait began (triggerReady).
    const timed = (t: Trigger | null | undefined): t is Extract<Trigger, { kind: 'after' | 'at' }> => t?.kind === 'after' || t?.kind === 'at';
    if (n.kind === 'accept' && timed(n.trigger)) out.push({ depth: -1, at: n.trigger.kind === 'at', expr: n.trigger.expr, scope: n.scope, where: n });
    if (n.kind === 'state') {
      this.stateChain(n.id).forEach((sid, depth) => {
        for (const trId of this.model.nodes[sid]!.transitions) {
          const tr = this.model.transitions[trId]!;
          if (timed(tr.trigger)) out.push({ depth, at: tr.trigger.kind === 'at', expr: tr.trigger.expr, scope: tr.scope, where: tr });
        }
      });
    }
    w = out;
    this.waitsCache[node] = w;
    return w;
  }

  /** A token's age at one level, capped at the longest wait that counts from it; `-` when none does. */
  private age(state: BehaviorState, t: Token, depth: number): string {
    const since = t.since[depth]!;
    let cap = -1;
    let instants = '';
    for (const w of this.waitsOf(t.node)) {
      const d = w.depth < 0 ? t.since.length - 1 : w.depth;
      if (d !== depth) continue;
      // An instant comes only when it was not past as the wait began (1), else never (0).
      if (w.at) instants += this.due(this.seconds(w.expr, state.values, w.scope, w.where)) >= since - 1e-9 ? '+1' : '+0';
      else cap = Math.max(cap, this.due(since + this.seconds(w.expr, state.values, w.scope, w.where)) - since);
    }
    return (cap < 0 ? '-' : String(Math.min(state.clock - since, cap))) + instants;
  }

  private ages(state: BehaviorState, t: Token): string {
    return t.since.map((_, depth) => this.age(state, t, depth)).join(',');
  }

  /** A state as the witness panel shows it: clock, token positions, feature values, pending signals. */
  view(state: BehaviorState): StateView {
    return {
      clock: state.clock,
      status: this.status(state) ?? 'running',
      tokens: state.tokens.map((t) => ({ token: `t${t.id}`, node: this.model.nodes[t.node]!.name })),
      values: this.model.features.flatMap((f, i) => (f.hidden ? [] : [{ name: f.key, value: state.values[i] === undefined ? 'no value' : format(state.values[i]!) }])),
      pending: [...state.queues].map(([receiver, signals]) => ({ receiver: receiver || this.model.subject, signals: [...signals] })),
    };
  }

  /**
   * Each state machine's active configuration (the top-level behaviours that are states): the leaf
   * states its tokens rest in, by path inside the machine (`Active.Cruising`), one per region of a
   * parallel state, sorted and joined by `, `. Named `state` when the run has one machine, else
   * `<machine>.state`; a machine with no token left (it ended) has none.
   */
  configurations(state: BehaviorState): { name: string; value: string }[] {
    const nodes = this.model.nodes;
    const machines = this.model.behaviors.filter((b) => nodes[b]!.kind === 'state');
    const out: { name: string; value: string }[] = [];
    for (const b of machines) {
      const m = nodes[b]!;
      // The subject's own states are named relative to it; an exhibited machine's carry its name.
      const prefix = nodes.some((n) => n.parentState === b && n.name.startsWith(`${m.name}.`)) ? `${m.name}.` : '';
      const leaves = state.tokens
        .map((t) => nodes[t.node]!)
        .filter((n) => n.kind === 'state' && (n.id === b || n.ancestors.includes(b)))
        .map((n) => (n.id === b ? m.name : n.name.startsWith(prefix) ? n.name.slice(prefix.length) : n.name));
      if (leaves.length === 0) continue;
      out.push({ name: machines.length === 1 ? 'state' : `${m.name}.state`, value: [...new Set(leaves)].sort().join(', ') });
    }
    return out;
  }

  /** Where each token is, for messages: `t1@a, t2@join1`. */
  positions(state: BehaviorState): string {
    return state.tokens.map((t) => `t${t.id}@${this.model.nodes[t.node]!.name}`).join(', ');
  }
}

/** A state being built by a move. */
class Mutable {
  clock: number;
  tokens: Token[];
  values: (Value | undefined)[];
  queues: ReadonlyMap<string, readonly string[]>;
  terminated: boolean;
  nextToken: number;
  /** Queues are copied on the first change only (most moves send nothing). */
  private ownQueues = false;

  constructor(s: BehaviorState) {
    this.clock = s.clock;
    this.tokens = s.tokens.slice();
    this.values = s.values.slice();
    this.queues = s.queues;
    this.terminated = s.terminated;
    this.nextToken = s.nextToken;
  }

  private writableQueues(): Map<string, readonly string[]> {
    if (!this.ownQueues) {
      this.queues = new Map(this.queues);
      this.ownQueues = true;
    }
    return this.queues as Map<string, readonly string[]>;
  }

  remove(id: number): void {
    const ts = this.tokens;
    let i = 0;
    while (i < ts.length && ts[i]!.id !== id) i++;
    if (i === ts.length) return;
    for (; i < ts.length - 1; i++) ts[i] = ts[i + 1]!;
    ts.pop();
  }

  add(t: Token): void {
    let i = this.tokens.length;
    while (i > 0 && this.tokens[i - 1]!.id > t.id) i--;
    this.tokens.push(t);
    for (let k = this.tokens.length - 1; k > i; k--) this.tokens[k] = this.tokens[k - 1]!;
    this.tokens[i] = t;
  }

  send(receiver: string, signal: string): void {
    this.writableQueues().set(receiver, [...(this.queues.get(receiver) ?? []), signal]);
  }

  /** Removes the pending signal at index i (Runtime.pendingIndex) of the receiver's. */
  consume(receiver: string, i: number): void {
    const q = this.queues.get(receiver);
    if (!q || i < 0) return;
    const rest = [...q.slice(0, i), ...q.slice(i + 1)];
    if (rest.length === 0) this.writableQueues().delete(receiver);
    else this.writableQueues().set(receiver, rest);
  }

  freeze(): BehaviorState {
    return { clock: this.clock, tokens: this.tokens, values: this.values, queues: this.queues, terminated: this.terminated, nextToken: this.nextToken, enabledMoves: undefined } as BehaviorState;
  }
}
