// Lowering of behaviour to the `graphs:1` model form (Engine Protocol v1): the subject and every
// behaviour it performs as `actions` / `states` items with `name` (relative to the subject, `.`
// between levels) and `kind`, plus successors with guards, triggers, effects and source ranges.
//
// Names of unnamed nodes are `<kind>#<n>` (n counting that kind from 1 within the enclosing body),
// so the output is a function of the text alone.

import type {
  AcceptAction, Expression, Member, Reference, SourceRange, Succession, Transition, Usage,
} from '../ast';
import type { Declaration } from '../names/declarations';
import type { Workspace } from '../names/workspace';

export interface GraphRange {
  readonly uri: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface GraphSuccessor {
  readonly to: string;
  /** Guard as written (`x > 0`), or `else`. */
  readonly guard?: string;
}

export interface GraphTrigger {
  /** `signal` (accept a payload), `at`, `after` or `when`. */
  readonly kind: 'signal' | 'at' | 'after' | 'when';
  /** Payload name and type for a signal; the time or change expression otherwise. */
  readonly payload?: string;
  readonly type?: string;
  readonly expression?: string;
  readonly via?: string;
}

/** One item of `actions` or `states`. Properties beyond name and kind are present only when known. */
export interface GraphNode {
  readonly name: string;
  readonly kind: string;
  successors?: GraphSuccessor[];
  /** Type (definition) the node is a usage of, qualified. */
  type?: string;
  trigger?: GraphTrigger;
  guard?: string;
  /** Effect of a transition, or what an entry/do/exit runs: the action's node name or text. */
  effect?: string;
  source?: string;
  target?: string;
  /** send: payload, via and to; assign: target and value; if/while/for: condition, collection. */
  payload?: string;
  via?: string;
  to?: string;
  value?: string;
  condition?: string;
  until?: string;
  variable?: string;
  collection?: string;
  then?: string;
  else?: string;
  body?: string;
  entry?: string;
  do?: string;
  exit?: string;
  parallel?: boolean;
  range?: GraphRange;
}

export interface Graphs {
  readonly version: 1;
  readonly subject: string;
  readonly actions: GraphNode[];
  readonly states: GraphNode[];
}

export type LowerResult = { readonly ok: true; readonly graphs: Graphs } | { readonly ok: false; readonly message: string };

export interface LowerOptions {
  /** Text of a document, to spell guards and expressions as written. Without it they are omitted. */
  readonly textOf?: (uri: string) => string | undefined;
  /** How many levels of performed definitions are expanded (default 4). */
  readonly depth?: number;
}

const ACTION_KEYWORDS = new Set(['action', 'calc', 'analysis', 'verification', 'use case', 'case', 'fork', 'join', 'merge', 'decide']);
const CONTROL = new Set(['fork', 'join', 'merge', 'decide']);

/** Lowers the subject (a qualified name as the surface spelled it) to `graphs:1`. */
export function lowerToGraphs(index: Workspace, subject: string, options: LowerOptions = {}): LowerResult {
  const found = index.declarationsOf(subject);
  if (found.length === 0) return { ok: false, message: `subject '${subject}' is not declared` };
  if (found.length > 1) return { ok: false, message: `subject '${subject}' is declared ${found.length} times` };
  const decl = found[0]!.declaration;
  const lowering = new Lowering(index, options);
  lowering.subject(decl);
  return { ok: true, graphs: { version: 1, subject, actions: lowering.actions, states: lowering.states } };
}

/** Where one body is being lowered. */
interface Body {
  readonly prefix: string;
  readonly uri: string;
  readonly decl: Declaration;
  readonly counters: Map<string, number>;
  /** Node names by the name written in this body (for successions). */
  readonly local: Map<string, string>;
}

class Lowering {
  readonly actions: GraphNode[] = [];
  readonly states: GraphNode[] = [];
  private readonly expanding = new Set<Declaration>();
  private readonly maxDepth: number;

  constructor(private readonly index: Workspace, private readonly options: LowerOptions) {
    this.maxDepth = options.depth ?? 4;
  }

  subject(decl: Declaration): void {
    const node = decl.node;
    if (!node || (node.kind !== 'Definition' && node.kind !== 'Usage')) return;
    const body = node.body ?? this.bodyOfType(decl);
    const isState = decl.kind === 'state';
    const uri = this.uriOfBody(decl, node.body);
    const scope: Body = { prefix: '', uri, decl: node.body ? decl : (this.typeWithBody(decl) ?? decl), counters: new Map(), local: new Map() };
    if (isState) this.stateBody(body ?? [], scope, 0);
    else this.actionBody(body ?? [], scope, ACTION_KEYWORDS.has(decl.kind) ? 0 : 1);
  }

  // ------------------------------------------------------------------------------------------
  // Helpers

  private text(uri: string, range: SourceRange | null | undefined): string | undefined {
    if (!range) return undefined;
    const t = this.options.textOf?.(uri);
    return t === undefined ? undefined : t.slice(range.start, range.end).replace(/\s+/g, ' ').trim();
  }

  private expr(uri: string, e: Expression | null): string | undefined {
    return e ? this.text(uri, e.range) : undefined;
  }

  private range(uri: string, r: SourceRange): GraphRange {
    return { uri, line: r.line, column: r.column, endLine: r.endLine, endColumn: r.endColumn };
  }

  private nameOf(scope: Body, written: string | null, kind: string): string {
    let local = written;
    if (local === null) {
      const n = (scope.counters.get(kind) ?? 0) + 1;
      scope.counters.set(kind, n);
      local = `${kind}#${n}`;
    }
    return scope.prefix + local;
  }

  /** A succession or transition end, as a node name relative to the subject. */
  private endName(scope: Body, ref: Reference): string {
    const written = ref.kind === 'QualifiedName' ? ref.segments.join('::') : ref.chain.map((q) => q.segments.join('::')).join('.');
    return scope.local.get(written) ?? scope.prefix + written;
  }

  private typeName(decl: Declaration | null): string | undefined {
    if (!decl) return undefined;
    const t = this.index.supertypes(decl).find((s) => s.isDefinition && s.layer !== 'builtin' && s.node !== null && !isLibraryBase(s));
    return t?.qualifiedName;
  }

  /** Whether a state's declaration specializes a `parallel` state (definition or usage), transitively. */
  private parallelType(decl: Declaration, seen = new Set<Declaration>()): boolean {
    if (seen.has(decl)) return false;
    seen.add(decl);
    return this.index.supertypes(decl).some((s) => s !== decl && (isParallelNode(s) || this.parallelType(s, seen)));
  }

  /** The definition whose body a usage without its own body performs (`action a : A;`, `perform x;`). */
  private typeWithBody(decl: Declaration, seen = new Set<Declaration>()): Declaration | null {
    if (seen.has(decl)) return null;
    seen.add(decl);
    for (const s of this.index.supertypes(decl)) {
      const n = s.node;
      if (n && (n.kind === 'Definition' || n.kind === 'Usage') && n.body && n.body.length > 0 && s.layer === 'user') return s;
      if (n && n.kind === 'Usage') {
        const deeper = this.typeWithBody(s, seen);
        if (deeper) return deeper;
      }
    }
    return null;
  }

  private bodyOfType(decl: Declaration): Member[] | null {
    const t = this.typeWithBody(decl);
    const n = t?.node;
    return n && (n.kind === 'Definition' || n.kind === 'Usage') ? n.body : null;
  }

  private uriOfBody(decl: Declaration, own: Member[] | null): string {
    if (own) return decl.document ?? '';
    return this.typeWithBody(decl)?.document ?? decl.document ?? '';
  }

  /** Lowers the body a node performs: its own, or (when it has none) its definition's. */
  private nested(node: GraphNode, decl: Declaration | null, own: Member[] | null, scope: Body, depth: number, asState: boolean): void {
    let body = own;
    let bodyDecl = decl;
    let uri = scope.uri;
    if ((!body || body.length === 0) && decl && depth < this.maxDepth) {
      const t = this.typeWithBody(decl);
      if (t && !this.expanding.has(t)) {
        const n = t.node;
        if (n && (n.kind === 'Definition' || n.kind === 'Usage')) { body = n.body; bodyDecl = t; uri = t.document ?? uri; }
      }
    }
    if (!body || body.length === 0 || !bodyDecl) return;
    // A state typed by a `parallel` state definition (`exhibit state beh : Beh;` with `state def Beh
    // parallel { … }`) has its regions: they were not entered, and the machine sat in beh with none of
    // their entry actions run.
    if (asState && !node.parallel && (bodyDecl !== decl ? isParallelNode(bodyDecl) : decl !== null && this.parallelType(decl))) node.parallel = true;
    const inner: Body = { prefix: node.name + '.', uri, decl: bodyDecl, counters: new Map(), local: new Map() };
    const guard = bodyDecl !== decl;
    if (guard) this.expanding.add(bodyDecl);
    if (asState) this.stateBody(body, inner, depth + 1);
    else this.actionBody(body, inner, depth + 1);
    if (guard) this.expanding.delete(bodyDecl);
  }

  // ------------------------------------------------------------------------------------------
  // Actions

  private actionBody(members: readonly Member[], scope: Body, depth: number): void {
    const first = this.actions.length;
    const nodes = new Map<string, GraphNode>();
    const edges: { from: string; to: string; guard?: string }[] = [];
    let previous: string | null = null;
    let sawStart = false;
    let sawDone = false;
    const useEnd = (name: string): string => {
      if (name === scope.prefix + 'start') sawStart = true;
      if (name === scope.prefix + 'done') sawDone = true;
      return name;
    };
    // First pass: name every node so that successions can refer forward.
    const visit = (m: Member): void => {
      const node = this.actionNode(m, scope);
      if (node) {
        const written = 'name' in m && typeof m.name === 'string' ? m.name : null;
        if (written !== null) scope.local.set(written, node.name);
        nodes.set(node.name, node);
      }
    };
    for (const m of members) {
      visit(m);
      if (m.kind === 'Succession' && m.targetMember) visit(m.targetMember);
    }
    // Second pass: order, successions, nested bodies.
    const emitted = new Set<string>();
    const emit = (m: Member): string | null => {
      const node = this.nodeFor(m, nodes, scope);
      if (!node) return null;
      if (!emitted.has(node.name)) {
        emitted.add(node.name);
        this.actions.push(node);
        this.actionDetails(m, node, scope, depth);
      }
      return node.name;
    };
    for (const m of members) {
      if (m.kind === 'Succession') {
        const s = m as Succession;
        const guard = s.form === 'else' ? 'else' : this.expr(scope.uri, s.guard);
        const from: string | null = s.source ? useEnd(this.endName(scope, s.source.target)) : previous;
        let to: string | null = null;
        if (s.target) to = useEnd(this.endName(scope, s.target.target));
        else if (s.targetMember) to = emit(s.targetMember);
        if (from !== null && to !== null) edges.push({ from, to, ...(guard !== undefined ? { guard } : {}) });
        // `then x;` comes from the member declared before it: `first a;` and an action declared in
        // a `then` count, a succession to a node declared elsewhere does not (`fork; then a; then b;`).
        if (s.form === 'first' && s.target === null && s.targetMember === null && from !== null) previous = from;
        else if (s.targetMember && to !== null) previous = to;
        continue;
      }
      const name = emit(m);
      if (name !== null) previous = name;
    }
    if (sawStart || depth === 0) this.actions.splice(first, 0, { name: scope.prefix + 'start', kind: 'start' });
    if (sawDone || depth === 0) this.actions.push({ name: scope.prefix + 'done', kind: 'done' });
    const all = new Map(this.actions.map((n) => [n.name, n]));
    for (const e of edges) {
      const from = all.get(e.from);
      if (!from) continue;
      (from.successors ??= []).push({ to: e.to, ...(e.guard !== undefined ? { guard: e.guard } : {}) });
    }
  }

  /** The node made for a member in the first pass (unnamed ones carry their member, hidden). */
  private nodeFor(m: Member, nodes: Map<string, GraphNode>, scope: Body): GraphNode | null {
    const written = 'name' in m && typeof m.name === 'string' ? m.name : null;
    if (written !== null) return nodes.get(scope.prefix + written) ?? null;
    for (const n of nodes.values()) if ((n as { node?: unknown }).node === m) return n;
    return null;
  }

  /** The node a member of an action body is, or null when it is not one. */
  private actionNode(m: Member, scope: Body): GraphNode | null {
    let kind: string | null = null;
    switch (m.kind) {
      case 'Usage':
        if (ACTION_KEYWORDS.has(m.keyword) || m.role === 'perform') kind = CONTROL.has(m.keyword) ? m.keyword : 'action';
        else if (m.keyword === 'state' || m.role === 'exhibit') kind = 'state';
        break;
      case 'AcceptAction': kind = 'accept'; break;
      case 'SendAction': kind = 'send'; break;
      case 'AssignAction': kind = 'assign'; break;
      case 'IfAction': kind = 'if'; break;
      case 'LoopAction': kind = m.form; break;
      case 'ForAction': kind = 'for'; break;
      case 'TerminateAction': kind = 'terminate'; break;
      default: return null;
    }
    if (kind === null) return null;
    const written = 'name' in m && typeof m.name === 'string' ? m.name : null;
    let name = written;
    if (name === null && m.kind === 'Usage') {
      const d = this.index.declarationOfNode(scope.uri, m);
      name = d?.name ?? null; // perform a.b; → b
    }
    const node: GraphNode = { name: this.nameOf(scope, name, kind), kind, range: this.range(scope.uri, m.range) };
    Object.defineProperty(node, 'node', { value: m, enumerable: false });
    return node;
  }

  private actionDetails(m: Member, node: GraphNode, scope: Body, depth: number): void {
    const uri = scope.uri;
    const d = this.index.declarationOfNode(uri, m);
    switch (m.kind) {
      case 'Usage': {
        const type = this.typeName(d);
        if (type) node.type = type;
        if (node.kind === 'state') {
          this.statesFromAction(node, d, m, scope, depth);
          return;
        }
        if (!CONTROL.has(node.kind)) this.nested(node, d, m.body, scope, depth, false);
        return;
      }
      case 'AcceptAction':
        node.trigger = this.trigger(uri, m);
        return;
      case 'SendAction':
        setText(node, 'payload', this.expr(uri, m.payload));
        setText(node, 'via', this.expr(uri, m.via));
        setText(node, 'to', this.expr(uri, m.to));
        return;
      case 'AssignAction':
        setText(node, 'target', this.expr(uri, m.target));
        setText(node, 'value', this.expr(uri, m.assigned));
        return;
      case 'IfAction': {
        setText(node, 'condition', this.expr(uri, m.condition));
        node.then = this.branch(node.name + '.then', m.then, scope, depth);
        if (m.else) {
          if (m.else.kind === 'IfAction') {
            const elseNode: GraphNode = { name: node.name + '.else', kind: 'if', range: this.range(uri, m.else.range) };
            this.actions.push(elseNode);
            this.actionDetails(m.else, elseNode, scope, depth + 1);
            node.else = elseNode.name;
          } else node.else = this.branch(node.name + '.else', m.else, scope, depth);
        }
        return;
      }
      case 'LoopAction':
        setText(node, 'condition', this.expr(uri, m.condition));
        setText(node, 'until', this.expr(uri, m.until));
        node.body = this.branch(node.name + '.body', m.bodyAction, scope, depth);
        return;
      case 'ForAction':
        node.variable = m.variable.name ?? undefined;
        setText(node, 'collection', this.expr(uri, m.collection));
        node.body = this.branch(node.name + '.body', m.bodyAction, scope, depth);
        return;
      case 'TerminateAction':
        setText(node, 'target', this.expr(uri, m.target));
        return;
      default:
        return;
    }
  }

  /** The action body of an if / loop / for branch, as a node of kind `action`. */
  private branch(name: string, action: Usage, scope: Body, depth: number): string {
    const node: GraphNode = { name, kind: 'action', range: this.range(scope.uri, action.range) };
    this.actions.push(node);
    const d = this.index.declarationOfNode(scope.uri, action);
    if (action.body && action.body.length > 0 && d) {
      const inner: Body = { prefix: name + '.', uri: scope.uri, decl: d, counters: new Map(), local: new Map() };
      this.actionBody(action.body, inner, depth + 1);
    }
    return name;
  }

  private trigger(uri: string, a: AcceptAction): GraphTrigger {
    if (a.triggerKind) {
      return { kind: a.triggerKind, ...opt('expression', this.expr(uri, a.triggerExpression)), ...opt('via', this.expr(uri, a.receiver)) };
    }
    const p = a.payload;
    const typing = p?.relations.find((r) => r.relation === 'typing');
    const type = typing ? refText(typing.target) : undefined;
    return { kind: 'signal', ...opt('payload', p?.name ?? undefined), ...opt('type', type), ...opt('via', this.expr(uri, a.receiver)) };
  }

  // ------------------------------------------------------------------------------------------
  // States

  private statesFromAction(node: GraphNode, d: Declaration | null, m: Usage, scope: Body, depth: number): void {
    // A state performed inside an action body: listed with the states, its body lowered below it.
    this.actions.splice(this.actions.indexOf(node), 1);
    this.states.push(node);
    this.nested(node, d, m.body, scope, depth, true);
  }

  private stateBody(members: readonly Member[], scope: Body, depth: number): void {
    const before = this.states.length;
    let previous: string | null = null;
    const transitions: GraphNode[] = [];
    // Name states first so that transitions can refer forward.
    for (const m of members) {
      if (m.kind === 'Usage' && (m.keyword === 'state' || m.role === 'exhibit') && m.name !== null) scope.local.set(m.name, scope.prefix + m.name);
    }
    for (const m of members) {
      switch (m.kind) {
        case 'Usage': {
          if (m.keyword === 'state' || m.role === 'exhibit') {
            const d = this.index.declarationOfNode(scope.uri, m);
            const node: GraphNode = { name: this.nameOf(scope, m.name ?? d?.name ?? null, 'state'), kind: 'state', range: this.range(scope.uri, m.range) };
            if (m.isParallel) node.parallel = true;
            const type = this.typeName(d);
            if (type) node.type = type;
            this.states.push(node);
            this.nested(node, d, m.body, scope, depth, true);
            previous = node.name;
          } else if (ACTION_KEYWORDS.has(m.keyword) || m.role === 'perform') {
            // An action declared in a state body (e.g. the target of `do`): lowered with the actions.
            const node = this.actionNode(m, scope);
            if (node) { this.actions.push(node); this.actionDetails(m, node, scope, depth); }
          }
          break;
        }
        case 'StateSubaction': {
          const owner = scope.prefix === '' ? null : this.states.find((s) => s.name + '.' === scope.prefix) ?? null;
          const ran = m.action ? this.subaction(m.action, m.which, scope, depth) : undefined;
          if (m.which === 'entry' && m.action === null) {
            // `entry; then s;`: the initial state.
            previous = scope.prefix + 'entry';
            this.states.push({ name: previous, kind: 'entry', range: this.range(scope.uri, m.range) });
          } else if (owner && ran !== undefined) owner[m.which] = ran;
          else if (ran !== undefined) {
            this.states.push({ name: scope.prefix + m.which, kind: m.which, effect: ran, range: this.range(scope.uri, m.range) });
          }
          break;
        }
        case 'Succession': {
          // `first start then off;` / `then off;` after `entry;` in a state body.
          const from: string | null = m.source ? this.endName(scope, m.source.target) : previous;
          const to = m.target ? this.endName(scope, m.target.target) : null;
          if (from !== null && to !== null) transitions.push(this.transitionNode(scope, null, from, to, null, undefined, undefined, m.range));
          break;
        }
        case 'Transition': {
          const t = m as Transition;
          const from: string | null = t.source ? this.endName(scope, t.source) : previous;
          const to = t.target ? this.endName(scope, t.target) : null;
          if (from === null || to === null) break;
          const effect = t.effect ? this.subaction(t.effect, 'effect', scope, depth) : undefined;
          transitions.push(this.transitionNode(scope, t.name, from, to, t.trigger ? this.trigger(scope.uri, t.trigger) : null,
            this.expr(scope.uri, t.guard), effect, t.range));
          break;
        }
        default:
          break;
      }
    }
    for (const t of transitions) {
      this.states.push(t);
      const source = this.states.find((s, i) => i >= before - 1 && s.name === t.source) ?? this.states.find((s) => s.name === t.source);
      if (source) (source.successors ??= []).push({ to: t.target!, ...(t.guard !== undefined ? { guard: t.guard } : {}) });
    }
    const startUsed = transitions.some((t) => t.source === scope.prefix + 'start');
    if (startUsed) this.states.splice(before, 0, { name: scope.prefix + 'start', kind: 'start', successors: transitions.filter((t) => t.source === scope.prefix + 'start').map((t) => ({ to: t.target! })) });
    if (transitions.some((t) => t.target === scope.prefix + 'done')) this.states.push({ name: scope.prefix + 'done', kind: 'done' });
  }

  private transitionNode(scope: Body, name: string | null, from: string, to: string, trigger: GraphTrigger | null,
    guard: string | undefined, effect: string | undefined, range: SourceRange): GraphNode {
    const node: GraphNode = { name: this.nameOf(scope, name, 'transition'), kind: 'transition', source: from, target: to, range: this.range(scope.uri, range) };
    if (trigger) node.trigger = trigger;
    if (guard !== undefined) node.guard = guard;
    if (effect !== undefined) node.effect = effect;
    return node;
  }

  /** What an entry / do / exit / effect runs: an action node (lowered with the actions) by name. */
  private subaction(m: Member, which: string, scope: Body, depth: number): string | undefined {
    const node = this.actionNode(m, scope);
    if (!node) return undefined;
    const written = 'name' in m && typeof m.name === 'string' ? m.name : null;
    const named: GraphNode = written === null && m.kind !== 'Usage' ? { ...node, name: scope.prefix + which } : node;
    if (named !== node) Object.defineProperty(named, 'node', { value: m, enumerable: false });
    this.actions.push(named);
    this.actionDetails(m, named, scope, depth);
    return named.name;
  }
}

function isLibraryBase(d: Declaration): boolean {
  return d.layer !== 'user';
}

function refText(ref: Reference): string {
  return ref.kind === 'QualifiedName' ? ref.segments.join('::') : ref.chain.map((q) => q.segments.join('::')).join('.');
}

function opt<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function setText(node: GraphNode, key: 'payload' | 'via' | 'to' | 'target' | 'value' | 'condition' | 'until' | 'collection', value: string | undefined): void {
  if (value !== undefined) node[key] = value;
}

function isParallelNode(d: Declaration): boolean {
  const n = d.node;
  return n !== null && (n.kind === 'Definition' || n.kind === 'Usage') && n.isParallel;
}
