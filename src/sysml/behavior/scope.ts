// Name lookup for behaviour compilation, within the subject's own documents: the subject by qualified
// name, names written in the model resolved by the project's name resolver (src/sysml/names: owners
// outward, imports, aliases, inherited members, visibility), enumeration literals. Entries mirror the
// syntax tree (`members` in declaration order) so the compiler can walk it; each entry is paired with
// the resolver's declaration of the same node.
import type { Definition, Document, Member, Package, QualifiedName, Reference, SourceRange, Usage } from '../ast';
import { Workspace, type Declaration } from '../names';
import { isScalarTypeName, type ScalarTypeName } from '../semantics/types';
import { BehaviorError } from './model';

export type ScopeNode = Package | Definition | Usage;

/** A type of a feature's values the behaviour semantics checks (see BehaviorScope.valueTypesOf). */
export type BehaviorValueType =
  | { readonly kind: 'scalar'; readonly name: ScalarTypeName; readonly written: string }
  | { readonly kind: 'enumeration'; readonly definition: string; readonly literals: readonly string[]; readonly written: string };

export interface ScopeEntry {
  readonly node: ScopeNode;
  readonly name: string | null;
  readonly parent: ScopeEntry | undefined;
  readonly path: string;
  readonly members: ScopeEntry[];
}

export interface BehaviorDocument {
  readonly path: string;
  readonly document: Document;
}

function bodyOf(n: ScopeNode): readonly Member[] {
  return (n.kind === 'Package' ? n.members : n.body) ?? [];
}

/** A member, or for an if/while/for action the usages that are its bodies (their members are declared there). */
function controlBodies(c: Member): Member[] {
  if (c.kind === 'IfAction') return [c.then, ...(c.else ? controlBodies(c.else) : [])];
  if (c.kind === 'LoopAction' || c.kind === 'ForAction') return [c.bodyAction];
  return [c];
}

/** Usage name: declared, else the redefined feature's (`:>> c`; KerML effectiveName: a short name is not a name), else short. */
export function usageName(u: Usage): string | null {
  if (u.name) return u.name;
  const r = u.relations.find((x) => x.relation === 'redefinition');
  if (r) return lastSegment(r.target);
  return u.shortName ?? null;
}

export function lastSegment(ref: Reference): string | null {
  const q = ref.kind === 'FeatureChain' ? ref.chain.at(-1) : ref;
  return q?.segments.at(-1) ?? null;
}

export function referenceText(ref: Reference): string {
  const q = (n: QualifiedName) => n.segments.join('::');
  return ref.kind === 'QualifiedName' ? q(ref) : ref.chain.map(q).join('.');
}

/** Splits `A::'b c'::d.e` into segments (`.` and `::` both separate). */
export function splitName(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== "'") {
        if (text[j] === '\\') j++;
        cur += text[j] ?? '';
        j++;
      }
      i = j;
    } else if (c === ':' && text[i + 1] === ':') {
      out.push(cur.trim());
      cur = '';
      i++;
    } else if (c === '.') {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out.filter((s) => s !== '');
}

export class BehaviorScope {
  readonly roots: ScopeEntry[] = [];
  private readonly byNode = new Map<object, ScopeEntry>();
  private readonly names = new Workspace();

  constructor(readonly documents: readonly BehaviorDocument[]) {
    for (const d of documents) this.names.update(d.path, d.document);
    for (const d of documents) for (const m of d.document.members) {
      const e = this.build(m, undefined, d.path);
      if (e) this.roots.push(e);
    }
  }

  private build(m: Member, parent: ScopeEntry | undefined, path: string): ScopeEntry | undefined {
    if (m.kind !== 'Package' && m.kind !== 'Definition' && m.kind !== 'Usage') return undefined;
    const name = m.kind === 'Usage' ? usageName(m) : (m.name ?? m.shortName);
    const e: ScopeEntry = { node: m, name, parent, path, members: [] };
    this.byNode.set(m, e);
    for (const c of bodyOf(m)) {
      // `then action b : B { … }` declares b in place: an element of the body like any other.
      for (const x of controlBodies(c.kind === 'Succession' && c.targetMember ? c.targetMember : c)) {
        const ce = this.build(x, e, path);
        if (ce) e.members.push(ce);
      }
    }
    return e;
  }

  /** The nearest declaration the resolver knows, from an entry outward (an if/while/for body has none of its own). */
  private declarationNear(e: ScopeEntry | undefined): Declaration | null {
    for (let x = e; x; x = x.parent) {
      const d = this.declarationOf(x);
      if (d) return d;
    }
    return null;
  }

  entryOf(node: ScopeNode): ScopeEntry | undefined {
    return this.byNode.get(node);
  }

  private declarationOf(e: ScopeEntry): Declaration | null {
    return this.names.declarationOfNode(e.path, e.node);
  }

  /**
   * The declaration that is a package, definition or usage of these documents, as its entry: the first,
   * when the others are the same feature under redefinition. Two different elements of one name (two
   * imports each bringing one in) leave the name undecided: refused naming both, never the first taken.
   */
  private entryAmong(found: readonly Declaration[], what?: () => { text: string; path: string | undefined; range: SourceRange | undefined }): ScopeEntry | undefined {
    const pair = this.names.ambiguousPair(found);
    if (pair) {
      const w = what?.();
      const where = (d: Declaration) => `${d.qualifiedName}${d.document && d.range ? ` (${rangeText(d.document, d.nameRange ?? d.range)})` : ''}`;
      throw new BehaviorError(`${w?.text ?? `'${pair[0].name ?? ''}'`} names two different elements, ${where(pair[0])} and ${where(pair[1])}, neither redefining the other: the name is ambiguous there (KerML: a name resolves to one membership; two imports, two members or two inherited features of that name leave it undecided); qualify it, or leave only one of them in sight`, w?.path, w?.range);
    }
    for (const d of found) {
      const e = d.node ? this.byNode.get(d.node) : undefined;
      if (e) return e;
    }
    return undefined;
  }

  /** Segments looked up from `scope` outward (then globally), each next one a member of the previous. */
  private lookup(scope: Declaration | null, segments: readonly string[], global = false): Declaration[] {
    if (segments.length === 0) return [];
    let current = scope && !global ? this.names.lexical(segments[0]!, scope, null) : this.names.global(segments[0]!, 'user');
    for (const s of segments.slice(1)) {
      if (current.length === 0) break;
      // Seen from inside the namespace itself when there is no scope: a subject may be private.
      current = current.flatMap((ns) => this.names.memberNamed(ns, s, scope ?? ns));
    }
    return current;
  }

  /** The element a subject's qualified name (`P::Q::s`, `P::c.b`) names. */
  find(qualifiedName: string): ScopeEntry | undefined {
    return this.entryAmong(this.lookup(null, splitName(qualifiedName)), () => ({ text: `the subject ${qualifiedName}`, path: undefined, range: undefined }));
  }

  /** The innermost package, definition or usage of a document whose text holds `range` (where a name written there is resolved from). */
  entryAt(path: string, range: SourceRange): ScopeEntry | undefined {
    const holds = (e: ScopeEntry) => e.path === path && e.node.range.start <= range.start && range.end <= e.node.range.end;
    let found = this.roots.find(holds);
    for (let inner = found; inner; ) {
      inner = inner.members.find(holds);
      if (inner) found = inner;
    }
    return found;
  }

  /** `P::Q::x` of an entry (its owners' names; an unnamed owner gives no name). */
  qualifiedName(e: ScopeEntry): string | undefined {
    const names: string[] = [];
    for (let x: ScopeEntry | undefined = e; x; x = x.parent) {
      if (x.name === null) return undefined;
      names.unshift(x.name);
    }
    return names.join('::');
  }

  /** Resolves a qualified name written at `from`. */
  resolve(from: ScopeEntry | undefined, qn: QualifiedName | readonly string[]): ScopeEntry | undefined {
    const scope = this.declarationNear(from);
    if (Array.isArray(qn)) return this.entryAmong(this.lookup(scope, qn as readonly string[]), () => ({ text: `'${(qn as readonly string[]).join('::')}'`, path: from?.path, range: undefined }));
    const name = qn as QualifiedName;
    return this.entryAmong(this.lookup(scope, name.segments, name.isGlobal), () => ({ text: `'${name.segments.join('::')}'`, path: from?.path, range: name.range }));
  }

  resolveReference(from: ScopeEntry | undefined, ref: Reference): ScopeEntry | undefined {
    const scope = this.declarationNear(from);
    if (scope) return this.entryAmong(this.names.resolveReference(ref, scope, null), () => ({ text: `'${referenceText(ref)}'`, path: from?.path, range: ref.range }));
    if (ref.kind === 'QualifiedName') return this.resolve(undefined, ref);
    let found = this.resolve(undefined, ref.chain[0]!);
    for (const link of ref.chain.slice(1)) found = found ? this.resolve(found, link) : undefined;
    return found;
  }

  /** Whether two entries are one feature under redefinition (the resolver's reading). */
  sameFeature(a: ScopeEntry, b: ScopeEntry): boolean {
    if (a === b) return true;
    const da = this.declarationOf(a);
    const db = this.declarationOf(b);
    return da !== null && db !== null && this.names.sameFeature(da, db);
  }

  /** Definitions (and usages) an element is typed by or specializes, resolved where possible. */
  typesOf(e: ScopeEntry): ScopeEntry[] {
    if (e.node.kind === 'Package') return [];
    const own = this.declarationOf(e);
    const scope = own?.parent ?? (own ? null : this.declarationNear(e.parent));
    const out: ScopeEntry[] = [];
    for (const r of e.node.relations) {
      if (r.relation !== 'typing' && r.relation !== 'specialization' && r.relation !== 'subsetting' && r.relation !== 'reference') continue;
      // Resolved from the owner, never to the element itself (a feature does not specialize itself).
      const t = scope ? this.entryAmong(this.names.resolveReference(r.target, scope, own), () => ({ text: `'${referenceText(r.target)}'`, path: e.path, range: r.target.range })) : this.resolveReference(e.parent, r.target);
      if (t && t !== e && !out.includes(t)) out.push(t);
    }
    return out;
  }

  /**
   * The features a usage redefines (`:>> b`, `redefines b`), resolved where possible: a Redefinition is
   * a Specialization (KerML 7.3.4.6), so the redefining feature inherits the redefined one's members.
   */
  redefinedOf(e: ScopeEntry): ScopeEntry[] {
    if (e.node.kind !== 'Usage') return [];
    const own = this.declarationOf(e);
    const scope = own?.parent ?? (own ? null : this.declarationNear(e.parent));
    const out: ScopeEntry[] = [];
    for (const r of e.node.relations) {
      if (r.relation !== 'redefinition') continue;
      // Resolved from the owner past the redefining feature itself (it bears the redefined one's name).
      const t = scope ? this.entryAmong(this.names.resolveReference(r.target, scope, own)) : this.resolveReference(e.parent, r.target);
      if (t && t !== e && !out.includes(t)) out.push(t);
    }
    return out;
  }

  /**
   * The types a usage's values must be instances of that the engine tells apart, as the model layer
   * reads them (ModelIndex.valueTypesOf): ScalarValues' types (by a name no element of the documents
   * declares) and enumerations, through the definitions that type it and the features it subsets or
   * redefines.
   */
  valueTypesOf(e: ScopeEntry, seen = new Set<ScopeEntry>(), out: BehaviorValueType[] = []): BehaviorValueType[] {
    if (seen.has(e) || e.node.kind === 'Package') return out;
    seen.add(e);
    const own = this.declarationOf(e);
    const scope = own?.parent ?? (own ? null : this.declarationNear(e.parent));
    const isDefinition = e.node.kind === 'Definition';
    for (const r of e.node.relations) {
      const asType = r.relation === 'typing' || (isDefinition && r.relation === 'specialization');
      const asFeature = !isDefinition && (r.relation === 'subsetting' || r.relation === 'redefinition');
      if (!asType && !asFeature) continue;
      const t = scope ? this.entryAmong(this.names.resolveReference(r.target, scope, own)) : this.resolveReference(e.parent, r.target);
      if (t) {
        if (t === e) continue;
        if (asType && t.node.kind === 'Definition' && t.node.keyword === 'enum' && !(isDefinition && e.node.keyword === 'enum')) {
          out.push({ kind: 'enumeration', definition: t.name ?? '', literals: t.members.map((m) => m.name).filter((n): n is string => n !== null), written: lastSegment(r.target) ?? '' });
        }
        if (asType ? t.node.kind === 'Definition' : t.node.kind === 'Usage') this.valueTypesOf(t, seen, out);
        continue;
      }
      const name = asType && r.target.kind === 'QualifiedName' ? r.target.segments.at(-1) : undefined;
      if (name !== undefined && isScalarTypeName(name)) out.push({ kind: 'scalar', name, written: r.target.kind === 'QualifiedName' ? r.target.segments.join('::') : name });
    }
    return out;
  }

  /** Literal names of an enumeration definition found by name, or undefined. */
  enumLiterals(from: ScopeEntry | undefined, name: QualifiedName | readonly string[]): { definition: string; literals: string[]; valued: boolean } | undefined {
    const e = this.resolve(from, name);
    if (!e || e.node.kind !== 'Definition' || e.node.keyword !== 'enum') return undefined;
    const valued = e.node.relations.length > 0 || e.members.some((m) => m.node.kind === 'Usage' && m.node.value !== null);
    return { definition: e.name ?? '', literals: e.members.map((m) => m.name).filter((n): n is string => n !== null), valued };
  }
}

export function rangeText(path: string, r: SourceRange): string {
  return `${path}:${r.line}:${r.column}`;
}
