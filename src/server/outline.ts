// Outline (document symbols) and folding ranges computed from the SysML/KerML syntax tree.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind, type Range } from 'vscode-languageserver/node';
import type { Definition, DefinitionKeyword, Member, Relation, SourceRange, Usage, UsageKeyword } from '../sysml';

const definitionKinds: Partial<Record<DefinitionKeyword, SymbolKind>> = {
  attribute: SymbolKind.Struct,
  datatype: SymbolKind.Struct,
  enum: SymbolKind.Enum,
  action: SymbolKind.Function,
  calc: SymbolKind.Function,
  function: SymbolKind.Function,
  predicate: SymbolKind.Function,
  behavior: SymbolKind.Function,
  interaction: SymbolKind.Function,
  constraint: SymbolKind.Interface,
  requirement: SymbolKind.Interface,
  concern: SymbolKind.Interface,
  case: SymbolKind.Function,
  analysis: SymbolKind.Function,
  verification: SymbolKind.Function,
  'use case': SymbolKind.Function,
  port: SymbolKind.Interface,
  interface: SymbolKind.Interface,
};

const usageKinds: Partial<Record<UsageKeyword, SymbolKind>> = {
  attribute: SymbolKind.Property,
  port: SymbolKind.Interface,
  enum: SymbolKind.EnumMember,
  action: SymbolKind.Method,
  calc: SymbolKind.Method,
  state: SymbolKind.Object,
  event: SymbolKind.Event,
  message: SymbolKind.Event,
  constraint: SymbolKind.Boolean,
  requirement: SymbolKind.Boolean,
  concern: SymbolKind.Boolean,
  inv: SymbolKind.Boolean,
  connection: SymbolKind.Operator,
  connect: SymbolKind.Operator,
  interface: SymbolKind.Operator,
  flow: SymbolKind.Operator,
  'succession flow': SymbolKind.Operator,
  binding: SymbolKind.Operator,
  bind: SymbolKind.Operator,
  allocation: SymbolKind.Operator,
  allocate: SymbolKind.Operator,
  fork: SymbolKind.Operator,
  join: SymbolKind.Operator,
  merge: SymbolKind.Operator,
  decide: SymbolKind.Operator,
};

function rangeOf(text: TextDocument, range: SourceRange): Range {
  return { start: text.positionAt(range.start), end: text.positionAt(range.end) };
}

function typeNames(relations: Relation[], relation: Relation['relation']): string[] {
  return relations
    .filter((r) => r.relation === relation)
    .map((r) => (r.target.kind === 'QualifiedName' ? r.target.segments : r.target.chain.flatMap((q) => q.segments)).join('::'));
}

/** `: T`, `:> A`, `:>> b` written after the name, as the outline's detail. */
function relationDetail(relations: Relation[]): string {
  const parts: string[] = [];
  const typed = typeNames(relations, 'typing');
  if (typed.length) parts.push(`: ${typed.join(', ')}`);
  const special = [...typeNames(relations, 'specialization'), ...typeNames(relations, 'subsetting')];
  if (special.length) parts.push(`:> ${special.join(', ')}`);
  const redefined = typeNames(relations, 'redefinition');
  if (redefined.length) parts.push(`:>> ${redefined.join(', ')}`);
  return parts.join(' ');
}

function definitionKeywords(definition: Definition, language: 'sysml' | 'kerml'): string {
  const keyword = definition.keyword === 'def' || language === 'kerml' ? definition.keyword : `${definition.keyword} def`;
  return [definition.isAbstract ? 'abstract' : '', keyword].filter(Boolean).join(' ');
}

function usageKeywords(usage: Usage): string {
  return [usage.direction ?? '', usage.role && usage.role !== 'member' && usage.role !== 'parameter' ? usage.role : '',
    usage.isKeywordImplicit ? '' : usage.keyword].filter(Boolean).join(' ');
}

export interface MemberHeader {
  name: string | null;
  kind: SymbolKind;
  /** Keywords and relations, as the outline shows them: `attribute : Speed`. */
  detail: string;
  /** The keywords alone (`part def`) and the relations alone (`: Speed :> mass`), for hovers. */
  keywords?: string;
  relations?: string;
  body: Member[] | null;
}

/** Name, symbol kind, detail (`part def`, `attribute : Speed`) and body of a member, or null for
 * members the outline leaves out (imports, comments). */
export function headerOf(member: Member, language: 'sysml' | 'kerml'): MemberHeader | null {
  switch (member.kind) {
    case 'Package':
      return {
        name: member.name ?? member.shortName, kind: SymbolKind.Package, body: member.members,
        detail: `${member.isStandard ? 'standard ' : ''}${member.isLibrary ? 'library ' : ''}${member.keyword}`,
      };
    case 'Definition':
      return withParts({
        name: member.name ?? member.shortName, kind: definitionKinds[member.keyword] ?? SymbolKind.Class, body: member.body,
      }, definitionKeywords(member, language), relationDetail(member.relations));
    case 'Usage':
      return withParts({
        name: member.name ?? member.shortName ?? redefinedName(member.relations), kind: usageKinds[member.keyword] ?? SymbolKind.Field,
        body: member.body,
      }, usageKeywords(member), relationDetail(member.relations));
    case 'Transition':
      return { name: member.name ?? member.shortName, kind: SymbolKind.Event, detail: 'transition', body: member.body };
    case 'Alias':
      return { name: member.name ?? member.shortName, kind: SymbolKind.Variable, detail: `alias for ${member.target.segments.join('::')}`, body: null };
    case 'AcceptAction':
    case 'SendAction':
    case 'AssignAction':
    case 'TerminateAction':
    case 'Succession':
      return { name: member.name ?? member.shortName, kind: SymbolKind.Method, detail: member.kind.replace(/Action$/, '').toLowerCase(), body: member.body };
    case 'StateSubaction': {
      const inner = member.action ? headerOf(member.action, language) : null;
      if (inner) {
        inner.detail = `${member.which} ${inner.detail}`.trim();
        if (inner.keywords !== undefined) inner.keywords = `${member.which} ${inner.keywords}`.trim();
      }
      return inner;
    }
    default:
      return null;
  }
}

function withParts(header: Omit<MemberHeader, 'detail'>, keywords: string, relations: string): MemberHeader {
  return { ...header, detail: [keywords, relations].filter(Boolean).join(' '), keywords, relations };
}

/** The symbol of one member, or null for members the outline leaves out (imports, comments, unnamed leaves). */
export function symbolOf(text: TextDocument, member: Member, language: 'sysml' | 'kerml'): DocumentSymbol | null {
  if (member.kind === 'StateSubaction') {
    if (!member.action) return null;
    const inner = symbolOf(text, member.action, language);
    if (inner) inner.detail = `${member.which} ${inner.detail ?? ''}`.trim();
    return inner;
  }
  const header = headerOf(member, language);
  if (!header) return null;
  const { kind, detail, body } = header;
  let name = header.name;
  const children = symbolsOf(text, body ?? [], language);
  if (name === null) {
    // An unnamed container still shows when it holds named members, so they stay reachable.
    if (children.length === 0) return null;
    name = `(${detail || member.kind.toLowerCase()})`;
  }
  const range = rangeOf(text, member.range);
  const nameRange = 'nameRange' in member && member.nameRange ? rangeOf(text, member.nameRange) : range;
  return DocumentSymbol.create(name, detail || undefined, kind, range, contains(range, nameRange) ? nameRange : range, children);
}

function redefinedName(relations: Relation[]): string | null {
  const redefined = typeNames(relations, 'redefinition');
  return redefined.length ? `:>> ${redefined[0]!.split('::').pop()}` : null;
}

function contains(outer: Range, inner: Range): boolean {
  const before = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

export function symbolsOf(text: TextDocument, members: Member[], language: 'sysml' | 'kerml'): DocumentSymbol[] {
  const symbols: DocumentSymbol[] = [];
  for (const member of members) {
    const symbol = symbolOf(text, member, language);
    if (symbol) symbols.push(symbol);
  }
  return symbols;
}

/** Folding ranges: every body and multi-line comment, plus `// region` … `// endregion` markers. */
export function foldingRangesOf(text: TextDocument, members: Member[]): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  const visit = (list: Member[]) => {
    for (const member of list) {
      const start = text.positionAt(member.range.start).line;
      const end = text.positionAt(member.range.end).line;
      if (end > start) {
        const isComment = member.kind === 'Comment' || member.kind === 'Documentation' || member.kind === 'TextualRepresentation';
        // Keep the closing brace visible; a comment folds to its first line.
        const range = FoldingRange.create(start, isComment ? end : end - 1);
        if (isComment) range.kind = FoldingRangeKind.Comment;
        if (range.endLine > range.startLine || isComment) ranges.push(range);
      }
      for (const inner of childMembers(member)) visit(inner);
    }
  };
  visit(members);
  const open: number[] = [];
  for (let line = 0; line < text.lineCount; line++) {
    const content = text.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
    if (/^\s*\/\/\s*#?region\b/.test(content)) open.push(line);
    else if (/^\s*\/\/\s*#?endregion\b/.test(content) && open.length) {
      ranges.push(FoldingRange.create(open.pop()!, line, undefined, undefined, FoldingRangeKind.Region));
    }
  }
  return ranges;
}

export function childMembers(member: Member): Member[][] {
  switch (member.kind) {
    case 'Package':
      return member.members ? [member.members] : [];
    case 'StateSubaction':
      return member.action ? [[member.action]] : [];
    case 'IfAction':
      return [[member.then], ...(member.else ? [[member.else]] : [])];
    case 'LoopAction':
    case 'ForAction':
      return [[member.bodyAction]];
    default:
      return 'body' in member && Array.isArray(member.body) ? [member.body] : [];
  }
}
