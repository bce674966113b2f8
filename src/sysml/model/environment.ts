// The model as the expression evaluator sees it: names resolve to feature values of instances, with the
// question's bindings overriding model values; calcs and constraints are invoked through their bodies.
//
// An instance is a path of features from the evaluation's root (the outermost definition or usage that
// holds the subject): `engine.mass` is the feature `mass` of the instance `engine`. Bindings name such
// paths. Feature values are computed once per instance path and remembered.
import type { Expression, Member, Multiplicity, QualifiedName, Reference, SourceRange, Usage } from '../ast';
import { refusalMessage, unmodeled, unmodeledDefinition, type Layer } from '../support';
import { hasBodyActions } from '../semantics/calc-body';
import { declaredName, LocalScope, referenceExpression, referencedConstraint, referencedConstraintMix, type BodyOutcome, type CallArgument, type Environment, type Evaluator } from '../semantics/evaluate';
import { bool, enumLiteral, equals, error, format, isError, itemsOf, sequence, type Instance, type Outcome, type Place, type Scalar, type Value, type ValueError, unitValue } from '../semantics/values';
import { declarationKind, declaredKindUnit, rangeOf, type ModelElement, type ModelIndex } from './model';
import { UnsupportedError, place } from './errors';
import { isDimensionless, modelUnit, namedUnitOfOtherKind, ownDimensionUnit, quantityKindUnit, sameDimension } from '../semantics/units';
import { asInstanceOf, isIntegerTypeName, specializesThrough, wholeNumberDoubt } from '../semantics/types';
import { callQualifiedLibraryFunction, isQualifiedLibraryPackage, libraryFeatureValue } from '../semantics/functions';

/** One instance in the evaluation: the element whose features it has, and its path from the root. */
export interface InstanceContext {
  readonly element: ModelElement;
  /** Feature path from the root (`''` for the root itself). */
  readonly path: string;
  readonly parent: InstanceContext | undefined;
}

const CALLABLE_KEYWORDS = new Set(['calc', 'constraint', 'requirement', 'analysis', 'verification', 'function', 'predicate', 'concern', 'case']);

export function joinPath(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

const BODY_MEMBERS = new WeakMap<ModelElement, Member[]>();
// Elements never change once indexed: what their bodies refuse and which binding connectors they hold
// are computed once per element, not once per table row.
const BODY_REFUSALS = new WeakMap<ModelElement, ValueError | null>();
const CHECK_REFUSALS = new WeakMap<ModelElement, ValueError | null>();
const FEATURE_REFUSALS = new WeakMap<ModelElement, ValueError | null>();
const RESULT_PARAMETERS = new WeakMap<ModelElement, ModelElement | null>();
const BINDS = new WeakMap<ModelElement, ModelElement[]>();
/** What a simple name written in an element resolves to there (null: nothing of the model). */
const CHAIN_REDEFINERS = new WeakMap<ModelElement, ModelElement[]>();
const RESOLVED_NAMES = new WeakMap<ModelElement, Map<string, ModelElement | null>>();

/** Usage keywords whose values are instances (a part declared `[4]` is four parts). */
const STRUCTURAL = new Set(['part', 'item', 'occurrence', 'port', 'individual']);
/** Library packages whose functions the evaluator's built-ins implement (src/sysml/semantics/functions.ts). */
const IMPLEMENTED_LIBRARY_PACKAGES = new Set([
  'BaseFunctions', 'DataFunctions', 'ScalarFunctions', 'NumericalFunctions', 'RealFunctions', 'IntegerFunctions', 'NaturalFunctions',
  'RationalFunctions', 'BooleanFunctions', 'StringFunctions', 'SequenceFunctions', 'CollectionFunctions', 'ControlFunctions', 'TrigFunctions',
  'Quantities', 'MeasurementReferences', 'ISQ', 'SI', 'USCustomaryUnits',
]);

/** Usage keywords whose default multiplicity is [1..1]. */
const DEFAULT_ONE = new Set(['attribute', 'part', 'item', 'occurrence', 'port', 'enum']);
/** The features `new T(…)` gives positional arguments to: value and structure features. */
const PLAIN_FEATURES = new Set(['attribute', 'part', 'item', 'occurrence', 'ref', 'feature', 'enum']);
/** Definitions `new` makes instances of. */
const CONSTRUCTIBLE = new Set(['part', 'item', 'occurrence']);

/**
 * Why `new T(…)` is not modeled for `t` (what the name `text` resolves to), or undefined: a type the
 * model does not declare, one that is not an attribute, part, item or occurrence definition, an
 * abstract one, or one with a constraint or requirement to check in it or in a structure it holds.
 */
export function constructionRefusal(index: ModelIndex, t: ModelElement | undefined, text: string): string | undefined {
  if (!t) return `'new ${text}(…)': ${text} names no definition of the model (constructing an instance of a library type is not modeled)`;
  if (t.node.kind !== 'Definition' || !CONSTRUCTIBLE.has(declarationKind(t))) {
    const what = `${/^[aeiou]/.test(declarationKind(t)) ? 'an' : 'a'} ${declarationKind(t)} ${t.node.kind === 'Definition' ? 'definition' : 'usage'}`;
    // A data value (an attribute definition's instance) is equal to any other with equal features, which
    // the engine's equality (by identity) and the library's (includes, union …) do not compare.
    return `'new ${text}(…)': constructing an instance of ${what} is not modeled (of a part, item or occurrence definition, which has an identity of its own, it is)${declarationKind(t) === 'attribute' ? '; a data value is equal to any other with equal features, which comparisons here do not decide' : ''}`;
  }
  if (t.node.isAbstract) return `'new ${text}(…)': ${text} is abstract, and constructing an instance of it is not modeled`;
  const checked = checkedWithin(index, t, new Set());
  if (checked) {
    const at = checked.node.range;
    const what = checked.name !== null ? `'${checked.name}'` : `the ${checked.node.kind === 'Usage' && (checked.node.keyword === 'bind' || checked.node.keyword === 'binding') ? 'binding' : 'constraint'} at ${at.line}:${at.column}`;
    return `'new ${text}(…)': ${text} holds ${what}, a constraint, requirement or binding; the checks of the structure a new instance is made in do not reach it, so constructing one is not modeled`;
  }
  return undefined;
}

function checkedWithin(index: ModelIndex, e: ModelElement, seen: Set<ModelElement>): ModelElement | undefined {
  if (seen.has(e) || seen.size > 500) return seen.size > 500 ? e : undefined;
  seen.add(e);
  for (const f of index.featuresOf(e)) {
    if (f.node.kind !== 'Usage') continue;
    const u = f.node;
    if (u.keyword === 'constraint' || u.keyword === 'requirement' || u.keyword === 'concern' || u.keyword === 'bind' || u.keyword === 'binding' || u.keyword === 'inv') return f;
    if (u.role === 'require' || u.role === 'assume' || u.role === 'assert' || u.role === 'satisfy' || u.role === 'verify' || u.role === 'objective') return f;
    if (STRUCTURAL.has(u.keyword) || u.keyword === 'attribute' || u.keyword === 'ref') {
      const inner = checkedWithin(index, f, seen);
      if (inner) return inner;
    }
  }
  return undefined;
}

function referenceSegments(ref: Reference): string[] {
  return ref.kind === 'QualifiedName' ? [...ref.segments] : ref.chain.flatMap((q) => [...q.segments]);
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Shared by every environment of one evaluation: the model, the bindings and the remembered values. */
/** A multiplicity's bounds as written: `[4]`, `[0..*]`. */
function boundsText(lower: number, upper: number): string {
  return `[${lower === upper ? lower : `${lower}..${upper === Infinity ? '*' : upper}`}]`;
}

export class ModelValues {
  private readonly cache = new Map<string, { state: 'running' | 'done'; value?: Outcome }>();
  private readonly activeBinds = new Set<string>();
  /**
   * Counts the bindings not followed because they were being followed already (a = b read from b). "No
   * value" computed while one was skipped holds only in that reading (a, read from b through the binding,
   * does not see b), so it is not cached: read on its own, a takes b's value through the binding.
   */
  private bindSkips = 0;
  /** The context each structured instance was made for, so its features can be listed, not only read by name. */
  private readonly instanceContexts = new WeakMap<Instance, InstanceContext>();
  readonly root: InstanceContext;

  constructor(
    readonly index: ModelIndex,
    rootElement: ModelElement,
    /** Values given with the question, by instance path from the root. */
    readonly bindings: ReadonlyMap<string, Value>,
    readonly evaluator: Evaluator,
    readonly sourceText: (path: string, range: SourceRange) => string | undefined,
  ) {
    this.root = { element: rootElement, path: '', parent: undefined };
  }

  /** The instance context of an element nested in the root (the chain of its owners down from the root). */
  contextOf(element: ModelElement): InstanceContext {
    const chain: ModelElement[] = [];
    for (let e: ModelElement | undefined = element; e && e !== this.root.element; e = e.parent) chain.unshift(e);
    let ctx = this.root;
    for (const e of chain) ctx = { element: e, path: joinPath(ctx.path, pathSegment(e)), parent: ctx };
    return ctx;
  }

  /** The context a structured instance of this model was made for (undefined for a calc result or one made elsewhere). */
  contextOfInstance(v: Instance): InstanceContext | undefined {
    return this.instanceContexts.get(v);
  }

  child(ctx: InstanceContext, feature: ModelElement): InstanceContext {
    return { element: feature, path: joinPath(ctx.path, pathSegment(feature)), parent: ctx };
  }

  /**
   * The instances whose features a simple name written in `lexical` and read on `ctx` may be, innermost
   * first: `ctx` itself, and each instance holding it whose declaration (or a type it specializes)
   * encloses where the name is written. A name resolves lexically (KerML 7.2.5 Namespaces): `k` in `part
   * def Wheel { … }` is Wheel's, or its owners', never the `k` of a car that holds a wheel, nor of a part
   * that calls a calc.
   */
  *enclosing(ctx: InstanceContext, lexical: ModelElement): Generator<InstanceContext> {
    yield ctx;
    const written: ModelElement[] = [];
    for (let e: ModelElement | undefined = lexical; e; e = e.parent) written.push(e);
    for (let c = ctx.parent; c; c = c.parent) {
      if (written.some((w) => this.specializes(c!.element, w))) yield c;
    }
  }

  /**
   * The feature of an instance a simple name written in `lexical` and read on `ctx` denotes, with the
   * instance it is read on; undefined when the name denotes no feature of those instances (a
   * package-level value of another tree, an enumeration literal, a library name, nothing).
   *
   * The name is resolved where it is written (KerML 8.2.3.5, name resolution): in each namespace from
   * `lexical` outward, its owned, inherited and imported members, so an import of an inner namespace
   * hides an outer feature of that name, and a feature a subtype or a usage adds (`part w : Wheel {
   * attribute k = 5; }`) is not what `k` in `part def Wheel` names. The instance then supplies the
   * feature's value under its redefinitions: the feature of the innermost enclosing instance whose type
   * declares or inherits the resolved one.
   */
  namedFeature(ctx: InstanceContext, lexical: ModelElement, name: string, at?: SourceRange): { owner: InstanceContext; feature: ModelElement } | undefined {
    let byName = RESOLVED_NAMES.get(lexical);
    if (!byName) RESOLVED_NAMES.set(lexical, (byName = new Map()));
    let resolved = byName.get(name);
    if (resolved === undefined) {
      try {
        resolved = this.index.resolveSegments(lexical, [name], false, at) ?? null;
      } catch (e) {
        // An ambiguous name. Two features of one name in an instance's body are refused where read,
        // saying which (ModelIndex.conflictOf): that refusal is the more useful one.
        if (!(e instanceof UnsupportedError)) throw e;
        for (const c of this.enclosing(ctx, lexical)) {
          const f = this.feature(c.element, name);
          if (f && this.index.conflictOf(f, c.element) !== undefined) return { owner: c, feature: f };
        }
        throw e;
      }
      byName.set(name, resolved);
    }
    if (resolved === null) return undefined;
    return this.onEnclosing(ctx, lexical, resolved, name);
  }

  /**
   * A feature found by name (`resolved`, declared in a definition or usage), read on the innermost
   * enclosing instance whose type declares or inherits it, under that instance's redefinitions.
   */
  onEnclosing(ctx: InstanceContext, lexical: ModelElement, resolved: ModelElement, name: string): { owner: InstanceContext; feature: ModelElement } | undefined {
    if (resolved.node.kind !== 'Usage') return undefined;
    const declaredIn = resolved.parent;
    if (!declaredIn) return undefined;
    for (const c of this.enclosing(ctx, lexical)) {
      if (!this.specializes(c.element, declaredIn)) continue;
      const f = this.feature(c.element, name) ?? (resolved.name !== null ? this.feature(c.element, resolved.name) : undefined);
      if (f) return { owner: c, feature: f };
    }
    return undefined;
  }

  /** Whether `e` is `type` or specializes it, through the model's own types. */
  private specializes(e: ModelElement, type: ModelElement): boolean {
    return specializesThrough(e, type, (x) => this.index.typesOf(x));
  }

  /** Whether an instance made for `e` (a feature's value, a definition's instance) is a `type`: `e` or one of its types specializes it. */
  isInstanceOf(e: ModelElement, type: ModelElement): boolean {
    return this.specializes(e, type);
  }

  /** An environment for an expression written in `lexical` (an element), read on instance `ctx`. */
  environment(ctx: InstanceContext, lexical: ModelElement = ctx.element): ModelEnvironment {
    return new ModelEnvironment(this, ctx, lexical);
  }

  /** The value of `feature` on instance `owner`: a binding, the model's value, or a structured instance. */
  featureValue(owner: InstanceContext, feature: ModelElement): Outcome {
    const path = joinPath(owner.path, pathSegment(feature));
    const bound = this.bindings.get(path);
    if (bound !== undefined) return bound;
    const cached = this.cache.get(path);
    if (cached?.state === 'done') return cached.value!;
    if (cached?.state === 'running') return error(`'${path}' depends on itself`, rangeOf(feature));
    const entry: { state: 'running' | 'done'; value?: Outcome } = { state: 'running' };
    this.cache.set(path, entry);
    const skips = this.bindSkips;
    try {
      entry.value = this.computeFeature(owner, feature, path);
      // "No value", found with a binding back to it skipped, holds in this reading only (see bindSkips):
      // not kept. A value is kept, so both ends of a binding read the one found first (one object).
      const v = entry.value;
      if (this.bindSkips === skips || !(isError(v) && isMissingValue(v))) entry.state = 'done';
      return entry.value;
    } finally {
      if (entry.state !== 'done') this.cache.delete(path);
    }
  }

  /**
   * A feature of a calc or analysis (usage or definition) whose body has actions, read from outside
   * (`cu.r`, `fa.economy`, an output or local): its value as the body's run leaves it, the run that gives
   * the calc its value (a calc is a behaviour: its result is read after its actions ran). Its declared
   * value is only where the run starts. Undefined where the body has no actions or does not declare it.
   */
  private afterRun(owner: InstanceContext, feature: ModelElement): Outcome | undefined {
    const e = owner.element;
    const name = feature.name;
    if (name === null || feature.node.kind !== 'Usage' || !isCallable(e)) return undefined;
    const members = this.bodyMembers(e);
    if (!hasBodyActions(members)) return undefined;
    const node = feature.node;
    if (!members.some((m) => m === node || (m.kind === 'Succession' && m.targetMember === node))) return undefined;
    const r = this.invokeElementDetailed(e, [], owner, rangeOf(feature));
    // The run did not end (a refusal, a model error, the budget): no value after it.
    if (!r.scope) return isError(r.value) ? r.value : undefined;
    if (!r.scope.has(name)) return undefined;
    return r.scope.local(name);
  }

  private computeFeature(owner: InstanceContext, feature: ModelElement, path: string): Outcome {
    const node = feature.node;
    const ctx = this.child(owner, feature);
    // Soundness: the feature's declaration and the body it is read in hold only modeled constructs.
    const refused = this.refusal(owner.element, feature);
    if (refused) return refused;
    const conflict = this.index.conflictOf(feature, owner.element);
    if (conflict) return error(conflict, rangeOf(feature));
    const chained = this.chainRedefinition(owner, feature);
    if (chained) return chained;
    const stale = this.subsettedRedefined(owner, feature);
    if (stale) return stale;
    const ran = this.afterRun(owner, feature);
    if (ran !== undefined) return ran;
    // A feature whose value is an expression of the library's quantities declares a kind (its values are
    // every value of that dimension), which features subsetting it take as their own; it is no one value.
    const kind = node.kind === 'Usage' && node.value !== null ? declaredKindUnit(feature, this.index) : undefined;
    if (kind) return error(`'${path}' declares a quantity kind by its value (an expression of the library's quantities, in ${kind.name}), not a value: every value of that kind is one of its values`, rangeOf(feature), 'unsupported');
    const valued = this.index.valueSource(feature);
    if (valued) {
      // The value is written in the feature's owner; names in it are features of that instance.
      const expr = valued.node.value.expression;
      const v = this.evaluator.nested(`'${path}'`, expr.range, () => this.evaluator.evaluate(expr, this.environment(owner, valued.parent ?? valued)));
      if (isError(v)) return v;
      // Bound to another feature too: both must agree. When the other end has no value of its own (it
      // takes this one's through the binding), there is nothing to compare.
      const bound = this.boundValue(owner, feature);
      if (bound !== undefined && !isError(bound.value) && !equals(v, bound.value)) {
        // Two parts (ports, items) the binding makes one object, each built as an instance of its own
        // declaration here: not a contradiction of the model, but an identity the engine does not model.
        if (itemsOf(v).some((x) => x.kind === 'instance') || itemsOf(bound.value).some((x) => x.kind === 'instance')) {
          return error(`'${path}' is ${format(v)} by its value and ${format(bound.value)} by the binding connector at ${bound.at.line}:${bound.at.column}: a binding makes them one object, which the engine (one instance per declaration) does not model`, rangeOf(feature), 'unsupported');
        }
        return error(`'${path}' is ${format(v)} by its value but ${format(bound.value)} by the binding connector at ${bound.at.line}:${bound.at.column}`, rangeOf(feature));
      }
      const typed = this.checkType(feature, `'${path}'`, v);
      if (isError(typed)) return typed;
      const chosen = this.index.isVariationPoint(feature) ? this.selectedVariant(feature, ctx, typed) : typed;
      if (isError(chosen)) return chosen;
      const among = this.subsettersAmong(owner, feature, path, chosen) ?? this.amongSubsetted(owner, feature, path, chosen);
      return among ?? this.checkCount(feature, path, chosen);
    }
    const bound = this.boundValue(owner, feature);
    // The other end having no value of its own (it takes this one's through the binding: a `ref` bound to
    // a composite part) says nothing: this feature's value is its own, below. It read as "no value" when
    // the part was read before the reference.
    if (bound !== undefined && !(isError(bound.value) && isMissingValue(bound.value))) {
      const typed = this.checkType(feature, `'${path}'`, bound.value);
      return isError(typed) ? typed : this.checkCount(feature, path, typed);
    }
    if (this.index.isVariationPoint(feature)) {
      // Its value is the variant a value selects; without one the configuration is open.
      const name = feature.name ?? '<unnamed>';
      const variants = this.index.variantsOf(feature).map((v) => v.name).filter((n): n is string => n !== null);
      return error(`variation '${path}' has no variant selected: select one with a value (\`:>> ${name} = ${name}::${variants[0] ?? '<variant>'}\`${variants.length > 1 ? `; its variants: ${variants.join(', ')}` : ''})`, rangeOf(feature));
    }
    if (node.kind === 'Usage' && !isCallable(feature)) {
      const many = this.multipleValues(owner, feature, path);
      if (many !== undefined) return many;
    }
    if (node.kind === 'Usage' && isCallable(feature)) {
      // A calc or constraint usage read as a feature: its result; when the usage names its result
      // (`calc vel : Velocity { return v; }`), a value whose `v` is the result (`vel.v`).
      const returnName = this.namedResult(feature);
      if (returnName === undefined) return this.invokeElement(feature, [], ctx, rangeOf(feature));
      let result: Outcome | undefined;
      return {
        kind: 'instance',
        label: path,
        identity: `calc:${path}`,
        member: (name: string) => {
          if (name === returnName) return (result ??= this.invokeElement(feature, [], ctx, rangeOf(feature)));
          const f = this.feature(feature, name);
          return f ? this.featureValue(ctx, f) : undefined;
        },
      };
    }
    // A feature of a quantity value type the model defines is a number with a unit: without a value it
    // has none, and is not a structure of the type's `num` and `mRef`.
    const quantityValued = node.kind === 'Usage' && (node.keyword === 'attribute' || node.keyword === 'feature' || node.keyword === 'ref') && this.index.isQuantityValued(feature);
    // A variant written as a reference (`variant manualTransmission;`) of a part variation point is a
    // part (the choice it names), with no features of its own when that part declares none.
    const structuralVariant = node.kind === 'Usage' && node.keyword === 'ref' && this.index.isVariant(feature) && feature.parent !== undefined && feature.parent.node.kind !== 'Package' && STRUCTURAL.has(feature.parent.node.keyword);
    if (structuralVariant) return this.instance(ctx);
    if (!quantityValued && (this.index.featuresOf(feature).length > 0 || (node.kind === 'Usage' && node.keyword !== 'attribute' && node.keyword !== 'ref'))) {
      return this.instance(ctx);
    }
    // A unit the model declares without a value or conversion: the base unit of its own dimension.
    const unitType = this.index.typeNameOf(feature)?.split('::').at(-1);
    if (node.kind === 'Usage' && (unitType === 'MeasurementUnit' || unitType === 'SimpleUnit')) {
      const name = feature.shortName ?? feature.name;
      const own = name ? ownDimensionUnit(name) : undefined;
      if (own) return unitValue(own);
      return error(`'${path}' declares a unit of its own dimension, and the engine holds at most 8 such units per process: not modeled`, rangeOf(feature), 'unsupported');
    }
    // An enumeration-typed feature has no value unless given one; so has a plain attribute.
    return error(`'${path}'${NO_VALUE}`, rangeOf(feature));
  }

  /**
   * A feature with a value of its own whose instance has features that subset it (`attribute ys = (1.0,
   * 2.0); attribute y1 :> ys = 5.0;`): a subsetting feature's values are among the subsetted one's
   * (KerML 7.3.4.5), so one that is not is a model error, never left out of the answer. Values that are
   * instances are not compared (refused: which instance a subsetter's is, is not modeled here).
   */
  private subsettersAmong(owner: InstanceContext, feature: ModelElement, path: string, v: Value): ValueError | undefined {
    const subsetters = this.index.subsettersOf(owner.element, feature);
    if (subsetters.length === 0) return undefined;
    const mine = itemsOf(v);
    // The subsetters read here need not check their values against this one themselves (amongSubsetted).
    const key = `${owner.path}\u0000${feature.qualifiedName}`;
    this.checkingAmong.add(key);
    try {
      return this.subsettersAmongChecked(owner, feature, path, v, subsetters, mine);
    } finally {
      this.checkingAmong.delete(key);
    }
  }

  /** Feature values being checked against their subsetters' (by owner path and feature). */
  private readonly checkingAmong = new Set<string>();

  private subsettersAmongChecked(owner: InstanceContext, feature: ModelElement, path: string, v: Value, subsetters: readonly ModelElement[], mine: readonly Value[]): ValueError | undefined {
    for (const s of subsetters) {
      // One bound to one of the values by index (`y1 :> ys = ys#(1)`) is among them by construction.
      const k = this.indexAlias(feature, s);
      if (k !== undefined && k <= mine.length) continue;
      const sv = this.featureValue(owner, s);
      if (isError(sv)) return sv;
      for (const item of itemsOf(sv)) {
        if (item.kind === 'instance') {
          return error(`'${s.name ?? '<unnamed>'}' subsets '${path}', which has a value of its own: whether its parts are among that value's is not modeled`, rangeOf(s), 'unsupported');
        }
        if (!mine.some((x) => x.kind !== 'instance' && equals(x, item))) {
          return error(`'${s.name ?? '<unnamed>'}' subsets '${path}' but its value ${format(item)} is not among ${format(v)}, the value '${path}' has (KerML: a subsetting feature's values are the subsetted feature's)`, rangeOf(s));
        }
      }
    }
    return undefined;
  }

  /**
   * A feature that subsets one its owner's type redefines (`ref part e :> eng;` in Sys2, and `part s2 :
   * Sys2 { part :>> eng { attribute :>> power = 7.0; } }`): e's values are among eng's, which on s2 have
   * the redefinition's features, but e's instance is made from e's own declaration, which does not
   * specialize that redefinition. Reading `s2.eng.power` (whose value is e, by the closed world) or
   * `s2.e.power` answered Engine's 1.0 at proved. Refused, naming both, unless the redefinition adds
   * nothing (no type, value or body).
   */
  private subsettedRedefined(owner: InstanceContext, feature: ModelElement): ValueError | undefined {
    if (feature.node.kind !== 'Usage' || owner.element.node.kind === 'Package') return undefined;
    for (const rel of feature.node.relations) {
      if (rel.relation !== 'subsetting') continue;
      const target = this.index.resolveReference(feature.parent ?? feature, rel.target, feature);
      if (!target || target.node.kind !== 'Usage') continue;
      const effective = this.index.featuresOf(owner.element).find((f) => f !== target && this.index.redefinitionRoots(f).includes(target));
      if (!effective || effective === feature || this.index.typesOf(feature).includes(effective)) continue;
      const n = effective.node;
      if (n.kind !== 'Usage') continue;
      const adds = (n.body ?? []).length > 0 || n.value !== null || n.relations.some((r) => r.relation !== 'redefinition') || n.multiplicity !== null;
      if (!adds) continue;
      return error(`'${feature.name ?? '<unnamed>'}' subsets ${target.qualifiedName}, which ${owner.element.name ?? 'its owner'} redefines at ${place(effective.path, rangeOf(effective))}: its values are that redefinition's, but an instance of '${feature.name ?? '<unnamed>'}' is made from its own declaration, which does not specialize the redefinition (not modeled); declare '${feature.name ?? '<unnamed>'}' where the redefinition is, or subset the redefinition`, rangeOf(feature), 'unsupported');
    }
    return undefined;
  }

  /**
   * A feature with a value that subsets a feature of the same instance with a value of its own (`attribute
   * ys = (1.0, 2.0); attribute y3 :> ys = 5.0;`): its values must be among that value's (KerML 7.3.4.5),
   * as reading `ys` checks (subsettersAmong). Reading `y3` alone answered 5.0 though the model holds no
   * such instance. The subsetted feature's own value expression is evaluated here (reading it as a
   * feature would read `y3` again, which is being computed).
   */
  private amongSubsetted(owner: InstanceContext, feature: ModelElement, path: string, v: Value): ValueError | undefined {
    for (const root of this.index.redefinitionRoots(feature)) {
      if (root.node.kind !== 'Usage') continue;
      for (const rel of root.node.relations) {
        if (rel.relation !== 'subsetting') continue;
        const target = this.index.resolveReference(root.parent ?? root, rel.target, root);
        if (!target) continue;
        // The owner's own reading of that feature (a redefinition of it in the owner's type included).
        const subsetted = this.index.featuresOf(owner.element).find((f) => f === target || this.index.redefinitionRoots(f).includes(target))
          ?? (owner.element.node.kind === 'Package' && target.parent === owner.element ? target : undefined);
        if (!subsetted || subsetted === feature || this.checkingAmong.has(`${owner.path}\u0000${subsetted.qualifiedName}`)) continue;
        // A quantity kind declared by its value (`tpc :> scalarQuantities = torque / electricCurrent`):
        // its values are every value of that dimension, so the subsetting feature's must be of it.
        const kind = declaredKindUnit(subsetted, this.index);
        if (kind) {
          for (const item of itemsOf(v)) {
            const fits = item.kind === 'quantity' ? sameDimension(item.unit.dimension, kind.dimension) : (item.kind === 'integer' || item.kind === 'real') && isDimensionless(kind.dimension);
            if (!fits) return error(`'${path}' subsets '${subsetted.name ?? '<unnamed>'}', a quantity kind in ${kind.name}, but its value ${format(item)} is not of that kind`, rangeOf(feature));
          }
          continue;
        }
        const valued = this.index.valueSource(subsetted);
        if (!valued) continue;
        const expr = valued.node.value.expression;
        const sv = this.evaluator.nested(`'${subsetted.name ?? '<unnamed>'}'`, expr.range, () => this.evaluator.evaluate(expr, this.environment(owner, valued.parent ?? valued)));
        if (isError(sv)) return sv;
        const theirs = itemsOf(sv);
        for (const item of itemsOf(v)) {
          if (item.kind === 'instance' || theirs.some((x) => x.kind === 'instance')) {
            return error(`'${path}' subsets '${subsetted.name ?? '<unnamed>'}', which has a value of its own: whether its parts are among that value's is not modeled`, rangeOf(feature), 'unsupported');
          }
          if (!theirs.some((x) => equals(x, item))) {
            return error(`'${path}' subsets '${subsetted.name ?? '<unnamed>'}' but its value ${format(item)} is not among ${format(sv)}, the value '${subsetted.name ?? '<unnamed>'}' has (KerML: a subsetting feature's values are the subsetted feature's)`, rangeOf(feature));
          }
        }
      }
    }
    return undefined;
  }

  /**
   * Why the solver cannot read `feature` as one term: what the evaluator refuses, a value twice given,
   * or what only the evaluator models (several values from a multiplicity or subsetting features, a
   * binding connector).
   */
  solverRefusal(owner: InstanceContext, feature: ModelElement): ValueError | undefined {
    const refused = this.refusal(owner.element, feature) ?? this.chainRedefinition(owner, feature);
    if (refused) return refused;
    const conflict = this.index.conflictOf(feature, owner.element);
    if (conflict) return error(conflict, rangeOf(feature));
    const mult = this.index.multiplicityOf(feature);
    if (mult) {
      const b = this.bounds(mult, owner);
      if (isError(b as Outcome)) return b as ValueError;
      const [lower, upper] = b as [number, number];
      if (!(lower === 1 && upper === 1)) return error(`'${feature.name}' has the multiplicity ${boundsText(lower, upper)}: features with several values are evaluated, not solved`, mult.range, 'unsupported');
    }
    if (owner.element.node.kind !== 'Package' && this.index.subsettersOf(owner.element, feature).length > 0) {
      return error(`'${feature.name}' has features that subset it: features with several values are evaluated, not solved`, rangeOf(feature), 'unsupported');
    }
    // `y :> x` with x a feature of the model: y's values are among x's (KerML subsetting), a relation the
    // solver does not state; as a free term y could take any value. (Library features such as
    // `ISQ::mass` only add a quantity kind.)
    for (const r of this.index.redefinitionRoots(feature)) {
      if (r.node.kind !== 'Usage') continue;
      for (const rel of r.node.relations) {
        if (rel.relation !== 'subsetting') continue;
        const t = this.index.resolveReference(r.parent ?? r, rel.target, r);
        if (t && t.node.kind === 'Usage') {
          return error(`'${feature.name}' subsets '${t.name ?? t.qualifiedName}', a feature of the model: its values are among that feature's, which the solver does not model`, rel.range, 'unsupported');
        }
      }
    }
    for (let c: InstanceContext | undefined = owner; c; c = c.parent) {
      if (c.element.node.kind === 'Package') continue;
      const b = this.bindsOf(c.element).find((x) => x.node.kind === 'Usage' && (x.node.ends ?? []).some((end) => referenceSegments(end.target).at(-1) === feature.name));
      if (b) return error(`a binding connector binds '${feature.name}': bindings are evaluated, not solved`, rangeOf(b), 'unsupported');
    }
    // The solver does not choose among variants: a feature of a variation point (or of its variant) is
    // one of several values, which only a selection fixes.
    for (const e of [feature, ...chainOf(owner)]) {
      if (this.index.isVariationPoint(e) || this.index.isVariant(e)) {
        return error(`'${e.name ?? e.qualifiedName}' is a variation point or one of its variants: variants are evaluated (select one with a value and ask evaluate), not chosen by the solver`, rangeOf(e), 'unsupported');
      }
    }
    return undefined;
  }

  /**
   * A redefinition of a feature chain in an instance holding this one (`part car3 : Car { attribute :>>
   * engine.mass = 400.0; }`, as the release's VehicleIndividuals writes `:>> localClock.currentTime =
   * t0`): it says something of `car3.engine.mass` that the engine does not model, so reading that
   * feature is refused naming it, never answered with the value the chain's redefinition replaces.
   */
  private chainRedefinition(owner: InstanceContext, feature: ModelElement): ValueError | undefined {
    if (feature.name === null) return undefined;
    const relative = [feature.name];
    for (let c: InstanceContext | undefined = owner; c; c = c.parent) {
      for (const m of this.chainRedefiners(c.element)) {
        const rel = m.node.kind === 'Usage' ? m.node.relations.find((r) => r.relation === 'redefinition' && r.target.kind === 'FeatureChain') : undefined;
        if (!rel || rel.target.kind !== 'FeatureChain') continue;
        const segments = rel.target.chain.flatMap((q) => q.segments);
        if (sameSegments(segments, relative)) {
          return error(`'${segments.join('.')}' is redefined as a feature chain in ${c.element.name ?? c.element.qualifiedName} (:>> ${segments.join('.')}): a redefinition of a feature chain is not modeled, so '${joinPath(owner.path, feature.name)}' (${place(feature.path, rangeOf(feature))}) is not read`, rel.target.range, 'unsupported');
        }
      }
      if (c.element.name === null || c.parent === undefined) break;
      relative.unshift(c.element.name);
    }
    return undefined;
  }

  /** The members of an element and of what it specializes that redefine a feature chain (`:>> a.b`). */
  private chainRedefiners(e: ModelElement): ModelElement[] {
    const hit = CHAIN_REDEFINERS.get(e);
    if (hit) return hit;
    const out: ModelElement[] = [];
    const seen = new Set<ModelElement>();
    const visit = (x: ModelElement): void => {
      if (seen.has(x)) return;
      seen.add(x);
      for (const m of x.members) {
        if (m.node.kind === 'Usage' && m.node.relations.some((r) => r.relation === 'redefinition' && r.target.kind === 'FeatureChain')) out.push(m);
      }
      for (const t of this.index.typesOf(x)) visit(t);
    };
    visit(e);
    CHAIN_REDEFINERS.set(e, out);
    return out;
  }

  /** Why reading `feature` on an instance of `owner` is refused (src/sysml/support.ts), if it is. */
  private refusal(owner: ModelElement, feature: ModelElement): ValueError | undefined {
    let own = FEATURE_REFUSALS.get(feature);
    if (own === undefined) {
      own = null;
      if (feature.node.kind !== 'Package') {
        const u = feature.node.kind === 'Usage' ? unmodeled(feature.node, 'values') : unmodeledDefinition(feature.node, 'values');
        if (u) own = error(`${refusalMessage(u, `in '${feature.name ?? feature.qualifiedName}'`)}`, u.range, 'unsupported');
        const unresolved = own ? undefined : this.index.unresolvedType(feature);
        if (unresolved) own = error(unresolved, undefined, 'unsupported');
      }
      FEATURE_REFUSALS.set(feature, own);
    }
    return own ?? this.bodyRefusal(owner);
  }

  /** The first construct of an element's body (own and inherited members) that reading its features cannot model. */
  bodyRefusal(element: ModelElement, layer: Layer = 'values'): ValueError | undefined {
    if (element.node.kind === 'Package') return undefined;
    const cache = layer === 'checks' ? CHECK_REFUSALS : BODY_REFUSALS;
    const hit = cache.get(element);
    if (hit !== undefined) return hit ?? undefined;
    let found: ValueError | undefined;
    const visit = (e: ModelElement, seen: Set<ModelElement>): void => {
      if (found || seen.has(e) || e.node.kind === 'Package') return;
      seen.add(e);
      const d = e.node.kind === 'Definition' ? unmodeledDefinition(e.node, layer) : undefined;
      if (d) {
        found = error(refusalMessage(d, `in '${e.name ?? e.qualifiedName}'`), d.range, 'unsupported');
        return;
      }
      for (const m of e.node.body ?? []) {
        const u = unmodeled(m, layer);
        if (u) {
          found = error(refusalMessage(u, `in '${e.name ?? e.qualifiedName}', whose ${layer === 'checks' ? 'constraints are checked' : 'features are read'}`), u.range, 'unsupported');
          return;
        }
      }
      for (const t of this.index.typesOf(e)) visit(t, seen);
    };
    visit(element, new Set());
    cache.set(element, found ?? null);
    return found;
  }

  /**
   * A binding connector (`bind a = b;`) that binds this feature, in the body of its owner or of an
   * instance holding it: the other end's value (SysML 8.3.12: bound features have equal values).
   */
  private boundValue(owner: InstanceContext, feature: ModelElement): { value: Outcome; at: SourceRange } | undefined {
    const name = feature.name;
    if (name === null) return undefined;
    let relative = [name];
    for (let c: InstanceContext | undefined = owner; c; c = c.parent) {
      if (c.element.node.kind !== 'Package') {
        for (const b of this.bindsOf(c.element)) {
          const ends = b.node.kind === 'Usage' ? b.node.ends ?? [] : [];
          if (ends.length !== 2) continue;
          // A binding being followed is not followed back from its other end (a = b reads b, whose
          // own reading must not come back to a through the same binding).
          const key = `${c.path}|${rangeOf(b).start}`;
          if (this.activeBinds.has(key)) {
            this.bindSkips++;
            continue;
          }
          for (const [self, other] of [[ends[0]!, ends[1]!], [ends[1]!, ends[0]!]] as const) {
            if (!sameSegments(referenceSegments(self.target), relative)) continue;
            const env = this.environment(c, b.parent ?? c.element);
            const expr = referenceExpression(other.target);
            this.activeBinds.add(key);
            try {
              return { value: this.evaluator.evaluate(expr, env), at: rangeOf(b) };
            } finally {
              this.activeBinds.delete(key);
            }
          }
        }
      }
      const step = c.element.name;
      if (step === null || !c.parent) break;
      relative = [step, ...relative];
    }
    return undefined;
  }

  private bindsOf(element: ModelElement): ModelElement[] {
    let hit = BINDS.get(element);
    if (!hit) {
      hit = this.index.featuresOf(element).filter((f) => f.node.kind === 'Usage' && (f.node.keyword === 'bind' || f.node.keyword === 'binding'));
      BINDS.set(element, hit);
    }
    return hit;
  }

  /**
   * The values of a feature without a value of its own, from its multiplicity (KerML 7.3.4.4) and the
   * features that subset it (7.3.4.5). Closed world: the features a body declares to subset `f` are all
   * of `f`'s values; a part or item declared `[n]` with none holds n anonymous instances of its type; a
   * part or item whose multiplicity allows none (`[*]`, `[0..n]`) and that nothing subsets holds none.
   * Undefined when the feature reads as before (one instance, or no value).
   */
  private multipleValues(owner: InstanceContext, feature: ModelElement, path: string): Outcome | undefined {
    const subsetters = owner.element.node.kind === 'Package' ? [] : this.index.subsettersOf(owner.element, feature);
    const mult = this.index.multiplicityOf(feature);
    const bounds = mult ? this.bounds(mult, owner) : undefined;
    if (bounds && isError(bounds as Outcome)) return bounds as ValueError;
    const [lower, upper] = (bounds as [number, number] | undefined) ?? [1, 1];
    // A redefinition has the values of the feature it redefines (KerML 7.3.4.6), so both multiplicities
    // hold: `part :>> wheels[6]` of a `wheels : Wheel[4]` admits no number of values.
    if (mult) {
      for (const { multiplicity: m, of } of this.index.multiplicitiesOf(feature)) {
        if (m === mult) continue;
        const b = this.bounds(m, owner);
        if (isError(b as Outcome)) return b as ValueError;
        const [lo, up] = b as [number, number];
        if (Math.max(lo, lower) > Math.min(up, upper)) {
          return error(`'${path}' is declared ${boundsText(lower, upper)} but redefines ${of.qualifiedName}, declared ${boundsText(lo, up)} (${place(of.path, m.range)}): a redefinition has the values of the feature it redefines (KerML 7.3.4.6), so no number of values meets both`, mult.range);
        }
      }
    }
    const node = feature.node as Usage;
    const structural = STRUCTURAL.has(node.keyword) || (node.keyword === 'ref' && this.index.featuresOf(feature).length > 0);
    // A subsetter bound to one of the feature's own values by index (`part left :> wheel = wheel#(1);`)
    // names a value the feature has, adding none (indexing yields a value of the sequence indexed): the
    // values come from the others, or the multiplicity, as if it were not there. Taken only where the
    // count is one known number that covers every index, and where no other subsetter declares a value
    // (which of those is first is not modeled).
    const aliases = subsetters.filter((s) => this.indexAlias(feature, s) !== undefined);
    if (aliases.length > 0) {
      const others = subsetters.filter((s) => !aliases.includes(s));
      const covered = mult && structural && lower === upper && aliases.every((s) => this.indexAlias(feature, s)! <= lower);
      // An alias with a body of its own (`part leftWheel :> rearWheel = rearWheel#(1) { port p; }`) says
      // more of that value: the value is an instance of the alias's declaration (which specializes the
      // feature's), so its features are the body's too. Two aliases of one index, one with a body, are
      // refused (which declaration the value is made from is not said).
      const bodied = new Map<number, ModelElement>();
      for (const s of aliases) {
        const k = this.indexAlias(feature, s)!;
        const twin = aliases.find((o) => o !== s && this.indexAlias(feature, o) === k);
        if (twin && ((s.node as Usage).body ?? []).length + ((twin.node as Usage).body ?? []).length > 0) {
          return error(`'${s.name ?? '<unnamed>'}' and '${twin.name ?? '<unnamed>'}' are both '${path}#(${k})' and one declares a body: which declaration that value is made from is not modeled`, rangeOf(s), 'unsupported');
        }
        if (((s.node as Usage).body ?? []).length > 0) bodied.set(k, s);
      }
      if (others.length === 0 && covered) {
        if (lower === 1) return bodied.has(1) ? this.instance({ element: bodied.get(1)!, path, parent: owner }) : undefined;
        const items: Value[] = [];
        for (let k = 1; k <= lower; k++) items.push(this.instance({ element: bodied.get(k) ?? feature, path: `${path}#${k}`, parent: owner }));
        return sequence(items);
      }
      const alias = aliases[0]!;
      return error(`'${alias.name ?? '<unnamed>'}' subsets '${path}' and is bound to one of its values by index; this is modeled only where '${path}' has one known number of values (a multiplicity like [2]) that covers the index and no other feature subsets it`, rangeOf(alias), 'unsupported');
    }
    if (subsetters.length > 0) {
      const items: Value[] = [];
      for (const s of subsetters) {
        const v = this.featureValue(owner, s);
        if (isError(v)) return v;
        items.push(v);
      }
      // A part declared `[n]` holds n instances: the values of the parts that subset it (a `Wheel[2]`
      // that subsets it is two) are among them, instances of its own declaration make up the rest (as
      // when nothing subsets it).
      const held = itemsOf(sequence(items)).length;
      if (mult && structural && lower === upper && held < lower && !node.isAbstract) {
        for (let k = held + 1; k <= lower; k++) items.push(this.instance({ element: feature, path: `${path}#${k}`, parent: owner }));
      }
      return this.checkCount(feature, path, sequence(items));
    }
    // An abstract feature has no values but those of the features that specialize it (KerML
    // Type::isAbstract): with none subsetting it here, instances of its own declaration are not its
    // values (`abstract part wheels : Wheel[4];` answered four wheels).
    if (structural && node.isAbstract && !(mult && lower === 0)) {
      return error(`'${path}' is abstract and no feature subsets it here: its values are only those of features that specialize it (KerML: an abstract type's instances are instances of its specializations), so it holds none, which its multiplicity does not allow`, rangeOf(feature));
    }
    if (!mult) return undefined;
    if (!structural) return undefined;
    if (lower === upper) {
      if (lower === 1) return undefined;
      const items: Value[] = [];
      for (let k = 1; k <= lower; k++) items.push(this.instance({ element: feature, path: `${path}#${k}`, parent: owner }));
      return sequence(items);
    }
    if (lower === 0) return sequence([]);
    return error(`'${path}' has between ${lower} and ${upper === Infinity ? '*' : upper}${UNCOUNTED}`, mult.range, 'unsupported');
  }

  /**
   * The index k where `s` is declared `:> f = f#(k)` (k an Integer literal, `f` naming the subsetted
   * feature), with no type, multiplicity or other relation of its own, so it is one of f's values under
   * another name (a body it declares says more of that value: see multipleValues). Undefined otherwise.
   */
  private indexAlias(feature: ModelElement, s: ModelElement): number | undefined {
    const node = s.node;
    if (node.kind !== 'Usage' || node.value === null || node.value.isDefault || node.value.isInitial) return undefined;
    if (node.multiplicity !== null || node.relations.length !== 1 || node.relations[0]!.relation !== 'subsetting') return undefined;
    const e = node.value.expression;
    if (e.kind !== 'Index' || e.target.kind !== 'Name' || e.target.name.segments.length !== 1 || e.target.name.isGlobal) return undefined;
    if (e.index.kind !== 'Literal' || e.index.literal !== 'integer' || typeof e.index.value !== 'number' || !Number.isSafeInteger(e.index.value) || e.index.value < 1) return undefined;
    const subsetted = this.index.resolveReference(s.parent ?? s, node.relations[0]!.target, s);
    const named = this.index.resolveReference(s.parent ?? s, e.target.name, s);
    if (!subsetted || !named || named !== subsetted) return undefined;
    const roots = this.index.redefinitionRoots(feature);
    if (!this.index.redefinitionRoots(named).some((r) => roots.includes(r))) return undefined;
    return e.index.value;
  }

  /** The bounds of a multiplicity (`[4]`, `[2..*]`); its expressions must be Integers. */
  private bounds(m: Multiplicity, owner: InstanceContext): [number, number] | ValueError {
    const env = this.environment(owner, owner.element);
    const read = (e: Expression): number | ValueError => {
      const v = this.evaluator.evaluate(e, env);
      if (isError(v)) return v;
      if (v.kind === 'real' && v.value === Infinity) return Infinity;
      if (v.kind !== 'integer') return error(`a multiplicity bound must be an Integer, got ${format(v)}`, e.range);
      return Number(v.value);
    };
    const upper = read(m.upper);
    if (typeof upper !== 'number') return upper;
    if (m.lower === null) return upper === Infinity ? [0, Infinity] : [upper, upper];
    const lower = read(m.lower);
    if (typeof lower !== 'number') return lower;
    return [lower, upper];
  }

  /** A value against the feature's multiplicity: a count outside its bounds is a model error. */
  private checkCount(feature: ModelElement, path: string, v: Value): Outcome {
    const mult = this.index.multiplicityOf(feature);
    if (!mult) {
      // A usage without a multiplicity has [1..1] (SysML 8.3.6): several values, or none (null), are a model error.
      const count = itemsOf(v).length;
      if (count !== 1 && feature.node.kind === 'Usage' && DEFAULT_ONE.has(feature.node.keyword)) {
        return count === 0
          ? error(`'${path}' holds no value (null), but a usage without a multiplicity holds one ([1..1]): declare it [0..1] or give it a value`, rangeOf(feature))
          : error(`'${path}' holds ${count} values, but a usage without a multiplicity holds one ([1..1]): declare it [${count}] or [*]`, rangeOf(feature));
      }
      return v;
    }
    const owner = this.contextOf(feature.parent ?? feature);
    const count = itemsOf(v).length;
    // Its own multiplicity, and those of the features it redefines (the same values, KerML 7.3.4.6).
    for (const { multiplicity: m, of } of this.index.multiplicitiesOf(feature)) {
      const b = this.bounds(m, owner);
      if (isError(b as Outcome)) return b as ValueError;
      const [lower, upper] = b as [number, number];
      if (count < lower || count > upper) {
        const text = boundsText(lower, upper);
        if (m === mult) return error(`'${path}' holds ${count} value${count === 1 ? '' : 's'}, outside its multiplicity ${text}`, m.range);
        return error(`'${path}' holds ${count} value${count === 1 ? '' : 's'}, outside the multiplicity ${text} of ${of.qualifiedName} (${place(of.path, m.range)}), which it redefines: a redefinition has the values of the feature it redefines (KerML 7.3.4.6)`, rangeOf(feature));
      }
    }
    return v;
  }

  /**
   * A value against the feature's declared types (KerML FeatureTyping: its values are instances of
   * them): a quantity of another dimension than the declared quantity kind (`m : MassValue = 3 [m]`, a
   * calc declared to return an AccelerationValue yielding kJ*kW), a quantity with a dimension for a
   * number type, anything but a number for a quantity, a value that is no instance of a ScalarValues
   * type (`n : Integer = 7 / 2`, `k : Natural = -3`, `r : Real = "abc"`) or of an enumeration
   * (`c : Color = 3`) is a model error. A plain number for a quantity is read as is; a whole Real for an
   * Integer type is that Integer. A type the engine does not know checks nothing.
   */
  checkType(feature: ModelElement, what: string, v: Outcome): Outcome {
    if (isError(v)) return v;
    const type = this.index.typeNameOf(feature);
    const last = type?.split('::').at(-1)!.replace(/^'|'$/g, '');
    if (type && last && /Unit$/.test(last) && last !== 'SystemOfUnits') return this.asModelUnit(feature, what, type, last, v);
    return this.conforming(feature, what, v);
  }

  /** checkType for a feature that is not a unit: its value checked against its types (a bound Real made an Integer when whole). */
  conforming(feature: ModelElement, what: string, v: Value): Outcome {
    const type = this.index.typeNameOf(feature);
    const last = type?.split('::').at(-1)!.replace(/^'|'$/g, '');
    const kind = last ? quantityKindUnit(last) : undefined;
    const quantityTyped = kind !== undefined || this.index.isQuantityValued(feature);
    const types = this.index.valueTypesOf(feature);
    const items: Scalar[] = [];
    for (const item of itemsOf(v)) {
      if (kind && item.kind === 'quantity' && !sameDimension(item.unit.dimension, kind.dimension)) {
        return error(`${what} is declared ${type} (a quantity in ${kind.name}) but its value ${format(item)} is another quantity`, rangeOf(feature));
      }
      // Same dimension, but the value's unit is declared for another kind (`t : TorqueValue = 5 [J]`,
      // `joule : EnergyUnit`): whether it is a value of the declared kind is not modeled.
      const other = kind && item.kind === 'quantity' ? namedUnitOfOtherKind(item.unit, last!) : undefined;
      if (other) {
        return error(`${what} is declared ${type}, but its value ${format(item)} is in a unit the library declares for ${other}, which shares its dimension; whether it is a ${last} is not modeled`, rangeOf(feature), 'unsupported');
      }
      if (quantityTyped && item.kind !== 'quantity' && item.kind !== 'integer' && item.kind !== 'real' && item.kind !== 'instance') {
        return error(`${what} is declared ${type} (a quantity) but its value is ${format(item)}`, rangeOf(feature));
      }
      // A number type (ScalarValues' Real, Integer …) given a quantity with a dimension: the unit would be
      // dropped silently; the model's value and its declaration disagree.
      if (last && NUMBER_TYPES.has(last) && item.kind === 'quantity' && !isDimensionless(item.unit.dimension)) {
        return error(`${what} is declared ${type} (a number) but its value ${format(item)} is a quantity in [${item.unit.name}]`, rangeOf(feature));
      }
      let typed: Scalar | undefined = item;
      for (const t of types) {
        const doubt = t.kind === 'scalar' && isIntegerTypeName(t.name) ? wholeNumberDoubt(typed) : undefined;
        if (doubt !== undefined) return error(`${what} is declared ${t.written}, but ${doubt}`, rangeOf(feature), 'unsupported');
        typed = t.kind === 'scalar' ? asInstanceOf(typed, t.name) : this.isLiteralOf(t.definition, typed) ? typed : undefined;
        if (typed === undefined) return error(`${what} is declared ${t.written} but its value is ${format(item)}`, rangeOf(feature));
      }
      items.push(typed);
    }
    return items.some((x, i) => x !== itemsOf(v)[i]) ? sequence(items) : v;
  }

  /** Whether a value is one of an enumeration's values: its literal, or the value a literal declares (`enum A = 4.0;`). */
  private isLiteralOf(definition: ModelElement, item: Scalar): boolean {
    const literals = definition.members.filter((m) => m.node.kind === 'Usage');
    if (item.kind === 'enum') return item.definition === (definition.name ?? definition.qualifiedName) && literals.some((l) => l.name === item.literal || l.shortName === item.literal);
    if (item.kind === 'instance') return false;
    const env = this.environment(this.root, definition);
    return literals.some((l) => {
      const valued = l.node.kind === 'Usage' ? l.node.value : null;
      if (!valued) return false;
      const own = this.evaluator.evaluate(valued.expression, env);
      return !isError(own) && equals(own, item);
    });
  }

  /**
   * A feature typed by a unit type whose value is a unit expression (`mpg : DerivedUnit = 'mi' /
   * gallon`) or a multiple of a unit (`gallon : VolumeUnit = 231.0 * 'in' ** 3`) is a unit the model
   * defines, named by the feature's short name or name. A kind-specific unit type (`VolumeUnit`)
   * checks the dimension; anything else is a model error, never a guessed unit.
   */
  private asModelUnit(feature: ModelElement, what: string, type: string, last: string, v: Value): Outcome {
    if (v.kind !== 'unit' && v.kind !== 'quantity') {
      return error(`${what} is declared ${type} (a unit) but its value ${format(v)} is not a unit expression`, rangeOf(feature));
    }
    const kind = quantityKindUnit(`${last.replace(/Unit$/, '')}Value`);
    if (kind && !sameDimension(v.unit.dimension, kind.dimension)) {
      return error(`${what} is declared ${type} (a unit of ${kind.name}'s dimension) but its value ${format(v)} is of another dimension`, rangeOf(feature));
    }
    const name = feature.shortName ?? feature.name;
    const unit = name ? modelUnit(name, v.unit, v.kind === 'quantity' ? v.value : 1, v.kind === 'quantity' ? v.exact : { n: 1n, d: 1n }) : undefined;
    if (!unit) return error(`${what}: ${format(v)} cannot define a unit (an affine scale or a factor that is not positive)`, rangeOf(feature));
    return unitValue(unit);
  }

  /** A calc's value against its declared result type (its return parameter's). */
  private checkResult(element: ModelElement, label: string, v: Outcome): Outcome {
    if (isError(v)) return v;
    let retElement = RESULT_PARAMETERS.get(element);
    if (retElement === undefined) {
      const ret = this.bodyMembers(element).find((m): m is Usage => m.kind === 'Usage' && m.role === 'return');
      retElement = (ret ? this.index.elementOf(ret) : undefined) ?? null;
      RESULT_PARAMETERS.set(element, retElement);
    }
    if (!retElement) return v;
    const typed = this.checkType(retElement, `the result of ${label}`, v);
    if (isError(typed)) return typed;
    // A result parameter without a multiplicity has one value ([1..1]): none (`xs#(4)` past the end)
    // or several is a model error, not a value.
    const count = itemsOf(v).length;
    const mult = this.index.multiplicityOf(retElement);
    if (mult) return this.checkCount(retElement, `result of ${label}`, v);
    if (count !== 1 && this.index.typeNameOf(retElement) !== undefined) {
      return error(`the result of ${label} has ${count === 0 ? 'no value' : `${count} values`}, but its result parameter holds one ([1..1])`, rangeOf(retElement));
    }
    return v;
  }

  /** The name a calc usage gives its result (`return a;`), if any. */
  namedResult(element: ModelElement): string | undefined {
    for (const f of this.index.featuresOf(element)) {
      if (f.node.kind === 'Usage' && f.node.role === 'return' && f.name) return f.name;
    }
    return undefined;
  }

  /**
   * A variation point's selected variant, read on the instance that holds the point (`ctx`), not where
   * the variant is declared: `variant part electric { :>> power = base * 2; }` reads the configured
   * car's `base`. Anything else is refused: a variation point's value is one of its variants.
   */
  private selectedVariant(feature: ModelElement, ctx: InstanceContext, v: Value): Outcome {
    const variants = this.index.variantsOf(feature);
    const chosen = v.kind === 'instance' && v.variant ? variants.find((x) => x.name === v.variant!.name && x.parent?.qualifiedName === v.variant!.point) : undefined;
    // A variant that is a plain value (`variant attribute high = 2.0;`) is selected by that value.
    if (!chosen && v.kind !== 'instance' && variants.some((x) => x.node.kind === 'Usage' && x.node.value !== null)) {
      const point = this.child(ctx.parent ?? ctx, feature);
      for (const x of variants) {
        const value = this.featureValue(point, x);
        if (!isError(value) && value.kind !== 'instance' && equals(value, v)) return v;
      }
    }
    if (!chosen) {
      return error(`'${ctx.path}' is a variation point: its value must be one of its variants (${variants.map((x) => x.name).join(', ') || 'none declared'}), not ${format(v)}`, rangeOf(feature));
    }
    return this.instance(this.child(ctx, chosen));
  }

  /** `point::variant` read on an instance (`ring.nesting::nestingTrue`): that variant of its feature `point`. */
  private variantNamed(ctx: InstanceContext, qualified: string): Outcome | undefined {
    const [first, ...rest] = qualified.split('::');
    const point = this.feature(ctx.element, first!);
    if (!point || rest.length === 0) return undefined;
    let e: ModelElement | undefined = point;
    for (const segment of rest) e = e && this.index.member(e, segment);
    return e && this.index.isVariant(e) ? this.instance(this.child(this.child(ctx, point), e)) : undefined;
  }

  /** A part, item or structured attribute as a value whose features are read on demand. */
  instance(ctx: InstanceContext): Instance {
    const point = ctx.element.parent;
    const variant = point && ctx.element.name && this.index.isVariant(ctx.element) ? { point: point.qualifiedName, name: ctx.element.name } : undefined;
    const made: Instance = {
      kind: 'instance',
      label: ctx.path === '' ? (ctx.element.name ?? '<unnamed>') : ctx.path,
      // A variant is the same choice wherever it is named (`engine == engine::electric`).
      identity: variant ? `variant:${ctx.element.qualifiedName}` : `instance:${ctx.path}:${ctx.element.qualifiedName}`,
      ...(variant ? { variant } : {}),
      // Worked out when `==` asks (a sweep makes instances on every row).
      get usage(): string | undefined {
        return variant || /(^|\.)new [^.]*#\d+$/.test(ctx.path) ? undefined : `${ctx.path.replace(/#\d+$/, '')}:${ctx.element.qualifiedName}`;
      },
      member: (name: string) => {
        if (name.includes('::')) return this.variantNamed(ctx, name);
        const f = this.feature(ctx.element, name);
        return f ? this.featureValue(ctx, f) : undefined;
      },
    };
    this.instanceContexts.set(made, ctx);
    return made;
  }

  private constructions = 0;

  /**
   * `new T(args)` (KerML ConstructorExpression): a new instance of T, a part, item or occurrence
   * definition of the model (an occurrence: each `new` makes another), its features given by the
   * arguments: positional ones in the order T declares its own public features, named ones by name; the
   * others as T declares them. Refused: a type the model does not declare (a library one), an abstract
   * one, one with constraints or requirements to check (in it or the structures it holds: a check of the
   * structure holding the new instance does not reach them), an argument for a feature with a bound value.
   */
  construct(type: Reference, args: readonly CallArgument[], ctx: InstanceContext, lexical: ModelElement, at: SourceRange): Outcome {
    const text = type.kind === 'QualifiedName' ? type.segments.join('::') : type.chain.map((q) => q.segments.join('::')).join('.');
    const t = this.index.resolveReference(lexical, type);
    const why = constructionRefusal(this.index, t, text);
    if (why) return error(why, at, 'unsupported');
    const def = t!;
    const owned = def.members.filter((m) => m.node.kind === 'Usage' && m.node.visibility !== 'private' && m.node.visibility !== 'protected');
    if (args.some((a) => a.name !== null) && args.some((a) => a.name === null)) {
      return error(`'new ${text}(…)' mixes positional and named arguments`, at);
    }
    if (args.some((a) => a.name === null) && owned.some((m) => !PLAIN_FEATURES.has((m.node as Usage).keyword) || (m.node as Usage).role !== null || (m.node as Usage).direction !== null)) {
      const odd = owned.find((m) => !PLAIN_FEATURES.has((m.node as Usage).keyword) || (m.node as Usage).role !== null || (m.node as Usage).direction !== null)!;
      return error(`'new ${text}(…)' with positional arguments: ${text} declares '${odd.name ?? '<unnamed>'}', which is not an attribute, part, item or occurrence, so which features the arguments give is not modeled (name them: new ${text}(x = …))`, at, 'unsupported');
    }
    if (args.filter((a) => a.name === null).length > owned.length) {
      return error(`'new ${text}(…)' has ${args.length} arguments, but ${text} declares ${owned.length} public feature${owned.length === 1 ? '' : 's'} of its own`, at);
    }
    const path = `${joinPath(ctx.path, `new ${def.name ?? text}`)}#${++this.constructions}`;
    const made: InstanceContext = { element: def, path, parent: ctx };
    const given = new Set<ModelElement>();
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const f = a.name !== null ? this.feature(def, a.name) : owned[i];
      if (!f) return error(`'new ${text}(…)': ${text} has no feature '${a.name}'`, at);
      if (given.has(f)) return error(`'new ${text}(…)' gives '${f.name}' twice`, at);
      given.add(f);
      const refused = this.refusal(def, f);
      if (refused) return refused;
      const conflict = this.index.conflictOf(f, def);
      if (conflict) return error(conflict, rangeOf(f));
      // Features whose values other features of T give, or choose among, are read only from T's declaration.
      if (this.index.subsettersOf(def, f).length > 0 || this.index.isVariationPoint(f) || this.index.isVariant(f)) {
        return error(`'new ${text}(…)' gives '${f.name}', which other features of ${text} subset or which is a variation point: an argument for it is not modeled`, at, 'unsupported');
      }
      const valued = this.index.valueSource(f);
      if (valued && !valued.node.value.isDefault) {
        return error(`'new ${text}(…)' gives '${f.name}', which ${text} binds to a value (${valued.node.value.isInitial ? ':=' : '='} at ${valued.node.value.range.line}:${valued.node.value.range.column}): whether the two agree is not modeled`, at, 'unsupported');
      }
      const fpath = joinPath(path, pathSegment(f));
      const typed = this.checkType(f, `'${fpath}'`, a.value);
      if (isError(typed)) return typed;
      const counted = this.checkCount(f, fpath, typed);
      if (isError(counted)) return counted;
      this.cache.set(fpath, { state: 'done', value: counted });
    }
    return this.instance(made);
  }

  /** A feature (own or inherited) of an element by name. */
  feature(element: ModelElement, name: string): ModelElement | undefined {
    return this.index.featureNamed(element, name);
  }

  /**
   * The members a calc, constraint or requirement body is evaluated over: its own members first, then
   * the inherited ones it does not redefine, and the result expression of the nearest body that has one.
   */
  bodyMembers(element: ModelElement): Member[] {
    // A body's members are read by name: one whose name names two features there is refused.
    const [clash] = this.index.namingProblems(element);
    if (clash) throw new UnsupportedError(`${place(clash[0].path, rangeOf(clash[0]))}: ${clash[1]}`);
    const unresolved = this.index.unresolvedType(element);
    if (unresolved) throw new UnsupportedError(unresolved);
    // A feature added under a name a supertype's body reads as something else would be read for it.
    const hidden = this.index.hiddenBodyName(element);
    if (hidden) throw new UnsupportedError(`${place(hidden.feature.path, rangeOf(hidden.feature))}: ${hidden.message}`);
    // The index never changes, so neither does an element's body: computed once (every table row asks).
    const cached = BODY_MEMBERS.get(element);
    if (cached) return cached;
    const members = this.computeBodyMembers(element);
    BODY_MEMBERS.set(element, members);
    return members;
  }

  private computeBodyMembers(element: ModelElement): Member[] {
    const features = this.index.featuresOf(element).map((f) => f.node as Member);
    const own = element.node.kind === 'Package' ? element.node.members ?? [] : element.node.body ?? [];
    let extra: Member[] = own.filter((m) => m.kind !== 'Usage' && m.kind !== 'Definition' && m.kind !== 'Package');
    if (isCallable(element)) extra = [...this.inheritedSteps(element, extra), ...extra];
    const result = this.resultExpression(element);
    return [...features, ...extra.filter((m) => m.kind !== 'ResultExpression'), ...(result ? [result] : [])];
  }

  /**
   * The steps a calc or analysis inherits that are not named features (`assign`, `if`, loops,
   * successions, …: SysML action usages of its type's body, which a usage `cu : C` performs as C does):
   * the body's behaviour members of the nearest type that has any (with what that type inherits). Its
   * own and a type's together, or two types' (whose steps run when, against each other, is not said by
   * text order), are refused.
   */
  private inheritedSteps(element: ModelElement, own: readonly Member[]): Member[] {
    const providers: ModelElement[] = [];
    const seen = new Set<ModelElement>([element]);
    const visit = (e: ModelElement): void => {
      for (const t of this.index.typesOf(e)) {
        if (seen.has(t)) continue;
        seen.add(t);
        if (t.node.kind === 'Package') continue;
        if ((t.node.body ?? []).some((m) => STEP_KINDS.has(m.kind))) providers.push(t);
        else visit(t);
      }
    };
    visit(element);
    if (providers.length === 0) return [];
    const label = element.name ?? element.qualifiedName;
    if (providers.length > 1 || own.some((m) => STEP_KINDS.has(m.kind))) {
      const from = providers.map((t) => t.name ?? t.qualifiedName).join(' and ');
      throw new UnsupportedError(`${place(element.path, rangeOf(element))}: ${label} performs the actions of ${from}${providers.length > 1 ? '' : ' and actions of its own'}; which of them runs before which is not modeled (write them in one body)`);
    }
    return this.bodyMembers(providers[0]!).filter((m) => STEP_KINDS.has(m.kind));
  }

  private resultExpression(element: ModelElement, seen = new Set<ModelElement>()): Member | undefined {
    if (seen.has(element)) return undefined;
    seen.add(element);
    const own = element.node.kind === 'Package' ? [] : (element.node.body ?? []);
    const r = [...own].reverse().find((m) => m.kind === 'ResultExpression');
    if (r) return r;
    for (const t of this.index.typesOf(element)) {
      const inherited = this.resultExpression(t, seen);
      if (inherited) return inherited;
    }
    return undefined;
  }

  /** invokeElement with the body's outputs and the failed assertion (evaluate of an analysis reports them). */
  invokeElementDetailed(element: ModelElement, args: readonly CallArgument[], ctx: InstanceContext, at: SourceRange | undefined): BodyOutcome {
    const named = this.namedConstraint(element, ctx);
    if (named !== undefined) return { value: named, outputs: [] };
    const label = element.name ?? element.qualifiedName;
    const outer = this.environment(ctx, element);
    const r = this.evaluator.callBodyDetailed(label, this.bodyMembers(element), args, outer, at, declarationKind(element));
    const checked = this.checkResult(element, label, r.value);
    const out = checked === r.value ? r : { ...r, value: checked };
    if (isError(out.value)) return out;
    const objective = this.index.featuresOf(element).find((f) => f.node.kind === 'Usage' && f.node.role === 'objective');
    return objective ? { ...out, objective: this.objectiveVerdict(objective, out.value, ctx, at, r.scope ? { scope: r.scope, members: this.bodyMembers(element) } : undefined) } : out;
  }

  /**
   * A case's objective against its result. The objective is a requirement whose subject is the case's
   * result (SysML Cases library: `objective obj : RequirementCheck { subject subj default Case::result; }`):
   * its subject parameter is given the result, a `subject = result;` it writes says the same, and its
   * require/assume constraints (its own and its definition's) are checked.
   */
  private objectiveVerdict(objective: ModelElement, result: Value, ctx: InstanceContext, at: SourceRange | undefined, ran?: { scope: LocalScope; members: readonly Member[] }): NonNullable<BodyOutcome['objective']> {
    const label = objective.name ?? 'objective';
    const range = rangeOf(objective) ?? at ?? (objective.node as Usage).range;
    const isResultRef = (m: Member): boolean => {
      if (m.kind !== 'Usage' || m.role !== 'subject' || !m.value || m.value.isDefault) return false;
      const e = m.value.expression;
      return e.kind === 'Name' && e.name.segments.at(-1) === 'result';
    };
    const members = this.bodyMembers(objective).filter((m) => !isResultRef(m));
    const subjects = members.filter((m): m is Usage => m.kind === 'Usage' && m.role === 'subject');
    const other = subjects.find((m) => m.value !== null && !m.value.isDefault);
    if (other) {
      return { label, range, verdict: error(`the objective ${label}: a subject other than the case's result is not modeled`, other.range, 'unsupported') };
    }
    const named = subjects.find((m) => m.name !== null);
    const args: CallArgument[] = named ? [{ name: named.name, value: result }] : [];
    // The case's own names (its result parameter `economy`, its outputs and locals) are read as its run
    // left them: the objective is checked after the case ran (its result is the run's), not against the
    // values its declarations start with.
    const env = new ResultEnvironment(this.environment(ctx, objective), result);
    let scope: Environment = env;
    if (ran) {
      const after = new LocalScope(env);
      for (const m of ran.members) {
        const member = m.kind === 'Succession' && m.targetMember?.kind === 'Usage' ? m.targetMember : m;
        if (member.kind !== 'Usage') continue;
        const n = declaredName(member);
        if (n === null || n === 'result' || after.has(n) || !ran.scope.has(n)) continue;
        const run = ran.scope;
        after.define(n, () => run.local(n)!);
      }
      scope = after;
    }
    const verdict = this.evaluator.checkRequirement(label, members, args, scope, range);
    const states = members.some((m) => m.kind === 'Usage' && (m.role === 'require' || m.role === 'assume' || m.role === 'assert' || (m.keyword === 'requirement' && m.role === null)));
    return { label, range, verdict, ...(states ? {} : { unstated: true }) };
  }

  /**
   * The value of a constraint usage that names its constraint by reference subsetting (`assert heavy;`,
   * `assert not heavy;`: SysML AssertConstraintUsage, whose asserted constraint is the referenced
   * feature): that feature read on the instance holding the usage (the negation is the caller's, as for
   * any asserted constraint). Undefined for any other element.
   */
  private namedConstraint(element: ModelElement, ctx: InstanceContext): Outcome | undefined {
    if (element.node.kind !== 'Usage') return undefined;
    const ref = referencedConstraint(element.node);
    if (!ref) return undefined;
    const mixed = referencedConstraintMix(element.node);
    if (mixed) return mixed;
    const owner = ctx.element === element && ctx.parent ? ctx.parent : ctx;
    const env = this.environment(owner, element.parent ?? owner.element);
    // `require massLimit;` is itself named massLimit where it is written (SysML: a constraint usage of a
    // RequirementConstraintMembership takes its name from the constraint it references), so the name read
    // there is the member itself; the constraint it references is the one the name resolves to from
    // outside the member. Read it where it is declared when that is a package and the member adds nothing
    // of its own (a body binding its parameters would be ignored there; otherwise as before).
    if (ref.kind === 'QualifiedName' && (element.node.body ?? []).length === 0 && this.index.resolveQualifiedName(this.index.writtenIn(ref) ?? element.parent ?? element, ref) === element) {
      const target = this.index.resolveReference(element.parent ?? element, ref, element);
      if (target && target !== element && target.node.kind === 'Usage' && target.parent?.node.kind === 'Package') {
        const v = env.packageFeatureValue(target);
        if (v !== undefined) return v;
      }
    }
    return this.evaluator.evaluate(referenceExpression(ref), env);
  }

  /** Invokes a calc/constraint element with arguments; `ctx` is the instance it is read on. */
  invokeElement(element: ModelElement, args: readonly CallArgument[], ctx: InstanceContext, at: SourceRange | undefined): Outcome {
    const named = this.namedConstraint(element, ctx);
    if (named !== undefined) return named;
    const label = element.name ?? element.qualifiedName;
    const outer = this.environment(ctx, element);
    return this.checkResult(element, label, this.evaluator.callBody(label, this.bodyMembers(element), args, outer, at, declarationKind(element)));
  }
}

/** ScalarValues' number types: a value of one of them is a number, never a quantity with a unit. */
const NUMBER_TYPES = new Set(['Real', 'Integer', 'Rational', 'Natural', 'Positive', 'Number', 'NumericalValue']);

const NO_VALUE = ' has no value: give it one in the model or bind it in the question';

/** Whether an error is a feature's missing value (its own, or one it is computed from), not a model error or a refusal. */
const UNCOUNTED = ' values and the model does not say which: declare them (parts that subset it) or give it a multiplicity of one number';

/**
 * The refusal of a structural feature declared with a range (`part cyl : Cylinder[4..6];`) that nothing
 * subsets: the feature's path and its bounds, as the refusal names them. Undefined for any other error.
 */
export function uncountedFeature(e: ValueError): { path: string; lower: string; upper: string } | undefined {
  if (e.code !== 'unsupported' || !e.message.endsWith(UNCOUNTED)) return undefined;
  const m = /^'(.+)' has between (\d+) and (\d+|\*)$/.exec(e.message.slice(0, -UNCOUNTED.length));
  return m ? { path: m[1]!, lower: m[2]!, upper: m[3]! } : undefined;
}

export function isMissingValue(e: ValueError): boolean {
  return e.code === undefined && e.message.endsWith(NO_VALUE);
}

/** Body members that are steps of a behaviour without being named features of it (action usages the parser keeps apart). */
const STEP_KINDS = new Set<Member['kind']>(['Succession', 'Transition', 'AcceptAction', 'SendAction', 'AssignAction', 'IfAction', 'LoopAction', 'ForAction', 'TerminateAction', 'StateSubaction']);

export function isCallable(e: ModelElement): boolean {
  return e.node.kind !== 'Package' && CALLABLE_KEYWORDS.has(declarationKind(e));
}

/** An objective's scope: `result` is the case's result (Case::result, which a `return` parameter redefines). */
class ResultEnvironment implements Environment {
  constructor(
    private readonly outer: ModelEnvironment,
    private readonly result: Value,
  ) {}

  lookup(name: QualifiedName): Outcome | undefined {
    return !name.isGlobal && name.segments.length === 1 && name.segments[0] === 'result' ? this.result : this.outer.lookup(name);
  }
  memberValue(member: Usage): Outcome | undefined {
    return this.outer.memberValue(member);
  }
  invoke(callee: Reference, args: readonly CallArgument[], evaluator: Evaluator, at: SourceRange): Outcome | undefined {
    return this.outer.invoke(callee, args, evaluator, at);
  }
  construct(type: Reference, args: readonly CallArgument[], at: SourceRange): Outcome | undefined {
    return this.outer.construct(type, args, at);
  }
  classify(value: Scalar, type: QualifiedName): boolean | undefined {
    return this.outer.classify(value, type);
  }
  metaclassify(element: QualifiedName, type: QualifiedName, at: Place): Outcome | undefined {
    return this.outer.metaclassify(element, type, at);
  }
  sourceText(range: SourceRange): string | undefined {
    return this.outer.sourceText(range);
  }
  calcOutput(usage: QualifiedName, output: string): Outcome | undefined {
    return this.outer.calcOutput(usage, output);
  }
  conform(usage: Usage, value: Value): Outcome | undefined {
    return this.outer.conform(usage, value);
  }
}

export class ModelEnvironment implements Environment {
  constructor(
    private readonly values: ModelValues,
    private readonly ctx: InstanceContext,
    /** Where the expression is written: names that are not features resolve from here. */
    private readonly lexical: ModelElement,
  ) {}

  /**
   * Where a name is written: an inherited member's expression is read on this instance, but its names
   * resolve in the supertype that declares it (`calc f : Lib::Fall` reads Fall's `g` as Lib's, not as a
   * `g` of f's package). A name not in the model's text (a question's condition) resolves here.
   */
  private scopeOf(ref: object): ModelElement {
    return this.values.index.writtenIn(ref) ?? this.lexical;
  }

  lookup(name: QualifiedName): Outcome | undefined {
    const { index } = this.values;
    const lexical = this.scopeOf(name);
    if (name.segments.length === 1 && !name.isGlobal) {
      // A feature of the instance or of an instance holding it, as the name resolves where it is written.
      const found = this.values.namedFeature(this.ctx, lexical, name.segments[0]!, name.range);
      if (found) return this.values.featureValue(found.owner, found.feature);
    }
    const element = index.resolveQualifiedName(lexical, name);
    if (!element) {
      // A library feature whose value the engine supplies (TrigFunctions::pi).
      const library = index.libraryNameOf(lexical, name);
      return library ? libraryFeatureValue(library) : undefined;
    }
    if (name.segments.length > 1 && element.node.kind === 'Usage' && element.parent && element.parent.node.kind !== 'Package' && !index.isVariant(element)) {
      // `Car::mass` written in Car is the feature `mass`: read on the Car at hand, as `mass` is.
      const found = this.values.onEnclosing(this.ctx, lexical, element, element.name ?? name.segments.at(-1)!);
      if (found) return this.values.featureValue(found.owner, found.feature);
      // A definition's feature outside any of its instances has a value per instance, not one.
      if (element.parent.node.kind === 'Definition' && !(element.parent.node.keyword === 'enum')) {
        return error(`'${name.segments.join('::')}' is a feature of the definition ${element.parent.name ?? element.parent.qualifiedName}, read outside any instance of it: which instance's value is meant is not said (name a usage, or read it inside ${element.parent.name ?? 'the definition'})`, name.range, 'unsupported');
      }
    }
    if (element.node.kind === 'Definition' || element.node.kind === 'Package') {
      // A name in an expression is a FeatureReferenceExpression (KerML BNF: FeatureReference : Feature =
      // [QualifiedName]): one naming a definition or a package is no feature, and has no value.
      const what = element.node.kind === 'Package' ? 'a package' : `${/^[aeiou]/.test(element.node.keyword) ? 'an' : 'a'} ${element.node.keyword} definition`;
      return error(`'${name.segments.join('::')}' names ${what} (${element.qualifiedName}), not a feature: a name in an expression refers to a feature (KerML FeatureReferenceExpression), so it has no value`, name.range);
    }
    return this.elementValue(element);
  }

  namesLibraryElement(name: QualifiedName): boolean {
    return this.values.index.libraryNameOf(this.scopeOf(name), name) !== undefined;
  }

  memberValue(member: Usage): Outcome | undefined {
    const element = this.values.index.elementOf(member);
    if (!element) return undefined;
    // Read on the innermost enclosing instance that has it as a feature (its own or inherited).
    for (const c of this.values.enclosing(this.ctx, this.lexical)) {
      if (this.values.index.featuresOf(c.element).includes(element)) return this.values.featureValue(c, element);
    }
    return undefined;
  }

  calcOutput(usage: QualifiedName, output: string): Outcome | undefined {
    if (usage.segments.length !== 1 || usage.isGlobal) return undefined;
    const found = this.values.namedFeature(this.ctx, this.scopeOf(usage), usage.segments[0]!, usage.range);
    if (found) {
      const { owner: c, feature: f } = found;
      // A calc usage whose result is a plain value, with an `out` parameter of that name.
      if (!isCallable(f) || this.values.namedResult(f) !== undefined) return undefined;
      const out = this.values.index.featuresOf(f).find((o) => o.name === output && o.node.kind === 'Usage' && o.node.direction === 'out');
      if (!out) return undefined;
      const r = this.values.invokeElementDetailed(f, [], this.values.child(c, f), rangeOf(f));
      if (isError(r.value)) return r.value;
      return r.outputs.find((o) => o.name === output)?.value;
    }
    return undefined;
  }

  conform(usage: Usage, value: Value): Outcome | undefined {
    const element = this.values.index.elementOf(usage);
    const name = declaredName(usage);
    if (!element) return undefined;
    const owner = element.parent?.name ?? element.parent?.qualifiedName;
    const what = usage.role === 'return' ? `the result ${name !== null ? `'${name}' ` : ''}of ${owner}` : name !== null ? `'${name}'` : `a feature of ${owner}`;
    return this.values.conforming(element, what, value);
  }

  /** The value of a package-level feature, as a name resolving to it gives. */
  packageFeatureValue(element: ModelElement): Outcome | undefined {
    return this.elementValue(element);
  }

  /** The value of an element found by name outside the instance: an enum literal, a package-level feature. */
  private elementValue(element: ModelElement): Outcome | undefined {
    const owner = element.parent;
    if (owner && owner.node.kind === 'Definition' && owner.node.keyword === 'enum' && element.node.kind === 'Usage') {
      // A literal that declares a value (`enum def Grade :> Real { enum A = 4.0; }`) is that value.
      const valued = element.node.value;
      if (valued) return this.values.evaluator.nested(`'${element.qualifiedName}'`, valued.expression.range, () => this.values.evaluator.evaluate(valued.expression, this.values.environment(this.values.root, owner)));
      return enumLiteral(owner.name ?? owner.qualifiedName, element.name ?? '');
    }
    if (element.node.kind === 'Definition' || element.node.kind === 'Package') return undefined;
    // A variant named from inside an instance that holds its variation point (`engine::electric` in a
    // car) is that car's variant: its features read the car's values, as the selected one's do.
    const point = element.parent;
    if (point && this.values.index.isVariant(element)) {
      for (let c: InstanceContext | undefined = this.ctx; c; c = c.parent) {
        const held: ModelElement | undefined = point.name ? this.values.feature(c.element, point.name) : undefined;
        if (held && this.values.index.redefinitionRoots(held).includes(point)) return this.values.featureValue(this.values.child(c, held), element);
      }
    }
    // A feature of another instance tree (a package-level part or attribute): read it on the root when it
    // is the root's, else on its own owner chain.
    const ctx = this.values.contextOf(element.parent ?? element);
    if (element === this.values.root.element) return this.values.instance(this.values.root);
    return this.values.featureValue(ctx.element === element ? (ctx.parent ?? this.values.root) : ctx, element);
  }

  /** A function of a library package called by qualified name (VectorFunctions, ComplexFunctions). */
  private callQualified(library: string, args: readonly CallArgument[], at: SourceRange): Outcome | undefined {
    const named = args.find((a) => a.name !== null);
    if (named && isQualifiedLibraryPackage(library.slice(0, library.lastIndexOf('::')))) return error(`${library}() takes positional arguments only, got '${named.name} = …'`, at);
    return callQualifiedLibraryFunction(library, args.map((a) => a.value), { range: at });
  }

  construct(type: Reference, args: readonly CallArgument[], at: SourceRange): Outcome | undefined {
    return this.values.construct(type, args, this.ctx, this.scopeOf(type), at);
  }

  invoke(callee: Reference, args: readonly CallArgument[], evaluator: Evaluator, at: SourceRange): Outcome | undefined {
    void evaluator;
    const { index } = this.values;
    let element: ModelElement | undefined;
    let ctx = this.ctx;
    const lexical = this.scopeOf(callee);
    if (callee.kind === 'QualifiedName' && callee.segments.length === 1) {
      const found = this.values.namedFeature(this.ctx, lexical, callee.segments[0]!, callee.range);
      if (found && isCallable(found.feature)) {
        element = found.feature;
        ctx = this.values.child(found.owner, found.feature);
      }
    }
    element ??= index.resolveReference(lexical, callee);
    if (!element) {
      // A library function by name: the engine's built-in is its semantics only for the packages it
      // implements (`sum` of VectorFunctions is not NumericalFunctions' sum).
      const library = index.libraryNameOf(lexical, callee);
      const pkg = library?.split('::').slice(0, -1).join('::');
      const qualified = library ? this.callQualified(library, args, at) : undefined;
      if (qualified !== undefined) return qualified;
      if (library && pkg && !IMPLEMENTED_LIBRARY_PACKAGES.has(pkg)) {
        return error(`the library function ${library} has no semantics in the reference engine`, at, 'unsupported');
      }
      return undefined;
    }
    if (!isCallable(element)) return undefined;
    if (element.node.kind === 'Definition') ctx = { element, path: this.ctx.path, parent: this.ctx };
    return this.values.invokeElement(element, args, ctx, at);
  }

  metaclassify(element: QualifiedName, type: QualifiedName, at: Place): Outcome {
    const r = this.values.index.metaclassification(this.scopeOf(element), element, type);
    return typeof r === 'boolean' ? bool(r) : error(`${element.segments.join('::')} @@ ${type.segments.join('::')}: ${r}`, at, 'unsupported');
  }

  classify(value: Scalar, type: QualifiedName): boolean | undefined {
    if (value.kind === 'instance') {
      // A structure of the model is an instance of the types its declaration has and of what they
      // specialize (KerML FeatureTyping, Specialization): a T when one of them is T. Otherwise not known:
      // an instance may be classified by more types than its declaration names.
      const made = this.values.contextOfInstance(value);
      const t = this.values.index.resolveQualifiedName(this.scopeOf(type), type);
      if (!made || !t || t.node.kind !== 'Definition') return undefined;
      return this.values.isInstanceOf(made.element, t) ? true : undefined;
    }
    if (value.kind === 'enum') {
      const t = this.values.index.resolveQualifiedName(this.scopeOf(type), type);
      if (t && t.node.kind === 'Definition' && t.node.keyword === 'enum') return t.name === value.definition;
    }
    return undefined;
  }

  sourceText(range: SourceRange): string | undefined {
    return this.values.sourceText(this.lexical.path, range);
  }
}

/**
 * A feature's step in an instance path: its name, or for an unnamed one (`require massLimit;`, `assert
 * constraint { … }`) where it is declared, so two unnamed features of one instance are two values, not
 * one remembered under one path.
 */
function pathSegment(e: ModelElement): string {
  if (e.name !== null) return e.name;
  const at = e.node.range;
  return `<unnamed ${at.line}:${at.column}>`;
}

/** The elements of an instance context and of those that hold it, innermost first. */
function chainOf(ctx: InstanceContext): ModelElement[] {
  const out: ModelElement[] = [];
  for (let c: InstanceContext | undefined = ctx; c; c = c.parent) out.push(c.element);
  return out;
}
