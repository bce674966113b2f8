// Lexer for SysML v2 and KerML text. One pass over char codes into parallel typed arrays (no object
// per token); identifier text is sliced only to look keywords up. Regular comments `/* … */` are
// model elements in this language, so they are kept on a side list with the index of the token that
// follows them; line notes `//` and `//* … */` are dropped.

import * as ast from './ast';
import type { Language, SyntaxDiagnostic } from './ast';

// Local copies: under per-file transpilation (tsx) an imported binding is a property read of the other
// module's exports object on every use, which also keeps the lexer's loop from being optimized.
const { TextRange, lineStartsOf } = ast;

// Token kinds. Punctuation and literals first, keywords from KW_BASE on.
export const EOF = 0;
export const IDENT = 1; // basic name or unrestricted name '…'
export const INTEGER = 2;
export const REAL = 3;
export const STRING = 4;
export const LBRACE = 5;
export const RBRACE = 6;
export const LBRACK = 7;
export const RBRACK = 8;
export const LPAREN = 9;
export const RPAREN = 10;
export const SEMI = 11;
export const COMMA = 12;
export const COLON = 13; // :
export const COLON2 = 14; // ::
export const COLON_GT = 15; // :>
export const COLON_GT2 = 16; // :>>
export const COLON2_GT = 17; // ::>
export const COLON_EQ = 18; // :=
export const EQ = 19; // =
export const EQ2 = 20; // ==
export const EQ3 = 21; // ===
export const NE = 22; // !=
export const NE2 = 23; // !==
export const LT = 24;
export const GT = 25;
export const LE = 26;
export const GE = 27;
export const FAT_ARROW = 28; // =>
export const DOT = 29;
export const DOT2 = 30; // ..
export const DOT_Q = 31; // .?
export const ARROW = 32; // ->
export const PLUS = 33;
export const MINUS = 34;
export const STAR = 35;
export const STAR2 = 36; // **
export const SLASH = 37;
export const PERCENT = 38;
export const CARET = 39;
export const TILDE = 40;
export const AT = 41;
export const AT2 = 42; // @@
export const HASH = 43;
export const DOLLAR = 44;
export const QUESTION = 45;
export const QUESTION2 = 46; // ??
export const AMP = 47;
export const PIPE = 48;
export const BANG = 49; // lone '!' (not a token of the language; reported by the parser)
export const UNKNOWN = 50; // any other character
export const KW_BASE = 64;

const PUNCT_TEXT: string[] = [];
PUNCT_TEXT[EOF] = 'end of file';
PUNCT_TEXT[IDENT] = 'name';
PUNCT_TEXT[INTEGER] = 'integer';
PUNCT_TEXT[REAL] = 'real';
PUNCT_TEXT[STRING] = 'string';
const punct: Array<[number, string]> = [
  [LBRACE, '{'], [RBRACE, '}'], [LBRACK, '['], [RBRACK, ']'], [LPAREN, '('], [RPAREN, ')'], [SEMI, ';'],
  [COMMA, ','], [COLON, ':'], [COLON2, '::'], [COLON_GT, ':>'], [COLON_GT2, ':>>'], [COLON2_GT, '::>'],
  [COLON_EQ, ':='], [EQ, '='], [EQ2, '=='], [EQ3, '==='], [NE, '!='], [NE2, '!=='], [LT, '<'], [GT, '>'],
  [LE, '<='], [GE, '>='], [FAT_ARROW, '=>'], [DOT, '.'], [DOT2, '..'], [DOT_Q, '.?'], [ARROW, '->'],
  [PLUS, '+'], [MINUS, '-'], [STAR, '*'], [STAR2, '**'], [SLASH, '/'], [PERCENT, '%'], [CARET, '^'],
  [TILDE, '~'], [AT, '@'], [AT2, '@@'], [HASH, '#'], [DOLLAR, '$'], [QUESTION, '?'], [QUESTION2, '??'],
  [AMP, '&'], [PIPE, '|'], [BANG, '!'], [UNKNOWN, 'character'],
];
for (const [k, t] of punct) PUNCT_TEXT[k] = t;

// Reserved words of each language (KerML clause 8.2.2.6 and SysML clause 8.2.2.1.2).
const KERML_WORDS = (
  'about abstract alias all and as assoc behavior binding bool by chains class classifier comment composite ' +
  'conjugate conjugates conjugation connector const crosses datatype default dependency derived differences ' +
  'disjoining disjoint doc else end expr false feature featured featuring filter first flow for from function ' +
  'hastype if implies import in inout interaction intersects inv inverse inverting istype language library ' +
  'locale member meta metaclass metadata multiplicity namespace nonunique not null of or ordered out package ' +
  'portion predicate private protected public redefines redefinition references rep return specialization ' +
  'specializes standard step struct subclassifier subset subsets subtype succession then to true type typed ' +
  'typing unions var xor'
).split(' ');
const SYSML_WORDS = (
  'about abstract accept action actor after alias all allocate allocation analysis and as assert assign assume ' +
  'at attribute bind binding by calc case comment concern connect connection constant constraint crosses decide ' +
  'def default defined dependency derived do doc else end entry enum event exhibit exit expose false filter ' +
  'first flow for fork frame from hastype if implies import in include individual inout interface istype item ' +
  'join language library locale loop merge message meta metadata nonunique not null objective occurrence of or ' +
  'ordered out package parallel part perform port private protected public redefines ref references render ' +
  'rendering rep require requirement return satisfy send snapshot specializes stakeholder standard state ' +
  'subject subsets succession terminate then timeslice to transition true until use variant variation ' +
  'verification verify via view viewpoint when while xor'
).split(' ');

/** Every keyword of either language, in one numbering. */
export const KEYWORDS: readonly string[] = [...new Set([...SYSML_WORDS, ...KERML_WORDS])].sort();

function keywordList(words: string[]): Array<[string, number]> {
  return words.map((w) => [w, KW_BASE + KEYWORDS.indexOf(w)]);
}
const SYSML_KEYWORDS = keywordList(SYSML_WORDS);
const KERML_KEYWORDS = keywordList(KERML_WORDS);

function wordHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Open-addressing table of the words of one text: keywords (seeded) and names (interned as met),
 * probed with the hash computed while scanning, so a word is sliced out of the text only the first
 * time it occurs. Values: a keyword's token kind, or -(1 + index in `names`) for a name. */
class WordTable {
  private mask: number;
  private hashes: Int32Array;
  private values: Int32Array;
  private texts: string[];
  private size = 0;
  readonly names: string[] = [];

  /** A table seeded with `keywords`, or a copy of `from` (its arrays copied, its names not kept). */
  constructor(keywords: Array<[string, number]>, from: WordTable | null = null) {
    if (from !== null) {
      this.mask = from.mask;
      this.hashes = from.hashes.slice();
      this.values = from.values.slice();
      this.texts = from.texts.slice();
      this.size = from.size;
      return;
    }
    const cap = 1024;
    this.mask = cap - 1;
    this.hashes = new Int32Array(cap);
    this.values = new Int32Array(cap);
    this.texts = new Array<string>(cap).fill('');
    for (const [w, kind] of keywords) this.insert(wordHash(w), w, kind);
  }

  /** A fresh table of a text: a copy of the language's keywords-only table, seeded once per
   * process (copying three arrays instead of hashing and inserting ~200 keywords per file). */
  static forLanguage(keywords: Array<[string, number]>): WordTable {
    let seeded = SEEDED.get(keywords);
    if (seeded === undefined) SEEDED.set(keywords, (seeded = new WordTable(keywords)));
    return new WordTable(keywords, seeded);
  }

  private insert(h: number, text: string, value: number): void {
    if ((this.size + 1) * 2 > this.mask) this.grow();
    let i = h & this.mask;
    while (this.values[i] !== 0) i = (i + 1) & this.mask;
    this.hashes[i] = h;
    this.values[i] = value;
    this.texts[i] = text;
    this.size++;
  }

  private grow(): void {
    const { hashes, values, texts } = this;
    const cap = (this.mask + 1) * 2;
    this.mask = cap - 1;
    this.hashes = new Int32Array(cap);
    this.values = new Int32Array(cap);
    this.texts = new Array<string>(cap).fill('');
    this.size = 0;
    for (let i = 0; i < values.length; i++) if (values[i] !== 0) this.insert(hashes[i]!, texts[i]!, values[i]!);
  }

  /** The value of the word `source[start, end)` with hash `h`, adding it as a name when new. */
  lookup(source: string, start: number, end: number, h: number): number {
    const len = end - start;
    let i = h & this.mask;
    for (;;) {
      const v = this.values[i]!;
      if (v === 0) break;
      if (this.hashes[i] === h) {
        const t = this.texts[i]!;
        if (t.length === len && sameText(source, start, t)) return v;
      }
      i = (i + 1) & this.mask;
    }
    const text = source.slice(start, end);
    const value = -this.names.push(text);
    this.insert(h, text, value);
    return value;
  }
}

/** Each language's table holding only its keywords (never given to a text: `forLanguage` copies it). */
const SEEDED = new Map<Array<[string, number]>, WordTable>();

function sameText(source: string, start: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (source.charCodeAt(start + k) !== text.charCodeAt(k)) return false;
  return true;
}

/** Token kind of each keyword: `K.part`, `K.def` … (a keyword reserved only in the other language
 * still has a kind; the lexer produces it only for the language that reserves it). */
export const K: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(KEYWORDS.map((w, i) => [w, KW_BASE + i])),
);

export function tokenKindText(kind: number): string {
  if (kind >= KW_BASE) return KEYWORDS[kind - KW_BASE] ?? 'keyword';
  return PUNCT_TEXT[kind] ?? 'token';
}

/** A character as an error message shows it: quoted when it prints, by code point when it is a
 * control or invisible character (a NUL byte must not reach the terminal); U+FFFD is what a byte
 * that is not UTF-8 was read as. */
function describeCharacter(ch: string): string {
  const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  if (ch === '\uFFFD') return `${code} (the file is not UTF-8 text here)`;
  return /^[\p{Cc}\p{Cf}\p{Z}\p{Co}\p{Cn}]$/u.test(ch) ? code : `'${ch}'`;
}

/** A regular comment `/* … *\/`, kept because comments are model elements. */
export class CommentToken extends TextRange {
  /** Index of the first token after the comment. */
  declare readonly beforeToken: number;
  constructor(start: number, end: number, lineStarts: Int32Array, beforeToken: number) {
    super(start, end, lineStarts);
    this.beforeToken = beforeToken;
  }
}

export interface TokenStream {
  readonly source: string;
  readonly language: Language;
  /** Number of tokens, the final EOF included. */
  readonly count: number;
  readonly kinds: Uint16Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Offsets where the lines of the text start (the first is 0); see `lineAt`. */
  readonly lineStarts: Int32Array;
  /** 1-based line and column of each token's start (computed from `lineStarts` on first use). */
  readonly lines: Int32Array;
  readonly columns: Int32Array;
  readonly comments: CommentToken[];
  readonly errors: SyntaxDiagnostic[];
  /** For a basic-name token, 1 + its index in `names`; 0 for other tokens and for '…' names.
   * (A token never spans lines, so its end is on its start line at column + length.) */
  readonly nameIds: Int32Array;
  /** Distinct basic names of the text, each string shared by all its occurrences. */
  readonly names: readonly string[];
  readonly lineCount: number;
}

class Tokens implements TokenStream {
  #lines: Int32Array | null = null;
  #columns: Int32Array | null = null;
  constructor(
    readonly source: string,
    readonly language: Language,
    readonly count: number,
    readonly kinds: Uint16Array,
    readonly starts: Int32Array,
    readonly ends: Int32Array,
    readonly nameIds: Int32Array,
    readonly names: readonly string[],
    readonly lineStarts: Int32Array,
    readonly comments: CommentToken[],
    readonly errors: SyntaxDiagnostic[],
    readonly lineCount: number,
  ) {}
  get lines(): Int32Array {
    if (this.#lines === null) this.positions();
    return this.#lines!;
  }
  get columns(): Int32Array {
    if (this.#columns === null) this.positions();
    return this.#columns!;
  }
  private positions(): void {
    const lines = new Int32Array(this.count);
    const columns = new Int32Array(this.count);
    const ls = this.lineStarts;
    let line = 0; // index into lineStarts
    for (let t = 0; t < this.count; t++) {
      const s = this.starts[t]!;
      while (line + 1 < ls.length && ls[line + 1]! <= s) line++;
      lines[t] = line + 1;
      columns[t] = s - ls[line]! + 1;
    }
    this.#lines = lines;
    this.#columns = columns;
  }
}

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c > 127 && isUnicodeLetter(c));
}
function isIdentPart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c >= 48 && c <= 57) || (c > 127 && isUnicodeLetter(c));
}
// The grammar allows ASCII letters only; accepting other letters keeps a stray 'é' from splitting a name.
const LETTER = /\p{L}/u;
function isUnicodeLetter(c: number): boolean {
  return LETTER.test(String.fromCharCode(c));
}

// Token kind of each single-character punctuation that is never the start of a longer token.
const SINGLE = new Uint8Array(128);
SINGLE[123] = LBRACE; SINGLE[125] = RBRACE; SINGLE[91] = LBRACK; SINGLE[93] = RBRACK; SINGLE[40] = LPAREN;
SINGLE[41] = RPAREN; SINGLE[59] = SEMI; SINGLE[44] = COMMA; SINGLE[43] = PLUS; SINGLE[37] = PERCENT;
SINGLE[94] = CARET; SINGLE[126] = TILDE; SINGLE[35] = HASH; SINGLE[36] = DOLLAR; SINGLE[38] = AMP; SINGLE[124] = PIPE;

export function tokenize(source: string, language: Language): TokenStream {
  const n = source.length;
  const words = WordTable.forLanguage(language === 'kerml' ? KERML_KEYWORDS : SYSML_KEYWORDS);
  const lineStarts = lineStartsOf(source);
  // Rough capacity: one token per 4 characters, grown on demand.
  let cap = Math.max(64, (n >> 2) + 16);
  let kinds = new Uint16Array(cap);
  let starts = new Int32Array(cap);
  let ends = new Int32Array(cap);
  let nameIds = new Int32Array(cap);
  let count = 0;
  // Comments and errors are collected as plain data and made into objects after the loop: making
  // class instances inside it kept the loop from being compiled under per-file transpilation (tsx).
  const commentSpans: number[] = [];
  const errorSpans: Array<{ message: string; start: number; end: number }> = [];

  let i = 0;
  while (i < n) {
    const c = source.charCodeAt(i);
    // White space and line terminators (lines are counted by lineStartsOf).
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 0xfeff /* byte-order mark */) { i++; continue; }
    const start = i;
    let kind: number;
    if (c < 128 && SINGLE[c] !== 0) {
      kind = SINGLE[c]!;
      i++;
    } else if (isIdentStart(c)) {
      let h = c;
      i++;
      for (; i < n; i++) {
        const d = source.charCodeAt(i);
        if (!isIdentPart(d)) break;
        h = (Math.imul(h, 31) + d) | 0;
      }
      const v = words.lookup(source, start, i, h);
      if (v > 0) kind = v;
      else {
        // A name: one string per distinct name, shared by every occurrence.
        if (count === cap) {
          cap *= 2;
          kinds = grownTo(kinds, new Uint16Array(cap));
          starts = grownTo(starts, new Int32Array(cap));
          ends = grownTo(ends, new Int32Array(cap));
          nameIds = grownTo(nameIds, new Int32Array(cap));
        }
        nameIds[count] = -v;
        kind = IDENT;
      }
    } else if (c >= 48 && c <= 57) {
      i++;
      while (i < n && isDigit(source.charCodeAt(i))) i++;
      kind = INTEGER;
      if (i + 1 < n && source.charCodeAt(i) === 46 && isDigit(source.charCodeAt(i + 1))) {
        i += 2;
        while (i < n && isDigit(source.charCodeAt(i))) i++;
        kind = REAL;
      }
      if (exponentAt(source, i, n)) {
        i = skipExponent(source, i, n);
        kind = REAL;
      }
    } else {
      const c1 = i + 1 < n ? source.charCodeAt(i + 1) : 0;
      const c2 = i + 2 < n ? source.charCodeAt(i + 2) : 0;
      switch (c) {
        case 47: // /
          if (c1 === 47) {
            if (c2 === 42) {
              // //* multi-line note */
              const close = source.indexOf('*/', i + 3);
              i = close < 0 ? n : close + 2;
              if (close < 0) errorSpans.push({ message: "unterminated note: expected '*/'", start: start, end: n });
              continue;
            }
            // single-line note
            i += 2;
            while (i < n) {
              const d = source.charCodeAt(i);
              if (d === 10 || d === 13) break;
              i++;
            }
            continue;
          }
          if (c1 === 42) {
            const close = source.indexOf('*/', i + 2);
            i = close < 0 ? n : close + 2;
            if (close < 0) errorSpans.push({ message: "unterminated comment: expected '*/'", start: start, end: n });
            commentSpans.push(start, i, count);
            continue;
          }
          i++; kind = SLASH; break;
        case 34: // "
          i = quotedEnd(source, i, 34);
          if (i < 0) {
            i = ~i;
            errorSpans.push({ message: "unterminated string: expected '\"'", start: start, end: i });
          }
          kind = STRING;
          break;
        case 39: // '
          i = quotedEnd(source, i, 39);
          if (i < 0) {
            i = ~i;
            errorSpans.push({ message: "unterminated name: expected \"'\"", start: start, end: i });
          }
          kind = IDENT;
          break;
        case 58: // :
          if (c1 === 58) {
            if (c2 === 62) { i += 3; kind = COLON2_GT; break; }
            i += 2; kind = COLON2; break;
          }
          if (c1 === 62) {
            if (c2 === 62) { i += 3; kind = COLON_GT2; break; }
            i += 2; kind = COLON_GT; break;
          }
          if (c1 === 61) { i += 2; kind = COLON_EQ; break; }
          i++; kind = COLON; break;
        case 61: // =
          if (c1 === 61) {
            if (c2 === 61) { i += 3; kind = EQ3; break; }
            i += 2; kind = EQ2; break;
          }
          if (c1 === 62) { i += 2; kind = FAT_ARROW; break; }
          i++; kind = EQ; break;
        case 33: // !
          if (c1 === 61) {
            if (c2 === 61) { i += 3; kind = NE2; break; }
            i += 2; kind = NE; break;
          }
          i++; kind = BANG; break;
        case 60: // <
          if (c1 === 61) { i += 2; kind = LE; break; }
          i++; kind = LT; break;
        case 62: // >
          if (c1 === 61) { i += 2; kind = GE; break; }
          i++; kind = GT; break;
        case 46: // .
          if (c1 === 46) { i += 2; kind = DOT2; break; }
          if (c1 === 63) { i += 2; kind = DOT_Q; break; }
          if (isDigit(c1) && !endsOperand(count > 0 ? kinds[count - 1]! : EOF)) {
            // .5 and .5e3 are reals
            i += 2;
            while (i < n && isDigit(source.charCodeAt(i))) i++;
            if (exponentAt(source, i, n)) i = skipExponent(source, i, n);
            kind = REAL;
            break;
          }
          i++; kind = DOT; break;
        case 45: // -
          if (c1 === 62) { i += 2; kind = ARROW; break; }
          i++; kind = MINUS; break;
        case 42: // *
          if (c1 === 42) { i += 2; kind = STAR2; break; }
          i++; kind = STAR; break;
        case 64: // @
          if (c1 === 64) { i += 2; kind = AT2; break; }
          i++; kind = AT; break;
        case 63: // ?
          if (c1 === 63) { i += 2; kind = QUESTION2; break; }
          i++; kind = QUESTION; break;
        default: {
          // Unknown character (a surrogate pair counts as one).
          i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
          errorSpans.push({ message: `unexpected character ${describeCharacter(source.slice(start, i))}`, start: start, end: i });
          continue;
        }
      }
    }
    if (count === cap) {
      cap *= 2;
      kinds = grownTo(kinds, new Uint16Array(cap));
      starts = grownTo(starts, new Int32Array(cap));
      ends = grownTo(ends, new Int32Array(cap));
      nameIds = grownTo(nameIds, new Int32Array(cap));
    }
    kinds[count] = kind;
    starts[count] = start;
    ends[count] = i;
    count++;
  }
  if (count === cap) {
    cap += 1;
    kinds = grownTo(kinds, new Uint16Array(cap));
    starts = grownTo(starts, new Int32Array(cap));
    ends = grownTo(ends, new Int32Array(cap));
    nameIds = grownTo(nameIds, new Int32Array(cap));
  }
  kinds[count] = EOF;
  starts[count] = n;
  ends[count] = n;
  count++;
  const lastLine = lineStarts.length;
  return new Tokens(
    source, language, count, kinds, starts, ends, nameIds, words.names, lineStarts, commentTokens(commentSpans, lineStarts),
    lexErrors(errorSpans, lineStarts),
    // A final line terminator ends the last line rather than starting an empty one (as `wc -l`).
    n === 0 ? 0 : lineStarts[lastLine - 1] === n ? lastLine - 1 : lastLine,
  );
}

function commentTokens(spans: number[], lineStarts: Int32Array): CommentToken[] {
  const out: CommentToken[] = [];
  for (let k = 0; k < spans.length; k += 3) out.push(new CommentToken(spans[k]!, spans[k + 1]!, lineStarts, spans[k + 2]!));
  return out;
}

function lexErrors(spans: Array<{ message: string; start: number; end: number }>, lineStarts: Int32Array): SyntaxDiagnostic[] {
  return spans.map((e) => ({ message: e.message, range: new TextRange(e.start, e.end, lineStarts) }));
}

function grownTo<T extends Uint16Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}


// One live object of each class made per text. V8 keeps an object's hidden class only while some
// object has it; when a full collection finds none (every earlier result dropped), the class goes,
// the compiled lexer's type feedback with it, and the next text is lexed by unoptimized code that
// must be compiled again (several times slower).
const KEEP_SHAPES: readonly object[] = [
  new WordTable(SYSML_KEYWORDS),
  new Tokens('', 'sysml', 0, new Uint16Array(0), new Int32Array(0), new Int32Array(0), new Int32Array(0), [], new Int32Array(1), [], [], 0),
  new CommentToken(0, 0, new Int32Array(1), 0),
];
void KEEP_SHAPES;

/** End of the quoted text ("…" or '…', backslash escapes) opened at `i`; `~end` when unterminated
 * (a name or string does not span lines; a line terminator is never escaped). */
function quotedEnd(source: string, i: number, quote: number): number {
  const n = source.length;
  i++;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === quote) return i + 1;
    if (c === 92 /* \ */) {
      const e = i + 1 < n ? source.charCodeAt(i + 1) : 0;
      if (e === 10 || e === 13) return ~(i + 1);
      i += 2;
      continue;
    }
    if (c === 10 || c === 13) return ~i;
    i++;
  }
  return ~Math.min(i, n);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function exponentAt(s: string, i: number, n: number): boolean {
  if (i >= n) return false;
  const e = s.charCodeAt(i);
  if (e !== 101 && e !== 69) return false;
  const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
  if (isDigit(d)) return true;
  return (d === 43 || d === 45) && i + 2 < n && isDigit(s.charCodeAt(i + 2));
}
function skipExponent(s: string, i: number, n: number): number {
  i++;
  const d = s.charCodeAt(i);
  if (d === 43 || d === 45) i++;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  return i;
}
/** Whether a token of this kind can end an operand (then a following '.5' is '.' '5', not a real). */
function endsOperand(kind: number): boolean {
  return kind === IDENT || kind === RPAREN || kind === RBRACK || kind === INTEGER || kind === REAL;
}

/** The name an identifier token denotes: unrestricted names lose their quotes and escapes. */
export function nameText(source: string, start: number, end: number): string {
  if (source.charCodeAt(start) !== 39) return source.slice(start, end);
  const close = end - 1 > start && source.charCodeAt(end - 1) === 39 ? end - 1 : end;
  return unescape(source, start + 1, close);
}

/** The value of a string literal token (quotes removed, escapes resolved). */
export function stringValue(source: string, start: number, end: number): string {
  const close = end - 1 > start && source.charCodeAt(end - 1) === 34 ? end - 1 : end;
  return unescape(source, start + 1, close);
}

function unescape(source: string, from: number, to: number): string {
  const bs = source.indexOf('\\', from);
  if (bs < 0 || bs >= to) return source.slice(from, to);
  let out = '';
  let i = from;
  while (i < to) {
    const c = source.charCodeAt(i);
    if (c === 92 && i + 1 < to) {
      const e = source.charCodeAt(i + 1);
      out += e === 110 ? '\n' : e === 116 ? '\t' : e === 114 ? '\r' : e === 102 ? '\f' : e === 118 ? '\v' : e === 98 ? '\b' : source[i + 1];
      i += 2;
      continue;
    }
    out += source[i];
    i++;
  }
  return out;
}

/** The text of a comment without delimiters: `/*`, `*\/` and a leading `*` on continuation lines. */
export function commentText(source: string, start: number, end: number): string {
  const closed = end - start >= 4 && source.charCodeAt(end - 1) === 47 && source.charCodeAt(end - 2) === 42;
  const body = source.slice(start + 2, closed ? end - 2 : end);
  if (body.indexOf('\n') < 0) return body.trim();
  // A string split where there is no '\r' (the same lines; a regular expression split is several times slower).
  const lines = body.indexOf('\r') < 0 ? body.split('\n') : body.split(/\r\n|\r|\n/);
  for (let k = 0; k < lines.length; k++) {
    let t = lines[k]!.trim();
    if (k > 0 && t.charCodeAt(0) === 42 /* * */) t = t.slice(1).trimStart();
    lines[k] = t;
  }
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}
