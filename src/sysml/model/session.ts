// One question's view of the model: the parsed documents, the name index, the subject and its root
// instance, the bindings, and an evaluator set up with the question's draws and the run's cancel.
import type { Expression, Multiplicity, SourceRange } from '../ast';
import { languageOfPath, parse, sourceOf } from '..';
import { Evaluator, type EvaluationOptions } from '../semantics/evaluate';
import { Random, type DrawPolicy, type Draws } from '../semantics/random';
import { formatDimension, quantityKindUnit, sameDimension, tryParseUnitWith, type Unit } from '../semantics/units';
import { enumLiteral, fromProtocolValue, isError, parseNotation, type Outcome, type Value } from '../semantics/values';
/** The `sources` model form, structurally (the protocol layer's schema validates it; this library
 * stays below the protocol layer). */
export interface SourcesLike { readonly documents: readonly { readonly path: string; readonly text: string }[] }
/** A protocol value as bindings carry it. */
export interface BindingValue { readonly value: number | boolean | string; readonly unit?: string | undefined }
/** The parts of a question a session reads. */
export interface QuestionLike {
  readonly subject: string;
  readonly schedule: string;
  readonly draws?: DrawPolicy | undefined;
  readonly modelSeed?: number | undefined;
  readonly bindings?: readonly ({ readonly name: string } & BindingValue)[] | undefined;
}
import { ModelValues, type InstanceContext } from './environment';
import { BudgetError, UnsupportedError, place } from './errors';
import { lastSegment, ModelIndex, modelKindUnit, splitQualifiedName, typeName, type ModelElement, type ParsedDocument } from './model';

export { typeName };

interface CachedParse {
  text: string;
  parsed: ParsedDocument;
  errors: { message: string; range: SourceRange }[];
  warnings: { message: string; range: SourceRange }[];
  lines: string[];
}

// Hosts resend the same documents with every question: parse each text once.
const PARSE_CACHE = new Map<string, CachedParse>();
const PARSE_CACHE_LIMIT = 256;

function parsed(path: string, text: string): CachedParse {
  const hit = PARSE_CACHE.get(path);
  if (hit && hit.text === text) return hit;
  const r = parse(text, { language: languageOfPath(path) });
  const entry: CachedParse = { text, parsed: { path, document: r.document }, errors: r.errors, warnings: r.warnings, lines: text.split('\n') };
  if (PARSE_CACHE.size >= PARSE_CACHE_LIMIT) PARSE_CACHE.delete(PARSE_CACHE.keys().next().value!);
  PARSE_CACHE.set(path, entry);
  return entry;
}

// The name index of a set of documents, for the last few sets (a host alternating between models
// keeps each one's index and its cached lookups).
const INDEX_CACHE: { key: CachedParse[]; index: ModelIndex }[] = [];
const INDEX_CACHE_LIMIT = 8;

const NOTATION_SHOWN = 5;

/** What an answer on these documents rests on beyond SysML v2: each construct of OpenSysML's notation
 * read as its standard spelling, with its place. Those inside the subject's declaration first (the
 * first few, then how many more), then how many the rest of the model holds. */
export function notationAssumptions(sources: SourcesLike, subject?: string): string[] {
  const docs = sources.documents.map((d) => ({ path: d.path, warnings: parsed(d.path, d.text).warnings }));
  if (docs.every((d) => d.warnings.length === 0)) return [];
  let inside: { path: string; start: number; end: number } | undefined;
  if (subject !== undefined) {
    const element = new Model(sources).index.findChain(subject)?.at(-1);
    if (element) inside = { path: element.path, start: element.node.range.start, end: element.node.range.end };
  }
  const within: string[] = [];
  let elsewhere = 0;
  for (const d of docs) {
    for (const w of d.warnings) {
      if (!inside || (d.path === inside.path && w.range.start >= inside.start && w.range.end <= inside.end)) within.push(`${place(d.path, w.range)}: ${w.message}`);
      else elsewhere++;
    }
  }
  const out = within.slice(0, NOTATION_SHOWN);
  if (within.length > NOTATION_SHOWN) out.push(`… and ${within.length - NOTATION_SHOWN} more constructs of OpenSysML's notation in ${subject ?? 'the model'}, read as their SysML v2 spelling`);
  if (elsewhere > 0) out.push(`${elsewhere} construct${elsewhere === 1 ? '' : 's'} of OpenSysML's notation elsewhere in the model, read as ${elsewhere === 1 ? 'its' : 'their'} SysML v2 spelling (\`assay parse\` lists them)`);
  return out;
}

/** The parsed model of a `sources` form. */
export class Model {
  readonly index: ModelIndex;
  private readonly byPath = new Map<string, CachedParse>();

  constructor(sources: SourcesLike) {
    const docs = sources.documents.map((d) => parsed(d.path, d.text));
    for (const d of docs) this.byPath.set(d.parsed.path, d);
    const at = INDEX_CACHE.findIndex((c) => c.key.length === docs.length && c.key.every((d, i) => d === docs[i]));
    if (at >= 0) {
      const [hit] = INDEX_CACHE.splice(at, 1);
      INDEX_CACHE.unshift(hit!);
      this.index = hit!.index;
    } else {
      this.index = new ModelIndex(docs.map((d) => d.parsed));
      INDEX_CACHE.unshift({ key: docs, index: this.index });
      if (INDEX_CACHE.length > INDEX_CACHE_LIMIT) INDEX_CACHE.pop();
    }
  }

  /** Text of a range (for messages naming a sub-expression, and exact big Integer literals). */
  sourceText(path: string, range: SourceRange): string | undefined {
    const doc = this.byPath.get(path);
    return doc?.text.slice(range.start, range.end);
  }

  /** The document a range belongs to (ranges carry no path; the text they were parsed from is
   * known by its identity, see sourceOf). */
  pathOf(range: SourceRange, preferred?: string): string | undefined {
    const source = sourceOf(range);
    if (source === undefined) return undefined;
    const first = preferred !== undefined ? this.byPath.get(preferred) : undefined;
    if (first && sourceOf(first.parsed.document.range) === source) return preferred;
    for (const [path, doc] of this.byPath) if (doc !== first && sourceOf(doc.parsed.document.range) === source) return path;
    return undefined;
  }

  syntaxErrors(path: string): { message: string; range: SourceRange }[] {
    return this.byPath.get(path)?.errors ?? [];
  }

  /** The subject by qualified name, refusing one that is missing or sits in a document with syntax errors. */
  subject(name: string): ModelElement {
    return this.subjectChain(name).at(-1)!;
  }

  /** The elements along the subject's qualified name (see ModelIndex.findChain). */
  subjectChain(name: string): ModelElement[] {
    const chain = this.index.findChain(name);
    if (!chain) throw new UnsupportedError(this.index.missingSubject(name));
    // Below a variation point the features are those of the variant its value selects, which a path
    // through the point's own declaration does not follow.
    const point = chain.slice(0, -1).find((e) => e.node.kind === 'Usage' && this.index.isVariationPoint(e));
    if (point) {
      throw new UnsupportedError(`${place(point.path, point.node.nameRange ?? point.node.range)}: the subject ${name} is read through the variation point '${point.name}', whose features are those of the variant selected: ask about '${point.name}' (the variant) or an attribute that reads ${point.name}.…`);
    }
    // A feature on the way that holds several values (`part a : A[2]`, or features that subset it) has
    // a value of `a.x` per value of `a`: the path names no one of them (it read the first instance of
    // a's declaration, where a subsetting `a1 :> a` redefines x).
    const r = rootIndex(chain);
    for (let i = r + 1; i < chain.length - 1; i++) {
      const e = chain[i]!;
      if (e.node.kind !== 'Usage') continue;
      const several = this.index.multiplicitiesOf(e).some(({ multiplicity: m }) => !isOne(m));
      const subsetters = this.index.subsettersOf(chain[i - 1]!, e);
      if (several || subsetters.length > 0) {
        const why = several ? `its multiplicity allows other than one value` : `${subsetters.map((x) => `'${x.name ?? '<unnamed>'}'`).join(', ')} subset${subsetters.length === 1 ? 's' : ''} it`;
        throw new UnsupportedError(`${place(e.path, e.node.nameRange ?? e.node.range)}: the subject ${name} is read through '${e.name}', which holds several values (${why}): the path names none of them; ask about a feature of '${chain[i - 1]!.name}' that reads ${e.name}.…`);
      }
    }
    for (const e of new Set(chain.map((c) => c.path))) {
      const first = this.syntaxErrors(e)[0];
      if (first) throw new UnsupportedError(`${place(e, first.range)}: ${first.message}`);
    }
    return chain;
  }
}

/**
 * The root instance a subject's features hang from: the outermost definition in its chain, or, for a
 * usage declared in a package (`part vehicle1`, `attribute x`), the package itself, so that the
 * package's other usages are features next to it (`x` and `y` of the same package).
 */
export function rootIndex(chain: readonly ModelElement[]): number {
  const i = chain.findIndex((e) => e.node.kind !== 'Package');
  if (i < 0) return chain.length - 1;
  return chain[i]!.node.kind === 'Usage' && i > 0 ? i - 1 : i;
}

export interface SessionOptions {
  draws?: Draws;
  signal?: AbortSignal;
  /** Epoch milliseconds at which evaluation stops (the budget's deadline). */
  deadline?: number;
  maxSteps?: number;
}

/** How the question's draws resolve: a policy, or a generator seeded by modelSeed (or a `seed:<n>` schedule). */
export function drawsOf(question: QuestionLike): Draws {
  if (question.draws) return { policy: question.draws };
  const seed = question.modelSeed ?? /^seed:(\d+)$/.exec(question.schedule)?.[1];
  if (seed === undefined) return {};
  return { random: new Random(BigInt(seed)) };
}

export class Session<Q extends QuestionLike = QuestionLike> {
  readonly subject: ModelElement;
  readonly root: ModelElement;
  readonly evaluator: Evaluator;
  readonly values: ModelValues;
  /** The subject's instance context (its path from the root). */
  readonly subjectContext: InstanceContext;

  /** The subject chain and the question's bindings, resolved once and shared by every row of a table. */
  private readonly resolved: { chain: ModelElement[]; bindings: ReadonlyMap<string, Value> };

  constructor(
    readonly model: Model,
    readonly question: Q,
    private readonly options: SessionOptions = {},
    extraBindings: ReadonlyMap<string, Value> = new Map(),
    resolved?: { chain: ModelElement[]; bindings: ReadonlyMap<string, Value> },
  ) {
    const chain = resolved?.chain ?? model.subjectChain(question.subject);
    const r = rootIndex(chain);
    this.subject = chain.at(-1)!;
    this.root = chain[r]!;
    const evalOptions: EvaluationOptions = {
      draws: options.draws ?? drawsOf(question),
      ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
      // A long synchronous evaluation cannot see a cancel (its event never runs), but it can see the clock.
      interrupt: () => {
        if (options.signal?.aborted) return 'cancelled';
        if (options.deadline !== undefined && Date.now() >= options.deadline) return 'deadline reached during evaluation';
        return undefined;
      },
    };
    this.evaluator = new Evaluator(evalOptions);
    const bindings = new Map<string, Value>(resolved?.bindings ?? []);
    this.values = new ModelValues(model.index, this.root, bindings, this.evaluator, (p, range) => model.sourceText(model.pathOf(range, p) ?? p, range));
    let ctx: InstanceContext = this.values.root;
    for (const e of chain.slice(r + 1)) ctx = this.values.child(ctx, e);
    this.subjectContext = ctx;
    if (!resolved) {
      for (const b of question.bindings ?? []) {
        const { path, feature } = this.bindingPath(b.name);
        bindings.set(path, this.bindingValue(b, feature, b.name));
      }
    }
    this.resolved = resolved ?? { chain, bindings: new Map(bindings) };
    for (const [k, v] of extraBindings) bindings.set(k, v);
  }

  /** The same question with more bindings (a table row's point) and its own draws and remembered values. */
  forRow(rowBindings: ReadonlyMap<string, Value>, draws: Draws): Session {
    return new Session(this.model, this.question, { ...this.options, draws }, rowBindings, this.resolved);
  }

  /** The instance path a feature name of the question means: relative to the subject, else to the root. */
  featurePath(name: string): { path: string; feature: ModelElement } | undefined {
    const segments = splitQualifiedName(name);
    const from = (ctx: InstanceContext): { path: string; feature: ModelElement } | undefined => {
      let element = ctx.element;
      let path = ctx.path;
      let feature: ModelElement | undefined;
      for (const s of segments) {
        feature = this.valuesFeature(element, s);
        if (!feature) return undefined;
        path = path === '' ? s : `${path}.${s}`;
        element = feature;
      }
      return feature ? { path, feature } : undefined;
    };
    for (let ctx: InstanceContext | undefined = this.subjectContext; ctx; ctx = ctx.parent) {
      const found = from(ctx);
      if (found) return found;
    }
    return undefined;
  }

  private valuesFeature(element: ModelElement, name: string): ModelElement | undefined {
    return this.model.index.featureNamed(element, name);
  }

  private bindingPath(name: string): { path: string; feature: ModelElement } {
    const found = this.featurePath(name);
    if (!found) throw new UnsupportedError(`the binding ${name} names no feature of ${this.question.subject}`);
    return found;
  }

  /** A protocol value as a model value, typed by the feature it binds. */
  bindingValue(b: BindingValue, feature: ModelElement | undefined, name = ''): Value {
    const type = feature ? typeName(feature, this.model.index) : undefined;
    const enumeration = feature && typeof b.value === 'string' ? this.enumerationOf(feature) : undefined;
    if (enumeration && typeof b.value === 'string') {
      // `Colour::green` or `green` for an enumeration-typed feature.
      const literal = b.value.split('::').at(-1)!.replace(/^'|'$/g, '');
      const known = enumeration.members.some((m) => m.name === literal || m.shortName === literal);
      if (!known) throw new UnsupportedError(`binding ${name || feature?.name || ''}: ${b.value} is not a literal of ${enumeration.name}`);
      return enumLiteral(enumeration.name ?? enumeration.qualifiedName, literal);
    }
    if (typeof b.value === 'string' && b.value.trim().startsWith('(') && !(type && /(^|::)String$/.test(type))) {
      const v = parseNotation(b.value);
      if (!isError(v)) return v;
    }
    const v = fromProtocolValue(b, (text) => tryParseUnitWith(text, (name) => this.modelUnitNamed(name)), type);
    const label = name || feature?.name || '';
    if (isError(v)) throw new UnsupportedError(`binding ${label}: ${v.message}`);
    const libraryKind = type ? quantityKindUnit(type) : undefined;
    // A kind the model declares (`:> distancePerVolume`, itself `= length / volume`) binds like the library's.
    const modelKind = !libraryKind && feature ? modelKindUnit(feature, this.model.index) : undefined;
    const kind = libraryKind ?? modelKind;
    if (kind && (v.kind !== 'quantity' || !sameDimension(v.unit.dimension, kind.dimension))) {
      const got = v.kind === 'quantity' ? `[${v.unit.name}]`
        : v.kind === 'integer' || v.kind === 'real' ? 'a plain number'
          : v.kind === 'string' ? `${JSON.stringify(v.value)} (text, not a number)` : `a ${v.kind} value`;
      const kindName = libraryKind ? type!.split('::').at(-1) : `${subsetted(feature!) ?? 'quantity'} (${formatDimension(kind.dimension)})`;
      throw new UnsupportedError(`binding ${label}: ${got} is not a ${kindName} (give it in a unit like [${kind.name}])`);
    }
    if (!feature) return v;
    // A value that is no instance of the feature's type (`--bind k=-3` for a Natural) is refused as a model's would be.
    const typed = this.values.conforming(feature, `'${label}'`, v);
    if (isError(typed)) throw new UnsupportedError(`binding ${label}: ${typed.message}`);
    return typed;
  }

  /**
   * Unit text of a binding read with the model's own units too (`mpg` where the model declares
   * `attribute mpg : DistancePerVolumeUnit = 'mi' / gallon;`, and `mi/gallon`), as a name written in the
   * model's `[ … ]` would be: found from the subject, evaluated, and used only when it is a unit.
   */
  private modelUnitNamed(name: string): Unit | undefined {
    const segments = name.split('::').map((s) => s.replace(/^'(.*)'$/, '$1'));
    const at = this.subject.node.range;
    const v = this.values.environment(this.subjectContext, this.subject).lookup({ kind: 'QualifiedName', segments, segmentStarts: segments.map(() => at.start), isGlobal: false, range: at });
    return v !== undefined && v.kind === 'unit' ? v.unit : undefined;
  }

  /** The enumeration definition a feature is typed by, if it is one. */
  private enumerationOf(feature: ModelElement): ModelElement | undefined {
    for (const t of this.model.index.typesOf(feature)) {
      if (t.node.kind === 'Definition' && t.node.keyword === 'enum') return t;
    }
    return undefined;
  }

  /** Evaluates an expression written in `lexical` on the subject's instance. */
  evaluateExpression(expr: Expression, lexical: ModelElement = this.subject): Outcome {
    return this.evaluator.evaluate(expr, this.values.environment(this.subjectContext, lexical));
  }
}

/** The type a feature is declared with (`Real`, `ISQ::MassValue`), as written. */
/**
 * Turns an evaluation error into the run's error: `budget` when evaluation was stopped, else
 * `unsupported` naming the place (a construct the engine lacks, or a mistake in the model).
 */
export function failure(v: Outcome & { kind: 'error' }, model: Model, fallbackPath: string): Error {
  if (v.code === 'budget') return new BudgetError(v.message.startsWith('cancelled') ? 'cancelled by the host' : v.message);
  const path = v.range ? (model.pathOf(v.range) ?? fallbackPath) : fallbackPath;
  const where = v.range ? `${place(path, v.range)}: ` : `${path}: `;
  return new UnsupportedError(`${where}${v.message}`);
}

/** What a feature subsets or redefines, by its last name (`distancePerVolume` of `a :> distancePerVolume`). */
function subsetted(feature: ModelElement): string | null {
  if (feature.node.kind !== 'Usage') return null;
  const r = feature.node.relations.find((x) => x.relation === 'subsetting' || x.relation === 'redefinition');
  return r ? lastSegment(r.target) : null;
}

/** A multiplicity of exactly one value, written with literals (`[1]`, `[1..1]`). */
function isOne(m: Multiplicity): boolean {
  const one = (e: Expression | null) => e !== null && e.kind === 'Literal' && e.literal === 'integer' && Number(e.value) === 1;
  return one(m.upper) && (m.lower === null || one(m.lower));
}
