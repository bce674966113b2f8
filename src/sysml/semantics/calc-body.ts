// A calc (or analysis) is a behaviour: its body's actions run, then the result is read. This runs the
// actions a calc body may hold — `assign`, `if`/`else`, `while … until`, `loop … until`, `for … in`,
// and nested action usages whose bodies hold those — over the calc's local scope.
//
// Order. Actions of one body that no succession orders run concurrently (SysML 8.3.15 / KerML 7.4.7).
// Running them one after another in text order gives the same end state as any interleaving when no
// two of them touch the same local (one writes what the other reads or writes), or when a succession
// orders every such pair in text order. Any other body is refused: its result could depend on the
// schedule, and a calc's result cannot.
//
// Locals. A local declared with `:=` (or without a value) is a variable the actions may assign; a local
// bound with `=` is equal to its expression at all times (KerML 7.3.4.7 feature values), so assigning it
// is a model error, and one whose expression reads an assigned local is refused where an action reads it
// (its value would change during the run).
import type { Expression, ForAction, IfAction, LoopAction, Member, QualifiedName, SourceRange, Succession, Usage } from '../ast';
import { unmodeled, refusalMessage } from '../support';
import type { Environment, Evaluator, LocalScope } from './evaluate';
import { error, isError, itemsOf, describeKind, type Outcome, type ValueError } from './values';

/** A member that is an action of the body (run in order), as opposed to a declaration. */
export function isBodyAction(m: Member): boolean {
  switch (m.kind) {
    case 'AssignAction':
    case 'ForAction':
    case 'LoopAction':
    case 'IfAction':
      return true;
    case 'Usage':
      return m.keyword === 'action' && (m.role === null || m.role === 'member');
    default:
      return false;
  }
}

export function hasBodyActions(members: readonly Member[]): boolean {
  return members.some((m) => isBodyAction(m) || (m.kind === 'Succession' && m.targetMember !== null && isBodyAction(m.targetMember)));
}

/** The hooks the runner needs from the evaluator (kept narrow so the runner stays testable). */
export interface BodyHost {
  readonly evaluator: Evaluator;
  /** A scope over `outer` holding the named usages of `members` (lazily), as calc bodies have them. */
  localScope(members: readonly Member[], outer: Environment): LocalScope;
  /** Counts one step of a loop against the evaluation's budget; an error stops the run. */
  tick(at: SourceRange): ValueError | undefined;
}

interface Ordered {
  readonly action: Member;
  readonly index: number;
  readonly reads: ReadonlySet<string>;
  readonly writes: ReadonlySet<string>;
}

function firstSegment(q: QualifiedName): string | undefined {
  return q.isGlobal ? undefined : q.segments[0];
}

/** Names an expression subtree reads (the first segment of each name; over-approximated). */
function collectReads(node: unknown, out: Set<string>): void {
  const stack: unknown[] = [node];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const n = stack.pop();
    if (typeof n !== 'object' || n === null || seen.has(n)) continue;
    seen.add(n);
    if (Array.isArray(n)) {
      for (const x of n) stack.push(x);
      continue;
    }
    const o = n as { kind?: string } & Record<string, unknown>;
    if (o.kind === 'Name') {
      const s = firstSegment((o as unknown as { name: QualifiedName }).name);
      if (s !== undefined) out.add(s);
      continue;
    }
    if (o.kind === 'AssignAction') {
      stack.push((o as unknown as { assigned: Expression }).assigned);
      continue;
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'nameRange' && typeof v === 'object') stack.push(v);
  }
}

/** Names an action subtree assigns. */
function collectWrites(node: unknown, out: Set<string>): void {
  const stack: unknown[] = [node];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const n = stack.pop();
    if (typeof n !== 'object' || n === null || seen.has(n)) continue;
    seen.add(n);
    if (Array.isArray(n)) {
      for (const x of n) stack.push(x);
      continue;
    }
    const o = n as { kind?: string } & Record<string, unknown>;
    if (o.kind === 'AssignAction') {
      const t = (o as unknown as { target: Expression }).target;
      if (t.kind === 'Name') {
        const s = firstSegment(t.name);
        if (s !== undefined) out.add(s);
      }
      continue;
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'nameRange' && typeof v === 'object') stack.push(v);
  }
}

function usageNamed(m: Member): string | null {
  return m.kind === 'Usage' || m.kind === 'AssignAction' || m.kind === 'ForAction' || m.kind === 'LoopAction' || m.kind === 'IfAction' ? (m.name ?? m.shortName) : null;
}

function referenceName(end: Succession['source']): string | undefined {
  if (!end) return undefined;
  const t = end.target;
  if (t.kind !== 'QualifiedName' || t.segments.length !== 1) return undefined;
  return t.segments[0];
}

/**
 * The body's actions in the order they run, or an error when their order is not fixed where it
 * matters (see the header).
 */
function orderActions(members: readonly Member[], label: string): Ordered[] | ValueError {
  const actions: Ordered[] = [];
  const byName = new Map<string, number>();
  const edges: [number, number, SourceRange][] = [];
  let previous: number | undefined;
  const add = (m: Member): number => {
    const reads = new Set<string>();
    const writes = new Set<string>();
    collectReads(m, reads);
    collectWrites(m, writes);
    const i = actions.length;
    const n = usageNamed(m);
    // A named action that assigns may change its own features while it runs (`out y := 0; assign y := …`):
    // another action reading `a.y` touches what `a` writes, so the two must be ordered like any other pair.
    if (n !== null && m.kind === 'Usage' && writes.size > 0) writes.add(n);
    actions.push({ action: m, index: i, reads, writes });
    if (n !== null) byName.set(n, i);
    return i;
  };
  const pending: Succession[] = [];
  /** The action a `then b;` member follows (the member written before it), by the succession. */
  const previousOf = new Map<Succession, number | undefined>();
  // After `first start;` (the body's initial node, SysML InitialNodeMember, not one of its actions), a
  // `then` member succeeds the start: it orders nothing among the body's actions.
  let afterStart = false;
  for (const m of members) {
    if (isBodyAction(m)) {
      previous = add(m);
      afterStart = false;
      continue;
    }
    if (m.kind !== 'Succession') continue;
    if (m.form !== 'then' && m.form !== 'first' && m.form !== 'succession') return error(`${label}: a ${m.form} succession in a calc body is not supported`, m.range, 'unsupported');
    if (m.form === 'first' && m.target === null && m.targetMember === null) {
      const initial = referenceName(m.source);
      if (initial === undefined) return error(`${label}: the initial node is not a name`, m.range, 'unsupported');
      const declared = byName.get(initial);
      if (declared !== undefined) {
        previous = declared;
        afterStart = false;
      } else if (initial === 'start' && !members.some((x) => usageNamed(x) === 'start')) {
        previous = undefined;
        afterStart = true;
      } else {
        return error(`${label}: 'first ${initial};' names no action of this body written before it`, m.range, 'unsupported');
      }
      continue;
    }
    if (m.form === 'then' && m.source === null) {
      if (previous === undefined && !afterStart) return error(`${label}: 'then' has no action before it`, m.range, 'unsupported');
      if (m.targetMember !== null) {
        if (!isBodyAction(m.targetMember)) return error(`${label}: 'then' to ${m.targetMember.kind} in a calc body is not supported`, m.range, 'unsupported');
        const from = previous;
        previous = add(m.targetMember);
        if (from !== undefined) edges.push([from, previous, m.range]);
        afterStart = false;
        continue;
      }
      // `then done;`: the body's end succeeds every action; it orders none of them.
      if (referenceName(m.target) === 'done' && !members.some((x) => usageNamed(x) === 'done')) continue;
    }
    pending.push(m);
    if (m.form === 'then' && m.source === null) previousOf.set(m, previous);
  }
  for (const s of pending) {
    const to = s.targetMember !== null ? undefined : referenceName(s.target);
    const fromName = s.source === null ? undefined : referenceName(s.source);
    const from = fromName !== undefined ? byName.get(fromName) : undefined;
    const target = to !== undefined ? byName.get(to) : undefined;
    if (s.form === 'then' && s.source === null) {
      if (target === undefined) return error(`${label}: the succession's target is not an action of this body`, s.range, 'unsupported');
      // `then b;` after an action a (or after `first a;`): a before b. After a declaration that is not an
      // action of this body (start, a local) it orders nothing here.
      const before = previousOf.get(s);
      if (before !== undefined) edges.push([before, target, s.range]);
      continue;
    }
    if (from === undefined || target === undefined) return error(`${label}: a succession between elements that are not actions of this calc body is not supported`, s.range, 'unsupported');
    edges.push([from, target, s.range]);
  }
  // Text order must be a valid run order: no succession points backwards.
  for (const [a, b, at] of edges) {
    if (b <= a) return error(`${label}: a succession orders an action before one written earlier, which is not supported in a calc body`, at, 'unsupported');
  }
  // Every pair that touches one local must be ordered (transitively) by successions.
  const n = actions.length;
  if (n > 1) {
    const reach: boolean[][] = actions.map(() => new Array<boolean>(n).fill(false));
    for (const [a, b] of edges) reach[a]![b] = true;
    for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) if (reach[i]![k]) for (let j = 0; j < n; j++) if (reach[k]![j]) reach[i]![j] = true;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (reach[i]![j]) continue;
        const a = actions[i]!;
        const b = actions[j]!;
        const shared = [...a.writes].find((w) => b.reads.has(w) || b.writes.has(w)) ?? [...b.writes].find((w) => a.reads.has(w));
        if (shared !== undefined) {
          return error(
            `${label}: two actions of its body use '${shared}' and no succession orders them, so they run concurrently and the result could depend on the schedule; order them with 'then' (or 'first … then …')`,
            b.action.range,
            'unsupported',
          );
        }
      }
    }
  }
  return actions;
}

/**
 * Locals a body declares; those bound with `=` (equal to their expression at all times); and those no
 * assignment may change (bound, or `constant`).
 */
interface Frame {
  readonly declared: ReadonlySet<string>;
  readonly bound: ReadonlyMap<string, Usage>;
  readonly frozen: ReadonlyMap<string, 'bound' | 'constant' | 'default'>;
}

function frameOf(members: readonly Member[]): Frame {
  const declared = new Set<string>();
  const bound = new Map<string, Usage>();
  const frozen = new Map<string, 'bound' | 'constant' | 'default'>();
  for (const m of members) {
    if (m.kind !== 'Usage') continue;
    const n = m.name ?? m.shortName;
    if (n === null) continue;
    declared.add(n);
    if (m.direction === 'in' || m.direction === 'inout') continue;
    // `default e` without `:=` binds too (KerML FeatureValue: isInitial = false), where no other value is given.
    const isBound = m.value !== null && !m.value.isInitial;
    if (isBound) bound.set(n, m);
    if (m.isConstant) frozen.set(n, 'constant');
    else if (isBound) frozen.set(n, m.value!.isDefault ? 'default' : 'bound');
  }
  return { declared, bound, frozen };
}

export class CalcBodyRunner {
  /** The bodies being run, innermost last: an assignment in a nested action, if, loop or for body
   * still meets the enclosing body's bound and constant locals. */
  private readonly frames: Frame[] = [];

  constructor(private readonly host: BodyHost, private readonly label: string) {}

  /** Runs the actions of `members` over `scope` (which holds their locals). */
  run(members: readonly Member[], scope: LocalScope): ValueError | undefined {
    for (const m of members) {
      const u = unmodeled(m, 'calc');
      if (u) return error(`${this.label}: ${refusalMessage(u, 'in a calc body')}`, u.range, 'unsupported');
    }
    const ordered = orderActions(members, this.label);
    if (isError(ordered as Outcome)) return ordered as ValueError;
    const actions = ordered as Ordered[];
    if (actions.length === 0) return undefined;
    const frame = frameOf(members);
    // A bound local that reads an assigned local changes during the run: refuse where an action reads it.
    const written = new Set<string>();
    for (const a of actions) for (const w of a.writes) written.add(w);
    for (const [name, u] of frame.bound) {
      const reads = new Set<string>();
      collectReads(u.value!.expression, reads);
      if (![...reads].some((r) => written.has(r))) continue;
      const reader = actions.find((a) => a.reads.has(name));
      if (reader) {
        return error(
          `${this.label}: '${name}' is bound (${u.value!.isDefault ? "'default' without ':='" : '='}) to an expression over a local the body assigns, and an action reads it while it changes; declare it with ':=' and assign it`,
          reader.action.range,
          'unsupported',
        );
      }
    }
    this.frames.push(frame);
    try {
      for (const a of actions) {
        const e = this.action(a.action, scope);
        if (e) return e;
      }
    } finally {
      this.frames.pop();
    }
    return undefined;
  }

  /** Why a local cannot be assigned (the innermost body declaring it decides), if it cannot. */
  private frozen(name: string): 'bound' | 'constant' | 'default' | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const f = this.frames[i]!;
      if (f.declared.has(name)) return f.frozen.get(name);
    }
    return undefined;
  }

  private action(m: Member, scope: LocalScope): ValueError | undefined {
    switch (m.kind) {
      case 'AssignAction': {
        if (m.target.kind !== 'Name' || m.target.name.isGlobal || m.target.name.segments.length !== 1) {
          return error(`${this.label}: assigning '${describeTarget(m.target)}' (a feature outside the calc's locals) is not supported in a calc body`, m.target.range, 'unsupported');
        }
        const name = m.target.name.segments[0]!;
        const why = this.frozen(name);
        if (why === 'bound') {
          return error(`${this.label}: '${name}' is bound with '=' to its value, so it cannot be assigned; declare it with ':=' (an initial value) to assign it`, m.range);
        }
        if (why === 'default') {
          return error(`${this.label}: '${name}' has a default value without ':=', which binds it for the whole life of an instance given no other value (KerML FeatureValue: isInitial = false), so it cannot be assigned; declare it with 'default :=' (an initial default) to assign it`, m.range);
        }
        if (why === 'constant') {
          return error(`${this.label}: '${name}' is constant (a constant feature keeps its value, KerML isConstant), so it cannot be assigned`, m.range);
        }
        const declared = scope.declaration(name);
        const assigned = this.host.evaluator.evaluate(m.assigned, scope);
        const v = declared ? this.host.evaluator.typed(declared, assigned, scope) : assigned;
        if (isError(v)) return v;
        if (!scope.assign(name, v)) {
          return error(`${this.label}: '${name}' is not a local of the calc; a calc assigns only its own features`, m.target.range, 'unsupported');
        }
        return undefined;
      }
      case 'IfAction':
        return this.ifAction(m, scope);
      case 'LoopAction':
        return this.loop(m, scope);
      case 'ForAction':
        return this.forLoop(m, scope);
      case 'Usage':
        return this.nested(m, scope);
      default:
        return error(`${this.label}: ${m.kind} in a calc body is not supported`, m.range, 'unsupported');
    }
  }

  /** A nested action usage: its own locals over the enclosing scope, then its actions. */
  private nested(u: Usage, scope: LocalScope): ValueError | undefined {
    if (u.relations.length > 0) {
      return error(`${this.label}: the action '${u.name ?? 'action'}' is typed or specializes another action, whose body a calc does not run; write its actions in place`, u.range, 'unsupported');
    }
    const body = u.body ?? [];
    const inner = this.host.localScope(body, scope);
    const stop = this.run(body, inner);
    if (stop) return stop;
    // The action's features as its run left them: `a.y` read after `a` ran is the value its actions
    // assigned, not the value its declaration starts with (the performance that ran is the one named).
    const n = u.name ?? u.shortName;
    if (n !== null && scope.has(n) && scope.declaration(n) === u) {
      scope.define(n, { kind: 'instance', label: n, identity: {}, member: (f) => (inner.has(f) ? inner.local(f) : undefined) }, u);
    }
    return undefined;
  }

  private condition(e: Expression, scope: LocalScope, what: string): boolean | ValueError {
    const v = this.host.evaluator.evaluate(e, scope);
    if (isError(v)) return v;
    const items = itemsOf(v);
    const x = items.length === 1 ? items[0]! : undefined;
    if (!x || x.kind !== 'boolean') return error(`${this.label}: the ${what} must be true or false, got ${items.length === 1 ? describeKind(items[0]!) : `${items.length} values`}`, e.range);
    return x.value;
  }

  private ifAction(m: IfAction, scope: LocalScope): ValueError | undefined {
    const c = this.condition(m.condition, scope, "if's condition");
    if (typeof c !== 'boolean') return c;
    if (c) return this.nested(m.then, scope);
    if (m.else === null) return undefined;
    return m.else.kind === 'IfAction' ? this.ifAction(m.else, scope) : this.nested(m.else, scope);
  }

  private loop(m: LoopAction, scope: LocalScope): ValueError | undefined {
    for (;;) {
      const stop = this.host.tick(m.range);
      if (stop) return stop;
      if (m.condition !== null) {
        const c = this.condition(m.condition, scope, "while's condition");
        if (typeof c !== 'boolean') return c;
        if (!c) return undefined;
      }
      const e = this.nested(m.bodyAction, scope);
      if (e) return e;
      if (m.until !== null) {
        const u = this.condition(m.until, scope, "until's condition");
        if (typeof u !== 'boolean') return u;
        if (u) return undefined;
      }
    }
  }

  private forLoop(m: ForAction, scope: LocalScope): ValueError | undefined {
    const v = this.host.evaluator.evaluate(m.collection, scope);
    if (isError(v)) return v;
    const name = m.variable.name ?? m.variable.shortName;
    if (name === null) return error(`${this.label}: a for loop needs a variable name`, m.range);
    for (const item of itemsOf(v)) {
      const stop = this.host.tick(m.range);
      if (stop) return stop;
      const iteration = this.host.localScope([], scope);
      iteration.define(name, item);
      const e = this.nested(m.bodyAction, iteration);
      if (e) return e;
    }
    return undefined;
  }
}

function describeTarget(e: Expression): string {
  if (e.kind === 'Name') return e.name.segments.join('::');
  if (e.kind === 'MemberAccess') return `${describeTarget(e.target)}.${e.member.segments.join('::')}`;
  return e.kind;
}
