// Hover and workspace symbols from the syntax tree alone (no name resolution): what a declaration is,
// its qualified name and its documentation, and every named declaration of the workspace's models.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { type DocumentSymbol, type Hover, type SymbolInformation } from 'vscode-languageserver/node';
import type { Member } from '../sysml';
import type { Declaration } from '../sysml/names';
import { childMembers, headerOf, type MemberHeader } from './outline';

function quoted(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The `doc` comments written first in a member's body document that member. */
export function documentationOf(member: Member): string | null {
  const body = childMembers(member)[0] ?? [];
  const docs = body.filter((m): m is Extract<Member, { kind: 'Documentation' }> => m.kind === 'Documentation').map((m) => m.text.trim());
  return docs.length ? docs.join('\n\n') : null;
}

/** Hover over a declared name: its kind, qualified name, types, multiplicity, value and documentation. */
export function hoverAt(text: TextDocument, members: Member[], offset: number, language: 'sysml' | 'kerml'): Hover | null {
  const path: string[] = [];
  let found: { member: Member; header: MemberHeader } | null = null;
  // Only the members around the offset are described (no outline of whole bodies).
  const visit = (list: Member[]): boolean => {
    for (const member of list) {
      if (offset < member.range.start || offset > member.range.end) continue;
      const header = headerOf(member, language);
      const nameRange = header?.name != null && 'nameRange' in member ? member.nameRange : null;
      if (nameRange) path.push(header!.name!);
      if (nameRange && offset >= nameRange.start && offset <= nameRange.end) {
        found = { member, header: header! };
        return true;
      }
      for (const inner of childMembers(member)) if (visit(inner)) return true;
      if (nameRange) path.pop();
    }
    return false;
  };
  visit(members);
  if (!found) return null;
  const { member, header } = found as { member: Member; header: MemberHeader };
  const lines = ['```' + language, headline(header, path.map(quoted).join('::')) + detailsOf(member, text.getText()), '```'];
  const doc = documentationOf(member);
  if (doc) lines.push('', doc);
  return {
    contents: { kind: 'markdown', value: lines.join('\n') },
    range: { start: text.positionAt(member.range.start), end: text.positionAt(member.range.end) },
  };
}

const kermlDefinitionKeywords = new Set(['type', 'classifier', 'class', 'struct', 'datatype', 'assoc', 'assoc struct',
  'behavior', 'function', 'predicate', 'interaction', 'metaclass']);

function isMember(node: Declaration['node']): node is Member {
  return node !== null && headerOf(node as Member, 'sysml') !== null;
}

/** Longest value expression a hover shows as written; a longer one ends with `…`. */
const MAX_VALUE_TEXT = 160;

/** What a declaration's text adds after its relations: the multiplicity and the value or default
 * expression, as written (` [4]`, ` = 180 [km/h]`, ` default := 0`), whitespace folded to one space. */
export function detailsOf(member: Member, source: string): string {
  const written = (r: { start: number; end: number }): string => source.slice(r.start, r.end).replace(/\s+/g, ' ').trim();
  let out = '';
  if ('multiplicity' in member && member.multiplicity) {
    const m = written(member.multiplicity.range);
    out += m.startsWith('[') ? ` ${m}` : ` [${m}]`;
  }
  if ('value' in member && member.value && typeof member.value === 'object' && member.value.kind === 'FeatureValue') {
    let v = written(member.value.range);
    // The value's range may start at its expression: say how it is bound, as the model does.
    if (!/^(=|:=|default\b)/.test(v)) v = `${member.value.isDefault ? 'default ' : ''}${member.value.isInitial ? ':=' : '='} ${v}`;
    out += ` ${v.length > MAX_VALUE_TEXT ? `${v.slice(0, MAX_VALUE_TEXT - 1)}…` : v}`;
  }
  return out;
}

/** The first line of a declaration's hover: `part def VehicleModel::Vehicle`, and for a feature its
 * multiplicity and value as written when its source text is known (`source`). */
export function declarationHeadline(d: Declaration, language: 'sysml' | 'kerml', source: string | null = null): string {
  if (isMember(d.node)) return headline(headerOf(d.node, language)!, d.qualifiedName) + (source === null ? '' : detailsOf(d.node, source));
  return `${d.kind}${d.isDefinition && !kermlDefinitionKeywords.has(d.kind) ? ' def' : ''} ${d.qualifiedName}`;
}

/** `attribute VehicleModel::Vehicle::maxSpeed : Speed`: keywords, the name, then relations. */
function headline(header: MemberHeader, qualified: string): string {
  if (header.keywords === undefined) return `${header.detail} ${qualified}`.trim();
  return [header.keywords, qualified, header.relations ?? ''].filter(Boolean).join(' ');
}

/** Hover over a reference: for each declaration it denotes, kind, qualified name, where it comes
 * from (`origin`, e.g. the standard library) and its documentation. */
export function referenceHover(targets: readonly Declaration[], languageOf: (d: Declaration) => 'sysml' | 'kerml',
  origin: (d: Declaration) => string | null, sourceOf: (d: Declaration) => string | null = () => null): string {
  const parts = targets.map((d) => {
    const language = languageOf(d);
    const lines = ['```' + language, declarationHeadline(d, language, sourceOf(d)), '```'];
    const from = origin(d);
    if (from) lines.push('', from);
    const doc = isMember(d.node) ? documentationOf(d.node) : null;
    if (doc) lines.push('', doc);
    return lines.join('\n');
  });
  return parts.join('\n\n---\n\n');
}

/** Every named declaration of one document, flat, with its container's qualified name. */
export function declarationsOf(uri: string, symbols: DocumentSymbol[], container = ''): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  for (const symbol of symbols) {
    const name = symbol.name.startsWith('(') ? null : symbol.name;
    if (name) {
      out.push({ name, kind: symbol.kind, location: { uri, range: symbol.selectionRange }, ...(container ? { containerName: container } : {}) });
    }
    const inner = name ? (container ? `${container}::${quoted(name)}` : quoted(name)) : container;
    out.push(...declarationsOf(uri, symbol.children ?? [], inner));
  }
  return out;
}

/** Case-insensitive subsequence match, as VS Code's own symbol filter does. */
export function matchesQuery(name: string, query: string): boolean {
  if (query === '') return true;
  const haystack = name.toLowerCase();
  let at = 0;
  for (const c of query.toLowerCase()) {
    at = haystack.indexOf(c, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

