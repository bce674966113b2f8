// The execution model a behaviour subject compiles to: nodes tokens sit at, state-machine transitions,
// the features whose values make up a state, and the facts the explorer's reduction needs (what each
// node reads and writes). See docs/execution-semantics.md.
import type { Expression, QualifiedName, SourceRange } from '../ast';
import type { Value } from '../semantics/values';
import type { BehaviorValueType } from './scope';

export type NodeKind =
  // resting positions (a token fires them in a move)
  | 'action' | 'assign' | 'send' | 'accept' | 'join' | 'decide' | 'if' | 'loop' | 'until' | 'for' | 'terminate' | 'state'
  // passed through on arrival (never a position)
  | 'start' | 'merge' | 'fork' | 'call' | 'done';

export type Effect =
  | { readonly kind: 'assign'; readonly target: readonly string[]; readonly expr: Expression; readonly scope: readonly string[]; readonly range: SourceRange }
  | { readonly kind: 'send'; readonly signal: string; readonly receiver: string; readonly range: SourceRange }
  /** A flow's transfer when its source action ends: the target parameter takes the source's value (or none). */
  | { readonly kind: 'transfer'; readonly from: string; readonly to: string; readonly range: SourceRange };

export type Trigger =
  | { readonly kind: 'signal'; readonly signal: string; readonly receiver: string }
  | { readonly kind: 'after'; readonly expr: Expression }
  /** `accept at t`: the instant t, in seconds from the start of the run (a constant). */
  | { readonly kind: 'at'; readonly expr: Expression }
  | { readonly kind: 'when'; readonly expr: Expression };

export interface ExecNode {
  readonly id: number;
  /** Name relative to the subject, as schedules spell it. */
  name: string;
  readonly kind: NodeKind;
  succ: number[];
  /** The call or state node whose body holds this node (-1: a top-level behaviour's own flow). */
  readonly container: number;
  /** Every call/state node that holds this node, innermost first. */
  ancestors: number[];
  /** Feature-path prefixes names resolve in, innermost first (`''` is the subject). */
  readonly scope: readonly string[];
  readonly range: SourceRange;
  readonly path: string;
  /** Atomic effects (an action's body, a state's entry/do). */
  effects: Effect[];
  /** assign value, if/while/until condition, accept when/after, for collection. */
  expr: Expression | null;
  /** assign: the feature path written (unresolved segments). */
  target: readonly string[] | null;
  /** decide: a guard per successor (null: none written); `elseIndex` the `else` branch. */
  guards: (Expression | null)[];
  elseIndex: number;
  /** if: entry of the then/else bodies (call nodes), -1 when absent; loop/for: the body call. */
  thenNode: number;
  elseNode: number;
  body: number;
  /** until: the loop head to go back to. */
  head: number;
  /** accept */
  trigger: Trigger | null;
  /** for: feature keys of the variable and the hidden iteration state. */
  forVar: string | null;
  // states
  parentState: number;
  children: number[];
  initial: number;
  parallel: boolean;
  exitEffects: Effect[];
  transitions: number[];
  /** The successors are those of the construct it ends (an if's bodies, a loop's until): not edges of its own. */
  inheritsSucc: boolean;
  /** call: where the body's flow starts (a start node). */
  bodyStart: number;
  /** receiver of signals accepted here: the performing/exhibiting part's path. */
  receiver: string;
  /** terminate: the enclosing action it ends (a call node), or -1 for the run. */
  terminates?: number;
}

export interface ExecTransition {
  readonly id: number;
  name: string;
  readonly source: number;
  /** -1: `done` (the machine's own, or with `completes` that of a nested state) */
  readonly target: number;
  /**
   * `then done` written in a nested state's body: that state's own done (KerML name resolution), so
   * taking it completes the state's region and the token rests at the state (it stays active).
   */
  readonly completes?: number;
  readonly trigger: Trigger | null;
  readonly guard: Expression | null;
  readonly effects: Effect[];
  readonly scope: readonly string[];
  readonly range: SourceRange;
  readonly path: string;
  /** Why taking it is not modeled (a transition between two regions of a parallel state): refused where it is taken. */
  unmodeled?: string;
}

export interface FeatureDecl {
  readonly key: string;
  readonly init: Expression | null;
  readonly scope: readonly string[];
  readonly range: SourceRange;
  readonly path: string;
  /** Declared type as written (`Boolean`, `Colour`). */
  readonly type: string | null;
  /** The types the engine tells apart that its values must be instances of (`Integer`, an enumeration). */
  readonly valueTypes?: readonly BehaviorValueType[];
  /** Finite domain when the type gives one (Boolean, an enumeration). */
  readonly domain: readonly Value[] | null;
  /** Iteration state the engine keeps (not reported). */
  readonly hidden: boolean;
  /** `= e` (not `:=`, not `default`): bound to `e` in every state, so read as `e` and never assigned. */
  readonly bound: boolean;
  /**
   * Where its value is a `default` without `:=` (KerML FeatureValue: isDefault, isInitial = false): a
   * binding for the whole life of any instance not given another value, so no assignment may change it.
   */
  readonly defaultBinding?: SourceRange;
  /** Declared `constant`: it keeps its initial value, so no assignment may change it. */
  readonly constant?: boolean;
  /** An out parameter of the subject: its value is the behaviour's result, never a free input. */
  readonly output?: boolean;
  /** A parameter bound in the model (`in x = e;`): a value it cannot compute is an error only where read. */
  readonly parameter?: boolean;
  /** Why no question may give it a value (an out parameter of a body-less action that may run again): reading it is refused with this. */
  readonly outside?: string;
}

export interface ExecutionModel {
  readonly subject: string;
  readonly nodes: ExecNode[];
  readonly transitions: ExecTransition[];
  readonly features: FeatureDecl[];
  readonly featureIndex: ReadonlyMap<string, number>;
  /** Paths that hold features (parts, action usages): read as instances. */
  readonly instances: ReadonlySet<string>;
  /** Parameters of actions: named, but computed outside the model. */
  readonly opaque: ReadonlyMap<string, string>;
  /** Out parameters of body-less actions (free inputs of the run), by the action node that produces them. */
  readonly produced: ReadonlyMap<number, readonly string[]>;
  /** The top-level behaviours a run starts (call or state nodes). */
  readonly behaviors: number[];
  /** Signals some `send` in the model produces; the others are environment events. */
  readonly sentSignals: ReadonlySet<string>;
  /** Per signal sent, the other signal types accepts wait for that it is an instance of (its supertypes). */
  readonly signalMatches: ReadonlyMap<string, ReadonlySet<string>>;
  readonly enums: ReadonlyMap<string, readonly string[]>;
  /** Per node (and per transition, at nodes.length + id): feature indices read / written (over-approximated). */
  readonly reads: readonly (readonly number[])[];
  readonly writes: readonly (readonly number[])[];
  /** Nodes whose single move commutes with every other token's moves (see explore.ts). */
  readonly local: readonly boolean[];
  /** Where the model was read beyond SysML v2 (a state named from outside its composite), with places. */
  readonly readings: readonly string[];
  /**
   * Names written in the behaviour that name a package's attribute (no feature of the subject): the
   * key of the hidden, bound feature that holds its value (`::P::limit`), by the name's syntax node.
   */
  readonly globals: ReadonlyMap<QualifiedName, string>;
  /**
   * Names the run would read by another feature than the one they name where they are written (by
   * the name's syntax node): reading one is refused with this error, when and where a run reads it.
   */
  readonly misreads: ReadonlyMap<QualifiedName, BehaviorError>;
  /** Assignment targets (by their path) the run would resolve to another feature than the one they name where written: refused where assigned. */
  readonly miswrites: ReadonlyMap<readonly string[], BehaviorError>;
  /** Calc usages by path: `t.d` reads the feature `t.d`, `t` its result (the hidden feature `t#result`). */
  readonly calcs: ReadonlySet<string>;
}

export function emptyNode(id: number, kind: NodeKind, name: string, container: number, scope: readonly string[], range: SourceRange, path: string): ExecNode {
  return {
    id, name, kind, succ: [], container, ancestors: [], scope, range, path, effects: [], expr: null, target: null,
    guards: [], elseIndex: -1, thenNode: -1, elseNode: -1, body: -1, head: -1, trigger: null, forVar: null,
    parentState: -1, children: [], initial: -1, parallel: false, exitEffects: [], transitions: [], inheritsSucc: false, bodyStart: -1, receiver: '',
  };
}

/** A construct the semantics does not cover, or a model it cannot read, with its place. */
export class BehaviorError extends Error {
  override readonly name = 'BehaviorError';
  constructor(
    message: string,
    readonly path: string | undefined,
    readonly range: SourceRange | undefined,
    readonly code: 'unsupported' | 'budget' = 'unsupported',
  ) {
    super(message);
  }

  /** `file:line:col: message` */
  get text(): string {
    return this.path && this.range ? `${this.path}:${this.range.line}:${this.range.column}: ${this.message}` : this.path ? `${this.path}: ${this.message}` : this.message;
  }
}
