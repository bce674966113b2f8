// The soundness rule as data: every construct the syntax tree can hold, and what the evaluation layers do
// with it. A construct is `modeled` (the evaluator gives it its semantics), `inert` (it exists in the
// model but cannot change the answer of the layer that meets it, for the reason given), or `refused`
// (meeting it where it matters ends the question with `unsupported` naming it at file:line:col). Nothing
// is left out: `constructsOf` names every construct a member shows, the census test (test/sysml/census)
// fails on any it cannot find here, and the layers refuse whatever they meet that is not modeled or inert.
//
// Layers:
// - `values`: reading the features of an instance (a part, item, attribute with features) for their
//   values — the members of its body and of the types it specializes;
// - `checks`: checking a structure's constraints (what `evaluate` and `satisfiable` of a part hold it to);
// - `calc`: a calc, constraint, requirement, analysis or case body invoked for its result.
import type { Definition, Expression, Member, SourceRange, Usage } from './ast';

export type Status = 'modeled' | 'inert' | 'refused';
export type Layer = 'values' | 'checks' | 'calc';

export interface ConstructInfo {
  /** How a message names it. */
  readonly what: string;
  readonly values: Status;
  readonly checks: Status;
  readonly calc: Status;
  /** Where the semantics come from (spec clause) or why the construct is inert/refused. */
  readonly note: string;
}

const M: Status = 'modeled';
const I: Status = 'inert';
const R: Status = 'refused';

function c(what: string, values: Status, checks: Status, calc: Status, note: string): ConstructInfo {
  return { what, values, checks, calc, note };
}

const BEHAVIOUR_INERT = 'a behaviour: it changes values only when it runs, which outcomes/holds/sensitive answer; evaluate reads a feature\'s bound, initial or default value';
const CONNECTION_INERT = 'a connection between features: it relates occurrences, it gives no feature a value';
const ANNOTATION = 'an annotation: no semantics in evaluation';

/** Every construct key and its status per layer. Keys: see constructsOf. */
export const CONSTRUCTS: Readonly<Record<string, ConstructInfo>> = {
  // ---- namespace members
  'package': c('a package', I, I, R, 'a namespace: its members are read where they are named'),
  'import': c('an import', M, M, M, 'name resolution (src/sysml/names)'),
  'alias': c('an alias', M, M, M, 'name resolution (src/sysml/names)'),
  'dependency': c('a dependency', I, I, I, ANNOTATION),
  'comment': c('a comment', I, I, I, ANNOTATION),
  'doc': c('a doc comment', I, I, I, ANNOTATION),
  'rep': c('a textual representation', I, I, I, ANNOTATION),
  'filter': c('an element filter', M, M, M, 'import filtering (src/sysml/names)'),
  'invalid': c('text the parser could not read', R, R, R, 'a syntax error refuses the question'),
  'metadata-prefix': c('prefix metadata (#M)', I, I, I, ANNOTATION),
  'relationship': c('a relationship declaration', R, R, R, 'standalone specializations/subsettings are not read by the evaluator'),

  // ---- definitions (nested in a body being read: a local type)
  'def:attribute': c('an attribute definition', I, I, I, 'a type: read when a feature is typed by it'),
  'def:enum': c('an enumeration definition', I, I, I, 'a type: its literals are values (KerML 7.4.12 / SysML 8.3.7)'),
  'def:occurrence': c('an occurrence definition', I, I, I, 'a type'),
  'def:item': c('an item definition', I, I, I, 'a type'),
  'def:part': c('a part definition', I, I, I, 'a type'),
  'def:port': c('a port definition', I, I, I, 'a type'),
  'def:connection': c('a connection definition', I, I, I, 'a type'),
  'def:flow': c('a flow definition', I, I, I, 'a type'),
  'def:interface': c('an interface definition', I, I, I, 'a type'),
  'def:allocation': c('an allocation definition', I, I, I, 'a type'),
  'def:action': c('an action definition', I, I, I, 'a type'),
  'def:state': c('a state definition', I, I, I, 'a type'),
  'def:calc': c('a calc definition', I, I, I, 'a callable type: invoked by name'),
  'def:constraint': c('a constraint definition', I, I, I, 'a callable type: invoked by name'),
  'def:requirement': c('a requirement definition', I, I, I, 'a callable type'),
  'def:concern': c('a concern definition', I, I, I, 'a callable type'),
  'def:case': c('a case definition', I, I, I, 'a callable type'),
  'def:analysis': c('an analysis definition', I, I, I, 'a callable type'),
  'def:verification': c('a verification definition', I, I, I, 'a callable type'),
  'def:use case': c('a use case definition', I, I, I, 'a type'),
  'def:view': c('a view definition', I, I, I, 'a type'),
  'def:viewpoint': c('a viewpoint definition', I, I, I, 'a type'),
  'def:rendering': c('a rendering definition', I, I, I, 'a type'),
  'def:metadata': c('a metadata definition', I, I, I, 'a type'),
  'def:def': c('a definition', I, I, I, 'a type'),
  'def:type': c('a KerML type', I, I, I, 'a type'),
  'def:classifier': c('a KerML classifier', I, I, I, 'a type'),
  'def:class': c('a KerML class', I, I, I, 'a type'),
  'def:struct': c('a KerML struct', I, I, I, 'a type'),
  'def:datatype': c('a KerML datatype', I, I, I, 'a type'),
  'def:assoc': c('a KerML association', I, I, I, 'a type'),
  'def:assoc struct': c('a KerML association structure', I, I, I, 'a type'),
  'def:behavior': c('a KerML behavior', I, I, I, 'a type'),
  'def:function': c('a KerML function', I, I, I, 'a callable type'),
  'def:predicate': c('a KerML predicate', I, I, I, 'a callable type'),
  'def:interaction': c('a KerML interaction', I, I, I, 'a type'),
  'def:metaclass': c('a KerML metaclass', I, I, I, 'a type'),

  // ---- usages by keyword
  'usage:ref': c('a reference feature', M, M, M, 'a feature with a value (SysML 8.3.6 reference usages)'),
  'usage:feature': c('a KerML feature', M, M, M, 'a feature with a value (KerML 7.3.4)'),
  'usage:attribute': c('an attribute', M, M, M, 'SysML 8.3.7 attribute usages'),
  'usage:enum': c('an enumeration usage', M, M, M, 'an enumeration-typed feature'),
  'usage:occurrence': c('an occurrence usage', M, M, R, 'an instance whose features are read'),
  'usage:event': c('an event occurrence', I, I, R, BEHAVIOUR_INERT),
  'usage:item': c('an item', M, M, R, 'an instance whose features are read (SysML 8.3.9)'),
  'usage:part': c('a part', M, M, R, 'an instance whose features are read (SysML 8.3.10)'),
  'usage:port': c('a port', M, M, R, 'an instance whose features are read (SysML 8.3.11)'),
  'usage:connection': c('a connection', I, I, R, CONNECTION_INERT),
  'usage:flow': c('a flow', I, I, R, 'a transfer over time between occurrences: what it carries is a behaviour question'),
  'usage:succession flow': c('a succession flow', I, I, R, 'a transfer after its source ends: a behaviour question'),
  'usage:message': c('a message', I, I, R, BEHAVIOUR_INERT),
  'usage:interface': c('an interface', I, I, R, CONNECTION_INERT),
  'usage:allocation': c('an allocation', I, I, R, CONNECTION_INERT),
  'usage:allocate': c('an allocation', I, I, R, CONNECTION_INERT),
  'usage:connect': c('a connection', I, I, R, CONNECTION_INERT),
  'usage:binding': c('a binding connector', M, M, R, 'its ends have equal values (SysML 8.3.12 binding connectors): a feature without a value takes the other end\'s'),
  'usage:bind': c('a binding connector', M, M, R, 'its ends have equal values (SysML 8.3.12 binding connectors): a feature without a value takes the other end\'s; in a calc body only `bind result = x;` is modeled (the result is x)'),
  'usage:action': c('an action', I, I, M, `${BEHAVIOUR_INERT}; in a calc body, a nested action runs in order`),
  'usage:state': c('a state', I, I, R, BEHAVIOUR_INERT),
  'usage:calc': c('a calc', M, M, M, 'invoked for its result (SysML 8.3.16)'),
  'usage:constraint': c('a constraint', M, M, M, 'true or false (SysML 8.3.17)'),
  'usage:requirement': c('a requirement', M, M, M, 'require/assume/assert checks (SysML 8.3.18)'),
  'usage:concern': c('a concern', M, M, M, 'a requirement'),
  'usage:case': c('a case', R, R, R, 'case semantics (objectives, included use cases) are not modeled'),
  'usage:analysis': c('an analysis', M, M, M, 'a calc: its result, outputs and asserted constraints (SysML 8.3.19)'),
  'usage:verification': c('a verification', R, R, R, 'verdicts of verification cases are not modeled'),
  'usage:use case': c('a use case', I, I, R, BEHAVIOUR_INERT),
  'usage:view': c('a view', I, I, I, ANNOTATION),
  'usage:viewpoint': c('a viewpoint', I, I, I, ANNOTATION),
  'usage:rendering': c('a rendering', I, I, I, ANNOTATION),
  'usage:metadata': c('a metadata usage', I, I, I, ANNOTATION),
  'usage:fork': c('a fork node', I, I, R, BEHAVIOUR_INERT),
  'usage:join': c('a join node', I, I, R, BEHAVIOUR_INERT),
  'usage:merge': c('a merge node', I, I, R, BEHAVIOUR_INERT),
  'usage:decide': c('a decision node', I, I, R, BEHAVIOUR_INERT),
  'usage:step': c('a KerML step', I, I, R, BEHAVIOUR_INERT),
  'usage:expr': c('a KerML expression feature', M, M, M, 'a calc'),
  'usage:bool': c('a KerML boolean expression', M, M, M, 'a constraint'),
  'usage:inv': c('a KerML invariant', R, R, R, 'invariants are not checked by the evaluator'),
  'usage:connector': c('a KerML connector', I, I, R, CONNECTION_INERT),
  'usage:multiplicity': c('a KerML multiplicity feature', R, R, R, 'not modeled'),

  // ---- the membership a usage is declared in
  'role:subject': c('a subject', M, M, M, 'the subject parameter (SysML 8.3.18)'),
  'role:actor': c('an actor', I, I, R, 'a participant of a case'),
  'role:stakeholder': c('a stakeholder', I, I, I, ANNOTATION),
  'role:objective': c('an objective', I, R, M, 'a requirement on the case\'s result (SysML Cases: the objective\'s subject defaults to Case::result); it does not change the result: evaluate checks it against the result and reports its verdict beside it, the solver refuses it'),
  'role:return': c('a result parameter', M, M, M, 'the result of a calc (SysML 8.3.16)'),
  'role:require': c('a required constraint', M, M, M, 'SysML 8.3.18'),
  'role:assume': c('an assumed constraint', M, M, M, 'SysML 8.3.18'),
  'role:frame': c('a framed concern', R, R, R, 'framed concerns are not checked'),
  'role:verify': c('a verified requirement', R, R, R, 'verification is not modeled'),
  'role:satisfy': c('a satisfy relationship', I, M, R, 'reading a feature does not depend on it; checked by evaluate as the requirement with its subject bound to the satisfying feature (SysML 7.20.7, 8.3.21); satisfiable refuses it'),
  'role:assert': c('an asserted constraint', I, M, M, 'an assertion: checked where the structure or body is checked (SysML 8.3.17)'),
  'role:perform': c('a performed action', I, I, R, BEHAVIOUR_INERT),
  'role:exhibit': c('an exhibited state', I, I, R, BEHAVIOUR_INERT),
  'role:include': c('an included use case', I, I, R, BEHAVIOUR_INERT),
  'role:render': c('a rendering', I, I, I, ANNOTATION),
  'role:variant': c('a variant', M, M, R, 'one choice of its variation point, which a value selects (`:>> engine = engine::electric`); it specializes the variation point; outside one, an ordinary feature (SysML 7.6.x variability, 8.3.6 VariantMembership)'),
  'role:member': c('a member feature', M, M, M, 'a feature'),
  'role:parameter': c('a parameter', M, M, M, 'a parameter'),

  // ---- behaviour statements as members
  'succession:succession': c('a succession', I, I, M, `${BEHAVIOUR_INERT}; in a calc body it orders its actions`),
  'succession:first': c('a succession (first … then …)', I, I, M, `${BEHAVIOUR_INERT}; in a calc body it orders its actions`),
  'succession:then': c('a succession (then …)', I, I, M, `${BEHAVIOUR_INERT}; in a calc body it orders its actions`),
  'succession:guarded': c('a guarded succession', I, I, R, BEHAVIOUR_INERT),
  'succession:else': c('an else succession', I, I, R, BEHAVIOUR_INERT),
  'transition': c('a transition', I, I, R, BEHAVIOUR_INERT),
  'accept': c('an accept action', I, I, R, BEHAVIOUR_INERT),
  'send': c('a send action', I, I, R, BEHAVIOUR_INERT),
  'assign': c('an assignment', I, I, M, `${BEHAVIOUR_INERT}; in a calc body it sets a local of the calc (SysML 8.3.15.5)`),
  'if': c('an if action', I, I, M, `${BEHAVIOUR_INERT}; in a calc body it runs the chosen branch (SysML 8.3.15.6)`),
  'loop:while': c('a while loop', I, I, M, `${BEHAVIOUR_INERT}; in a calc body it runs while its condition holds (SysML 8.3.15.7)`),
  'loop:loop': c('a loop', I, I, M, `${BEHAVIOUR_INERT}; in a calc body it runs until its condition holds (SysML 8.3.15.7)`),
  'for': c('a for loop', I, I, M, `${BEHAVIOUR_INERT}; in a calc body it runs once per element (SysML 8.3.15.8)`),
  'terminate': c('a terminate action', I, I, R, BEHAVIOUR_INERT),
  'state:entry': c('an entry action', I, I, R, BEHAVIOUR_INERT),
  'state:do': c('a do action', I, I, R, BEHAVIOUR_INERT),
  'state:exit': c('an exit action', I, I, R, BEHAVIOUR_INERT),
  'result': c('a result expression', M, M, M, 'the value of a calc or constraint body (KerML 7.4.9)'),

  // ---- modifiers and parts of a feature declaration
  'direction:in': c('an input parameter', M, M, M, 'a parameter bound by the call'),
  'direction:out': c('an output parameter', M, M, M, 'an output of a calc or analysis'),
  'direction:inout': c('an in-out parameter', M, M, M, 'a parameter bound by the call'),
  'abstract': c('abstract', I, I, I, 'no effect on values'),
  'variation': c('a variation point', M, M, R, 'its value is the variant a value selects (`:>> engine = engine::electric`); reading one that no value selects is an error; the solver and calc bodies do not choose variants (SysML 7.6.x variability)'),
  'constant': c('constant', I, I, I, 'the value does not change: what evaluate reads already'),
  'derived': c('derived', I, I, I, 'the value is computed: what evaluate reads already'),
  'end': c('a connector end', I, I, R, CONNECTION_INERT),
  'ref-keyword': c('ref', I, I, I, 'a reference rather than a composite feature: no effect on values'),
  'composite': c('composite', I, I, I, 'no effect on values'),
  'var': c('var', I, I, I, 'no effect on the initial value'),
  'individual': c('individual', I, I, I, 'no effect on values'),
  'portion:snapshot': c('a snapshot', R, R, R, 'time slices and snapshots are not modeled'),
  'portion:timeslice': c('a time slice', R, R, R, 'time slices and snapshots are not modeled'),
  'portion:portion': c('a portion', R, R, R, 'portions are not modeled'),
  'ordered': c('ordered', I, I, I, 'sequences keep declaration order already'),
  'nonunique': c('nonunique', I, I, I, 'sequences keep duplicates already'),
  'parallel': c('a parallel state', I, I, R, BEHAVIOUR_INERT),
  'negated': c('a negated assertion (assert not)', M, M, M, 'the negation of the constraint'),
  'sufficient': c('a sufficient type (all)', R, R, R, 'not modeled'),
  'multiplicity': c('a multiplicity', M, M, M, 'a feature holds that many values (KerML 7.3.4.4); bound values are checked against it'),
  'value:bound': c('a bound value (=)', M, M, M, 'the feature\'s value'),
  'value:initial': c('an initial value (:=)', M, M, M, 'the feature\'s value at the start'),
  'value:default': c('a default value', M, M, M, 'the feature\'s value unless a redefinition or binding gives one'),
  'connector-ends': c('connector ends', I, I, R, CONNECTION_INERT),
  'payload': c('a flow or message payload', I, I, R, BEHAVIOUR_INERT),
  'satisfied-by': c('satisfy … by', I, M, R, 'the satisfying feature, bound to the requirement\'s subject (SysML 8.3.21)'),
  'about': c('metadata about', I, I, I, ANNOTATION),
  'cross-feature': c('a cross feature', R, R, R, 'not modeled'),

  // ---- relationships in a declaration
  'relation:typing': c('typing (:)', M, M, M, 'features of the types are features of the instance (KerML 7.3.4)'),
  'relation:subsetting': c('subsetting (:>)', M, M, M, 'a subsetting feature\'s values are values of the subsetted one, and it inherits its features (KerML 7.3.4.5)'),
  'relation:redefinition': c('redefinition (:>>)', M, M, M, 'one feature under two names; the redefinition replaces the inherited one (KerML 7.3.4.6)'),
  'relation:reference': c('references (::>)', M, M, M, 'the referenced feature'),
  'relation:specialization': c('specialization (:>)', M, M, M, 'inherited features (KerML 7.3.2)'),
  'relation:conjugation': c('conjugation (~)', I, I, I, 'reverses port directions: no effect on values'),
  'relation:disjoining': c('disjoining', I, I, I, 'a classification constraint: no effect on values'),
  'relation:intersecting': c('intersecting', R, R, R, 'not modeled'),
  'relation:unioning': c('unioning', R, R, R, 'not modeled'),
  'relation:differencing': c('differencing', R, R, R, 'not modeled'),
  'relation:featuring': c('featuring', R, R, R, 'not modeled'),
  'relation:chaining': c('chaining', R, R, R, 'not modeled'),
  'relation:inverting': c('inverting', R, R, R, 'not modeled'),
  'relation:crossing': c('crossing', R, R, R, 'not modeled'),
};

export interface ConstructUse {
  readonly key: string;
  readonly range: SourceRange;
}

/**
 * The constructs a member's own declaration shows (not its children's): its kind, keyword, role,
 * modifiers, relationships, multiplicity and value kind.
 */
export function constructsOf(m: Member): ConstructUse[] {
  const out: ConstructUse[] = [];
  const at = (key: string, range: SourceRange = m.range) => out.push({ key, range });
  if (m.prefixMetadata.length > 0) at('metadata-prefix');
  switch (m.kind) {
    case 'Package': at('package'); return out;
    case 'Import': at('import'); return out;
    case 'Alias': at('alias'); return out;
    case 'Dependency': at('dependency'); return out;
    case 'Comment': at('comment'); return out;
    case 'Documentation': at('doc'); return out;
    case 'TextualRepresentation': at('rep'); return out;
    case 'ElementFilter': at('filter'); return out;
    case 'InvalidMember': at('invalid'); return out;
    case 'RelationshipDeclaration': at('relationship'); return out;
    case 'ResultExpression': at('result'); return out;
    case 'StateSubaction': at(`state:${m.which}`); return out;
    case 'Definition': {
      at(`def:${m.keyword}`);
      return out;
    }
    default:
      break;
  }
  // Feature-like members.
  switch (m.kind) {
    case 'Usage':
      at(`usage:${m.keyword}`);
      if (m.role !== null) at(`role:${m.role}`);
      if (m.isParallel) at('parallel');
      if (m.isNegated) at('negated');
      if (m.isSufficient) at('sufficient');
      if (m.ends && m.ends.length > 0) at('connector-ends');
      if (m.payload) at('payload', m.payload.range);
      if (m.satisfiedBy) at('satisfied-by', m.satisfiedBy.range);
      if (m.about.length > 0) at('about');
      if (m.crossFeature) at('cross-feature', m.crossFeature.range);
      break;
    case 'Succession': at(`succession:${m.form}`); break;
    case 'Transition': at('transition'); break;
    case 'AcceptAction': at('accept'); break;
    case 'SendAction': at('send'); break;
    case 'AssignAction': at('assign'); break;
    case 'IfAction': at('if'); break;
    case 'LoopAction': at(`loop:${m.form}`); break;
    case 'ForAction': at('for'); break;
    case 'TerminateAction': at('terminate'); break;
  }
  if (m.direction !== null) at(`direction:${m.direction}`);
  if (m.isAbstract) at('abstract');
  if (m.isVariation) at('variation');
  if (m.isConstant) at('constant');
  if (m.isDerived) at('derived');
  if (m.isEnd) at('end');
  if (m.isRef) at('ref-keyword');
  if (m.isComposite) at('composite');
  if (m.isVar) at('var');
  if (m.isIndividual) at('individual');
  if (m.portionKind !== null) at(`portion:${m.portionKind}`);
  if (m.isOrdered) at('ordered');
  if (m.isNonunique) at('nonunique');
  for (const r of m.relations) at(`relation:${r.relation}`, r.range);
  if (m.multiplicity) at('multiplicity', m.multiplicity.range);
  if (m.value) at(m.value.isDefault ? 'value:default' : m.value.isInitial ? 'value:initial' : 'value:bound', m.value.range);
  return out;
}

/** Definition modifiers, which constructsOf leaves to the definition's own check. */
export function definitionConstructs(d: Definition): ConstructUse[] {
  const out: ConstructUse[] = [];
  if (d.isVariation) out.push({ key: 'variation', range: d.range });
  if (d.isSufficient) out.push({ key: 'sufficient', range: d.range });
  for (const r of d.relations) out.push({ key: `relation:${r.relation}`, range: r.range });
  if (d.multiplicity) out.push({ key: 'multiplicity', range: d.multiplicity.range });
  return out;
}

export interface Unmodeled {
  readonly key: string;
  readonly what: string;
  readonly range: SourceRange;
  readonly note: string;
}

/** The first construct of a member that the layer refuses (or does not know), if any. */
export function unmodeled(m: Member, layer: Layer): Unmodeled | undefined {
  for (const u of constructsOf(m)) {
    const info = CONSTRUCTS[u.key];
    if (!info) return { key: u.key, what: u.key, range: u.range, note: 'a construct the engine does not know' };
    if (info[layer] === 'refused') return { key: u.key, what: info.what, range: u.range, note: info.note };
  }
  return undefined;
}

/** The first construct of a definition's own declaration that the layer refuses. */
export function unmodeledDefinition(d: Definition, layer: Layer): Unmodeled | undefined {
  for (const u of definitionConstructs(d)) {
    const info = CONSTRUCTS[u.key];
    if (!info) return { key: u.key, what: u.key, range: u.range, note: 'a construct the engine does not know' };
    if (info[layer] === 'refused') return { key: u.key, what: info.what, range: u.range, note: info.note };
  }
  return undefined;
}

/** The refusal message for an unmodeled construct: "a time slice is not supported here (…)". */
export function refusalMessage(u: Unmodeled, where: string): string {
  return `${u.what} is not supported ${where} (${u.note})`;
}

/**
 * A feature two supertypes both value, neither replacing the other (`D :> B, C`, B and C each redefining
 * `x` with a value): one message for the value model and the behaviour compiler, which both refuse it.
 */
export function inheritedTwiceMessage(feature: string, defaults: boolean, from: string, also: string, owner: string | null): string {
  return `'${feature}' is inherited with two ${defaults ? 'default values' : 'values'}, from ${from} and ${also}, and neither redefines the other: redefine it in ${owner ?? 'the element'} to say which`;
}

/**
 * A usage that takes the place of a supertype's feature by its position or role, not by a redefinition it
 * declares (KerML implied redefinitions: parameters, ends, the subject, the result; SysML: objectives,
 * actors, stakeholders): read by name as before; the value model checks parameters' positions apart.
 */
export function redefinesImplicitly(u: Usage): boolean {
  return u.direction !== null || u.isEnd || (u.role !== null && IMPLIED_ROLES.has(u.role));
}
const IMPLIED_ROLES = new Set(['subject', 'return', 'objective', 'actor', 'stakeholder']);

/** Kinds whose owned parameters redefine a supertype's parameters in order (KerML Behaviors and Steps). */
export const POSITIONAL_PARAMETER_KINDS: ReadonlySet<string> = new Set([
  'action', 'state', 'calc', 'constraint', 'requirement', 'concern', 'case', 'analysis', 'verification', 'use case', 'viewpoint',
  'behavior', 'function', 'predicate', 'step', 'expr', 'bool', 'inv',
]);

/** A parameter in the order of its owner's parameters (in, out and inout; not the result or the subject). */
export function isOrderedParameter(m: Member): m is Usage {
  return m.kind === 'Usage' && m.direction !== null && m.role !== 'return' && m.role !== 'subject';
}

/**
 * A parameter declared without `:>>` whose name is not that of the supertype's parameter at its
 * position (KerML, Behaviors and Steps: such a parameter redefines the one at its position): what it
 * would redefine and what its name suggests differ, so it is refused, saying both. `theirs` are the
 * supertype's parameters in order, each `used` when reading a renamed one as a feature of its own could
 * differ from reading it as that parameter (it has a value, or the bodies name it); undefined when the
 * position and the name agree, or the parameter renames an unused one in place.
 */
export function parameterOrderMessage(name: string, position: number, owner: string, direction: string, theirs: readonly { readonly name: string | null; readonly at: string; readonly used: boolean }[], supertype: string): string | undefined {
  const at = theirs[position];
  const named = theirs.findIndex((x) => x.name === name);
  if (at ? at.name === name || (named < 0 && !at.used) : named < 0) return undefined;
  const nth = (k: number) => `${k + 1}${['st', 'nd', 'rd'][k] ?? 'th'}`;
  const rule = 'a parameter declared without `:>>` redefines the one at its position (KerML, Behaviors and Steps)';
  return at
    ? `the parameter '${name}' of ${owner} is its ${nth(position)}, and ${supertype}'s ${nth(position)} is '${at.name ?? '<unnamed>'}' (${at.at}): ${rule}, so it would be ${supertype}'s '${at.name ?? '<unnamed>'}'${named >= 0 ? `, not ${supertype}'s '${name}' (its ${nth(named)})` : ''}; write \`${named >= 0 ? `${direction} :>> ${name}` : `${direction} ${name} :>> ${at.name ?? '…'}`}\` to say which it redefines, or declare the parameters in ${supertype}'s order`
    : `the parameter '${name}' of ${owner} is its ${nth(position)}, past ${supertype}'s parameters, and ${supertype}'s '${name}' is its ${nth(named)}: ${rule}, so it is not that one; write \`${direction} :>> ${name}\` to redefine it, or declare the parameters in ${supertype}'s order`;
}

/** Calls `visit` on every object of a syntax subtree (arrays entered, ranges skipped), kind or not:
 * what the name collectors below share. */
export function eachSyntaxObject(e: unknown, visit: (n: { kind?: string } & Record<string, unknown>) => void): void {
  if (typeof e !== 'object' || e === null) return;
  if (Array.isArray(e)) {
    for (const x of e) eachSyntaxObject(x, visit);
    return;
  }
  const n = e as { kind?: string } & Record<string, unknown>;
  visit(n);
  for (const [k, v] of Object.entries(n)) if (k !== 'range' && typeof v === 'object') eachSyntaxObject(v, visit);
}

/** Names mentioned in a syntax subtree (every segment of every qualified name: names, member accesses, references). */
export function mentioned(e: unknown, out: Set<string>): void {
  eachSyntaxObject(e, (n) => {
    const segments = (n as { segments?: string[] }).segments;
    if (n.kind === 'QualifiedName' && segments) for (const s of segments) out.add(s);
  });
}

/**
 * An owned feature declared under an inherited feature's name without redefining it (a forgotten `:>>`):
 * another feature, which the supertype's own expressions never read (KerML 7.3.4.6: a redefinition is
 * declared). One message for the value model and the behaviour compiler, which both refuse it.
 */
export function unredefinedNameMessage(name: string, owner: string, keyword: string, inherited: string, inheritedOwner: string): string {
  return `'${name}' in ${owner} has the name of the inherited ${inherited} but does not redefine it: it is another feature, and ${inheritedOwner}'s expressions still read ${inheritedOwner}'s (KerML 7.3.4.6: a redefinition is declared, with \`:>>\` or \`redefines\`); write \`${keyword} :>> ${name}\` to redefine it, or give it another name`;
}

/** Expression kinds and what the evaluator does with them (the census reads this too). */
export const EXPRESSIONS: Readonly<Record<Expression['kind'], ConstructInfo>> = {
  Literal: c('a literal', M, M, M, 'KerML 7.4.9.2'),
  Null: c('null', M, M, M, 'the empty sequence'),
  Name: c('a name', M, M, M, 'a feature value, an enumeration literal or a library constant'),
  Unary: c('a unary operator', M, M, M, 'docs/semantics.md; `~` is refused by the evaluator'),
  Binary: c('a binary operator', M, M, M, 'docs/semantics.md'),
  Conditional: c('if … ? … else …', M, M, M, 'KerML 7.4.9'),
  Classification: c('a classification (istype, hastype, @, as)', M, M, M, '`x @@ T` reads the element\'s metaclass and owned metadata (refused where they disagree); `meta` is refused by the evaluator'),
  Extent: c("'all T' (the extent of a type)", R, R, R, 'not modeled'),
  MemberAccess: c('a feature chain', M, M, M, 'over sequences too'),
  Collect: c('collect', M, M, M, 'body functions'),
  Select: c('select', M, M, M, 'body functions'),
  Index: c('indexing #(i)', M, M, M, '1-based'),
  Quantity: c('a quantity [unit]', M, M, M, 'src/sysml/semantics/units.ts'),
  Sequence: c('a sequence (a, b)', M, M, M, 'flat sequences'),
  Invocation: c('an invocation', M, M, M, 'model calcs, or library functions with semantics; any other function is refused'),
  ArrowInvocation: c('an arrow invocation', M, M, M, 'model calcs, or library functions with semantics; any other function is refused'),
  Constructor: c("'new T(…)'", M, M, M, 'a new instance of a model part, item or occurrence definition, its features given by the arguments (KerML ConstructorExpression); refused for an attribute, library, abstract or checked type, and by the solver and behaviours'),
  Body: c('a body expression { … }', M, M, M, 'the argument of a body function; elsewhere refused'),
  MetadataAccess: c('metadata access', R, R, R, 'not modeled'),
  Missing: c('a missing expression', R, R, R, 'a syntax error refuses the question'),
};

const MEMBER_KINDS = new Set([
  'Package', 'Import', 'Alias', 'Dependency', 'Comment', 'Documentation', 'TextualRepresentation', 'RelationshipDeclaration',
  'Definition', 'Usage', 'Succession', 'Transition', 'AcceptAction', 'SendAction', 'AssignAction', 'IfAction', 'LoopAction',
  'ForAction', 'TerminateAction', 'StateSubaction', 'ResultExpression', 'ElementFilter', 'InvalidMember',
]);

/** Node kinds that are parts of other constructs, counted through them (names, ends, relations …). */
const PARTS = new Set(['Document', 'QualifiedName', 'FeatureChain', 'Relation', 'Multiplicity', 'FeatureValue', 'ConnectorEnd', 'Argument']);

/**
 * Every construct a syntax tree holds, with how often: member constructs (constructsOf, definition
 * modifiers) and expression kinds (`expr:<Kind>`). Node kinds this module does not know are counted
 * as `unknown:<Kind>`, which the census test rejects.
 */
export function censusOf(root: import('./ast').Node, counts = new Map<string, number>()): Map<string, number> {
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  walkNodes(root, (n) => {
    if (MEMBER_KINDS.has(n.kind)) {
      const m = n as Member;
      for (const u of constructsOf(m)) add(u.key);
      if (m.kind === 'Definition') for (const u of definitionConstructs(m)) add(u.key);
    } else if (n.kind in EXPRESSIONS) add(`expr:${n.kind}`);
    else if (!PARTS.has(n.kind)) add(`unknown:${n.kind}`);
  });
  return counts;
}

function walkNodes(root: import('./ast').Node, visit: (n: import('./ast').Node) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const n = stack.pop();
    if (n === null || typeof n !== 'object') continue;
    if (Array.isArray(n)) {
      for (const x of n) stack.push(x);
      continue;
    }
    const o = n as { kind?: unknown } & Record<string, unknown>;
    if (typeof o.kind === 'string') visit(o as unknown as import('./ast').Node);
    for (const key in o) {
      if (key === 'range' || key === 'nameRange' || key === 'kind') continue;
      const v = o[key];
      if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
}

/** Whether the census knows a key (a construct of CONSTRUCTS, or an expression kind). */
export function censusInfo(key: string): ConstructInfo | undefined {
  if (key.startsWith('expr:')) return EXPRESSIONS[key.slice(5) as Expression['kind']];
  return CONSTRUCTS[key];
}
