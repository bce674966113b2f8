// The built-in layer: declarations of the standard library known without its documents, read from
// the generated table of ./builtin-table.ts (names, kinds, supertypes, public imports and alias
// targets only; never the library's text).
//
// Table format, one declaration per line, fields separated by tabs:
//   <depth spaces><kind> <name> <short name> <supertypes> <imports> <alias target>
// kind is prefixed with `def ` for definitions. Other declarations are referred to by their line
// number in base 36: supertypes as a `,`-separated list, imports as `,`-separated entries prefixed
// `*` (namespace), `**` (recursive namespace), `=` (membership) or `=*` (recursive membership).
// The implicit base of each kind (and `Base::things` for features) is not listed: the reader adds
// it, as the builder of declarations does for documents.

import { added, Declaration, type ImportSpec, implicitBase, push } from './declarations';
import { BUILTIN_LIBRARY_VERSION, BUILTIN_TABLE } from './builtin-table';

export { BUILTIN_LIBRARY_VERSION, BUILTIN_TABLE };

/**
 * The built-in table read lazily: a top-level package's declarations are made when its name is first
 * looked up (or a declaration made refers into it), and a declaration's links (supertypes, imports,
 * alias target, implicit bases) when the resolver first asks for them (`linkBuiltin`). A model uses
 * about a third of the library's 95 packages, and few of their declarations' links: reading the
 * whole table was most of what a process spends on the library names (docs/names-and-lowering.md).
 * What is made is exactly what reading it all would make.
 */
export class BuiltinTable {
  /** Where each line starts in the table; the line number is a declaration's reference. */
  private readonly lineStart: Int32Array;
  private readonly lines: number;
  /** First line of each top-level declaration, in order, and top-level names to their indices. */
  private readonly tops: number[] = [];
  private readonly topsByName = new Map<string, number[]>();
  private readonly made: boolean[] = [];
  /** Declarations made so far, by line. */
  private readonly all: (Declaration | undefined)[] = [];
  private readonly bases = new Map<string, string[] | null>();

  constructor(private readonly table: string) {
    const starts: number[] = [];
    const n = table.length;
    for (let pos = 0; pos < n;) {
      let end = table.indexOf('\n', pos);
      if (end < 0) end = n;
      starts.push(pos);
      const c = table.charCodeAt(pos);
      if (c !== 32 && end > pos) {
        const kindEnd = fieldEnd(table, pos, end);
        const nameEnd = kindEnd < end ? fieldEnd(table, kindEnd + 1, end) : end;
        const shortEnd = nameEnd < end ? fieldEnd(table, nameEnd + 1, end) : end;
        const name = kindEnd < end ? table.slice(kindEnd + 1, nameEnd) : '';
        const short = nameEnd < end ? table.slice(nameEnd + 1, shortEnd) : '';
        const top = this.tops.length;
        this.tops.push(starts.length - 1);
        this.made.push(false);
        if (name !== '') push(this.topsByName, name, top);
        if (short !== '' && short !== name) push(this.topsByName, short, top);
      }
      pos = end + 1;
    }
    starts.push(n + 1);
    this.lines = starts.length - 1;
    this.lineStart = Int32Array.from(starts);
  }

  /** Number of top-level names. */
  get size(): number {
    return this.topsByName.size;
  }

  /** Top-level declarations named `name` (short names too). */
  get(name: string): Declaration[] | undefined {
    const tops = this.topsByName.get(name);
    if (!tops) return undefined;
    const out: Declaration[] = [];
    for (const top of tops) {
      this.make(top);
      const d = this.all[this.tops[top]!]!;
      out.push(d);
    }
    return out;
  }

  /** Every declaration made and linked now (what reading the whole table at once gave). */
  materializeAll(): void {
    for (let top = 0; top < this.tops.length; top++) this.make(top);
    for (const d of this.all) if (d) linkBuiltin(d);
  }

  /** The declaration of line `ref` (base 36), its package made first. */
  private at(ref: string): Declaration | undefined {
    const line = parseInt(ref, 36);
    if (!(line >= 0 && line < this.lines)) return undefined;
    const made = this.all[line];
    if (made) return made;
    // The top-level declaration whose lines hold `line`: the last that starts at or before it.
    let lo = 0;
    let hi = this.tops.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.tops[mid]! <= line) lo = mid;
      else hi = mid - 1;
    }
    this.make(lo);
    return this.all[line];
  }

  /** Makes the declarations of one top-level declaration's lines (links come later, when asked). */
  private make(top: number): void {
    if (this.made[top]) return;
    this.made[top] = true;
    const table = this.table;
    const first = this.tops[top]!;
    const last = top + 1 < this.tops.length ? this.tops[top + 1]! : this.lines;
    const stack: Declaration[] = [];
    for (let line = first; line < last; line++) {
      const pos = this.lineStart[line]!;
      const end = this.lineStart[line + 1]! - 1;
      let at = pos;
      while (at < end && table.charCodeAt(at) === 32) at++;
      const depth = at - pos;
      if (at === end || (table.charCodeAt(at) <= 32 && table.slice(at, end).trim() === '')) continue;
      const kindEnd = fieldEnd(table, at, end);
      const nameEnd = kindEnd < end ? fieldEnd(table, kindEnd + 1, end) : end;
      const shortEnd = nameEnd < end ? fieldEnd(table, nameEnd + 1, end) : end;
      const isDefinition = table.startsWith('def ', at);
      const kind = table.slice(isDefinition ? at + 4 : at, kindEnd);
      const name = kindEnd < end ? table.slice(kindEnd + 1, nameEnd) : '';
      const short = nameEnd < end ? table.slice(nameEnd + 1, shortEnd) : '';
      stack.length = depth;
      const parent = depth > 0 ? stack[depth - 1]! : null;
      const d = new Declaration('builtin', name === '' ? null : name, short === '' ? null : short, kind, isDefinition,
        null, parent, null, 'public', null);
      d.builtinLinks = { table: this, from: shortEnd < end ? shortEnd + 1 : -1, end };
      this.all[line] = d;
      if (parent) parent.addMember(d);
      stack.push(d);
    }
  }

  /** Sets a declaration's supertypes, imports, alias target and implicit bases from its line. */
  link(d: Declaration, from: number, end: number): void {
    const table = this.table;
    let imports = '';
    let alias = '';
    if (from >= 0) {
      const supersEnd = fieldEnd(table, from, end);
      const importsEnd = supersEnd < end ? fieldEnd(table, supersEnd + 1, end) : end;
      if (supersEnd > from) {
        for (const s of table.slice(from, supersEnd).split(',')) { const t = s === '' ? undefined : this.at(s); if (t) d.directSupertypes = added(d.directSupertypes, t); }
      }
      if (importsEnd > supersEnd + 1) imports = table.slice(supersEnd + 1, importsEnd);
      if (importsEnd < end) alias = table.slice(importsEnd + 1, fieldEnd(table, importsEnd + 1, end));
    }
    let base = this.bases.get(d.kind);
    if (base === undefined) this.bases.set(d.kind, (base = implicitBase(d.kind)));
    if (base) d.fixedSupertypes = added(d.fixedSupertypes, base);
    if (!d.isDefinition && d.kind !== 'package' && d.kind !== 'alias') d.fixedSupertypes = added(d.fixedSupertypes, THINGS);
    if (imports !== '') for (const i of imports.split(',')) if (i !== '') { const spec = importOf(d, i, (r) => this.at(r)); if (spec) d.imports = added(d.imports, spec); }
    if (alias !== '') d.aliasTarget = this.at(alias) ?? null;
  }
}

const THINGS = ['Base', 'things'];

/** Gives a built-in declaration its links if it has not had them yet (a no-op for any other). */
export function linkBuiltin(d: Declaration): void {
  const links = d.builtinLinks;
  if (links === null) return;
  d.builtinLinks = null;
  links.table.link(d, links.from, links.end);
}

let roots: BuiltinTable | null = null;

/** Top-level declarations of the built-in table by name (read on first use, then shared). */
export function builtinRoots(): BuiltinTable {
  if (!roots) roots = new BuiltinTable(BUILTIN_TABLE);
  return roots;
}


/** End of the tab-separated field starting at `from` (the tab's position, or `end`). */
function fieldEnd(table: string, from: number, end: number): number {
  const tab = table.indexOf('\t', from);
  return tab < 0 || tab > end ? end : tab;
}

function importOf(owner: Declaration, text: string, at: (ref: string) => Declaration | undefined): ImportSpec | null {
  const m = /^(\*\*|\*|=\*|=)(.*)$/.exec(text);
  const target = m ? at(m[2]!) : undefined;
  if (!m || !target) return null;
  return {
    owner, target: null, targetStart: -1, targetDecls: [target], isNamespace: m[1]!.startsWith('*'), isRecursive: m[1] === '**' || m[1] === '=*',
    isAll: false, isPublic: true, filters: [], node: null,
  };
}
