// The engine's view of the parsed documents of a `sources` model: a tree of elements mirroring the
// syntax (members in declaration order), each paired with the declaration src/sysml/names made of the
// same node. Names are resolved by that resolver (enclosing namespaces, imports with filters, aliases,
// inherited members, visibility); what stays here is the engine's own reading of features: which
// features an element has, inherited ones first and redefined ones replaced (the evaluation order).
import type { Alias, Definition, Document, Import, Member, Multiplicity, Package, QualifiedName, Reference, SourceRange, Usage } from '../ast';
import { Workspace, type Declaration } from '../names';
import { isDimensionless, kindExpressionUnit, quantityKindUnit, type Unit } from '../semantics/units';
import { eachSyntaxObject, inheritedTwiceMessage, isOrderedParameter, mentioned, parameterOrderMessage, POSITIONAL_PARAMETER_KINDS, redefinesImplicitly, unredefinedNameMessage } from '../support';
import { isScalarTypeName, type ScalarTypeName } from '../semantics/types';
import { isReferencingWithParameters } from '../semantics/evaluate';
import { UnsupportedError, place } from './errors';

export type NamespaceNode = Package | Definition | Usage;

export interface ModelElement {
  readonly node: NamespaceNode;
  /** The declared name, or for a usage that redefines without a name, the redefined feature's name. */
  readonly name: string | null;
  readonly shortName: string | null;
  readonly parent: ModelElement | undefined;
  /** Path of the document that declares it, as the host sent it. */
  readonly path: string;
  readonly qualifiedName: string;
  readonly members: ModelElement[];
  readonly imports: Import[];
  readonly aliases: Alias[];
}

export interface ParsedDocument {
  readonly path: string;
  readonly document: Document;
}

function bodyOf(node: NamespaceNode): Member[] {
  return (node.kind === 'Package' ? node.members : node.body) ?? [];
}

/** A usage's parts whose names resolve in the usage's owner, not in the usage. */
const OWNER_SCOPED = new Set(['value', 'relations', 'ends']);

/** Library packages whose value types the engine reads by name, imported or not. */
const VALUE_LIBRARY_PACKAGES = ['ScalarValues', 'Quantities', 'MeasurementReferences', 'ISQ', 'SI', 'USCustomaryUnits'];

/** The simple names a syntax subtree reads: `k` of `x + k`, `f` of `f(x)`, the first link of `a.b`. */
function simpleNamesIn(e: unknown, out: Set<string>): void {
  eachSyntaxObject(e, (x) => {
    const n = x as { kind?: string; name?: { segments?: string[]; isGlobal?: boolean }; callee?: { kind?: string; segments?: string[]; isGlobal?: boolean } };
    if (n.kind === 'Name' && n.name?.segments?.length === 1 && !n.name.isGlobal) out.add(n.name.segments[0]!);
    if (n.kind === 'Invocation' && n.callee?.kind === 'QualifiedName' && n.callee.segments?.length === 1 && !n.callee.isGlobal) out.add(n.callee.segments[0]!);
  });
}

function quoteSegment(s: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? s : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Whether `name` is a likely intent for the mistyped `asked`: the same but for case, or a few edits away. */
function closeNames(name: string, asked: string): boolean {
  const a = name.toLowerCase();
  const b = asked.toLowerCase();
  if (a === b) return true;
  const limit = Math.min(a.length, b.length) <= 4 ? 1 : 2;
  if (Math.abs(a.length - b.length) > limit) return false;
  // Levenshtein distance over two rows.
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]! <= limit;
}

/** Splits a qualified name as a surface spells it: `A::'b c'::d`, `A::B.c.d` (a feature chain after `.`). */
export function splitQualifiedName(text: string): string[] {
  const segments: string[] = [];
  let i = 0;
  let current = '';
  const flush = () => {
    segments.push(current.trim());
    current = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== "'") {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        current += text[j];
        j++;
      }
      i = j + 1;
      continue;
    }
    if (c === ':' && text[i + 1] === ':') {
      flush();
      i += 2;
      continue;
    }
    if (c === '.') {
      flush();
      i++;
      continue;
    }
    current += c;
    i++;
  }
  flush();
  return segments.filter((s) => s !== '');
}

/** The effective name of a usage: declared, or taken from what it redefines (`:>> mass = 5`). */
function usageName(u: Usage): string | null {
  if (u.name) return u.name;
  const redefined = u.relations.find((r) => r.relation === 'redefinition');
  // A variant written as a reference (`variant manualTransmission;`: a ReferenceUsage whose reference
  // subsetting names the choice) is known by the referenced feature's name, as `point::manualTransmission`.
  const referenced = u.role === 'variant' && !u.shortName ? u.relations.find((r) => r.relation === 'reference') : undefined;
  if (!redefined) return referenced ? lastSegment(referenced.target) : u.shortName;
  return lastSegment(redefined.target);
}

/** The names of the features a usage redefines (`:>> mass`, `redefines Vehicle::mass`). */
function redefinedNames(e: ModelElement): string[] {
  if (e.node.kind !== 'Usage') return [];
  const out: string[] = [];
  for (const r of e.node.relations) {
    if (r.relation !== 'redefinition') continue;
    const n = lastSegment(r.target);
    if (n !== null && n !== e.name && !out.includes(n)) out.push(n);
  }
  return out;
}

/** A calc's or constraint's result parameter (`return r : Real = …`, `return : Real = …`). */
function isResultParameter(f: ModelElement): boolean {
  return f.node.kind === 'Usage' && f.node.role === 'return';
}

function ownedBy(m: ModelElement, e: ModelElement): boolean {
  return m.parent === e;
}

/** How a feature is valued in its declaration: `=`/`:=` (bound), `default`, or not at all. */
function valueKind(m: ModelElement): 'bound' | 'default' | null {
  if (m.node.kind !== 'Usage' || m.node.value === null) return null;
  return m.node.value.isDefault ? 'default' : 'bound';
}

function hasValue(m: ModelElement): boolean {
  return valueKind(m) === 'bound';
}

function impliedRedefinition(m: ModelElement): boolean {
  return m.node.kind === 'Usage' && redefinesImplicitly(m.node);
}

function declaresRedefinition(m: ModelElement): boolean {
  return m.node.kind === 'Usage' && m.node.relations.some((r) => r.relation === 'redefinition');
}

/** `Vehicle::mass (file:3:9)`: a feature by its owner's name and its place, for messages. */
function described(x: ModelElement): string {
  const owner = x.parent?.name ?? x.parent?.qualifiedName;
  return `${owner ? `${owner}::` : ''}${x.name ?? '<unnamed>'} (${place(x.path, rangeOf(x))})`;
}

export function lastSegment(ref: Reference): string | null {
  const qn = ref.kind === 'FeatureChain' ? ref.chain.at(-1) : ref;
  return qn?.segments.at(-1) ?? null;
}

/** A type of a feature's values whose instances the engine tells apart (see ModelIndex.valueTypesOf). */
export type ValueType =
  | { readonly kind: 'scalar'; readonly name: ScalarTypeName; readonly written: string }
  | { readonly kind: 'enumeration'; readonly definition: ModelElement; readonly written: string };

export class ModelIndex {
  readonly roots: ModelElement[] = [];
  private readonly byNode = new Map<object, ModelElement>();
  private readonly names = new Workspace();
  // The index never changes once built: types, features and members are computed once per element.
  private readonly typesCache = new Map<ModelElement, ModelElement[]>();
  private readonly featuresCache = new Map<ModelElement, ModelElement[]>();
  private readonly memberCache = new Map<ModelElement, Map<string, ModelElement | null>>();
  private readonly featureNameCache = new Map<ModelElement, Map<string, ModelElement>>();
  private readonly subsetterCache = new Map<ModelElement, Map<ModelElement, ModelElement[]>>();
  private readonly conflicts = new Map<ModelElement, string>();
  /** Per element: inherited features two of its supertypes value differently (a diamond), with why. */
  private readonly inheritedConflicts = new Map<ModelElement, Map<ModelElement, string>>();
  private readonly rootsCache = new Map<ModelElement, ModelElement[]>();
  /** An own redefinition and the inherited feature it replaced without naming it (collectFeatures). */
  private readonly replacedFeature = new Map<ModelElement, ModelElement>();
  private readonly multiplicityCache = new Map<ModelElement, Multiplicity | null>();
  private readonly typeNameCache = new Map<ModelElement, string | undefined>();
  private readonly variationCache = new Map<ModelElement, boolean>();
  private readonly featureNamesCache = new Map<ModelElement, Map<string, ModelElement>>();
  private readonly quantityValuedCache = new Map<ModelElement, boolean>();
  private readonly valueTypesCache = new Map<ModelElement, ValueType[]>();
  private readonly namingCache = new Map<ModelElement, Map<ModelElement, string>>();
  private written: WeakMap<object, ModelElement> | undefined;
  private readonly unresolvedCache = new Map<ModelElement, string | null>();
  private readonly hiddenCache = new Map<ModelElement, { feature: ModelElement; message: string } | null>();

  constructor(readonly documents: readonly ParsedDocument[]) {
    for (const doc of documents) this.names.update(doc.path, doc.document);
    for (const doc of documents) {
      for (const m of doc.document.members) {
        const e = this.build(m, undefined, doc.path);
        if (e) this.roots.push(e);
      }
    }
  }

  private build(m: Member, parent: ModelElement | undefined, path: string): ModelElement | undefined {
    if (m.kind !== 'Package' && m.kind !== 'Definition' && m.kind !== 'Usage') return undefined;
    const name = m.kind === 'Usage' ? usageName(m) : (m.name ?? m.shortName);
    const label = name ?? '<unnamed>';
    const element: ModelElement = {
      node: m,
      name,
      shortName: m.shortName,
      parent,
      path,
      qualifiedName: parent ? `${parent.qualifiedName}::${quoteSegment(label)}` : quoteSegment(label),
      members: [],
      imports: [],
      aliases: [],
    };
    this.byNode.set(m, element);
    for (const child of bodyOf(m)) {
      if (child.kind === 'Import') element.imports.push(child);
      else if (child.kind === 'Alias') element.aliases.push(child);
      else {
        const c = this.build(child, element, path);
        if (c) element.members.push(c);
      }
    }
    return element;
  }

  /**
   * The element a name or reference of the model's text is written in, undefined for one not in the
   * model's text (a question's condition). A feature's value, relations and connector ends are read in
   * the feature's owner (as ModelValues and resolveReference read them); anything else in the innermost
   * element whose declaration holds it. An
   * inherited member is evaluated on the subtype's instance, but its names resolve here.
   */
  writtenIn(ref: object): ModelElement | undefined {
    if (!this.written) {
      const map = new WeakMap<object, ModelElement>();
      const walk = (x: unknown, current: ModelElement): void => {
        if (typeof x !== 'object' || x === null) return;
        if (Array.isArray(x)) {
          for (const y of x) walk(y, current);
          return;
        }
        const own = this.byNode.get(x as NamespaceNode);
        const k = (x as { kind?: unknown }).kind;
        if (k === 'QualifiedName' || k === 'FeatureChain') map.set(x, current);
        for (const [key, v] of Object.entries(x)) {
          if (key === 'range' || typeof v !== 'object' || v === null) continue;
          walk(v, own && !(OWNER_SCOPED.has(key) && own.node.kind === 'Usage' && own.parent) ? own : current);
        }
      };
      for (const r of this.roots) walk(r.node, r);
      this.written = map;
    }
    return this.written.get(ref);
  }

  elementOf(node: NamespaceNode): ModelElement | undefined {
    return this.byNode.get(node);
  }

  private declarationOf(e: ModelElement): Declaration | null {
    return this.names.declarationOfNode(e.path, e.node);
  }

  /**
   * The resolver's answer as an element of this model (library names have none): the nearest, the first,
   * when the others are the same feature under redefinition. Two different elements of one name (two
   * imports each bringing one in, two members of one name) are a name the model does not decide: refused
   * naming both, never the first taken. `what` says which name was looked up, and where.
   */
  private elementAmong(found: readonly Declaration[], not?: ModelElement, what?: () => { name: string; at?: string }): ModelElement | undefined {
    const candidates = not ? found.filter((d) => d.node !== not.node) : found;
    const pair = this.names.ambiguousPair(candidates);
    if (pair) {
      const [a, b] = pair.map((d) => (d.node ? this.byNode.get(d.node) : undefined));
      const w = what?.() ?? { name: `'${pair[0].name ?? ''}'` };
      const where = (d: Declaration, e: ModelElement | undefined) => (e ? described(e) : `${d.qualifiedName}${d.document && d.range ? ` (${place(d.document, d.nameRange ?? d.range)})` : ''}`);
      throw new UnsupportedError(`${w.at ? `${w.at}: ` : ''}${w.name} names two different elements, ${where(pair[0], a)} and ${where(pair[1], b)}, neither redefining the other: the name is ambiguous there (KerML: a name resolves to one membership; two imports, two members or two inherited features of that name leave it undecided); qualify it, or leave only one of them in sight`);
    }
    for (const d of candidates) {
      const e = d.node ? this.byNode.get(d.node) : undefined;
      if (e) return e;
    }
    return undefined;
  }

  /** Finds an element by a qualified name as a surface spells it (`P::Vehicle`, `P::Vehicle.engine.mass`). */
  find(qualifiedName: string): ModelElement | undefined {
    return this.findChain(qualifiedName)?.at(-1);
  }

  /**
   * The element of every segment of a qualified name. An inherited feature is reached through the
   * element that inherits it (`P::smallCar::totalMass` is `totalMass` of `smallCar`, declared in
   * `Vehicle`), so the chain, not the element's own owner, says which instance it belongs to.
   */
  findChain(qualifiedName: string): ModelElement[] | undefined {
    const segments = splitQualifiedName(qualifiedName);
    if (segments.length === 0) return undefined;
    let found = this.elementAmong(this.names.global(segments[0]!, 'user'), undefined, () => ({ name: `'${segments[0]}' (in the subject ${qualifiedName})` })) ?? this.named(this.roots, segments[0]!);
    if (!found) return undefined;
    const chain = [found];
    for (const s of segments.slice(1)) {
      // A feature of an instance is the one its redefinitions leave (featuresOf), which the resolver's
      // first inherited match need not be (`car : MassedThing :> compositeThing` takes compositeThing's
      // redefined totalMass).
      const owner: ModelElement = found;
      found = (owner.node.kind !== 'Package' ? this.featureNamed(owner, s) : undefined) ?? this.member(owner, s);
      if (!found) return undefined;
      // A member found by another name (an alias, `alias m for mass;`) is read as the feature the
      // owner's instances have: the redefinition that replaced it (`truck`'s `:>> mass`), not the original.
      if (owner.node.kind !== 'Package') {
        const member: ModelElement = found;
        found = this.featuresOf(owner).find((f) => f === member || this.redefinitionRoots(f).includes(member)) ?? member;
      }
      chain.push(found);
    }
    return chain;
  }

  /**
   * Why `findChain` found nothing, for a user who mistyped a subject: where the walk stopped and the
   * names close to the one missing there (`the subject P::Vehicel is not declared in the model: P has no
   * member 'Vehicel'; did you mean P::Vehicle?`). Also names elements elsewhere that carry the last name.
   */
  missingSubject(qualifiedName: string): string {
    const segments = splitQualifiedName(qualifiedName);
    let owner: ModelElement | undefined;
    let k = 0;
    for (; k < segments.length; k++) {
      const s = segments[k]!;
      const next: ModelElement | undefined = owner
        ? (owner.node.kind !== 'Package' ? this.featureNamed(owner, s) : undefined) ?? this.member(owner, s)
        : this.elementAmong(this.names.global(s, 'user'), undefined, () => ({ name: `'${s}'` })) ?? this.named(this.roots, s);
      if (!next) break;
      owner = next;
    }
    const base = `the subject ${qualifiedName} is not declared in the model`;
    const missing = segments[k];
    if (missing === undefined) return base;
    const candidates = new Map<string, string>(); // name → qualified name
    const prefix = owner ? `${owner.qualifiedName}::` : '';
    for (const e of owner ? [...this.featuresOf(owner), ...owner.members] : this.roots) {
      if (e.name !== null && !candidates.has(e.name)) candidates.set(e.name, prefix + quoteSegment(e.name));
    }
    // A close name with the rest of the asked path, where that resolves (`P::Vehicel::mass` → `P::Vehicle::mass`).
    const rest = segments.slice(k + 1).map(quoteSegment);
    const close = [...candidates.keys()].filter((n) => closeNames(n, missing)).slice(0, 3).map((n) => {
      const whole = [candidates.get(n)!, ...rest].join('::');
      return rest.length > 0 && this.findChain(whole) ? whole : candidates.get(n)!;
    });
    // The same last name declared elsewhere (asked `P::Engine` where it is `P::Parts::Engine`).
    const last = segments.at(-1)!;
    const elsewhere: string[] = [];
    const walk = (es: readonly ModelElement[]) => {
      for (const e of es) {
        if (elsewhere.length >= 3) return;
        if (e.name === last && !close.includes(e.qualifiedName)) elsewhere.push(e.qualifiedName);
        walk(e.members);
      }
    };
    walk(this.roots);
    const where = owner ? `${owner.qualifiedName} has no member '${missing}'` : `no top-level element is named '${missing}'`;
    const suggested = [...new Set([...close, ...elsewhere])];
    if (suggested.length > 0) return `${base}: ${where}; did you mean ${suggested.join(' or ')}?`;
    const names = [...candidates.keys()];
    if (names.length === 0) return `${base}: ${where}`;
    return `${base}: ${where} (${owner ? 'its members' : 'the top-level elements'}: ${names.slice(0, 8).map(quoteSegment).join(', ')}${names.length > 8 ? `, and ${names.length - 8} more` : ''})`;
  }

  private named(elements: readonly ModelElement[], name: string): ModelElement | undefined {
    return elements.find((e) => e.name === name) ?? elements.find((e) => e.shortName === name);
  }

  /** The types an element specializes or is typed by (resolved; unresolvable library types are skipped). */
  typesOf(e: ModelElement): ModelElement[] {
    const cached = this.typesCache.get(e);
    if (cached) return cached;
    const out = this.computeTypes(e);
    this.typesCache.set(e, out);
    return out;
  }

  private computeTypes(e: ModelElement): ModelElement[] {
    const out: ModelElement[] = [];
    // A variant of a variation point specializes it (SysML 8.3.2.x, VariantMembership): an untyped
    // `variant part petrol;` has the variation's features and values.
    if (e.parent && this.isVariant(e)) out.push(e.parent);
    // A constraint usage that names its constraint by reference subsetting and binds parameters in its
    // body (`assert massConstraint { in partMasses = (…); in massLimit = 2500 [kg]; }`): its values are
    // among the referenced constraint's (ReferenceSubsetting is a Subsetting, KerML 7.3.4.5), so it has
    // that constraint's parameters and expression, its own parameters redefining them (as `:> c { … }`).
    // A variant written as a reference (`variant '4cylEngine';`) subsets the part it names
    // (ReferenceSubsetting is a Subsetting): selected, its value has that part's features and values.
    const referencing = isReferencingWithParameters(e.node) || (e.node.kind === 'Usage' && e.node.role === 'variant');
    for (const r of e.node.kind === 'Package' ? [] : e.node.relations) {
      if (r.relation !== 'typing' && r.relation !== 'specialization' && r.relation !== 'subsetting' && r.relation !== 'redefinition' && !(referencing && r.relation === 'reference')) continue;
      const t = this.resolveReference(e.parent ?? e, r.target, e);
      if (t && t !== e && !out.includes(t)) out.push(t);
    }
    // A user keyword declared by semantic metadata (`#heavy part x : Thing;` with `heavy`'s `:>> baseType
    // = heavyThing meta SysML::PartUsage`) makes x specialize heavyThing (SysML 7.26.3, semantic
    // metadata): its features and values are x's, as if `:> heavyThing` were written after the types.
    const declaration = e.node.kind === 'Package' ? null : this.declarationOf(e);
    if (declaration) {
      for (const d of this.names.keywordBases(declaration)) {
        const t = d.node ? this.byNode.get(d.node) : undefined;
        if (t && t !== e && !out.includes(t)) out.push(t);
      }
    }
    return out;
  }

  /**
   * A variation point: a definition or usage declared `variation`, a usage typed by a variation
   * definition, or a feature that redefines one (`part :>> engine = engine::electric;`).
   */
  isVariationPoint(e: ModelElement): boolean {
    const hit = this.variationCache.get(e);
    if (hit !== undefined) return hit;
    this.variationCache.set(e, false);
    let found = false;
    if (e.node.kind === 'Definition') found = e.node.isVariation;
    else if (e.node.kind === 'Usage') {
      found = e.node.isVariation
        // (A variant's own variation point, which it specializes, does not make it one.)
        || this.typesOf(e).some((t) => t !== e.parent && (t.node.kind === 'Definition' ? t.node.isVariation : this.redefinitionRoots(e).includes(t) && this.isVariationPoint(t)));
    }
    this.variationCache.set(e, found);
    return found;
  }

  /** A variant: a `variant` member of a variation point — a choice of it, not a feature of its instances. */
  isVariant(e: ModelElement): boolean {
    return e.node.kind === 'Usage' && e.node.role === 'variant' && e.parent !== undefined && this.isVariationPoint(e.parent);
  }

  /** The variants of a variation point, own and inherited (a variation definition's, for a usage it types). */
  variantsOf(e: ModelElement, seen = new Set<ModelElement>()): ModelElement[] {
    if (seen.has(e)) return [];
    seen.add(e);
    const own = e.members.filter((m) => this.isVariant(m));
    return [...own, ...this.typesOf(e).filter((t) => t !== e.parent).flatMap((t) => this.variantsOf(t, seen))];
  }

  /** Every feature of an element in order: inherited ones first, own ones replacing them by name. */
  featuresOf(e: ModelElement, seen?: Set<ModelElement>, names?: Map<string, ModelElement>): ModelElement[] {
    if (seen === undefined) {
      const cached = this.featuresCache.get(e);
      if (cached) return cached;
      const names = new Map<string, ModelElement>();
      const computed = this.collectFeatures(e, new Set(), names);
      this.featuresCache.set(e, computed);
      this.featureNamesCache.set(e, names);
      return computed;
    }
    return this.collectFeatures(e, seen, names);
  }

  /**
   * featuresOf's work; `names`, when given, receives every name each feature answers to: its own, those
   * of the features it redefines, and those the supertypes gave the features it replaced (`bandCost
   * :>> ringCost` in Band, `:>> ringCost = 500` in onBase: `bandCost` on onBase is that redefinition).
   */
  private collectFeatures(e: ModelElement, seen: Set<ModelElement>, names?: Map<string, ModelElement>): ModelElement[] {
    if (seen.has(e)) return [];
    seen.add(e);
    const result: ModelElement[] = [];
    const index = new Map<string, number>();
    /** Which supertype (by position) an inherited entry came from, to tell two branches apart. */
    const branchOf = new Map<number, number>();
    const clashes = new Map<number, string>();
    let branch = -1;
    // A redefinition is one feature under two names (KerML 7.3.4.6): `attribute y :>> x` replaces the
    // inherited `x`, and reading `x` or `y` gives the same feature.
    const put = (m: ModelElement, own: boolean, given: readonly string[] = []) => {
      const names = [m.name, ...this.redefinedNamesOf(m), ...given].filter((n, i, all): n is string => n !== null && all.indexOf(n) === i);
      let at: number | undefined;
      for (const n of names) {
        at = index.get(n);
        if (at !== undefined) break;
      }
      // A body's own result parameter redefines the inherited one, named or not (KerML: a Function's
      // result parameter redefines those of the Functions it specializes): `calc def Cube :> Sq { in x;
      // return : Real = x * x * x; }` answers with its own result, not Square's. One without a value
      // (`return e;`) keeps the inherited one's, as a redefinition without a value does (valueSource).
      if (at === undefined && own && isResultParameter(m) && valueKind(m) !== null) {
        const inherited = result.findIndex((f) => isResultParameter(f) && !ownedBy(f, e));
        if (inherited >= 0) at = inherited;
      }
      if (at !== undefined) {
        const before = result[at]!;
        if (!own && before !== m && branchOf.get(at) !== branch) {
          // Two supertypes each give the feature a value (`D :> B, C` where B and C both redefine x
          // with a value): an instance of D has both, and neither replaces the other (KerML 7.3.4.6
          // replaces only what a feature itself redefines). A bound value beats a default; else the
          // feature has two values, unless the element's own redefinition says which.
          const related = this.redefinitionRoots(m).includes(before) || this.redefinitionRoots(before).includes(m);
          if (!related && valueKind(before) !== null && valueKind(m) !== null) {
            if (valueKind(before) === 'bound' && valueKind(m) === 'default') return;
            if (valueKind(before) === valueKind(m)) {
              const where = (x: ModelElement) => `${x.parent?.name ?? '?'} (${x.node.range.line}:${x.node.range.column})`;
              clashes.set(at, inheritedTwiceMessage(m.name ?? names[0]!, valueKind(m) === 'default', where(before), where(m), e.name));
            }
          }
        }
        if (own) clashes.delete(at);
        // An own redefinition that replaces an inherited feature it does not name (`w :>> A::x` where B's
        // `:>> x = 2.0` already redefined A::x) stands in for that feature too: without a value of its
        // own it has that feature's, the nearest (it read A's 1.0 past B's 2.0).
        if (own && before !== m && !this.redefinitionRoots(m).includes(before)) this.replacedFeature.set(m, before);
        if (own && ownedBy(before, e) && before !== m && hasValue(before) && hasValue(m)) {
          const message = `'${m.name ?? names[0]}' and '${before.name ?? names[0]}' are one feature (a redefinition) valued twice, at ${before.node.range.line}:${before.node.range.column} and ${m.node.range.line}:${m.node.range.column}: a feature has one value`;
          this.conflicts.set(m, message);
          this.conflicts.set(before, message);
        }
        result[at] = m;
      } else {
        at = result.length;
        result.push(m);
      }
      if (!own) branchOf.set(at, branch);
      for (const n of names) index.set(n, at);
    };
    const types = this.typesOf(e);
    for (const [i, t] of types.entries()) {
      branch = i;
      // The names the supertype gives each feature come along: `D :> B` where B's `z :>> x` is replaced
      // by D's `:>> x` leaves one feature that answers to z on D's instances too (it read B's z = 2 beside
      // D's x = 4, while A's expressions read 4).
      const given = new Map<string, ModelElement>();
      const inherited = this.featuresOf(t, seen, given);
      const namesGiven = new Map<ModelElement, string[]>();
      for (const [n, f] of given) namesGiven.set(f, [...(namesGiven.get(f) ?? []), n]);
      for (const m of inherited) put(m, false, namesGiven.get(m));
    }
    // A variation point's variants are its choices, not features of its instances.
    for (const m of e.members) if (!this.isVariant(m)) put(m, true);
    // Clashes found here, and those of the supertypes that no own member resolved, hold for e.
    const mine = this.inheritedConflicts.get(e) ?? new Map<ModelElement, string>();
    for (const [at, message] of clashes) mine.set(result[at]!, message);
    for (const t of types) {
      for (const [f, message] of this.inheritedConflicts.get(t) ?? []) if (result.includes(f)) mine.set(f, message);
    }
    if (mine.size > 0) this.inheritedConflicts.set(e, mine);
    if (names) for (const [n, at] of index) names.set(n, result[at]!);
    return result;
  }

  /**
   * Why a feature cannot be read on an instance of `owner`: it values a feature that already has a value
   * in the same body, it is inherited with two values, or its name names two features there (namingProblems).
   */
  conflictOf(e: ModelElement, owner?: ModelElement): string | undefined {
    const own = this.conflicts.get(e);
    if (own !== undefined || owner === undefined) return own;
    this.featuresOf(owner);
    return this.namingProblems(owner).get(e) ?? this.inheritedConflicts.get(owner)?.get(e);
  }

  /**
   * The features of an element (as featuresOf lists them) whose name names two different features there,
   * with why. featuresOf reads features by name, one feature per name; KerML does not: redefinition is a
   * relationship a feature declares (`:>>`, `redefines`; KerML 7.3.4.6), implied only for parameters by
   * position (checkFeatureParameterRedefinition), ends, subjects and results. A feature declared under an
   * inherited feature's name without one is another feature, whose name clashes with the inherited one
   * (KerML Namespace::validateNamespaceDistinguishibility), and the supertype's expressions still read
   * the supertype's feature, which by name would be the new one: such a feature is refused where it is
   * read, never taken for the other. So are two unrelated features of one name from two supertypes, two
   * of one name in one body, and a parameter whose position and name say different parameters.
   */
  namingProblems(e: ModelElement): Map<ModelElement, string> {
    const hit = this.namingCache.get(e);
    if (hit) return hit;
    const out = new Map<ModelElement, string>();
    this.namingCache.set(e, out); // a cycle of specializations sees none
    const features = this.featuresOf(e);
    const types = this.typesOf(e).filter((t) => !(t === e.parent && this.isVariant(e)));
    const namesOf = (t: ModelElement) => {
      this.featuresOf(t);
      return this.featureNamesCache.get(t) ?? new Map<string, ModelElement>();
    };
    const unrelated = (a: ModelElement, b: ModelElement) =>
      a !== b && a.node.kind === 'Usage' && b.node.kind === 'Usage' && !impliedRedefinition(a) && !impliedRedefinition(b) && !this.oneFeature(a, b);
    const add = (f: ModelElement | undefined, message: string | undefined) => {
      if (f && message !== undefined && !out.has(f)) out.set(f, message);
    };
    const own = e.members.filter((m) => m.node.kind === 'Usage' && !this.isVariant(m));
    for (const [i, m] of own.entries()) {
      const names = [m.name, ...this.redefinedNamesOf(m)].filter((n): n is string => n !== null);
      for (const n of names) {
        const twin = own.slice(0, i).find((x) => x.name === n && unrelated(x, m));
        if (twin) add(m, `'${n}' is declared twice in ${e.name ?? e.qualifiedName}, at ${described(twin)} and ${described(m)}, and neither redefines the other: a name names one member of a namespace (KerML Namespace::validateNamespaceDistinguishibility); rename one, or redefine with \`:>>\``);
        for (const t of types) {
          const inherited = namesOf(t).get(n);
          if (inherited && unrelated(inherited, m)) {
            const keyword = m.node.kind === 'Usage' ? m.node.keyword : 'feature';
            add(m, unredefinedNameMessage(n, e.name ?? e.qualifiedName, keyword, described(inherited), inherited.parent?.name ?? 'the supertype'));
          }
        }
      }
    }
    // Two supertypes each with its own feature of one name (not a diamond over one feature).
    for (const [i, a] of types.entries()) {
      for (const b of types.slice(i + 1)) {
        const other = namesOf(b);
        for (const [n, fa] of namesOf(a)) {
          const fb = other.get(n);
          if (!fb || !unrelated(fa, fb)) continue;
          const mine = this.featureNamesCache.get(e)?.get(n);
          if (mine && own.includes(mine) && this.oneFeature(mine, fa) && this.oneFeature(mine, fb)) continue;
          add(mine, `${e.name ?? e.qualifiedName} inherits two different features named '${n}', ${described(fa)} and ${described(fb)}, and neither redefines the other: a name names one feature of ${e.name ?? e.qualifiedName} (KerML Namespace::validateNamespaceDistinguishibility); rename one, or redefine one by the other`);
        }
      }
    }
    if (POSITIONAL_PARAMETER_KINDS.has(declarationKind(e))) {
      const ordered = (x: ModelElement) => isOrderedParameter(x.node as Member);
      const params = own.filter(ordered);
      for (const t of types) {
        // A parameter renamed in place is read as a feature of its own where that cannot differ: the one
        // it redefines has no value and no body of the supertypes (or of this element) names it.
        let names: Set<string> | undefined;
        const used = (x: ModelElement) => valueKind(x) !== null || x.name === null || (names ??= this.mentionedIn([e, t])).has(x.name);
        const theirs = this.featuresOf(t).filter(ordered).map((x) => ({ name: x.name, at: place(x.path, rangeOf(x)), get used() { return used(x); } }));
        for (const [i, p] of params.entries()) {
          if (declaresRedefinition(p) || p.name === null) continue;
          add(p, parameterOrderMessage(p.name, i, e.name ?? e.qualifiedName, (p.node as Usage).direction ?? 'in', theirs, t.name ?? t.qualifiedName));
        }
      }
    }
    // What a supertype's features have, its instances have, redefined or not.
    for (const t of types) {
      for (const [f, message] of this.namingProblems(t)) add(features.find((x) => x === f || this.redefinitionRoots(x).includes(f)) ?? (f.name !== null ? this.featureNamesCache.get(e)?.get(f.name) : undefined), message);
    }
    return out;
  }

  /**
   * A feature of a calc, constraint, requirement or case body that a supertype's body would read where
   * its name means something else. Such a body is evaluated over one scope of its members by name
   * (ModelValues.bodyMembers), its supertypes' included; but a name in a supertype's body resolves where
   * it is written (KerML 8.2.3.5): `k` in `calc def C { in x; x + k }` is the package's `k` when C has no
   * feature `k`, whatever `calc c2 : C { attribute k = 100.0; }` adds. Undefined when none; else the added
   * feature, with why it is refused.
   */
  hiddenBodyName(e: ModelElement): { feature: ModelElement; message: string } | undefined {
    if (this.hiddenCache.has(e)) return this.hiddenCache.get(e) ?? undefined;
    let found: { feature: ModelElement; message: string } | undefined;
    const supertypes: ModelElement[] = [];
    const visit = (x: ModelElement) => {
      for (const t of this.typesOf(x)) {
        if (t === e || supertypes.includes(t)) continue;
        supertypes.push(t);
        visit(t);
      }
    };
    visit(e);
    outer: for (const t of supertypes) {
      const names = new Set<string>();
      simpleNamesIn(bodyOf(t.node), names);
      for (const n of names) {
        const added = this.featureNamed(e, n);
        if (!added || this.featureNamed(t, n)) continue;
        let meant: ModelElement | undefined;
        try {
          meant = this.resolveSegments(t, [n]);
        } catch {
          meant = undefined;
        }
        if (meant === added) continue;
        const what = meant ? described(meant) : 'no feature of it';
        found = {
          feature: added,
          message: `'${n}' in the body of ${t.name ?? t.qualifiedName} names ${what} where it is written (KerML: a name resolves where it is written, and ${t.name ?? t.qualifiedName} has no feature '${n}'), but ${e.name ?? e.qualifiedName} evaluates that body with its own ${described(added)} under that name: not modeled; rename one of them`,
        };
        break outer;
      }
    }
    this.hiddenCache.set(e, found ?? null);
    return found;
  }

  /**
   * The first type, specialized definition, subsetted or redefined feature that an element (or what it
   * specializes, transitively) names and that resolves to nothing, in the model or the library: such an
   * element's features, values and constraints are not known (a requirement typed by an unresolved name
   * has conditions the engine cannot see), so reading it is refused. Undefined when all resolve.
   */
  unresolvedType(e: ModelElement): string | undefined {
    if (this.unresolvedCache.has(e)) return this.unresolvedCache.get(e) ?? undefined;
    this.unresolvedCache.set(e, null); // a cycle of specializations finds nothing more
    let found: string | undefined;
    if (e.node.kind !== 'Package') {
      for (const r of e.node.relations) {
        if (r.relation !== 'typing' && r.relation !== 'specialization' && r.relation !== 'subsetting' && r.relation !== 'redefinition') continue;
        const scope = e.parent ?? e;
        let resolved: boolean;
        try {
          resolved = this.resolveReference(scope, r.target, e) !== undefined || this.libraryNameOf(scope, r.target, e) !== undefined || this.knownLibraryType(r.target);
        } catch {
          resolved = true; // an ambiguous name is refused where it is read, naming both
        }
        if (!resolved) {
          const text = r.target.kind === 'QualifiedName' ? r.target.segments.join('::') : r.target.chain.map((q) => q.segments.join('::')).join('.');
          found = `${place(e.path, r.target.range)}: '${text}', which ${e.name ?? e.qualifiedName} ${r.relation === 'typing' ? 'is typed by' : r.relation === 'redefinition' ? 'redefines' : r.relation === 'subsetting' ? 'subsets' : 'specializes'}, names nothing the model or the library declares: what it inherits (features, values, constraints) is unknown, so it is not read`;
          break;
        }
      }
      if (!found) for (const t of this.typesOf(e)) if ((found = this.unresolvedType(t))) break;
    }
    this.unresolvedCache.set(e, found ?? null);
    return found;
  }

  /**
   * A value type of the quantity and scalar libraries named without its import (`attribute x : Real`
   * with no `import ScalarValues::*`): the engine reads these by name, so what they give is known.
   */
  private knownLibraryType(ref: Reference): boolean {
    if (ref.kind !== 'QualifiedName') return false;
    const last = ref.segments.at(-1)!;
    return VALUE_LIBRARY_PACKAGES.some((p) => this.names.resolvePath([p, last], 'builtin').length > 0);
  }

  /** The names mentioned in these elements' bodies and in those of the types they specialize. */
  private mentionedIn(elements: readonly ModelElement[]): Set<string> {
    const names = new Set<string>();
    const seen = new Set<ModelElement>();
    const visit = (x: ModelElement): void => {
      if (seen.has(x)) return;
      seen.add(x);
      mentioned(bodyOf(x.node), names);
      for (const t of this.typesOf(x)) visit(t);
    };
    for (const x of elements) visit(x);
    return names;
  }

  /** Whether two features are one feature: the same, or one redefines the other, or both redefine a third. */
  private oneFeature(a: ModelElement, b: ModelElement): boolean {
    const roots = this.redefinitionRoots(b);
    return this.redefinitionRoots(a).some((r) => roots.includes(r));
  }

  /**
   * The features of `owner` that subset `feature` (`part engine :> subcomponents`): their values are
   * values of `feature` (KerML 7.3.4.5).
   */
  subsettersOf(owner: ModelElement, feature: ModelElement): ModelElement[] {
    let byFeature = this.subsetterCache.get(owner);
    if (!byFeature) this.subsetterCache.set(owner, (byFeature = new Map()));
    const hit = byFeature.get(feature);
    if (hit) return hit;
    const roots = this.redefinitionRoots(feature);
    const out: ModelElement[] = [];
    // A redefinition keeps what it redefines subsets (`part :>> engine { … }` in a subtype, where the
    // supertype's `engine :> carParts`): a redefining feature's values are the redefined feature's
    // (KerML 7.3.4.6), so they are values of every feature that one subsets (7.3.4.5).
    const subsets = (f: ModelElement): boolean => {
      for (const x of this.redefinitionRoots(f)) {
        if (x.node.kind !== 'Usage') continue;
        for (const r of x.node.relations) {
          if (r.relation !== 'subsetting') continue;
          const t = this.resolveReference(x.parent ?? x, r.target, x);
          if (t && this.redefinitionRoots(t).some((y) => roots.includes(y))) return true;
        }
      }
      return false;
    };
    for (const f of this.featuresOf(owner)) {
      if (f === feature || f.node.kind !== 'Usage' || roots.includes(f)) continue;
      if (subsets(f)) out.push(f);
    }
    byFeature.set(feature, out);
    return out;
  }

  /** Every name a feature is known by through the features it redefines, transitively (`y :>> x`: x). */
  redefinedNamesOf(e: ModelElement): string[] {
    const out = redefinedNames(e);
    if (e.node.kind !== 'Usage' || !e.node.relations.some((r) => r.relation === 'redefinition')) return out;
    for (const r of this.redefinitionRoots(e).slice(1)) if (r.name !== null && r.name !== e.name && !out.includes(r.name)) out.push(r.name);
    return out;
  }

  /**
   * The declaration whose value a feature has: its own, or for a redefinition without one (`attribute
   * grossMass :>> mass;`) the nearest feature it redefines that has one — that feature's binding holds on
   * every instance of its owner, a subtype's included. Undefined when none has a value.
   */
  valueSource(e: ModelElement): (ModelElement & { node: Usage & { value: NonNullable<Usage['value']> } }) | undefined {
    const valued = (x: ModelElement): x is ModelElement & { node: Usage & { value: NonNullable<Usage['value']> } } => x.node.kind === 'Usage' && x.node.value !== null;
    if (valued(e)) return e;
    // The inherited feature e replaces in its owner, when e does not redefine it by name (collectFeatures).
    if (e.parent) this.featuresOf(e.parent);
    const replaced = this.replacedFeature.get(e);
    if (replaced) {
      const found = this.valueSource(replaced);
      if (found) return found;
    }
    return this.redefinitionRoots(e).find(valued);
  }

  /** A feature and every feature it redefines, transitively. */
  redefinitionRoots(e: ModelElement): ModelElement[] {
    const hit = this.rootsCache.get(e);
    if (hit) return hit;
    const out = [e];
    this.rootsCache.set(e, out);
    for (let i = 0; i < out.length; i++) {
      const x = out[i]!;
      if (x.node.kind !== 'Usage') continue;
      for (const r of x.node.relations) {
        if (r.relation !== 'redefinition') continue;
        const t = this.resolveReference(x.parent ?? x, r.target, x);
        if (t && !out.includes(t)) out.push(t);
      }
    }
    return out;
  }

  /** The multiplicity a feature declares, or inherits from the feature it redefines. */
  multiplicityOf(e: ModelElement): Multiplicity | null {
    const hit = this.multiplicityCache.get(e);
    if (hit !== undefined) return hit;
    let found: Multiplicity | null = null;
    for (const x of this.redefinitionRoots(e)) {
      if (x.node.kind === 'Usage' && x.node.multiplicity) {
        found = x.node.multiplicity;
        break;
      }
    }
    this.multiplicityCache.set(e, found);
    return found;
  }

  /**
   * Every multiplicity a feature is under: its own (or the one multiplicityOf gives) and those of the
   * features it redefines, transitively. KerML 7.3.4.6: a redefining and a redefined feature have the
   * same values, so restrictions on either, multiplicity included, apply to both.
   */
  multiplicitiesOf(e: ModelElement): { multiplicity: Multiplicity; of: ModelElement }[] {
    const out: { multiplicity: Multiplicity; of: ModelElement }[] = [];
    for (const x of this.redefinitionRoots(e)) {
      const m = x.node.kind === 'Usage' ? x.node.multiplicity : null;
      if (m && !out.some((o) => o.multiplicity === m)) out.push({ multiplicity: m, of: x });
    }
    return out;
  }

  /**
   * Whether a feature's values are quantity values although its type is the model's own: a type that
   * specializes, through the model's definitions, the library's `Quantities::ScalarQuantityValue` (or
   * another quantity value type of the library: `attribute def DistancePerVolumeValue :>
   * ScalarQuantityValue { :>> mRef : DistancePerVolumeUnit; }`). Such a value is a number with a
   * unit, not a structure of its `num` and `mRef`.
   */
  isQuantityValued(e: ModelElement, seen = new Set<ModelElement>()): boolean {
    const hit = this.quantityValuedCache.get(e);
    if (hit !== undefined) return hit;
    if (seen.has(e) || e.node.kind === 'Package') return false;
    seen.add(e);
    let found = false;
    for (const r of e.node.relations) {
      if (r.relation !== 'typing' && r.relation !== 'specialization') continue;
      const library = this.libraryNameOf(e.parent ?? e, r.target);
      if (library !== undefined) {
        if (QUANTITY_VALUE_TYPES.has(library) || (library.startsWith('ISQ') && quantityKindUnit(library.split('::').at(-1)!))) found = true;
      } else {
        const t = this.resolveReference(e.parent ?? e, r.target, e);
        if (t && t !== e && this.isQuantityValued(t, seen)) found = true;
      }
      if (found) break;
    }
    this.quantityValuedCache.set(e, found);
    return found;
  }

  /**
   * The types a feature's values must be instances of (KerML FeatureTyping) that the engine tells apart:
   * ScalarValues' types (named through the library, or by a name the model does not declare: `Integer`
   * without an import) and the model's enumerations; through the definitions that type it (`attribute
   * def Speed :> Real`) and the features it subsets or redefines (their types are its types too).
   */
  valueTypesOf(e: ModelElement): ValueType[] {
    let hit = this.valueTypesCache.get(e);
    if (!hit) {
      hit = [];
      this.collectValueTypes(e, new Set(), hit);
      this.valueTypesCache.set(e, hit);
    }
    return hit;
  }

  private collectValueTypes(e: ModelElement, seen: Set<ModelElement>, out: ValueType[]): void {
    if (seen.has(e) || e.node.kind === 'Package') return;
    seen.add(e);
    const isDefinition = e.node.kind === 'Definition';
    for (const r of e.node.relations) {
      const asType = r.relation === 'typing' || (isDefinition && r.relation === 'specialization');
      const asFeature = !isDefinition && (r.relation === 'subsetting' || r.relation === 'redefinition');
      if (!asType && !asFeature) continue;
      const t = this.resolveReference(e.parent ?? e, r.target, e);
      if (t) {
        if (t === e) continue;
        // An enumeration's own supertypes are not more enumerations of its values.
        const enumeration = t.node.kind === 'Definition' && t.node.keyword === 'enum';
        if (asType && enumeration && !(isDefinition && e.node.keyword === 'enum')) out.push({ kind: 'enumeration', definition: t, written: lastSegment(r.target) ?? t.qualifiedName });
        if (asType ? t.node.kind === 'Definition' : t.node.kind === 'Usage') this.collectValueTypes(t, seen, out);
        continue;
      }
      if (!asType || r.target.kind !== 'QualifiedName') continue;
      const library = this.libraryNameOf(e.parent ?? e, r.target);
      const name = library === undefined ? r.target.segments.at(-1) : /^ScalarValues::([^:]+)$/.exec(library)?.[1];
      if (name !== undefined && isScalarTypeName(name)) out.push({ kind: 'scalar', name, written: r.target.segments.join('::') });
    }
  }

  /** typeName, once per element (the index never changes). */
  typeNameOf(e: ModelElement): string | undefined {
    if (this.typeNameCache.has(e)) return this.typeNameCache.get(e);
    const t = typeName(e, this);
    this.typeNameCache.set(e, t);
    return t;
  }

  /** A feature (own or inherited usage) of an element by name or short name. */
  featureNamed(e: ModelElement, name: string): ModelElement | undefined {
    let byName = this.featureNameCache.get(e);
    if (!byName) {
      byName = new Map();
      const features = this.featuresOf(e);
      for (const f of features) {
        if (f.node.kind === 'Usage' && f.shortName && !byName.has(f.shortName)) byName.set(f.shortName, f);
      }
      // Every name a feature answers to (featuresOf's); a feature's own name wins over another's short
      // or redefined name.
      for (const [n, f] of this.featureNamesCache.get(e) ?? []) {
        if (f.node.kind === 'Usage' && (f.name === n || !byName.has(n))) byName.set(n, f);
      }
      this.featureNameCache.set(e, byName);
    }
    return byName.get(name);
  }

  /** A member of an element by name: own, inherited, aliased or imported, as the resolver sees it from inside. */
  member(e: ModelElement, name: string): ModelElement | undefined {
    let byName = this.memberCache.get(e);
    if (!byName) this.memberCache.set(e, (byName = new Map()));
    const hit = byName.get(name);
    if (hit !== undefined) return hit ?? undefined;
    const d = this.declarationOf(e);
    const found = d ? this.elementAmong(this.names.memberNamed(d, name, d), undefined, () => ({ name: `'${name}' in ${e.qualifiedName}` })) : this.named(e.members, name);
    byName.set(name, found ?? null);
    return found;
  }

  /**
   * A name found through an import whose filter condition the resolver cannot decide (`import
   * Parts::*[@Safety and Safety::level > 5];`, which reads a metadata feature's value): whether the
   * import admits the element, and so whether the name names it or a feature further out, is not known.
   * It admitted it and the name read Parts::p (4) where the filter excludes it (the outer p, 20). Refused.
   */
  private undecidedImport(found: readonly Declaration[], from: Declaration, name: string, scope: ModelElement | undefined, range: SourceRange | undefined): void {
    const enclosing = new Set<Declaration>();
    for (let d: Declaration | null = from; d; d = d.parent) enclosing.add(d);
    for (const d of found) {
      const imp = this.names.undecidedFilter(d);
      if (!imp || !enclosing.has(imp.owner) || (d.parent && enclosing.has(d.parent))) continue;
      const at = imp.owner.document && imp.node ? place(imp.owner.document, imp.node.range) : imp.owner.qualifiedName;
      throw new UnsupportedError(`${scope && range ? `${place(scope.path, range)}: ` : ''}'${name}' is found through the filtered import at ${at}, whose condition is not decided here (a filter reads whether an element has some metadata, @M, not the values of metadata features): whether it admits ${d.qualifiedName}, and so what '${name}' names, is not known`);
    }
  }

  /** Resolves `A::B::c` from a scope: the first segment from the scope outward (or globally), the rest as members. */
  resolveSegments(scope: ModelElement | undefined, segments: readonly string[], global = false, range?: SourceRange): ModelElement | undefined {
    if (segments.length === 0) return undefined;
    const from = scope ? this.declarationOf(scope) : null;
    const what = (k: number) => () => ({ name: `'${segments.slice(0, k + 1).join('::')}'`, ...(scope && range ? { at: place(scope.path, range) } : {}) });
    let current = from && !global ? this.names.lexical(segments[0]!, from, null) : this.names.global(segments[0]!, 'user');
    if (from && !global) this.undecidedImport(current, from, segments[0]!, scope, range);
    for (const [k, s] of segments.slice(1).entries()) {
      if (current.length === 0) return undefined;
      // Each namespace on the way must be one (`Lib::g` with two `Lib`s in sight is undecided).
      this.elementAmong(current, undefined, what(k));
      current = current.flatMap((ns) => this.names.memberNamed(ns, s, from ?? ns));
    }
    return this.elementAmong(current, undefined, what(segments.length - 1));
  }

  /**
   * The qualified name of the library (or built-in) declaration a reference resolves to from a scope
   * (`sum` under `private import VectorFunctions::*` is `VectorFunctions::sum`); undefined when it
   * resolves to nothing there or to an element of the model.
   */
  libraryNameOf(scope: ModelElement, ref: Reference, owner?: ModelElement): string | undefined {
    const from = this.declarationOf(scope);
    if (!from) return undefined;
    // The feature a relation belongs to is not its own target (KerML: `item :>> shape;` redefines the
    // inherited `shape`, which its own implicit name would otherwise hide).
    const found = this.names.resolveReference(ref, from, owner ? (this.declarationOf(owner) ?? null) : null);
    const d = found.find((x) => x.layer !== 'user');
    if (!d || found.some((x) => x.layer === 'user')) return undefined;
    const names: string[] = [];
    for (let x: Declaration | null = d; x; x = x.parent) if (x.name !== null) names.unshift(x.name);
    return names.join('::');
  }

  /**
   * `x @@ T`: whether the metadata of the element `x` names is classified by `T` (KerML
   * MetaclassificationExpression: its operand is a MetadataAccessExpression, whose value is the metadata
   * features `x` owns that annotate it, and the metaobject of `x`'s own metaclass). A boolean where
   * every one of those metaobjects is a `T`, or none is; otherwise (the metaclass is and an annotation
   * is not, or the reverse), and where `x`'s metaclass is not read here, the reason it is not answered.
   */
  metaclassification(scope: ModelElement, element: QualifiedName, type: QualifiedName): boolean | string {
    const from = this.declarationOf(scope);
    const text = (q: QualifiedName) => q.segments.join('::');
    if (!from) return `'${text(element)}' is not read here`;
    const one = (q: QualifiedName, from: Declaration): Declaration | string => {
      const found = this.names.resolveReference(q, from, null);
      if (found.length === 0) return `unknown name '${text(q)}'`;
      const distinct = [...new Set(found)];
      if (distinct.some((x) => !this.names.sameFeature(x, distinct[0]!))) return `'${text(q)}' names more than one element`;
      return found[0]!;
    };
    const d = one(element, from);
    if (typeof d === 'string') return d;
    const t = one(type, from);
    if (typeof t === 'string') return t;
    const metaclass = this.names.metaclassOf(d);
    if (metaclass === undefined) {
      const what = d.isDefinition ? `${d.kind} definition` : d.kind;
      return `the metaclass of '${text(element)}' (${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}${d.node && 'role' in d.node && d.node.role ? ` with the role ${d.node.role}` : ''}) is not read by the engine`;
    }
    // Metadata declared elsewhere `about` the element annotates it without being its own: whether the
    // metadata access reads it too is not decided here (refused rather than left out).
    for (const e of this.byNode.values()) {
      const n = e.node;
      if (n.kind !== 'Usage' || n.keyword !== 'metadata' || n.about.length === 0 || !e.parent) continue;
      const owner = this.declarationOf(e.parent);
      if (!owner || owner === d) continue;
      for (const a of n.about) {
        if (this.names.resolveReference(a, owner, null).includes(d)) {
          return `'${text(element)}' is annotated by the metadata ${e.qualifiedName} (${place(e.path, a.range)}), declared about it outside it: whether its metadata access reads metadata it does not own is not modeled`;
        }
      }
    }
    const metaobjects: { what: string; type: Declaration }[] = [{ what: `its metaclass SysML::${metaclass.name ?? ''}`, type: metaclass }];
    for (const ref of d.metadataRefs) {
      const m = d.parent ? one(ref, d.parent) : `'${text(ref)}' is not read here`;
      if (typeof m === 'string') return m;
      metaobjects.push({ what: `its metadata ${text(ref)}${d.document ? ` (${place(d.document, ref.range)})` : ''}`, type: m });
    }
    const classified = metaobjects.map((m) => this.names.specializes(m.type, t));
    if (classified.every((c) => c === classified[0])) return classified[0]!;
    const listed = metaobjects.map((m, i) => `${m.what}, ${classified[i] ? 'a' : 'not a'} ${text(type)}`).join('; ');
    return `the metadata of '${text(element)}' is ${listed}: whether '@@' asks that each of them is one or that one of them is, is not modeled`;
  }

  resolveQualifiedName(scope: ModelElement | undefined, qn: QualifiedName): ModelElement | undefined {
    return this.resolveSegments(scope, qn.segments, qn.isGlobal, qn.range);
  }

  /**
   * Resolves a reference written on `owner` in `scope` (a chain `a.b.c` walks features from the first
   * link). The owner is never its own answer: `:>> mass` names the inherited `mass`.
   */
  resolveReference(scope: ModelElement | undefined, ref: Reference, owner?: ModelElement): ModelElement | undefined {
    const from = scope ? this.declarationOf(scope) : null;
    if (from) {
      const what = () => ({ name: `'${ref.kind === 'QualifiedName' ? ref.segments.join('::') : ref.chain.map((q) => q.segments.join('::')).join('.')}'`, at: place((owner ?? scope)!.path, ref.range) });
      return this.elementAmong(this.names.resolveReference(ref, from, owner ? this.declarationOf(owner) : null), owner, what);
    }
    if (ref.kind === 'QualifiedName') return this.resolveQualifiedName(undefined, ref);
    let found = this.resolveQualifiedName(undefined, ref.chain[0]!);
    for (const link of ref.chain.slice(1)) found = found ? this.resolveSegments(found, link.segments) : undefined;
    return found;
  }
}

/**
 * The unit of a quantity kind the model declares and a feature subsets or redefines (`attribute
 * actualFuelEconomy :> distancePerVolume;` where `attribute distancePerVolume : ScalarQuantityValue =
 * length / volume;`): the kind expression's dimension, its names read as the library's quantities (or
 * other such kinds of the model). Undefined for anything else, and for a dimensionless kind (a plain
 * number is one of its values).
 */
export function modelKindUnit(feature: ModelElement, index: ModelIndex, seen = new Set<ModelElement>()): Unit | undefined {
  if (feature.node.kind !== 'Usage' || seen.has(feature)) return undefined;
  seen.add(feature);
  for (const r of feature.node.relations) {
    if (r.relation !== 'subsetting' && r.relation !== 'redefinition') continue;
    const target = index.resolveReference(feature.parent ?? feature, r.target, feature);
    if (!target || target.node.kind !== 'Usage' || seen.has(target)) continue;
    const own = kindOfElement(target, index, seen);
    if (own) return isDimensionless(own.dimension) ? undefined : own;
    const inherited = modelKindUnit(target, index, seen);
    if (inherited) return inherited;
  }
  return undefined;
}

/** A model attribute as a kind: its declared quantity type, or its value when that is a kind expression. */
function kindOfElement(e: ModelElement, index: ModelIndex, seen: Set<ModelElement>): Unit | undefined {
  const type = typeName(e, index);
  const declared = type ? quantityKindUnit(type) : undefined;
  if (declared) return declared;
  if (e.node.kind !== 'Usage' || !e.node.value || e.node.value.isDefault || seen.has(e)) return undefined;
  // Only a value type of quantities declares a kind by its value (`: ScalarQuantityValue = length / volume`).
  if (type && !/(^|::)(ScalarQuantityValue|QuantityValue)$/.test(type)) return undefined;
  seen.add(e);
  return kindExpressionUnit(e.node.value.expression, (name) => {
    const el = index.resolveReference(e.parent ?? e, name, e);
    // The library's quantities are not elements of the model's index: read by their names (ISQ `length`).
    return el ? kindOfElement(el, index, seen) : quantityKindUnit(name.segments.at(-1)!);
  });
}

/**
 * The kind a feature declares by its value rather than a value of its own: `torquePerCurrent :>
 * scalarQuantities = ISQ::torque / ISQ::electricCurrent;` (untyped, or typed ScalarQuantityValue /
 * QuantityValue), its value a product, quotient or integer power of names each of which is a library
 * quantity (`ISQ::torque`, read by name: the library's quantities are no elements of the model) or a
 * feature of the model declaring a kind in the same way. The names are features of the library whose
 * values are every value of that quantity, so the expression stands for a kind, not one value. Undefined
 * where any name is a model feature with a value or type of its own (`a * b` of two lengths is an area).
 */
export function declaredKindUnit(e: ModelElement, index: ModelIndex, seen = new Set<ModelElement>()): Unit | undefined {
  if (e.node.kind !== 'Usage' || !e.node.value || e.node.value.isDefault || e.node.value.isInitial || seen.has(e)) return undefined;
  const typing = e.node.relations.find((r) => r.relation === 'typing');
  if (typing && !(typing.target.kind === 'QualifiedName' && /^(ScalarQuantityValue|QuantityValue)$/.test(typing.target.segments.at(-1)!))) return undefined;
  seen.add(e);
  return kindExpressionUnit(e.node.value.expression, (name) => {
    const el = index.resolveReference(e.parent ?? e, name, e);
    if (el) return declaredKindUnit(el, index, seen);
    return quantityKindUnit(name.segments.at(-1)!);
  });
}

/** The library's quantity value types a model's own value type may specialize. */
const QUANTITY_VALUE_TYPES = new Set(['Quantities::ScalarQuantityValue', 'Quantities::TensorQuantityValue', 'Quantities::VectorQuantityValue', 'MeasurementReferences::DimensionOneValue']);

/** The declaration kind of an element as a manifest's `subjects` spells it (`part`, `calc`, `constraint` …). */
export function declarationKind(e: ModelElement): string {
  const n = e.node;
  if (n.kind === 'Package') return 'package';
  if (n.kind === 'Definition') return n.keyword;
  if (n.keyword === 'ref' || n.keyword === 'feature') return 'attribute';
  return n.keyword;
}

export function rangeOf(e: ModelElement): SourceRange {
  return e.node.nameRange ?? e.node.range;
}

/**
 * The constraints a structure (a part, item, port … definition or usage) holds itself to: its asserted
 * constraint usages, own and inherited, or every constraint usage it has when none is asserted. What
 * `satisfiable` solves for such a subject, and what `evaluate` checks of it.
 */
export function constraintsOf(index: ModelIndex, e: ModelElement): ModelElement[] {
  const features = index.featuresOf(e).filter((f) => f.node.kind === 'Usage' && declarationKind(f) === 'constraint');
  const asserted = features.filter((f) => (f.node as Usage).role === 'assert');
  return asserted.length > 0 ? asserted : features;
}

/**
 * The type a feature's values have, as written: its typing, else the quantity a feature it subsets or
 * redefines names (`attribute m :> ISQ::mass` is a mass, as `m : MassValue` is), else the type of the
 * model feature it redefines or subsets.
 */
export function typeName(feature: ModelElement, index?: ModelIndex, seen = new Set<ModelElement>()): string | undefined {
  if (feature.node.kind === 'Package' || seen.has(feature)) return undefined;
  seen.add(feature);
  const t = feature.node.relations.find((r) => r.relation === 'typing')?.target;
  if (t) return t.kind === 'QualifiedName' ? t.segments.join('::') : undefined;
  for (const r of feature.node.relations) {
    if (r.relation !== 'subsetting' && r.relation !== 'redefinition') continue;
    // A feature of the model it subsets or redefines gives its own type, whatever its name: `:>> length`
    // of a `length : TimeValue` is a time, not ISQ's length (`3 [m]` was accepted there, `3 [s]` refused).
    const target = index?.resolveReference(feature.parent ?? feature, r.target, feature);
    if (target) {
      const inherited = typeName(target, index, seen);
      if (inherited) return inherited;
      continue;
    }
    // A library quantity (`:> ISQ::mass`, `:>> mass` of one) is that quantity kind.
    if (r.target.kind === 'QualifiedName' && quantityKindUnit(r.target.segments.at(-1)!)) return r.target.segments.join('::');
  }
  return undefined;
}
