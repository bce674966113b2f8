// Name lookup for behaviour compilation, within the subject's own documents: the subject by qualified
// name, definitions by name from a node's owners outward (then anywhere, by simple name), enumeration
// literals.
//
// REPLACE with src/sysml/names/ (the workspace names index) once it lands: this covers only what
// compiling a behaviour needs (no visibility, imports followed by simple name only).
import type { Definition, Document, Member, Package, QualifiedName, Reference, SourceRange, Usage } from '../ast';

export type ScopeNode = Package | Definition | Usage;

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

/** Usage name: declared, short, or the redefined feature's (`:>> c`). */
export function usageName(u: Usage): string | null {
  if (u.name) return u.name;
  if (u.shortName) return u.shortName;
  const r = u.relations.find((x) => x.relation === 'redefinition');
  return r ? lastSegment(r.target) : null;
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
  private readonly byNode = new Map<ScopeNode, ScopeEntry>();
  private readonly bySimpleName = new Map<string, ScopeEntry[]>();

  constructor(readonly documents: readonly BehaviorDocument[]) {
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
    if (name) {
      const list = this.bySimpleName.get(name) ?? [];
      list.push(e);
      this.bySimpleName.set(name, list);
    }
    for (const c of bodyOf(m)) {
      const ce = this.build(c, e, path);
      if (ce) e.members.push(ce);
    }
    return e;
  }

  entryOf(node: ScopeNode): ScopeEntry | undefined {
    return this.byNode.get(node);
  }

  /** The element a subject's qualified name (`P::Q::s`, `P::c.b`) names. */
  find(qualifiedName: string): ScopeEntry | undefined {
    const segs = splitName(qualifiedName);
    let found = this.roots.find((r) => r.name === segs[0]);
    for (const s of segs.slice(1)) found = found?.members.find((m) => m.name === s) ?? (found ? this.inheritedMember(found, s) : undefined);
    return found;
  }

  private inheritedMember(e: ScopeEntry, name: string): ScopeEntry | undefined {
    for (const t of this.typesOf(e)) {
      const m = t.members.find((x) => x.name === name);
      if (m) return m;
    }
    return undefined;
  }

  /** Resolves a qualified name written at `from`: the first segment from the owners outward, then by simple name anywhere. */
  resolve(from: ScopeEntry | undefined, qn: QualifiedName | readonly string[]): ScopeEntry | undefined {
    const segs = Array.isArray(qn) ? (qn as readonly string[]) : (qn as QualifiedName).segments;
    if (segs.length === 0) return undefined;
    let first: ScopeEntry | undefined;
    for (let s = from; s && !first; s = s.parent) first = s.members.find((m) => m.name === segs[0]);
    first ??= this.roots.find((r) => r.name === segs[0]) ?? this.bySimpleName.get(segs[0]!)?.[0];
    let found = first;
    for (const s of segs.slice(1)) found = found?.members.find((m) => m.name === s) ?? (found ? this.inheritedMember(found, s) : undefined);
    if (!found && segs.length > 1) {
      // `Lib::Pkg::X` through an import we do not follow: the last segment by simple name.
      const cands = this.bySimpleName.get(segs.at(-1)!) ?? [];
      found = cands.find((c) => c.parent?.name === segs.at(-2)) ?? (cands.length === 1 ? cands[0] : undefined);
    }
    return found;
  }

  resolveReference(from: ScopeEntry | undefined, ref: Reference): ScopeEntry | undefined {
    if (ref.kind === 'QualifiedName') return this.resolve(from, ref);
    let found = this.resolve(from, ref.chain[0]!);
    for (const link of ref.chain.slice(1)) found = found ? this.resolve(found, link) : undefined;
    return found;
  }

  /** Definitions (and usages) an element is typed by or specializes, resolved where possible. */
  typesOf(e: ScopeEntry): ScopeEntry[] {
    if (e.node.kind === 'Package') return [];
    const out: ScopeEntry[] = [];
    for (const r of e.node.relations) {
      if (r.relation !== 'typing' && r.relation !== 'specialization' && r.relation !== 'subsetting' && r.relation !== 'reference') continue;
      const t = this.resolveReference(e.parent ?? e, r.target);
      if (t && t !== e) out.push(t);
    }
    return out;
  }

  /** Literal names of an enumeration definition found by name, or undefined. */
  enumLiterals(from: ScopeEntry | undefined, name: QualifiedName | readonly string[]): { definition: string; literals: string[] } | undefined {
    const e = this.resolve(from, name);
    if (!e || e.node.kind !== 'Definition' || e.node.keyword !== 'enum') return undefined;
    return { definition: e.name ?? '', literals: e.members.map((m) => m.name).filter((n): n is string => n !== null) };
  }
}

export function rangeText(path: string, r: SourceRange): string {
  return `${path}:${r.line}:${r.column}`;
}
