// The workspace index: declarations of many documents (the standard library is just more documents,
// or the built-in table when none are given), name lookup through ownership, specialization and
// imports, and every reference of a document resolved to its declarations.
//
// Incremental by layers: library (or built-in) declarations and their caches are built once; a
// change to a user document rebuilds that document's declarations and bumps the user generation,
// which invalidates only user-layer caches (they are rebuilt lazily on the next question).

import type { Argument, BodyExpression, Document, RelationKind, Expression, Member, QualifiedName, Reference, SourceRange } from '../ast';
import {
  Declaration, type DocumentDeclarations, type ImportSpec, type Layer, type LookupCache, declareDocument, push,
} from './declarations';
import { type BuiltinTable, builtinRoots, linkBuiltin } from './builtin-layer';
import { parseQualifiedName } from './qualified';
import { metaclassName } from './metaclass';
import { tryParseUnit } from '../semantics/units';
import { RANDOM_FUNCTIONS } from '../semantics/random';

export interface NameDiagnostic {
  readonly message: string;
  readonly range: SourceRange;
  /** Absent: an error. */
  readonly severity?: 'warning';
}

/** A resolved (or unresolved) reference of a document, for go-to-definition and hover. */
export interface ResolvedReference {
  readonly range: SourceRange;
  readonly text: string;
  readonly targets: readonly Declaration[];
}

export interface DeclarationInfo {
  readonly qualifiedName: string;
  /** The kind as a manifest's `subjects` spells it (keyword without `def`). */
  readonly kind: string;
  readonly isDefinition: boolean;
  readonly document: string | null;
  readonly range: SourceRange | null;
  readonly declaration: Declaration;
}

interface DocumentEntry {
  readonly decls: DocumentDeclarations;
  readonly document: Document;
  resolvedGeneration: number;
  diagnostics: NameDiagnostic[];
  references: ResolvedReference[];
}

/** A library document known by its top-level names only, parsed when one of them is first looked up
 * (`Workspace.setLibrary`). */
export interface LazyLibraryDocument {
  readonly uri: string;
  /** The names and short names of its top-level declarations, each once (`Workspace.libraryRootNames`). */
  readonly rootNames: readonly string[];
  /** Its syntax tree (called at most once). */
  load(): Document;
}

/** Whether lookups from `scope` may see private members of `ns` (scope nested in ns). */
function isInside(scope: Declaration | null, ns: Declaration): boolean {
  for (let s = scope; s; s = s.parent) if (s === ns) return true;
  return false;
}

const EMPTY: Declaration[] = [];

/** A declaration's memoized lookups, made on first use. */
function cacheOf(d: Declaration): LookupCache {
  return d.tierCache ??= { own: null, ownPrivate: null, imported: null, importedPrivate: null, imports: null, lexical: null };
}
// The answer an import target lookup sees while that same lookup is under way (an import cycle).
// One shared entry: only import lookups ask whether an entry is provisional, so member lookups'
// cycle guards need no mark (a WeakSet of every guard was a fifth of resolution time).
const IMPORT_PENDING: Declaration[][] = [EMPTY];
const CYCLE_GUARD: Declaration[][] = [EMPTY, EMPTY];
// Owned and inherited tiers when both are empty (shared: memoized answers are never changed).
const NO_TIERS: Declaration[][] = [EMPTY, EMPTY];

/** `into` with the non-private declarations of `tier` appended (a new array only when one is added
 * to EMPTY). */
// Loops over arrays on the lookup and walking paths are indexed, not `for … of`: this code runs in
// V8's interpreter and baseline tiers (src/launcher/tier-up.ts), where `for … of` allocates an
// iterator and a result object per element (most of these lists are empty or short, and walked
// thousands of times per model), which only the optimizing compiler removes.
function withPublic(into: Declaration[], tier: readonly Declaration[]): Declaration[] {
  for (let dIndex = 0, dList = tier; dIndex < dList.length; dIndex++) { const d = dList[dIndex]!; if (d.visibility !== 'private') (into === EMPTY ? (into = []) : into).push(d); }
  return into;
}

export class Workspace {
  private readonly libraryDocs = new Map<string, DocumentEntry>();
  private readonly userDocs = new Map<string, DocumentEntry>();
  private libraryRoots = new Map<string, Declaration[]>();
  private userRoots = new Map<string, Declaration[]>();
  private libraryGeneration = 0;
  private userGeneration = 0;
  /** Library version of the built-in table used when no library documents are loaded. */
  readonly builtinVersion = '2026-04';

  /** `builtins`: the built-in table to use (tests); by default the process's shared one. */
  constructor(private readonly builtins: BuiltinTable | null = null) {}

  /** Replaces the library documents (parsed). Pass an empty list to fall back to the built-in table.
   * `lazy`: documents given by their top-level names only (see `LazyLibraryDocument`), after `docs`;
   * lookups see exactly what they would see had each been parsed and given in `docs`. */
  setLibrary(docs: readonly { uri: string; document: Document }[], lazy: readonly LazyLibraryDocument[] = []): void {
    this.libraryDocs.clear();
    this.libraryRoots = new Map();
    this.lazyLibrary = new Map();
    this.lazyRoots = new Map();
    this.libraryOrder = [];
    for (const { uri, document } of docs) {
      this.libraryOrder.push(uri);
      const decls = declareDocument(uri, document.members, 'library');
      this.libraryDocs.set(uri, { decls, document, resolvedGeneration: -1, diagnostics: [], references: [] });
      for (const m of decls.root.members) if (m.name !== null) push(this.libraryRoots, m.name, m);
      for (const m of decls.root.members) if (m.shortName !== null && m.shortName !== m.name) push(this.libraryRoots, m.shortName, m);
    }
    this.lazyUris = new Set();
    for (const d of lazy) {
      if (this.libraryDocs.has(d.uri) || this.lazyLibrary.has(d.uri)) continue;
      this.libraryOrder.push(d.uri);
      this.lazyUris.add(d.uri);
      this.lazyLibrary.set(d.uri, d);
      for (const name of d.rootNames) push(this.lazyRoots, name, d.uri);
    }
    // A name also declared by a document given parsed: listed again from both, in order, when asked.
    for (const name of this.lazyRoots.keys()) this.libraryRoots.delete(name);
    this.libraryGeneration++;
    this.userGeneration++;
  }

  /** The keys a library document adds to the top-level names (`LazyLibraryDocument.rootNames`). */
  libraryRootNames(uri: string): string[] {
    const entry = this.libraryEntry(uri);
    if (!entry) return [];
    const names = new Set<string>();
    for (const m of entry.decls.root.members) if (m.name !== null) names.add(m.name);
    for (const m of entry.decls.root.members) if (m.shortName !== null) names.add(m.shortName);
    return [...names];
  }

  get hasLibrary(): boolean {
    return this.libraryDocs.size > 0 || this.lazyLibrary.size > 0;
  }

  // Lazily given library documents not parsed yet, by uri; the uris of those declaring each
  // top-level name (names not yet in libraryRoots), and every library document's uri in order.
  private lazyLibrary = new Map<string, LazyLibraryDocument>();
  private lazyRoots = new Map<string, string[]>();
  private libraryOrder: string[] = [];
  private lazyUris = new Set<string>();

  /** A library document's entry, parsed and declared now if it was given lazily. */
  private libraryEntry(uri: string): DocumentEntry | undefined {
    const found = this.libraryDocs.get(uri);
    if (found) return found;
    const lazy = this.lazyLibrary.get(uri);
    if (!lazy) return undefined;
    this.lazyLibrary.delete(uri);
    const document = lazy.load();
    const entry: DocumentEntry = { decls: declareDocument(uri, document.members, 'library'), document, resolvedGeneration: -1, diagnostics: [], references: [] };
    this.libraryDocs.set(uri, entry);
    return entry;
  }

  /** The library's top-level declarations named `name`, in the order `setLibrary` with every
   * document parsed would have listed them (by document, then names before short names). */
  private libraryRootsNamed(name: string): Declaration[] {
    const known = this.libraryRoots.get(name);
    if (known !== undefined) return known;
    const uris = this.lazyRoots.get(name);
    if (uris === undefined) return EMPTY;
    this.lazyRoots.delete(name);
    const inDocs = new Set(uris);
    let out: Declaration[] = EMPTY;
    for (const uri of this.libraryOrder) {
      // Lazily given documents that do not declare the name are left unparsed.
      if (this.lazyUris.has(uri) && !inDocs.has(uri)) continue;
      const e = this.libraryEntry(uri)!;
      for (const m of e.decls.root.members) if (m.name === name) (out === EMPTY ? (out = []) : out).push(m);
      for (const m of e.decls.root.members) if (m.shortName === name && m.shortName !== m.name) (out === EMPTY ? (out = []) : out).push(m);
    }
    if (out !== EMPTY) this.libraryRoots.set(name, out);
    return out;
  }

  /** Adds or replaces one user document. Cheap: only this document is re-declared. */
  update(uri: string, document: Document): void {
    const decls = declareDocument(uri, document.members, 'user');
    this.userDocs.set(uri, { decls, document, resolvedGeneration: -1, diagnostics: [], references: [] });
    this.rebuildUserRoots();
  }

  remove(uri: string): void {
    if (this.userDocs.delete(uri)) this.rebuildUserRoots();
  }

  get documents(): string[] {
    return [...this.userDocs.keys()];
  }

  private rebuildUserRoots(): void {
    this.userRoots = new Map();
    for (const e of this.userDocs.values()) {
      for (const m of e.decls.root.members) {
        if (m.name !== null) push(this.userRoots, m.name, m);
        if (m.shortName !== null && m.shortName !== m.name) push(this.userRoots, m.shortName, m);
      }
    }
    this.userGeneration++;
  }

  // -------------------------------------------------------------------------------------------
  // Queries

  /** Unresolved references of a user or library document. */
  diagnostics(uri: string): NameDiagnostic[] {
    const entry = this.userDocs.get(uri) ?? this.libraryEntry(uri);
    if (!entry) return [];
    this.resolveDocument(entry);
    return entry.diagnostics;
  }

  /** Every reference of a document with what it resolved to. */
  references(uri: string): ResolvedReference[] {
    const entry = this.userDocs.get(uri) ?? this.libraryEntry(uri);
    if (!entry) return [];
    this.resolveDocument(entry);
    return entry.references;
  }

  /** The innermost reference of a document around `offset`, with what it resolved to. */
  referenceAt(uri: string, offset: number): ResolvedReference | null {
    let best: ResolvedReference | null = null;
    let bestLength = Infinity;
    for (const r of this.references(uri)) {
      const range = r.range; // made on each read: read it once
      if (range.start <= offset && offset <= range.end && range.end - range.start < bestLength) {
        best = r;
        bestLength = range.end - range.start;
      }
    }
    return best;
  }

  /** The declarations a qualified name (`A::B::'c d'`) denotes, with their kinds. */
  declarationsOf(qualifiedName: string): DeclarationInfo[] {
    const segments = parseQualifiedName(qualifiedName);
    if (!segments) return [];
    let current = this.global(segments[0]!, 'user');
    for (const s of segments.slice(1)) current = this.membersNamed(current, s, null);
    return unique(current).map(info);
  }

  /** What is at `offset` in a document: the declarations a reference there resolves to, or the
   * declaration whose name is there. */
  lookupAt(uri: string, offset: number): DeclarationInfo[] {
    const entry = this.userDocs.get(uri) ?? this.libraryEntry(uri);
    if (!entry) return [];
    const best = this.referenceAt(uri, offset);
    if (best) return best.targets.map(info);
    for (const d of entry.decls.all) {
      const at = d.nameRange;
      if (at && at.start <= offset && offset <= at.end) return [info(d)];
    }
    return [];
  }

  /** The declarations of a user document, in order. */
  declarationsIn(uri: string): readonly Declaration[] {
    return (this.userDocs.get(uri) ?? this.libraryEntry(uri))?.decls.all ?? [];
  }

  /** Declaration built for a syntax node (a member) of a loaded document. */
  declarationOfNode(uri: string, node: object): Declaration | null {
    return (this.userDocs.get(uri) ?? this.libraryEntry(uri))?.decls.ofNode.get(node) ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // Lookup
  //
  // Lookups are memoized per declaration. A lookup that meets itself (a type that specializes
  // itself, a member looked up while its owner's members are being listed) sees an empty
  // provisional answer. Import cycles (an import target found through an import whose own target
  // is being resolved) are where that answer would stick wrongly: answers computed while one was
  // met are used but not memoized. Such cycles are rare, so this costs little.

  private cycleHits = 0;

  private guardedImport(entry: Declaration[][]): Declaration[][] {
    if (entry === IMPORT_PENDING) this.cycleHits++;
    return entry;
  }

  private settleImport(cache: Map<number, Declaration[][]>, key: number, result: Declaration[][], hits: number): void {
    // Only the import whose own target met the cycle is left unmemoized; everything above it keeps
    // its answer (recomputing those made mutually importing packages exponential).
    if (this.cycleHits === hits) cache.set(key, result);
    else cache.delete(key);
  }

  private generationOf(layer: Layer): number {
    return layer === 'user' ? this.userGeneration : layer === 'library' ? this.libraryGeneration : 0;
  }

  /** Drops a declaration's memoized lookups if its layer changed since they were made. */
  refresh(d: Declaration): void {
    this.fresh(d);
  }

  private fresh(d: Declaration): void {
    const g = this.generationOf(d.layer);
    if (d.generation !== g) {
      d.generation = g;
      d.tierCache = null;
      d.supertypeCache = null;
      d.recursiveCache = null;
      d.valueTypeCache = null;
    }
  }

  /** Top-level names seen from a layer: its own documents and the layers below. */
  global(name: string, layer: Layer): Declaration[] {
    if (layer === 'user') {
      const own = this.userRoots.get(name);
      if (own) return own;
    }
    if (layer !== 'builtin' && this.hasLibrary) return this.libraryRootsNamed(name);
    return (this.builtins ?? builtinRoots()).get(name) ?? EMPTY;
  }

  // Members of `ns` named `name` come in tiers: owned (aliases followed), inherited, imported;
  // private members are left out unless `withPrivate`.

  /** The first tier with members named `name`, or none. The imported tier is only computed when
   * nothing is owned or inherited under the name: a found name never walks the imports (through
   * `import ISQ::*` that was every ISQ package for every name a package declares). */
  private firstTier(ns: Declaration, name: string, withPrivate: boolean): Declaration[] {
    const [owned, inherited] = this.ownTiers(ns, name, withPrivate);
    if (owned!.length > 0) return owned!;
    if (inherited!.length > 0) return inherited!;
    return this.importedTier(ns, name, withPrivate);
  }

  /** Members named `name` that the imports of `ns` bring in (public imports only unless
   * `withPrivate`). */
  private importedTier(ns: Declaration, name: string, withPrivate: boolean): Declaration[] {
    if (ns.builtinLinks !== null) linkBuiltin(ns);
    if (ns.imports.length === 0) return EMPTY;
    this.fresh(ns);
    const caches = cacheOf(ns);
    const cache = withPrivate ? (caches.importedPrivate ??= new Map()) : (caches.imported ??= new Map());
    const cached = cache.get(name);
    if (cached) return cached;
    cache.set(name, EMPTY); // cycle guard
    let imported: Declaration[] = EMPTY;
    for (let impIndex = 0, impList = ns.imports; impIndex < impList.length; impIndex++) {
      const imp = impList[impIndex]!;
      if (!withPrivate && !imp.isPublic) continue;
      const found = this.importedNamed(imp, name);
      if (found.length > 0) imported = imported === EMPTY ? found : [...imported, ...found];
    }
    const result = unique(imported);
    cache.set(name, result);
    return result;
  }

  /** Owned and inherited members named `name` (no imports). Inherited ones are computed even when
   * an owned member matches: a redefinition `:>> m` is itself named m and must see past itself. */
  private ownTiers(ns: Declaration, name: string, withPrivate: boolean): Declaration[][] {
    this.fresh(ns);
    const caches = cacheOf(ns);
    const cache = withPrivate ? (caches.ownPrivate ??= new Map()) : (caches.own ??= new Map());
    const cached = cache.get(name);
    if (cached) return cached;
    cache.set(name, CYCLE_GUARD);
    let owned: Declaration[] = EMPTY;
    const named = ns.byName?.get(name);
    if (named) {
      for (let mIndex = 0, mList = named; mIndex < mList.length; mIndex++) {
        const m = mList[mIndex]!;
        if (!withPrivate && m.visibility === 'private') continue;
        if (owned === EMPTY) owned = [];
        if (m.kind === 'alias') owned.push(...this.aliasTargets(m));
        else owned.push(m);
      }
    }
    // Most lookups find nothing (a name looked up in every scope it passes on its way out): no array
    // is made for them, and an answer with neither tier is the one shared NO_TIERS.
    let inherited: Declaration[] = EMPTY;
    for (let sIndex = 0, sList = this.supertypes(ns); sIndex < sList.length; sIndex++) {
      const s = sList[sIndex]!;
      const tiers = this.ownTiers(s, name, false);
      inherited = withPublic(inherited, tiers[0]!);
      inherited = withPublic(inherited, tiers[1]!);
      inherited = withPublic(inherited, this.importedTier(s, name, false));
    }
    const result = owned === EMPTY && inherited === EMPTY ? NO_TIERS : [owned, unique(inherited)];
    cache.set(name, result);
    return result;
  }

  /** Visible members of `ns` named `name` as seen from `scope` (null: from outside). */
  memberNamed(ns: Declaration, name: string, scope: Declaration | null): Declaration[] {
    return this.firstTier(ns, name, scope !== null && isInside(scope, ns));
  }

  private membersNamed(nss: readonly Declaration[], name: string, scope: Declaration | null): Declaration[] {
    if (nss.length === 1) return this.memberNamed(nss[0]!, name, scope);
    const out: Declaration[] = [];
    for (let nsIndex = 0, nsList = nss; nsIndex < nsList.length; nsIndex++) { const ns = nsList[nsIndex]!; out.push(...this.memberNamed(ns, name, scope)); }
    return unique(out);
  }

  private aliasTargets(alias: Declaration): Declaration[] {
    if (alias.builtinLinks !== null) linkBuiltin(alias);
    if (alias.aliasTarget) return [alias.aliasTarget];
    const node = alias.node;
    if (!node || node.kind !== 'Alias' || !alias.parent) return EMPTY;
    return this.resolveQualified(node.target, alias.parent, alias).filter((d) => d !== alias);
  }

  /** A global qualified name, looked up in `layer`. */
  resolvePath(path: readonly string[], layer: Layer): Declaration[] {
    let current = this.global(path[0]!, layer);
    for (const s of path.slice(1)) {
      if (current.length === 0) return EMPTY;
      current = this.membersNamed(current, s, null);
    }
    return current;
  }

  /** Supertypes: resolved specializations, typings, subsettings, redefinitions, references and
   * conjugations, plus the implicit library base of the kind. */
  supertypes(d: Declaration): Declaration[] {
    this.fresh(d);
    if (d.supertypeCache) return d.supertypeCache;
    if (d.computingSupertypes) return EMPTY;
    if (d.builtinLinks !== null) linkBuiltin(d);
    d.computingSupertypes = true;
    const out: Declaration[] = [];
    try {
      const scope = d.parent;
      for (let entryIndex = 0, entryList = d.supertypeRefs; entryIndex < entryList.length; entryIndex++) {
        const { relation, ref } = entryList[entryIndex]!;
        if (relation === 'disjoining' || relation === 'featuring' || relation === 'inverting' || relation === 'crossing') continue;
        if (!scope) continue;
        for (let tIndex = 0, tList = this.resolveReference(ref, relationScope(d, relation, scope), d); tIndex < tList.length; tIndex++) { const t = tList[tIndex]!; if (t !== d) out.push(t); }
      }
      // A parameter declared again by name in a usage or specialization redefines the inherited one.
      const node = d.node;
      if (scope && d.name !== null && node && (node.kind === 'Usage') && node.direction !== null
        && !node.relations.some((r) => r.relation === 'redefinition')) {
        for (let tIndex = 0, tList = this.ownTiers(scope, d.name, true)[1]!; tIndex < tList.length; tIndex++) { const t = tList[tIndex]!; if (t !== d) out.push(t); }
      }
      out.push(...d.directSupertypes);
      // A user keyword `#kw x` declared by semantic metadata (`:>> baseType = f meta SysML::…`)
      // makes x specialize f.
      out.push(...this.keywordBases(d));
      for (let pathIndex = 0, pathList = d.fixedSupertypes; pathIndex < pathList.length; pathIndex++) {
        const path = pathList[pathIndex]!;
        for (let tIndex = 0, tList = this.resolvePath(path, d.layer === 'user' ? 'user' : d.layer); tIndex < tList.length; tIndex++) { const t = tList[tIndex]!; if (t !== d) out.push(t); }
      }
    } finally {
      d.computingSupertypes = false;
    }
    d.supertypeCache = unique(out);
    return d.supertypeCache;
  }

  /** What the user keywords written on a declaration (`#kw x`, declared by semantic metadata with
   * `:>> baseType = f meta SysML::…`) make it specialize: each keyword's `f`. */
  keywordBases(d: Declaration): Declaration[] {
    const scope = d.parent;
    const written = d.node && (d.node.kind === 'Usage' || d.node.kind === 'Definition') ? d.node.prefixMetadata : [];
    if (!scope || written.length === 0) return EMPTY;
    const out: Declaration[] = [];
    for (let refIndex = 0, refList = written; refIndex < refList.length; refIndex++) { const ref = refList[refIndex]!; for (let metaIndex = 0, metaList = this.resolveQualified(ref, scope, d); metaIndex < metaList.length; metaIndex++) { const meta = metaList[metaIndex]!; for (let tIndex = 0, tList = this.semanticBase(meta); tIndex < tList.length; tIndex++) { const t = tList[tIndex]!; if (t !== d) out.push(t); } } }
    return out;
  }

  /** The `baseType` a semantic metadata definition gives the elements it is applied to. */
  private semanticBase(meta: Declaration): Declaration[] {
    const out: Declaration[] = [];
    for (let mIndex = 0, mList = meta.members; mIndex < mList.length; mIndex++) {
      const m = mList[mIndex]!;
      const n = m.node;
      if (m.name !== 'baseType' || !n || n.kind !== 'Usage' || !n.value) continue;
      const e = n.value.expression;
      if (e.kind === 'Classification' && e.operator === 'meta' && e.operand) out.push(...this.expressionTargets(e.operand, m));
    }
    return out;
  }

  /** What a name or a chain of names in an expression denotes (other expressions: nothing). */
  expressionTargets(e: Expression, scope: Declaration): Declaration[] {
    if (e.kind === 'Name') return this.resolveQualified(e.name, scope, null);
    if (e.kind === 'MemberAccess') {
      let current = this.expressionTargets(e.target, scope);
      for (let sIndex = 0, sList = e.member.segments; sIndex < sList.length; sIndex++) { const s = sList[sIndex]!; current = current.length > 0 ? this.membersNamed(current, s, scope) : EMPTY; }
      return current;
    }
    return EMPTY;
  }

  /** The supertypes a declaration has implicitly (the library base of its kind, `Base::things`). */
  implicitSupertypes(d: Declaration): Declaration[] {
    if (d.builtinLinks !== null) linkBuiltin(d);
    return d.fixedSupertypes.flatMap((p) => this.resolvePath(p, d.layer));
  }

  /** Name looked up lexically from `scope` outward, then globally. `exclude` is the element whose
   * own declaration holds the reference (a feature never redefines itself). */
  lexical(name: string, scope: Declaration, exclude: Declaration | null): Declaration[] {
    if (scope.kind === 'root') return this.outermost(name, scope, exclude);
    if (exclude === null) return this.lexicalFrom(name, scope);
    // `exclude` is a member of `scope` (or inherited into it): filtered where the walk starts. Further
    // out it only matters where a scope imports it back, rare: the memoized walk unless its answer
    // holds it.
    const found = this.firstTierWithout(scope, name, exclude);
    if (found.length > 0) return found;
    const outer = scope.parent && scope.parent.kind !== 'root' ? this.lexicalFrom(name, scope.parent) : null;
    if (outer !== null && !outer.includes(exclude)) return outer;
    return this.lexicalWalk(name, scope, exclude);
  }

  /** `lexical` with nothing excluded, memoized per scope: references in one body look up the same
   * names, and scopes nested in one another share the walk outward from their common ancestor. */
  private lexicalFrom(name: string, scope: Declaration): Declaration[] {
    this.fresh(scope);
    const cache = (cacheOf(scope).lexical ??= new Map());
    const cached = cache.get(name);
    if (cached) return cached;
    const hits = this.cycleHits;
    let found = this.firstTier(scope, name, true);
    if (found.length === 0) {
      const parent = scope.parent;
      found = parent && parent.kind !== 'root' ? this.lexicalFrom(name, parent) : this.outermost(name, scope, null);
    }
    // An answer that met an import cycle is used, not kept (as import targets are: settleImport).
    if (this.cycleHits === hits) cache.set(name, found);
    return found;
  }

  /** The walk outward from the scope around `scope` with `exclude` filtered at every scope. */
  private lexicalWalk(name: string, scope: Declaration, exclude: Declaration | null): Declaration[] {
    for (let s = scope.parent; s; s = s.parent) {
      if (s.kind === 'root') break;
      const found = this.firstTierWithout(s, name, exclude);
      if (found.length > 0) return found;
    }
    return this.outermost(name, scope, exclude);
  }

  /** Past the outermost declaration: members of the document root (top-level imports, aliases,
   * declarations of this document), then the global names of the layer. */
  private outermost(name: string, from: Declaration, exclude: Declaration | null): Declaration[] {
    const root = rootOf(from);
    if (root) {
      const found = this.firstTierWithout(root, name, exclude);
      if (found.length > 0) return found;
    }
    return this.global(name, from.layer);
  }

  /** The first tier (private members included) with a member named `name` other than `exclude`. */
  private firstTierWithout(s: Declaration, name: string, exclude: Declaration | null): Declaration[] {
    if (!exclude) return this.firstTier(s, name, true);
    const tiers = this.ownTiers(s, name, true);
    for (let t = 0; t < 2; t++) {
      const tier = tiers[t]!;
      if (tier.length === 0) continue;
      const found = tier.includes(exclude) ? tier.filter((d) => d !== exclude) : tier;
      if (found.length > 0) return found;
    }
    const imported = this.importedTier(s, name, true);
    return imported.includes(exclude) ? imported.filter((d) => d !== exclude) : imported;
  }

  resolveQualified(qn: QualifiedName, scope: Declaration, exclude: Declaration | null): Declaration[] {
    const first = qn.segments[0];
    if (first === undefined) return EMPTY;
    let current = qn.isGlobal ? this.global(first, scope.layer) : this.lexical(first, scope, exclude);
    for (let i = 1; i < qn.segments.length && current.length > 0; i++) current = this.membersNamed(current, qn.segments[i]!, scope);
    return current;
  }

  /** A reference: a qualified name, or a feature chain whose every next link is looked up in
   * the previous one (its type and what it specializes). */
  resolveReference(ref: Reference, scope: Declaration, exclude: Declaration | null): Declaration[] {
    if (ref.kind === 'QualifiedName') return this.resolveQualified(ref, scope, exclude);
    let current: Declaration[] = EMPTY;
    ref.chain.forEach((qn, i) => {
      if (i === 0) current = this.resolveQualified(qn, scope, exclude);
      else if (current.length > 0) {
        for (let sIndex = 0, sList = qn.segments; sIndex < sList.length; sIndex++) { const s = sList[sIndex]!; current = current.length > 0 ? this.membersNamed(current, s, scope) : EMPTY; }
      }
    });
    return current;
  }

  // -------------------------------------------------------------------------------------------
  // Imports

  private importTargets(imp: ImportSpec): Declaration[] {
    if (imp.targetDecls) return [...imp.targetDecls];
    if (!imp.target) return EMPTY;
    // Resolve the target without this namespace's imports in play for the first segment
    // (an import never imports through itself).
    const owner = imp.owner;
    this.fresh(owner);
    const key = imp.targetStart;
    const cache = (cacheOf(owner).imports ??= new Map());
    const cached = cache.get(key);
    if (cached) return this.guardedImport(cached)[0]!;
    const hits = this.cycleHits;
    cache.set(key, IMPORT_PENDING);
    // The first name is looked up in the owner without its imports, then outward as usual.
    const segments = imp.target.segments;
    let targets: Declaration[] = EMPTY;
    if (imp.target.isGlobal) targets = this.global(segments[0]!, owner.layer);
    else {
      for (let tierIndex = 0, tierList = this.ownTiers(owner, segments[0]!, true); tierIndex < tierList.length; tierIndex++) { const tier = tierList[tierIndex]!; if (tier.length > 0) { targets = tier; break; } }
      if (targets.length === 0) {
        // An earlier import of the same namespace may supply it (`import RiskMetadata::*;
        // import RiskLevelEnum::*;`). Only earlier ones: so import targets never depend on each other
        // in a cycle, and no half-built lookup of the owner is cached.
        const viaSiblings: Declaration[] = [];
        for (let otherIndex = 0, otherList = owner.imports; otherIndex < otherList.length; otherIndex++) {
          const other = otherList[otherIndex]!;
          if (other === imp) break;
          viaSiblings.push(...this.importedNamed(other, segments[0]!));
        }
        targets = unique(viaSiblings);
      }
      if (targets.length === 0) targets = owner.parent ? this.lexical(segments[0]!, owner.parent, null) : this.global(segments[0]!, owner.layer);
    }
    for (let i = 1; i < segments.length && targets.length > 0; i++) targets = this.membersNamed(targets, segments[i]!, owner);
    this.settleImport(cache, key, [targets], hits);
    return targets;
  }

  private importedNamed(imp: ImportSpec, name: string): Declaration[] {
    const targets = this.importTargets(imp);
    if (targets.length === 0) return EMPTY;
    const out: Declaration[] = [];
    if (!imp.isNamespace) {
      // A membership import brings the target in under the name it was imported by (an alias's name).
      const importedName = imp.target ? imp.target.segments[imp.target.segments.length - 1] : targets[0]!.name;
      if (importedName === name) out.push(...targets);
      else for (let tIndex = 0, tList = targets; tIndex < tList.length; tIndex++) { const t = tList[tIndex]!; if (t.shortName === name || t.name === name) out.push(t); }
      if (imp.isRecursive) for (let tIndex = 0, tList = targets; tIndex < tList.length; tIndex++) { const t = tList[tIndex]!; out.push(...(this.recursiveMembers(t, imp.isAll).get(name) ?? EMPTY)); }
    } else {
      for (let tIndex = 0, tList = targets; tIndex < tList.length; tIndex++) {
        const t = tList[tIndex]!;
        out.push(...this.firstTier(t, name, imp.isAll));
        if (imp.isRecursive) out.push(...(this.recursiveMembers(t, imp.isAll).get(name) ?? EMPTY));
      }
    }
    if (imp.filters.length === 0 || out.length === 0) return unique(out);
    return unique(out).filter((d) => {
      let undecided = false;
      for (let fIndex = 0, fList = imp.filters; fIndex < fList.length; fIndex++) {
        const f = fList[fIndex]!;
        const passes = this.passesFilter(f, d, imp.owner);
        if (passes === false) return false;
        if (passes === undefined) undecided = true;
      }
      // A condition the resolver cannot decide (`[Safety::level > 1]`) admits the element, as before, and
      // says so: what a name then resolves to is not known (undecidedFilter).
      if (undecided && !this.undecidedAdmissions.has(d)) this.undecidedAdmissions.set(d, imp);
      return true;
    });
  }

  /** Elements an import admitted through a filter condition the resolver could not decide, with the import. */
  private readonly undecidedAdmissions = new Map<Declaration, ImportSpec>();

  /** The import whose filter admitted `d` without deciding its condition (`[Safety::level > 1]`), if any. */
  undecidedFilter(d: Declaration): ImportSpec | undefined {
    return this.undecidedAdmissions.get(d);
  }

  /** Every owned member below `ns` (members of members …), by name; public ones unless `all`. */
  private recursiveMembers(ns: Declaration, all: boolean): Map<string, Declaration[]> {
    this.fresh(ns);
    if (ns.recursiveCache && !all) return ns.recursiveCache;
    const map = new Map<string, Declaration[]>();
    const seen = new Set<Declaration>();
    const visit = (d: Declaration): void => {
      if (seen.has(d)) return;
      seen.add(d);
      for (const m of d.members) {
        if (!all && m.visibility === 'private') continue;
        const targets = m.kind === 'alias' ? this.aliasTargets(m) : [m];
        if (m.name !== null) for (const t of targets) push(map, m.name, t);
        if (m.shortName !== null && m.shortName !== m.name) for (const t of targets) push(map, m.shortName, t);
        if (m.kind !== 'alias') visit(m);
      }
      // Public imports of a namespace are part of what it exposes.
      if (d.builtinLinks !== null) linkBuiltin(d);
      for (const imp of d.imports) {
        if (!imp.isPublic || imp.filters.length > 0) continue;
        for (const t of this.importTargets(imp)) {
          if (imp.isNamespace) for (const m of t.members) if (m.name !== null && m.visibility !== 'private') push(map, m.name, m);
          else if (t.name !== null) push(map, t.name, t);
        }
      }
    };
    visit(ns);
    if (!all) ns.recursiveCache = map;
    return map;
  }

  /** Evaluates an import filter (`@Safety`, `@SysML::PartUsage`, `and` / `or` / `not`) on an element;
   * conditions it cannot decide admit the element. */
  private passesFilter(f: Expression, d: Declaration, scope: Declaration): boolean | undefined {
    switch (f.kind) {
      case 'Binary': {
        if (f.operator !== 'and' && f.operator !== 'or') return undefined;
        const a = this.passesFilter(f.left, d, scope);
        const b = this.passesFilter(f.right, d, scope);
        // Three-valued (undefined: not decided): false and anything is false, true or anything is true.
        if (f.operator === 'and') return a === false || b === false ? false : a === true && b === true ? true : undefined;
        return a === true || b === true ? true : a === false && b === false ? false : undefined;
      }
      case 'Unary': {
        if (f.operator !== 'not') return undefined;
        const a = this.passesFilter(f.operand, d, scope);
        return a === undefined ? undefined : !a;
      }
      case 'Classification': {
        if (f.operand !== null || (f.operator !== '@' && f.operator !== 'hastype' && f.operator !== 'istype')) return undefined;
        const types = this.resolveQualified(f.type, scope, null);
        if (types.length === 0) return undefined;
        return types.some((t) => this.hasMetadata(d, t));
      }
      default:
        return undefined;
    }
  }

  private hasMetadata(d: Declaration, type: Declaration): boolean {
    // The element's own metaclass (`@SysML::PartUsage`, and `@SysML::ItemUsage` for a part: PartUsage
    // specializes ItemUsage), where its declaration says which.
    const metaclass = this.metaclassOf(d);
    if (metaclass && this.specializes(metaclass, type)) return true;
    if (!d.parent) return false;
    for (let refIndex = 0, refList = d.metadataRefs; refIndex < refList.length; refIndex++) {
      const ref = refList[refIndex]!;
      for (let tIndex = 0, tList = this.resolveQualified(ref, d.parent, d); tIndex < tList.length; tIndex++) { const t = tList[tIndex]!; if (this.specializes(t, type)) return true; }
    }
    return false;
  }

  /**
   * Two answers of one lookup that are different declarations of the user's documents and not one
   * feature (neither redefines the other, nor do both redefine one feature of their name): the name is
   * ambiguous where it was looked up (KerML: a name resolves to one visible membership; two imports that
   * each bring one in, or two members of one name, leave it undecided). Undefined when there is one
   * meaning. A library declaration beside a user one is left to the caller (the engine reads the model's).
   */
  ambiguousPair(found: readonly Declaration[]): [Declaration, Declaration] | undefined {
    if (found.length < 2) return undefined;
    const user = found.filter((d) => d.layer === 'user');
    for (let i = 0; i < user.length; i++) {
      for (let j = i + 1; j < user.length; j++) {
        if (!this.sameFeature(user[i]!, user[j]!)) return [user[i]!, user[j]!];
      }
    }
    return undefined;
  }

  /** Whether two declarations are one feature under redefinition: one redefines (or, as `perform x`,
   * `satisfy x` do, references) the other, transitively, or both one feature of the same name (a
   * diamond: B::x and C::x both `:>> A::x`; two `satisfy touchdown` of one part). */
  sameFeature(a: Declaration, b: Declaration): boolean {
    if (a === b) return true;
    const la = this.redefinitionLineage(a);
    const lb = this.redefinitionLineage(b);
    if (la.has(b) || lb.has(a)) return true;
    for (const x of la) if (x !== a && lb.has(x) && (x.name === a.name || x.name === b.name)) return true;
    return false;
  }

  /** A declaration and the features it redefines or references, transitively: written (`:>>`,
   * `redefines`, `::>`), or, for a parameter declared again by name, implied (as supertypes reads it). */
  private redefinitionLineage(d: Declaration): Set<Declaration> {
    const out = new Set<Declaration>([d]);
    for (const x of out) {
      const scope = x.parent;
      if (!scope) continue;
      for (const { relation, ref } of x.supertypeRefs) {
        if (relation === 'redefinition' || relation === 'reference') for (const t of this.resolveReference(ref, relationScope(x, relation, scope), x)) out.add(t);
      }
      const node = x.node;
      // A subject is its requirement's first parameter (SysML: subjectParameter, the first input), and a
      // parameter redefines the general type's parameter at its place (KerML parameter redefinition):
      // one declared again by name is the inherited one.
      if (x.name !== null && node && node.kind === 'Usage' && (node.direction !== null || node.role === 'subject') && !node.relations.some((r) => r.relation === 'redefinition')) {
        for (const t of this.ownTiers(scope, x.name, true)[1]!) out.add(t);
      }
    }
    return out;
  }

  /** The library metaclass (SysML::PartUsage …) a declaration is an instance of, where its declaration
   * alone says which (names/metaclass.ts); undefined otherwise. */
  metaclassOf(d: Declaration): Declaration | undefined {
    const name = metaclassName(d.node);
    if (name === undefined) return undefined;
    const found = this.global('SysML', 'library').flatMap((p) => this.memberNamed(p, name, p));
    return found.length === 1 ? found[0] : undefined;
  }

  /** Whether `d` is `type` or specializes it. */
  specializes(d: Declaration, type: Declaration, seen = new Set<Declaration>()): boolean {
    if (d === type) return true;
    if (seen.has(d)) return false;
    seen.add(d);
    return this.supertypes(d).some((s) => this.specializes(s, type, seen));
  }

  // -------------------------------------------------------------------------------------------
  // Document resolution

  private resolveDocument(entry: DocumentEntry): void {
    const gen = this.generationOf(entry.decls.root.layer);
    if (entry.resolvedGeneration === gen) return;
    const walker = new ReferenceWalker(this, entry.decls);
    for (const m of entry.document.members) walker.member(m, entry.decls.root);
    entry.diagnostics = walker.diagnostics;
    entry.references = walker.references;
    entry.resolvedGeneration = gen;
  }
}

const CONNECTOR_KINDS = new Set(['connector', 'connection', 'connect', 'interface', 'allocation', 'allocate', 'flow',
  'succession flow', 'message', 'binding', 'bind', 'succession']);

/** Where a relation of `d` is looked up: its owner, except that an end of a connector usage
 * references a feature of the connector's context (`end feature e references source;` inside a
 * connector means the context's `source`, not the connector's own inherited end). */
function relationScope(d: Declaration, relation: RelationKind, owner: Declaration): Declaration {
  const node = d.node;
  if (relation === 'reference' && node && node.kind === 'Usage' && node.isEnd && !owner.isDefinition
    && CONNECTOR_KINDS.has(owner.kind) && owner.parent) return owner.parent;
  return owner;
}

function rootOf(d: Declaration): Declaration | null {
  let s: Declaration = d;
  while (s.parent) s = s.parent;
  return s.kind === 'root' ? s : null;
}

/** `list` without repeats, in first-seen order. Most lists have none: a short one is then answered
 * itself, with no Set and no copy (every caller passes a list it made and no one changes afterwards). */
function unique<T>(list: T[]): T[] {
  const n = list.length;
  if (n < 2) return list;
  if (n > 16) return [...new Set(list)];
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if (list[i] === list[j]) return [...new Set(list)];
  return list;
}

function info(d: Declaration): DeclarationInfo {
  return { qualifiedName: d.qualifiedName, kind: d.kind, isDefinition: d.isDefinition, document: d.document, range: d.range, declaration: d };
}

function text(qn: QualifiedName): string {
  return qn.segments.map((s) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? s : `'${s}'`)).join('::');
}

function referenceText(ref: Reference): string {
  return ref.kind === 'QualifiedName' ? text(ref) : ref.chain.map(text).join('.');
}

function lastName(ref: Reference): string {
  const q = ref.kind === 'QualifiedName' ? ref : ref.chain.at(-1);
  return q?.segments.at(-1) ?? '';
}

/** A resolved reference; its range and text are read from the reference when asked (most never are). */
class ReferenceRecord implements ResolvedReference {
  constructor(private readonly ref: Reference, readonly targets: readonly Declaration[]) {}
  get range(): SourceRange {
    return this.ref.range;
  }
  get text(): string {
    return referenceText(this.ref);
  }
}

/** Walks a document's syntax tree and resolves every reference in it. */
class ReferenceWalker {
  readonly diagnostics: NameDiagnostic[] = [];
  readonly references: ResolvedReference[] = [];

  constructor(private readonly ws: Workspace, private readonly decls: DocumentDeclarations) {}

  private record(ref: Reference, targets: Declaration[]): Declaration[] {
    this.references.push(new ReferenceRecord(ref, targets));
    // A name the parser found missing (no segments) is already a syntax error: not also a name error.
    const missing = ref.kind === 'QualifiedName' && ref.segments.length === 0;
    if (targets.length === 0 && !missing) this.diagnostics.push({ message: `unresolved reference '${referenceText(ref)}'`, range: ref.range });
    return targets;
  }

  private ref(ref: Reference, scope: Declaration, exclude: Declaration | null): Declaration[] {
    return this.record(ref, this.ws.resolveReference(ref, scope, exclude));
  }

  private decl(node: object, fallback: Declaration): Declaration {
    return this.decls.ofNode.get(node) ?? fallback;
  }

  private members(members: readonly Member[] | null, owner: Declaration): void {
    if (members) for (let mIndex = 0, mList = members; mIndex < mList.length; mIndex++) { const m = mList[mIndex]!; this.member(m, owner); }
  }

  /** Relations of a feature or definition, resolved from its owner (never to itself). */
  private relations(d: Declaration, owner: Declaration, relations: readonly { relation: RelationKind; target: Reference }[]): void {
    for (let rIndex = 0, rList = relations; rIndex < rList.length; rIndex++) {
      const r = rList[rIndex]!;
      // `part p :> p;` names itself when nothing else is called p.
      const scope = relationScope(d, r.relation, owner);
      const targets = this.ws.resolveReference(r.target, scope, d);
      this.record(r.target, targets.length > 0 ? targets : this.ws.resolveReference(r.target, scope, null));
    }
  }

  private prefix(prefix: readonly QualifiedName[], owner: Declaration): void {
    for (let pIndex = 0, pList = prefix; pIndex < pList.length; pIndex++) { const p = pList[pIndex]!; this.ref(p, owner, null); }
  }

  member(m: Member, owner: Declaration): void {
    switch (m.kind) {
      case 'Package': {
        const d = this.decl(m, owner);
        this.prefix(m.prefixMetadata, owner);
        this.members(m.members, d);
        return;
      }
      case 'Import':
        this.ref(m.target, owner, null);
        for (let fIndex = 0, fList = m.filters; fIndex < fList.length; fIndex++) { const f = fList[fIndex]!; this.expression(f, owner); }
        this.members(m.body, owner);
        return;
      case 'Alias': {
        const d = this.decl(m, owner);
        this.ref(m.target, owner, d);
        return;
      }
      case 'Dependency': {
        const d = this.decl(m, owner);
        for (let cIndex = 0, cList = m.clients; cIndex < cList.length; cIndex++) { const c = cList[cIndex]!; this.ref(c, owner, d); }
        for (let sIndex = 0, sList = m.suppliers; sIndex < sList.length; sIndex++) { const s = sList[sIndex]!; this.ref(s, owner, d); }
        this.members(m.body, d);
        return;
      }
      case 'Comment':
        for (let aIndex = 0, aList = m.about; aIndex < aList.length; aIndex++) { const a = aList[aIndex]!; this.ref(a, owner, null); }
        return;
      case 'Documentation':
      case 'TextualRepresentation':
      case 'InvalidMember':
        return;
      case 'RelationshipDeclaration': {
        this.ref(m.source, owner, null);
        this.ref(m.target, owner, null);
        if (m.body) this.members(m.body, this.decl(m, owner));
        return;
      }
      case 'Definition': {
        const d = this.decl(m, owner);
        this.prefix(m.prefixMetadata, owner);
        this.relations(d, owner, m.relations);
        if (m.multiplicity) { this.optional(m.multiplicity.lower, d); this.expression(m.multiplicity.upper, d); }
        this.members(m.body, d);
        return;
      }
      case 'Usage': {
        const d = this.decl(m, owner);
        this.prefix(m.prefixMetadata, owner);
        this.feature(d, owner, m);
        if (m.ends) for (let eIndex = 0, eList = m.ends; eIndex < eList.length; eIndex++) { const e = eList[eIndex]!; this.ref(e.target, owner, d); }
        if (m.payload) this.member(m.payload, d);
        if (m.crossFeature) this.member(m.crossFeature, d);
        this.optional(m.satisfiedBy, d);
        for (let aIndex = 0, aList = m.about; aIndex < aList.length; aIndex++) { const a = aList[aIndex]!; this.ref(a, owner, null); }
        this.members(m.body, d);
        return;
      }
      case 'Succession': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        if (m.source) this.ref(m.source.target, owner, d);
        if (m.target) this.ref(m.target.target, owner, d);
        this.optional(m.guard, owner);
        if (m.targetMember) this.member(m.targetMember, owner);
        this.members(m.body, d);
        return;
      }
      case 'Transition': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        if (m.source) this.ref(m.source, owner, d);
        if (m.trigger) this.member(m.trigger, d);
        this.optional(m.guard, d);
        if (m.effect) this.member(m.effect, d);
        if (m.target) this.ref(m.target, owner, d);
        this.members(m.body, d);
        return;
      }
      case 'AcceptAction': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        if (m.payload) this.member(m.payload, d);
        this.optional(m.triggerExpression, owner);
        this.optional(m.receiver, owner);
        this.members(m.body, d);
        return;
      }
      case 'SendAction': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        // Arguments of a send are owned by it: its own parameters (`send x { in x; }`) come first.
        this.optional(m.payload, d);
        this.optional(m.via, d);
        this.optional(m.to, d);
        this.members(m.body, d);
        return;
      }
      case 'AssignAction': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        this.expression(m.target, owner);
        this.expression(m.assigned, owner);
        this.members(m.body, d);
        return;
      }
      case 'IfAction': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        this.expression(m.condition, owner);
        this.member(m.then, d);
        if (m.else) this.member(m.else, d);
        return;
      }
      case 'LoopAction': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        this.optional(m.condition, d);
        this.member(m.bodyAction, d);
        this.optional(m.until, d);
        return;
      }
      case 'ForAction': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        this.member(m.variable, d);
        this.expression(m.collection, owner);
        this.member(m.bodyAction, d);
        return;
      }
      case 'TerminateAction': {
        const d = this.decl(m, owner);
        this.feature(d, owner, m);
        this.optional(m.target, owner);
        this.members(m.body, d);
        return;
      }
      case 'StateSubaction':
        if (m.action) this.member(m.action, owner);
        return;
      case 'ResultExpression':
        this.expression(m.expression, owner);
        return;
      case 'ElementFilter':
        this.expression(m.condition, owner);
        return;
    }
  }

  private feature(d: Declaration, owner: Declaration, m: { relations: readonly { relation: RelationKind; target: Reference }[];
    multiplicity: { lower: Expression | null; upper: Expression } | null; value: { expression: Expression } | null }): void {
    this.relations(d, owner, m.relations);
    if (m.multiplicity) { this.optional(m.multiplicity.lower, owner); this.expression(m.multiplicity.upper, owner); }
    // A feature's value is evaluated in the feature's own scope (its type's members are visible).
    if (m.value) this.expression(m.value.expression, d);
  }

  private optional(e: Expression | null, scope: Declaration): void {
    if (e) this.expression(e, scope);
  }

  private body(b: BodyExpression, scope: Declaration): Declaration[] {
    const d = this.decls.bodies.get(b) ?? scope;
    this.members(b.members, d);
    if (b.result) this.expression(b.result, d);
    return EMPTY;
  }

  /** Resolves the names of an expression; returns the declarations whose members a `.` after it
   * reaches (empty when the expression's type is not known, in which case members are not checked). */
  expression(e: Expression, scope: Declaration): Declaration[] {
    switch (e.kind) {
      case 'Literal': case 'Null': case 'Missing':
        return EMPTY;
      case 'Name':
        return this.ref(e.name, scope, null);
      case 'Unary':
        this.expression(e.operand, scope);
        return EMPTY;
      case 'Binary':
        this.expression(e.left, scope);
        this.expression(e.right, scope);
        return EMPTY;
      case 'Conditional':
        this.expression(e.condition, scope);
        this.expression(e.then, scope);
        this.expression(e.else, scope);
        return EMPTY;
      case 'Classification': {
        if (e.operand) this.expression(e.operand, scope);
        const types = this.ref(e.type, scope, null);
        return e.operator === 'as' ? types : EMPTY;
      }
      case 'Extent':
        this.ref(e.type, scope, null);
        return EMPTY;
      case 'MemberAccess': {
        const targets = this.expression(e.target, scope);
        if (targets.length === 0) return EMPTY;
        let current = targets;
        for (let sIndex = 0, sList = e.member.segments; sIndex < sList.length; sIndex++) { const s = sList[sIndex]!; current = current.length > 0 ? this.membersOf(current, s, scope) : EMPTY; }
        return this.record(e.member, current);
      }
      case 'Collect': case 'Select':
        this.expression(e.target, scope);
        this.body(e.body, scope);
        return EMPTY;
      case 'Index': {
        const targets = this.expression(e.target, scope);
        this.expression(e.index, scope);
        return targets;
      }
      case 'Quantity':
        this.expression(e.value, scope);
        this.hiddenUnits(e.unit, scope);
        this.expression(e.unit, scope);
        return EMPTY;
      case 'Sequence':
        for (let iIndex = 0, iList = e.items; iIndex < iList.length; iIndex++) { const i = iList[iIndex]!; this.expression(i, scope); }
        return EMPTY;
      case 'Invocation': {
        const callees = this.ws.resolveReference(e.callee, scope, null);
        // `uniform(10, 20)`: one of Assay's random functions, which the evaluator calls by its bare
        // name when the model declares nothing by that name; not an unresolved reference.
        const assayFunction = callees.length === 0 && e.callee.kind === 'QualifiedName' && e.callee.segments.length === 1 && RANDOM_FUNCTIONS.includes(e.callee.segments[0]!);
        if (assayFunction) this.references.push(new ReferenceRecord(e.callee, []));
        else this.record(e.callee, callees);
        this.namedArguments(e.args, callees, scope);
        for (let aIndex = 0, aList = e.args; aIndex < aList.length; aIndex++) { const a = aList[aIndex]!; this.expression(a.value, scope); }
        return this.resultOf(callees, scope);
      }
      case 'ArrowInvocation':
        this.expression(e.target, scope);
        this.ref(e.callee, scope, null);
        for (let aIndex = 0, aList = e.args; aIndex < aList.length; aIndex++) { const a = aList[aIndex]!; this.expression(a.value, scope); }
        return EMPTY;
      case 'Constructor': {
        const types = this.ref(e.type, scope, null);
        this.namedArguments(e.args, types, scope);
        for (let aIndex = 0, aList = e.args; aIndex < aList.length; aIndex++) { const a = aList[aIndex]!; this.expression(a.value, scope); }
        return types;
      }
      case 'Body':
        return this.body(e, scope);
      case 'MetadataAccess':
        this.ref(e.target, scope, null);
        return EMPTY;
    }
  }

  /**
   * A unit's name inside `[ ]` that a feature of the model takes in this scope (`subject m` and
   * `[m/s]`): the evaluator reads the unit, ordinary lookup would read the feature; warn, naming both.
   */
  private hiddenUnits(unit: Expression, scope: Declaration): void {
    const stack: Expression[] = [unit];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x.kind === 'Binary') { stack.push(x.left, x.right); continue; }
      if (x.kind === 'Unary') { stack.push(x.operand); continue; }
      if (x.kind !== 'Name' || x.name.isGlobal || x.name.segments.length !== 1) continue;
      const n = x.name.segments[0]!;
      if (!tryParseUnit(n)) continue;
      // A feature typed by a unit type (`attribute gallon : VolumeUnit = …`) is a unit the model defines.
      const isUnit = (d: Declaration) => d.node?.kind === 'Usage' && d.node.relations.some((r) => r.relation === 'typing' && /Unit$/.test(lastName(r.target)));
      const hiding = this.ws.resolveReference(x.name, scope, null).find((d) => d.layer === 'user' && !d.isDefinition && d.kind !== 'package' && !isUnit(d));
      if (!hiding) continue;
      const at = hiding.nameRange ?? hiding.range;
      this.diagnostics.push({
        message: `'${n}' inside [ ] is read as the unit ${n}, though the feature '${n}'${at ? ` (line ${at.line})` : ''} has this name here; write [SI::${n}] to say so, or rename the feature`,
        range: x.range,
        severity: 'warning',
      });
    }
  }

  /** `f(x = 1)`, `new T(x = 1)`: a named argument names a feature (parameter) of what is invoked. */
  private namedArguments(args: readonly Argument[], callees: Declaration[], scope: Declaration): void {
    if (callees.length === 0) return;
    for (let aIndex = 0, aList = args; aIndex < aList.length; aIndex++) {
      const a = aList[aIndex]!;
      if (a.name === null) continue;
      const targets = this.membersOf(callees, a.name, scope);
      // The name is written first in the argument, on one line.
      const r = a.range;
      const width = Math.max(1, Math.min(a.name.length, r.end - r.start));
      const range: SourceRange = { start: r.start, end: r.start + width, line: r.line, column: r.column, endLine: r.line, endColumn: r.column + width };
      this.references.push({ range, text: a.name, targets });
      if (targets.length === 0) this.diagnostics.push({ message: `unresolved reference '${a.name}'`, range });
    }
  }

  /** What an invocation's value is: a calculation's `result`, or an instance of an invoked type. */
  private resultOf(callees: Declaration[], scope: Declaration): Declaration[] {
    const out: Declaration[] = [];
    for (let cIndex = 0, cList = callees; cIndex < cList.length; cIndex++) {
      const c = cList[cIndex]!;
      if (['attribute', 'part', 'item', 'occurrence', 'datatype', 'struct', 'class', 'enum'].includes(c.kind)) { out.push(c); continue; }
      // The return parameter, however it is named (`return r : T;` redefines `result`).
      const own = c.members.find((m) => m.node?.kind === 'Usage' && m.node.role === 'return');
      out.push(...(own ? [own] : this.ws.memberNamed(c, 'result', scope)));
    }
    return unique(out);
  }

  private membersOf(targets: Declaration[], name: string, scope: Declaration): Declaration[] {
    const out: Declaration[] = [];
    for (let tIndex = 0, tList = targets; tIndex < tList.length; tIndex++) {
      const t = tList[tIndex]!;
      const found = this.ws.memberNamed(t, name, scope);
      if (found.length > 0) out.push(...found);
      else for (let vIndex = 0, vList = this.valueTypes(t); vIndex < vList.length; vIndex++) { const v = vList[vIndex]!; out.push(...this.ws.memberNamed(v, name, scope)); }
    }
    return unique(out);
  }

  private valueDepth = 0;

  /** What the value of a feature declared without a type denotes (`attribute f = a.b;` is used
   * as a b): its members are reached through that. */
  private valueTypes(d: Declaration): Declaration[] {
    const node = d.node;
    if (!node || node.kind !== 'Usage' || !node.value || this.valueDepth > 4) return EMPTY;
    if (node.relations.some((r) => r.relation === 'typing')) return EMPTY;
    this.ws.refresh(d);
    if (d.valueTypeCache) return d.valueTypeCache;
    d.valueTypeCache = EMPTY; // cycle guard
    const silent = new ReferenceWalker(this.ws, this.decls);
    silent.valueDepth = this.valueDepth + 1;
    d.valueTypeCache = silent.expression(node.value.expression, d);
    return d.valueTypeCache;
  }
}
