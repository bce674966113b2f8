// The syntax tree of SysML v2 and KerML textual notation, as the parser builds it.
//
// Three consumers shape it: the name resolver (qualified names, memberships, imports, visibility and
// every specialization as a reference with its range), the evaluator (the whole expression grammar
// as expression nodes, feature values, multiplicities) and behaviour lowering (successions,
// transitions, control nodes, action nodes, state subactions). Every node is a plain object with a
// `kind` discriminant and a `range`. Fields are always present (null / empty array when absent) so
// that objects of one kind share one shape.

/** Where a node sits in its text. Offsets are 0-based UTF-16 indices (end exclusive); lines and
 * columns are 1-based for display (`file:line:column`). The end position is that of `end`. */
export interface SourceRange {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** Hidden (symbol-keyed) fields of the parser's objects: not in `Object.keys`, JSON or `for … in`. */
const LINE_STARTS: unique symbol = Symbol('lineStarts');
const STARTS: unique symbol = Symbol('segmentStarts');

/** The ranges the parser builds: `start` and `end` are stored, lines and columns are looked up in
 * the text's table of line starts when read (a tree holds hundreds of thousands of ranges and
 * almost none of them is ever shown). `JSON.stringify` gives all six fields. Only own fields
 * (`start`, `end`) survive `structuredClone`: send source text to another thread, not trees. */
export class TextRange implements SourceRange {
  // Fields are `declare`d and set in the constructor: emitted class fields (and #private ones) are
  // defined one by one at construction, several times slower for objects made by the hundred thousand.
  declare readonly start: number;
  declare readonly end: number;
  declare readonly [LINE_STARTS]: Int32Array;

  constructor(start: number, end: number, lineStarts: Int32Array) {
    this.start = start;
    this.end = end;
    this[LINE_STARTS] = lineStarts;
  }
  get line(): number {
    return lineAt(this[LINE_STARTS], this.start);
  }
  get column(): number {
    const starts = this[LINE_STARTS];
    return this.start - starts[lineAt(starts, this.start) - 1]! + 1;
  }
  get endLine(): number {
    return lineAt(this[LINE_STARTS], this.end);
  }
  get endColumn(): number {
    const starts = this[LINE_STARTS];
    return this.end - starts[lineAt(starts, this.end) - 1]! + 1;
  }
  toJSON(): SourceRange {
    return { start: this.start, end: this.end, line: this.line, column: this.column, endLine: this.endLine, endColumn: this.endColumn };
  }
}

/** The text a range was parsed from, as an identity: two ranges the parser made from one text give
 * the same object (the text's table of line starts), ranges of different texts different ones, and a
 * range made by hand undefined. Ranges are made when read (see SpannedNode), so they have no
 * identity of their own: this is how to tell which document a range belongs to. */
export function sourceOf(range: SourceRange): object | undefined {
  return range instanceof TextRange ? range[LINE_STARTS] : undefined;
}

// Hidden fields of the parser's node classes: the node's range (and its name's) as offsets, made
// into a TextRange only when read. A tree holds a range per node and one per name, and almost none
// is ever read; as objects they were a third of the objects of a tree and a third of its memory.
export const SPAN_START: unique symbol = Symbol('start');
export const SPAN_END: unique symbol = Symbol('end');
export const SPAN_LINES: unique symbol = Symbol('lineStarts');
/** Start and end of the node's name; -1 when it has none. */
export const NAME_START: unique symbol = Symbol('nameStart');
export const NAME_END: unique symbol = Symbol('nameEnd');

/** The `range` and `nameRange` getters of node classes that keep their spans as offsets, and a
 * `toJSON` that writes them out. Not a base class: the parser copies these onto each class's
 * prototype (see `mixIn` in parser.ts). */
export abstract class SpannedNode {
  declare [SPAN_START]: number;
  declare [SPAN_END]: number;
  declare [SPAN_LINES]: Int32Array;
  declare [NAME_START]: number;
  declare [NAME_END]: number;
  get range(): SourceRange {
    return new TextRange(this[SPAN_START], this[SPAN_END], this[SPAN_LINES]);
  }
  get nameRange(): SourceRange | null {
    const s = this[NAME_START];
    return s === undefined || s < 0 ? null : new TextRange(s, this[NAME_END], this[SPAN_LINES]);
  }
  /** The node as plain data, its ranges included (a name range only on nodes that can be named). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { ...(this as object) };
    out.range = this.range;
    if (this[NAME_START] !== undefined) out.nameRange = this.nameRange;
    return out;
  }
}

/** 1-based line of `offset` in a text whose line start offsets (ascending, the first 0) are given. */
export function lineAt(lineStarts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Offsets where the lines of `text` start (after each `\n`, `\r\n` or lone `\r`); the first is 0. */
export function lineStartsOf(text: string): Int32Array {
  let starts = new Int32Array(Math.max(16, (text.length >> 5) + 1));
  let count = 1; // starts[0] = 0
  const n = text.length;
  const crlf = text.indexOf('\r') >= 0;
  for (let i = crlf ? 0 : text.indexOf('\n'); i >= 0 && i < n; i = crlf ? i + 1 : text.indexOf('\n', i + 1)) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (i + 1 < n && text.charCodeAt(i + 1) === 10) i++;
    } else if (c !== 10) continue;
    if (count === starts.length) {
      const grown = new Int32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[count++] = i + 1;
  }
  return starts.slice(0, count);
}

export type Language = 'sysml' | 'kerml';

/** A syntax error. The parser never throws: every problem in a text is one of these. */
export interface SyntaxDiagnostic {
  readonly message: string;
  readonly range: SourceRange;
}

/** A construct of OpenSysML's notation, outside the SysML v2 grammar, that the parser read as the
 * standard spelling it names (never silently: each one is a warning with its place). */
export interface NotationWarning extends SyntaxDiagnostic {
  readonly code: 'nonstandard-notation';
  /** The SysML v2 spelling the construct was read as. */
  readonly standard: string;
}

export interface ParseResult {
  readonly document: Document;
  readonly errors: SyntaxDiagnostic[];
  /** OpenSysML constructs read as their standard spelling, in text order. */
  readonly warnings: NotationWarning[];
  /** Number of lines of the text; a final line terminator does not start another line (`wc -l`
   * plus one for an unterminated last line); 0 for an empty text. */
  readonly lineCount: number;
}

export interface Document {
  readonly kind: 'Document';
  readonly language: Language;
  readonly members: Member[];
  readonly range: SourceRange;
}

// ---------------------------------------------------------------------------------------------
// References

/** `A::B::'c d'`. Segments hold the names with unrestricted-name quotes and escapes resolved. */
export interface QualifiedName {
  readonly kind: 'QualifiedName';
  readonly segments: string[];
  /** Start offset of each segment (parallel to `segments`), for go-to-definition and renames. */
  readonly segmentStarts: number[];
  /** Written with the global scope prefix `$::`. */
  readonly isGlobal: boolean;
  readonly range: SourceRange;
}

/** The qualified names the parser builds. Most names have one segment, which starts where the name
 * does: for those no array of starts is kept, `segmentStarts` makes one when read. The range is kept
 * as offsets (see SpannedNode). */
export class ParsedQualifiedName implements QualifiedName {
  declare readonly kind: 'QualifiedName';
  declare readonly segments: string[];
  declare readonly isGlobal: boolean;
  /** Start of each segment; null for a single segment that starts at the name's start. */
  declare readonly [STARTS]: number[] | null;
  declare readonly [SPAN_START]: number;
  declare readonly [SPAN_END]: number;
  declare readonly [SPAN_LINES]: Int32Array;

  constructor(segments: string[], starts: number[] | null, isGlobal: boolean, start: number, end: number, lineStarts: Int32Array) {
    this.kind = 'QualifiedName';
    this.segments = segments;
    this.isGlobal = isGlobal;
    this[STARTS] = starts;
    this[SPAN_START] = start;
    this[SPAN_END] = end;
    this[SPAN_LINES] = lineStarts;
  }
  get range(): SourceRange {
    return new TextRange(this[SPAN_START], this[SPAN_END], this[SPAN_LINES]);
  }
  get segmentStarts(): number[] {
    return this[STARTS] ?? [this[SPAN_START]];
  }
  toJSON(): QualifiedName {
    return { kind: 'QualifiedName', segments: this.segments, segmentStarts: this.segmentStarts, isGlobal: this.isGlobal, range: this.range };
  }
}

/** `a.b.c` used as a reference target (subsetting, redefinition, connector ends, perform …). */
export interface FeatureChain {
  readonly kind: 'FeatureChain';
  readonly chain: QualifiedName[];
  readonly range: SourceRange;
}

export type Reference = QualifiedName | FeatureChain;

// ---------------------------------------------------------------------------------------------
// Members (what a namespace, package, definition or usage body holds)

export type Member =
  | Package
  | Import
  | Alias
  | Dependency
  | Comment
  | Documentation
  | TextualRepresentation
  | RelationshipDeclaration
  | Definition
  | Usage
  | Succession
  | Transition
  | AcceptAction
  | SendAction
  | AssignAction
  | IfAction
  | LoopAction
  | ForAction
  | TerminateAction
  | StateSubaction
  | ResultExpression
  | ElementFilter
  | InvalidMember;

export type Visibility = 'public' | 'private' | 'protected';

interface MemberBase {
  readonly range: SourceRange;
  /** `public` / `private` / `protected` as written, null when not written. */
  readonly visibility: Visibility | null;
  /** Prefix metadata annotations `#Name` written before the member. */
  readonly prefixMetadata: QualifiedName[];
}

/** Declared name: `<'short'> name`. */
interface Identification {
  readonly name: string | null;
  readonly shortName: string | null;
  /** Range of the name (or of the short name when there is no name); null when unnamed. */
  readonly nameRange: SourceRange | null;
}

export interface Package extends MemberBase, Identification {
  readonly kind: 'Package';
  /** `package` (SysML, KerML) or `namespace` (KerML). */
  readonly keyword: 'package' | 'namespace';
  readonly isLibrary: boolean;
  readonly isStandard: boolean;
  /** null for `package P;`. */
  readonly members: Member[] | null;
}

/** `import A::*;`, `import all A::**;`, `import A::B;`, `import A::*[@Safety];`, `expose A::*;`. */
export interface Import extends MemberBase {
  readonly kind: 'Import';
  readonly keyword: 'import' | 'expose';
  /** `import all …`: imports non-public members too. */
  readonly isImportAll: boolean;
  /** The imported namespace or membership (without the trailing `::*` / `::**`). */
  readonly target: QualifiedName;
  /** `::*` (or `::**`): import the members of the target rather than the target itself. */
  readonly isNamespace: boolean;
  /** `::**` or `A::*::**`: recursive import. */
  readonly isRecursive: boolean;
  /** Filter conditions `[expr]` following the target (the `filter` shorthand). */
  readonly filters: Expression[];
  /** Body `{ … }` of the import (annotations); null when none. */
  readonly body: Member[] | null;
}

/** `alias N for A::B;` */
export interface Alias extends MemberBase, Identification {
  readonly kind: 'Alias';
  readonly target: QualifiedName;
  readonly body: Member[] | null;
}

/** `dependency d from a, b to c;` */
export interface Dependency extends MemberBase, Identification {
  readonly kind: 'Dependency';
  readonly clients: QualifiedName[];
  readonly suppliers: QualifiedName[];
  readonly body: Member[] | null;
}

/** `/* text *\/` or `comment c about a, b locale "en" /* text *\/`. */
export interface Comment extends MemberBase, Identification {
  readonly kind: 'Comment';
  readonly about: QualifiedName[];
  readonly locale: string | null;
  /** Comment body without the `/*`, `*\/` delimiters and the leading `*` of continuation lines. */
  readonly text: string;
}

/** `doc /* text *\/`, `doc d locale "en" /* text *\/`. */
export interface Documentation extends MemberBase, Identification {
  readonly kind: 'Documentation';
  readonly locale: string | null;
  readonly text: string;
}

/** `rep r language "ocl" /* text *\/` or `language "ocl" /* text *\/`. */
export interface TextualRepresentation extends MemberBase, Identification {
  readonly kind: 'TextualRepresentation';
  readonly language: string;
  readonly text: string;
}

/** KerML relationship declarations: `specialization S subtype A specializes B;`, `conjugation`,
 * `subclassifier`, `subset`, `redefinition`, `typing`, `featuring`, `disjoining`, `inverting`,
 * `disjoint … from …`, `inverse … of …`, `featured … by …`. */
export interface RelationshipDeclaration extends MemberBase, Identification {
  readonly kind: 'RelationshipDeclaration';
  readonly keyword: string;
  readonly relation: RelationKind;
  readonly source: Reference;
  readonly target: Reference;
  readonly body: Member[] | null;
}

/** Specialization-like relationships written in a declaration. */
export type RelationKind =
  /** `:` / `typed by` / `defined by` */
  | 'typing'
  /** `:>` / `subsets` on a feature */
  | 'subsetting'
  /** `:>>` / `redefines` */
  | 'redefinition'
  /** `::>` / `references`, and the target of `perform`, `exhibit`, `include`, `satisfy`, `assert`… */
  | 'reference'
  /** `:>` / `specializes` on a type or definition */
  | 'specialization'
  /** `~` / `conjugates` */
  | 'conjugation'
  | 'disjoining'
  | 'intersecting'
  | 'unioning'
  | 'differencing'
  | 'featuring'
  | 'chaining'
  | 'inverting'
  | 'crossing';

export interface Relation {
  readonly kind: 'Relation';
  readonly relation: RelationKind;
  readonly target: Reference;
  /** `: ~PortDef` — typing by the conjugate of a port definition. */
  readonly isConjugated: boolean;
  readonly range: SourceRange;
}

/** `[lower..upper]` or `[upper]` (lower null). `*` is an `infinity` literal. */
export interface Multiplicity {
  readonly kind: 'Multiplicity';
  readonly lower: Expression | null;
  readonly upper: Expression;
  readonly range: SourceRange;
}

/** `= expr` (bound), `:= expr` (initial), `default = expr` / `default := expr` / `default expr`. */
export interface FeatureValue {
  readonly kind: 'FeatureValue';
  readonly isInitial: boolean;
  readonly isDefault: boolean;
  readonly expression: Expression;
  readonly range: SourceRange;
}

/** Definition keywords: SysML (`part def` → 'part') and KerML classifiers. */
export type DefinitionKeyword =
  | 'attribute' | 'enum' | 'occurrence' | 'item' | 'part' | 'port' | 'connection' | 'flow' | 'interface'
  | 'allocation' | 'action' | 'state' | 'calc' | 'constraint' | 'requirement' | 'concern' | 'case'
  | 'analysis' | 'verification' | 'use case' | 'view' | 'viewpoint' | 'rendering' | 'metadata'
  /** `#Meta def X` or `individual def X`: a definition named only by extension keywords. */
  | 'def'
  // KerML
  | 'type' | 'classifier' | 'class' | 'struct' | 'datatype' | 'assoc' | 'assoc struct' | 'behavior'
  | 'function' | 'predicate' | 'interaction' | 'metaclass';

/** `abstract part def Vehicle :> Thing { … }` */
export interface Definition extends MemberBase, Identification {
  readonly kind: 'Definition';
  readonly keyword: DefinitionKeyword;
  readonly isAbstract: boolean;
  readonly isVariation: boolean;
  readonly isIndividual: boolean;
  /** KerML `all` (sufficient type). */
  readonly isSufficient: boolean;
  /** `state def S parallel { … }` */
  readonly isParallel: boolean;
  readonly relations: Relation[];
  readonly multiplicity: Multiplicity | null;
  /** null for `…;` */
  readonly body: Member[] | null;
}

/** Usage and feature keywords. A usage written without keyword (`x : T;`, `:>> m = 5;`) is 'ref'
 * (SysML) or 'feature' (KerML), with `isKeywordImplicit`. */
export type UsageKeyword =
  | 'ref' | 'attribute' | 'enum' | 'occurrence' | 'event' | 'item' | 'part' | 'port' | 'connection' | 'flow'
  | 'succession flow' | 'message' | 'interface' | 'allocation' | 'action' | 'state' | 'calc' | 'constraint'
  | 'requirement' | 'concern' | 'case' | 'analysis' | 'verification' | 'use case' | 'view' | 'viewpoint'
  | 'rendering' | 'metadata' | 'binding' | 'connect' | 'bind' | 'allocate'
  // control nodes (action usages)
  | 'fork' | 'join' | 'merge' | 'decide'
  // KerML features
  | 'feature' | 'step' | 'expr' | 'bool' | 'inv' | 'connector' | 'multiplicity';

/** The membership a usage is declared in when it is not a plain feature. */
export type UsageRole =
  | 'subject' | 'actor' | 'stakeholder' | 'objective' | 'return' | 'require' | 'assume' | 'frame'
  | 'verify' | 'satisfy' | 'assert' | 'perform' | 'exhibit' | 'include' | 'render' | 'variant'
  | 'member' | 'parameter';

/** Prefix and declaration shared by every feature-like member (usages, action nodes, successions,
 * transitions): `in abstract ref part x : T [0..1] ordered :> y = v`. */
export interface FeatureHeader extends MemberBase, Identification {
  readonly direction: 'in' | 'out' | 'inout' | null;
  readonly isAbstract: boolean;
  readonly isVariation: boolean;
  /** `constant` (SysML), `const` (KerML) */
  readonly isConstant: boolean;
  readonly isDerived: boolean;
  readonly isEnd: boolean;
  /** `ref` written explicitly */
  readonly isRef: boolean;
  /** KerML `composite`, `var`; SysML `individual` */
  readonly isComposite: boolean;
  readonly isVar: boolean;
  readonly isIndividual: boolean;
  /** `snapshot` / `timeslice` (SysML), `portion` (KerML) */
  readonly portionKind: 'snapshot' | 'timeslice' | 'portion' | null;
  readonly isOrdered: boolean;
  readonly isNonunique: boolean;
  readonly relations: Relation[];
  readonly multiplicity: Multiplicity | null;
  readonly value: FeatureValue | null;
}

export interface Usage extends FeatureHeader {
  readonly kind: 'Usage';
  readonly keyword: UsageKeyword;
  /** No usage keyword was written (`x : T;`). */
  readonly isKeywordImplicit: boolean;
  readonly role: UsageRole | null;
  /** `state s parallel { … }` */
  readonly isParallel: boolean;
  /** `assert not satisfy …`, `inv false …`, `assert not constraint …` */
  readonly isNegated: boolean;
  /** KerML `all` (sufficient) */
  readonly isSufficient: boolean;
  /** Connector ends: `connect a to b`, `connect (a, b, c)`, `bind a = b`, `flow a.x to b.y`,
   * `allocate x to y`, `message m from a to b`, `interface a.p to b.p`; null when none written. */
  readonly ends: ConnectorEnd[] | null;
  /** `flow of T …`, `message of m : T …`, `event occurrence …` payload declaration. */
  readonly payload: Usage | null;
  /** `satisfy R by v;` — the satisfying feature. */
  readonly satisfiedBy: Expression | null;
  /** `metadata M about a, b;` */
  readonly about: QualifiedName[];
  /** null for `…;` */
  readonly body: Member[] | null;
  /** `end inCart[0..1] item cart : Cart;` — the cross feature declared between `end` and the keyword. */
  readonly crossFeature?: Usage;
}

/** One end of a connector: `a.b`, `[1] a`, `e ::> a.b`. */
export interface ConnectorEnd {
  readonly kind: 'ConnectorEnd';
  readonly name: string | null;
  readonly target: Reference;
  readonly multiplicity: Multiplicity | null;
  readonly range: SourceRange;
}

// ---------------------------------------------------------------------------------------------
// Behaviour

/** A succession between occurrences/actions:
 * - `succession s first a then b;` (form 'succession'), `first a then b;` ('first');
 * - `then b;` / `then action b { … }` after an action ('then': source is the preceding member);
 * - `if g then b;` after a decide node ('guarded'), `else b;` ('else').
 * KerML `succession` connectors share this node. */
export interface Succession extends FeatureHeader {
  readonly kind: 'Succession';
  readonly form: 'succession' | 'first' | 'then' | 'guarded' | 'else';
  /** null: the member written before this one (the lexically previous action / occurrence). */
  readonly source: ConnectorEnd | null;
  /** null when the target is declared inline (`targetMember`). */
  readonly target: ConnectorEnd | null;
  /** `then action b { … }`, `then merge m;` … : the target declared in place. */
  readonly targetMember: Member | null;
  readonly guard: Expression | null;
  readonly body: Member[] | null;
}

/** `transition t first s1 accept Sig if g do act then s2;` and its shorthand after a state
 * (`accept Sig then s2;`, `if g then s2;`, `then s2;`). */
export interface Transition extends FeatureHeader {
  readonly kind: 'Transition';
  /** null: the state written before this member (shorthand form). */
  readonly source: Reference | null;
  readonly trigger: AcceptAction | null;
  readonly guard: Expression | null;
  /** `do …`: the effect action (a Usage, SendAction, AssignAction, AcceptAction …). */
  readonly effect: Member | null;
  readonly target: Reference | null;
  readonly body: Member[] | null;
}

/** `accept sig : Signal via port;`, `accept at t;`, `accept after 5 [s];`, `accept when cond;`
 * (also the trigger of a transition). */
export interface AcceptAction extends FeatureHeader {
  readonly kind: 'AcceptAction';
  /** The received payload (`sig : Signal`); null for a change/time trigger. */
  readonly payload: Usage | null;
  /** `at` (absolute time), `after` (relative time), `when` (change); null for a payload trigger. */
  readonly triggerKind: 'at' | 'after' | 'when' | null;
  readonly triggerExpression: Expression | null;
  /** `via port` */
  readonly receiver: Expression | null;
  readonly body: Member[] | null;
}

/** `send msg via port to target;` */
export interface SendAction extends FeatureHeader {
  readonly kind: 'SendAction';
  readonly payload: Expression | null;
  readonly via: Expression | null;
  readonly to: Expression | null;
  readonly body: Member[] | null;
}

/** `assign x := value;` */
export interface AssignAction extends FeatureHeader {
  readonly kind: 'AssignAction';
  readonly target: Expression;
  readonly assigned: Expression;
  readonly body: Member[] | null;
}

/** `if cond { … } else if … { … } else { … }`. The branches are action usages (keyword 'action'). */
export interface IfAction extends FeatureHeader {
  readonly kind: 'IfAction';
  readonly condition: Expression;
  readonly then: Usage;
  readonly else: Usage | IfAction | null;
}

/** `while cond { … } until cond;` or `loop { … } until cond;` */
export interface LoopAction extends FeatureHeader {
  readonly kind: 'LoopAction';
  readonly form: 'while' | 'loop';
  /** null for `loop`. */
  readonly condition: Expression | null;
  readonly bodyAction: Usage;
  readonly until: Expression | null;
}

/** `for x : T in collection { … }` */
export interface ForAction extends FeatureHeader {
  readonly kind: 'ForAction';
  readonly variable: Usage;
  readonly collection: Expression;
  readonly bodyAction: Usage;
}

/** `terminate;` / `terminate occ;` */
export interface TerminateAction extends FeatureHeader {
  readonly kind: 'TerminateAction';
  readonly target: Expression | null;
  readonly body: Member[] | null;
}

/** `entry action a;`, `entry; `, `do send … ;`, `exit assign …;`. */
export interface StateSubaction extends MemberBase {
  readonly kind: 'StateSubaction';
  readonly which: 'entry' | 'do' | 'exit';
  /** The performed action; null for the empty `entry;`. */
  readonly action: Member | null;
}

/** The result expression of a calc / constraint / function body, or an expression-valued member. */
export interface ResultExpression extends MemberBase {
  readonly kind: 'ResultExpression';
  readonly expression: Expression;
}

/** `filter expr;` in a package body. */
export interface ElementFilter extends MemberBase {
  readonly kind: 'ElementFilter';
  readonly condition: Expression;
}

/** Text the parser skipped while recovering from a syntax error. */
export interface InvalidMember extends MemberBase {
  readonly kind: 'InvalidMember';
}

// ---------------------------------------------------------------------------------------------
// Expressions

export type Expression =
  | LiteralExpression
  | NullExpression
  | NameExpression
  | UnaryExpression
  | BinaryExpression
  | ConditionalExpression
  | ClassificationExpression
  | ExtentExpression
  | MemberAccessExpression
  | CollectExpression
  | SelectExpression
  | IndexExpression
  | QuantityExpression
  | SequenceExpression
  | InvocationExpression
  | ArrowInvocationExpression
  | ConstructorExpression
  | BodyExpression
  | MetadataAccessExpression
  | MissingExpression;

export interface LiteralExpression {
  readonly kind: 'Literal';
  readonly literal: 'integer' | 'real' | 'string' | 'boolean' | 'infinity';
  /** number for integer/real (Infinity for `*`), string with escapes resolved, boolean. */
  readonly value: number | string | boolean;
  /** An integer literal beyond 2^53, or a Real literal, as written (its `value` is the nearest double). */
  readonly digits?: string;
  readonly range: SourceRange;
}

/** `null` or `()` */
export interface NullExpression {
  readonly kind: 'Null';
  readonly range: SourceRange;
}

/** A feature reference `a`, `A::b`. */
export interface NameExpression {
  readonly kind: 'Name';
  readonly name: QualifiedName;
  readonly range: SourceRange;
}

export type UnaryOperator = '+' | '-' | '~' | 'not';

export interface UnaryExpression {
  readonly kind: 'Unary';
  readonly operator: UnaryOperator;
  readonly operand: Expression;
  readonly range: SourceRange;
}

export type BinaryOperator =
  | '??' | 'implies' | 'or' | 'xor' | 'and' | '|' | '&'
  | '==' | '!=' | '===' | '!==' | '<' | '>' | '<=' | '>=' | '..'
  | '+' | '-' | '*' | '/' | '%' | '**' | '^';

/** `implies`, `or`, `and` and `??` are conditional: the right operand is evaluated only if needed. */
export interface BinaryExpression {
  readonly kind: 'Binary';
  readonly operator: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
  readonly range: SourceRange;
}

/** `if c ? a else b` */
export interface ConditionalExpression {
  readonly kind: 'Conditional';
  readonly condition: Expression;
  readonly then: Expression;
  readonly else: Expression;
  readonly range: SourceRange;
}

/** `x istype T`, `x hastype T`, `x @ T`, `x as T`, `x @@ M`, `x meta M`; operand null when written
 * without one (`hastype T` inside a filter applies to the filtered element). */
export interface ClassificationExpression {
  readonly kind: 'Classification';
  readonly operator: 'istype' | 'hastype' | '@' | 'as' | '@@' | 'meta';
  readonly operand: Expression | null;
  readonly type: QualifiedName;
  readonly range: SourceRange;
}

/** `all T` */
export interface ExtentExpression {
  readonly kind: 'Extent';
  readonly type: QualifiedName;
  readonly range: SourceRange;
}

/** `target.member` (feature chain expression). */
export interface MemberAccessExpression {
  readonly kind: 'MemberAccess';
  readonly target: Expression;
  readonly member: QualifiedName;
  readonly range: SourceRange;
}

/** `target.{ … }` */
export interface CollectExpression {
  readonly kind: 'Collect';
  readonly target: Expression;
  readonly body: BodyExpression;
  readonly range: SourceRange;
}

/** `target.?{ … }` */
export interface SelectExpression {
  readonly kind: 'Select';
  readonly target: Expression;
  readonly body: BodyExpression;
  readonly range: SourceRange;
}

/** `target#(index)` */
export interface IndexExpression {
  readonly kind: 'Index';
  readonly target: Expression;
  readonly index: Expression;
  readonly range: SourceRange;
}

/** `value [unit]` — the bracket operator, used for quantities with units (`5 [kg]`, `9.81 [m/s^2]`). */
export interface QuantityExpression {
  readonly kind: 'Quantity';
  readonly value: Expression;
  readonly unit: Expression;
  readonly range: SourceRange;
}

/** `(a, b, c)`; a parenthesised single expression is that expression itself. */
export interface SequenceExpression {
  readonly kind: 'Sequence';
  readonly items: Expression[];
  readonly range: SourceRange;
}

export interface Argument {
  readonly kind: 'Argument';
  /** Parameter name of a named argument `f(x = 1)`; null for positional arguments. */
  readonly name: string | null;
  readonly value: Expression;
  readonly range: SourceRange;
}

/** `f(a, b)`, `T(x = 1)`, `a.b(c)` (callee a feature chain). */
export interface InvocationExpression {
  readonly kind: 'Invocation';
  readonly callee: Reference;
  readonly args: Argument[];
  readonly range: SourceRange;
}

/** `target->f(args)`, `target->select { in x; … }`, `target->reduce '+'` (args hold the body or the
 * function reference as a positional argument). */
export interface ArrowInvocationExpression {
  readonly kind: 'ArrowInvocation';
  readonly target: Expression;
  readonly callee: Reference;
  readonly args: Argument[];
  readonly range: SourceRange;
}

/** `new T(args)` */
export interface ConstructorExpression {
  readonly kind: 'Constructor';
  readonly type: Reference;
  readonly args: Argument[];
  readonly range: SourceRange;
}

/** `{ in x : T; x > 0 }` — an expression body: parameters / members and a result expression. */
export interface BodyExpression {
  readonly kind: 'Body';
  readonly members: Member[];
  readonly result: Expression | null;
  readonly range: SourceRange;
}

/** `A.metadata` */
export interface MetadataAccessExpression {
  readonly kind: 'MetadataAccess';
  readonly target: QualifiedName;
  readonly range: SourceRange;
}

/** Stands for an expression that a syntax error left out (an error was reported at `range`). */
export interface MissingExpression {
  readonly kind: 'Missing';
  readonly range: SourceRange;
}

/** Every node of the tree that has a `kind`. */
export type Node =
  | Document
  | Member
  | Expression
  | QualifiedName
  | FeatureChain
  | Relation
  | Multiplicity
  | FeatureValue
  | ConnectorEnd
  | Argument;
