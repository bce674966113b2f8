// Compiles a behaviour subject (an action or state definition/usage, or a part that performs or
// exhibits behaviours) from the syntax tree into an ExecutionModel. Constructs outside the semantics
// of docs/execution-semantics.md are refused with a BehaviorError naming the construct and its place.
import type {
  AcceptAction, Definition, Expression, FeatureHeader, ForAction, IfAction, LoopAction, Member, Multiplicity, QualifiedName, Reference, SendAction, SourceRange, Succession,
  Transition, Usage,
} from '../ast';
import { bool, enumLiteral, nameNotation as q, type Value } from '../semantics/values';
import { specializesThrough } from '../semantics/types';
import { tryParseUnit } from '../semantics/units';
import {
  BehaviorError, emptyNode, type Effect, type ExecNode, type ExecTransition, type ExecutionModel, type FeatureDecl, type NodeKind, type Trigger,
} from './model';
import { admission, constructOf, MODELED_RELATIONS, relationClass, type Place } from './constructs';
import { eachSyntaxObject, inheritedTwiceMessage, isOrderedParameter, mentioned, parameterOrderMessage, POSITIONAL_PARAMETER_KINDS, redefinesImplicitly, unredefinedNameMessage } from '../support';
import { ModelIndex } from '../model/model';
import { BehaviorScope, lastSegment, rangeText, referenceText, usageName, type BehaviorDocument, type ScopeEntry } from './scope';

interface Ctx {
  readonly container: number;
  /** Feature prefixes for names, innermost first. */
  readonly scope: readonly string[];
  /** Feature prefix of locals declared here. */
  readonly prefix: string;
  /** Name prefix of nodes declared here (`a1.`). */
  readonly names: string;
  readonly path: string;
  readonly lexical: ScopeEntry | undefined;
  readonly receiver: string;
  readonly inlining: ReadonlySet<object>;
  /** Members here belong to the subject itself (its asserted constraints are the questions' conditions). */
  readonly inSubject: boolean;
  /**
   * Features here are of a part a parameter refers to (`in vehicle : Vehicle`): it exists before the
   * run, so an initial or default value (`:=`, `default`) tells its value when it was created, not now.
   */
  readonly referenced?: boolean;
}

const PLACE_TEXT: Record<Place, string> = {
  'action flow': 'an action flow',
  'atomic action': 'an action body without a flow (its assignments and sends run as one step)',
  state: 'a state',
  part: 'a part that performs or exhibits behaviours',
};

const RELATION_TEXT: Partial<Record<string, string>> = {
  typing: 'typing (:)',
  subsetting: 'subsetting (:>)',
  redefinition: 'redefinition (:>>)',
  reference: 'reference subsetting (::>)',
  specialization: 'specialization (:>)',
  conjugation: 'conjugation (~)',
};

/** `[1]` / `[1..1]` */
function isOne(m: Multiplicity): boolean {
  const one = (e: Expression | null) => e?.kind === 'Literal' && (e as { value?: unknown }).value === 1;
  return one(m.upper) && (m.lower === null || one(m.lower));
}

/** `[0..*]`, `[2]` as written (an expression bound shows as `…`). */
function multiplicityText(m: Multiplicity): string {
  const t = (e: Expression | null) => (e?.kind === 'Literal' ? (e.value === Infinity ? '*' : String(e.value)) : '…');
  return m.lower === null ? `[${t(m.upper)}]` : `[${t(m.lower)}..${t(m.upper)}]`;
}

/** A calc usage of a body (`calc t : Twice { in k = v; }`), read through its parameters and results (calcUsage). */
function isCalcUsage(m: Member): boolean {
  return m.kind === 'Usage' && m.keyword === 'calc' && m.role === null && m.direction === null;
}

const CONTROL = new Set(['fork', 'join', 'merge', 'decide']);
const join = (p: string, n: string) => (p === '' ? n : `${p}.${n}`);
/** Library types every signal of the model may be an instance of (Base, Occurrences, Items, Objects, Links). */
const LIBRARY_SIGNAL_SUPERTYPES = new Set(['Anything', 'DataValue', 'AttributeValue', 'Occurrence', 'Object', 'Item', 'Part', 'Link', 'Transfer', 'MessageTransfer']);

function typeText(u: Usage | Definition): string | null {
  const t = u.relations.find((r) => r.relation === 'typing');
  return t ? referenceText(t.target) : null;
}

class Compiler {
  readonly nodes: ExecNode[] = [];
  readonly transitions: ExecTransition[] = [];
  readonly features: FeatureDecl[] = [];
  readonly featureIndex = new Map<string, number>();
  readonly instances = new Set<string>(['']);
  readonly opaque = new Map<string, string>();
  /** `ref part` (item, occurrence) usages met: parts owned elsewhere, never instances of the run. */
  private readonly refInstances = new Set<Usage>();
  readonly globals = new Map<QualifiedName, string>();
  /** Calc usages read through their parameters and results (calcUsage), by path. */
  readonly calcs = new Set<string>();
  /** Names the run would read by another feature than the one they name (checkLexical). */
  readonly misreads = new Map<QualifiedName, BehaviorError>();
  /** Assignment targets the run would write by another feature than the one they name (checkLexical), by the target's path. */
  readonly miswrites = new Map<readonly string[], BehaviorError>();
  /** The name each assignment target's path starts with, as written (for checkLexical). */
  private readonly targetNames = new Map<readonly string[], QualifiedName>();
  /** The usage each feature key was declared by (its first declaration: an own redefinition before what it redefines). */
  private readonly declarations = new Map<string, Usage>();
  readonly parts = new Set<string>(['']);
  /** Ports of the parts whose features are read: receivers of `accept … via port`. */
  readonly ports = new Set<string>();
  /** The usage each part and port key was declared by (receiverOf compares it with what a name names where written). */
  private readonly receiverDecls = new Map<string, Usage>();
  private connected?: Set<string>;
  /** Transitions of nested states waiting for a state declared later in an enclosing one. */
  private laterTransitions: (() => boolean)[] = [];
  /** The subject being compiled: a send addressed to it is its own. */
  private subjectEntry?: ScopeEntry;
  readonly sent = new Set<string>();
  readonly enums = new Map<string, string[]>();
  /** Parameters (directed features) by key: a flow between two of them makes both features. */
  private readonly params = new Map<string, { usage: Usage; ctx: Ctx }>();
  /** Binding connectors met in bodies, resolved once every feature is known (resolveBindings). */
  private readonly bindings: { usage: Usage; ctx: Ctx }[] = [];
  private readonly counters = new Map<string, number>();
  /** Out parameters of the body-less action being compiled (collectFeatures fills it, callFor takes it). */
  private bodylessOuts: string[] = [];
  /** Per body-less action node, the out parameters it produces (free inputs of the run). */
  readonly produced = new Map<number, string[]>();
  /**
   * Features declared in the body of a nested action, named loop body or nested state, by its node
   * (`again`: a loop body, performed once per iteration): each performance of it has its own, given
   * their initial values when it begins; the run gives them once, when it starts (finish() refuses
   * where that differs).
   */
  readonly locals = new Map<number, { keys: string[]; again: boolean }>();
  /** Where the model was read beyond SysML v2 (OpenSysML's readings), each with its place: the answer lists them. */
  readonly readings: string[] = [];
  private readonly usedNames = new Set<string>();
  /** Each state node's declared name (unquoted), as names written in the model spell it. */
  private readonly stateNames = new Map<number, string>();

  constructor(readonly scope: BehaviorScope) {}

  fail(message: string, path: string, range: SourceRange | undefined): never {
    throw new BehaviorError(message, path, range);
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let k = 2; this.usedNames.has(name); k++) name = `${base}#${k}`;
    this.usedNames.add(name);
    return name;
  }

  private autoName(kind: string): string {
    const k = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, k);
    return `${kind}${k}`;
  }

  /** `composed`: the name is already a node path (`if1.then`), not a declared name to quote. */
  node(kind: NodeKind, name: string | null, ctx: Ctx, range: SourceRange, composed = false): ExecNode {
    const base = name !== null ? ctx.names + (composed ? name : q(name)) : kind === 'start' || kind === 'done' || kind === 'call' ? ctx.names + kind : ctx.names + this.autoName(kind);
    const n = emptyNode(this.nodes.length, kind, kind === 'call' || kind === 'start' || kind === 'done' ? base : this.uniqueName(base), ctx.container, ctx.scope, range, ctx.path);
    n.receiver = ctx.receiver;
    this.nodes.push(n);
    return n;
  }

  // ---- features ---------------------------------------------------------------------------------

  addFeature(key: string, u: Usage, ctx: Ctx, output = false, parameter = false): void {
    if (this.featureIndex.has(key)) return;
    const type = typeText(u);
    let domain: Value[] | null = null;
    // A free input takes one value of its domain: only for a feature with exactly one value.
    if (u.multiplicity && !isOne(u.multiplicity)) domain = null;
    else if (type && /(^|::)Boolean$/.test(type)) domain = [bool(false), bool(true)];
    else if (type) {
      const lits = this.scope.enumLiterals(ctx.lexical, type.split('::'));
      // Literals with values (`enum def Grade :> Real { enum A = 4.0; }`) stand for those values: not modeled.
      if (lits?.valued) this.fail(`the enumeration '${lits.definition}' gives its literals values, which the behaviour semantics does not model`, ctx.path, u.range);
      if (lits) {
        domain = lits.literals.map((l) => enumLiteral(lits.definition, l));
        this.enums.set(lits.definition, lits.literals);
      }
    }
    const entry = this.scope.entryOf(u);
    const valueTypes = entry ? this.scope.valueTypesOf(entry) : [];
    this.featureIndex.set(key, this.features.length);
    this.declarations.set(key, u);
    // A referenced part's initial and default values were its values when it was created: now it has the
    // values the question binds or ranges over (a bound value, `=`, holds for its whole life).
    const value = ctx.referenced && u.value && (u.value.isInitial || u.value.isDefault) ? null : u.value;
    this.features.push({ key, init: value?.expression ?? null, scope: ctx.scope, range: u.nameRange ?? u.range, path: ctx.path, type, ...(valueTypes.length > 0 ? { valueTypes } : {}), domain, hidden: false, bound: value !== null && !value.isInitial && !value.isDefault, ...(value?.isDefault && !value.isInitial ? { defaultBinding: value.range } : {}), ...(u.isConstant ? { constant: true } : {}), ...(output ? { output } : {}), ...(parameter ? { parameter } : {}) });
  }

  /** A feature, a parameter computed outside, or a part of this behaviour has this key. */
  private declared(key: string): boolean {
    return this.featureIndex.has(key) || this.opaque.has(key) || this.instances.has(key);
  }

  hiddenFeature(key: string, ctx: Ctx, range: SourceRange): void {
    this.featureIndex.set(key, this.features.length);
    this.features.push({ key, init: null, scope: ctx.scope, range, path: ctx.path, type: null, domain: null, hidden: true, bound: false });
  }

  /**
   * Attributes (features with values), parameters and nested parts of an element's members.
   * Parameters take values from the model (`in x = e;`, a flow) or, where `params` says so, from the
   * question: the subject's own (`subject`), the out parameters of a body-less action (`bodyless`).
   * Any other parameter stays computed outside the model (reading it is refused).
   */
  collectFeatures(members: readonly Member[], ctx: Ctx, depth = 0, params: 'subject' | 'bodyless' | 'calc' | 'none' = 'none'): void {
    for (const m of members) {
      if (m.kind !== 'Usage') continue;
      // A binding connector equates two features' values: resolved once every feature is known.
      if (m.keyword === 'binding') {
        if (!this.bindings.some((b) => b.usage === m && b.ctx.prefix === ctx.prefix)) this.bindings.push({ usage: m, ctx: this.at(ctx, m) });
        continue;
      }
      const name = usageName(m);
      if (!name) continue;
      const key = join(ctx.prefix, name);
      if (isCalcUsage(m)) {
        this.calcUsage(m, key, name, ctx, depth);
        continue;
      }
      if (m.keyword === 'attribute' || m.keyword === 'ref' || m.keyword === 'feature' || m.direction !== null) this.admitUsage(m, this.at(ctx, m));
      if (m.direction !== null && m.keyword !== 'part' && m.keyword !== 'action') {
        if (this.featureIndex.has(key) || this.instances.has(key)) continue;
        if (m.value) {
          // `in x = e;` (a perform's or a typed action's binding), `in x := e;`: the model gives the value.
          this.addFeature(key, m, ctx, false, true);
        } else if (params === 'subject') {
          // The subject's parameters: bound, or free inputs, by the question; its out parameters are its
          // results. One typed by a part or item definition is an instance whose attributes are inputs.
          const entry = this.scope.entryOf(m);
          const structured = m.direction !== 'out' && entry && this.scope.typesOf(entry).some((t) => t.node.kind === 'Definition' && ['part', 'item', 'occurrence'].includes(t.node.keyword));
          if (structured && m.multiplicity && !isOne(m.multiplicity)) {
            // `in sensors : Sensor[*]`: any number of parts, each with its own attributes; one instance would be unsound.
            this.opaque.set(key, `'${key}' is a parameter of several (or no) parts (multiplicity ${multiplicityText(m.multiplicity)}): their values are not modeled`);
          } else if (structured) {
            if (depth >= 8) this.fail(`'${key}' is nested more than 8 parts deep: not modeled`, this.at(ctx, m).path, m.range);
            this.instances.add(key);
            this.parts.add(key);
            this.receiverDecls.set(key, m);
            const inner: Ctx = { ...ctx, prefix: key, scope: [key, ...ctx.scope], lexical: entry ?? ctx.lexical, receiver: key, names: `${key.split('.').map(q).join('.')}.`, referenced: true };
            this.collectFeatures(this.membersWithTypes(m, entry), inner, depth + 1);
          } else this.addFeature(key, m, ctx, m.direction === 'out');
        } else if (params === 'bodyless' && m.direction === 'out') {
          this.addFeature(key, m, ctx);
          this.bodylessOuts.push(key);
        } else this.opaque.set(key, `'${key}' is a parameter computed outside the model`);
        this.params.set(key, { usage: m, ctx });
        continue;
      }
      if (m.keyword === 'attribute' || ((m.keyword === 'ref' || m.keyword === 'feature') && m.role === null && m.body === null)) {
        // In a calc, a value it cannot compute matters only where it is read (as a parameter's).
        this.addFeature(key, m, ctx, false, params === 'calc');
      } else if (m.keyword === 'port' && m.role === null) {
        this.ports.add(key);
        this.receiverDecls.set(key, m);
      } else if ((m.keyword === 'part' || m.keyword === 'item' || m.keyword === 'occurrence') && m.role === null && m.isRef) {
        // `ref part l : Lamp;` refers to a part owned elsewhere (not composite): possibly another part of
        // the model, whose features it then shares and whose behaviours run once, where it is owned. One
        // fresh instance of its own (its initial values, its machine run here) would answer for a model
        // that does not say so: reading, assigning or sending to it is refused.
        this.opaque.set(key, `'${key}' is a referential ${m.keyword} (ref ${m.keyword} ${name}): it refers to a ${m.keyword} owned elsewhere, possibly another ${m.keyword} of the model (then one with it, its behaviours run once, where it is owned); which one is not modeled`);
        this.refInstances.add(m);
      } else if ((m.keyword === 'part' || m.keyword === 'item' || m.keyword === 'occurrence') && m.role === null && m.direction !== null && params !== 'subject') {
        // `in part l : Lamp;` of a behaviour other than the subject, with no binding: a part computed outside.
        if (!this.declared(key)) this.opaque.set(key, `'${key}' is a parameter computed outside the model (a ${m.keyword} it refers to, which nothing binds)`);
      } else if ((m.keyword === 'part' || m.keyword === 'item' || m.keyword === 'occurrence') && m.role === null) {
        if (depth >= 8) this.fail(`'${key}' is nested more than 8 parts deep: not modeled`, this.at(ctx, m).path, m.range);
        this.instances.add(key);
        this.parts.add(key);
        this.receiverDecls.set(key, m);
        const entry = this.scope.entryOf(m);
        // The subject's `in part x : T;`: a part that exists before the run, as `in x : T;` is.
        const inner: Ctx = { ...ctx, prefix: key, scope: [key, ...ctx.scope], lexical: entry ?? ctx.lexical, receiver: key, names: `${key.split('.').map(q).join('.')}.`, ...(m.direction !== null ? { referenced: true } : {}) };
        this.collectFeatures(this.membersWithTypes(m, entry), inner, depth + 1);
      }
    }
  }

  /**
   * A calc usage in a behaviour (`calc t : Twice { in k = v; }`): a calculation, which changes nothing,
   * read through its parameters and results. Each parameter and attribute is a feature of the state
   * under the usage's path (`t.k`, `t.d`), bound where it has a value (`in k = v` reads `v`, `out d =
   * k * 2` reads `t.k`), so `t.d` is the calculation on the values of the state it is read in; `t`
   * itself reads its result (the `return` value or the result expression). It is no node of the flow
   * (a succession to or from it names no action); a member other than parameters, attributes, a return
   * and a result expression is refused.
   */
  private calcUsage(u: Usage, key: string, name: string, ctx: Ctx, depth: number): void {
    const at = this.at(ctx, u);
    if (this.calcs.has(key) || this.declared(key)) {
      this.fail(`two features named '${name}' in one scope ('${key}'), one a calc usage: not modeled`, at.path, u.nameRange ?? u.range);
    }
    if (depth >= 8) this.fail(`'${key}' is nested more than 8 levels deep: not modeled`, at.path, u.range);
    const entry = this.scope.entryOf(u);
    const members = this.membersWithTypes(u, entry);
    const inner: Ctx = { ...ctx, prefix: key, scope: [key, ...ctx.scope], lexical: entry ?? ctx.lexical, names: `${key.split('.').map(q).join('.')}.` };
    const results: { expr: Expression; range: SourceRange }[] = [];
    let returns = 0;
    let returned: { usage: Usage; name: string } | undefined;
    const features: Member[] = [];
    for (const x of members) {
      const place = this.at(inner, x);
      if (x.kind === 'ResultExpression') {
        results.push({ expr: x.expression, range: x.range });
        continue;
      }
      if (x.kind === 'Usage' && x.role === 'return') {
        // The first return met is the usage's own (its type's come after it); only one counts.
        if (returns++ > 0) continue;
        this.admitUsage(x, place);
        if (x.value && (x.value.isInitial || x.value.isDefault)) this.fail(`an initial or default value of the calc usage '${name}''s result is not modeled (write '=')`, place.path, x.value.range);
        if (x.value) results.push({ expr: x.value.expression, range: x.value.range });
        const rn = usageName(x);
        if (rn && x.value) returned = { usage: x, name: rn };
        continue;
      }
      if (x.kind === 'Usage' && x.role === null && (x.direction !== null || x.keyword === 'attribute') && x.keyword !== 'part' && x.keyword !== 'action') {
        // Only bindings hold whenever the calc is read; an initial or default value would be taken when
        // the calculation is performed, which is no moment of this model.
        if (x.value && (x.value.isInitial || x.value.isDefault)) this.fail(`${x.value.isInitial ? "an initial value (':=')" : 'a default value'} of '${usageName(x) ?? ''}' in the calc usage '${name}' is not modeled (a calc is read through its bindings: write '=')`, place.path, x.value.range);
        if (!x.value && x.direction === null) {
          const n = usageName(x);
          if (n) this.opaque.set(join(key, n), `'${join(key, n)}' has no value: the calc usage '${name}' does not compute it (bind it with '=')`);
          continue;
        }
        features.push(x);
        continue;
      }
      if (admission(constructOf(x), 'part', false) === 'inert') continue;
      this.fail(`${constructOf(x)} inside the calc usage '${name}' is not modeled (a calc in a behaviour is read as its parameters and results)`, place.path, x.range);
    }
    if (results.length > 1) this.fail(`the calc usage '${name}' has a result expression and a return value: which one is its result is not modeled`, at.path, results[1]!.range);
    this.calcs.add(key);
    this.collectFeatures(features, inner, depth + 1, 'calc');
    // A named return (`return r = e;`) is also read as `t.r`.
    if (returned) this.addFeature(join(key, returned.name), returned.usage, this.at(inner, returned.usage), false, true);
    const r = results[0];
    if (r) {
      this.featureIndex.set(`${key}#result`, this.features.length);
      this.features.push({ key: `${key}#result`, init: r.expr, scope: inner.scope, range: r.range, path: at.path, type: null, domain: null, hidden: true, bound: true, parameter: true });
    }
  }

  /**
   * Binding connectors (`bind focus.scene = scene;`, SysML 8.3.12: the two ends have equal values for
   * the life of their owner). The end that has no value of its own is bound to the other end, as `=`
   * would bind it: read as the other end in every state, never assigned (an assignment or a flow into
   * it is refused). Both ends with values of their own (two values said to be equal, or two parts
   * said to be one) are not modeled.
   */
  resolveBindings(): void {
    for (const { usage, ctx } of this.bindings) {
      const ends = usage.ends ?? [];
      const what = `the binding connector${usage.name ? ` '${usage.name}'` : ''}`;
      if (ends.length !== 2 || ends.some((e) => !e.target)) this.fail(`${what} does not have two ends: not modeled`, ctx.path, usage.range);
      const [a, b] = ends.map((e) => this.bindingEnd(e.target!, ctx, what));
      const open = (x: typeof a) => x!.state === 'open';
      if (!open(a) && !open(b)) {
        this.fail(`${what} says that '${a!.key}' and '${b!.key}' are equal, and both have values of their own (${a!.state === 'instance' ? 'a part' : a!.state}, ${b!.state === 'instance' ? 'a part' : b!.state}): not modeled`, ctx.path, usage.range);
      }
      // The open end takes the other's value; of two open ends, an out parameter of the subject reads the other.
      const target = !open(a) ? b! : !open(b) ? a! : a!.output && !b!.output ? a! : b!.output ? b! : a!;
      const source = target === a ? b! : a!;
      for (const n of this.nodes) {
        for (const e of [...n.effects, ...n.exitEffects]) {
          if (e.kind === 'transfer' && e.to === target.key) this.fail(`'${target.key}' is bound by ${what} and is also the target of a flow at ${e.range.line}:${e.range.column}: not modeled`, ctx.path, usage.range);
        }
      }
      const decl: FeatureDecl = {
        key: target.key, init: source.expr, scope: ctx.scope, range: usage.range, path: ctx.path, type: null, domain: null, hidden: false, bound: true, parameter: true,
      };
      const i = this.featureIndex.get(target.key);
      if (i !== undefined) this.features[i] = { ...this.features[i]!, init: source.expr, scope: ctx.scope, range: usage.range, path: ctx.path, bound: true, parameter: true };
      else {
        this.opaque.delete(target.key);
        this.featureIndex.set(target.key, this.features.length);
        this.features.push(decl);
      }
    }
  }

  /**
   * Names in the behaviour's expressions that no feature of the subject answers but that name, where
   * they are written, an attribute owned by a package (`attribute limit = 4 [km/h];` beside the state
   * machine): such a feature has one value (KerML: a package's feature is a feature of every thing,
   * bound by its FeatureValue), so the run reads it as a hidden, bound, constant feature. Its own
   * value's names are resolved the same way. Anything else a name resolves to outside the subject
   * (a part's attribute, a package attribute with no value or several) stays an unknown name.
   */
  resolveGlobals(subject: string): void {
    const nameText = (n: QualifiedName) => n.segments.join('::');
    const own = subject.split('::').at(-1)!.replace(/^'|'$/g, '');
    const known = (scope: readonly string[], seg: string) =>
      seg === own || scope.some((p) => this.declared(join(p, seg)) || this.calcs.has(join(p, seg)));
    const pending: { e: unknown; scope: readonly string[]; path: string }[] = [];
    const visit = (e: unknown, scope: readonly string[], path: string): void => {
      if (typeof e !== 'object' || e === null) return;
      if (Array.isArray(e)) {
        for (const x of e) visit(x, scope, path);
        return;
      }
      const n = e as { kind?: string; name?: QualifiedName } & Record<string, unknown>;
      if (n.kind === 'Name' && n.name) {
        const name = n.name;
        if (this.globals.has(name)) return;
        if (name.segments.length === 1 && !name.isGlobal && known(scope, name.segments[0]!)) {
          const misread = this.checkLexical(name, scope, path);
          if (misread) this.misreads.set(name, misread);
          return;
        }
        if (name.segments.length > 1 && this.enums.has(name.segments.at(-2)!)) return;
        const target = this.scope.resolve(this.scope.entryAt(path, name.range), name);
        // A feature of the model the run has none for (one declared in an entry/do/exit action, a
        // transition effect or an unnamed if/loop body) whose name spells a unit (`t`, `m`, `s`): the
        // run would read the unit (1 t) where the model names the feature.
        if (target?.node.kind === 'Usage' && target.parent?.node.kind !== 'Package' && name.segments.length === 1 && !name.isGlobal && tryParseUnit(name.segments[0]!)) {
          this.misreads.set(name, new BehaviorError(`'${name.segments[0]}' names ${this.placeOf(target)} where it is written, which the run has no feature for (a feature declared in an entry/do/exit action, a transition effect or an unnamed if/loop body is not modeled); it would read the unit '${name.segments[0]}' instead`, path, name.range));
          return;
        }
        if (!target || target.node.kind !== 'Usage' || target.parent?.node.kind !== 'Package') return;
        const u = target.node;
        if ((u.keyword !== 'attribute' && u.keyword !== 'ref' && u.keyword !== 'feature') || u.direction !== null) return;
        const qualified = this.scope.qualifiedName(target);
        if (!qualified) return;
        const place = `${target.path}:${(u.nameRange ?? u.range).line}:${(u.nameRange ?? u.range).column}`;
        if (u.multiplicity && !isOne(u.multiplicity)) this.fail(`'${nameText(name)}' is the attribute ${qualified} of a package (${place}), which may have several values: reading it in a run is not modeled`, path, name.range);
        if (!u.value || u.value.isDefault) this.fail(`'${nameText(name)}' is the attribute ${qualified} of a package (${place}), which has no value${u.value ? ' (a default is not a value)' : ''}: give it one with '='`, path, name.range);
        const key = `::${qualified}`;
        if (!this.featureIndex.has(key)) {
          this.featureIndex.set(key, this.features.length);
          this.features.push({ key, init: u.value.expression, scope: [], range: u.nameRange ?? u.range, path: target.path, type: typeText(u), domain: null, hidden: true, bound: true, constant: true });
          pending.push({ e: u.value.expression, scope: [], path: target.path });
        }
        this.globals.set(name, key);
        return;
      }
      for (const [k, v] of Object.entries(n)) if (k !== 'range' && typeof v === 'object') visit(v, scope, path);
    };
    // An assignment's target names the feature it writes as a read names the one it reads.
    const target = (t: readonly string[] | null, scope: readonly string[], path: string) => {
      const name = t ? this.targetNames.get(t) : undefined;
      if (!t || !name || name.segments.length !== 1 || name.isGlobal) return;
      const miswrite = this.checkLexical(name, scope, path, true);
      if (miswrite) this.miswrites.set(t, miswrite);
    };
    const effects = (list: readonly Effect[], path: string) => {
      for (const x of list) if (x.kind === 'assign') {
        visit(x.expr, x.scope, path);
        target(x.target, x.scope, this.effectPaths.get(x) ?? path);
      }
    };
    for (const n of this.nodes) {
      visit(n.expr, n.scope, n.path);
      if (n.kind === 'assign') target(n.target, n.scope, n.path);
      visit(n.guards, n.scope, n.path);
      if (n.trigger && n.trigger.kind !== 'signal') visit(n.trigger.expr, n.scope, n.path);
      effects(n.effects, n.path);
      effects(n.exitEffects, n.path);
    }
    for (const t of this.transitions) {
      visit(t.guard, t.scope, t.path);
      if (t.trigger && t.trigger.kind !== 'signal') visit(t.trigger.expr, t.scope, t.path);
      effects(t.effects, t.path);
    }
    for (const f of [...this.features]) if (f.init) visit(f.init, f.scope, f.path);
    while (pending.length > 0) {
      const p = pending.pop()!;
      visit(p.e, p.scope, p.path);
    }
  }

  // ---- order: what SysML v2 leaves unordered --------------------------------------------------------

  /**
   * Where the semantics runs in a fixed order what SysML v2 leaves unordered, the order must not matter;
   * where it may, the model is refused naming both (SysML 7.16.3: the steps of an action body are
   * ordered only by its successions; States library: a parallel state's substates are not exclusive, so
   * they are performed concurrently; a part's behaviours are performed concurrently). The places:
   * - the assignments and sends of an atomic body (an action without a flow, an if/loop body without
   *   one, an entry/do/exit action, a transition effect), run in text order as one move;
   * - the entry (and do) actions of a parallel state's regions, run in declaration order in the move
   *   that enters them, and their exit actions, run in token order in the move that leaves them;
   * - a state machine's initial entry actions, run before any move of the part's other behaviours.
   * Two effects conflict when one writes a feature the other reads or writes (a feature bound to an
   * expression reads what the expression names), or both send different signals to one receiver.
   */
  checkUnordered(behaviors: readonly number[]): void {
    const access = featureReader(this.features);
    this.checkAtomicBodies(access);
    for (const p of this.nodes) if (p.kind === 'state' && p.parallel && p.children.length > 1) this.checkRegions(p, access);
    if (behaviors.length > 1) this.checkInitialEntries(behaviors, access);
    this.checkDoActions(access);
    this.checkTransitionEffects(access);
  }

  /**
   * A transition's effect against the exit actions of the states around its source that it leaves, and
   * the entry (and do) actions of the states around its target that it enters. SysML v2 orders the
   * source's exit before the effect and the effect before the target's entry (TransitionPerformance:
   * `transitionLinkSource then effect`, `effect then transitionLink.laterOccurrence`); a state around
   * the source ends only after its transitions, which are its subactions (States library: StateAction
   * `subactions :> middle`, StatePerformance `middle then exit`), so its exit follows the effect of a
   * transition written in it, and nothing orders it against one written further out; nor is a state
   * around the target entered before or after the effect (only before the target, its middle). The run
   * performs the exits, then the effect, then the entries (UML's order): where the effect conflicts with
   * one of those exit or entry actions, the model is refused naming both.
   */
  private checkTransitionEffects(access: FeatureReader): void {
    const nodes = this.nodes;
    const below = (id: number): number[] => [id, ...nodes[id]!.children.flatMap(below)];
    for (const t of this.transitions) {
      if (t.unmodeled || t.source < 0) continue;
      const effects = t.effects.filter((e) => this.runs(e));
      if (effects.length === 0) continue;
      const sc = this.stateChain(t.source);
      const tc = t.target >= 0 ? this.stateChain(t.target) : [];
      let keep = 0;
      if (t.completes !== undefined) keep = sc.indexOf(t.completes) + 1;
      else while (keep < sc.length - 1 && keep < tc.length - 1 && sc[keep] === tc[keep]) keep++;
      // Left: the states holding the source below the kept one, and their other regions.
      const left: number[] = [];
      for (let i = keep; i < sc.length - 1; i++) {
        left.push(sc[i]!);
        if (nodes[sc[i]!]!.parallel) for (const c of nodes[sc[i]!]!.children) if (c !== sc[i + 1]) left.push(...below(c));
      }
      // Entered: the states holding the target below the kept one, and their other regions' default entries.
      const entered: number[] = [];
      for (let i = keep; i < tc.length - 1; i++) {
        entered.push(tc[i]!);
        if (nodes[tc[i]!]!.parallel) for (const c of nodes[tc[i]!]!.children) if (c !== tc[i + 1]) entered.push(...this.defaultEntered(c));
      }
      const exits = left.flatMap((id) => nodes[id]!.exitEffects.filter((e) => this.runs(e)));
      const found = this.conflicting(access, effects, exits) ?? this.conflicting(access, effects, this.entries(entered));
      if (!found) continue;
      const [ea, eb, why] = found;
      const isExit = exits.includes(eb!);
      const owner = [...left, ...entered].find((id) => (isExit ? nodes[id]!.exitEffects : nodes[id]!.effects).includes(eb!));
      const state = owner !== undefined ? `'${nodes[owner]!.name}'` : 'a state';
      this.fail(
        isExit
          ? `the effect '${effectText(ea)}' of the transition '${t.name}' and the exit action '${effectText(eb!)}' (${this.effectPlace(eb!)}) of ${state}, a state the transition leaves around its source, conflict (${why}): SysML v2 ends ${state} only after its transitions (its subactions: States library StateAction \`subactions :> middle\`, StatePerformance \`middle then exit\`), so a transition written in it performs its effect before that exit action, and nothing orders one written outside it; the run performs the exit first: not modeled`
          : `the effect '${effectText(ea)}' of the transition '${t.name}' and the entry (or do) action '${effectText(eb!)}' (${this.effectPlace(eb!)}) of ${state}, a state the transition enters around its target, conflict (${why}): SysML v2 orders the effect before the target (TransitionPerformance: \`effect then transitionLink.laterOccurrence\`), not before ${state}, whose entry only precedes the target; the run performs the effect first: not modeled`,
        this.effectPaths.get(ea) ?? t.path,
        ea.range,
      );
    }
  }

  /**
   * A state's do action runs concurrently with its substates and with the guards and triggers of its own
   * transitions (StatePerformances: `do.startShot then nonDoMiddle.startShot` orders only their starts;
   * a StateTransitionPerformance follows the source's nonDoMiddle, not its do). The run performs the do
   * action atomically in the move that enters the state, before any of them: where it conflicts with one
   * (writes what it reads or writes), the model is refused naming both.
   */
  private checkDoActions(access: FeatureReader): void {
    const nodes = this.nodes;
    const below = (id: number): number[] => nodes[id]!.children.flatMap((c) => [c, ...below(c)]);
    for (const [sid, d] of this.doEffects) {
      const effects = d.effects.filter((e) => this.runs(e));
      if (effects.length === 0) continue;
      const inner = this.whatRuns(new Set(below(sid)));
      // Its transitions' guards (a `when` trigger's change signal is sent whichever runs first; an `after`
      // delay reading a written feature is refused on its own).
      const own = this.transitions.filter((t) => t.source === sid).map((t) => t.guard);
      const found = this.conflicting(access, effects, inner.effects, [...inner.reads, ...own]);
      if (!found) continue;
      const [ea, eb, why] = found;
      this.fail(`the do action '${effectText(ea)}' of the state '${nodes[sid]!.name}' runs concurrently with its substates and with the guards of its transitions (StatePerformance: \`do.startShot then nonDoMiddle.startShot\`; a transition follows the substates, not the do action), yet the run performs it at once on entering, and it conflicts with ${eb ? `'${effectText(eb)}' at ${this.effectPlace(eb)}` : 'a guard there'} (${why}): which order they run in is not modeled`, this.effectPaths.get(ea) ?? d.path, ea.range);
    }
  }

  /** Two conflicting statements of one atomic body. */
  private checkAtomicBodies(access: FeatureReader): void {
    for (const all of this.unordered) {
      const group = all.filter((e) => this.runs(e));
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          const [a, b] = [group[i]!, group[j]!];
          const why = this.conflict(access, [a], [b]);
          if (!why) continue;
          const inherited = [a, b].map((e) => this.effectOrigins.get(e)).find((n) => n !== undefined);
          const how = inherited !== undefined
            ? `; one is inherited from '${inherited}', which this body specializes or redefines (KerML 7.3.4.6: a Redefinition is a Specialization, so its members are inherited unless redefined)`
            : '; order them with `then` (`first start; then assign …; then assign …;`)';
          this.fail(`'${effectText(a)}' and '${effectText(b)}' (${this.effectPlace(b)}) are steps of one body with no succession between them, which SysML v2 performs in either order (SysML 7.16.3: successions order the steps of an action), and ${why}: not modeled${how}`, this.effectPaths.get(a) ?? '', a.range);
        }
      }
    }
  }

  /**
   * The regions of parallel state `p`: what one region's entry runs (in the move that enters them all,
   * before any move of theirs) against anything another region does; two regions' exit actions (in the
   * move that leaves them).
   */
  private checkRegions(p: ExecNode, access: FeatureReader): void {
    const nodes = this.nodes;
    const below = (id: number): number[] => [id, ...nodes[id]!.children.flatMap(below)];
    // Entering a region: its default entry, or (a transition from outside the parallel state to a state
    // in it) the states on the way to the target and the target's default entry.
    const entered = (c: number): number[] => {
      const ids = new Set(this.defaultEntered(c));
      for (const t of this.transitions) {
        if (t.target < 0 || !this.isInside(t.target, c) || this.isInside(t.source, p.id)) continue;
        const path = this.stateChain(t.target);
        for (const x of path.slice(path.indexOf(c), -1)) {
          ids.add(x);
          if (nodes[x]!.parallel) for (const other of nodes[x]!.children) for (const y of this.defaultEntered(other)) ids.add(y);
        }
        for (const y of this.defaultEntered(t.target)) ids.add(y);
      }
      return [...ids];
    };
    const regions = p.children.map((c) => ({ c, enter: this.entries(entered(c)), leave: below(c).flatMap((id) => nodes[id]!.exitEffects.filter((e) => this.runs(e))), all: this.whatRuns(new Set(below(c))) }));
    const region = (x: { c: number }) => `'${nodes[x.c]!.name}'`;
    for (const [i, a] of regions.entries()) {
      for (const [j, b] of regions.entries()) {
        if (i === j) continue;
        const entering = this.conflicting(access, a.enter, b.all.effects, b.all.reads);
        if (entering) {
          const [ea, eb, why] = entering;
          this.fail(`the regions ${region(a)} and ${region(b)} of the parallel state '${p.name}' are performed concurrently, yet the entry (or do) action '${effectText(ea)}' of ${region(a)} runs in the one move that enters them (in declaration order), before any move of ${region(b)}, and it conflicts with ${eb ? `'${effectText(eb)}' at ${this.effectPlace(eb)}` : `a guard or trigger of ${region(b)}`} (${why}): which order they run in is not modeled (States library: the substates of a parallel state are not exclusive states)`, this.effectPaths.get(ea) ?? p.path, ea.range);
        }
        const leaving = i < j ? this.conflicting(access, a.leave, b.leave) : undefined;
        if (leaving) {
          const [ea, eb, why] = leaving;
          this.fail(`the regions ${region(a)} and ${region(b)} of the parallel state '${p.name}' are performed concurrently, and their exit actions conflict: '${effectText(ea)}' here and '${effectText(eb!)}' at ${this.effectPlace(eb!)} (${why}): which order they run in is not modeled (States library: the substates of a parallel state are not exclusive states)`, this.effectPaths.get(ea) ?? p.path, ea.range);
        }
      }
    }
  }

  /** A state machine's initial entries, run before any move of the run's other behaviours. */
  private checkInitialEntries(behaviors: readonly number[], access: FeatureReader): void {
    const nodes = this.nodes;
    const inBehavior = (b: number) => {
      const ids = new Set<number>();
      for (const n of nodes) {
        let x: number = n.id;
        while (x >= 0 && x !== b) x = nodes[x]!.kind === 'state' ? nodes[x]!.parentState : nodes[x]!.container;
        if (x === b) ids.add(n.id);
      }
      return ids;
    };
    for (const m of behaviors) {
      if (nodes[m]!.kind !== 'state') continue;
      const initial = this.entries(this.defaultEntered(m));
      if (initial.length === 0) continue;
      for (const o of behaviors) {
        if (o === m) continue;
        const other = this.whatRuns(inBehavior(o));
        const found = this.conflicting(access, initial, other.effects, other.reads);
        if (!found) continue;
        const [ea, , why] = found;
        this.fail(`'${nodes[m]!.name}' and '${nodes[o]!.name}' are behaviours of one part, performed concurrently; the initial entry action '${effectText(ea)}' of '${nodes[m]!.name}' runs before any step of '${nodes[o]!.name}' here, yet ${why}: which order they run in is not modeled`, this.effectPaths.get(ea) ?? nodes[m]!.path, ea.range);
      }
    }
  }

  /** The entry and do effects of these states that can run. */
  private entries(ids: readonly number[]): Effect[] {
    return ids.flatMap((id) => this.nodes[id]!.effects.filter((e) => this.runs(e)));
  }

  /** What the nodes `ids` (and the transitions from them) may write and read: effects, and expressions read. */
  private whatRuns(ids: ReadonlySet<number>): { effects: Effect[]; reads: unknown[] } {
    const effects: Effect[] = [];
    const reads: unknown[] = [];
    for (const id of ids) {
      const n = this.nodes[id]!;
      effects.push(...n.effects, ...n.exitEffects);
      if (n.kind === 'assign') effects.push({ kind: 'assign', target: n.target!, expr: n.expr!, scope: n.scope, range: n.range });
      else reads.push(n.expr);
      reads.push(n.guards, n.trigger && n.trigger.kind !== 'signal' ? n.trigger.expr : null);
    }
    for (const t of this.transitions) {
      if (!ids.has(t.source)) continue;
      effects.push(...t.effects);
      reads.push(t.guard, t.trigger && t.trigger.kind !== 'signal' ? t.trigger.expr : null);
    }
    return { effects: effects.filter((e) => this.runs(e)), reads };
  }

  /**
   * Whether an effect can run: an assignment to a feature that is bound (`=`), constant, or not a feature
   * is refused wherever it runs (Runtime.featureOf), so its order never decides an answer.
   */
  private runs(e: Effect): boolean {
    if (e.kind !== 'assign') return true;
    const key = e.target.join('.');
    for (const p of e.scope) {
      const i = this.featureIndex.get(join(p, key));
      if (i === undefined) continue;
      const f = this.features[i]!;
      return !f.bound && !f.constant && !f.defaultBinding;
    }
    return false;
  }

  /** The states entering `id` by its default entry enters: itself, its initial substates (every region of a parallel one). */
  private defaultEntered(id: number): number[] {
    const n = this.nodes[id]!;
    if (n.parallel) return [id, ...n.children.flatMap((c) => this.defaultEntered(c))];
    if (n.initial < 0) return [id];
    const path: number[] = [];
    for (let x = this.nodes[n.initial]!.parentState; x >= 0 && x !== id; x = this.nodes[x]!.parentState) path.unshift(x);
    // The states on the way to a nested initial state (a parallel one among them starts its other regions: over-approximated by all).
    return [id, ...path.flatMap((x) => (this.nodes[x]!.parallel ? this.defaultEntered(x) : [x])), ...this.defaultEntered(n.initial)];
  }

  /** Why effects `a` and effects (and reads) `b` conflict, or undefined. */
  private conflict(access: FeatureReader, a: readonly Effect[], b: readonly Effect[], bReads: readonly unknown[] = []): string | undefined {
    const pair = this.conflicting(access, a, b, bReads);
    return pair ? pair[2] : undefined;
  }

  /** The first conflicting pair (the second undefined when the conflict is with `bReads`), and why. */
  private conflicting(access: FeatureReader, a: readonly Effect[], b: readonly Effect[], bReads: readonly unknown[] = []): [Effect, Effect | undefined, string] | undefined {
    // An assignment's expression is read through the bound features it names; a transfer's source
    // parameter by its own name only.
    const read = (e: Effect) => (e.kind === 'transfer' ? effectReads(e, new Set()) : access.close(effectReads(e, new Set())));
    const otherReads = access.names(bReads);
    for (const x of a) {
      const wx = effectWrite(x);
      if (wx !== undefined && otherReads.has(wx)) return [x, undefined, `'${wx}' is written by one and read by the other`];
      for (const y of b) {
        const wy = effectWrite(y);
        if (wx !== undefined && wx === wy) return [x, y, `both write '${wx}'`];
        if (wx !== undefined && read(y).has(wx)) return [x, y, `'${wx}' is written by one and read by the other`];
        if (wy !== undefined && read(x).has(wy)) return [x, y, `'${wy}' is written by one and read by the other`];
        if (x.kind === 'send' && y.kind === 'send' && x.receiver === y.receiver && x.signal !== y.signal) return [x, y, `both send to '${x.receiver || 'the subject'}', whose pending signals keep their order`];
      }
    }
    for (const y of b) {
      const wy = effectWrite(y);
      if (wy === undefined) continue;
      for (const x of a) if (read(x).has(wy)) return [x, y, `'${wy}' is written by one and read by the other`];
    }
    return undefined;
  }

  private effectPlace(e: Effect): string {
    return `${this.effectPaths.get(e) ?? '?'}:${e.range.line}:${e.range.column}`;
  }

  /**
   * A name the run reads by the instances that hold the expression (its scope's feature prefixes,
   * innermost first) must be the feature it names where it is written (KerML 7.2.5 Namespaces: names
   * resolve lexically): `k` in `action def Step` is Step's, or a package's, never the `k` of a part that
   * performs a Step; a block's own `h` is not the action's. Where the two differ the run would read
   * another feature: refused where a run reads it (ExecutionModel.misreads), naming both.
   */
  private checkLexical(name: QualifiedName, scope: readonly string[], path: string, write = false): BehaviorError | undefined {
    const seg = name.segments[0]!;
    const p = scope.find((x) => this.featureIndex.has(join(x, seg)));
    const u = p === undefined ? undefined : this.declarations.get(join(p, seg));
    if (!u) return undefined;
    const target = this.scope.resolve(this.scope.entryAt(path, name.range), name);
    const read = this.scope.entryOf(u);
    if (!target && read) {
      const at = this.placeOf(read);
      return new BehaviorError(`'${seg}' names nothing where it is written (KerML 7.2.5 Namespaces: a name resolves in the namespace it is written in, then its owners), but the run would ${write ? 'assign' : 'read'} ${at}, a feature of a behaviour or part that holds it only when it runs: declare '${seg}' where it is written (or a parameter, bound where the action is used), or qualify the name`, path, name.range);
    }
    if (!target || target.node.kind !== 'Usage' || !read || this.scope.sameFeature(target, read)) return undefined;
    return new BehaviorError(`'${seg}' names ${this.placeOf(target)} where it is written, but the run would ${write ? 'assign' : 'read'} ${this.placeOf(read)}: names resolve where they are written (KerML 7.2.5 Namespaces), and the behaviour semantics ${write ? 'finds an assignment\'s target' : 'reads them'} by the scopes that hold the expression, which here do not see that one; rename one of them, or qualify the name`, path, name.range);
  }

  /**
   * A transition's guard and effect name the payload its trigger accepts (`accept n : Sig if n.v > 0`;
   * SysML 7.17.4: the transition's payload parameter), which hides a feature of that name around it.
   * Signal arguments are not evaluated, so reading the payload is refused where a run reads it; the
   * run would otherwise read the feature it hides, or a unit (`s`), in its place.
   */
  private payloadReads(payload: string, roots: readonly unknown[], path: string): void {
    const walk = (e: unknown): void => {
      if (typeof e !== 'object' || e === null) return;
      if (Array.isArray(e)) {
        for (const x of e) walk(x);
        return;
      }
      const n = e as { kind?: string; name?: QualifiedName } & Record<string, unknown>;
      if (n.kind === 'Name' && n.name && !n.name.isGlobal && n.name.segments[0] === payload) {
        this.misreads.set(n.name, new BehaviorError(`'${payload}' here is the payload the transition's trigger accepts (SysML 7.17.4: the transition's payload parameter, which hides any other '${payload}'): the values a signal carries are not modeled (its arguments are not evaluated)`, path, n.name.range));
        return;
      }
      for (const [k, v] of Object.entries(n)) if (k !== 'range' && typeof v === 'object') walk(v);
    };
    walk(roots);
  }

  /** What a binding connector's end names, from the scopes of the body it is written in. */
  private bindingEnd(ref: Reference, ctx: Ctx, what: string): { key: string; expr: Expression; state: 'open' | 'a value' | 'an input' | 'instance'; output: boolean } {
    const links = ref.kind === 'QualifiedName' ? [ref] : ref.chain;
    if (links.some((l) => l.segments.length !== 1 || l.isGlobal)) this.fail(`the end '${referenceText(ref)}' of ${what} is a qualified name: only features of this behaviour by name or chain (a.b) are modeled`, ctx.path, ref.range);
    const path = links.map((l) => l.segments[0]!).join('.');
    let key: string | undefined;
    for (const p of ctx.scope) {
      const k = join(p, path);
      if (this.declared(k)) {
        key = k;
        break;
      }
    }
    if (key === undefined) return this.fail(`the end '${path}' of ${what} names no feature, parameter or part of this behaviour: not modeled`, ctx.path, ref.range);
    let expr: Expression = { kind: 'Name', name: links[0]!, range: links[0]!.range };
    for (const l of links.slice(1)) expr = { kind: 'MemberAccess', target: expr, member: l, range: { ...ref.range, end: l.range.end, endLine: l.range.endLine, endColumn: l.range.endColumn } };
    if (this.instances.has(key) && !this.featureIndex.has(key)) return { key, expr, state: 'instance', output: false };
    const i = this.featureIndex.get(key);
    if (i === undefined) return { key, expr, state: 'open', output: false };
    const f = this.features[i]!;
    if (f.hidden) this.fail(`the end '${path}' of ${what} is not a feature of the model`, ctx.path, ref.range);
    if (f.init || f.bound) return { key, expr, state: 'a value', output: !!f.output };
    const produced = [...this.produced.values()].some((ks) => ks.includes(key!));
    const param = this.params.get(key);
    // The subject's own in parameters are the question's inputs (bound or ranged over).
    const input = produced || (param !== undefined && param.ctx.prefix === '' && !f.output && (param.usage.direction === 'in' || param.usage.direction === 'inout'));
    return { key, expr, state: input ? 'an input' : 'open', output: !!f.output };
  }

  /**
   * An element's own members, then the members it inherits from each definition (or feature) it is
   * typed by, specializes, subsets or redefines, as groups in that order (a Redefinition is a
   * Specialization, KerML 7.3.4.6: `action :>> step1;` performs what step1 does). An inherited member
   * that an own member redefines (`:>> x`, `redefines x`) or declares again under its name is left out:
   * the redefining feature replaces it (one feature, not two).
   */
  /** Whether a state is parallel: declared so, or one of the states it specializes is (transitively). */
  private isParallelState(node: Usage | Definition, entry: ScopeEntry | undefined, seen = new Set<object>()): boolean {
    if (node.isParallel) return true;
    if (!entry || seen.has(node)) return false;
    seen.add(node);
    return [...this.scope.typesOf(entry), ...this.scope.redefinedOf(entry)]
      .some((t) => (t.node.kind === 'Definition' || t.node.kind === 'Usage') && this.isParallelState(t.node, t, seen));
  }

  memberGroups(node: Usage | Definition, entry: ScopeEntry | undefined, seen = new Set<object>()): Member[][] {
    if (seen.has(node)) return [];
    seen.add(node);
    const own = [...(node.body ?? [])];
    if (!entry) return [own];
    const supertypes = [...this.scope.typesOf(entry), ...this.scope.redefinedOf(entry)];
    const branches: Member[][][] = [];
    for (const t of supertypes) {
      if (t.node.kind === 'Package') continue;
      branches.push(this.memberGroups(t.node, t, seen));
    }
    for (const t of supertypes) for (const m of t.node.kind === 'Package' ? [] : (t.node.body ?? [])) if (!this.origin.has(m)) this.origin.set(m, t);
    this.namingChecks(node, entry, own, branches);
    const replaced = new Set<string>();
    for (const m of own) {
      const n = memberName(m);
      if (n) replaced.add(n);
      // Any feature may redefine (a transition `transition :>> t1 …`, an accept or send action), not only usages.
      if ('relations' in m) for (const r of m.relations) if (r.relation === 'redefinition') replaced.add(lastSegment(r.target) ?? '');
    }
    const dropped = this.diamond(node, branches, replaced);
    const kept = branches.flat(1).map((g) => g.filter((m) => !replaced.has(memberName(m) ?? '') && !dropped.has(m))).filter((g) => g.length > 0);
    return [own, ...kept];
  }

  /**
   * An own member declared under the name of an inherited one without redefining it is another member,
   * which the supertype's own members never read (KerML 7.3.4.6): taken for the inherited one it would
   * change what they do, so it is refused, naming both. Parameters, ends and subjects keep their
   * implied redefinition; a parameter whose name is not that of the supertype's parameter at its
   * position is refused too (the position says which it redefines, the name another).
   */
  private namingChecks(node: Usage | Definition, entry: ScopeEntry, own: readonly Member[], branches: readonly Member[][][]): void {
    // Features: usages, and the features written with their own keyword (a transition, an accept, a send …).
    const feature = (m: Member): m is Member & FeatureHeader => m.kind === 'Usage' || (m.kind !== 'Definition' && m.kind !== 'Package' && 'relations' in m);
    for (const m of own) {
      if (!feature(m) || !m.name || (m.kind === 'Usage' && redefinesImplicitly(m)) || m.relations.some((r) => r.relation === 'redefinition')) continue;
      for (const x of branches.flat(2)) {
        if (!feature(x) || x === m || memberName(x) !== m.name || (x.kind === 'Usage' && redefinesImplicitly(x))) continue;
        const from = this.origin.get(x);
        const owner = from && from.node.kind !== 'Package' ? (from.node.name ?? '?') : '?';
        this.fail(unredefinedNameMessage(m.name, node.name ?? '?', m.kind === 'Usage' ? m.keyword : constructOf(m), `${owner}::${m.name} (${rangeText(from?.path ?? entry.path, x.nameRange ?? x.range)})`, owner), entry.path, m.nameRange ?? m.range);
      }
    }
    // Parameters redefine a supertype's by position (KerML): one whose name says another is refused.
    if (!POSITIONAL_PARAMETER_KINDS.has(node.keyword)) return;
    const params = own.filter(isOrderedParameter);
    for (const t of this.scope.typesOf(entry)) {
      // A parameter renamed in place (`action monitor : MonitorBattery { out batteryCharge; }`) is read as
      // before, a feature of its own, where that cannot differ: the one it redefines has no value and no
      // member of the supertypes (or of this element) names it.
      const used = (u: Usage) => u.value !== null || usageName(u) === null || this.namedIn([entry, t], usageName(u)!);
      const theirs = this.orderedParameters(t, new Set()).map((x) => ({ name: usageName(x.u), at: rangeText(x.path, x.u.nameRange ?? x.u.range), get used() { return used(x.u); } }));
      for (const [i, p] of params.entries()) {
        if (p.name === null || p.relations.some((r) => r.relation === 'redefinition')) continue;
        const message = parameterOrderMessage(p.name, i, node.name ?? '?', p.direction ?? 'in', theirs, t.name ?? '?');
        if (message) this.fail(message, entry.path, p.nameRange ?? p.range);
      }
    }
  }

  /** Whether a name is mentioned in the bodies of these elements or of the types they specialize. */
  private namedIn(entries: readonly ScopeEntry[], name: string): boolean {
    const names = new Set<string>();
    const seen = new Set<ScopeEntry>();
    const visit = (e: ScopeEntry): void => {
      if (seen.has(e) || e.node.kind === 'Package') return;
      seen.add(e);
      mentioned(e.node.body, names);
      for (const t of this.scope.typesOf(e)) visit(t);
    };
    for (const e of entries) visit(e);
    return names.has(name);
  }

  /** An element's parameters in order: its supertypes' first, each own one in the place of the one it replaces (by name, as memberGroups reads them). */
  private orderedParameters(entry: ScopeEntry, seen: Set<ScopeEntry>): { u: Usage; path: string }[] {
    if (seen.has(entry) || entry.node.kind === 'Package') return [];
    seen.add(entry);
    const out: { u: Usage; path: string }[] = [];
    for (const t of this.scope.typesOf(entry)) for (const p of this.orderedParameters(t, seen)) if (!out.some((x) => usageName(x.u) === usageName(p.u))) out.push(p);
    for (const u of (entry.node.body ?? []).filter(isOrderedParameter)) {
      const at = out.findIndex((x) => usageName(x.u) === usageName(u));
      if (at >= 0) out[at] = { u, path: entry.path };
      else out.push({ u, path: entry.path });
    }
    return out;
  }

  /**
   * Features two supertypes both give a value (`action def D :> B, C`, B and C each redefining `x`):
   * the one declared in the more specific type replaces the other, a bound value beats a default, and
   * otherwise the model gives the feature two values, which is refused with both places. Returns the
   * inherited members the others replace.
   */
  private diamond(node: Usage | Definition, branches: readonly Member[][][], replaced: ReadonlySet<string>): Set<Member> {
    const dropped = new Set<Member>();
    const first = new Map<string, { branch: number; m: Usage }>();
    const kind = (u: Usage) => (u.value!.isDefault ? 'default' : 'value');
    for (const [i, groups] of branches.entries()) {
      for (const g of groups) {
        for (const m of g) {
          if (m.kind !== 'Usage' || !m.value) continue;
          const n = memberName(m);
          if (!n || replaced.has(n)) continue;
          const prev = first.get(n);
          if (!prev) {
            first.set(n, { branch: i, m });
            continue;
          }
          if (prev.branch === i || prev.m === m) continue;
          const a = this.origin.get(prev.m);
          const b = this.origin.get(m);
          if ((b && a && this.specializes(b, a)) || (kind(prev.m) === 'default' && kind(m) === 'value')) {
            dropped.add(prev.m);
            first.set(n, { branch: i, m });
            continue;
          }
          if ((a && b && this.specializes(a, b)) || (kind(prev.m) === 'value' && kind(m) === 'default')) {
            dropped.add(m);
            continue;
          }
          const where = (e: ScopeEntry | undefined, u: Usage) => `${e && e.node.kind !== 'Package' ? (e.node.name ?? '?') : '?'} (${u.range.line}:${u.range.column})`;
          this.fail(
            inheritedTwiceMessage(n, kind(m) === 'default', where(a, prev.m), where(b, m), node.name),
            b?.path ?? '',
            m.range,
          );
        }
      }
    }
    return dropped;
  }

  /** An element as refusals name it: its qualified name and where it is declared. */
  private placeOf(e: ScopeEntry): string {
    return `${this.scope.qualifiedName(e) ?? usageName(e.node as Usage) ?? '?'} (${rangeText(e.path, e.node.nameRange ?? e.node.range)})`;
  }

  /** Whether the type `a` specializes `b`, transitively. */
  private specializes(a: ScopeEntry, b: ScopeEntry): boolean {
    return specializesThrough(a, b, (x) => this.scope.typesOf(x));
  }

  /** Where an inherited member was declared (its file and lexical scope), for its names and places. */
  private readonly origin = new WeakMap<object, ScopeEntry>();
  at(ctx: Ctx, m: Member): Ctx {
    const o = this.origin.get(m);
    return o ? { ...ctx, path: o.path, lexical: o } : ctx;
  }

  /**
   * The member written just before inherited member `m` in its own body, when an own member replaced it
   * (it is not in `group`): a `then X;` or shorthand transition there follows the replacing one.
   */
  private replacedBefore(m: Member, group: readonly Member[]): Member | undefined {
    const o = this.origin.get(m);
    if (!o || o.node.kind === 'Package') return undefined;
    const body = o.node.body ?? [];
    const i = body.indexOf(m);
    const p = i > 0 ? body[i - 1]! : undefined;
    return p && !group.includes(p) && memberName(p) ? p : undefined;
  }

  membersWithTypes(node: Usage | Definition, entry: ScopeEntry | undefined): Member[] {
    return this.memberGroups(node, entry).flat();
  }

  // ---- what is modeled (constructs.ts) -----------------------------------------------------------

  /** Refuses a member the semantics does not model at this place; checks a usage's relationships. */
  admit(m: Member, place: Place, ctx: Ctx): void {
    const construct = constructOf(m);
    const a = admission(construct, place, ctx.inSubject);
    const name = memberName(m);
    // An opaque behaviour: what it does is written in another language, which nothing here reads.
    if (a === 'refused' && m.kind === 'TextualRepresentation') this.fail(`an opaque behaviour: its body is a textual representation in '${m.language}', which is not modeled (what it does would be ignored)`, ctx.path, m.range);
    if (a === 'refused') this.fail(`${construct}${name ? ` '${name}'` : ''} is not modeled in ${PLACE_TEXT[place]}`, ctx.path, m.range);
    if (m.kind === 'Succession' || m.kind === 'Transition') {
      this.admitBody(m, `a ${construct}`, ctx);
      if (m.multiplicity) this.fail(`a multiplicity on a ${construct} is not modeled`, ctx.path, m.multiplicity.range);
      // `succession first [1] a then [0..1] b`: how many of one end's occurrences follow each of the
      // other's (KerML 7.4.6 Connectors, end multiplicities); the run performs each edge once per token.
      if (m.kind === 'Succession') {
        for (const e of [m.source, m.target]) {
          if (e?.multiplicity && !isOne(e.multiplicity)) this.fail(`a multiplicity ${multiplicityText(e.multiplicity)} on an end of a succession is not modeled (each succession is taken once per token)`, ctx.path, e.multiplicity.range);
        }
      }
    }
    if (a === 'modeled' && m.kind === 'Usage') this.admitUsage(m, ctx);
  }

  /** A succession's or transition's own body: annotations only. */
  admitBody(m: { body: readonly Member[] | null }, what: string, ctx: Ctx): void {
    for (const x of m.body ?? []) if (admission(constructOf(x), 'part', false) !== 'inert') this.fail(`${constructOf(x)} inside ${what} is not modeled`, ctx.path, x.range);
  }

  /** Relationships, multiplicity and modifiers of a usage in the closure: modeled ones only. */
  admitUsage(u: Usage, ctx: Ctx): void {
    const cls = relationClass(u);
    const name = usageName(u);
    const what = `${constructOf(u)}${name ? ` '${name}'` : ''}`;
    for (const r of u.relations) {
      if (!MODELED_RELATIONS[cls].includes(r.relation)) this.fail(`${RELATION_TEXT[r.relation] ?? r.relation} on ${what} is not modeled`, ctx.path, r.range);
      // A value feature that subsets another feature of the model shares its values: not modeled.
      if (r.relation === 'subsetting' && (cls === 'feature' || cls === 'port')) {
        const t = this.scope.resolveReference(ctx.lexical, r.target);
        if (t && t.node.kind === 'Usage' && t.node !== u) this.fail(`subsetting (:>) of '${referenceText(r.target)}', a feature of the model, on ${what} is not modeled`, ctx.path, r.range);
      }
    }
    if (u.portionKind) this.fail(`a ${u.portionKind} (${what}) is not modeled`, ctx.path, u.range);
    // `ref action a : A;` refers to an action performed elsewhere: it is not a subaction of the body
    // that declares it (not composite), so running it there would perform it once more.
    if (u.isRef && (cls === 'action' || cls === 'state')) this.fail(`a referential ${u.keyword} (ref ${what}) is not a step of the body that declares it: which performance it refers to is not modeled (perform it with 'perform', or drop 'ref')`, ctx.path, u.range);
    if (u.isEnd) this.fail(`an end feature (${what}) is not modeled`, ctx.path, u.range);
    if (u.isSufficient) this.fail(`a sufficient ('all') feature (${what}) is not modeled`, ctx.path, u.range);
    if (u.multiplicity && cls !== 'feature' && !isOne(u.multiplicity)) {
      this.fail(
        cls === 'perform' ? `'${name ?? what}' is performed with a multiplicity: several instances of a behaviour are not supported` : `a multiplicity on ${what}: several (or no) instances are not modeled`,
        ctx.path,
        u.multiplicity.range,
      );
    }
    // A value on a part, an action or a state would make it another element (`ref part d = p;`): not modeled.
    if (u.value && cls !== 'feature' && cls !== 'port' && cls !== 'constraint') this.fail(`a value (${u.value.isInitial ? ':=' : '='}) on ${what} is not modeled`, ctx.path, u.value.range);
    if (cls === 'feature' && u.keyword !== 'constraint' && u.body) for (const m of u.body) if (admission(constructOf(m), 'part', false) !== 'inert') this.fail(`${constructOf(m)} inside ${what} is not modeled`, ctx.path, m.range);
  }

  // ---- subjects -----------------------------------------------------------------------------------

  compileSubject(entry: ScopeEntry, subjectName: string): number[] {
    this.subjectEntry = entry;
    const node = entry.node;
    if (node.kind === 'Package') this.fail(`the subject ${subjectName} is a package: behaviour questions take an action, a state, or a part that performs or exhibits them`, entry.path, node.nameRange ?? node.range);
    const keyword = node.keyword;
    const ctx: Ctx = { container: -1, scope: [''], prefix: '', names: '', path: entry.path, lexical: entry, receiver: '', inlining: new Set([node]), inSubject: true };
    // Attributes of the subject's owners are visible by name (the subject's own come first).
    const own = this.membersWithTypes(node, entry);
    this.collectFeatures(own, ctx, 0, keyword === 'action' || keyword === 'state' ? 'subject' : 'none');
    // The owners' members on the way to the subject are the subject (or hold it): never a second copy of it.
    for (let c = entry, p = entry.parent; p; c = p, p = p.parent) if (p.node.kind !== 'Package') this.collectFeatures(this.membersWithTypes(p.node, p).filter((m) => m !== c.node), { ...ctx, lexical: p });
    if (keyword === 'action') return [this.callFor(node, entry, '', ctx).id];
    if (keyword === 'state') return [this.compileState(node, entry, -1, ctx, true, undefined, true)];
    if (keyword === 'part' || keyword === 'item' || keyword === 'occurrence') {
      const behaviors: number[] = [];
      this.performed(own, ctx, behaviors, 0, new Set());
      if (behaviors.length === 0) this.fail(`${subjectName} performs and exhibits no behaviour`, entry.path, node.nameRange ?? node.range);
      return behaviors;
    }
    return this.fail(`the subject ${subjectName} is ${keyword === 'def' ? 'a definition' : `a ${keyword}`}: behaviour questions take an action, a state, or a part that performs or exhibits them`, entry.path, node.nameRange ?? node.range);
  }

  /**
   * What `perform x;` (`exhibit x;`) names. The usage's own name is x's (its effective name), so x
   * resolved where it is written finds the usage itself: then x is what the owner's scope names.
   */
  private performedBy(m: Usage, ref: Reference, ctx: Ctx): ScopeEntry | undefined {
    const t = this.scope.resolveReference(ctx.lexical, ref);
    if (t?.node !== m || !ctx.lexical?.parent) return this.throughPerforms(t, m);
    return this.throughPerforms(this.scope.resolveReference(ctx.lexical.parent, ref), m);
  }

  /**
   * What an unnamed `perform x;` (`exhibit x;`) a name resolved to performs: such a usage takes x's name
   * (SysML: a perform's effective name is the performed feature's), so `x` written beside two of them,
   * or beside one a definition declares, may resolve to the other perform; that one performs x, which
   * is the behaviour. One of an owner around `m` (a part it is nested in performs it) is kept: `m`
   * references that performance.
   */
  private throughPerforms(t: ScopeEntry | undefined, m: Usage): ScopeEntry | undefined {
    for (let i = 0; i < 16 && t && t.node !== m; i++) {
      const u = t.node;
      if (u.kind !== 'Usage' || (u.role !== 'perform' && u.role !== 'exhibit') || u.name !== null || (u.body ?? []).length > 0) return t;
      // Kept when it is written in a namespace around m's (an enclosing part's performance).
      const owner = t.parent;
      const mine = this.scope.entryOf(m)?.parent;
      if (owner && mine && owner !== mine && this.encloses(owner, mine)) return t;
      const ref = u.relations.find((r) => r.relation === 'reference' || r.relation === 'typing')?.target;
      if (!ref || !owner?.parent) return t;
      t = this.scope.resolveReference(owner.parent, ref);
    }
    return t;
  }

  /** Whether scope entry `outer` holds `inner` (or is it). */
  private encloses(outer: ScopeEntry, inner: ScopeEntry): boolean {
    for (let x: ScopeEntry | undefined = inner; x; x = x.parent) if (x === outer) return true;
    return false;
  }

  /** Behaviours a part performs or exhibits, its nested parts' included. */
  private performed(members: readonly Member[], ctx: Ctx, out: number[], depth: number, above: ReadonlySet<string>, aboveRun: ReadonlyMap<Usage | Definition, Usage> = new Map()): void {
    // Behaviours performed here or by an enclosing part: a nested part performing one of their steps
    // (`perform providePower.generateTorque;`) is that step, run inside the behaviour already.
    const here = new Set(above);
    // The behaviour each perform/exhibit here runs, by the usage that runs it first (with those above):
    // `perform drive;` naming a behaviour already performed here or by an enclosing part references
    // that performance (ReferenceSubsetting: its values are among drive's, one by the default [1..1]),
    // never a second one.
    const run = new Map(aboveRun);
    const referenced = (m: Usage) => m.relations.find((r) => r.relation === 'reference' || (r.relation === 'typing' && m.body === null && m.name === null))?.target;
    for (const m of members) if (m.kind === 'Usage' && m.keyword === 'state' && m.role === null && m.direction === null && !run.has(m)) run.set(m, m);
    for (const m of members) if (m.kind === 'Usage' && (m.role === 'perform' || m.role === 'exhibit')) {
      const r = m.relations.find((x) => x.relation === 'reference' || x.relation === 'typing');
      const n = m.name ?? (r && r.target.kind === 'QualifiedName' ? lastSegment(r.target) : null);
      if (n) here.add(n);
      if (!run.has(m)) run.set(m, m);
      const ref = referenced(m);
      const t = ref && ref.kind === 'QualifiedName' ? this.performedBy(m, ref, ctx) : undefined;
      if (t && t.node.kind !== 'Package' && !run.has(t.node)) run.set(t.node, m);
    }
    for (const m of members) {
      this.admit(m, 'part', this.at(ctx, m));
      if (m.kind !== 'Usage') continue;
      const name = usageName(m);
      if (m.role === 'perform' || m.role === 'exhibit' || (m.keyword === 'state' && m.role === null)) {
        const ref = m.relations.find((r) => r.relation === 'reference' || (r.relation === 'typing' && m.body === null && m.name === null))?.target;
        if (ref && ref.kind === 'FeatureChain') {
          const head = ref.chain[0]!.segments.at(-1)!;
          if (here.has(head)) continue;
          this.fail(`performing '${referenceText(ref)}', a step of a behaviour this subject does not perform, is not modeled`, ctx.path, ref.range);
        }
        if (ref) {
          const t = this.performedBy(m, ref, ctx);
          const first = t && t.node.kind !== 'Package' ? run.get(t.node) : undefined;
          if (first && first !== m) {
            if ((m.body ?? []).length > 0 || (m.multiplicity !== null && m.multiplicity !== undefined)) this.fail(`'${referenceText(ref)}' is performed already (${rangeText(this.at(ctx, first).path, first.range)}): this ${m.role} references that performance, and adding to it here is not modeled`, ctx.path, ref.range);
            continue;
          }
        }
        if (m.multiplicity) this.fail(`'${name ?? referenceText(ref!)}' is performed with a multiplicity: several instances of a behaviour are not supported`, ctx.path, m.multiplicity.range);
        // `perform a;`, `perform action x references a;`, `exhibit s;`: the behaviour named, unless the
        // usage has a body of its own.
        let target: Usage | Definition = m;
        let entry = this.scope.entryOf(m);
        let named: Usage | Definition = m;
        if (ref) {
          const t = this.performedBy(m, ref, ctx);
          if (!t || t.node.kind === 'Package') this.fail(`cannot find '${referenceText(ref)}' (performed here)`, ctx.path, ref.range);
          named = t.node;
          // `perform a redefines b;` does what a and b both do: the usage's own groups (a by reference, b by redefinition).
          if ((m.body ?? []).length === 0 && !(entry && this.scope.redefinedOf(entry).length > 0)) {
            target = t.node;
            entry = t;
          }
        }
        const label = name ?? (ref ? lastSegment(ref) : null) ?? 'behavior';
        const isState = m.role === 'exhibit' || m.keyword === 'state' || target.keyword === 'state' || named.keyword === 'state';
        const inner: Ctx = { ...ctx, inlining: new Set([...ctx.inlining, target, named]), inSubject: false };
        if (isState) out.push(this.compileState(target, entry, -1, inner, true, label));
        else {
          out.push(this.callFor(target, entry, label, inner).id);
        }
      } else if ((m.keyword === 'part' || m.keyword === 'item' || m.keyword === 'occurrence') && name && m.role === null && !m.isRef) {
        if (depth >= 8) this.fail(`'${name}' is nested more than 8 parts deep: not modeled`, ctx.path, m.range);
        const entry = this.scope.entryOf(m);
        const key = join(ctx.prefix, name);
        const inner: Ctx = { ...ctx, prefix: key, scope: [key, ...ctx.scope], lexical: entry ?? ctx.lexical, receiver: key, names: `${key.split('.').map(q).join('.')}.`, inSubject: false };
        this.performed(this.membersWithTypes(m, entry), inner, out, depth + 1, here, run);
      }
    }
  }

  // ---- actions ----------------------------------------------------------------------------------

  private isFlowBody(members: readonly Member[]): boolean {
    return members.some(
      (m) =>
        m.kind === 'Succession' || m.kind === 'IfAction' || m.kind === 'LoopAction' || m.kind === 'ForAction' || m.kind === 'AcceptAction' ||
        m.kind === 'TerminateAction' || (m.kind === 'Usage' && (CONTROL.has(m.keyword) || ((m.keyword === 'action' || m.keyword === 'state') && m.direction === null))),
    );
  }

  /**
   * A call node for an action usage or definition: its body's flow, or (when the body has none) the
   * flow of the definition it is typed by; with no flow anywhere, an atomic action node instead.
   */
  callFor(node: Usage | Definition, entry: ScopeEntry | undefined, name: string, ctx: Ctx): ExecNode {
    const groups = this.memberGroups(node, entry);
    const members = groups.flat();
    const prefix = name === '' ? ctx.prefix : join(ctx.prefix, name);
    const inner: Ctx = {
      ...ctx,
      prefix,
      scope: name === '' ? ctx.scope : [prefix, ...ctx.scope],
      names: name === '' ? ctx.names : `${ctx.names}${q(name)}.`,
      lexical: entry ?? ctx.lexical,
      inSubject: name === '' && ctx.inSubject,
    };
    const variation = node.isVariation || (entry !== undefined && this.scope.typesOf(entry).some((t) => t.node.kind !== 'Package' && t.node.isVariation));
    if (variation) return this.variationCall(node, members, name, ctx, inner);
    // A body-less action (no flow, no assignment, no send) gives its out parameters values the model
    // does not compute: free inputs of the run (finish() refuses one that may run more than once).
    const bodyless = !this.isFlowBody(members) && !members.some((m) => m.kind === 'AssignAction' || m.kind === 'SendAction');
    const before = this.features.length;
    if (name !== '') {
      this.instances.add(prefix);
      this.bodylessOuts = [];
      this.collectFeatures(members, inner, 0, bodyless ? 'bodyless' : 'none');
    }
    const locals = this.features.slice(before).map((f) => f.key);
    if (!this.isFlowBody(members)) {
      for (const m of members) this.admit(m, 'atomic action', this.at(inner, m));
      const a = this.node('action', name === '' ? 'action' : name, ctx, node.nameRange ?? node.range);
      if (locals.length > 0 && name !== '') this.locals.set(a.id, { keys: locals, again: false });
      a.effects = this.effectsOf(members, inner);
      this.unordered.push([...a.effects]);
      if (this.bodylessOuts.length > 0 && name !== '') this.produced.set(a.id, this.bodylessOuts);
      this.bodylessOuts = [];
      return a;
    }
    this.bodylessOuts = [];
    const call = this.node('call', name === '' ? null : name, ctx, node.nameRange ?? node.range);
    if (locals.length > 0 && name !== '') this.locals.set(call.id, { keys: locals, again: false });
    if (name === '') call.name = '';
    this.flowBody(call, groups, { ...inner, container: call.id });
    return call;
  }

  /**
   * A variation action (`variation action def A { variant action a1; variant action a2; }`, or an
   * action typed by one): performing it performs exactly one of its variants (SysML 7.6.7 Variability:
   * an instance of a variation is an instance of one of its variants), so its flow is a choice among
   * them, each an outcome of its own. Only variant actions (and annotations) may be its members.
   */
  private variationCall(node: Usage | Definition, members: readonly Member[], name: string, ctx: Ctx, inner: Ctx): ExecNode {
    const variants: Usage[] = [];
    for (const m of members) {
      const construct = constructOf(m);
      if (m.kind === 'Usage' && m.role === 'variant' && m.keyword === 'action' && m.direction === null) variants.push(m);
      else if (admission(construct, 'action flow', false) !== 'inert') this.fail(`${construct} in a variation action is not modeled (its members are its variant actions)`, this.at(inner, m).path, m.range);
    }
    if (variants.length === 0) this.fail(`the variation action${name ? ` '${name}'` : ''} has no variant actions to perform`, inner.path, node.nameRange ?? node.range);
    if (name !== '') this.instances.add(inner.prefix);
    const call = this.node('call', name === '' ? null : name, ctx, node.nameRange ?? node.range);
    if (name === '') call.name = '';
    const body: Ctx = { ...inner, container: call.id };
    const start = this.node('start', null, body, node.range);
    call.bodyStart = start.id;
    const choice = this.node('decide', null, body, node.nameRange ?? node.range);
    start.succ = [choice.id];
    for (const v of variants) {
      const n = this.callFor(v, this.scope.entryOf(v), usageName(v) ?? this.autoName('variant'), body);
      choice.succ.push(n.id);
      choice.guards.push(null);
    }
    return call;
  }

  private anonymousCall(u: Usage, label: string, ctx: Ctx, inline = false): ExecNode {
    const call = this.node('call', null, ctx, u.range);
    call.name = label;
    // Known before the body is compiled: a terminate in it asks.
    if (inline) this.inlineBodies.add(call.id);
    const inner: Ctx = { ...ctx, container: call.id, names: `${label}.`, inSubject: false };
    const body = u.body ?? [];
    // Calc usages of an unnamed body (if, while, for) are read in the enclosing scope: bound features only.
    this.collectFeatures(body.filter(isCalcUsage), inner);
    if (this.isFlowBody(body)) this.flowBody(call, [body], inner);
    else {
      // A body of assignments and sends runs as one atomic step inside the call.
      for (const m of body) this.admit(m, 'atomic action', inner);
      const start = this.node('start', null, inner, u.range);
      call.bodyStart = start.id;
      if (body.some((m) => m.kind === 'AssignAction' || m.kind === 'SendAction')) {
        const a = this.node('action', label, { ...inner, names: '' }, u.range, true);
        a.effects = this.effectsOf(body, inner);
        this.checkBodyLocals(body, a.effects, inner);
        this.unordered.push([...a.effects]);
        start.succ = [a.id];
      }
    }
    return call;
  }

  /**
   * Atomic effects of an action body without flow: its assignments and sends, run in text order as one
   * move. SysML v2 does not order them (steps of a body without successions are unordered): where the
   * order matters, checkUnordered refuses.
   */
  effectsOf(members: readonly Member[], ctx: Ctx): Effect[] {
    const out: Effect[] = [];
    for (const m of members) {
      let e: Effect | null = null;
      if (m.kind === 'AssignAction') e = this.assignEffect(m.target, m.assigned, ctx, m.range);
      else if (m.kind === 'SendAction') e = this.sendEffect(m, ctx);
      else if (m.kind === 'AcceptAction') this.fail('an accept inside an atomic action (give the action a flow: first start; then accept …)', ctx.path, m.range);
      if (!e) continue;
      this.effectPaths.set(e, this.at(ctx, m).path);
      const from = this.origin.get(m);
      if (from) this.effectOrigins.set(e, from.name ?? '');
      out.push(e);
    }
    return out;
  }

  /** The file each atomic effect is written in (an inherited one's: its definition's). */
  private readonly effectPaths = new WeakMap<Effect, string>();
  /** The definition or feature an inherited atomic effect comes from, by name. */
  private readonly effectOrigins = new WeakMap<Effect, string>();
  /** The effects of each atomic body, which SysML v2 leaves unordered (checkUnordered). */
  private readonly unordered: Effect[][] = [];
  /** Each state's do action's effects (they run, atomically, in the move that enters it). */
  private readonly doEffects = new Map<number, { effects: Effect[]; path: string }>();

  /** Remembers the name an assignment target starts with (`x` of `x` and of `x.y`). */
  private noteTarget(path: readonly string[], e: Expression): void {
    while (e.kind === 'MemberAccess') e = e.target;
    if (e.kind === 'Name') this.targetNames.set(path, e.name);
  }

  private targetPath(e: Expression, ctx: Ctx): string[] {
    if (e.kind === 'Name') return [...e.name.segments];
    if (e.kind === 'MemberAccess') return [...this.targetPath(e.target, ctx), ...e.member.segments];
    return this.fail('the target of an assignment must be a feature (a name or a chain a.b)', ctx.path, e.range);
  }

  private assignEffect(target: Expression, value: Expression, ctx: Ctx, range: SourceRange): Effect {
    const e: Effect = { kind: 'assign', target: this.targetPath(target, ctx), expr: value, scope: ctx.scope, range };
    this.noteTarget(e.target, target);
    this.effectPaths.set(e, ctx.path);
    return e;
  }

  private signalOf(payload: Expression | null, ctx: Ctx, at: SourceRange): string {
    if (payload?.kind === 'Constructor') return this.signalType(lastSegment(payload.type) ?? '', this.scope.resolveReference(ctx.lexical, payload.type), ctx, payload.range);
    if (payload?.kind === 'Invocation') return this.signalType(lastSegment(payload.callee) ?? '', this.scope.resolveReference(ctx.lexical, payload.callee), ctx, payload.range);
    if (payload?.kind === 'Name') {
      // The payload of an accept written before in the same body (`accept s : Sig … do send s to p`):
      // the signal accepted is sent on, as the accepted type (checked in signalMatches).
      const accepted = payload.name.segments.length === 1 ? this.payloads.get(ctx.lexical)?.get(payload.name.segments[0]!) : undefined;
      if (accepted !== undefined) {
        this.forwarded.push({ signal: accepted, path: ctx.path, range: payload.range });
        return accepted;
      }
      const named = this.scope.resolve(ctx.lexical, payload.name);
      // `send s to p` with `s : Go` a feature: the signal is an instance of its type, Go.
      if (named?.node.kind === 'Usage') {
        const types = this.scope.typesOf(named).filter((t) => t.node.kind === 'Definition');
        if (types.length === 1) return this.signalType(types[0]!.name ?? '', types[0], ctx, payload.range);
        this.fail(`send ${payload.name.segments.join('::')}: the signal is the value of a feature ${types.length === 0 ? 'with no type' : 'with several types'}; which accepts it is not modeled (send new Sig() to p)`, ctx.path, payload.range);
      }
      return this.signalType(payload.name.segments.at(-1) ?? '', named, ctx, payload.range);
    }
    return this.fail('send needs a signal (send Sig() to p, send new Sig() to p)', ctx.path, payload?.range ?? at);
  }

  /**
   * Signals are matched by the type they are an instance of: a signal sent as `new Sub()` is accepted
   * by `accept s : Base` when Sub specializes Base (Transfers.kerml: an AcceptPerformance's payload is
   * typed by the accepted type, and a Sub is a Base). Types are named by their declared name; two
   * declarations of one name are refused (one would be taken for the other).
   */
  private readonly signalTypes = new Map<string, { entry: ScopeEntry | undefined; path: string; range: SourceRange }>();
  /** Per body, the accepts' payload names with their signal types, as compiled so far. */
  private readonly payloads = new Map<ScopeEntry | undefined, Map<string, string>>();
  /** Sends of an accepted payload (`send s to p`), as its accepted type. */
  private readonly forwarded: { signal: string; path: string; range: SourceRange }[] = [];
  /** Signal types an accept waits for (display name → its place). */
  readonly acceptedSignals = new Map<string, { path: string; range: SourceRange }>();

  private signalType(name: string, found: ScopeEntry | undefined, ctx: Ctx, range: SourceRange): string {
    const entry = found?.node.kind === 'Definition' ? found : undefined;
    const seen = this.signalTypes.get(name);
    if (!seen) this.signalTypes.set(name, { entry, path: ctx.path, range });
    else if (seen.entry !== entry && seen.entry !== undefined && entry !== undefined) {
      const a = this.scope.qualifiedName(seen.entry) ?? name;
      const b = this.scope.qualifiedName(entry) ?? name;
      this.fail(`the signal types ${b} and ${a} (${rangeText(seen.path, seen.range)}) share the name '${name}': signals are matched by type, and two types of one name are not told apart`, ctx.path, range);
    } else if (seen.entry === undefined && entry !== undefined) seen.entry = entry;
    return name;
  }

  /**
   * For each signal sent, the accepted signal types it is an instance of besides its own (its type's
   * supertypes among the types accepts wait for). A library type accepted (`accept s : Anything`) whose
   * instances the model's signals may be is refused.
   */
  signalMatches(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    const supertypes = (e: ScopeEntry): Set<ScopeEntry> => {
      const all = new Set<ScopeEntry>();
      const stack = [e];
      while (stack.length > 0) {
        const x = stack.pop()!;
        for (const t of this.scope.typesOf(x)) if (!all.has(t)) { all.add(t); stack.push(t); }
      }
      return all;
    };
    for (const [accepted, place] of this.acceptedSignals) {
      const a = this.signalTypes.get(accepted)?.entry;
      if (a === undefined) {
        if (this.sent.size > 0 && !this.sent.has(accepted) && LIBRARY_SIGNAL_SUPERTYPES.has(accepted)) {
          this.fail(`accept of the library type '${accepted}': which of the model's signals are instances of it is not modeled (accept the signal's own type)`, place.path, place.range);
        }
        continue;
      }
      for (const sent of this.sent) {
        if (sent === accepted) continue;
        const e = this.signalTypes.get(sent)?.entry;
        if (e !== undefined && supertypes(e).has(a)) {
          let set = out.get(sent);
          if (!set) out.set(sent, (set = new Set()));
          set.add(accepted);
        }
      }
    }
    // A payload sent on is sent as the type it was accepted as: exact only when no signal of a subtype
    // is sent (the one accepted may be one, and would be sent on as another type).
    for (const f of this.forwarded) {
      for (const [sent, set] of out) {
        if (set.has(f.signal)) this.fail(`send of an accepted ${f.signal}: the model also sends ${sent}, a subtype of ${f.signal}, so the signal sent on may be a ${sent}; sending on the accepted signal by its type is not modeled`, f.path, f.range);
      }
    }
    return out;
  }

  private receiverOf(to: Expression | null, ctx: Ctx): string {
    if (!to) return ctx.receiver;
    // `this` (KerML Base::things' `this`: the context occurrence, the part that performs or exhibits the
    // behaviour, or the subject itself) is the default receiver of an accept (Transfers.kerml
    // AcceptPerformance: `receiver default this`); `this.p` a part or port of it. `self` is the
    // performance the send is written in (an action or state), which no accept of the model waits on.
    let root: Expression = to;
    while (root.kind === 'MemberAccess') root = root.target;
    if (root.kind === 'Name' && root.name.segments.length === 1 && !root.name.isGlobal) {
      const word = root.name.segments[0]!;
      if (word === 'self') {
        this.fail(`send … to / accept … via '${this.targetPath(to, ctx).join('.')}': 'self' is the action or state performance the statement is written in; which behaviour receives a signal sent to it is not modeled (write 'this' for the performing part, or name a part or port)`, ctx.path, to.range);
      }
      if (word === 'this') {
        if (to === root) return ctx.receiver;
        const rest = this.targetPath(to, ctx).slice(1).join('.');
        const key = join(ctx.receiver, rest);
        if (this.parts.has(key) || this.ports.has(key)) return key;
        this.fail(`send … to / accept … via '${this.targetPath(to, ctx).join('.')}': '${rest}' is no part or port of the performing occurrence '${ctx.receiver || 'the subject'}'`, ctx.path, to.range);
      }
    }
    // A name or chain from a part or port of the instances that hold the statement, innermost first; its
    // first name must be that part or port where it is written (KerML 7.2.5: names resolve there).
    if ((to.kind === 'Name' && to.name.segments.length === 1) || (to.kind === 'MemberAccess' && root.kind === 'Name' && root.name.segments.length === 1 && !root.name.isGlobal)) {
      const path = this.targetPath(to, ctx);
      const rootName = (root as Extract<Expression, { kind: 'Name' }>).name;
      for (const p of ctx.scope) {
        const key = join(p, path.join('.'));
        if (!this.parts.has(key) && !this.ports.has(key)) continue;
        const decl = this.receiverDecls.get(join(p, path[0]!));
        const declared = decl && this.scope.entryOf(decl);
        const written = this.scope.resolve(ctx.lexical, rootName);
        if (declared && (!written || !this.scope.sameFeature(written, declared))) {
          this.fail(`send … to / accept … via '${path.join('.')}': '${path[0]}' names ${written ? this.placeOf(written) : 'nothing'} where it is written, but the run would deliver to ${this.placeOf(declared)} (KerML 7.2.5 Namespaces: names resolve where they are written); ${written ? 'rename one of them' : 'name it from where the statement is written'}, or qualify the name`, ctx.path, rootName.range);
        }
        return key;
      }
    }
    // What the name or chain names, resolved once.
    const named = this.chainEntry(to, ctx);
    // A referential part (or a part or port through one) is a part owned elsewhere: which one is not modeled.
    for (let x: Expression = to; ; x = (x as Extract<Expression, { kind: 'MemberAccess' }>).target) {
      const e = x === to ? named : this.chainEntry(x, ctx);
      if (e?.node.kind === 'Usage' && this.refInstances.has(e.node)) {
        this.fail(`send … to / accept … via '${this.targetPath(to, ctx).join('.')}': '${e.node.name ?? ''}' is a referential ${e.node.keyword} (ref): it refers to a ${e.node.keyword} owned elsewhere, possibly another ${e.node.keyword} of the model; which one receives the signal is not modeled`, ctx.path, to.range);
      }
      if (x.kind !== 'MemberAccess') break;
    }
    // An attribute holds values; it receives no signal (by its name or through a chain).
    if (named?.node.kind === 'Usage' && named.node.keyword === 'attribute') {
      this.fail(`send … to ${this.targetPath(to, ctx).join('.')}: an attribute receives no signal (send to a part, a port or the subject)`, ctx.path, to.range);
    }
    if (to.kind === 'Name') {
      // A name for the subject itself (`send S to worker` in worker's own behaviour, `to P::worker`):
      // the subject receives it, as a send with no receiver does.
      if (named !== undefined && named === this.subjectEntry) return '';
      // A feature of a definition named by its qualified name (`to P::Node::machine`): no one instance.
      if (named !== undefined && to.name.segments.length > 1 && named.parent?.node.kind === 'Definition') {
        this.fail(`send … to ${to.name.segments.join('::')}: a feature of the definition ${named.parent.node.name ?? ''}, named by its qualified name, is no one instance; which one receives the signal is not modeled (send … to a part of the subject, or to the subject itself)`, ctx.path, to.range);
      }
      if (to.name.segments.length === 1 && named !== undefined) return to.name.segments[0]!;
    }
    // `subject.port`, `owner.subject.port`: a chain through the subject itself reaches the subject (its own features).
    if (to.kind === 'MemberAccess' && this.subjectEntry !== undefined) {
      if (named === this.subjectEntry) return '';
      const chain: Expression[] = [];
      for (let x: Expression = to; x.kind === 'MemberAccess'; x = x.target) chain.unshift(x.target);
      const full = this.targetPath(to, ctx);
      for (const prefix of chain) {
        if (this.chainEntry(prefix, ctx) !== this.subjectEntry) continue;
        const rest = full.slice(this.targetPath(prefix, ctx).length).join('.');
        if (this.parts.has(rest) || this.ports.has(rest)) return rest;
      }
    }
    if (to.kind === 'MemberAccess' || to.kind === 'Name') {
      const path = this.targetPath(to, ctx).join('.');
      // A name (or chain) that names nothing the model declares receives nothing: the signal would be lost.
      if (named === undefined && !this.parts.has(path) && !this.ports.has(path)) {
        this.fail(`send … to / accept … via '${path}': the name resolves to nothing the model declares`, ctx.path, to.range);
      }
      return path;
    }
    return this.fail('send … to needs a part of the subject as the receiver', ctx.path, to.range);
  }

  /** The element a name or chain `a.b.c` written at ctx names, when the scope resolves it. */
  private chainEntry(e: Expression, ctx: Ctx): ScopeEntry | undefined {
    const links: QualifiedName[] = [];
    let cur: Expression = e;
    while (cur.kind === 'MemberAccess') { links.unshift(cur.member); cur = cur.target; }
    if (cur.kind !== 'Name') return undefined;
    links.unshift(cur.name);
    if (links.length === 1) return this.scope.resolve(ctx.lexical, links[0]!);
    return this.scope.resolveReference(ctx.lexical, { kind: 'FeatureChain', chain: links, range: e.range });
  }

  /** Last segments of every end of a connection, interface, binding, flow or message in the documents. */
  private connectedNames(): Set<string> {
    if (this.connected) return this.connected;
    const out = new Set<string>();
    const walk = (members: readonly Member[] | null) => {
      for (const m of members ?? []) {
        if (m.kind === 'Package') walk(m.members);
        else if (m.kind === 'Usage' || m.kind === 'Definition') {
          if (m.kind === 'Usage') for (const e of m.ends ?? []) {
            const last = lastSegment(e.target);
            if (last) out.add(last);
          }
          walk(m.body);
        }
      }
    };
    for (const d of this.scope.documents) walk(d.document.members);
    this.connected = out;
    return out;
  }

  /**
   * `send S to r` adds S to r's pending signals; with `via p` as well, p is only the sender. `send S via
   * p` alone sends through port p to what it is connected to: when nothing in the model connects p (no
   * connection, interface, binding, flow or message names it) the signal leaves the model and no
   * behaviour of it receives it (SysML 7.16.9); a connected port is refused (delivery over connections
   * is not modeled).
   */
  private sendEffect(m: SendAction, ctx: Ctx): Effect | null {
    const signal = this.signalOf(m.payload, ctx, m.range);
    if (m.via && !m.to) {
      const port = m.via.kind === 'Name' ? m.via.name.segments.at(-1) : m.via.kind === 'MemberAccess' ? m.via.member.segments.at(-1) : undefined;
      if (!port) this.fail('send … via needs a port (a name or a chain a.p)', ctx.path, m.via.range);
      if (this.connectedNames().has(port)) this.fail(`send … via '${port}', a port something in the model connects: delivery over connections and interfaces is not modeled (send … to a part instead)`, ctx.path, m.via.range);
      return null;
    }
    // No receiver: SendActionUsage leaves it to be determined (by, e.g., the sender's outgoing
    // connections; Transfers.kerml SendPerformance: `receiver [0..1]` has no default). The sender
    // (`this`) is not its receiver: delivering it there would answer for a model that says otherwise.
    if (!m.to) this.fail('send … with neither `to` nor `via`: SysML v2 leaves its receiver to be determined (SendActionUsage: "If no receiverArgument is given, then the receiver is to be determined by, e.g., outgoing Connections from the sender"; SendPerformance\'s receiver has no default), and the sending part is not it; which occurrence receives it is not modeled (write `send … to <part or port>`, or `to this` for the performing part)', ctx.path, m.range);
    this.sent.add(signal);
    const e: Effect = { kind: 'send', signal, receiver: this.receiverOf(m.to, ctx), range: m.range };
    this.effectPaths.set(e, ctx.path);
    return e;
  }

  private triggerOf(a: AcceptAction, ctx: Ctx): Trigger {
    if (a.receiver && a.triggerKind !== null) this.fail(`accept ${a.triggerKind} … via is not modeled`, ctx.path, a.receiver.range);
    if (a.triggerKind === 'at') return { kind: 'at', expr: a.triggerExpression! };
    if (a.triggerKind === 'after') return { kind: 'after', expr: a.triggerExpression! };
    if (a.triggerKind === 'when') return { kind: 'when', expr: a.triggerExpression! };
    const typed = a.payload?.relations.find((r) => r.relation === 'typing')?.target;
    const named = typed ? lastSegment(typed) : a.payload ? usageName(a.payload) : null;
    if (!named) this.fail('accept needs a signal type (accept s : Sig)', ctx.path, a.range);
    const entry = typed ? this.scope.resolveReference(ctx.lexical, typed) : this.scope.resolve(ctx.lexical, [named]);
    const signal = this.signalType(named, entry?.node.kind === 'Definition' ? entry : undefined, ctx, a.payload?.range ?? a.range);
    if (!this.acceptedSignals.has(signal)) this.acceptedSignals.set(signal, { path: ctx.path, range: a.payload?.range ?? a.range });
    if (typed && a.payload?.name) {
      let names = this.payloads.get(ctx.lexical);
      if (!names) this.payloads.set(ctx.lexical, (names = new Map()));
      names.set(a.payload.name, signal);
    }
    // `accept S via p`: signals sent to p (a port or part), not to the performing part (SysML 7.16.9: the receiver).
    return { kind: 'signal', signal, receiver: a.receiver ? this.viaReceiver(a.receiver, ctx) : ctx.receiver };
  }

  private viaReceiver(e: Expression, ctx: Ctx): string {
    if (e.kind !== 'Name' && e.kind !== 'MemberAccess') this.fail('accept … via needs a port or part (a name or a chain a.p)', ctx.path, e.range);
    return this.receiverOf(e, ctx);
  }

  /** The flow of an action body: nodes for its action members, edges for its successions. */
  /** The action steps of the flow bodies being compiled, outermost first (a `perform` of one is that step). */
  private readonly flowSteps: Set<Member>[] = [];

  flowBody(call: ExecNode, groups: readonly (readonly Member[])[], ctx: Ctx): void {
    this.flowSteps.push(new Set(groups.flat().filter((m) => m.kind === 'Usage' && m.direction === null && m.keyword === 'action' && m.role === null)));
    try {
      this.flowBodyIn(call, groups, ctx);
    } finally {
      this.flowSteps.pop();
    }
  }

  private flowBodyIn(call: ExecNode, groups: readonly (readonly Member[])[], ctx: Ctx): void {
    const outer = ctx;
    const start = this.node('start', null, ctx, call.range);
    call.bodyStart = start.id;
    const named = new Map<string, number>([['start', start.id]]);
    let done: ExecNode | undefined;
    /** `from` is a node, or a name resolved once the whole body is declared. */
    const edges: { from: number | QualifiedName; to: number | QualifiedName; guard: Expression | null; isElse: boolean; range: SourceRange; path: string }[] = [];
    const inherit: [number, number][] = [];
    const flows: { u: Usage; ctx: Ctx }[] = [];
    let prev: number | QualifiedName | undefined;

    const declare = (m: Member, ctx: Ctx): number | undefined => {
      switch (m.kind) {
        case 'Usage': {
          if (m.direction !== null) return undefined;
          const name = usageName(m);
          if (CONTROL.has(m.keyword)) {
            const n = this.node(m.keyword as NodeKind, name, ctx, m.nameRange ?? m.range);
            if (name) named.set(name, n.id);
            return n.id;
          }
          if (m.keyword === 'action' || (m.role === 'perform' && m.keyword !== 'state')) {
            const entry = this.scope.entryOf(m);
            let target: Usage | Definition = m;
            let targetEntry = entry;
            let refName: string | null = null;
            if ((m.body ?? []).length === 0) {
              // `perform a;` / `action x : A;` / `perform action x references a;`: the flow of what it names.
              for (const r of m.relations) {
                if (r.relation !== 'reference' && r.relation !== 'typing') continue;
                if (r.target.kind !== 'QualifiedName') this.fail('performing a feature chain inside an action flow is not supported', ctx.path, r.target.range);
                refName ??= lastSegment(r.target);
                let t = this.scope.resolveReference(entry ?? ctx.lexical, r.target);
                // `perform a;` takes a's name (its effective name): a resolved from it finds the usage itself; a is
                // what the owner's scope names.
                if (t?.node === m && entry?.parent?.parent) t = this.scope.resolveReference(entry.parent.parent, r.target);
                if (!t || t.node.kind === 'Package') {
                  if (m.role === 'perform' && r.relation === 'reference' && !m.relations.some((x) => x.relation === 'typing')) this.fail(`cannot find '${referenceText(r.target)}' (performed here)`, ctx.path, r.target.range);
                  continue;
                }
                if (ctx.inlining.has(t.node)) this.fail(`'${referenceText(r.target)}' performs itself (recursive behaviour is not supported)`, ctx.path, r.target.range);
                // `perform a;` beside (or inside) the step `action a` references a's performance (ReferenceSubsetting,
                // a [1]): the step itself, which its flow performs already.
                if (m.role === 'perform' && this.flowSteps.some((steps) => steps.has(t.node))) this.fail(`'${referenceText(r.target)}' is a step of this behaviour, performed already where it is declared (${rangeText(t.path, t.node.nameRange ?? t.node.range)}): this perform references that performance, and performing it from here is not modeled`, ctx.path, r.target.range);
                target = t.node;
                targetEntry = t;
                break;
              }
            }
            const label = name ?? refName ?? this.autoName('action');
            // A usage that also redefines one (`perform a redefines b;`, `action :>> b : B;`) does what both do: its own members' groups.
            const whole = (m.body && m.body.length > 0) || (entry !== undefined && this.scope.redefinedOf(entry).length > 0);
            const n = this.callFor(whole ? m : target, whole ? entry : targetEntry, label, { ...ctx, inlining: new Set([...ctx.inlining, target, m]) });
            named.set(label, n.id);
            return n.id;
          }
          if (m.keyword === 'state') this.fail('a state inside an action flow is not supported', ctx.path, m.nameRange ?? m.range);
          if (m.keyword === 'flow' || m.keyword === 'succession flow') {
            flows.push({ u: m, ctx });
            return undefined;
          }
          return undefined;
        }
        case 'AssignAction': {
          const n = this.node('assign', m.name, ctx, m.range);
          n.expr = m.assigned;
          n.target = this.targetPath(m.target, ctx);
          this.noteTarget(n.target, m.target);
          if (m.name) named.set(m.name, n.id);
          return n.id;
        }
        case 'SendAction': {
          const n = this.node('send', m.name, ctx, m.range);
          n.effects = [this.sendEffect(m, ctx)].filter((x): x is Effect => x !== null);
          if (m.name) named.set(m.name, n.id);
          return n.id;
        }
        case 'AcceptAction': {
          const n = this.node('accept', m.name ?? (m.payload?.name && !named.has(m.payload.name) ? m.payload.name : null), ctx, m.range);
          n.trigger = this.triggerOf(m, ctx);
          // Only `action waitGo accept go : Go;` names the accept: in `accept waitGo : Go;` waitGo is the
          // payload parameter, a feature of the accept that a succession beside it cannot name (the
          // node keeps it as a label for witnesses).
          if (m.name) named.set(m.name, n.id);
          return n.id;
        }
        case 'TerminateAction': {
          const n = this.node('terminate', m.name, ctx, m.range);
          if (m.name) named.set(m.name, n.id);
          n.terminates = m.target ? this.terminated(m.target, ctx) : this.terminatedByDefault(ctx, m.range);
          return n.id;
        }
        case 'IfAction':
          return this.ifNode(m, ctx, inherit).id;
        case 'LoopAction':
          return this.loopNode(m, ctx, inherit).id;
        case 'ForAction':
          return this.forNode(m, ctx).id;
        case 'Transition':
          return this.fail('a transition inside an action flow is not supported', ctx.path, m.range);
        default:
          return undefined;
      }
    };

    // Each group (own members, then each inherited definition's) reads `then X;` after its own members.
    for (const [m, first, g] of groups.flatMap((g) => g.map((x, i): [Member, boolean, readonly Member[]] => [x, i === 0, g]))) {
      if (first) prev = undefined;
      // `then X;` after an inherited member that an own member replaced follows the replacing one.
      const replaced = this.replacedBefore(m, g);
      const rn = replaced && memberName(replaced);
      const step = replaced && (replaced.kind !== 'Usage' || (replaced.direction === null && (replaced.keyword === 'action' || CONTROL.has(replaced.keyword) || (replaced.role === 'perform' && replaced.keyword !== 'state'))));
      if (rn && step) prev = { kind: 'QualifiedName', segments: [rn], segmentStarts: [m.range.start], isGlobal: false, range: m.range };
      const ctx = this.at(outer, m);
      this.admit(m, 'action flow', ctx);
      if (m.kind === 'Succession') {
        const s: Succession = m;
        const srcRef = s.source?.target;
        const from = srcRef ? (srcRef.kind === 'QualifiedName' ? srcRef : null) : null;
        if (srcRef && !from) this.fail('a succession from a feature chain is not supported', ctx.path, srcRef.range);
        let fromId: number | QualifiedName | undefined = from ?? prev;
        if (s.form === 'first' && !s.target && !s.targetMember) {
          // `first start;` only says where the flow begins.
          prev = from ? (named.get(from.segments.join('::')) ?? undefined) : prev;
          continue;
        }
        let to: number | QualifiedName | undefined;
        if (s.targetMember) {
          this.admit(s.targetMember, 'action flow', ctx);
          to = declare(s.targetMember, ctx);
          if (to === undefined) this.fail('this succession target is not an action', ctx.path, s.targetMember.range);
        } else if (s.target) {
          const t = s.target.target;
          if (t.kind !== 'QualifiedName') this.fail('a succession to a feature chain is not supported', ctx.path, t.range);
          to = t;
        }
        if (fromId === undefined) this.fail('this succession has no source (nothing before it)', ctx.path, s.range);
        if (typeof fromId === 'number' && fromId < 0) this.fail('this succession follows a calc usage, which it would make a step of the flow: a calc performed in the flow is not modeled (put the succession after an action)', ctx.path, s.range);
        if (to === undefined) continue;
        edges.push({ from: fromId, to, guard: s.guard, isElse: s.form === 'else', range: s.range, path: ctx.path });
        if (s.targetMember) prev = to as number;
        else if (s.form === 'first' || s.form === 'succession') prev = undefined;
        continue;
      }
      const id = declare(m, ctx);
      if (id !== undefined) prev = id;
      // `then X;` right after a calc usage would succeed the calc (a step of the flow), which is not modeled.
      else if (isCalcUsage(m)) prev = -1 - this.nodes.length;
    }

    const resolveName = (q: QualifiedName, range: SourceRange, path: string): number => {
      const n = q.segments.join('::');
      if (n === 'done') {
        done ??= this.node('done', null, ctx, range);
        return done.id;
      }
      const id = named.get(n);
      if (id === undefined) this.fail(`no action named '${n}' in this flow`, path, q.range);
      return id;
    };
    const incoming = new Set<number>();
    for (const e of edges) {
      const from = typeof e.from === 'number' ? e.from : resolveName(e.from, e.range, e.path);
      const to = typeof e.to === 'number' ? e.to : resolveName(e.to, e.range, e.path);
      const src = this.nodes[from]!;
      // The same succession twice (an own one and the inherited one it repeats) orders the same two
      // steps: one edge, not a second token.
      if (!e.guard && !e.isElse && src.succ.some((t, i) => t === to && src.guards[i] === null && src.elseIndex !== i)) continue;
      if (e.isElse) src.elseIndex = src.succ.length;
      src.succ.push(to);
      src.guards.push(e.guard);
      incoming.add(to);
    }
    for (const f of flows) if (f.u.keyword === 'succession flow') this.flow(f.u, f.ctx, named, incoming);
    // A body continues with what follows the node that holds it; in an `else if` chain that node is itself
    // a body (the inner if), so follow the chain to the outermost node: its successors are the body's.
    const heldBy = new Map(inherit);
    for (const [callId, fromId] of inherit) {
      let root = fromId;
      while (heldBy.has(root)) root = heldBy.get(root)!;
      this.nodes[callId]!.succ = this.nodes[root]!.succ;
      this.nodes[callId]!.inheritsSucc = true;
    }
    // Actions with no incoming succession start when the behaviour starts: every action of a body is
    // performed (SysML 7.16.3), the successions only order them — also beside an explicit `first start`.
    for (const n of this.nodes) {
      if (n.container !== ctx.container || n.id === start.id || incoming.has(n.id) || n.kind === 'done' || n.kind === 'start') continue;
      if (n.kind === 'join' || n.kind === 'merge') continue;
      if (this.isInlineBody(n)) continue;
      start.succ.push(n.id);
    }
    // An action that is the target of successions from several places is performed once, after all of
    // them (a merge is how to continue after any one): the token semantics would perform it per arrival.
    const sources = new Map<number, Set<number>>();
    for (const n of this.nodes) {
      // Loop bodies going back to their head are the loop's own structure, not successions.
      if (n.container !== ctx.container || n.inheritsSucc || this.isInlineBody(n) || n.kind === 'decide' || n.kind === 'fork') continue;
      for (const t of n.succ) sources.set(t, (sources.get(t) ?? new Set()).add(n.id));
    }
    for (const n of this.nodes) {
      if (n.kind === 'decide' || n.kind === 'fork') for (const t of n.succ) sources.set(t, (sources.get(t) ?? new Set()).add(n.id));
    }
    for (const [t, from] of sources) {
      const n = this.nodes[t]!;
      if (from.size < 2 || n.kind === 'join' || n.kind === 'merge' || n.kind === 'done' || n.container !== ctx.container) continue;
      const why = this.implicitJoinRefusal(n, from, ctx.container, start.id);
      if (why !== undefined) {
        this.fail(`'${n.name}' is the target of successions from ${[...from].map((f) => `'${this.nodes[f]!.name || 'start'}'`).join(' and ')}: it is performed once, after all of them, which is modeled only where each of them is performed once (${why}; a merge continues after any one, a join after all)`, n.path, n.range);
      }
      // Performed once, after all of them: an implicit join before it takes their successions (the
      // machine's join waits for a token along every incoming succession).
      const j = this.node('join', null, ctx, n.range);
      for (const f of from) {
        const src = this.nodes[f]!;
        for (let i = 0; i < src.succ.length; i++) if (src.succ[i] === t) src.succ[i] = j.id;
      }
      j.succ = [t];
      j.guards = [null];
    }
    // A plain flow transfers when its source ends only if its target cannot start before; otherwise its
    // parameters stay outside the model (reading either is refused where it is read).
    for (const f of flows) if (f.u.keyword === 'flow' && this.flowOrdered(f.u, f.ctx, named, start.id)) this.flow(f.u, f.ctx, named, incoming);
  }

  /** The two ends of a flow in this action flow: `a.p` where `a` is an action here and `p` its parameter. */
  private flowEnds(u: Usage, ctx: Ctx, named: ReadonlyMap<string, number>): { node: number; key: string }[] {
    const what = `flow${u.name ? ` '${u.name}'` : ''}`;
    if (!u.ends || u.ends.length !== 2) this.fail(`a ${what} without a source and a target end is not modeled`, ctx.path, u.range);
    if (u.body && u.body.length > 0) this.fail(`a ${what} with a body is not modeled`, ctx.path, u.body[0]!.range);
    return u.ends.map((e, i) => {
      const t = e.target;
      if (e.multiplicity) this.fail(`a multiplicity on a flow end is not modeled`, ctx.path, e.multiplicity.range);
      const links = t.kind === 'FeatureChain' ? t.chain : [t];
      if (links.length !== 2 || links.some((l) => l.segments.length !== 1)) {
        this.fail(`the ${what} end '${referenceText(t)}' is not modeled: a flow end must be a parameter of an action in this flow (a.p)`, ctx.path, t.range);
      }
      const action = links[0]!.segments[0]!;
      const node = named.get(action);
      if (node === undefined || (this.nodes[node]!.kind !== 'action' && this.nodes[node]!.kind !== 'call')) {
        this.fail(`the ${what} end '${referenceText(t)}' is not modeled: '${action}' is not an action of this flow`, ctx.path, t.range);
      }
      const key = join(join(ctx.prefix, action), links[1]!.segments[0]!);
      const param = this.params.get(key);
      const dir = param?.usage.direction;
      const ok = i === 0 ? dir === 'out' || dir === 'inout' : dir === 'in' || dir === 'inout';
      if (!param || !ok) this.fail(`the ${what} end '${referenceText(t)}' is not ${i === 0 ? 'an out' : 'an in'} parameter of '${action}'`, ctx.path, t.range);
      if (param.usage.value) this.fail(`a parameter with a value ('${referenceText(t)}') at a flow end is not modeled`, ctx.path, param.usage.value.range);
      return { node, key };
    });
  }

  /**
   * A flow transfers the value of its source parameter to its target parameter when the source action
   * ends (SysML 7.13 Flows; KerML 8.4.8 Transfers); both parameters become features of the state. A
   * succession flow is also a succession: the target starts after the source ends (an edge).
   */
  private flow(u: Usage, ctx: Ctx, named: ReadonlyMap<string, number>, incoming: Set<number>): void {
    const [src, tgt] = this.flowEnds(u, ctx, named);
    const source = this.nodes[src!.node]!;
    if (source.kind !== 'action') this.fail(`a flow from '${source.name}', an action with its own flow, is not modeled (only from an atomic action)`, ctx.path, u.range);
    for (const k of [src!.key, tgt!.key]) {
      const p = this.params.get(k)!;
      this.opaque.delete(k);
      this.addFeature(k, p.usage, p.ctx);
    }
    source.effects.push({ kind: 'transfer', from: src!.key, to: tgt!.key, range: u.range });
    if (u.keyword === 'succession flow' && !source.succ.includes(tgt!.node)) {
      source.succ.push(tgt!.node);
      source.guards.push(null);
      incoming.add(tgt!.node);
    }
  }

  /** Whether every path from the flow's start to the flow's target passes its source. */
  private flowOrdered(u: Usage, ctx: Ctx, named: ReadonlyMap<string, number>, start: number): boolean {
    const [src, tgt] = this.flowEnds(u, ctx, named);
    const seen = new Set<number>([src!.node]);
    const stack = [start];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id < 0 || seen.has(id)) continue;
      seen.add(id);
      if (id === tgt!.node) return false;
      const n = this.nodes[id]!;
      stack.push(...n.succ, n.thenNode, n.elseNode, n.body, n.head);
    }
    return true;
  }

  private readonly inlineBodies = new Set<number>();
  /**
   * Why an action that several successions lead to cannot be taken as performed once after all of
   * them, as an implicit join (undefined: it can). That reading holds where each source is performed
   * once: no source is a decision (one of its successions is taken), no succession of the flow is
   * guarded, the flow has no decision or merge node (a source on a branch not taken, or reached twice),
   * every source is reached from the flow's start, and the action is on no cycle of successions.
   */
  private implicitJoinRefusal(n: ExecNode, from: ReadonlySet<number>, container: number, start: number): string | undefined {
    for (const f of from) if (this.nodes[f]!.kind === 'decide') return `'${this.nodes[f]!.name}' is a decision: only one of its successions is taken`;
    for (const m of this.nodes) {
      if (m.container !== container || m.inheritsSucc) continue;
      if (m.kind === 'decide' || m.kind === 'merge') return `the flow has the ${m.kind === 'decide' ? 'decision' : 'merge'} node '${m.name}', after which an action may not be performed, or be performed again`;
      if (m.guards.some((g) => g !== null) || m.elseIndex >= 0) return `the succession from '${m.name || 'start'}' is guarded, so what follows it may not be performed`;
    }
    // A source no path from the start reaches (only from a cycle of successions) is never performed.
    const reached = new Set<number>();
    const todo = [start];
    while (todo.length > 0) {
      const id = todo.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      const m = this.nodes[id]!;
      if (m.container === container) todo.push(...m.succ);
    }
    for (const f of from) if (!reached.has(f)) return `no succession path from the start reaches '${this.nodes[f]!.name}', which follows only a cycle of successions`;
    const seen = new Set<number>();
    const stack = [...n.succ];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === n.id) return `it is on a cycle of successions`;
      if (seen.has(id)) continue;
      seen.add(id);
      const m = this.nodes[id]!;
      if (m.container === container) stack.push(...m.succ);
    }
    return undefined;
  }

  private isInlineBody(n: ExecNode): boolean {
    return this.inlineBodies.has(n.id);
  }

  private bodyCall(u: Usage, label: string, ctx: Ctx): ExecNode {
    return this.anonymousCall(u, label, ctx, true);
  }

  private ifNode(m: IfAction, ctx: Ctx, inherit: [number, number][]): ExecNode {
    const n = this.node('if', m.name, ctx, m.range);
    n.expr = m.condition;
    const thenCall = this.bodyCall(m.then, `${n.name}.then`, ctx);
    n.thenNode = thenCall.id;
    inherit.push([thenCall.id, n.id]);
    if (m.else) {
      if (m.else.kind === 'IfAction') {
        const e = this.ifNode(m.else, ctx, inherit);
        this.inlineBodies.add(e.id);
        n.elseNode = e.id;
        inherit.push([e.id, n.id]);
      } else {
        const e = this.bodyCall(m.else, `${n.name}.else`, ctx);
        n.elseNode = e.id;
        inherit.push([e.id, n.id]);
      }
    }
    return n;
  }

  private loopNode(m: LoopAction, ctx: Ctx, inherit: [number, number][]): ExecNode {
    const label = m.name ?? m.bodyAction.name;
    const head = this.node('loop', label, ctx, m.range);
    head.expr = m.condition;
    const prefix = m.bodyAction.name ? join(ctx.prefix, m.bodyAction.name) : ctx.prefix;
    const inner: Ctx = { ...ctx, prefix, scope: prefix === ctx.prefix ? ctx.scope : [prefix, ...ctx.scope] };
    if (m.bodyAction.name) {
      this.instances.add(prefix);
      const before = this.features.length;
      this.collectFeatures(m.bodyAction.body ?? [], inner);
      const locals = this.features.slice(before).map((f) => f.key);
      if (locals.length > 0) this.locals.set(head.id, { keys: locals, again: true });
    }
    const body = this.bodyCall(m.bodyAction, m.bodyAction.name ? head.name : `${head.name}.body`, inner);
    head.body = body.id;
    if (m.until) {
      const u = this.node('until', `${head.name}.until`, { ...ctx, names: '' }, m.until.range, true);
      u.expr = m.until;
      u.head = head.id;
      this.inlineBodies.add(u.id);
      body.succ = [u.id];
      inherit.push([u.id, head.id]);
    } else body.succ = [head.id];
    return head;
  }

  private forNode(m: ForAction, ctx: Ctx): ExecNode {
    const n = this.node('for', m.name, ctx, m.range);
    n.expr = m.collection;
    const variable = usageName(m.variable) ?? 'x';
    n.forVar = join(n.name, variable);
    this.hiddenFeature(`${n.name}#i`, ctx, m.range);
    this.hiddenFeature(`${n.name}#s`, ctx, m.range);
    this.hiddenFeature(n.forVar, ctx, m.variable.range);
    this.instances.add(n.name);
    const inner: Ctx = { ...ctx, scope: [n.name, ...ctx.scope] };
    const body = this.bodyCall(m.bodyAction, `${n.name}.body`, inner);
    n.body = body.id;
    body.succ = [n.id];
    return n;
  }

  // ---- states -----------------------------------------------------------------------------------

  /** A state (machine) node with its substates, entry/do/exit effects and transitions. */
  compileState(node: Usage | Definition, entry: ScopeEntry | undefined, parent: number, ctx: Ctx, top: boolean, label?: string, isSubject = false): number {
    const name = label ?? (node.kind === 'Usage' ? usageName(node) : node.name) ?? 'state';
    const s = this.node('state', name, ctx, node.nameRange ?? node.range);
    this.stateNames.set(s.id, name);
    s.parentState = parent;
    // Parallel when declared so, or typed by (or redefining) a parallel state: `exhibit state beh : Beh;`
    // with `state def Beh parallel { … }` has Beh's regions (they were never entered, at proved).
    s.parallel = this.isParallelState(node, entry);
    // Own members, then those inherited from the state definitions it is typed by (redefined ones replaced).
    const groups = this.memberGroups(node, entry);
    const body: readonly Member[] = groups.flat();
    // The subject's own states are named relative to it (`running.a`); an exhibited machine keeps its name (`ping.lights.red`).
    const inner: Ctx = { ...ctx, container: s.id, names: isSubject ? '' : `${s.name}.`, lexical: entry ?? ctx.lexical, inSubject: isSubject && ctx.inSubject };
    const before = this.features.length;
    this.collectFeatures(body, { ...ctx, lexical: inner.lexical });
    // A nested state may be entered again (each entry a new performance): assumed so.
    if (!top) {
      const locals = this.features.slice(before).map((f) => f.key);
      if (locals.length > 0) this.locals.set(s.id, { keys: locals, again: true });
    }
    const pending: { t: Transition | Succession; source: string | 'entry' | number | null; range: SourceRange; target?: number; ctx: Ctx }[] = [];
    let prev: number | string | null = null;
    const entryNames = new Set<string>();
    const subactions = new Map<string, { m: Member; path: string; range: SourceRange }>();
    for (const [m, first, g] of groups.flatMap((g) => g.map((x, i): [Member, boolean, readonly Member[]] => [x, i === 0, g]))) {
      if (first) prev = null;
      // A shorthand transition after an inherited state that an own one replaced leaves the replacing one.
      const replaced = this.replacedBefore(m, g);
      if (replaced?.kind === 'Usage' && replaced.keyword === 'state' && replaced.direction === null) prev = memberName(replaced);
      const mc = this.at(inner, m);
      this.admit(m, 'state', mc);
      if (m.kind === 'Usage' && m.keyword === 'state' && m.direction === null) {
        const c = this.compileState(m, this.scope.entryOf(m), s.id, mc, false);
        s.children.push(c);
        prev = c;
      } else if (m.kind === 'StateSubaction') {
        // One entry (do, exit) action per state (StateUsage::entryAction is [0..1]): a state's own and one
        // it inherits (from its definition, or a state it redefines) are two, and whether the own one
        // replaces the inherited one (redefines it) or both are performed is not said.
        const before = m.action ? subactions.get(m.which) : undefined;
        if (before) this.fail(`'${name}' has two ${m.which} actions, this one and the one at ${before.path}:${before.range.line}:${before.range.column}${this.origin.has(m) || this.origin.has(before.m) ? ' (one inherited from a state or definition it specializes or redefines)' : ''}: whether one replaces the other or both are performed is not modeled`, mc.path, m.range);
        if (m.action) subactions.set(m.which, { m, path: mc.path, range: m.range });
        const effects = m.action ? this.subactionEffects(m.action, mc) : [];
        if (m.which === 'entry' || m.which === 'do') s.effects.push(...effects);
        else s.exitEffects.push(...effects);
        if (m.which === 'do' && effects.length > 0) this.doEffects.set(s.id, { effects, path: mc.path });
        // `entry; then S;` and `entry action a; then S;` name the initial state (so does `transition a then S;`).
        // A transition written without a source after `do` or `exit` has none (see 'no source' below).
        prev = m.which === 'entry' ? 'entry' : null;
        if (m.which === 'entry' && m.action?.kind === 'Usage' && m.action.name) entryNames.add(m.action.name);
      } else if (m.kind === 'Transition') {
        const src = m.source ? (m.source.kind === 'QualifiedName' ? m.source.segments.join('.') : m.source.chain.map((q) => q.segments.join('.')).join('.')) : prev;
        // A transition from the state's `start` (Action::start) is its initial transition, as `entry; then S;`.
        pending.push({ t: m, source: src === 'start' ? 'entry' : src, range: m.range, ctx: mc });
      } else if (m.kind === 'Succession') {
        const src: number | string | null = m.source ? referenceText(m.source.target) : prev;
        if (m.form === 'first' && !m.target) {
          // `first s;` names where the next `then` starts from.
          prev = src === 'start' ? 'entry' : src;
          continue;
        }
        if (m.targetMember) {
          // `then state S { … }`: the target declared in place.
          const tm = m.targetMember;
          if (tm.kind !== 'Usage' || tm.keyword !== 'state') this.fail('the target of a succession in a state must be a state', mc.path, tm.range);
          const c = this.compileState(tm, this.scope.entryOf(tm), s.id, mc, false);
          s.children.push(c);
          pending.push({ t: m, source: src === 'start' ? 'entry' : src, range: m.range, target: c, ctx: mc });
          prev = c;
          continue;
        }
        pending.push({ t: m, source: src === 'start' ? 'entry' : src, range: m.range, ctx: mc });
      } else if (m.kind === 'Usage') {
        // A feature other than a state: a transition written without a source right after it has none.
        prev = null;
      }
    }
    // `soft`: undefined for a name not found yet (a state declared after this one's enclosing state).
    const find = (ref: string, range: SourceRange, path = ctx.path, soft = false): number | undefined => {
      const segs = ref.split(/\.|::/);
      // From this state's children outward through the enclosing states (KerML: a name is looked up in
      // the namespace it is written in, then in its owners; `Working.Step1` / `Working::Step1` by path).
      let top = s.id;
      for (let scope: number = s.id; scope >= 0; scope = this.nodes[scope]!.parentState) {
        let cur: number | undefined = scope;
        for (const seg of segs) cur = cur === undefined ? undefined : this.nodes[cur]!.children.find((c) => this.simpleName(c) === seg);
        if (cur !== undefined) return cur;
        top = scope;
      }
      if (soft) return undefined;
      // `done` is the own end (Action::done, inherited) of the state whose body the transition is written
      // in (the machine's end in its own body; see `completes`), unless a state the model declares takes
      // the name where the transition is written: an owned member hides an inherited one (KerML name
      // resolution), so `then done` enters that state.
      if (ref === 'done') return -1;
      // Not visible from here: a state nested deeper in the machine (`start then Step1;` with Step1 inside
      // Working, OpenSysML's reading), when exactly one has that name (or path).
      const nested = this.nestedStates(top, segs);
      if (nested.length === 1) {
        const found = this.nodes[nested[0]!]!;
        const note = `${path}:${range.line}:${range.column}: '${ref}' names no state visible here (KerML name resolution; \`assay parse\` reports it unresolved); read as the only state so named, '${found.name}' at ${found.path}:${found.range.line}:${found.range.column} (OpenSysML's reading; SysML v2 names it by its path)`;
        if (!this.readings.includes(note)) this.readings.push(note);
        return nested[0]!;
      }
      if (nested.length > 1) {
        const places = nested.map((id) => `'${this.nodes[id]!.name}' (${this.nodes[id]!.path}:${this.nodes[id]!.range.line}:${this.nodes[id]!.range.column})`).join(', ');
        this.fail(`'${ref}' names no state of this body or of the states around it, and ${nested.length} nested states have that name: ${places}; name the one meant by its path`, path, range);
      }
      return this.fail(`no state named '${ref}' here`, path, range);
    };
    /** Adds one pending transition; false (with nothing added) when a name it needs is not compiled yet. */
    const add = (p: typeof pending[number], soft: boolean): boolean => {
      const t = p.t;
      const targetRef = t.kind === 'Transition' ? t.target : (t.target?.target ?? null);
      if (!targetRef && p.target === undefined) this.fail('a transition needs a target state (then S)', p.ctx.path, t.range);
      const target = p.target ?? find(referenceText(targetRef!).replace(/::/g, '.'), targetRef!.range, p.ctx.path, soft);
      if (target === undefined) return false;
      if (p.source === 'entry' || (typeof p.source === 'string' && entryNames.has(p.source))) {
        // `entry; then S;` (SysML BNF EntryTransitionMember) names the state entered by default: one of
        // this state's own substates (or one nested in them), entered unconditionally.
        if (target < 0) this.fail(`an initial transition to done is not modeled ('${name}' would end as it is entered)`, p.ctx.path, t.range);
        if (!this.isInside(target, s.id)) this.fail(`the initial state of '${name}' must be one of its substates; '${this.nodes[target]!.name}' is not`, p.ctx.path, t.range);
        if (t.guard || (t.kind === 'Transition' && (t.trigger || t.effect))) this.fail(`an initial transition with a ${t.guard ? 'guard' : t.kind === 'Transition' && t.trigger ? 'trigger' : 'effect'} is not modeled (the initial state is entered as '${name}' is)`, p.ctx.path, t.range);
        if (s.initial >= 0 && s.initial !== target) this.fail(`a second initial state for '${name}' (the first is '${this.nodes[s.initial]!.name}'): several initial transitions are not modeled`, p.ctx.path, t.range);
        s.initial = target;
        if (s.parallel) this.fail('a parallel state starts all its regions; it has no initial transition', ctx.path, node.range);
        return true;
      }
      // SysML BNF StateBodyItem: a transition without a source (TargetTransitionUsageMember) follows the
      // state it leaves (BehaviorUsageMember). First in a body, or after entry/do/exit or another feature,
      // it follows none: the model is outside the grammar, and no state is its source.
      // Inside a nested state's body, OpenSysML reads it as a transition of that state (the parser warns
      // of the notation; the answer lists the reading). In a machine's own body it leaves nothing.
      if (p.source === null && s.parentState < 0) this.fail(`this transition has no source state: one written without 'first S' leaves the state declared just before it (SysML BNF StateBodyItem: BehaviorUsageMember TargetTransitionUsageMember*), and none is declared just before it in '${name}'; write it after the state it leaves, or as 'transition first S … then T;'`, p.ctx.path, t.range);
      if (p.source === null) {
        const toDone = target < 0 ? ", and its target `done` as the machine's end" : '';
        const note = `${p.ctx.path}:${t.range.line}:${t.range.column}: a transition written without 'first S' that follows no state in the body of '${name}' (outside the SysML v2 grammar, BNF StateBodyItem) is read as a transition of '${name}' itself${toDone} (OpenSysML's reading)`;
        if (!this.readings.includes(note)) this.readings.push(note);
      }
      const source = p.source === null ? s.id : typeof p.source === 'number' ? p.source : find(p.source, t.range, p.ctx.path, soft);
      if (source === undefined) return false;
      // `then done` in a nested state's body names that state's own done (Action::done, inherited: the
      // name resolves in the namespace it is written in): its region completes, the state stays active.
      // (A transition written without a source, read as OpenSysML reads it, keeps OpenSysML's `done`: the machine's end.)
      const completes = target < 0 && s.parentState >= 0 && p.source !== null ? s.id : undefined;
      if (target < 0 && s.parallel) {
        this.fail(`a transition to done in the body of the parallel state '${name}' is not modeled: its substates run concurrently, and '${name}' is done only after every one of them ends (StatePerformance: its substates are middle steps before its exit)`, p.ctx.path, t.range);
      }
      if (completes !== undefined && (source === s.id || !this.isInside(source, s.id))) {
        this.fail(`a transition from '${this.nodes[source]!.name}' to done, written in the body of '${name}': there \`done\` is '${name}''s own done (KerML name resolution), which only a state inside '${name}' reaches; not modeled`, p.ctx.path, t.range);
      }
      const trigger = t.kind === 'Transition' && t.trigger ? this.triggerOf(t.trigger, p.ctx) : null;
      if (t.kind === 'Transition' && trigger?.kind === 'signal' && t.trigger?.payload?.name) this.payloadReads(t.trigger.payload.name, [t.guard, t.effect], p.ctx.path);
      const guard = t.guard;
      const effects = t.kind === 'Transition' && t.effect ? this.subactionEffects(t.effect, p.ctx) : [];
      const tr: ExecTransition = {
        id: this.transitions.length,
        name: t.name ?? `${this.nodes[source]!.name}->${target < 0 ? 'done' : relativeName(this.nodes[source]!.name, this.nodes[target]!.name)}`,
        source, target, trigger, guard, effects, scope: inner.scope, range: t.range, path: p.ctx.path,
        ...(completes !== undefined ? { completes } : {}),
      };
      // A completion transition (no trigger) of a parallel state waits for every region to reach its own
      // done; when a region that is a simple state completes is not said (no done of its own to reach).
      const simple = trigger === null && this.nodes[source]!.parallel ? this.simpleRegion(source) : undefined;
      if (simple !== undefined) {
        this.fail(`this transition has no trigger, so it waits for '${this.nodes[source]!.name}' to complete: every region of the parallel state reaching its own done; the region '${this.nodes[simple]!.name}' is a simple state, which has no done to reach: not modeled (give it substates and a transition to done, or give the transition a trigger)`, p.ctx.path, t.range);
      }
      const crossing = target >= 0 ? this.crossesRegions(source, target) : undefined;
      if (crossing) tr.unmodeled = crossing;
      if (t.name) tr.name = `${this.nodes[source]!.name.split('.').slice(0, -1).concat([q(t.name)]).join('.')}`;
      tr.name = this.uniqueName(tr.name);
      this.transitions.push(tr);
      this.nodes[source]!.transitions.push(tr.id);
      return true;
    };
    // A transition of a nested state may name a state its enclosing state declares later
    // (`accept after 5 then Done;` inside Working, with Done after Working): added once the machine is whole.
    for (const p of pending) if (!add(p, !top)) this.laterTransitions.push(() => add(p, false));
    if (top) {
      const later = this.laterTransitions.splice(0);
      for (const f of later) f();
    }
    return s.id;
  }

  /** A region of parallel state `p` (or of a parallel region of it) that is a simple state, if any. */
  private simpleRegion(p: number): number | undefined {
    for (const c of this.nodes[p]!.children) {
      const n = this.nodes[c]!;
      if (n.children.length === 0) return c;
      const inner = n.parallel ? this.simpleRegion(c) : undefined;
      if (inner !== undefined) return inner;
    }
    return undefined;
  }

  /** Whether state `id` is `ancestor` or nested in it. */
  private isInside(id: number, ancestor: number): boolean {
    for (let x = id; x >= 0; x = this.nodes[x]!.parentState) if (x === ancestor) return true;
    return false;
  }

  /** The states from the machine's top down to `id`. */
  private stateChain(id: number): number[] {
    const out: number[] = [];
    for (let x = id; x >= 0; x = this.nodes[x]!.parentState) out.unshift(x);
    return out;
  }

  /**
   * Why taking a transition from one region of a parallel state to another of its regions is not
   * modeled, or undefined when it does not cross regions. The states it leaves and enters are those
   * below the deepest state it keeps (the runtime's `fireTransition`); when that state is parallel and
   * the transition leaves one region for another, SysML v2 (States, StatePerformances) does not say
   * what becomes of the state active in the target's region or of the other regions.
   */
  private crossesRegions(source: number, target: number): string | undefined {
    const sc = this.stateChain(source);
    const tc = this.stateChain(target);
    let keep = 0;
    while (keep < sc.length - 1 && keep < tc.length - 1 && sc[keep] === tc[keep]) keep++;
    if (keep === 0 || sc[keep] === tc[keep]) return undefined;
    const lca = this.nodes[sc[keep - 1]!]!;
    if (!lca.parallel) return undefined;
    const n = (id: number) => `'${this.nodes[id]!.name}'`;
    return `this transition goes from ${n(source)} in the region ${n(sc[keep]!)} of the parallel state ${n(lca.id)} to ${n(target)} in its region ${n(tc[keep]!)}: SysML v2 does not say what becomes of the state active in the target's region or of its other regions, so taking it is not modeled`;
  }

  /** The states nested (at any depth) in state `top` whose path ends with `segs`, in model order. */
  private nestedStates(top: number, segs: readonly string[]): number[] {
    const out: number[] = [];
    for (const n of this.nodes) {
      if (n.kind !== 'state' || n.id === top) continue;
      const names: string[] = [];
      let x = n.id;
      for (; x >= 0 && x !== top; x = this.nodes[x]!.parentState) names.unshift(this.simpleName(x));
      if (x !== top || names.length < segs.length) continue;
      if (segs.every((seg, i) => names[names.length - segs.length + i] === seg)) out.push(n.id);
    }
    return out;
  }

  /**
   * The action `terminate X;` ends: X names an action whose body holds the terminate (by its name, or
   * `self` for the nearest), and terminating it ends every token inside it, after which its successors
   * follow as when it ends (SysML 7.16.12 Terminate actions: the occurrence's done comes then). The
   * subject's own action ends the run. Another occurrence (a part, a concurrent action) is not modeled.
   */
  private terminated(target: Expression, ctx: Ctx): number {
    const name = target.kind === 'Name' && target.name.segments.length === 1 && !target.name.isGlobal ? target.name.segments[0]!.replace(/^'(.*)'$/, '$1') : undefined;
    if (name !== undefined) {
      for (let c = ctx.container; c >= 0; c = this.nodes[c]!.container) {
        const call = this.nodes[c]!;
        if (call.kind !== 'call') continue;
        // The subject's own flow is the root call (named ''): it answers to the subject's name.
        const own = call.container < 0 && call.name === '' ? (this.subjectEntry?.node.kind === 'Package' ? undefined : (this.subjectEntry?.node.name ?? undefined)) : this.simpleName(c).replace(/^'(.*)'$/, '$1');
        if (name === 'self' || own === name) return this.isRoot(c) ? -1 : c;
      }
      if (ctx.container < 0 || name === 'self') return -1;
    }
    return this.fail('terminate of an occurrence other than an action whose body holds it (a part, a concurrent action) is not supported', ctx.path, target.range);
  }

  /**
   * What `terminate;` (no target) ends: its featuring occurrence (Actions.sysml, terminateActions:
   * `terminatedOccurrence default that`), the action whose body holds it. That is the run only in the
   * subject's own body; in a nested action (or a behaviour a part performs) that action ends and its
   * successors follow. In an if, while, loop or for body the featuring occurrence is that body, not
   * the action around it: refused, naming the action to end is clearer than either reading.
   */
  private terminatedByDefault(ctx: Ctx, range: SourceRange): number {
    const c = ctx.container;
    if (c < 0) return -1;
    if (this.inlineBodies.has(c)) {
      const body = this.nodes[c]!.name;
      this.fail(`a terminate without a target inside the body '${body}' of an if, while, loop or for ends that body's own performance (its featuring occurrence: Actions.sysml terminateActions, \`terminatedOccurrence default that\`), not the action around it; this is not modeled: name the action to end (\`terminate X;\`)`, ctx.path, range);
    }
    return this.isRoot(c) ? -1 : c;
  }

  /** The subject's own flow (the root call, named ''): ending it ends the run. */
  private isRoot(c: number): boolean {
    const call = this.nodes[c]!;
    return call.container < 0 && call.name === '';
  }

  private simpleName(id: number): string {
    const declared = this.stateNames.get(id);
    if (declared !== undefined) return declared;
    return this.nodes[id]!.name.split('.').at(-1)!;
  }

  /** An entry/do/exit action or a transition effect: atomic effects, its own or those of the action it is typed by or names. */
  /**
   * Features declared in an atomic body (an entry/do/exit action's, a transition effect's, an unnamed
   * if/loop body's: `attribute t := x;`, `in s = x;`) have no feature in the run: an effect that reads
   * or assigns one by its name would read another feature, or a unit of that spelling (`t`, `s`), or
   * nothing. Refused, naming it.
   */
  private checkBodyLocals(members: readonly Member[], effects: readonly Effect[], ctx: Ctx): void {
    const locals = new Map<string, Usage>();
    for (const x of members) if (x.kind === 'Usage' && !isCalcUsage(x)) {
      const n = usageName(x);
      if (n && !this.declared(join(ctx.prefix, n))) locals.set(n, x);
    }
    if (locals.size === 0) return;
    // Refused where the run reads or assigns it (ExecutionModel.misreads, miswrites).
    const why = (name: string, u: Usage, path: string, range: SourceRange) =>
      new BehaviorError(`'${name}' is declared in this body (${this.at(ctx, u).path}:${(u.nameRange ?? u.range).line}:${(u.nameRange ?? u.range).column}), an entry/do/exit action, transition effect or unnamed if/loop body that runs as one step, which keeps no feature for it: reading or assigning it is not modeled (the name would read another feature, or a unit of that spelling); declare it in the state or action around`, path, range);
    for (const e of effects) {
      if (e.kind !== 'assign') continue;
      const path = this.effectPaths.get(e) ?? ctx.path;
      const target = locals.get(e.target[0]!);
      if (target) this.miswrites.set(e.target, why(e.target[0]!, target, path, e.range));
      eachSyntaxObject(e.expr, (n) => {
        const name = (n as { name?: QualifiedName }).name;
        const u = n.kind === 'Name' && name && !name.isGlobal ? locals.get(name.segments[0]!) : undefined;
        if (u && name) this.misreads.set(name, why(name.segments[0]!, u, path, name.range));
      });
    }
  }

  private subactionEffects(m: Member, ctx: Ctx): Effect[] {
    if (m.kind === 'AssignAction') return [this.assignEffect(m.target, m.assigned, ctx, m.range)];
    if (m.kind === 'SendAction') return [this.sendEffect(m, ctx)].filter((x): x is Effect => x !== null);
    if (m.kind === 'Usage' && m.keyword === 'action') {
      const groups: { members: readonly Member[]; ctx: Ctx }[] = [{ members: m.body ?? [], ctx }];
      for (const r of m.relations) {
        if (r.relation !== 'typing' && r.relation !== 'reference') this.fail(`${RELATION_TEXT[r.relation] ?? r.relation} on an entry/do/exit action or transition effect is not modeled`, ctx.path, r.range);
        // `do a;` is itself a feature named `a` to the name resolver: look from outside it.
        let t: ScopeEntry | undefined;
        for (let from = ctx.lexical; from && !t; from = from.parent) t = this.scope.resolveReference(from, r.target);
        if (!t || t.node.kind === 'Package') this.fail(`cannot find '${referenceText(r.target)}' (performed here)`, ctx.path, r.target.range);
        if (ctx.inlining.has(t.node)) this.fail(`'${referenceText(r.target)}' performs itself (recursive behaviour is not supported)`, ctx.path, r.target.range);
        for (const g of this.memberGroups(t.node, t)) groups.push({ members: g, ctx: { ...ctx, path: t.path, lexical: t } });
      }
      const out: Effect[] = [];
      for (const g of groups) {
        if (this.isFlowBody(g.members)) this.fail('an entry/do/exit action or transition effect with its own flow is not supported (it runs atomically)', g.ctx.path, m.range);
        for (const x of g.members) this.admit(x, 'atomic action', this.at(g.ctx, x));
        const own = this.effectsOf(g.members, g.ctx);
        this.checkBodyLocals(g.members, own, g.ctx);
        out.push(...own);
      }
      this.unordered.push([...out]);
      return out;
    }
    if (m.kind === 'AcceptAction') this.fail('an accept as an entry/do/exit action is not supported', ctx.path, m.range);
    return this.fail(`${constructOf(m)} as an entry/do/exit action or transition effect is not modeled`, ctx.path, m.range);
  }
}

/** An effect as written, for messages: `assign x := …`, `send S to r`. */
function effectText(e: Effect): string {
  if (e.kind === 'assign') return `assign ${e.target.join('.')} := …`;
  if (e.kind === 'send') return `send ${e.signal}${e.receiver ? ` to ${e.receiver}` : ''}`;
  return `flow to ${e.to}`;
}

/** The name a member is known by (a usage's own, short or redefined name; an action node's name). */
function memberName(m: Member): string | null {
  if (m.kind === 'Usage') return usageName(m);
  if (m.kind === 'StateSubaction' || m.kind === 'ResultExpression' || m.kind === 'ElementFilter' || m.kind === 'InvalidMember' || m.kind === 'Import') return null;
  if (m.name) return m.name;
  // A feature declared `:>> t1` (a transition, an accept …) is known by the redefined one's name (KerML effectiveName).
  const r = 'relations' in m ? m.relations.find((x) => x.relation === 'redefinition') : undefined;
  return r ? lastSegment(r.target) : (m.name ?? null);
}

/** `b`'s name without the prefix it shares with `a` (`m.s1` → `m.s2` is `s2`). */
function relativeName(a: string, b: string): string {
  const x = a.split('.');
  const y = b.split('.');
  let k = 0;
  while (k < x.length - 1 && k < y.length - 1 && x[k] === y[k]) k++;
  return y.slice(k).join('.');
}

/**
 * The features an expression (or a set of names) may read, as feature indices, over-approximated by
 * name: every feature whose last segment is a name it mentions and, through each bound feature it
 * names (`y = x`, a binding connector, a calc usage's parameters and result), what that feature's
 * expression mentions, transitively. A bound feature is read as its expression (machine.ts
 * `boundValue`), so a move that writes `x` changes what reading `y` gives: the reduction must see it.
 */
export function featureReader(features: readonly FeatureDecl[]): FeatureReader {
  const lastOf = (key: string) => key.split('.').at(-1)!.split('#')[0]!;
  const byLast = new Map<string, number[]>();
  features.forEach((f, i) => {
    const last = lastOf(f.key);
    byLast.set(last, [...(byLast.get(last) ?? []), i]);
  });
  const boundReads = new Map<string, Set<string>>();
  for (const f of features) {
    if (!f.bound || !f.init) continue;
    const last = lastOf(f.key);
    const names = boundReads.get(last) ?? new Set<string>();
    mentioned(f.init, names);
    boundReads.set(last, names);
  }
  const close = (names: Set<string>): Set<string> => {
    const stack = [...names];
    while (stack.length > 0) {
      for (const n of boundReads.get(stack.pop()!) ?? []) {
        if (names.has(n)) continue;
        names.add(n);
        stack.push(n);
      }
    }
    return names;
  };
  const names = (e: unknown): Set<string> => {
    const found = new Set<string>();
    mentioned(e, found);
    return close(found);
  };
  const named = (found: Set<string>, bindings = true): number[] => {
    if (bindings) close(found);
    return [...new Set([...found].flatMap((n) => byLast.get(n) ?? []))].sort((a, b) => a - b);
  };
  return { close, names, named, of: (e) => named(names(e), false) };
}

/** Reads by name (last segments), bound features read through what they are bound to (featureReader). */
export interface FeatureReader {
  /** `names` with, for each bound feature among them, what its expression mentions, transitively (in place). */
  close(names: Set<string>): Set<string>;
  /** The names expression `e` reads, closed. */
  names(e: unknown): Set<string>;
  /** The features `names` (closed unless `bindings` is false) may be, as sorted feature indices. */
  named(names: Set<string>, bindings?: boolean): number[];
  /** The features expression `e` may read, as sorted feature indices. */
  of(e: unknown): number[];
}

/**
 * The names an effect reads, added to `into` (before bound features are read through): an assignment's
 * expression, a transfer's source parameter; a send reads none.
 */
function effectReads(e: Effect, into: Set<string>): Set<string> {
  if (e.kind === 'assign') mentioned(e.expr, into);
  else if (e.kind === 'transfer') into.add(e.from.split('.').at(-1)!);
  return into;
}

/** The name an effect writes: an assignment's target, a transfer's target parameter; a send none. */
function effectWrite(e: Effect): string | undefined {
  return e.kind === 'assign' ? e.target.at(-1)! : e.kind === 'transfer' ? e.to.split('.').at(-1)! : undefined;
}

function finish(c: Compiler, subject: string, behaviors: number[], given: ReadonlySet<string>): ExecutionModel {
  const { nodes, transitions, features } = c;
  // Ancestors: the chain of containers (calls, states).
  for (const n of nodes) {
    const anc: number[] = [];
    for (let p = n.kind === 'state' ? n.parentState : n.container; p >= 0; ) {
      anc.push(p);
      const pn = nodes[p]!;
      p = pn.kind === 'state' ? pn.parentState : pn.container;
    }
    n.ancestors = anc;
  }
  // A body-less action's out parameters are free inputs chosen once per run: an action that may run
  // again (in a loop, after a merge back, inside a composite that runs again) would produce a new
  // value each time, which one input does not model: its out parameters stay computed outside the
  // model (no value; reading one is refused), and no question gives them one.
  // What runs after a node: its successors, or (at the end of a composite) what follows the composite.
  const after = (x: ExecNode): number[] => {
    for (let y: ExecNode | undefined = x; y; y = y.container >= 0 ? nodes[y.container] : undefined) if (y.succ.length > 0) return [...y.succ];
    return [];
  };
  /** Whether node `id` may run again after it ran: what follows it leads back to it or to a node holding it. */
  const mayRunAgain = (id: number): boolean => {
    const n = nodes[id]!;
    const again = new Set([id, ...n.ancestors]);
    const seen = new Set<number>();
    const stack = after(n);
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x < 0 || seen.has(x)) continue;
      if (again.has(x)) return true;
      seen.add(x);
      const y = nodes[x]!;
      stack.push(...after(y), y.thenNode, y.elseNode, y.body, y.head, y.bodyStart);
    }
    return false;
  };
  for (const [id, keys] of [...c.produced]) {
    const n = nodes[id]!;
    if (!mayRunAgain(id)) continue;
    for (const k of keys) {
      const i = c.featureIndex.get(k)!;
      features[i] = { ...features[i]!, outside: `'${k}' is computed outside the model: an out parameter of '${n.name}', a body-less action that may run more than once` };
    }
    c.produced.delete(id);
  }
  const featuresRead = featureReader(features);
  const reads: number[][] = [];
  const writes: number[][] = [];
  const effectSets = (effects: readonly Effect[], r: Set<string>, w: Set<string>) => {
    for (const e of effects) {
      effectReads(e, r);
      const written = effectWrite(e);
      if (written !== undefined) w.add(written);
    }
  };
  for (const n of nodes) {
    const r = new Set<string>();
    const w = new Set<string>();
    mentioned(n.expr, r);
    mentioned(n.guards, r);
    if (n.trigger && n.trigger.kind !== 'signal') mentioned(n.trigger.expr, r);
    if (n.target) w.add(n.target.at(-1)!);
    effectSets(n.effects, r, w);
    effectSets(n.exitEffects, r, w);
    if (n.kind === 'for') for (const k of [`${n.name}#i`, `${n.name}#s`, n.forVar!]) w.add(k.split('.').at(-1)!.split('#')[0]!);
    reads.push(featuresRead.named(r));
    writes.push(featuresRead.named(w, false));
  }
  for (const t of transitions) {
    const r = new Set<string>();
    const w = new Set<string>();
    mentioned(t.guard, r);
    if (t.trigger && t.trigger.kind !== 'signal') mentioned(t.trigger.expr, r);
    effectSets(t.effects, r, w);
    reads.push(featuresRead.named(r));
    writes.push(featuresRead.named(w, false));
  }
  // The delay of `accept after d` is evaluated when the wait begins (Triggers.kerml TriggerAfter: the
  // clock's current time when invoked, plus the delay). The run reads it while the wait is pending,
  // which is the same only when nothing the run does changes it: a delay reading a feature some move
  // writes is refused (the wait would stretch or shrink with it).
  const written = new Set<number>();
  for (const w of writes) for (const f of w) written.add(f);
  for (const x of [...nodes, ...transitions]) {
    if (x.trigger?.kind !== 'after') continue;
    const r = new Set<string>();
    mentioned(x.trigger.expr, r);
    const hit = featuresRead.named(r).find((f) => written.has(f));
    if (hit !== undefined) {
      throw new BehaviorError(`accept after …: the delay reads '${features[hit]!.key}', which the run writes; a delay is evaluated when its wait begins (Triggers.kerml TriggerAfter: the current time when invoked plus the delay), and a delay that changes while its wait is pending is not modeled`, x.path, x.range);
    }
  }
  // A `default` without `:=` binds its feature for the whole life of an instance given no other value
  // (KerML FeatureValue: isDefault, isInitial = false), as `=` does; the run gives it once, when it starts
  // (assigning it is refused where it runs). That is its value in every state only while what it reads
  // stays: one reading a feature the run writes is refused. A feature the question binds is given that
  // other value (the default applies only given none, and an assignment to it stays refused): its
  // default is never read.
  for (const f of features) {
    if (!f.defaultBinding || !f.init || given.has(f.key)) continue;
    const r = new Set<string>();
    mentioned(f.init, r);
    const hit = featuresRead.named(r).find((x) => written.has(x));
    if (hit !== undefined) {
      throw new BehaviorError(`'${f.key}' has a default value ('default' at ${f.defaultBinding.line}:${f.defaultBinding.column}), which binds it for the whole life of an instance given no other value (KerML FeatureValue: isInitial = false), and that value reads '${features[hit]!.key}', which the run writes: a default binding re-read in every state is not modeled (write 'default :=' for an initial default, or '=')`, f.path, f.defaultBinding);
    }
  }
  // A feature of a nested action's (loop body's, nested state's) performance takes its initial value
  // (`:=`, `default`) when that performance begins; each performance has its own (an action run again in
  // a loop, a state entered again, starts afresh: KerML, a feature's values are per featuring occurrence).
  // The run gives it once, when the run starts: where that can differ — the initial value reads a
  // feature the run writes, or the run writes the feature and its performance may begin again — refused.
  for (const [id, { keys, again }] of c.locals) {
    // A behaviour of the run (a part's performed action) begins when the run does, once.
    if (behaviors.includes(id) && !again) continue;
    const n = nodes[id]!;
    let repeats: boolean | undefined;
    for (const k of keys) {
      const i = c.featureIndex.get(k);
      if (i === undefined) continue;
      const f = features[i]!;
      if (!f.init || f.bound || f.hidden) continue;
      const r = new Set<string>();
      mentioned(f.init, r);
      const hit = featuresRead.named(r).find((x) => written.has(x));
      const what = n.kind === 'state' ? `the state '${n.name}' is entered` : n.kind === 'loop' ? `each iteration of '${n.name}' begins` : `'${n.name}' begins`;
      if (hit !== undefined) {
        throw new BehaviorError(`'${k}' takes its initial value when ${what} (a new performance, with features of its own), and that value reads '${features[hit]!.key}', which the run writes; the run gives it once, when the run starts: not modeled`, f.path, f.range);
      }
      if (written.has(i) && (repeats ??= again || mayRunAgain(id))) {
        throw new BehaviorError(`'${k}' takes its initial value anew each time ${what} (each performance has features of its own), and the run assigns it; the run gives it once, when the run starts, and keeps what was assigned: not modeled`, f.path, f.range);
      }
    }
  }
  // A node is local when its move touches no feature that a node able to run in parallel with it
  // writes (or reads, for what it writes), sends nothing, creates no token and never ends a composite
  // whose other tokens matter on arrival. A sequential call (entered from one place, never forking)
  // holds at most one token, so ending its flow is local.
  const indegree = new Map<number, number>();
  for (const n of nodes) for (const t of [...n.succ, n.thenNode, n.elseNode, n.body, n.head]) if (t >= 0) indegree.set(t, (indegree.get(t) ?? 0) + 1);
  const sequential = new Map<number, boolean>();
  const isSequential = (c: number): boolean => {
    let v = sequential.get(c);
    if (v === undefined) {
      const call = nodes[c]!;
      v = call.kind === 'call' && (indegree.get(c) ?? 0) <= 1 && (nodes[call.bodyStart]?.succ.length ?? 0) <= 1 &&
        nodes.every((n) => n.container !== c || (n.kind !== 'fork' && n.kind !== 'join' && (n.kind === 'decide' || n.succ.length <= 1)));
      sequential.set(c, v);
    }
    return v;
  };
  // May-happen-in-parallel by regions: the nodes reachable from each successor of a node that starts
  // several tokens (a fork, a start or action with several successors) and from each top-level
  // behaviour. Two nodes in different regions of one such node may hold tokens at the same time; a
  // node in two regions of one may run twice at once. States and transitions run alongside anything.
  const regions: Map<number, Set<string>> = new Map(nodes.map((n) => [n.id, new Set<string>()]));
  const descendants = (c: number) => nodes.filter((n) => n.ancestors.includes(c)).map((n) => n.id);
  const reach = (from: number, tag: string) => {
    const stack = [from];
    const seen = new Set<number>();
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id < 0 || seen.has(id)) continue;
      seen.add(id);
      regions.get(id)!.add(tag);
      const n = nodes[id]!;
      stack.push(...n.succ, n.thenNode, n.elseNode, n.body, n.head);
      if (n.kind === 'call' || n.kind === 'state') stack.push(...descendants(id));
      // Leaving a composite continues after it.
      if (n.succ.length === 0 && n.container >= 0) stack.push(...nodes[n.container]!.succ);
    }
  };
  for (const n of nodes) {
    if (n.kind === 'decide' || n.succ.length < 2) continue;
    n.succ.forEach((t, i) => reach(t, `${n.id}:${i}`));
  }
  behaviors.forEach((b, i) => reach(b, `top:${i}`));
  const forkOf = (tag: string) => tag.slice(0, tag.indexOf(':'));
  const parallel = (i: number, j: number): boolean => {
    if (i >= nodes.length || j >= nodes.length || nodes[i]!.kind === 'state' || nodes[j]!.kind === 'state') return true;
    for (const a of regions.get(i)!) for (const b of regions.get(j)!) if (a !== b && forkOf(a) === forkOf(b)) return true;
    return false;
  };
  const conflicts = (i: number, f: number, kind: 'read' | 'write'): boolean => {
    for (let j = 0; j < reads.length; j++) {
      if (!parallel(i, j) || (j === i && kind === 'read')) continue;
      if (writes[j]!.includes(f) || (kind === 'write' && reads[j]!.includes(f))) return true;
    }
    return false;
  };
  // Arrival is quiet when it creates no token, ends no composite whose other tokens matter, and reads
  // no guard on the way: the guards of a merge, start or ending composite it passes are read by the
  // move (machine.ts `go`) but are not in the node's read set.
  const guarded = (n: ExecNode) => n.kind !== 'decide' && n.guards.some((g) => g !== null);
  const quietEnd = (c: number, seen: Set<number>): boolean => {
    if (c < 0) return true;
    if (!isSequential(c)) return false;
    const call = nodes[c]!;
    if (guarded(call)) return false;
    return call.succ.length > 0 ? quietArrival(call.succ, c, seen) : quietEnd(call.container, seen);
  };
  const quietArrival = (targets: readonly number[], from: number, seen: Set<number>): boolean => {
    if (targets.length > 1) return false;
    if (targets.length === 0) return quietEnd(from, seen);
    const t = targets[0]!;
    if (seen.has(t)) return true;
    seen.add(t);
    const n = nodes[t]!;
    if (n.kind === 'fork' || n.kind === 'state') return false;
    if (n.kind === 'merge' || n.kind === 'start') return !guarded(n) && quietArrival(n.succ, n.container, seen);
    if (n.kind === 'done') return quietEnd(n.container, seen);
    if (n.kind === 'call') {
      const start = nodes[n.bodyStart];
      if (!start) return false;
      return start.succ.length === 0 ? !guarded(n) && quietArrival(n.succ, n.container, seen) : !guarded(start) && quietArrival(start.succ, n.id, seen);
    }
    return true;
  };
  // A terminate ends tokens other than its own (every token, or those inside the action it ends): a
  // node whose token it may end while that token waits is not independent of it.
  const terminates = nodes.filter((t) => t.kind === 'terminate');
  const endedBy = (i: number) => terminates.some((t) => parallel(i, t.id) && ((t.terminates ?? -1) < 0 || nodes[i]!.ancestors.includes(t.terminates!)));
  const local = nodes.map((n, i) => {
    if (!['action', 'assign', 'if', 'loop', 'until', 'for'].includes(n.kind)) return false;
    if (n.effects.some((e) => e.kind === 'send')) return false;
    if (endedBy(i)) return false;
    if (writes[i]!.some((f) => conflicts(i, f, 'write'))) return false;
    if (reads[i]!.some((f) => conflicts(i, f, 'read'))) return false;
    const branches = n.kind === 'if' ? [[n.thenNode], [n.elseNode >= 0 ? n.elseNode : -1]] : n.kind === 'loop' || n.kind === 'for' ? [[n.body], n.succ] : n.kind === 'until' ? [[n.head], n.succ] : [n.succ];
    for (const b of branches) {
      const targets = b[0] === -1 ? n.succ : b;
      if (!quietArrival(targets, n.container, new Set())) return false;
    }
    return true;
  });
  // A signal sent is also an instance of its type's supertypes that accepts wait for.
  const signalMatches = c.signalMatches();
  const sentSignals = new Set(c.sent);
  for (const set of signalMatches.values()) for (const a of set) sentSignals.add(a);
  return {
    subject, nodes, transitions, features, featureIndex: c.featureIndex, instances: c.instances, opaque: c.opaque, behaviors,
    sentSignals, signalMatches, enums: c.enums, reads, writes, local, produced: c.produced, readings: c.readings, globals: c.globals, misreads: c.misreads, miswrites: c.miswrites, calcs: c.calcs,
  };
}

/**
 * Compiles the subject named by `subject` (a qualified name as the surface spells it). `given` holds the
 * keys of the features the question binds (`a.b` for `a::b`), whose own values are then not read.
 */
export function compileBehavior(documents: readonly BehaviorDocument[], subject: string, given: ReadonlySet<string> = new Set()): ExecutionModel | BehaviorError {
  try {
    const scope = new BehaviorScope(documents);
    const entry = scope.find(subject);
    // Only on this path is the model indexed again, to say where the name went wrong.
    if (!entry) return new BehaviorError(new ModelIndex(documents).missingSubject(subject), undefined, undefined);
    const c = new Compiler(scope);
    const behaviors = c.compileSubject(entry, subject);
    c.resolveBindings();
    c.resolveGlobals(subject);
    c.checkUnordered(behaviors);
    return finish(c, subject, behaviors, given);
  } catch (e) {
    if (e instanceof BehaviorError) return e;
    throw e;
  }
}
