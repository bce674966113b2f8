// The built-in layer: declarations of the standard library known without its documents, read from
// the generated table of ./builtin-table.ts (names, kinds, supertypes and public imports only).
//
// Table format, one declaration per line: `<depth spaces><kind>\t<name>\t<short name>\t<supertypes>\t<imports>\t<alias target>`
// where kind is prefixed with `def ` for definitions, supertypes are `;`-separated global qualified
// names, imports are `;`-separated `*Q` (namespace), `**Q` (recursive namespace), `=Q` (membership)
// or `=*Q` (recursive membership), and every qualified name is written with `::`.

import { Declaration, type ImportSpec, push } from './declarations';
import { BUILTIN_LIBRARY_VERSION, BUILTIN_TABLE } from './builtin-table';
import { parseQualifiedName } from './qualified';

export { BUILTIN_LIBRARY_VERSION };

let roots: Map<string, Declaration[]> | null = null;

/** Top-level declarations of the built-in table by name (built on first use, then shared). */
export function builtinRoots(): Map<string, Declaration[]> {
  if (!roots) roots = readTable(BUILTIN_TABLE);
  return roots;
}

function path(text: string): string[] {
  return parseQualifiedName(text) ?? [text];
}

export function readTable(table: string): Map<string, Declaration[]> {
  const out = new Map<string, Declaration[]>();
  const stack: Declaration[] = [];
  for (const line of table.split('\n')) {
    if (line.trim() === '') continue;
    const depth = line.length - line.trimStart().length;
    const [kindText = '', name = '', short = '', supers = '', imports = '', alias = ''] = line.trimStart().split('\t');
    const isDefinition = kindText.startsWith('def ');
    const kind = isDefinition ? kindText.slice(4) : kindText;
    stack.length = depth;
    const parent = depth > 0 ? stack[depth - 1]! : null;
    const d = new Declaration('builtin', name === '' ? null : name, short === '' ? null : short, kind, isDefinition,
      null, parent, null, 'public', null, null);
    for (const s of supers.split(';')) if (s !== '') d.fixedSupertypes.push(path(s));
    for (const i of imports.split(';')) if (i !== '') d.imports.push(importOf(d, i));
    if (alias !== '') d.aliasPath = path(alias);
    if (parent) parent.addMember(d);
    else {
      if (d.name !== null) push(out, d.name, d);
      if (d.shortName !== null && d.shortName !== d.name) push(out, d.shortName, d);
    }
    stack.push(d);
  }
  return out;
}

function importOf(owner: Declaration, text: string): ImportSpec {
  const base = { owner, target: null, isAll: false, isPublic: true, filters: [], node: null };
  if (text.startsWith('**')) return { ...base, targetPath: path(text.slice(2)), isNamespace: true, isRecursive: true };
  if (text.startsWith('*')) return { ...base, targetPath: path(text.slice(1)), isNamespace: true, isRecursive: false };
  if (text.startsWith('=*')) return { ...base, targetPath: path(text.slice(2)), isNamespace: false, isRecursive: true };
  return { ...base, targetPath: path(text.slice(1)), isNamespace: false, isRecursive: false };
}
