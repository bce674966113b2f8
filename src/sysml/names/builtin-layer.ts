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

export { BUILTIN_LIBRARY_VERSION };

let roots: Map<string, Declaration[]> | null = null;

/** Top-level declarations of the built-in table by name (built on first use, then shared). */
export function builtinRoots(): Map<string, Declaration[]> {
  if (!roots) roots = readTable(BUILTIN_TABLE);
  return roots;
}

export function readTable(table: string): Map<string, Declaration[]> {
  // Read once per process, cold (no JIT warm-up yet): scanned by character positions rather than
  // split into line and field strings, and the implicit bases shared per kind (a fifth less CPU than
  // splitting: docs/names-and-lowering.md, "Apollo-sized model").
  const out = new Map<string, Declaration[]>();
  const stack: Declaration[] = [];
  const all: Declaration[] = [];
  // Per declaration: where its supertypes / imports / alias fields start in the table (-1: none).
  const linkAt: number[] = [];
  const n = table.length;
  let pos = 0;
  while (pos < n) {
    let end = table.indexOf('\n', pos);
    if (end < 0) end = n;
    let at = pos;
    while (at < end && table.charCodeAt(at) === 32) at++;
    const depth = at - pos;
    if (at === end || (table.charCodeAt(at) <= 32 && table.slice(at, end).trim() === '')) { pos = end + 1; continue; }
    const kindEnd = fieldEnd(table, at, end);
    const nameEnd = fieldEnd(table, kindEnd + 1, end);
    const shortEnd = fieldEnd(table, nameEnd + 1, end);
    const isDefinition = table.startsWith('def ', at);
    const kind = table.slice(isDefinition ? at + 4 : at, kindEnd);
    const name = kindEnd < end ? table.slice(kindEnd + 1, nameEnd) : '';
    const short = nameEnd < end ? table.slice(nameEnd + 1, shortEnd) : '';
    stack.length = depth;
    const parent = depth > 0 ? stack[depth - 1]! : null;
    const d = new Declaration('builtin', name === '' ? null : name, short === '' ? null : short, kind, isDefinition,
      null, parent, null, 'public', null);
    all.push(d);
    linkAt.push(shortEnd < end ? shortEnd + 1 : -1, end);
    if (parent) parent.addMember(d);
    else {
      if (d.name !== null) push(out, d.name, d);
      if (d.shortName !== null && d.shortName !== d.name) push(out, d.shortName, d);
    }
    stack.push(d);
    pos = end + 1;
  }
  const at = (ref: string): Declaration | undefined => all[parseInt(ref, 36)];
  const bases = new Map<string, string[] | null>();
  const things = ['Base', 'things'];
  for (let k = 0; k < all.length; k++) {
    const d = all[k]!;
    const from = linkAt[2 * k]!;
    let imports = '';
    let alias = '';
    if (from >= 0) {
      const end = linkAt[2 * k + 1]!;
      const supersEnd = fieldEnd(table, from, end);
      const importsEnd = supersEnd < end ? fieldEnd(table, supersEnd + 1, end) : end;
      if (supersEnd > from) {
        for (const s of table.slice(from, supersEnd).split(',')) { const t = s === '' ? undefined : at(s); if (t) d.directSupertypes = added(d.directSupertypes, t); }
      }
      if (importsEnd > supersEnd + 1) imports = table.slice(supersEnd + 1, importsEnd);
      if (importsEnd < end) alias = table.slice(importsEnd + 1, fieldEnd(table, importsEnd + 1, end));
    }
    let base = bases.get(d.kind);
    if (base === undefined) bases.set(d.kind, (base = implicitBase(d.kind)));
    if (base) d.fixedSupertypes = added(d.fixedSupertypes, base);
    if (!d.isDefinition && d.kind !== 'package' && d.kind !== 'alias') d.fixedSupertypes = added(d.fixedSupertypes, things);
    if (imports !== '') for (const i of imports.split(',')) if (i !== '') { const spec = importOf(d, i, at); if (spec) d.imports = added(d.imports, spec); }
    if (alias !== '') d.aliasTarget = at(alias) ?? null;
  }
  return out;
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
