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
  const out = new Map<string, Declaration[]>();
  const stack: Declaration[] = [];
  const all: Declaration[] = [];
  const links: [Declaration, string, string, string][] = [];
  for (const line of table.split('\n')) {
    if (line.trim() === '') continue;
    const depth = line.length - line.trimStart().length;
    const [kindText = '', name = '', short = '', supers = '', imports = '', alias = ''] = line.trimStart().split('\t');
    const isDefinition = kindText.startsWith('def ');
    const kind = isDefinition ? kindText.slice(4) : kindText;
    stack.length = depth;
    const parent = depth > 0 ? stack[depth - 1]! : null;
    const d = new Declaration('builtin', name === '' ? null : name, short === '' ? null : short, kind, isDefinition,
      null, parent, null, 'public', null);
    all.push(d);
    links.push([d, supers, imports, alias]);
    if (parent) parent.addMember(d);
    else {
      if (d.name !== null) push(out, d.name, d);
      if (d.shortName !== null && d.shortName !== d.name) push(out, d.shortName, d);
    }
    stack.push(d);
  }
  const at = (ref: string): Declaration | undefined => all[parseInt(ref, 36)];
  for (const [d, supers, imports, alias] of links) {
    for (const s of supers.split(',')) { const t = s === '' ? undefined : at(s); if (t) d.directSupertypes = added(d.directSupertypes, t); }
    const base = implicitBase(d.kind);
    if (base) d.fixedSupertypes = added(d.fixedSupertypes, base);
    if (!d.isDefinition && d.kind !== 'package' && d.kind !== 'alias') d.fixedSupertypes = added(d.fixedSupertypes, ['Base', 'things']);
    for (const i of imports.split(',')) if (i !== '') { const spec = importOf(d, i, at); if (spec) d.imports = added(d.imports, spec); }
    if (alias !== '') d.aliasTarget = at(alias) ?? null;
  }
  return out;
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
