// The model as the expression evaluator sees it: names resolve to feature values of instances, with the
// question's bindings overriding model values; calcs and constraints are invoked through their bodies.
//
// An instance is a path of features from the evaluation's root (the outermost definition or usage that
// holds the subject): `engine.mass` is the feature `mass` of the instance `engine`. Bindings name such
// paths. Feature values are computed once per instance path and remembered.
import type { Member, QualifiedName, Reference, SourceRange } from '../ast';
import type { CallArgument, Environment, Evaluator } from '../semantics/evaluate';
import { enumLiteral, error, type Instance, type Outcome, type Scalar, type Value } from '../semantics/values';
import { declarationKind, rangeOf, type ModelElement, type ModelIndex } from './model';

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

/** Shared by every environment of one evaluation: the model, the bindings and the remembered values. */
export class ModelValues {
  private readonly cache = new Map<string, { state: 'running' | 'done'; value?: Outcome }>();
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
    for (const e of chain) ctx = { element: e, path: joinPath(ctx.path, e.name ?? '<unnamed>'), parent: ctx };
    return ctx;
  }

  child(ctx: InstanceContext, feature: ModelElement): InstanceContext {
    return { element: feature, path: joinPath(ctx.path, feature.name ?? '<unnamed>'), parent: ctx };
  }

  /** An environment for an expression written in `lexical` (an element), read on instance `ctx`. */
  environment(ctx: InstanceContext, lexical: ModelElement = ctx.element): ModelEnvironment {
    return new ModelEnvironment(this, ctx, lexical);
  }

  /** The value of `feature` on instance `owner`: a binding, the model's value, or a structured instance. */
  featureValue(owner: InstanceContext, feature: ModelElement): Outcome {
    const path = joinPath(owner.path, feature.name ?? '<unnamed>');
    const bound = this.bindings.get(path);
    if (bound !== undefined) return bound;
    const cached = this.cache.get(path);
    if (cached?.state === 'done') return cached.value!;
    if (cached?.state === 'running') return error(`'${path}' depends on itself`, rangeOf(feature));
    const entry: { state: 'running' | 'done'; value?: Outcome } = { state: 'running' };
    this.cache.set(path, entry);
    try {
      entry.value = this.computeFeature(owner, feature, path);
      entry.state = 'done';
      return entry.value;
    } finally {
      if (entry.state !== 'done') this.cache.delete(path);
    }
  }

  private computeFeature(owner: InstanceContext, feature: ModelElement, path: string): Outcome {
    const node = feature.node;
    const ctx = this.child(owner, feature);
    if (node.kind === 'Usage' && node.value) {
      // The value is written in the feature's owner; names in it are features of that instance.
      const expr = node.value.expression;
      return this.evaluator.nested(`'${path}'`, expr.range, () => this.evaluator.evaluate(expr, this.environment(owner, feature.parent ?? feature)));
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
    if (this.index.featuresOf(feature).length > 0 || (node.kind === 'Usage' && node.keyword !== 'attribute' && node.keyword !== 'ref')) {
      return this.instance(ctx);
    }
    // An enumeration-typed feature has no value unless given one; so has a plain attribute.
    return error(`'${path}' has no value: give it one in the model or bind it in the question`, rangeOf(feature));
  }

  /** The name a calc usage gives its result (`return a;`), if any. */
  namedResult(element: ModelElement): string | undefined {
    for (const f of this.index.featuresOf(element)) {
      if (f.node.kind === 'Usage' && f.node.role === 'return' && f.name) return f.name;
    }
    return undefined;
  }

  /** A part, item or structured attribute as a value whose features are read on demand. */
  instance(ctx: InstanceContext): Instance {
    return {
      kind: 'instance',
      label: ctx.path === '' ? (ctx.element.name ?? '<unnamed>') : ctx.path,
      identity: `instance:${ctx.path}:${ctx.element.qualifiedName}`,
      member: (name: string) => {
        const f = this.feature(ctx.element, name);
        return f ? this.featureValue(ctx, f) : undefined;
      },
    };
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
    const extra = own.filter((m) => m.kind !== 'Usage' && m.kind !== 'Definition' && m.kind !== 'Package');
    const result = this.resultExpression(element);
    return [...features, ...extra.filter((m) => m.kind !== 'ResultExpression'), ...(result ? [result] : [])];
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

  /** Invokes a calc/constraint element with arguments; `ctx` is the instance it is read on. */
  invokeElement(element: ModelElement, args: readonly CallArgument[], ctx: InstanceContext, at: SourceRange | undefined): Outcome {
    const label = element.name ?? element.qualifiedName;
    const outer = this.environment(ctx, element);
    return this.evaluator.callBody(label, this.bodyMembers(element), args, outer, at);
  }
}

export function isCallable(e: ModelElement): boolean {
  return e.node.kind !== 'Package' && CALLABLE_KEYWORDS.has(declarationKind(e));
}

export class ModelEnvironment implements Environment {
  constructor(
    private readonly values: ModelValues,
    private readonly ctx: InstanceContext,
    /** Where the expression is written: names that are not features resolve from here. */
    private readonly lexical: ModelElement,
  ) {}

  lookup(name: QualifiedName): Outcome | undefined {
    const { index } = this.values;
    if (name.segments.length === 1 && !name.isGlobal) {
      const n = name.segments[0]!;
      // Features of the instance and of the instances that hold it, innermost first.
      for (let c: InstanceContext | undefined = this.ctx; c; c = c.parent) {
        const f = this.values.feature(c.element, n);
        if (f) return this.values.featureValue(c, f);
      }
    }
    const element = index.resolveQualifiedName(this.lexical, name);
    if (!element) return undefined;
    return this.elementValue(element);
  }

  /** The value of an element found by name outside the instance: an enum literal, a package-level feature. */
  private elementValue(element: ModelElement): Outcome | undefined {
    const owner = element.parent;
    if (owner && owner.node.kind === 'Definition' && owner.node.keyword === 'enum' && element.node.kind === 'Usage') {
      return enumLiteral(owner.name ?? owner.qualifiedName, element.name ?? '');
    }
    if (element.node.kind === 'Definition' || element.node.kind === 'Package') return undefined;
    // A feature of another instance tree (a package-level part or attribute): read it on the root when it
    // is the root's, else on its own owner chain.
    const ctx = this.values.contextOf(element.parent ?? element);
    if (element === this.values.root.element) return this.values.instance(this.values.root);
    return this.values.featureValue(ctx.element === element ? (ctx.parent ?? this.values.root) : ctx, element);
  }

  invoke(callee: Reference, args: readonly CallArgument[], evaluator: Evaluator, at: SourceRange): Outcome | undefined {
    void evaluator;
    const { index } = this.values;
    let element: ModelElement | undefined;
    let ctx = this.ctx;
    if (callee.kind === 'QualifiedName' && callee.segments.length === 1) {
      for (let c: InstanceContext | undefined = this.ctx; c && !element; c = c.parent) {
        const f = this.values.feature(c.element, callee.segments[0]!);
        if (f && isCallable(f)) {
          element = f;
          ctx = this.values.child(c, f);
        }
      }
    }
    element ??= index.resolveReference(this.lexical, callee);
    if (!element || !isCallable(element)) return undefined;
    if (element.node.kind === 'Definition') ctx = { element, path: this.ctx.path, parent: this.ctx };
    return this.values.invokeElement(element, args, ctx, at);
  }

  classify(value: Scalar, type: QualifiedName): boolean | undefined {
    if (value.kind === 'enum') {
      const t = this.values.index.resolveQualifiedName(this.lexical, type);
      if (t && t.node.kind === 'Definition' && t.node.keyword === 'enum') return t.name === value.definition;
    }
    return undefined;
  }

  sourceText(range: SourceRange): string | undefined {
    return this.values.sourceText(this.lexical.path, range);
  }
}
