// Declarations: the named (and unnamed) elements of a document as the resolver sees them, built
// from the syntax tree. One `Declaration` per member that can own or be the target of a reference.

import type {
  AcceptAction, BodyExpression, Definition, Expression, Import, Member, QualifiedName, Reference, RelationKind,
  SourceRange, Usage, Visibility,
} from '../ast';

/** Which layer a declaration belongs to. A layer only sees itself and the layers below it
 * (user → library or built-in), so library caches never depend on user documents. */
export type Layer = 'builtin' | 'library' | 'user';

/** An import as the resolver uses it: from the text (`target` a reference) or from the built-in
 * table (`targetPath` already a global qualified name). */
export interface ImportSpec {
  readonly owner: Declaration;
  readonly target: QualifiedName | null;
  /** Where the target starts (its key in the owner's resolution cache); -1 without a target. */
  readonly targetStart: number;
  /** Targets known directly (built-in table). */
  readonly targetDecls: readonly Declaration[] | null;
  readonly isNamespace: boolean;
  readonly isRecursive: boolean;
  readonly isAll: boolean;
  readonly isPublic: boolean;
  readonly filters: readonly Expression[];
  readonly node: Import | null;
}

/** Where a built-in declaration's links are in its table, until they are read. */
export interface PendingLinks {
  readonly table: { link(d: Declaration, from: number, end: number): void };
  readonly from: number;
  readonly end: number;
}

export interface SupertypeRef {
  readonly relation: RelationKind;
  readonly ref: Reference;
}

let nextId = 1;

// A declaration's lists and maps are made when their first entry is added: most declarations (a
// feature with no members, imports or metadata) never get one, and empty arrays and maps made for
// each of them were about as much memory as the syntax tree they were built from.
const NONE: readonly never[] = Object.freeze([]);

/** `list` with `value` added: a new array in place of the shared empty one, else `list` itself. */
export function added<T>(list: readonly T[], value: T): T[] {
  if (list.length === 0) return [value];
  (list as T[]).push(value);
  return list as T[];
}

/** A declaration's memoized name lookups: owned + inherited tiers and the imported tier, each with and
 * without private members, and import targets by the import's text position; each map made on
 * first use (most declarations only ever see one kind). */
export interface LookupCache {
  own: Map<string, Declaration[][]> | null;
  ownPrivate: Map<string, Declaration[][]> | null;
  imported: Map<string, Declaration[]> | null;
  importedPrivate: Map<string, Declaration[]> | null;
  imports: Map<number, Declaration[][]> | null;
  /** What a name looked up lexically from this scope outward denotes (no declaration excluded). */
  lexical: Map<string, Declaration[]> | null;
}

export class Declaration {
  readonly id = nextId++;
  /** Members in order of declaration (unnamed ones included: they are still scopes). */
  members: readonly Declaration[] = NONE;
  /** Members by name and by short name; null until the first named member. */
  byName: Map<string, Declaration[]> | null = null;
  imports: readonly ImportSpec[] = NONE;
  /** Specializations written in the text, resolved lazily from the parent scope. */
  supertypeRefs: readonly SupertypeRef[] = NONE;
  /** Global qualified names of supertypes known without resolution (built-ins, implicit bases). */
  fixedSupertypes: readonly string[][] = NONE;
  /** Supertypes known directly (built-in table). */
  directSupertypes: readonly Declaration[] = NONE;
  /** Built-in alias target. */
  aliasTarget: Declaration | null = null;
  /** Metadata annotating this element (`#M`, `@M;`, `metadata m : M;`) as references. */
  metadataRefs: readonly QualifiedName[] = NONE;
  /** A built-in declaration whose supertypes, imports, alias target and implicit bases are still to
   * be read from its table line (builtin-layer.ts linkBuiltin); null once read, and for any other. */
  builtinLinks: PendingLinks | null = null;

  // Resolution caches, valid while `generation` equals the owning index's generation.
  generation = -1;
  /** Memoized lookups, one map per kind of lookup (keyed by name, or by import position); null
   * until the first. Separate maps so a lookup never builds a key string. */
  tierCache: LookupCache | null = null;
  supertypeCache: Declaration[] | null = null;
  computingSupertypes = false;
  recursiveCache: Map<string, Declaration[]> | null = null;
  valueTypeCache: Declaration[] | null = null;

  constructor(
    readonly layer: Layer,
    /** Name, or the effective name of an unnamed redefinition / performed reference. */
    readonly name: string | null,
    readonly shortName: string | null,
    /** The kind as a manifest spells it: the keyword without `def` (part, action, state …), or
     * package, alias, import, accept, send, assign, if, while, loop, for, terminate, succession,
     * transition, body. */
    readonly kind: string,
    readonly isDefinition: boolean,
    readonly node: Member | BodyExpression | null,
    readonly parent: Declaration | null,
    readonly document: string | null,
    readonly visibility: Visibility,
    /** Where the ranges are read from when asked (the parser makes a node's ranges on each read, and
     * most declarations' ranges are never read): the node itself, or ranges given; null for none. */
    private readonly ranges: { readonly range: SourceRange; readonly nameRange?: SourceRange | null } | null,
  ) {}

  get range(): SourceRange | null {
    return this.ranges === null ? null : this.ranges.range;
  }
  /** Range of the name; null when unnamed or not in a document. */
  get nameRange(): SourceRange | null {
    return this.ranges === null ? null : this.ranges.nameRange ?? null;
  }

  get qualifiedName(): string {
    const names: string[] = [];
    for (let d: Declaration | null = this; d && d.kind !== 'root'; d = d.parent) {
      names.push(d.name ?? d.shortName ?? '<unnamed>');
    }
    return names.reverse().map(quoteIfNeeded).join('::');
  }

  addMember(member: Declaration): void {
    this.members = added(this.members, member);
    if (member.name !== null) this.addName(member.name, member);
    if (member.shortName !== null && member.shortName !== member.name) this.addName(member.shortName, member);
  }

  /** Makes `d` visible in this scope under `name` (a member, or an accepted payload in a transition). */
  addName(name: string, d: Declaration): void {
    push(this.byName ??= new Map(), name, d);
  }
}

function quoteIfNeeded(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Last written name of a reference (`a::b.c` → `c`). */
export function lastName(ref: Reference): string | null {
  const qn = ref.kind === 'FeatureChain' ? ref.chain[ref.chain.length - 1] : ref;
  return qn ? (qn.segments[qn.segments.length - 1] ?? null) : null;
}

/** The name an unnamed usage is known by: that of the feature it redefines, or, for `perform`,
 * `exhibit`, `satisfy` …, that of the feature it references. */
export function effectiveName(node: Usage): string | null {
  if (node.name !== null) return node.name;
  if (node.shortName !== null) return null;
  const redefined = node.relations.find((r) => r.relation === 'redefinition');
  if (redefined) return lastName(redefined.target);
  // The result parameter of a calc or function (`return : T;`) redefines `result`.
  if (node.role === 'return') return 'result';
  if (node.role !== null && node.role !== 'subject' && node.role !== 'objective') {
    const referenced = node.relations.find((r) => r.relation === 'reference');
    if (referenced) return lastName(referenced.target);
  }
  return null;
}

/** Implicit base type of each declaration kind (the library type every such element specializes). */
const DEFINITION_BASE: Record<string, string> = {
  part: 'Parts::Part', item: 'Items::Item', action: 'Actions::Action', state: 'States::StateAction',
  calc: 'Calculations::Calculation', constraint: 'Constraints::ConstraintCheck',
  requirement: 'Requirements::RequirementCheck', concern: 'Requirements::ConcernCheck',
  attribute: 'Base::DataValue', enum: 'Base::DataValue', occurrence: 'Occurrences::Occurrence',
  event: 'Occurrences::Occurrence', port: 'Ports::Port', connection: 'Connections::Connection',
  connect: 'Connections::Connection', interface: 'Interfaces::Interface', allocation: 'Allocations::Allocation',
  allocate: 'Allocations::Allocation', flow: 'Flows::Flow', 'succession flow': 'Flows::SuccessionFlow',
  message: 'Flows::Message', analysis: 'AnalysisCases::AnalysisCase', verification: 'VerificationCases::VerificationCase',
  'use case': 'UseCases::UseCase', case: 'Cases::Case', view: 'Views::View', viewpoint: 'Views::ViewpointCheck',
  rendering: 'Views::Rendering', metadata: 'Metadata::MetadataItem', fork: 'Actions::ForkAction',
  join: 'Actions::JoinAction', merge: 'Actions::MergeAction', decide: 'Actions::DecisionAction',
  accept: 'Actions::AcceptAction', send: 'Actions::SendAction', assign: 'Actions::AssignmentAction',
  if: 'Actions::IfThenElseAction', while: 'Actions::WhileLoopAction', loop: 'Actions::WhileLoopAction',
  for: 'Actions::ForLoopAction', terminate: 'Actions::TerminateAction', transition: 'Actions::TransitionAction',
  binding: 'Links::SelfLink', bind: 'Links::SelfLink', succession: 'Occurrences::HappensBefore',
  // KerML
  type: 'Base::Anything', classifier: 'Base::Anything', class: 'Occurrences::Occurrence', struct: 'Objects::Object',
  datatype: 'Base::DataValue', assoc: 'Links::Link', 'assoc struct': 'Objects::LinkObject',
  behavior: 'Performances::Performance', function: 'Performances::Evaluation',
  predicate: 'Performances::BooleanEvaluation', interaction: 'Performances::Performance',
  metaclass: 'Metaobjects::Metaobject', feature: 'Base::things', ref: 'Base::things', step: 'Performances::Performance',
  expr: 'Performances::Evaluation', bool: 'Performances::BooleanEvaluation', inv: 'Performances::BooleanEvaluation',
  connector: 'Links::Link',
};

export function implicitBase(kind: string): string[] | null {
  const base = DEFINITION_BASE[kind];
  return base ? base.split('::') : null;
}

/** Index of one document's declarations. */
export interface DocumentDeclarations {
  readonly uri: string;
  readonly root: Declaration;
  /** Every declaration of the document in order. */
  readonly all: Declaration[];
  /** Scope of each expression body `{ in x; … }`. */
  readonly bodies: Map<BodyExpression, Declaration>;
  /** Declaration of each member node. */
  readonly ofNode: Map<object, Declaration>;
}

type Owner = Declaration;

/** Builds the declarations of a parsed document. */
export function declareDocument(uri: string, members: readonly Member[], layer: Layer): DocumentDeclarations {
  const root = new Declaration(layer, null, null, 'root', false, null, null, uri, 'public', null);
  const out: DocumentDeclarations = { uri, root, all: [], bodies: new Map(), ofNode: new Map() };
  const builder = new DeclarationBuilder(out, layer);
  // Indexed loops, not `for … of`: see the note above withPublic in workspace.ts.
  for (let mIndex = 0, mList = members; mIndex < mList.length; mIndex++) { const m = mList[mIndex]!; builder.member(m, root); }
  return out;
}

class DeclarationBuilder {
  constructor(private readonly out: DocumentDeclarations, private readonly layer: Layer) {}

  /** Name given to the next unnamed declaration made (a transition's `accepter` and `effect`). */
  private implicitName: string | null = null;

  private make(node: Member | BodyExpression, parent: Owner, name: string | null, shortName: string | null,
    kind: string, isDefinition: boolean, visibility: Visibility | null): Declaration {
    if (name === null && shortName === null && this.implicitName !== null) name = this.implicitName;
    this.implicitName = null;
    const decl = new Declaration(this.layer, name, shortName, kind, isDefinition, node, parent, this.out.uri,
      visibility ?? 'public', node);
    parent.addMember(decl);
    this.out.all.push(decl);
    this.out.ofNode.set(node, decl);
    return decl;
  }

  private body(members: readonly Member[] | null, owner: Owner): void {
    if (members) for (let mIndex = 0, mList = members; mIndex < mList.length; mIndex++) { const m = mList[mIndex]!; this.member(m, owner); }
  }

  private expressions(e: Expression | null, owner: Owner): void {
    if (e) forEachBody(e, (b) => this.bodyScope(b, owner));
  }

  bodyScope(b: BodyExpression, owner: Owner): Declaration {
    const existing = this.out.bodies.get(b);
    if (existing) return existing;
    const decl = new Declaration(this.layer, null, null, 'body', false, b, owner, this.out.uri, 'public', b);
    this.out.bodies.set(b, decl);
    this.out.all.push(decl);
    this.body(b.members, decl);
    this.expressions(b.result, decl);
    return decl;
  }

  private metadata(decl: Declaration, prefix: readonly QualifiedName[], body: readonly Member[] | null): void {
    for (let pIndex = 0, pList = prefix; pIndex < pList.length; pIndex++) { const p = pList[pIndex]!; decl.metadataRefs = added(decl.metadataRefs, p); }
    if (body) {
      for (let mIndex = 0, mList = body; mIndex < mList.length; mIndex++) {
        const m = mList[mIndex]!;
        if (m.kind === 'Usage' && m.keyword === 'metadata') {
          for (let rIndex = 0, rList = m.relations; rIndex < rList.length; rIndex++) { const r = rList[rIndex]!; if (r.relation === 'typing' && r.target.kind === 'QualifiedName') decl.metadataRefs = added(decl.metadataRefs, r.target); }
        }
      }
    }
  }

  member(m: Member, owner: Owner): void {
    switch (m.kind) {
      case 'Package': {
        const d = this.make(m, owner, m.name, m.shortName, 'package', false, m.visibility);
        this.metadata(d, m.prefixMetadata, m.members);
        this.body(m.members, d);
        return;
      }
      case 'Import':
        owner.imports = added(owner.imports, {
          owner, target: m.target, targetStart: m.target.range.start, targetDecls: null, isNamespace: m.isNamespace, isRecursive: m.isRecursive,
          isAll: m.isImportAll || m.keyword === 'expose', isPublic: m.visibility !== 'private', filters: m.filters, node: m,
        });
        for (let fIndex = 0, fList = m.filters; fIndex < fList.length; fIndex++) { const f = fList[fIndex]!; this.expressions(f, owner); }
        return;
      case 'Alias':
        this.make(m, owner, m.name, m.shortName, 'alias', false, m.visibility);
        return;
      case 'Definition': {
        const d = this.make(m, owner, m.name, m.shortName, m.keyword, true, m.visibility);
        for (let rIndex = 0, rList = m.relations; rIndex < rList.length; rIndex++) { const r = rList[rIndex]!; d.supertypeRefs = added(d.supertypeRefs, { relation: r.relation, ref: r.target }); }
        this.implicit(d, false, m);
        this.metadata(d, m.prefixMetadata, m.body);
        if (m.multiplicity) { this.expressions(m.multiplicity.lower, d); this.expressions(m.multiplicity.upper, d); }
        this.body(m.body, d);
        return;
      }
      case 'Usage':
        this.usage(m, owner);
        return;
      case 'Succession': {
        const d = this.make(m, owner, m.name, m.shortName, 'succession', false, m.visibility);
        this.feature(d, m);
        this.expressions(m.guard, d);
        if (m.targetMember) this.member(m.targetMember, owner);
        this.body(m.body, d);
        return;
      }
      case 'Transition': {
        const d = this.make(m, owner, m.name, m.shortName, 'transition', false, m.visibility);
        this.feature(d, m);
        if (m.trigger) {
          // The trigger and the effect redefine TransitionAction's `accepter` and `effect`.
          this.implicitName = 'accepter';
          this.accept(m.trigger, d);
          // The accepted payload is visible to the guard and the effect.
          if (m.trigger.payload) {
            const p = this.out.ofNode.get(m.trigger.payload);
            if (p && p.name !== null) d.addName(p.name, p);
          }
        }
        this.expressions(m.guard, d);
        if (m.effect) { this.implicitName = 'effect'; this.member(m.effect, d); this.implicitName = null; }
        this.body(m.body, d);
        return;
      }
      case 'AcceptAction':
        this.accept(m, owner);
        return;
      case 'SendAction': {
        const d = this.make(m, owner, m.name, m.shortName, 'send', false, m.visibility);
        this.feature(d, m);
        this.expressions(m.payload, d); this.expressions(m.via, d); this.expressions(m.to, d);
        this.body(m.body, d);
        return;
      }
      case 'AssignAction': {
        const d = this.make(m, owner, m.name, m.shortName, 'assign', false, m.visibility);
        this.feature(d, m);
        this.expressions(m.target, d); this.expressions(m.assigned, d);
        this.body(m.body, d);
        return;
      }
      case 'IfAction': {
        const d = this.make(m, owner, m.name, m.shortName, 'if', false, m.visibility);
        this.feature(d, m);
        this.expressions(m.condition, d);
        this.member(m.then, d);
        if (m.else) this.member(m.else, d);
        return;
      }
      case 'LoopAction': {
        const d = this.make(m, owner, m.name, m.shortName, m.form, false, m.visibility);
        this.feature(d, m);
        this.expressions(m.condition, d);
        this.member(m.bodyAction, d);
        this.expressions(m.until, d);
        return;
      }
      case 'ForAction': {
        const d = this.make(m, owner, m.name, m.shortName, 'for', false, m.visibility);
        this.feature(d, m);
        this.member(m.variable, d);
        this.expressions(m.collection, d);
        this.member(m.bodyAction, d);
        return;
      }
      case 'TerminateAction': {
        const d = this.make(m, owner, m.name, m.shortName, 'terminate', false, m.visibility);
        this.feature(d, m);
        this.expressions(m.target, d);
        this.body(m.body, d);
        return;
      }
      case 'StateSubaction':
        if (m.action) this.member(m.action, owner);
        return;
      case 'ResultExpression':
        this.expressions(m.expression, owner);
        return;
      case 'ElementFilter':
        this.expressions(m.condition, owner);
        return;
      case 'RelationshipDeclaration':
        if (m.body) {
          const d = this.make(m, owner, m.name, m.shortName, 'relationship', false, m.visibility);
          this.body(m.body, d);
        }
        return;
      case 'Dependency': {
        const d = this.make(m, owner, m.name, m.shortName, 'dependency', false, m.visibility);
        this.body(m.body, d);
        return;
      }
      case 'Comment':
      case 'Documentation':
      case 'TextualRepresentation':
        if (m.name !== null || m.shortName !== null) {
          this.make(m, owner, m.name, m.shortName, m.kind === 'Comment' ? 'comment' : m.kind === 'Documentation' ? 'doc' : 'rep', false, m.visibility);
        }
        return;
      case 'InvalidMember':
        return;
    }
  }

  private accept(m: AcceptAction, owner: Owner): Declaration {
    const d = this.make(m, owner, m.name, m.shortName, 'accept', false, m.visibility);
    this.feature(d, m);
    if (m.payload) this.usage(m.payload, d);
    this.expressions(m.triggerExpression, d);
    this.expressions(m.receiver, d);
    this.body(m.body, d);
    return d;
  }

  private usage(m: Usage, owner: Owner): void {
    const d = this.make(m, owner, effectiveName(m), m.shortName, m.keyword, false, m.visibility);
    this.feature(d, m, m);
    this.metadata(d, m.prefixMetadata, m.body);
    // Named connector ends (`connect (e1 ::> a.b, e2 ::> c)`) are features of the connector.
    for (let endIndex = 0, endList = m.ends ?? []; endIndex < endList.length; endIndex++) {
      const end = endList[endIndex]!;
      if (end.name === null) continue;
      const e = new Declaration(this.layer, end.name, null, 'end', false, null, d, this.out.uri, 'public', { range: end.range, nameRange: end.range });
      e.supertypeRefs = added(e.supertypeRefs, { relation: 'reference', ref: end.target });
      d.addMember(e);
      this.out.all.push(e);
    }
    if (m.payload) this.usage(m.payload, d);
    if (m.crossFeature) this.usage(m.crossFeature, d);
    this.expressions(m.satisfiedBy, d);
    this.body(m.body, d);
  }

  /** Relations, implicit base, multiplicity and value of a feature-like member. */
  private feature(d: Declaration, m: { relations: readonly { relation: RelationKind; target: Reference }[];
    multiplicity: { lower: Expression | null; upper: Expression } | null; value: { expression: Expression } | null }, usage?: Usage): void {
    for (let rIndex = 0, rList = m.relations; rIndex < rList.length; rIndex++) { const r = rList[rIndex]!; d.supertypeRefs = added(d.supertypeRefs, { relation: r.relation, ref: r.target }); }
    this.implicit(d, false, usage);
    if (m.multiplicity) { this.expressions(m.multiplicity.lower, d); this.expressions(m.multiplicity.upper, d); }
    if (m.value) this.expressions(m.value.expression, d);
  }

  /** The library base of the kind is always a supertype (redundant when an explicit supertype
   * already specializes it, needed when that one is e.g. a KerML struct). */
  private implicit(d: Declaration, typed: boolean, node?: Definition | Usage): void {
    if (typed) return;
    let base = implicitBase(d.kind);
    // A connection or interface with exactly two ends is binary (it has `source` and `target`).
    if (node && (d.kind === 'connection' || d.kind === 'interface' || d.kind === 'connect')) {
      const ends = (node.kind === 'Usage' ? node.ends?.length ?? 0 : 0)
        + (node.body ?? []).filter((m) => m.kind === 'Usage' && m.isEnd).length;
      if (ends === 2) base = d.kind === 'interface' ? ['Interfaces', 'BinaryInterface'] : ['Connections', 'BinaryConnection'];
    }
    if (base) d.fixedSupertypes = added(d.fixedSupertypes, base);
    // Every feature is one of `things`, which is where `that` comes from.
    if (!d.isDefinition && d.kind !== 'ref' && d.kind !== 'feature') d.fixedSupertypes = added(d.fixedSupertypes, ['Base', 'things']);
  }
}

/** Calls `f` on every expression body directly inside `e` (not inside nested bodies). */
export function forEachBody(e: Expression, f: (b: BodyExpression) => void): void {
  switch (e.kind) {
    case 'Body': f(e); return;
    case 'Unary': forEachBody(e.operand, f); return;
    case 'Binary': forEachBody(e.left, f); forEachBody(e.right, f); return;
    case 'Conditional': forEachBody(e.condition, f); forEachBody(e.then, f); forEachBody(e.else, f); return;
    case 'Classification': if (e.operand) forEachBody(e.operand, f); return;
    case 'MemberAccess': forEachBody(e.target, f); return;
    case 'Collect': case 'Select': forEachBody(e.target, f); f(e.body); return;
    case 'Index': forEachBody(e.target, f); forEachBody(e.index, f); return;
    case 'Quantity': forEachBody(e.value, f); forEachBody(e.unit, f); return;
    case 'Sequence': for (let iIndex = 0, iList = e.items; iIndex < iList.length; iIndex++) { const i = iList[iIndex]!; forEachBody(i, f); } return;
    case 'Invocation': case 'Constructor': for (let aIndex = 0, aList = e.args; aIndex < aList.length; aIndex++) { const a = aList[aIndex]!; forEachBody(a.value, f); } return;
    case 'ArrowInvocation': forEachBody(e.target, f); for (let aIndex = 0, aList = e.args; aIndex < aList.length; aIndex++) { const a = aList[aIndex]!; forEachBody(a.value, f); } return;
    default: return;
  }
}
