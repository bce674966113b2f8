// Recursive-descent parser for SysML v2 and KerML textual notation (the grammar of
// bnf/SysML-textual-bnf.kebnf and bnf/KerML-textual-bnf.kebnf), building the tree of ./ast.ts.
//
// It accepts the union of both grammars where they do not conflict (so one member parser serves
// both languages; the lexer's keyword set decides what is a keyword). It never throws: every error
// is recorded with its place and an expectation, and the parser resynchronises at ';', '}' and
// declaration keywords. Every loop consumes at least one token per iteration or stops.

import type {
  AcceptAction, Argument, AssignAction, BodyExpression, Comment, ConnectorEnd, Definition, DefinitionKeyword,
  Document, Documentation, Expression, FeatureChain, FeatureValue, ForAction, IfAction, Import, Language,
  LoopAction, Member, Multiplicity, ParseResult, QualifiedName, Reference, Relation, RelationKind, SendAction,
  SourceRange, Succession, SyntaxDiagnostic, NotationWarning, TerminateAction, TextualRepresentation, Transition, Usage,
  UsageKeyword, UsageRole, Visibility, BinaryOperator, UnaryOperator, StateSubaction,
  NameExpression, LiteralExpression, Node, BinaryExpression, QuantityExpression, ResultExpression,
} from './ast';
import * as ast from './ast';
import * as lexer from './lexer';
import type { TokenStream } from './lexer';
import { declarationsReadAsAssignments } from './assignment-lookalikes';

// Local copies: under per-file transpilation (tsx) an imported binding is a getter call on every use.
const { ParsedQualifiedName, TextRange, lineAt, SpannedNode, SPAN_START, SPAN_END, SPAN_LINES, NAME_START, NAME_END } = ast;
type SpannedNode = ast.SpannedNode;
const {
  AMP, ARROW, AT, AT2, CARET, COLON, COLON2, COLON2_GT, COLON_EQ, COLON_GT, COLON_GT2, COMMA, DOLLAR, DOT, DOT2, DOT_Q, EOF, EQ, EQ2, EQ3, FAT_ARROW, GE, GT, HASH, IDENT, INTEGER, K, KW_BASE, LBRACE, LBRACK, LE, LPAREN, LT, MINUS, NE, NE2, PERCENT, PIPE, PLUS, QUESTION, QUESTION2, RBRACE, RBRACK, REAL, RPAREN, SEMI, SLASH, STAR, STAR2, STRING, TILDE, commentText, nameText, stringValue, tokenize, tokenKindText,
} = lexer;

export interface ParseOptions {
  /** Language of the text; default 'sysml'. Use `languageOfPath` for a file name. */
  readonly language?: Language;
}

/** `.kerml` files are KerML, everything else SysML. */
export function languageOfPath(path: string): Language {
  return path.toLowerCase().endsWith('.kerml') ? 'kerml' : 'sysml';
}

/** Parses a whole text. Never throws; syntax errors are in `errors`. */
export function parse(source: string, options: ParseOptions = {}): ParseResult {
  const tokens = tokenize(source, options.language ?? 'sysml');
  const parser = new Parser(tokens);
  let document: Document;
  try {
    document = parser.document();
  } catch (error) {
    // Only a stack overflow on absurd nesting can get here; report it as a syntax error.
    const at = parser.here();
    parser.errors.push({ message: `cannot parse further: ${error instanceof RangeError ? 'nesting too deep' : String(error)}`, range: at });
    document = { kind: 'Document', language: tokens.language, members: [], range: at };
  }
  let errors = tokens.errors.length === 0 ? parser.errors : mergeByOffset(tokens.errors, parser.errors);
  const misread = declarationsReadAsAssignments(document, source);
  if (misread.length > 0) errors = mergeByOffset(errors, misread);
  // In text order (a block's warning is made when the block ends, after those inside it).
  const warnings = parser.warnings.sort((a, b) => a.range.start - b.range.start);
  return { document, errors, warnings, lineCount: tokens.lineCount };
}

function mergeByOffset(a: SyntaxDiagnostic[], b: SyntaxDiagnostic[]): SyntaxDiagnostic[] {
  return [...a, ...b].sort((x, y) => x.range.start - y.range.start);
}

// Body contexts: which shorthand members a body allows and how bare names read.
const CTX_ACTION = 1; // `then`, `if … then`, `else` are successions
const CTX_STATE = 2; // `then`, `accept … then`, `if … then` are transitions
const CTX_RESULT = 4; // a trailing expression is the result
const CTX_ENUM = 8; // bare names are enumerated values
const CTX_METADATA = 16; // bare names are redefinitions of metadata features
const CTX_CONSTRAINT = 32; // a constraint's body: OpenSysML's `assert <expression>;` states its condition

const MAX_DEPTH = 400;

const RETURN_OUTSIDE_CALC =
  "'return' is not admitted here: SysML has no return statement; `return` declares the result parameter, " +
  'directly in a calc, constraint, case or analysis body (give the result as the body\'s last expression, ' +
  'or `assign` it to a feature)';
/** Height an expression tree may reach (with the nesting around it). A long operator chain
 * (`1+1+…+1`, `a.a.…`, `a[1][1]…`) is parsed in a loop, but every later tree walk (names, evaluation,
 * lowering, the language server) recurses down it: beyond this the expression is refused with a
 * diagnostic instead of overflowing their stacks. */
const MAX_HEIGHT = 1000;
/** Tokens a look-ahead scan may inspect (declarations are far shorter). */
const SCAN_LIMIT = 2000;

const EMPTY: never[] = Object.freeze([]) as never[];

// Binary operator precedence by token kind (0 = not a binary operator).
const PREC = new Uint8Array(KW_BASE + 256);
const CLASSIFY_PREC = 7;
PREC[QUESTION2] = 1;
PREC[K.implies!] = 2;
PREC[K.or!] = 3; PREC[PIPE] = 3;
PREC[K.xor!] = 4;
PREC[K.and!] = 5; PREC[AMP] = 5;
PREC[EQ2] = 6; PREC[NE] = 6; PREC[EQ3] = 6; PREC[NE2] = 6;
PREC[K.istype!] = CLASSIFY_PREC; PREC[K.hastype!] = CLASSIFY_PREC; PREC[AT] = CLASSIFY_PREC;
PREC[K.as!] = CLASSIFY_PREC; PREC[AT2] = CLASSIFY_PREC; PREC[K.meta!] = CLASSIFY_PREC;
PREC[LT] = 8; PREC[GT] = 8; PREC[LE] = 8; PREC[GE] = 8;
PREC[DOT2] = 9;
PREC[PLUS] = 10; PREC[MINUS] = 10;
PREC[STAR] = 11; PREC[SLASH] = 11; PREC[PERCENT] = 11;
PREC[STAR2] = 12; PREC[CARET] = 12;

const BINARY_OP: string[] = [];
BINARY_OP[QUESTION2] = '??'; BINARY_OP[K.implies!] = 'implies'; BINARY_OP[K.or!] = 'or'; BINARY_OP[PIPE] = '|';
BINARY_OP[K.xor!] = 'xor'; BINARY_OP[K.and!] = 'and'; BINARY_OP[AMP] = '&'; BINARY_OP[EQ2] = '==';
BINARY_OP[NE] = '!='; BINARY_OP[EQ3] = '==='; BINARY_OP[NE2] = '!=='; BINARY_OP[LT] = '<'; BINARY_OP[GT] = '>';
BINARY_OP[LE] = '<='; BINARY_OP[GE] = '>='; BINARY_OP[DOT2] = '..'; BINARY_OP[PLUS] = '+'; BINARY_OP[MINUS] = '-';
BINARY_OP[STAR] = '*'; BINARY_OP[SLASH] = '/'; BINARY_OP[PERCENT] = '%'; BINARY_OP[STAR2] = '**'; BINARY_OP[CARET] = '^';
const CLASSIFY_OP: string[] = [];
CLASSIFY_OP[K.istype!] = 'istype'; CLASSIFY_OP[K.hastype!] = 'hastype'; CLASSIFY_OP[AT] = '@';
CLASSIFY_OP[K.as!] = 'as'; CLASSIFY_OP[AT2] = '@@'; CLASSIFY_OP[K.meta!] = 'meta';

// Definition keywords (SysML `<kw> def`, KerML classifier keywords) and usage keywords.
const DEF_KEYWORD: (DefinitionKeyword | undefined)[] = [];
for (const w of [
  'attribute', 'enum', 'occurrence', 'item', 'part', 'port', 'connection', 'flow', 'interface', 'allocation',
  'action', 'state', 'calc', 'constraint', 'requirement', 'concern', 'case', 'analysis', 'verification', 'view',
  'viewpoint', 'rendering', 'metadata',
] as const) DEF_KEYWORD[K[w]!] = w;
const KERML_CLASSIFIER: (DefinitionKeyword | undefined)[] = [];
for (const w of [
  'type', 'classifier', 'class', 'struct', 'datatype', 'assoc', 'behavior', 'function', 'predicate',
  'interaction', 'metaclass',
] as const) KERML_CLASSIFIER[K[w]!] = w;
const USAGE_KEYWORD: (UsageKeyword | undefined)[] = [];
for (const w of [
  'ref', 'attribute', 'enum', 'occurrence', 'event', 'item', 'part', 'port', 'connection', 'flow', 'message',
  'interface', 'allocation', 'action', 'state', 'calc', 'constraint', 'requirement', 'concern', 'case', 'analysis',
  'verification', 'view', 'viewpoint', 'rendering', 'metadata', 'binding', 'fork', 'join', 'merge', 'decide',
  'feature', 'step', 'expr', 'bool', 'inv', 'connector', 'multiplicity',
] as const) USAGE_KEYWORD[K[w]!] = w;

// Tokens that start a usage/definition prefix.
const PREFIX = new Uint8Array(KW_BASE + 256);
for (const w of [
  'abstract', 'variation', 'individual', 'in', 'out', 'inout', 'derived', 'constant', 'const', 'end', 'ref',
  'composite', 'portion', 'var', 'snapshot', 'timeslice', 'standard', 'library',
]) PREFIX[K[w]!] = 1;
PREFIX[HASH] = 1;

// Keywords after which a broken member is certainly over: recovery stops before them.
const RESYNC = new Uint8Array(KW_BASE + 256);
for (const w of [
  'package', 'namespace', 'import', 'alias', 'attribute', 'part', 'item', 'port', 'action', 'state', 'calc',
  'constraint', 'requirement', 'concern', 'occurrence', 'connection', 'interface', 'allocation', 'enum', 'def',
  'abstract', 'private', 'public', 'protected', 'doc', 'comment', 'transition', 'entry', 'exit', 'subject',
  'actor', 'stakeholder', 'objective', 'perform', 'exhibit', 'satisfy', 'require', 'assume', 'metadata',
  'dependency', 'classifier', 'class', 'struct', 'datatype', 'behavior', 'function', 'predicate', 'feature',
  'type', 'assoc', 'step', 'connector', 'succession', 'view', 'viewpoint', 'rendering', 'use', 'analysis',
  'verification', 'library', 'standard', 'variant', 'variation', 'individual',
]) RESYNC[K[w]!] = 1;

// Role keywords: the usage each introduces by default, and whether a bare name after it is a
// reference to an existing feature (`perform a.b;`) or a new declaration (`subject v : V;`).
interface RoleInfo { readonly role: UsageRole; readonly keyword: UsageKeyword; readonly referenceForm: boolean }
const ROLE: (RoleInfo | undefined)[] = [];
function role(w: string, r: UsageRole, keyword: UsageKeyword, referenceForm: boolean): void {
  ROLE[K[w]!] = { role: r, keyword, referenceForm };
}
role('subject', 'subject', 'ref', false);
role('actor', 'actor', 'part', false);
role('stakeholder', 'stakeholder', 'part', false);
role('objective', 'objective', 'requirement', false);
role('return', 'return', 'ref', false);
role('member', 'member', 'feature', false);
role('require', 'require', 'constraint', true);
role('assume', 'assume', 'constraint', true);
role('frame', 'frame', 'concern', true);
role('verify', 'verify', 'requirement', true);
role('satisfy', 'satisfy', 'requirement', true);
role('assert', 'assert', 'constraint', true);
role('perform', 'perform', 'action', true);
role('exhibit', 'exhibit', 'state', true);
role('include', 'include', 'use case', true);
role('render', 'render', 'rendering', true);
role('variant', 'variant', 'ref', true);

/** Mutable prefix + declaration of a member while it is being parsed. */
class Header {
  // `declare`d fields set in the constructor: class field initializers define each property
  // separately, which is slow for an object made per member.
  declare readonly start: number;
  declare visibility: Visibility | null;
  declare prefixMetadata: QualifiedName[];
  declare direction: 'in' | 'out' | 'inout' | null;
  declare isAbstract: boolean;
  declare isVariation: boolean;
  declare isConstant: boolean;
  declare isDerived: boolean;
  declare isEnd: boolean;
  declare isRef: boolean;
  declare isComposite: boolean;
  declare isVar: boolean;
  declare isIndividual: boolean;
  declare portionKind: 'snapshot' | 'timeslice' | 'portion' | null;
  declare isOrdered: boolean;
  declare isNonunique: boolean;
  declare isSufficient: boolean;
  declare isStandard: boolean;
  declare isLibrary: boolean;
  declare relations: Relation[];
  declare multiplicity: Multiplicity | null;
  declare value: FeatureValue | null;
  declare name: string | null;
  declare shortName: string | null;
  /** Start and end offsets of the name (or short name); -1 when unnamed. */
  declare nameStart: number;
  declare nameEnd: number;
  constructor(start: number, visibility: Visibility | null) {
    this.start = start;
    this.visibility = visibility;
    this.prefixMetadata = EMPTY;
    this.direction = null;
    this.isAbstract = false;
    this.isVariation = false;
    this.isConstant = false;
    this.isDerived = false;
    this.isEnd = false;
    this.isRef = false;
    this.isComposite = false;
    this.isVar = false;
    this.isIndividual = false;
    this.portionKind = null;
    this.isOrdered = false;
    this.isNonunique = false;
    this.isSufficient = false;
    this.isStandard = false;
    this.isLibrary = false;
    this.relations = EMPTY;
    this.multiplicity = null;
    this.value = null;
    this.name = null;
    this.shortName = null;
    this.nameStart = -1;
    this.nameEnd = -1;
  }
}

class Parser {
  readonly errors: SyntaxDiagnostic[] = [];
  private readonly src: string;
  private readonly kinds: Uint16Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly lineStarts: Int32Array;
  private readonly nameIds: Int32Array;
  private readonly names: readonly string[];
  private readonly kerml: boolean;
  private p = 0;
  /** No new error is reported until the parser has moved past this token. */
  private quietUntil = -1;
  private commentIndex = 0;
  private depth = 0;
  /** Expression entry points (binary / postfix chains) currently open; the outermost checks height. */
  private chainLevel = 0;
  /** OpenSysML constructs read as their standard spelling. */
  readonly warnings: NotationWarning[] = [];
  /** The names OpenSysML markers gave in the body being parsed: `done X;` and `final X;` name the
   * body's `done`, `initial X;` its `start` (null when the body has none). Only that body's own
   * successions and transitions read them. */
  private markerNames: Map<string, 'done' | 'start'> | null = null;
  /** Regions (OpenSysML's `region r { … }`) and plain substates read in the block being parsed, and
   * whether the last block that ended held regions (its owner is then a parallel state). */
  private regionsHere = 0;
  private plainStateHere: number | null = null;
  private lastBlockHadRegions = false;
  /** Inside OpenSysML's bare `entry/exit/do { … }` or `do { … }` block, whose `x = e;` is its assignment. */
  private inBareBlock = false;

  constructor(private readonly ts: TokenStream) {
    this.src = ts.source;
    this.kinds = ts.kinds;
    this.starts = ts.starts;
    this.ends = ts.ends;
    this.lineStarts = ts.lineStarts;
    this.nameIds = ts.nameIds;
    this.names = ts.names;
    this.kerml = ts.language === 'kerml';
  }

  // ----------------------------------------------------------------------------------- tokens

  private tk(): number {
    return this.kinds[this.p]!;
  }
  private la(n: number): number {
    const i = this.p + n;
    return i < this.ts.count ? this.kinds[i]! : EOF;
  }
  private adv(): void {
    if (this.p < this.ts.count - 1) this.p++;
  }
  private eat(kind: number): boolean {
    if (this.kinds[this.p] === kind) {
      this.adv();
      return true;
    }
    return false;
  }
  private text(i: number): string {
    return this.src.slice(this.starts[i]!, this.ends[i]!);
  }
  private describe(i: number): string {
    const kind = this.kinds[i]!;
    if (kind === EOF) return 'end of file';
    const t = this.text(i);
    return `'${t.length > 40 ? t.slice(0, 40) + '…' : t}'`;
  }

  /** Range from token `a` to the last consumed token. */
  private rng(a: number): SourceRange {
    return new TextRange(this.starts[a]!, this.endFrom(a), this.lineStarts);
  }
  /** End offset of the range from token `a` to the last consumed token (its start if none was). */
  private endFrom(a: number): number {
    const b = this.p - 1;
    return b < a ? this.starts[a]! : this.ends[b]!;
  }
  private nameRangeOf(h: Header): SourceRange | null {
    return h.nameStart < 0 ? null : new TextRange(h.nameStart, h.nameEnd, this.lineStarts);
  }
  private tokRange(i: number): SourceRange {
    return new TextRange(this.starts[i]!, this.ends[i]!, this.lineStarts);
  }
  /** `line:column` of token `i`. */
  private position(i: number): string {
    const s = this.starts[i]!;
    const line = lineAt(this.lineStarts, s);
    return `${line}:${s - this.lineStarts[line - 1]! + 1}`;
  }
  here(): SourceRange {
    return this.tokRange(this.p);
  }

  // ----------------------------------------------------------------------------------- errors

  private error(message: string, range: SourceRange = this.tokRange(this.p)): void {
    if (this.p <= this.quietUntil) return;
    this.quietUntil = this.p;
    this.errors.push({ message, range });
  }
  /** "expected X after Y, found Z", placed at the token that is not X. */
  private expected(what: string, after?: string): void {
    const message = `expected ${what}${after ? ` after ${after}` : ''}, found ${this.describe(this.p)}`;
    const prev = this.p - 1;
    if (prev >= 0 && lineAt(this.lineStarts, this.starts[this.p]!) > lineAt(this.lineStarts, this.starts[prev]!)) {
      // The missing part belongs at the end of the previous line, where the user left it out.
      const at = this.ends[prev]!;
      this.error(message, new TextRange(at, at, this.lineStarts));
      return;
    }
    this.error(message);
  }
  private expect(kind: number, after?: string): boolean {
    if (this.eat(kind)) return true;
    this.expected(`'${tokenKindText(kind)}'`, after);
    return false;
  }

  // ----------------------------------------------------------------------------------- document

  document(): Document {
    const members: Member[] = [];
    for (;;) {
      this.drainComments(members);
      const k = this.tk();
      if (k === EOF) break;
      if (k === RBRACE) {
        this.error(`unexpected '}' (no open '{')`);
        this.adv();
        continue;
      }
      this.memberInto(members, 0);
    }
    return { kind: 'Document', language: this.ts.language, members, range: this.rng(0) };
  }

  /** Parses one member into `out`, guaranteeing progress. */
  private memberInto(out: Member[], ctx: number): void {
    const p0 = this.p;
    const m = this.member(ctx);
    if (m !== null) out.push(m);
    if (this.p === p0) {
      if (this.tk() === SEMI) this.error(`unexpected ';'`);
      else this.error(`expected a declaration, found ${this.describe(this.p)}`);
      this.adv();
      this.skipToSync();
      if (m === null) out.push({ kind: 'InvalidMember', range: this.rng(p0), visibility: null, prefixMetadata: EMPTY });
    }
  }

  /** Skips a broken member: up to and including ';', or up to '}' or a declaration keyword; a
   * `{ … }` block met on the way is skipped whole. */
  private skipToSync(): void {
    for (;;) {
      const k = this.tk();
      if (k === EOF || k === RBRACE) return;
      if (k === SEMI) { this.adv(); return; }
      if (k === LBRACE) { this.skipBlock(); return; }
      if (RESYNC[k]) return;
      this.adv();
    }
  }
  private skipBlock(): void {
    let depth = 0;
    for (;;) {
      const k = this.tk();
      if (k === EOF) return;
      this.adv();
      if (k === LBRACE) depth++;
      else if (k === RBRACE && --depth <= 0) return;
    }
  }

  /** Turns regular comments that precede the current token into Comment members. */
  private drainComments(out: Member[]): void {
    const comments = this.ts.comments;
    while (this.commentIndex < comments.length && comments[this.commentIndex]!.beforeToken <= this.p) {
      const c = comments[this.commentIndex++]!;
      out.push({
        kind: 'Comment', range: new TextRange(c.start, c.end, this.lineStarts),
        visibility: null, prefixMetadata: EMPTY, name: null, shortName: null, nameRange: null, about: EMPTY, locale: null,
        text: commentText(this.src, c.start, c.end),
      });
    }
  }
  /** Takes the comment written right before the current token (the body of doc/comment/rep). */
  private takeComment(after: string): string | null {
    const comments = this.ts.comments;
    const c = comments[this.commentIndex];
    if (c !== undefined && c.beforeToken === this.p) {
      this.commentIndex++;
      // The comment is part of this member: extend nothing else, but its end is the member's end.
      this.lastCommentEnd = c;
      return commentText(this.src, c.start, c.end);
    }
    this.expected("a comment '/* … */'", after);
    return null;
  }
  /** Whether a comment sits right before the current token. */
  private commentPending(): boolean {
    const c = this.ts.comments[this.commentIndex];
    return c !== undefined && c.beforeToken === this.p;
  }
  private lastCommentEnd: { end: number } | null = null;
  /** Range of a member whose last part is a comment body. */
  private rngWithComment(a: number): SourceRange {
    const r = this.rng(a);
    const c = this.lastCommentEnd;
    this.lastCommentEnd = null;
    if (c === null || c.end <= r.end) return r;
    return new TextRange(r.start, c.end, this.lineStarts);
  }

  // ----------------------------------------------------------------------------------- bodies

  /** `;` or `{ members }`; `what` names the member for the error message. */
  private body(ctx: number, what: string): Member[] | null {
    const k = this.tk();
    if (k === SEMI) { this.adv(); return null; }
    if (k === LBRACE) return this.block(ctx);
    this.expected("';'", what);
    for (;;) {
      const t = this.tk();
      if (t === SEMI) { this.adv(); return null; }
      if (t === LBRACE) return this.block(ctx);
      if (t === EOF || t === RBRACE || RESYNC[t]) return null;
      this.adv();
    }
  }

  /** `{ members }` (current token is '{'). */
  private block(ctx: number): Member[] {
    const open = this.p;
    this.adv();
    const members: Member[] = [];
    if (++this.depth > MAX_DEPTH) {
      this.error('nesting too deep');
      this.p = open;
      this.skipBlock();
      this.depth--;
      return members;
    }
    const outerMarkers = this.markerNames;
    this.markerNames = null;
    const outerRegions = this.regionsHere, outerPlain = this.plainStateHere;
    this.regionsHere = 0;
    this.plainStateHere = null;
    for (;;) {
      this.drainComments(members);
      const k = this.tk();
      if (k === RBRACE) { this.adv(); break; }
      if (k === EOF) {
        this.quietUntil = -1; // every unclosed block gets its own error
        this.error(`expected '}' to close the '{' at ${this.position(open)}, found end of file`);
        break;
      }
      this.memberInto(members, ctx);
    }
    this.markerNames = outerMarkers;
    if ((ctx & CTX_STATE) !== 0 && !this.kerml) this.warnSourceless(members);
    if (this.regionsHere > 0 && this.plainStateHere !== null) {
      this.error('a state with regions holds only regions (OpenSysML: `region r { … }`); this substate is in none of them', this.tokRange(this.plainStateHere));
    }
    this.lastBlockHadRegions = this.regionsHere > 0;
    this.regionsHere = outerRegions;
    this.plainStateHere = outerPlain;
    this.depth--;
    // An exact-size copy: a grown array keeps up to half its capacity unused for the tree's life.
    return members.length === 0 ? members : members.slice();
  }

  // ----------------------------------------------------------------------------------- members

  private member(ctx: number): Member | null {
    const s = this.p;
    let visibility: Visibility | null = null;
    const k0 = this.tk();
    if (k0 === K.public) { visibility = 'public'; this.adv(); }
    else if (k0 === K.private) { visibility = 'private'; this.adv(); }
    else if (k0 === K.protected) { visibility = 'protected'; this.adv(); }
    const k = this.tk();
    switch (k) {
      case K.import: case K.expose: return this.importMember(s, visibility);
      case K.alias: return this.alias(s, visibility);
      case K.filter: {
        this.adv();
        const condition = this.expression();
        this.expect(SEMI, 'filter condition');
        return { kind: 'ElementFilter', range: this.rng(s), visibility, prefixMetadata: EMPTY, condition };
      }
      case K.doc: return this.documentation(s, visibility);
      case K.comment: case K.locale: return this.comment(s, visibility);
      case K.rep: case K.language: return this.representation(s, visibility);
      case K.dependency: return this.dependency(s, visibility, EMPTY);
      case K.entry: case K.exit: return this.stateSubaction(s, visibility);
      case K.do: if (!this.kerml) return this.stateSubaction(s, visibility); break;
      case K.transition: return this.transition(s, this.header(s, visibility));
      case K.first: return this.firstMember(s, this.header(s, visibility), 'first');
      case K.then: return this.thenMember(s, visibility, ctx);
      case K.else: {
        this.adv();
        const h = this.header(s, visibility);
        const target = this.connectorEnd();
        const body = this.body(CTX_ACTION, 'else succession');
        return this.succession(h, 'else', null, target, null, null, body);
      }
      case K.if: return this.ifMember(s, this.header(s, visibility), ctx);
      case IDENT:
        if (visibility === null && (ctx & (CTX_ACTION | CTX_STATE)) !== 0 && !this.kerml) {
          if (this.markerAhead()) { this.marker(ctx); return null; }
          if ((ctx & CTX_STATE) !== 0 && this.la(1) === IDENT && this.la(2) === LBRACE && this.text(this.p) === 'region') return this.region(s);
          if (this.inBareBlock && (this.la(1) === EQ || this.la(1) === COLON_EQ)) return this.bareBlockAssignment(s);
          if (this.la(1) === K.then) return this.sourceThenTarget(s, ctx);
        }
        break;
      case K.specialization: case K.subtype: case K.subclassifier: case K.subset: case K.redefinition:
      case K.typing: case K.conjugation: case K.conjugate: case K.disjoining: case K.disjoint:
      case K.inverting: case K.inverse: case K.featuring:
        if (this.kerml) return this.relationshipDeclaration(s, visibility);
        break;
    }
    return this.declaration(s, visibility, ctx);
  }

  private header(s: number, visibility: Visibility | null): Header {
    return new Header(s, visibility);
  }

  /** Prefix keywords, then the declaration the keyword introduces. */
  private declaration(s: number, visibility: Visibility | null, ctx: number): Member | null {
    const h = this.header(s, visibility);
    this.prefix(h);
    const k = this.tk();
    // Package-level declarations.
    if (k === K.package || k === K.namespace) return this.package(h);
    if (k === K.dependency) return this.dependency(s, visibility, h.prefixMetadata);
    const roleInfo = ROLE[k];
    if (roleInfo !== undefined) return this.roleUsage(h, roleInfo, ctx);
    if (k === K.not && this.la(1) === K.satisfy) { this.adv(); return this.roleUsage(h, ROLE[K.satisfy!]!, ctx, true); }
    // Definitions.
    if (!this.kerml) {
      const dk = DEF_KEYWORD[k];
      if (dk !== undefined && this.la(1) === K.def) {
        this.adv(); this.adv();
        return this.definition(h, dk);
      }
      if (k === K.use && this.la(1) === K.case) {
        this.adv(); this.adv();
        if (this.eat(K.def)) return this.definition(h, 'use case');
        return this.usage(h, 'use case', false, null, ctx);
      }
      if (k === K.def) { this.adv(); return this.definition(h, 'def'); }
    } else {
      const ck = KERML_CLASSIFIER[k];
      if (ck !== undefined) {
        this.adv();
        if (ck === 'assoc' && this.eat(K.struct)) return this.definition(h, 'assoc struct');
        return this.definition(h, ck);
      }
    }
    switch (k) {
      case K.accept: return this.acceptMember(h, ctx);
      case K.send: return this.sendAction(h);
      case K.assign: return this.assignAction(h);
      case K.if: return this.ifMember(s, h, ctx);
      case K.while: case K.loop: return this.loopAction(h);
      case K.for: return this.forAction(h);
      case K.terminate: return this.terminateAction(h);
      case K.first: return this.firstMember(s, h, 'first');
      case AT: { this.adv(); return this.metadataUsage(h); }
      case K.metadata: { this.adv(); return this.metadataUsage(h); }
      case K.connect: { this.adv(); return this.connectorUsage(h, 'connection', true, ctx); }
      case K.bind: { this.adv(); return this.connectorUsage(h, 'binding', true, ctx); }
      case K.allocate: { this.adv(); return this.connectorUsage(h, 'allocation', true, ctx); }
      case K.succession: {
        this.adv();
        if (this.eat(K.flow)) return this.flowUsage(h, 'succession flow');
        return this.successionUsage(h);
      }
    }
    const uk = USAGE_KEYWORD[k];
    if (uk !== undefined) {
      this.adv();
      return this.usage(h, uk, false, null, ctx);
    }
    // No keyword: a usage declared by its name / specializations, or the result expression.
    if (this.startsImplicitUsage(ctx)) {
      if (h.isEnd) return this.endUsage(h, ctx);
      return this.usage(h, this.kerml ? 'feature' : (ctx & CTX_ENUM) !== 0 ? 'enum' : 'ref', true, null, ctx);
    }
    if (this.p === s && (ctx & CTX_RESULT) !== 0 && this.startsExpression(k)) {
      const expression = this.expression();
      this.endOfResult();
      return new ResultExpressionNode(visibility, expression, this.starts[s]!, this.endFrom(s), this.lineStarts);
    }
    if (this.p > s) {
      // Prefix keywords without a declaration: for KerML `#M feature` shorthand `#M;` is a feature.
      if (h.prefixMetadata.length > 0 && (k === SEMI || k === LBRACE)) {
        return this.usage(h, this.kerml ? 'feature' : 'ref', true, null, ctx);
      }
      this.expected('a declaration', `'${this.text(this.p - 1)}'`);
      this.skipToSync();
      return { kind: 'InvalidMember', range: this.rng(s), visibility, prefixMetadata: h.prefixMetadata };
    }
    return null;
  }

  /** The result expression is the last thing in its body (a `;` after it is tolerated). */
  private endOfResult(): void {
    if (this.tk() === SEMI) this.adv();
    const k = this.tk();
    if (k !== RBRACE && k !== EOF) this.expected("'}'", 'the result expression');
  }

  /** `end x : T;`, or `end inCart[0..1] item cart : Cart;` where what precedes the usage keyword
   * declares the end's cross feature. */
  private endUsage(h: Header, ctx: number): Member {
    this.featureDeclaration(h);
    const k = this.tk();
    const keyword = USAGE_KEYWORD[k];
    if (keyword === undefined) {
      this.valuePart(h);
      const body = this.body(0, 'end feature');
      return this.usageNode(h, this.kerml ? 'feature' : 'ref', true, null, null, null, null, EMPTY, false, false, body);
    }
    const h2 = this.header(h.start, h.visibility);
    h2.isEnd = true;
    h2.prefixMetadata = h.prefixMetadata;
    // The cross feature is the declaration between `end` and the keyword, without the end's prefix.
    h.isEnd = false;
    h.visibility = null;
    h.prefixMetadata = EMPTY;
    const cross = this.usageNode(h, 'ref', true, null, null, null, null, EMPTY, false, false, null);
    this.adv();
    const u = this.usage(h2, keyword, false, null, ctx);
    if (u.kind === 'Usage') (u as { crossFeature?: Usage }).crossFeature = cross;
    return u;
  }

  private prefix(h: Header): void {
    for (;;) {
      const k = this.tk();
      if (!PREFIX[k]) return;
      switch (k) {
        case K.abstract: h.isAbstract = true; break;
        case K.variation: h.isVariation = true; break;
        case K.individual: h.isIndividual = true; break;
        case K.in: h.direction = 'in'; break;
        case K.out: h.direction = 'out'; break;
        case K.inout: h.direction = 'inout'; break;
        case K.derived: h.isDerived = true; break;
        case K.constant: case K.const: h.isConstant = true; break;
        case K.end: h.isEnd = true; break;
        case K.ref: h.isRef = true; break;
        case K.composite: h.isComposite = true; break;
        case K.portion: h.portionKind = 'portion'; break;
        case K.var: h.isVar = true; break;
        case K.snapshot: h.portionKind = 'snapshot'; break;
        case K.timeslice: h.portionKind = 'timeslice'; break;
        case K.standard: h.isStandard = true; break;
        case K.library: h.isLibrary = true; break;
        case HASH: {
          this.adv();
          const qn = this.qualifiedName('a metadata name after #');
          if (h.prefixMetadata === EMPTY) h.prefixMetadata = [qn];
          else h.prefixMetadata.push(qn);
          continue;
        }
      }
      this.adv();
    }
  }

  /** Whether the tokens ahead begin a usage written without keyword. */
  private startsImplicitUsage(ctx: number): boolean {
    const k = this.tk();
    switch (k) {
      case LT: case COLON: case COLON_GT: case COLON_GT2: case COLON2_GT: case FAT_ARROW: case LBRACK: case TILDE:
      case EQ: case COLON_EQ:
        return true;
      case IDENT: {
        if ((ctx & CTX_RESULT) === 0) return true;
        // In a body that may end with a result expression, a name starts a usage only when a
        // declaration part follows it.
        const n = this.la(1);
        switch (n) {
          case COLON: case COLON_GT: case COLON_GT2: case COLON2_GT: case SEMI: case EQ: case COLON_EQ:
          case LBRACE: case FAT_ARROW:
            return true;
          case LBRACK: return !this.bracketEndsBody();
        }
        return n === K.typed || n === K.defined || n === K.subsets || n === K.redefines || n === K.references ||
          n === K.specializes || n === K.default || n === K.ordered || n === K.nonunique || n === K.crosses ||
          n === K.conjugates || n === K.chains;
      }
    }
    if (k === K.redefines || k === K.subsets || k === K.references || k === K.typed || k === K.defined ||
      k === K.specializes || k === K.crosses || k === K.ordered || k === K.nonunique || k === K.all || k === K.default) {
      return true;
    }
    return false;
  }
  /** `x [kg] }`: a bracket after a name that reaches the end of the body is a quantity expression. */
  private bracketEndsBody(): boolean {
    let i = this.p + 2;
    let depth = 1;
    const n = Math.min(this.ts.count, this.p + SCAN_LIMIT);
    while (i < n && depth > 0) {
      const k = this.kinds[i]!;
      if (k === LBRACK) depth++;
      else if (k === RBRACK) depth--;
      else if (k === SEMI || k === LBRACE || k === RBRACE || k === EOF) return false;
      i++;
    }
    const after = i < n ? this.kinds[i]! : EOF;
    return after === RBRACE || (PREC[after]! > 0 && after !== LBRACK);
  }
  private startsExpression(k: number): boolean {
    switch (k) {
      case IDENT: case INTEGER: case REAL: case STRING: case LPAREN: case MINUS: case PLUS: case TILDE: case DOLLAR:
      case LBRACE: case STAR:
        return true;
    }
    return k === K.true || k === K.false || k === K.null || k === K.not || k === K.if || k === K.all ||
      k === K.hastype || k === K.istype;
  }

  // ----------------------------------------------------------------------------------- declarations

  private identification(h: Header): void {
    if (this.tk() === LT) {
      const a = this.p;
      this.adv();
      if (this.tk() === IDENT) { h.shortName = this.name(this.p); this.adv(); }
      else this.expected('a short name', "'<'");
      this.expect(GT, 'short name');
      h.nameStart = this.starts[a]!;
      h.nameEnd = this.endFrom(a);
    }
    if (this.tk() === IDENT) {
      h.name = this.name(this.p);
      h.nameStart = this.starts[this.p]!;
      h.nameEnd = this.ends[this.p]!;
      this.adv();
    } else if (this.keywordAsName()) {
      // OpenSysML's `action decide { … }`, `state first;`: a keyword where the name goes.
      const word = this.text(this.p);
      h.name = word;
      h.nameStart = this.starts[this.p]!;
      h.nameEnd = this.ends[this.p]!;
      this.warnNotation(this.tokRange(this.p), `the keyword \`${word}\` as a name`, `\`'${word}'\` (a name spelled like a keyword is quoted)`);
      this.adv();
    }
  }

  /** A keyword right after `action` or `state` where a name goes, before `{` or `;`: OpenSysML's name. */
  private keywordAsName(): boolean {
    const k = this.tk();
    if (this.kerml || k < KW_BASE || k === K.parallel || k === K.def || k === K.ordered || k === K.nonunique || k === K.all) return false;
    const before = this.kinds[this.p - 1];
    if (before !== K.action && before !== K.state) return false;
    const after = this.la(1);
    return after === LBRACE || after === SEMI;
  }

  private name(i: number): string {
    const id = this.nameIds[i]!;
    return id !== 0 ? this.names[id - 1]! : nameText(this.src, this.starts[i]!, this.ends[i]!);
  }

  /** Specialization parts, multiplicity and `ordered`/`nonunique` of a declaration. */
  private specializations(h: Header, isType: boolean): void {
    for (;;) {
      const k = this.tk();
      let rel: RelationKind;
      switch (k) {
        case COLON: rel = 'typing'; break;
        case COLON_GT: rel = isType ? 'specialization' : 'subsetting'; break;
        case COLON_GT2: rel = 'redefinition'; break;
        case COLON2_GT: rel = 'reference'; break;
        case FAT_ARROW: rel = 'crossing'; break;
        case TILDE: rel = 'conjugation'; break;
        case LBRACK:
          if (h.multiplicity !== null) this.error('a declaration has at most one multiplicity');
          h.multiplicity = this.multiplicity();
          continue;
        default:
          if (k === K.typed || k === K.defined) {
            this.adv();
            this.expect(K.by, `'${this.text(this.p - 1)}'`);
            this.relationList(h, 'typing', true);
            continue;
          }
          if (k === K.specializes) rel = isType ? 'specialization' : 'subsetting';
          else if (k === K.subsets) rel = 'subsetting';
          else if (k === K.redefines) rel = 'redefinition';
          else if (k === K.references) rel = 'reference';
          else if (k === K.crosses) rel = 'crossing';
          else if (k === K.conjugates) rel = 'conjugation';
          else if (k === K.unions) rel = 'unioning';
          else if (k === K.intersects) rel = 'intersecting';
          else if (k === K.differences) rel = 'differencing';
          else if (k === K.chains) rel = 'chaining';
          else if (k === K.ordered) { h.isOrdered = true; this.adv(); continue; }
          else if (k === K.nonunique) { h.isNonunique = true; this.adv(); continue; }
          else if (k === K.disjoint) { this.adv(); this.expect(K.from, "'disjoint'"); this.relationList(h, 'disjoining', false); continue; }
          else if (k === K.inverse) { this.adv(); this.expect(K.of, "'inverse'"); this.relationList(h, 'inverting', false); continue; }
          else if (k === K.featured) { this.adv(); this.expect(K.by, "'featured'"); this.relationList(h, 'featuring', false); continue; }
          else return;
      }
      this.adv();
      this.relationList(h, rel, rel === 'typing');
    }
  }

  private relationList(h: Header, rel: RelationKind, allowConjugate: boolean): void {
    const operator = this.p - 1;
    for (;;) {
      const a = this.p;
      const conj = allowConjugate && this.eat(TILDE);
      const target = this.tk() === IDENT ? this.reference('a name') : this.reference(`a name after ${operator >= 0 ? `'${this.text(operator)}'` : 'the relationship'}`);
      const relation: Relation = new RelationNode(rel, target, conj ? this.rng(a) : null);
      if (h.relations === EMPTY) h.relations = [relation];
      else h.relations.push(relation);
      if (this.tk() !== COMMA || rel === 'reference' || rel === 'chaining') return;
      // A comma continues the list only when a name follows (not `(a, b)` connector ends etc.).
      const n = this.la(1);
      if (n !== IDENT && n !== DOLLAR && n !== TILDE) return;
      this.adv();
    }
  }

  private multiplicity(): Multiplicity {
    const a = this.p;
    this.adv(); // [
    let lower: Expression | null = null;
    let upper = this.multiplicityBound();
    if (this.eat(DOT2)) {
      lower = upper;
      upper = this.multiplicityBound();
    }
    this.expect(RBRACK, 'multiplicity');
    return new MultiplicityNode(lower, upper, this.starts[a]!, this.endFrom(a), this.lineStarts);
  }
  private multiplicityBound(): Expression {
    const k = this.tk();
    if (k === STAR) { const a = this.p; this.adv(); return new LiteralNode('infinity', Infinity, this.starts[a]!, this.endFrom(a), this.lineStarts); }
    if (k === INTEGER || k === IDENT || k === DOLLAR || k === REAL || k === STRING || k === K.true || k === K.false) {
      return this.primary();
    }
    if (k === LPAREN || k === MINUS) return this.additive();
    this.expected('a multiplicity bound', "'['");
    return { kind: 'Missing', range: this.tokRange(this.p) };
  }

  private valuePart(h: Header): void {
    const a = this.p;
    let isInitial = false;
    let isDefault = false;
    const k = this.tk();
    if (k === EQ) this.adv();
    else if (k === COLON_EQ) { isInitial = true; this.adv(); }
    else if (k === K.default) {
      isDefault = true;
      this.adv();
      if (this.tk() === EQ) this.adv();
      else if (this.tk() === COLON_EQ) { isInitial = true; this.adv(); }
    } else return;
    const expression = this.expression();
    h.value = new FeatureValueNode(isInitial, isDefault, expression, this.starts[a]!, this.endFrom(a), this.lineStarts);
  }

  /** Identification + specializations of a feature (`all`? `<s> name : T [m] :> x …`). */
  private featureDeclaration(h: Header, isType = false): void {
    if (this.tk() === K.all) { h.isSufficient = true; this.adv(); }
    this.identification(h);
    this.specializations(h, isType);
  }

  private definition(h: Header, keyword: DefinitionKeyword): Definition {
    this.featureDeclaration(h, true);
    let isParallel = false;
    if (keyword === 'state' && this.eat(K.parallel)) isParallel = true;
    this.lastBlockHadRegions = false;
    const body = this.body(bodyContext(keyword, true), definitionWhat(keyword, this.kerml));
    if (keyword === 'state' && this.lastBlockHadRegions) isParallel = true;
    return new DefinitionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, keyword, isParallel, body);
  }

  /** A usage after its keyword (or without one). */
  private usage(h: Header, keyword: UsageKeyword, implicit: boolean, role: UsageRole | null, ctx: number): Member {
    // Action nodes declared with `action name …` before the node keyword.
    if (keyword === 'action') {
      this.featureDeclaration(h);
      const k = this.tk();
      if (k === K.accept) return this.acceptMember(h, ctx);
      if (k === K.send) return this.sendAction(h);
      if (k === K.assign) return this.assignAction(h);
      if (k === K.if) return this.ifMember(h.start, h, CTX_ACTION);
      if (k === K.while || k === K.loop) return this.loopAction(h);
      if (k === K.for) return this.forAction(h);
      if (k === K.terminate) return this.terminateAction(h);
      this.valuePart(h);
      const body = this.body(CTX_ACTION, 'action usage');
      return this.usageNode(h, keyword, implicit, role, null, null, null, EMPTY, false, false, body);
    }
    switch (keyword) {
      case 'connection': case 'interface': case 'allocation': case 'connector': case 'binding':
        return this.connectorUsage(h, keyword, false, ctx, role);
      case 'flow': case 'message': return this.flowUsage(h, keyword);
      case 'event':
        if (this.eat(K.occurrence)) break;
        // `event e.x;` references an existing occurrence
        if (this.tk() === IDENT) return this.referenceUsage(h, 'event', role, ctx);
        break;
      case 'inv':
        if (this.tk() === K.true) this.adv();
        else if (this.tk() === K.false) { this.adv(); return this.usageRest(h, keyword, implicit, role, true); }
        break;
    }
    if ((ctx & CTX_METADATA) !== 0 && implicit && this.tk() === IDENT) {
      // Metadata bodies: `x = 1;` redefines the metadata feature x.
      const target = this.reference('a feature name');
      h.relations = [new RelationNode('redefinition', target, null)];
      this.specializations(h, false);
      this.valuePart(h);
      return this.usageNode(h, keyword, implicit, role, null, null, null, EMPTY, false, false, this.body(CTX_METADATA, 'metadata feature'));
    }
    return this.usageRest(h, keyword, implicit, role, false);
  }

  /** Declaration, value and body of an ordinary usage. */
  private usageRest(h: Header, keyword: UsageKeyword, implicit: boolean, role: UsageRole | null, negated: boolean): Usage {
    this.featureDeclaration(h);
    this.valuePart(h);
    let isParallel = false;
    if (keyword === 'state' && this.eat(K.parallel)) isParallel = true;
    let satisfiedBy: Expression | null = null;
    if (role === 'satisfy' && this.eat(K.by)) satisfiedBy = this.expression();
    this.lastBlockHadRegions = false;
    const body = this.body(bodyContext(keyword, false), usageWhat(keyword, implicit, role));
    if (keyword === 'state' && this.lastBlockHadRegions) isParallel = true;
    // A plain substate beside OpenSysML's regions is in none of them.
    if (keyword === 'state' && role === null && this.plainStateHere === null) this.plainStateHere = h.start;
    return this.usageNode(h, keyword, implicit, role, null, null, satisfiedBy, EMPTY, isParallel, negated, body);
  }

  private usageNode(
    h: Header, keyword: UsageKeyword, implicit: boolean, role: UsageRole | null, ends: ConnectorEnd[] | null,
    payload: Usage | null, satisfiedBy: Expression | null, about: QualifiedName[], isParallel: boolean,
    isNegated: boolean, body: Member[] | null,
  ): Usage {
    return new UsageNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, keyword, implicit, role, ends, payload, satisfiedBy, about, isParallel, isNegated, body);
  }

  /** `perform a.b;`, `satisfy R by v;`, `event e;`: a usage whose first part references a feature. */
  private referenceUsage(h: Header, keyword: UsageKeyword, role: UsageRole | null, ctx: number, negated = false): Usage {
    const target = this.reference('a name');
    h.relations = [new RelationNode('reference', target, null)];
    this.specializations(h, false);
    this.valuePart(h);
    let satisfiedBy: Expression | null = null;
    if (role === 'satisfy' && this.eat(K.by)) satisfiedBy = this.expression();
    let isParallel = false;
    if (keyword === 'state' && this.eat(K.parallel)) isParallel = true;
    const body = this.body(bodyContext(keyword, false) | (ctx & CTX_STATE ? 0 : 0), usageWhat(keyword, false, role));
    return this.usageNode(h, keyword, false, role, null, null, satisfiedBy, EMPTY, isParallel, negated, body);
  }

  private roleUsage(h: Header, info: RoleInfo, ctx: number, negatedSatisfy = false): Member {
    let r = info;
    let negated = negatedSatisfy;
    if (r.role === 'return' && (ctx & CTX_RESULT) === 0) {
      // The grammar admits `return` (a result parameter) only directly in a calculation, constraint,
      // case or function body; in an action, if, loop or state body it is no statement at all.
      this.error(RETURN_OUTSIDE_CALC);
    }
    this.adv(); // the role keyword
    if (r.role === 'assert') {
      if (this.eat(K.not)) negated = true;
      if (this.eat(K.satisfy)) r = ROLE[K.satisfy!]!;
    }
    this.prefix(h);
    if (r.role === 'return' && (ctx & CTX_RESULT) !== 0 && this.returnsExpression()) {
      // OpenSysML's `return <expression>;`: the result bound to the expression, `return = <expression>;`.
      const a = this.p;
      const expression = this.expression();
      h.value = new FeatureValueNode(false, false, expression, this.starts[a]!, this.endFrom(a), this.lineStarts);
      this.warnNotation(this.rng(h.start), '`return <expression>;`', '`return = <expression>;`');
      return this.usageRest(h, r.keyword, true, r.role, negated);
    }
    if ((r.role === 'require' || r.role === 'assume' || r.role === 'assert') && this.returnsExpression(false)) {
      // OpenSysML's `require <expression>;`: a constraint declared in place, `require constraint { <expression> }`.
      const a = this.p;
      const expression = this.expression();
      this.expect(SEMI, `${r.role} expression`);
      const result = new ResultExpressionNode(null, expression, this.starts[a]!, this.endFrom(a), this.lineStarts);
      const shown = `${r.role}${negated ? ' not' : ''}`;
      // In a constraint's own body, OpenSysML's `assert <expression>;` states the constraint's condition:
      // SysML v2 writes it as the body's expression (several conjoined). The usage is kept (its keyword
      // not written, so the evaluator knows it for this reading); elsewhere it is an asserted constraint.
      const condition = r.role === 'assert' && (ctx & CTX_CONSTRAINT) !== 0;
      this.warnNotation(this.rng(h.start), `\`${shown} <expression>;\``, condition
        ? `the condition as the constraint's expression (\`constraint c { ${negated ? 'not ' : ''}<expression> }\`, several joined by \`and\`)`
        : `\`${shown} constraint { <expression> }\``);
      return this.usageNode(h, 'constraint', condition, r.role, null, null, null, EMPTY, false, negated, [result]);
    }
    const k = this.tk();
    // `perform action x …`, `return attribute r …`, `subject ref v …`: a full usage with the role.
    const uk = USAGE_KEYWORD[k];
    if (uk !== undefined || (k === K.use && this.la(1) === K.case) || ROLE[k] !== undefined) {
      let inner: Member | null;
      if (uk !== undefined) { this.adv(); inner = this.usage(h, uk, false, r.role, ctx); }
      else if (k === K.use) { this.adv(); this.adv(); inner = this.usage(h, 'use case', false, r.role, ctx); }
      else inner = this.declaration(h.start, h.visibility, ctx);
      if (inner !== null && inner.kind === 'Usage') {
        const u = inner as UsageNode;
        if (u.role === null) (u as UsageNode).setRole(r.role);
        if (negated) u.negate();
      }
      return inner ?? { kind: 'InvalidMember', range: this.rng(h.start), visibility: h.visibility, prefixMetadata: EMPTY };
    }
    if (r.referenceForm && h.prefixMetadata.length === 0 && (k === IDENT || k === DOLLAR)) {
      return this.referenceUsage(h, r.keyword, r.role, ctx, negated);
    }
    return this.usageRest(h, r.keyword, true, r.role, negated);
  }

  private package(h: Header): Member {
    const keyword = this.tk() === K.namespace ? 'namespace' : 'package';
    this.adv();
    this.identification(h);
    const members = this.body(0, keyword);
    return {
      kind: 'Package', range: this.rng(h.start), visibility: h.visibility, prefixMetadata: h.prefixMetadata,
      name: h.name, shortName: h.shortName, nameRange: this.nameRangeOf(h), keyword, isLibrary: h.isLibrary,
      isStandard: h.isStandard, members,
    };
  }

  private importMember(s: number, visibility: Visibility | null): Import {
    const keyword = this.tk() === K.expose ? 'expose' : 'import';
    this.adv();
    const isImportAll = this.eat(K.all);
    const a = this.p;
    let segments: string[] = EMPTY;
    let segmentStarts: number[] = EMPTY;
    let isGlobal = false;
    let isNamespace = false;
    let isRecursive = false;
    if (this.tk() === DOLLAR && this.la(1) === COLON2) { isGlobal = true; this.adv(); this.adv(); }
    let end = this.p;
    if (this.tk() !== IDENT) this.expected('a qualified name', `'${keyword}'`);
    else {
      segments = [this.name(this.p)]; segmentStarts = [this.starts[this.p]!]; this.adv(); end = this.p;
      while (this.tk() === COLON2) {
        const n = this.la(1);
        if (n === IDENT) { this.adv(); segments.push(this.name(this.p)); segmentStarts.push(this.starts[this.p]!); this.adv(); end = this.p; continue; }
        if (n === STAR) {
          this.adv(); this.adv(); isNamespace = true;
          if (this.tk() === COLON2 && this.la(1) === STAR2) { this.adv(); this.adv(); isRecursive = true; }
          break;
        }
        if (n === STAR2) { this.adv(); this.adv(); isRecursive = true; break; }
        this.adv();
        this.expected("a name, '*' or '**'", "'::'");
        break;
      }
    }
    const save = this.p;
    this.p = end;
    const target: QualifiedName = new ParsedQualifiedName(segments, segmentStarts, isGlobal, this.starts[a]!, this.endFrom(a), this.lineStarts);
    this.p = save;
    let filters: Expression[] = EMPTY;
    while (this.tk() === LBRACK) {
      this.adv();
      const filter = this.expression();
      if (filters === EMPTY) filters = [filter];
      else filters.push(filter);
      this.expect(RBRACK, 'filter condition');
    }
    const body = this.body(0, keyword);
    return { kind: 'Import', range: this.rng(s), visibility, prefixMetadata: EMPTY, keyword, isImportAll, target, isNamespace, isRecursive, filters, body };
  }

  private alias(s: number, visibility: Visibility | null): Member {
    this.adv();
    const h = this.header(s, visibility);
    this.identification(h);
    this.expect(K.for, 'alias name');
    const target = this.qualifiedName("a qualified name after 'for'");
    const body = this.body(0, 'alias');
    return { kind: 'Alias', range: this.rng(s), visibility, prefixMetadata: EMPTY, name: h.name, shortName: h.shortName, nameRange: this.nameRangeOf(h), target, body };
  }

  private dependency(s: number, visibility: Visibility | null, prefixMetadata: QualifiedName[]): Member {
    this.adv();
    const h = this.header(s, visibility);
    if (this.scanBefore(K.from, K.to)) {
      this.identification(h);
      this.expect(K.from, 'dependency name');
    }
    const clients = this.qualifiedNameList();
    this.expect(K.to, 'dependency clients');
    const suppliers = this.qualifiedNameList();
    const body = this.body(0, 'dependency');
    return { kind: 'Dependency', range: this.rng(s), visibility, prefixMetadata, name: h.name, shortName: h.shortName, nameRange: this.nameRangeOf(h), clients, suppliers, body };
  }

  private qualifiedNameList(): QualifiedName[] {
    const out = [this.qualifiedName('a qualified name')];
    while (this.tk() === COMMA) { this.adv(); out.push(this.qualifiedName('a qualified name')); }
    return out;
  }

  private comment(s: number, visibility: Visibility | null): Comment {
    const h = this.header(s, visibility);
    let about: QualifiedName[] = EMPTY;
    if (this.eat(K.comment)) {
      if (!this.commentPending()) this.identification(h);
      if (!this.commentPending() && this.eat(K.about)) about = this.qualifiedNameList();
    }
    let locale: string | null = null;
    if (this.eat(K.locale)) locale = this.stringLiteral("'locale'");
    const text = this.takeComment('comment declaration') ?? '';
    return { kind: 'Comment', range: this.rngWithComment(s), visibility, prefixMetadata: EMPTY, name: h.name, shortName: h.shortName, nameRange: this.nameRangeOf(h), about, locale, text };
  }

  private documentation(s: number, visibility: Visibility | null): Documentation {
    this.adv();
    const h = this.header(s, visibility);
    if (!this.commentPending()) this.identification(h);
    let locale: string | null = null;
    if (this.eat(K.locale)) locale = this.stringLiteral("'locale'");
    const text = this.takeComment("'doc'") ?? '';
    return { kind: 'Documentation', range: this.rngWithComment(s), visibility, prefixMetadata: EMPTY, name: h.name, shortName: h.shortName, nameRange: this.nameRangeOf(h), locale, text };
  }

  private representation(s: number, visibility: Visibility | null): TextualRepresentation {
    const h = this.header(s, visibility);
    if (this.eat(K.rep) && !this.commentPending()) this.identification(h);
    this.expect(K.language, 'textual representation');
    const language = this.stringLiteral("'language'") ?? '';
    const text = this.takeComment('language name') ?? '';
    return { kind: 'TextualRepresentation', range: this.rngWithComment(s), visibility, prefixMetadata: EMPTY, name: h.name, shortName: h.shortName, nameRange: this.nameRangeOf(h), language, text };
  }

  private stringLiteral(after: string): string | null {
    if (this.tk() === STRING) {
      const v = stringValue(this.src, this.starts[this.p]!, this.ends[this.p]!);
      this.adv();
      return v;
    }
    this.expected('a string', after);
    return null;
  }

  /** KerML: `specialization S subtype A :> B;`, `conjugate A ~ B;`, `disjoint A from B;` … */
  private relationshipDeclaration(s: number, visibility: Visibility | null): Member {
    const h = this.header(s, visibility);
    let k = this.tk();
    if (k === K.specialization || k === K.conjugation || k === K.disjoining || k === K.inverting) {
      this.adv();
      this.identification(h);
      k = this.tk();
    }
    const keyword = tokenKindText(k);
    let relation: RelationKind;
    switch (k) {
      case K.subtype: relation = 'specialization'; break;
      case K.subclassifier: relation = 'specialization'; break;
      case K.subset: relation = 'subsetting'; break;
      case K.redefinition: relation = 'redefinition'; break;
      case K.typing: relation = 'typing'; break;
      case K.conjugate: relation = 'conjugation'; break;
      case K.disjoint: relation = 'disjoining'; break;
      case K.inverse: relation = 'inverting'; break;
      case K.featuring: relation = 'featuring'; break;
      default:
        this.expected('a relationship keyword', 'the relationship name');
        this.skipToSync();
        return { kind: 'InvalidMember', range: this.rng(s), visibility, prefixMetadata: EMPTY };
    }
    this.adv();
    if (k === K.featuring && this.scanBefore(K.of, K.by)) {
      this.identification(h);
      this.expect(K.of, 'featuring name');
    }
    const source = this.reference('a name');
    const sep = this.tk();
    if (sep === COLON || sep === COLON_GT || sep === COLON_GT2 || sep === TILDE || sep === K.specializes ||
      sep === K.subsets || sep === K.redefines || sep === K.conjugates || sep === K.from || sep === K.of || sep === K.by) {
      this.adv();
    } else if (sep === K.typed) {
      this.adv(); this.expect(K.by, "'typed'");
    } else {
      this.expected('the relationship operator', `'${keyword}' source`);
    }
    const target = this.reference('a name');
    const body = this.body(0, `${keyword} relationship`);
    return { kind: 'RelationshipDeclaration', range: this.rng(s), visibility, prefixMetadata: EMPTY, name: h.name, shortName: h.shortName, nameRange: this.nameRangeOf(h), keyword, relation, source, target, body };
  }

  /** Whether `want` occurs before `stop` (and before the end of the declaration). */
  private scanBefore(want: number, stop: number): boolean {
    // Bounded look-ahead keeps a text without ';' from making this quadratic.
    const n = Math.min(this.ts.count, this.p + SCAN_LIMIT);
    let depth = 0;
    for (let i = this.p; i < n; i++) {
      const k = this.kinds[i]!;
      if (k === LPAREN || k === LBRACK) depth++;
      else if (k === RPAREN || k === RBRACK) { if (--depth < 0) return false; }
      else if (depth === 0) {
        if (k === want) return true;
        if (k === stop || k === SEMI || k === LBRACE || k === RBRACE || k === EOF) return false;
      }
      if (k === EOF) return false;
    }
    return false;
  }

  // ----------------------------------------------------------------------------------- metadata

  private metadataUsage(h: Header): Usage {
    // `metadata M;` (M is the type) or `metadata m : M;` / `metadata m typed by M;`
    if (this.tk() === IDENT && (this.la(1) === COLON || this.la(1) === K.typed || (this.la(1) === IDENT && this.text(this.p + 1) === 'typed'))) {
      this.identification(h);
    } else if (this.tk() === LT) {
      this.identification(h);
    }
    if (this.tk() === COLON) this.adv();
    else if (this.tk() === K.typed || (this.tk() === IDENT && this.text(this.p) === 'typed' && this.la(1) === K.by)) { this.adv(); this.expect(K.by, "'typed'"); }
    const type = this.reference('a metadata type');
    h.relations = [new RelationNode('typing', type, null)];
    this.specializations(h, false);
    let about: QualifiedName[] = EMPTY;
    if (this.eat(K.about)) about = this.qualifiedNameList();
    const body = this.body(CTX_METADATA, 'metadata usage');
    return this.usageNode(h, 'metadata', false, null, null, null, null, about, false, false, body);
  }

  // ----------------------------------------------------------------------------------- connectors

  private connectorEnd(): ConnectorEnd {
    const a = this.p;
    let multiplicity: Multiplicity | null = null;
    if (this.tk() === LBRACK) multiplicity = this.multiplicity();
    let name: string | null = null;
    if (this.tk() === IDENT && (this.la(1) === COLON2_GT || this.la(1) === K.references)) {
      name = this.name(this.p);
      this.adv(); this.adv();
    }
    const target = (name === null && multiplicity === null ? this.markedReference() : null) ?? this.reference('a connector end');
    return new ConnectorEndNode(name, target, multiplicity, this.starts[a]!, this.endFrom(a), this.lineStarts);
  }

  /** `a to b` or `(a, b, c)` */
  private connectorEnds(separator: number): ConnectorEnd[] {
    if (this.tk() === LPAREN) {
      this.adv();
      const ends = [this.connectorEnd()];
      while (this.eat(COMMA)) ends.push(this.connectorEnd());
      this.expect(RPAREN, 'connector ends');
      return ends;
    }
    const first = this.connectorEnd();
    this.expect(separator, 'connector end');
    return [first, this.connectorEnd()];
  }

  /** connection / interface / allocation / binding (SysML) and connector / binding (KerML). */
  private connectorUsage(h: Header, keyword: UsageKeyword, keywordIsOperator: boolean, _ctx: number, role: UsageRole | null = null): Usage {
    let ends: ConnectorEnd[] | null = null;
    if (this.tk() === K.all) { h.isSufficient = true; this.adv(); }
    const binding = keyword === 'binding';
    const sep = binding ? EQ : K.to!;
    if (keywordIsOperator) {
      // `connect a to b`, `bind a = b`, `allocate a to b`
      ends = binding ? this.bindingEnds() : this.connectorEnds(sep);
    } else if (this.tk() === LPAREN) {
      ends = this.connectorEnds(sep);
    } else if (binding && this.scanBefore(EQ, K.of) && !this.scanBefore(K.bind, EQ)) {
      ends = this.bindingEnds();
    } else if (!binding && this.scanBefore(K.to, this.kerml ? K.from : K.connect) && !this.scanBefore(K.allocate, K.to)) {
      ends = this.connectorEnds(sep);
    } else {
      this.featureDeclaration(h);
      if (!binding) this.valuePart(h);
      const k = this.tk();
      if (k === K.connect || k === K.allocate || (this.kerml && k === K.from)) {
        this.adv();
        ends = this.connectorEnds(sep);
      } else if (k === K.bind || (binding && k === K.of)) {
        this.adv();
        ends = this.bindingEnds();
      } else if (k === LPAREN) {
        ends = this.connectorEnds(sep);
      }
    }
    const body = this.body(bodyContext(keyword, false), `${keyword} usage`);
    return this.usageNode(h, keyword, keywordIsOperator, role, ends, null, null, EMPTY, false, false, body);
  }
  private bindingEnds(): ConnectorEnd[] {
    const first = this.connectorEnd();
    this.expect(EQ, 'binding end');
    return [first, this.connectorEnd()];
  }

  /** flow / message / succession flow (SysML), flow / succession flow (KerML). */
  private flowUsage(h: Header, keyword: UsageKeyword): Usage {
    let ends: ConnectorEnd[] | null = null;
    let payload: Usage | null = null;
    if (this.scanBefore(K.to, K.of) && !this.scanBefore(K.from, K.to)) {
      ends = this.connectorEnds(K.to!);
    } else {
      this.featureDeclaration(h);
      this.valuePart(h);
      if (this.eat(K.of)) payload = this.payloadFeature();
      if (this.eat(K.from)) {
        const first = this.connectorEnd();
        this.expect(K.to, 'flow source');
        ends = [first, this.connectorEnd()];
      }
    }
    const body = this.body(0, `${keyword} usage`);
    return this.usageNode(h, keyword, false, null, ends, payload, null, EMPTY, false, false, body);
  }

  /** Payload of a flow or an accept: `T`, `[1] T`, `x : T`, `x : T = v`. */
  private payloadFeature(): Usage {
    const h = this.header(this.p, null);
    const k = this.tk();
    if (k === LT || (k === IDENT && isDeclContinuation(this.la(1)))) {
      this.identification(h);
      this.specializations(h, false);
      this.valuePart(h);
    } else {
      if (this.tk() === LBRACK) h.multiplicity = this.multiplicity();
      if (this.tk() === IDENT || this.tk() === DOLLAR) {
        const target = this.reference('a payload type');
        h.relations = [new RelationNode('typing', target, null)];
      } else if (this.tk() !== K.at && this.tk() !== K.after && this.tk() !== K.when) {
        this.expected('a payload', "'of'");
      }
      this.specializations(h, false);
    }
    return this.usageNode(h, 'ref', true, null, null, null, null, EMPTY, false, false, null);
  }

  // ------------------------------------------------------------------ OpenSysML notation (#15 item 8)
  // Constructs of OpenSysML's own notation, outside the SysML v2 grammar, read as the standard
  // spelling each names, with a `nonstandard-notation` warning at its place: never silently.

  private warnNotation(range: SourceRange, written: string, standard: string): void {
    this.warnings.push({
      code: 'nonstandard-notation', range, standard,
      message: `nonstandard notation (OpenSysML): ${written}; SysML v2 writes ${standard}, and it is read so`,
    });
  }

  /**
   * A shorthand transition (no `first S`) leaves the state declared just before it (SysML BNF
   * StateBodyItem: BehaviorUsageMember TargetTransitionUsageMember*). First in a state's body, or after
   * a do/exit action or another feature, it follows no state: outside the grammar. OpenSysML reads it
   * as a transition of the state whose body holds it; so does the engine, with this warning.
   */
  private warnSourceless(members: readonly Member[]): void {
    let follows: 'state' | 'entry' | null = null;
    for (const m of members) {
      if (m.kind === 'Usage') follows = m.keyword === 'state' && m.direction === null ? 'state' : null;
      else if (m.kind === 'StateSubaction') follows = m.which === 'entry' ? 'entry' : null;
      else if (m.kind === 'Succession') {
        if (m.form === 'first' && !m.target) follows = 'state';
        else if (m.targetMember) follows = 'state';
      } else if (m.kind === 'Transition' && m.source === null && follows === null) {
        this.warnings.push({
          code: 'nonstandard-notation', range: m.range,
          standard: '`transition first S … then T;` (or the transition written right after the state S it leaves)',
          message: 'nonstandard notation (OpenSysML): a transition without `first S` that follows no state in a state body; SysML v2 writes `transition first S … then T;` (or writes it right after the state S it leaves), and it is read as a transition of the state whose body holds it',
        });
      }
    }
  }

  /** OpenSysML's `region r { … }` (current token is 'region'): a region of a parallel state, in SysML v2
   * a substate of a state declared `parallel` (`state r { … }`, SysML 7.17.2). */
  private region(s: number): Usage {
    const h = this.header(s, null);
    this.adv(); // region
    this.identification(h);
    this.lastBlockHadRegions = false;
    const body = this.block(CTX_STATE);
    const isParallel = this.lastBlockHadRegions;
    this.regionsHere++;
    this.warnNotation(this.rng(s), `\`region ${h.name ?? ''} { … }\``, `\`state ${h.name ?? ''} { … }\` in a state declared \`parallel\``);
    return this.usageNode(h, 'state', false, null, null, null, null, EMPTY, isParallel, false, body);
  }

  /** A word: a name or a keyword (OpenSysML markers name nodes `end`, `first`, …). */
  private isWord(i: number): boolean {
    const k = this.kinds[i]!;
    return k === IDENT || k >= KW_BASE;
  }
  private wordText(i: number): string {
    return this.kinds[i] === IDENT ? this.name(i) : this.text(i);
  }

  /** `done X;`, `initial X;` or `final X;` ahead (current token is a name). */
  private markerAhead(): boolean {
    // The token kinds first: the text is read only for `word word ;`, which no SysML v2 member is.
    if (this.la(2) !== SEMI || !this.isWord(this.p + 1)) return false;
    const t = this.text(this.p);
    return t === 'done' || t === 'initial' || t === 'final';
  }

  /** `done X;` / `final X;` name the body's `done`, `initial X;` its `start`: the body's successions
   * and transitions from and to X read those. */
  private marker(ctx: number): void {
    const s = this.p;
    const which = this.text(s);
    const name = this.wordText(s + 1);
    this.adv(); this.adv(); this.adv();
    const means = which === 'initial' ? 'start' : 'done';
    (this.markerNames ??= new Map()).set(name, means);
    const inState = (ctx & CTX_STATE) !== 0;
    const standard = which === 'initial'
      ? `\`entry; then S;\` for the initial state (\`${name} then S;\` names it)`
      : inState ? `a transition to \`done\` (\`transition first S then done;\`)` : `a succession to \`done\` (\`then done;\`)`;
    this.warnNotation(this.rng(s), `\`${which} ${name};\` declares a ${which === 'initial' ? 'start' : 'final'} node`, standard);
  }

  /** The marker name at the current token, read as the node it names (`done`, `start`). */
  private markedReference(): QualifiedName | null {
    const names = this.markerNames;
    if (names === null || !this.isWord(this.p)) return null;
    const n = this.la(1);
    if (n === COLON2 || n === DOT) return null;
    const means = names.get(this.wordText(this.p));
    if (means === undefined) return null;
    const a = this.p;
    this.adv();
    return new ParsedQualifiedName(this.singleSegment(means), null, false, this.starts[a]!, this.endFrom(a), this.lineStarts);
  }

  /** A marker's name that is a keyword (`done end;` names `end`) at token i. */
  private isMarkerKeyword(i: number): boolean {
    return this.markerNames !== null && this.kinds[i]! >= KW_BASE && this.markerNames.has(this.text(i));
  }

  /** Whether a connector end starts at the current token (a name, or a marker name that is a keyword). */
  private startsEnd(): boolean {
    const k = this.tk();
    return k === IDENT || k === LBRACK || k === DOLLAR || this.isMarkerKeyword(this.p);
  }

  /** `A then B;` (current token is A's name, followed by 'then'): a succession in an action, a
   * transition in a state; SysML v2 writes `first A then B;` (`transition first A then B;`). */
  private sourceThenTarget(s: number, ctx: number): Member {
    return this.pairedSuccession(s, this.header(s, null), ctx, true);
  }

  /** The rest of `A then B [if g];` (`infix`) or `then A B [if g];` from A on: the succession `first A
   * [if g] then B;`, with its warning. */
  private pairedSuccession(s: number, h: Header, ctx: number, infix: boolean): Succession {
    const source = this.connectorEnd();
    if (infix) this.expect(K.then, 'succession source');
    const target = this.connectorEnd();
    let guard: Expression | null = null;
    if (this.eat(K.if)) guard = this.expression();
    const body = this.body(CTX_ACTION, 'succession');
    const a = this.sourceText(source), b = this.sourceText(target), g = guard ? ' if …' : '';
    this.warnNotation(this.rng(s), infix ? `\`${a} then ${b}${g};\`` : `\`then ${a} ${b}${g};\``, this.standardSuccession(source, target, guard !== null, ctx));
    return this.succession(h, 'first', source, target, null, guard, body);
  }

  /** After `then`: a name followed by another name (`then A B;`), which no SysML v2 member is. */
  private startsPairedThen(): boolean {
    if (!this.isWord(this.p)) return false;
    let i = this.p + 1;
    while ((this.kinds[i] === COLON2 || this.kinds[i] === DOT) && this.isWord(i + 1)) i += 2;
    return this.kinds[i] === IDENT || this.isMarkerKeyword(i);
  }

  /** `x = e;` in OpenSysML's bare block: its assignment, `assign x := e;` (outside such a block the
   * same text declares a new feature, SysML v2's reading). */
  private bareBlockAssignment(s: number): AssignAction {
    const h = this.header(s, null);
    const target = this.primary();
    const op = this.text(this.p);
    this.adv(); // = or :=
    const assigned = this.expression();
    this.expect(SEMI, 'assignment');
    const name = this.text(s);
    this.warnNotation(this.rng(s), `\`${name} ${op} …;\` in a bare block is OpenSysML's assignment`, `\`assign ${name} := …;\``);
    return new AssignActionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, target, assigned, null);
  }

  /** After `return`: an expression no declaration can be (`return x + y;`, `return -x;`, `return 1;`);
   * `return x;` stays the declaration of a result parameter `x`. After `require`/`assume`/`assert`
   * (`chains` false) a feature chain stays a reference to a constraint (`require c.limit;`). */
  private returnsExpression(chains = true): boolean {
    const k = this.tk();
    if (k === INTEGER || k === REAL || k === STRING || k === LPAREN || k === MINUS || k === PLUS || k === TILDE) return true;
    if (k === K.not || k === K.if || k === K.true || k === K.false || k === K.null) return true;
    if (k !== IDENT) return false;
    // Past a qualified name (`P::margin(120) > 0`).
    let i = this.p + 1;
    while (this.kinds[i] === COLON2 && this.kinds[i + 1] === IDENT) i += 2;
    const n = this.kinds[i]!;
    if (n === PLUS || n === MINUS || n === STAR || n === STAR2 || n === SLASH || n === PERCENT || n === CARET || n === LT ||
      n === GT || n === LE || n === GE || n === EQ2 || n === EQ3 || n === NE || n === NE2 || n === QUESTION || n === QUESTION2 ||
      n === LPAREN || (n === DOT && chains) || n === HASH || n === ARROW || n === AMP || n === PIPE || n === DOT2) return true;
    return n === K.and || n === K.or || n === K.xor || n === K.implies || n === K.istype || n === K.hastype || n === K.as;
  }

  private sourceText(e: { readonly range: SourceRange }): string {
    return this.src.slice(e.range.start, e.range.end);
  }

  /** A reference as SysML v2 spells it: a marker's name (`end` of `done end;`) as the node it was read as. */
  private standardText(r: Reference): string {
    const written = this.sourceText(r);
    return r.kind === 'QualifiedName' && r.segments.length === 1 && r.segments[0] !== written ? r.segments[0]! : written;
  }

  /** The standard spelling of a succession from `source` to `target` (guarded when `guard`). */
  private standardSuccession(source: ConnectorEnd, target: ConnectorEnd, guard: boolean, ctx: number): string {
    const a = this.standardText(source.target), b = this.standardText(target.target), g = guard ? ' if …' : '';
    if ((ctx & CTX_STATE) === 0) return `\`first ${a}${g} then ${b};\``;
    return a === 'start' && !guard ? `\`entry; then ${b};\`` : `\`transition first ${a}${g} then ${b};\``;
  }

  // ----------------------------------------------------------------------------------- behaviour

  private succession(
    h: Header, form: Succession['form'], source: ConnectorEnd | null, target: ConnectorEnd | null,
    targetMember: Member | null, guard: Expression | null, body: Member[] | null,
  ): Succession {
    return new SuccessionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, form, source, target, targetMember, guard, body);
  }

  /** `succession s first a then b;` (SysML, KerML), `succession a then b;` (KerML). */
  private successionUsage(h: Header): Succession {
    if (this.tk() === K.all) { h.isSufficient = true; this.adv(); }
    if (this.tk() === K.first) return this.firstMember(h.start, h, 'succession');
    if (this.scanBefore(K.first, K.then)) {
      this.featureDeclaration(h);
      return this.firstMember(h.start, h, 'succession');
    }
    if (this.scanBefore(K.then, SEMI)) {
      const source = this.connectorEnd();
      this.expect(K.then, 'succession source');
      const target = this.connectorEnd();
      return this.succession(h, 'succession', source, target, null, null, this.body(0, 'succession'));
    }
    this.featureDeclaration(h);
    return this.succession(h, 'succession', null, null, null, null, this.body(0, 'succession'));
  }

  /** `first a then b;`, `first a if g then b;`, `first start;` (current token is 'first'). */
  private firstMember(s: number, h: Header, form: 'first' | 'succession'): Succession {
    this.expect(K.first, 'succession name');
    const source = this.connectorEnd();
    let guard: Expression | null = null;
    let target: ConnectorEnd | null = null;
    if (this.eat(K.if)) {
      guard = this.expression();
      this.expect(K.then, 'guard');
      target = this.connectorEnd();
    } else if (this.eat(K.then)) {
      target = this.connectorEnd();
    }
    void s;
    return this.succession(h, form, source, target, null, guard, this.body(CTX_ACTION, 'succession'));
  }

  /** `then b;`, `then action b { … }` (successions) or, in a state, `then s2;` (transition). */
  private thenMember(s: number, visibility: Visibility | null, ctx: number): Member {
    this.adv();
    const h = this.header(s, visibility);
    if (!this.startsEnd()) {
      // A declaration follows: `then action a …`, `then merge m;`, `then event occurrence e;`
      const targetMember = this.member(ctx);
      if (targetMember === null) {
        this.expected('a succession target', "'then'");
        return this.succession(h, 'then', null, null, null, null, null);
      }
      return this.succession(h, 'then', null, null, targetMember, null, null);
    }
    // `then A B;` (OpenSysML): a succession from A to B, in SysML v2 `first A then B;`.
    if (this.startsPairedThen()) return this.pairedSuccession(s, h, ctx, false);
    if ((ctx & CTX_STATE) !== 0) {
      const target = this.markedReference() ?? this.reference('a target state');
      return this.transitionNode(h, null, null, null, null, target, this.body(CTX_ACTION, 'transition'));
    }
    const target = this.connectorEnd();
    return this.succession(h, 'then', null, target, null, null, this.body(CTX_ACTION, 'succession'));
  }

  /** `if` at a member: an if action, a guarded succession `if g then b;`, a transition shorthand in
   * a state, or a conditional result expression in a calc. */
  private ifMember(s: number, h: Header, ctx: number): Member {
    const ifTok = this.p;
    this.adv();
    const condition = this.nullCoalescing();
    if (this.tk() === QUESTION && (ctx & CTX_RESULT) !== 0 && h.name === null) {
      this.adv();
      const then = this.expression();
      this.expect(K.else, 'conditional expression');
      const other = this.expression();
      const expression: Expression = { kind: 'Conditional', condition, then, else: other, range: this.rng(ifTok) };
      this.endOfResult();
      return new ResultExpressionNode(h.visibility, expression, this.starts[s]!, this.endFrom(s), this.lineStarts);
    }
    if ((ctx & CTX_STATE) !== 0 && (this.tk() === K.then || this.tk() === K.do)) {
      return this.transitionTail(h, null, null, condition);
    }
    if (this.tk() === K.then) {
      this.adv();
      const target = this.connectorEnd();
      return this.succession(h, 'guarded', null, target, null, condition, this.body(CTX_ACTION, 'guarded succession'));
    }
    return this.ifRest(h, condition);
  }
  private ifRest(h: Header, condition: Expression): IfAction {
    const then = this.actionBodyParameter("if condition");
    let other: Usage | IfAction | null = null;
    if (this.eat(K.else)) {
      if (this.tk() === K.if) {
        const h2 = this.header(this.p, null);
        this.adv();
        other = this.ifRest(h2, this.expression());
      } else {
        other = this.actionBodyParameter("'else'");
      }
    }
    return new IfActionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, condition, then, other);
  }

  /** `{ … }` or `action a { … }` as the body of if/while/for. */
  private actionBodyParameter(after: string): Usage {
    const h = this.header(this.p, null);
    if (this.eat(K.action)) this.featureDeclaration(h);
    let body: Member[] | null = null;
    if (this.tk() === LBRACE) body = this.block(CTX_ACTION);
    else this.expected("'{'", after);
    return this.usageNode(h, 'action', h.start === this.p, null, null, null, null, EMPTY, false, false, body);
  }

  private loopAction(h: Header): LoopAction {
    const form = this.tk() === K.while ? 'while' : 'loop';
    this.adv();
    const condition = form === 'while' ? this.expression() : null;
    const bodyAction = this.actionBodyParameter(form === 'while' ? 'while condition' : "'loop'");
    let until: Expression | null = null;
    if (this.eat(K.until)) {
      until = this.expression();
      this.expect(SEMI, 'until condition');
    }
    return new LoopActionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, form, condition, bodyAction, until);
  }

  private forAction(h: Header): ForAction {
    this.adv();
    const vh = this.header(this.p, null);
    this.featureDeclaration(vh);
    const variable = this.usageNode(vh, 'ref', true, null, null, null, null, EMPTY, false, false, null);
    this.expect(K.in, 'for variable');
    const collection = this.expression();
    const bodyAction = this.actionBodyParameter('for collection');
    return new ForActionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, variable, collection, bodyAction);
  }

  private terminateAction(h: Header): TerminateAction {
    this.adv();
    let target: Expression | null = null;
    if (this.tk() !== SEMI && this.tk() !== LBRACE) target = this.expression();
    const body = this.body(CTX_ACTION, 'terminate action');
    return new TerminateActionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, target, body);
  }

  private sendAction(h: Header, bodyOptional = false): SendAction {
    this.adv();
    let payload: Expression | null = null;
    let via: Expression | null = null;
    let to: Expression | null = null;
    const k = this.tk();
    if (k !== K.via && k !== K.to && k !== SEMI && k !== LBRACE) payload = this.expression();
    if (this.eat(K.via)) via = this.expression();
    if (this.eat(K.to)) to = this.expression();
    const body = bodyOptional ? this.optionalBlock() : this.body(CTX_ACTION, 'send action');
    return new SendActionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, payload, via, to, body);
  }

  private assignAction(h: Header, bodyOptional = false): AssignAction {
    this.adv();
    const target = this.primary();
    this.expect(COLON_EQ, 'assignment target');
    const assigned = this.expression();
    const body = bodyOptional ? this.optionalBlock() : this.body(CTX_ACTION, 'assign action');
    return new AssignActionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, target, assigned, body);
  }

  private optionalBlock(): Member[] | null {
    return this.tk() === LBRACE ? this.block(CTX_ACTION) : null;
  }

  /** `accept` with its payload and/or trigger and `via` receiver. `bodyMode`: 0 none (a transition
   * trigger), 1 an optional `{ … }`, 2 a required body. */
  private acceptPart(h: Header, bodyMode: 0 | 1 | 2): AcceptAction {
    this.adv(); // accept
    let payload: Usage | null = null;
    let triggerKind: 'at' | 'after' | 'when' | null = null;
    let triggerExpression: Expression | null = null;
    let k = this.tk();
    if (k !== K.at && k !== K.after && k !== K.when) {
      if (k === IDENT && (this.la(1) === K.at || this.la(1) === K.after || this.la(1) === K.when)) {
        const ph = this.header(this.p, null);
        this.identification(ph);
        payload = this.usageNode(ph, 'ref', true, null, null, null, null, EMPTY, false, false, null);
      } else {
        payload = this.payloadFeature();
      }
      k = this.tk();
    }
    if (k === K.at || k === K.after || k === K.when) {
      triggerKind = k === K.at ? 'at' : k === K.after ? 'after' : 'when';
      this.adv();
      triggerExpression = this.expression();
    }
    let receiver: Expression | null = null;
    if (this.eat(K.via)) receiver = this.expression();
    return this.acceptNode(h, payload, triggerKind, triggerExpression, receiver, bodyMode);
  }

  private acceptNode(
    h: Header, payload: Usage | null, triggerKind: 'at' | 'after' | 'when' | null, triggerExpression: Expression | null,
    receiver: Expression | null, bodyMode: 0 | 1 | 2,
  ): AcceptAction {
    const body = bodyMode === 0 ? null : bodyMode === 1 ? this.optionalBlock() : this.body(CTX_ACTION, 'accept action');
    return new AcceptActionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, payload, triggerKind, triggerExpression, receiver, body);
  }

  /** `accept …` at a member: an accept action, or (followed by if/do/then) a transition shorthand. */
  private acceptMember(h: Header, ctx: number): Member {
    const accept = this.acceptPart(this.header(this.p, null), 0);
    const k = this.tk();
    if (k === K.then || k === K.do || ((ctx & CTX_STATE) !== 0 && k === K.if)) {
      return this.transitionTail(h, null, accept, null);
    }
    // Not a transition: the node is the accept action itself, declared with the member's header.
    return this.acceptNode(h, accept.payload, accept.triggerKind, accept.triggerExpression, accept.receiver, 2);
  }

  private transitionNode(
    h: Header, source: Reference | null, trigger: AcceptAction | null, guard: Expression | null,
    effect: Member | null, target: Reference | null, body: Member[] | null,
  ): Transition {
    return new TransitionNode(this.starts[h.start]!, this.endFrom(h.start), this.lineStarts, h, source, trigger, guard, effect, target, body);
  }

  /** `transition t first s1 accept e if g do a then s2;` (current token is 'transition'). */
  private transition(s: number, h: Header): Transition {
    this.adv();
    let source: Reference | null = null;
    const k = this.tk();
    if (k === K.first) {
      this.adv();
      source = this.reference('a source state');
    } else if (k !== K.accept && k !== K.if && k !== K.do && k !== K.then) {
      if (this.scanBefore(K.first, K.then)) {
        this.featureDeclaration(h);
        this.expect(K.first, 'transition name');
      }
      source = this.markedReference() ?? this.reference('a source state');
      if (this.tk() === K.to) return this.transitionTo(s, h, source);
    }
    let trigger: AcceptAction | null = null;
    if (this.tk() === K.accept) trigger = this.acceptPart(this.header(this.p, null), 0);
    let guard: Expression | null = null;
    if (this.eat(K.if)) guard = this.expression();
    void s;
    return this.transitionTail(h, source, trigger, guard);
  }

  /** OpenSysML's `transition S to T (when Sig | accept …)? (if g)? (do e)?;` (current token is 'to'):
   * SysML v2 writes `transition first S accept Sig if g do e then T;`. `when Sig` is its signal
   * trigger, `accept Sig` in SysML v2 (a SysML v2 `accept when c` is a change trigger instead). */
  private transitionTo(s: number, h: Header, source: Reference): Transition {
    this.adv(); // to
    const target = this.markedReference() ?? this.reference('a target state');
    let trigger: AcceptAction | null = null;
    let signal = false;
    if (this.tk() === K.when) { signal = true; trigger = this.acceptPart(this.header(this.p, null), 0); }
    else if (this.tk() === K.accept) trigger = this.acceptPart(this.header(this.p, null), 0);
    let guard: Expression | null = null;
    if (this.eat(K.if)) guard = this.expression();
    let effect: Member | null = null;
    const doAt = this.p;
    if (this.eat(K.do)) effect = this.effectAction(true, doAt);
    // `do { … }` may end the member without ';'.
    const ended = effect !== null && this.kinds[this.p - 1] === RBRACE && this.tk() !== SEMI && this.tk() !== LBRACE;
    const body = ended ? null : this.body(CTX_ACTION, 'transition');
    const triggerText = trigger ? ` accept ${signal ? this.sourceText(trigger).replace(/^when\s+/, '') : '…'}` : '';
    this.warnNotation(this.rng(s), `\`transition ${this.sourceText(source)} to ${this.sourceText(target)}${signal ? ' when …' : ''}\``,
      `\`transition first ${this.standardText(source)}${triggerText}${guard ? ' if …' : ''}${effect ? ' do …' : ''} then ${this.standardText(target)};\``);
    return this.transitionNode(h, source, trigger, guard, effect, target, body);
  }

  /** `(if guard)? (do effect)? then target body` of a transition. */
  private transitionTail(h: Header, source: Reference | null, trigger: AcceptAction | null, guard: Expression | null): Transition {
    let g = guard;
    if (g === null && this.eat(K.if)) g = this.expression();
    let effect: Member | null = null;
    const doAt = this.p;
    if (this.eat(K.do)) effect = this.effectAction(true, doAt);
    let target: Reference | null = null;
    if (this.expect(K.then, 'transition')) target = this.markedReference() ?? this.reference('a target state');
    const body = this.body(CTX_ACTION, 'transition');
    return this.transitionNode(h, source, trigger, g, effect, target, body);
  }

  /** The action of `do …` in a transition, or of entry/do/exit in a state (`keywordAt`: that keyword). */
  private effectAction(bodyOptional: boolean, keywordAt: number): Member {
    const h = this.header(this.p, null);
    const k = this.tk();
    if (k === LBRACE) {
      // OpenSysML's bare block: an action declared in place, `entry action { … }` in SysML v2.
      const outer = this.inBareBlock;
      this.inBareBlock = true;
      const body = this.block(CTX_ACTION);
      this.inBareBlock = outer;
      const keyword = this.text(keywordAt);
      this.warnNotation(this.rng(keywordAt), `a bare \`${keyword} { … }\` block`, `\`${keyword} action { … }\``);
      return this.usageNode(h, 'action', false, 'perform', null, null, null, EMPTY, false, false, body);
    }
    if (k === K.send) return this.sendAction(h, bodyOptional);
    if (k === K.assign) return this.assignAction(h, bodyOptional);
    if (k === K.accept) return this.acceptPart(h, bodyOptional ? 1 : 2);
    if (k === K.action) {
      this.adv();
      this.featureDeclaration(h);
      const kk = this.tk();
      if (kk === K.send) return this.sendAction(h, bodyOptional);
      if (kk === K.assign) return this.assignAction(h, bodyOptional);
      if (kk === K.accept) return this.acceptPart(h, bodyOptional ? 1 : 2);
      this.valuePart(h);
      const body = bodyOptional ? this.optionalBlock() : this.body(CTX_ACTION, 'action usage');
      return this.usageNode(h, 'action', false, 'perform', null, null, null, EMPTY, false, false, body);
    }
    if (k === K.perform) this.adv();
    const target = this.reference('an action');
    h.relations = [new RelationNode('reference', target, null)];
    this.specializations(h, false);
    this.valuePart(h);
    const body = bodyOptional ? this.optionalBlock() : this.body(CTX_ACTION, 'performed action');
    return this.usageNode(h, 'action', true, 'perform', null, null, null, EMPTY, false, false, body);
  }

  private stateSubaction(s: number, visibility: Visibility | null): StateSubaction {
    const k = this.tk();
    const which = k === K.entry ? 'entry' : k === K.exit ? 'exit' : 'do';
    this.adv();
    let action: Member | null = null;
    if (this.tk() === SEMI) this.adv();
    else action = this.effectAction(false, s + (visibility === null ? 0 : 1));
    return new StateSubactionNode(visibility, which, action, this.starts[s]!, this.endFrom(s), this.lineStarts);
  }

  // ----------------------------------------------------------------------------------- names

  qualifiedName(what: string): QualifiedName {
    const a = this.p;
    let isGlobal = false;
    if (this.tk() === DOLLAR) {
      this.adv();
      isGlobal = true;
      this.expect(COLON2, "'$'");
    }
    if (this.tk() !== IDENT) {
      this.expected(what);
      return new ParsedQualifiedName(EMPTY, EMPTY, isGlobal, this.starts[a]!, this.endFrom(a), this.lineStarts);
    }
    // Most names have one segment: share one frozen array per name (push onto [] reserves 17 slots),
    // and keep no array of starts when the segment starts the name.
    const first = this.p;
    let segments = this.singleSegment(this.name(first));
    let segmentStarts: number[] | null = first === a ? null : [this.starts[first]!];
    this.adv();
    while (this.tk() === COLON2 && this.la(1) === IDENT) {
      this.adv();
      if (segments.length === 1) segments = [segments[0]!];
      if (segmentStarts === null) segmentStarts = [this.starts[first]!];
      segments.push(this.name(this.p));
      segmentStarts.push(this.starts[this.p]!);
      this.adv();
    }
    return new ParsedQualifiedName(segments, segmentStarts, isGlobal, this.starts[a]!, this.endFrom(a), this.lineStarts);
  }

  private readonly segmentArrays = new Map<string, string[]>();
  private singleSegment(name: string): string[] {
    let a = this.segmentArrays.get(name);
    if (a === undefined) {
      a = Object.freeze([name]) as string[];
      this.segmentArrays.set(name, a);
    }
    return a;
  }

  /** A qualified name or a feature chain `a.b.c`. */
  private reference(what: string): Reference {
    const a = this.p;
    const first = this.qualifiedName(what);
    if (this.tk() !== DOT || this.la(1) !== IDENT) return first;
    const chain = [first];
    while (this.tk() === DOT && this.la(1) === IDENT) {
      this.adv();
      chain.push(this.qualifiedName(what));
    }
    const fc: FeatureChain = { kind: 'FeatureChain', chain, range: this.rng(a) };
    return fc;
  }

  // ----------------------------------------------------------------------------------- expressions

  expression(): Expression {
    if (this.tk() === K.if) {
      const a = this.p;
      this.adv();
      if (++this.depth > MAX_DEPTH) return this.tooDeep(a);
      const condition = this.nullCoalescing();
      this.expect(QUESTION, 'condition of the conditional expression');
      const then = this.expression();
      this.expect(K.else, 'conditional expression');
      const other = this.expression();
      this.depth--;
      return { kind: 'Conditional', condition, then, else: other, range: this.rng(a) };
    }
    return this.binary(1);
  }
  private nullCoalescing(): Expression {
    return this.binary(1);
  }
  private additive(): Expression {
    return this.binary(10);
  }

  private tooDeep(a: number): Expression {
    this.error('nesting too deep');
    this.depth--;
    // Skip to the end of the statement so the parser does not recurse further.
    while (this.tk() !== EOF && this.tk() !== SEMI && this.tk() !== RBRACE) this.adv();
    return { kind: 'Missing', range: this.rng(a) };
  }

  private binary(minPrec: number): Expression {
    if (this.chainLevel > 0) return this.binaryChain(minPrec);
    const a = this.p;
    this.chainLevel++;
    const e = this.binaryChain(minPrec);
    this.chainLevel--;
    return this.heightChecked(e, a);
  }

  /** `e` unless its tree (with the nesting around it) is higher than MAX_HEIGHT. */
  private heightChecked(e: Expression, a: number): Expression {
    // A node spans at least one token of its own except for a few wrappers (argument, sequence), so
    // a short expression cannot be high: only long ones are measured.
    if ((this.p - a) * 2 + this.depth < MAX_HEIGHT) return e;
    const height = treeHeight(e);
    if (height + this.depth <= MAX_HEIGHT) return e;
    this.error(`expression nested too deeply (${height} levels; at most ${MAX_HEIGHT - this.depth} here): split it into named parts`, e.range);
    return { kind: 'Missing', range: e.range };
  }

  private binaryChain(minPrec: number): Expression {
    const a = this.p;
    let left = this.unary();
    for (;;) {
      const k = this.tk();
      const prec = PREC[k]!;
      if (prec === 0 || prec < minPrec) return left;
      this.adv();
      if (prec === CLASSIFY_PREC) {
        const type = this.qualifiedName(`a type after '${CLASSIFY_OP[k]}'`);
        left = { kind: 'Classification', operator: CLASSIFY_OP[k] as 'istype', operand: left, type, range: this.rng(a) };
        continue;
      }
      // ** and ^ are right-associative (a recursion per operator, so counted as nesting); all other
      // binary operators group to the left, in this loop.
      let right: Expression;
      if (prec === 12) {
        if (++this.depth > MAX_DEPTH) return this.tooDeep(a);
        right = this.binaryChain(prec);
        this.depth--;
      } else {
        right = this.binaryChain(prec + 1);
      }
      left = new BinaryNode(BINARY_OP[k] as BinaryOperator, left, right, this.starts[a]!, this.endFrom(a), this.lineStarts);
    }
  }

  private unary(): Expression {
    const k = this.tk();
    let op: UnaryOperator | null = null;
    if (k === MINUS) op = '-';
    else if (k === PLUS) op = '+';
    else if (k === TILDE) op = '~';
    else if (k === K.not) op = 'not';
    if (op !== null) {
      const a = this.p;
      this.adv();
      if (++this.depth > MAX_DEPTH) return this.tooDeep(a);
      const operand = this.unary();
      this.depth--;
      return { kind: 'Unary', operator: op, operand, range: this.rng(a) };
    }
    if (k === K.all) {
      const a = this.p;
      this.adv();
      const type = this.qualifiedName("a type after 'all'");
      return { kind: 'Extent', type, range: this.rng(a) };
    }
    if (k === K.istype || k === K.hastype || k === AT || k === AT2 || k === K.as || k === K.meta) {
      // Classification without operand (applies to the element being filtered / `self`).
      const a = this.p;
      this.adv();
      const type = this.qualifiedName(`a type after '${CLASSIFY_OP[k]}'`);
      return { kind: 'Classification', operator: CLASSIFY_OP[k] as 'istype', operand: null, type, range: this.rng(a) };
    }
    return this.primary();
  }

  private primary(): Expression {
    if (this.chainLevel > 0) return this.postfixChain();
    const a = this.p;
    this.chainLevel++;
    const e = this.postfixChain();
    this.chainLevel--;
    return this.heightChecked(e, a);
  }

  private postfixChain(): Expression {
    const a = this.p;
    let e = this.base();
    for (;;) {
      const k = this.tk();
      if (k === DOT) {
        const n = this.la(1);
        if (n === IDENT || n === DOLLAR) {
          this.adv();
          const member = this.qualifiedName('a feature name');
          if (this.tk() === LPAREN && isNameChain(e)) {
            // `a.b(x)`: invocation of the feature chain a.b
            const chain = chainOf(e, member);
            const args = this.argumentList();
            e = { kind: 'Invocation', callee: { kind: 'FeatureChain', chain, range: new TextRange(chain[0]!.range.start, member.range.end, this.lineStarts) }, args, range: this.rng(a) };
            continue;
          }
          e = { kind: 'MemberAccess', target: e, member, range: this.rng(a) };
          continue;
        }
        if (n === LBRACE) {
          this.adv();
          const body = this.bodyExpression();
          e = { kind: 'Collect', target: e, body, range: this.rng(a) };
          continue;
        }
        if (n === K.metadata && e.kind === 'Name') {
          this.adv(); this.adv();
          e = { kind: 'MetadataAccess', target: e.name, range: this.rng(a) };
          continue;
        }
        this.adv();
        this.expected("a feature name or '{'", "'.'");
        return e;
      }
      if (k === DOT_Q) {
        this.adv();
        if (this.tk() !== LBRACE) { this.expected("'{'", "'.?'"); return e; }
        const body = this.bodyExpression();
        e = { kind: 'Select', target: e, body, range: this.rng(a) };
        continue;
      }
      if (k === ARROW) {
        this.adv();
        const callee = this.reference("a function name after '->'");
        let args: Argument[];
        const t = this.tk();
        if (t === LBRACE) {
          const b = this.p;
          const body = this.bodyExpression();
          args = [{ kind: 'Argument', name: null, value: body, range: body.range }];
          void b;
        } else if (t === LPAREN) {
          args = this.argumentList();
        } else if (t === IDENT || t === DOLLAR) {
          const b = this.p;
          const fn = this.qualifiedName('a function name');
          args = [{ kind: 'Argument', name: null, value: new NameNode(fn), range: this.rng(b) }];
        } else {
          this.expected("'(', '{' or a function name", `'->${callee.kind === 'QualifiedName' ? callee.segments.join('::') : ''}'`);
          args = EMPTY;
        }
        e = { kind: 'ArrowInvocation', target: e, callee, args, range: this.rng(a) };
        continue;
      }
      if (k === HASH && this.la(1) === LPAREN) {
        this.adv(); this.adv();
        if (++this.depth > MAX_DEPTH) return this.tooDeep(a);
        const index = this.sequenceContents(this.p);
        this.depth--;
        this.expect(RPAREN, 'index');
        e = { kind: 'Index', target: e, index, range: this.rng(a) };
        continue;
      }
      if (k === LBRACK) {
        this.adv();
        if (++this.depth > MAX_DEPTH) return this.tooDeep(a);
        const unit = this.sequenceContents(this.p);
        this.depth--;
        this.expect(RBRACK, 'unit');
        e = new QuantityNode(e, unit, this.starts[a]!, this.endFrom(a), this.lineStarts);
        continue;
      }
      return e;
    }
  }

  private base(): Expression {
    const a = this.p;
    const k = this.tk();
    switch (k) {
      case IDENT: {
        if (this.la(1) === IDENT && this.text(a) === 'new') {
          this.adv();
          const type = this.reference('a type after new');
          const args = this.tk() === LPAREN ? this.argumentList() : (this.expected("'('", 'constructed type'), EMPTY);
          return { kind: 'Constructor', type, args, range: this.rng(a) };
        }
        const name = this.qualifiedName('a name');
        if (this.tk() === LPAREN) {
          const args = this.argumentList();
          return { kind: 'Invocation', callee: name, args, range: this.rng(a) };
        }
        return new NameNode(name);
      }
      case DOLLAR: {
        const name = this.qualifiedName('a name');
        if (this.tk() === LPAREN) {
          const args = this.argumentList();
          return { kind: 'Invocation', callee: name, args, range: this.rng(a) };
        }
        return new NameNode(name);
      }
      case INTEGER: case REAL: {
        this.adv();
        const text = this.text(a);
        const n = Number(text);
        if (k === INTEGER && !Number.isSafeInteger(n)) return new BigIntegerLiteralNode(text, n, this.starts[a]!, this.endFrom(a), this.lineStarts);
        // A decimal a double holds only approximately (0.1): its digits kept for its exact value.
        if (k === REAL) return new RealLiteralNode(text, n, this.starts[a]!, this.endFrom(a), this.lineStarts);
        return new LiteralNode(k === INTEGER ? 'integer' : 'real', n, this.starts[a]!, this.endFrom(a), this.lineStarts);
      }
      case STRING: {
        this.adv();
        return new LiteralNode('string', stringValue(this.src, this.starts[a]!, this.ends[a]!), this.starts[a]!, this.endFrom(a), this.lineStarts);
      }
      case STAR: {
        this.adv();
        return new LiteralNode('infinity', Infinity, this.starts[a]!, this.endFrom(a), this.lineStarts);
      }
      case LPAREN: {
        this.adv();
        if (this.tk() === RPAREN) { this.adv(); return { kind: 'Null', range: this.rng(a) }; }
        if (++this.depth > MAX_DEPTH) return this.tooDeep(a);
        const inner = this.sequenceContents(a);
        this.depth--;
        this.expect(RPAREN, 'expression');
        if (inner.kind === 'Sequence') return { kind: 'Sequence', items: inner.items, range: this.rng(a) };
        return inner;
      }
      case LBRACE:
        return this.bodyExpression();
    }
    if (k === K.true || k === K.false) {
      this.adv();
      return new LiteralNode('boolean', k === K.true, this.starts[a]!, this.endFrom(a), this.lineStarts);
    }
    if (k === K.null) {
      this.adv();
      return { kind: 'Null', range: this.rng(a) };
    }
    if (k === K.if) return this.expression();
    if (k === K.all || k === K.not || k === K.istype || k === K.hastype || k === K.as || k === K.meta || k === AT || k === AT2) return this.unary();
    this.expected('an expression');
    return { kind: 'Missing', range: this.rng(a) };
  }

  /** `e` or `e, f, …` (trailing comma allowed) up to the closing bracket. */
  private sequenceContents(a: number): Expression {
    const first = this.expression();
    if (this.tk() !== COMMA) return first;
    const items = [first];
    while (this.eat(COMMA)) {
      const k = this.tk();
      if (k === RPAREN || k === RBRACK) break;
      items.push(this.expression());
    }
    return { kind: 'Sequence', items, range: this.rng(a) };
  }

  private argumentList(): Argument[] {
    const open = this.p;
    this.adv(); // (
    if (this.eat(RPAREN)) return EMPTY;
    let args: Argument[] = EMPTY;
    for (;;) {
      const a = this.p;
      let name: string | null = null;
      if (this.tk() === IDENT && this.la(1) === EQ) {
        name = this.name(this.p);
        this.adv(); this.adv();
      }
      // Arguments nest by recursion (`f(f(f(…)))`): counted like parentheses.
      if (++this.depth > MAX_DEPTH) {
        this.tooDeep(a);
        return args;
      }
      const value = this.expression();
      this.depth--;
      const arg: Argument = new ArgumentNode(name, value, this.starts[a]!, this.endFrom(a), this.lineStarts);
      if (args === EMPTY) args = [arg];
      else args.push(arg);
      if (this.eat(COMMA)) continue;
      if (this.eat(RPAREN)) return args;
      this.expected("',' or ')'", `the arguments opened at ${this.position(open)}`);
      return args;
    }
  }

  /** `{ members result }` (current token is '{'). */
  private bodyExpression(): BodyExpression {
    const a = this.p;
    const members = this.block(CTX_RESULT | CTX_ACTION);
    let result: Expression | null = null;
    const last = members[members.length - 1];
    if (last !== undefined && last.kind === 'ResultExpression') {
      members.pop();
      result = last.expression;
    }
    return { kind: 'Body', members, result, range: this.rng(a) };
  }
}

// ------------------------------------------------------------------------------------- helpers

/** Height of the tree below `root` (1 for a leaf), without recursion. */
function treeHeight(root: Node): number {
  const nodes: Node[] = [root];
  const depths: number[] = [1];
  let max = 0;
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const d = depths.pop()!;
    if (d > max) max = d;
    for (const key in node) {
      if (key === 'range' || key === 'nameRange' || key === 'kind') continue;
      const v = (node as unknown as Record<string, unknown>)[key];
      if (v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (const item of v) if (item !== null && typeof item === 'object' && 'kind' in item) { nodes.push(item as Node); depths.push(d + 1); }
      } else if ('kind' in v) {
        nodes.push(v as Node); depths.push(d + 1);
      }
    }
  }
  return max;
}

function isDeclContinuation(k: number): boolean {
  return k === COLON || k === COLON_GT || k === COLON_GT2 || k === COLON2_GT || k === K.typed || k === K.defined ||
    k === K.subsets || k === K.redefines || k === K.references || k === K.specializes || k === EQ || k === COLON_EQ ||
    k === LBRACK;
}

function bodyContext(keyword: string, isDefinition: boolean): number {
  switch (keyword) {
    case 'action': case 'fork': case 'join': case 'merge': case 'decide': case 'behavior': case 'step':
      return CTX_ACTION;
    case 'constraint':
      return CTX_ACTION | CTX_RESULT | CTX_CONSTRAINT;
    case 'calc': case 'case': case 'analysis': case 'verification': case 'use case':
      return CTX_ACTION | CTX_RESULT;
    case 'function': case 'predicate': case 'expr': case 'bool': case 'inv':
      return CTX_RESULT;
    case 'state':
      return CTX_STATE;
    case 'enum':
      return isDefinition ? CTX_ENUM : 0;
    case 'metadata':
      return isDefinition ? 0 : CTX_METADATA;
  }
  return 0;
}

const DEFINITION_WHAT = [new Map<string, string>(), new Map<string, string>()];
function definitionWhat(keyword: DefinitionKeyword, kerml: boolean): string {
  if (keyword === 'def') return 'definition';
  const known = DEFINITION_WHAT[kerml ? 1 : 0]!;
  let what = known.get(keyword);
  if (what === undefined) known.set(keyword, what = `${keyword} ${kerml && keyword !== 'metadata' ? 'declaration' : 'definition'}`);
  return what;
}

// What a usage is called in messages, made once per keyword or role rather than per usage.
const USAGE_WHAT = new Map<string, string>();
function usageWhat(keyword: UsageKeyword, implicit: boolean, role: UsageRole | null): string {
  if (role === null && implicit) return 'usage';
  const word = role ?? keyword;
  let what = USAGE_WHAT.get(word);
  if (what === undefined) USAGE_WHAT.set(word, what = `${word} usage`);
  return what;
}

function isNameChain(e: Expression): boolean {
  return e.kind === 'Name' || (e.kind === 'MemberAccess' && isNameChain(e.target));
}
function chainOf(e: Expression, last: QualifiedName): QualifiedName[] {
  const out: QualifiedName[] = [last];
  let cur: Expression = e;
  while (cur.kind === 'MemberAccess') { out.push(cur.member); cur = cur.target; }
  if (cur.kind === 'Name') out.push(cur.name);
  return out.reverse();
}


// ------------------------------------------------------------------------------------- feature nodes

// The prefix flags of feature-like nodes, packed in one number: a tree holds many such nodes and
// nearly every flag is false, so one field replaces a dozen (the tree's size is what the garbage
// collector pays for). They read as the boolean properties of the ast.ts interfaces.
const FLAGS: unique symbol = Symbol('flags');
const F_ABSTRACT = 1 << 0;
const F_VARIATION = 1 << 1;
const F_CONSTANT = 1 << 2;
const F_DERIVED = 1 << 3;
const F_END = 1 << 4;
const F_REF = 1 << 5;
const F_COMPOSITE = 1 << 6;
const F_VAR = 1 << 7;
const F_INDIVIDUAL = 1 << 8;
const F_ORDERED = 1 << 9;
const F_NONUNIQUE = 1 << 10;
const F_KEYWORD_IMPLICIT = 1 << 11;
const F_PARALLEL = 1 << 12;
const F_NEGATED = 1 << 13;
const F_SUFFICIENT = 1 << 14;

// Scalar fields packed in the same number: their index in these lists (null first).
const VISIBILITY_SHIFT = 15;
const DIRECTION_SHIFT = 17;
const PORTION_SHIFT = 19;
const KEYWORD_SHIFT = 21;
const KEYWORD_MASK = 63;
const ROLE_SHIFT = 27;
const ROLE_MASK = 31;
const VISIBILITIES: readonly (Visibility | null)[] = [null, 'public', 'private', 'protected'];
const DIRECTIONS: readonly ('in' | 'out' | 'inout' | null)[] = [null, 'in', 'out', 'inout'];
const PORTION_KINDS: readonly ('snapshot' | 'timeslice' | 'portion' | null)[] = [null, 'snapshot', 'timeslice', 'portion'];
const USAGE_KEYWORDS = [
  'ref', 'attribute', 'enum', 'occurrence', 'event', 'item', 'part', 'port', 'connection', 'flow', 'succession flow',
  'message', 'interface', 'allocation', 'action', 'state', 'calc', 'constraint', 'requirement', 'concern', 'case',
  'analysis', 'verification', 'use case', 'view', 'viewpoint', 'rendering', 'metadata', 'binding', 'connect', 'bind',
  'allocate', 'fork', 'join', 'merge', 'decide', 'feature', 'step', 'expr', 'bool', 'inv', 'connector', 'multiplicity',
] as const satisfies readonly UsageKeyword[];
const USAGE_ROLES = [
  null, 'subject', 'actor', 'stakeholder', 'objective', 'return', 'require', 'assume', 'frame', 'verify', 'satisfy',
  'assert', 'perform', 'exhibit', 'include', 'render', 'variant', 'member', 'parameter',
] as const satisfies readonly (UsageRole | null)[];
// Every keyword and role has a code (a compile error names any missing one).
const EVERY_KEYWORD_CODED: Exclude<UsageKeyword, (typeof USAGE_KEYWORDS)[number]> extends never ? true : never = true;
const EVERY_ROLE_CODED: Exclude<UsageRole, (typeof USAGE_ROLES)[number]> extends never ? true : never = true;
void EVERY_KEYWORD_CODED; void EVERY_ROLE_CODED;
const USAGE_KEYWORD_CODE: Record<string, number> = Object.fromEntries(USAGE_KEYWORDS.map((k, i) => [k, i]));
const USAGE_ROLE_CODE: Record<string, number> = Object.fromEntries(USAGE_ROLES.map((r, i) => [r, i]).filter(([r]) => r !== null));

const HEADER_FLAGS = [
  'isAbstract', 'isVariation', 'isConstant', 'isDerived', 'isEnd', 'isRef', 'isComposite', 'isVar', 'isIndividual',
  'isOrdered', 'isNonunique',
] as const;
const USAGE_FLAGS = ['isKeywordImplicit', 'isParallel', 'isNegated', 'isSufficient', 'keyword', 'role'] as const;
const HEADER_SCALARS = ['visibility', 'direction', 'portionKind'] as const;

function headerFlags(h: Header): number {
  return (h.isAbstract ? F_ABSTRACT : 0) | (h.isVariation ? F_VARIATION : 0) | (h.isConstant ? F_CONSTANT : 0) |
    (h.isDerived ? F_DERIVED : 0) | (h.isEnd ? F_END : 0) | (h.isRef ? F_REF : 0) | (h.isComposite ? F_COMPOSITE : 0) |
    (h.isVar ? F_VAR : 0) | (h.isIndividual ? F_INDIVIDUAL : 0) | (h.isOrdered ? F_ORDERED : 0) |
    (h.isNonunique ? F_NONUNIQUE : 0) | (code(VISIBILITIES, h.visibility) << VISIBILITY_SHIFT) |
    (code(DIRECTIONS, h.direction) << DIRECTION_SHIFT) | (code(PORTION_KINDS, h.portionKind) << PORTION_SHIFT);
}

function code<T>(values: readonly T[], value: T): number {
  const i = values.indexOf(value);
  if (i < 0) throw new Error(`no code for ${String(value)}`);
  return i;
}

/** The getters of the prefix flags and `toJSON`, shared by the feature-like node classes below (put on
 * their prototypes rather than inherited: under tsx, which names every class, V8 gave up optimizing
 * derived-class constructors). Each class sets the FeatureHeader fields itself, in this order. */
abstract class FeatureFlags {
  declare [FLAGS]: number;
  get isAbstract(): boolean { return (this[FLAGS] & F_ABSTRACT) !== 0; }
  get isVariation(): boolean { return (this[FLAGS] & F_VARIATION) !== 0; }
  get isConstant(): boolean { return (this[FLAGS] & F_CONSTANT) !== 0; }
  get isDerived(): boolean { return (this[FLAGS] & F_DERIVED) !== 0; }
  get isEnd(): boolean { return (this[FLAGS] & F_END) !== 0; }
  get isRef(): boolean { return (this[FLAGS] & F_REF) !== 0; }
  get isComposite(): boolean { return (this[FLAGS] & F_COMPOSITE) !== 0; }
  get isVar(): boolean { return (this[FLAGS] & F_VAR) !== 0; }
  get isIndividual(): boolean { return (this[FLAGS] & F_INDIVIDUAL) !== 0; }
  get isOrdered(): boolean { return (this[FLAGS] & F_ORDERED) !== 0; }
  get isNonunique(): boolean { return (this[FLAGS] & F_NONUNIQUE) !== 0; }
  get visibility(): Visibility | null { return VISIBILITIES[(this[FLAGS] >>> VISIBILITY_SHIFT) & 3]!; }
  get direction(): 'in' | 'out' | 'inout' | null { return DIRECTIONS[(this[FLAGS] >>> DIRECTION_SHIFT) & 3]!; }
  get portionKind(): 'snapshot' | 'timeslice' | 'portion' | null { return PORTION_KINDS[(this[FLAGS] >>> PORTION_SHIFT) & 3]!; }
  /** The node as plain data, flags and ranges included. */
  toJSON(): Record<string, unknown> {
    const out = SpannedNode.prototype.toJSON.call(this);
    for (const f of HEADER_FLAGS) out[f] = this[f];
    for (const f of HEADER_SCALARS) out[f] = this[f];
    if ((this as { kind?: string }).kind === 'Usage') for (const f of USAGE_FLAGS) out[f] = (this as unknown as Usage)[f];
    return out;
  }
}

interface UsageNode extends FeatureFlags, SpannedNode {}
class UsageNode implements Usage {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'Usage';
  declare readonly ends: ConnectorEnd[] | null;
  declare readonly payload: Usage | null;
  declare readonly satisfiedBy: Expression | null;
  declare readonly about: QualifiedName[];
  declare readonly body: Member[] | null;
  declare crossFeature?: Usage;
  constructor(
    start: number, end: number, lines: Int32Array, h: Header, keyword: UsageKeyword, implicit: boolean, role: UsageRole | null,
    ends: ConnectorEnd[] | null, payload: Usage | null, satisfiedBy: Expression | null, about: QualifiedName[],
    isParallel: boolean, isNegated: boolean, body: Member[] | null,
  ) {
    this.kind = 'Usage';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h) | (implicit ? F_KEYWORD_IMPLICIT : 0) | (isParallel ? F_PARALLEL : 0) |
      (isNegated ? F_NEGATED : 0) | (h.isSufficient ? F_SUFFICIENT : 0) |
      (USAGE_KEYWORD_CODE[keyword]! << KEYWORD_SHIFT) | (role === null ? 0 : USAGE_ROLE_CODE[role]! << ROLE_SHIFT);
    this.ends = ends;
    this.payload = payload;
    this.satisfiedBy = satisfiedBy;
    this.about = about;
    this.body = body;
  }
  /** `assert not …` written around an inner usage declaration. */
  negate(): void {
    this[FLAGS] |= F_NEGATED;
  }
  /** The membership of a usage declared inside one (`subject v : V;` in a `require constraint`). */
  setRole(role: UsageRole): void {
    this[FLAGS] = (this[FLAGS] & ~(ROLE_MASK << ROLE_SHIFT)) | (USAGE_ROLE_CODE[role]! << ROLE_SHIFT);
  }
  get keyword(): UsageKeyword { return USAGE_KEYWORDS[(this[FLAGS] >>> KEYWORD_SHIFT) & KEYWORD_MASK]!; }
  get role(): UsageRole | null { return USAGE_ROLES[(this[FLAGS] >>> ROLE_SHIFT) & ROLE_MASK]!; }
  get isKeywordImplicit(): boolean { return (this[FLAGS] & F_KEYWORD_IMPLICIT) !== 0; }
  get isParallel(): boolean { return (this[FLAGS] & F_PARALLEL) !== 0; }
  get isNegated(): boolean { return (this[FLAGS] & F_NEGATED) !== 0; }
  get isSufficient(): boolean { return (this[FLAGS] & F_SUFFICIENT) !== 0; }
}

interface SuccessionNode extends FeatureFlags, SpannedNode {}
class SuccessionNode implements Succession {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'Succession';
  declare readonly form: Succession['form'];
  declare readonly source: ConnectorEnd | null;
  declare readonly target: ConnectorEnd | null;
  declare readonly targetMember: Member | null;
  declare readonly guard: Expression | null;
  declare readonly body: Member[] | null;
  constructor(start: number, end: number, lines: Int32Array, h: Header, form: Succession['form'], source: ConnectorEnd | null, target: ConnectorEnd | null, targetMember: Member | null, guard: Expression | null, body: Member[] | null) {
    this.kind = 'Succession';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.form = form;
    this.source = source;
    this.target = target;
    this.targetMember = targetMember;
    this.guard = guard;
    this.body = body;
  }
}

interface IfActionNode extends FeatureFlags, SpannedNode {}
class IfActionNode implements IfAction {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'IfAction';
  declare readonly condition: Expression;
  declare readonly then: Usage;
  declare readonly else: Usage | IfAction | null;
  constructor(start: number, end: number, lines: Int32Array, h: Header, condition: Expression, then: Usage, other: Usage | IfAction | null) {
    this.kind = 'IfAction';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.condition = condition;
    this.then = then;
    this.else = other;
  }
}

interface LoopActionNode extends FeatureFlags, SpannedNode {}
class LoopActionNode implements LoopAction {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'LoopAction';
  declare readonly form: 'while' | 'loop';
  declare readonly condition: Expression | null;
  declare readonly bodyAction: Usage;
  declare readonly until: Expression | null;
  constructor(start: number, end: number, lines: Int32Array, h: Header, form: 'while' | 'loop', condition: Expression | null, bodyAction: Usage, until: Expression | null) {
    this.kind = 'LoopAction';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.form = form;
    this.condition = condition;
    this.bodyAction = bodyAction;
    this.until = until;
  }
}

interface ForActionNode extends FeatureFlags, SpannedNode {}
class ForActionNode implements ForAction {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'ForAction';
  declare readonly variable: Usage;
  declare readonly collection: Expression;
  declare readonly bodyAction: Usage;
  constructor(start: number, end: number, lines: Int32Array, h: Header, variable: Usage, collection: Expression, bodyAction: Usage) {
    this.kind = 'ForAction';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.variable = variable;
    this.collection = collection;
    this.bodyAction = bodyAction;
  }
}

interface TerminateActionNode extends FeatureFlags, SpannedNode {}
class TerminateActionNode implements TerminateAction {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'TerminateAction';
  declare readonly target: Expression | null;
  declare readonly body: Member[] | null;
  constructor(start: number, end: number, lines: Int32Array, h: Header, target: Expression | null, body: Member[] | null) {
    this.kind = 'TerminateAction';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.target = target;
    this.body = body;
  }
}

interface SendActionNode extends FeatureFlags, SpannedNode {}
class SendActionNode implements SendAction {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'SendAction';
  declare readonly payload: Expression | null;
  declare readonly via: Expression | null;
  declare readonly to: Expression | null;
  declare readonly body: Member[] | null;
  constructor(start: number, end: number, lines: Int32Array, h: Header, payload: Expression | null, via: Expression | null, to: Expression | null, body: Member[] | null) {
    this.kind = 'SendAction';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.payload = payload;
    this.via = via;
    this.to = to;
    this.body = body;
  }
}

interface AssignActionNode extends FeatureFlags, SpannedNode {}
class AssignActionNode implements AssignAction {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'AssignAction';
  declare readonly target: Expression;
  declare readonly assigned: Expression;
  declare readonly body: Member[] | null;
  constructor(start: number, end: number, lines: Int32Array, h: Header, target: Expression, assigned: Expression, body: Member[] | null) {
    this.kind = 'AssignAction';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.target = target;
    this.assigned = assigned;
    this.body = body;
  }
}

interface AcceptActionNode extends FeatureFlags, SpannedNode {}
class AcceptActionNode implements AcceptAction {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'AcceptAction';
  declare readonly payload: Usage | null;
  declare readonly triggerKind: 'at' | 'after' | 'when' | null;
  declare readonly triggerExpression: Expression | null;
  declare readonly receiver: Expression | null;
  declare readonly body: Member[] | null;
  constructor(start: number, end: number, lines: Int32Array, h: Header, payload: Usage | null, triggerKind: 'at' | 'after' | 'when' | null, triggerExpression: Expression | null, receiver: Expression | null, body: Member[] | null) {
    this.kind = 'AcceptAction';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.payload = payload;
    this.triggerKind = triggerKind;
    this.triggerExpression = triggerExpression;
    this.receiver = receiver;
    this.body = body;
  }
}

interface TransitionNode extends FeatureFlags, SpannedNode {}
class TransitionNode implements Transition {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly value: FeatureValue | null;
  declare [FLAGS]: number;
  declare readonly kind: 'Transition';
  declare readonly source: Reference | null;
  declare readonly trigger: AcceptAction | null;
  declare readonly guard: Expression | null;
  declare readonly effect: Member | null;
  declare readonly target: Reference | null;
  declare readonly body: Member[] | null;
  constructor(start: number, end: number, lines: Int32Array, h: Header, source: Reference | null, trigger: AcceptAction | null, guard: Expression | null, effect: Member | null, target: Reference | null, body: Member[] | null) {
    this.kind = 'Transition';
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.value = h.value;
    this[FLAGS] = headerFlags(h);
    this.source = source;
    this.trigger = trigger;
    this.guard = guard;
    this.effect = effect;
    this.target = target;
    this.body = body;
  }
}

/** `def` declarations. */
interface DefinitionNode extends SpannedNode {}
class DefinitionNode implements Definition {
  declare readonly kind: 'Definition';
  declare readonly visibility: Visibility | null;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly name: string | null;
  declare readonly shortName: string | null;
  declare readonly keyword: DefinitionKeyword;
  declare readonly isAbstract: boolean;
  declare readonly isVariation: boolean;
  declare readonly isIndividual: boolean;
  declare readonly isSufficient: boolean;
  declare readonly isParallel: boolean;
  declare readonly relations: Relation[];
  declare readonly multiplicity: Multiplicity | null;
  declare readonly body: Member[] | null;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  constructor(start: number, end: number, lines: Int32Array, h: Header, keyword: DefinitionKeyword, isParallel: boolean, body: Member[] | null) {
    this.kind = 'Definition';
    this.visibility = h.visibility;
    this.prefixMetadata = h.prefixMetadata;
    this.name = h.name;
    this.shortName = h.shortName;
    this.keyword = keyword;
    this.isAbstract = h.isAbstract;
    this.isVariation = h.isVariation;
    this.isIndividual = h.isIndividual;
    this.isSufficient = h.isSufficient;
    this.isParallel = isParallel;
    this.relations = h.relations;
    this.multiplicity = h.multiplicity;
    this.body = body;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
    this[NAME_START] = h.nameStart;
    this[NAME_END] = h.nameEnd;
  }
}

/** A specialization-like relationship; its range is its target's unless it is conjugated (`~T`). */
const CONJUGATED_RANGE: unique symbol = Symbol('conjugatedRange');
class RelationNode implements Relation {
  declare readonly kind: 'Relation';
  declare readonly relation: RelationKind;
  declare readonly target: Reference;
  declare readonly isConjugated: boolean;
  declare readonly [CONJUGATED_RANGE]: SourceRange | null;
  constructor(relation: RelationKind, target: Reference, conjugatedRange: SourceRange | null) {
    this.kind = 'Relation';
    this.relation = relation;
    this.target = target;
    this.isConjugated = conjugatedRange !== null;
    this[CONJUGATED_RANGE] = conjugatedRange;
  }
  get range(): SourceRange {
    return this[CONJUGATED_RANGE] ?? this.target.range;
  }
  toJSON(): Relation {
    return { kind: 'Relation', relation: this.relation, target: this.target, isConjugated: this.isConjugated, range: this.range };
  }
}

/** A feature reference in an expression; its range is its name's. */
class NameNode implements NameExpression {
  declare readonly kind: 'Name';
  declare readonly name: QualifiedName;
  constructor(name: QualifiedName) {
    this.kind = 'Name';
    this.name = name;
  }
  get range(): SourceRange {
    return this.name.range;
  }
  toJSON(): NameExpression {
    return { kind: 'Name', name: this.name, range: this.range };
  }
}

interface LiteralNode extends SpannedNode {}
class LiteralNode implements LiteralExpression {
  declare readonly kind: 'Literal';
  declare readonly literal: LiteralExpression['literal'];
  declare readonly value: number | string | boolean;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(literal: LiteralExpression['literal'], value: number | string | boolean, start: number, end: number, lines: Int32Array) {
    this.kind = 'Literal';
    this.literal = literal;
    this.value = value;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

/** An integer literal a double cannot hold exactly: its digits kept, so no reader rounds it. */
class BigIntegerLiteralNode extends LiteralNode {
  declare readonly digits: string;
  constructor(digits: string, value: number, start: number, end: number, lines: Int32Array) {
    super('integer', value, start, end, lines);
    this.digits = digits;
  }
}

/** A Real literal: its digits as written (the double `value` is only the nearest to them). */
class RealLiteralNode extends LiteralNode {
  declare readonly digits: string;
  constructor(digits: string, value: number, start: number, end: number, lines: Int32Array) {
    super('real', value, start, end, lines);
    this.digits = digits;
  }
}

interface BinaryNode extends SpannedNode {}
class BinaryNode implements BinaryExpression {
  declare readonly kind: 'Binary';
  declare readonly operator: BinaryOperator;
  declare readonly left: Expression;
  declare readonly right: Expression;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(operator: BinaryOperator, left: Expression, right: Expression, start: number, end: number, lines: Int32Array) {
    this.kind = 'Binary';
    this.operator = operator;
    this.left = left;
    this.right = right;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

/** `value [unit]` */
interface QuantityNode extends SpannedNode {}
class QuantityNode implements QuantityExpression {
  declare readonly kind: 'Quantity';
  declare readonly value: Expression;
  declare readonly unit: Expression;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(value: Expression, unit: Expression, start: number, end: number, lines: Int32Array) {
    this.kind = 'Quantity';
    this.value = value;
    this.unit = unit;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

interface MultiplicityNode extends SpannedNode {}
class MultiplicityNode implements Multiplicity {
  declare readonly kind: 'Multiplicity';
  declare readonly lower: Expression | null;
  declare readonly upper: Expression;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(lower: Expression | null, upper: Expression, start: number, end: number, lines: Int32Array) {
    this.kind = 'Multiplicity';
    this.lower = lower;
    this.upper = upper;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

/** `= expr`, `:= expr`, `default …` */
interface FeatureValueNode extends SpannedNode {}
class FeatureValueNode implements FeatureValue {
  declare readonly kind: 'FeatureValue';
  declare readonly isInitial: boolean;
  declare readonly isDefault: boolean;
  declare readonly expression: Expression;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(isInitial: boolean, isDefault: boolean, expression: Expression, start: number, end: number, lines: Int32Array) {
    this.kind = 'FeatureValue';
    this.isInitial = isInitial;
    this.isDefault = isDefault;
    this.expression = expression;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

/** `(a, b)` ends of connectors and successions, `x ::> a.b`. */
interface ConnectorEndNode extends SpannedNode {}
class ConnectorEndNode implements ConnectorEnd {
  declare readonly kind: 'ConnectorEnd';
  declare readonly name: string | null;
  declare readonly target: Reference;
  declare readonly multiplicity: Multiplicity | null;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(name: string | null, target: Reference, multiplicity: Multiplicity | null, start: number, end: number, lines: Int32Array) {
    this.kind = 'ConnectorEnd';
    this.name = name;
    this.target = target;
    this.multiplicity = multiplicity;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

/** The result expression of a body, or an expression-valued member. */
interface ResultExpressionNode extends SpannedNode {}
class ResultExpressionNode implements ResultExpression {
  declare readonly kind: 'ResultExpression';
  declare readonly visibility: Visibility | null;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly expression: Expression;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(visibility: Visibility | null, expression: Expression, start: number, end: number, lines: Int32Array) {
    this.kind = 'ResultExpression';
    this.visibility = visibility;
    this.prefixMetadata = EMPTY;
    this.expression = expression;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

/** `entry …`, `do …`, `exit …` of a state. */
interface StateSubactionNode extends SpannedNode {}
class StateSubactionNode implements StateSubaction {
  declare readonly kind: 'StateSubaction';
  declare readonly visibility: Visibility | null;
  declare readonly prefixMetadata: QualifiedName[];
  declare readonly which: StateSubaction['which'];
  declare readonly action: Member | null;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(visibility: Visibility | null, which: StateSubaction['which'], action: Member | null, start: number, end: number, lines: Int32Array) {
    this.kind = 'StateSubaction';
    this.visibility = visibility;
    this.prefixMetadata = EMPTY;
    this.which = which;
    this.action = action;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

/** An argument of an invocation, `x` or `name = x`. */
interface ArgumentNode extends SpannedNode {}
class ArgumentNode implements Argument {
  declare readonly kind: 'Argument';
  declare readonly name: string | null;
  declare readonly value: Expression;
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  constructor(name: string | null, value: Expression, start: number, end: number, lines: Int32Array) {
    this.kind = 'Argument';
    this.name = name;
    this.value = value;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lines;
  }
}

/** Copies the getters (and `toJSON`) of `source` onto `target`'s prototype where it has none. */
function mixIn(target: { prototype: object }, source: { prototype: object }): void {
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(source.prototype))) {
    if (key !== 'constructor' && !Object.prototype.hasOwnProperty.call(target.prototype, key)) Object.defineProperty(target.prototype, key, d);
  }
}
// The shared getters on each class's prototype: flags first (its toJSON writes flags and ranges).
for (const node of [UsageNode, SuccessionNode, IfActionNode, LoopActionNode, ForActionNode, TerminateActionNode, SendActionNode, AssignActionNode, AcceptActionNode, TransitionNode]) {
  mixIn(node, FeatureFlags);
  mixIn(node, SpannedNode);
}
for (const node of [
  DefinitionNode, LiteralNode, BinaryNode, QuantityNode, MultiplicityNode, FeatureValueNode, ConnectorEndNode, ResultExpressionNode,
  StateSubactionNode, ArgumentNode,
]) mixIn(node, SpannedNode);

// One live object of each class made per text (see KEEP_SHAPES in lexer.ts): without them a full
// collection after the last tree is dropped takes the classes' hidden classes, and every parser
// function loses its type feedback and runs unoptimized until compiled again.
const KEEP_SHAPES: readonly object[] = (() => {
  const h = new Header(0, null);
  const lines = new Int32Array(1);
  const r = new TextRange(0, 0, lines);
  const missing: Expression = { kind: 'Missing', range: r };
  const usage = new UsageNode(0, 0, lines, h, 'ref', true, null, null, null, null, EMPTY, false, false, null);
  const name = new ParsedQualifiedName(EMPTY, null, false, 0, 0, lines);
  return [
    new Parser(tokenize('', 'sysml')), h, r, name, usage,
    new SuccessionNode(0, 0, lines, h, 'then', null, null, null, null, null),
    new IfActionNode(0, 0, lines, h, missing, usage, null),
    new LoopActionNode(0, 0, lines, h, 'loop', null, usage, null),
    new ForActionNode(0, 0, lines, h, usage, missing, usage),
    new TerminateActionNode(0, 0, lines, h, null, null),
    new SendActionNode(0, 0, lines, h, null, null, null, null),
    new AssignActionNode(0, 0, lines, h, missing, missing, null),
    new AcceptActionNode(0, 0, lines, h, null, null, null, null, null),
    new TransitionNode(0, 0, lines, h, null, null, null, null, null, null),
    new DefinitionNode(0, 0, lines, h, 'part', false, null),
    new RelationNode('typing', name, null),
    new NameNode(name),
    new LiteralNode('integer', 0, 0, 0, lines),
    new BinaryNode('+', missing, missing, 0, 0, lines),
    new QuantityNode(missing, missing, 0, 0, lines),
    new MultiplicityNode(null, missing, 0, 0, lines),
    new FeatureValueNode(false, false, missing, 0, 0, lines),
    new ConnectorEndNode(null, name, null, 0, 0, lines),
    new ResultExpressionNode(null, missing, 0, 0, lines),
    new StateSubactionNode(null, 'entry', null, 0, 0, lines),
    new ArgumentNode(null, missing, 0, 0, lines),
  ];
})();
void KEEP_SHAPES;
