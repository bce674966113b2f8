// `evaluate`: the value of an attribute or calc usage, or the verdict of a constraint or requirement.
import type { Member, Node, QualifiedName, Reference, SourceRange, Usage } from '../../sysml/ast';
import { sourceOf } from '../../sysml';
import { walk } from '../../sysml/walk';
import { parseExpressionText } from '../../sysml/expression-text';
import { convertQuantity } from '../../sysml/semantics/operators';
import { quantityKindUnit, sameDimension, type Unit } from '../../sysml/semantics/units';
import { constraintReference, expectBoolean, referencedConstraint, type CallArgument, type Verdict } from '../../sysml/semantics/evaluate';
import { Random } from '../../sysml/semantics/random';
import { enumLiteral, isError, toProtocolValue, type Instance, type Outcome, type Value } from '../../sysml/semantics/values';
import type { CoversParams, CoversResult, RunParams, RunResult, Value as ProtocolValue } from '../../protocol';
import { isCallable, isMissingValue, joinPath, uncountedFeature, type InstanceContext } from '../../sysml/model/environment';
import { UnsupportedError, place } from '../../sysml/model/errors';
import { constraintsOf, declarationKind, declaredKindUnit, type ModelElement } from '../../sysml/model/model';
import type { RunContext } from '../run';
import type { QuestionHandler } from '../server';
import { failure, Model, Session, typeName } from '../../sysml/model/session';
import { unsupportedConstruct } from './coverage';

/** A generator that counts its draws, so a result can say whether chance was involved. */
export class CountingRandom extends Random {
  draws = 0;
  override next(): number {
    this.draws++;
    return super.next();
  }
}

export interface SubjectValue {
  value: Value;
  /** Why a constraint or requirement is false (or holds only vacuously). */
  reason?: string;
  assumptions?: string[];
  /** A calc's or analysis's `out` parameters besides its result. */
  outputs?: { name: string; value: Value }[];
  /** The name the value is answered under, when not the subject's (an analysis plan's first analysis). */
  name?: string;
}

const VALUE_KINDS = new Set(['attribute', 'ref', 'feature', 'calc', 'constraint', 'requirement', 'analysis', 'verification', 'concern', 'case', 'enum']);

/** Whether evaluate answers about this kind of element. */
export function evaluable(e: ModelElement): boolean {
  const kind = declarationKind(e);
  if (e.node.kind === 'Definition') return kind === 'constraint' || kind === 'requirement' || kind === 'calc' || kind === 'analysis' || kind === 'concern';
  return VALUE_KINDS.has(kind) || (e.node.kind === 'Usage' && e.node.value !== null);
}

/**
 * What `evaluate` checks of a subject that has no value of its own (a part, item, port …): its
 * constraints, the set `satisfiable` solves, so an assignment it finds can be confirmed with those
 * values bound. Empty for a subject evaluate answers about otherwise.
 */
export function checkedConstraints(index: Model['index'], e: ModelElement): ModelElement[] {
  const kind = declarationKind(e);
  if (kind === 'constraint' || kind === 'requirement' || kind === 'concern' || evaluable(e)) return [];
  return constraintsOf(index, e);
}

function label(e: ModelElement): string {
  // `assert heavy;` reads as the constraint it names.
  const named = e.name === null && e.node.kind === 'Usage' ? constraintReference(e.node) : undefined;
  return e.name ?? (named ? `${(e.node as Usage).isNegated ? 'not ' : ''}${referenceText(named)}` : e.qualifiedName);
}

/** Own and inherited members of an element that are constraint checks (require/assume/assert, sub-requirements). */
function checkMembers(session: Session, e: ModelElement): Member[] {
  return session.values.index
    .featuresOf(e)
    .map((f) => f.node as Member)
    // A nested requirement is a required constraint (Requirements library: subrequirements :> constraints),
    // with a body of its own or not (`requirement sub :> massLimit;`, `requirement sub : MassReq;`).
    // A `ref requirement` is no subrequirement (SysML: only a composite one subsets subrequirements).
    .filter((m) => isConstraintMember(m) || (m.kind === 'Usage' && m.keyword === 'requirement' && m.role === null && !m.isRef));
}

/** `require …`, `assume …` or `assert constraint …`: a constraint member of a body. */
function isConstraintMember(m: Member): boolean {
  return m.kind === 'Usage' && (m.role === 'require' || m.role === 'assume' || (m.role === 'assert' && m.keyword === 'constraint'));
}

/** What a constraint's verdict reads: its asserted constraints (own and inherited, with any stray
 * `require`/`assume`, which the evaluator refuses in a constraint) and its last result expression. */
function constraintMembers(session: Session, e: ModelElement): Member[] {
  const asserted = session.values.index.featuresOf(e).map((f) => f.node as Member).filter(isConstraintMember);
  const r = session.values.bodyMembers(e).filter((m) => m.kind === 'ResultExpression');
  return [...asserted, ...r.slice(-1)];
}

/**
 * Arguments for a calc's parameters (`in`, and an analysis's or requirement's `subject`): the values the
 * question binds, and for a structured parameter without a value, the instance whose features the
 * bindings give (`car.mass`).
 */
export function boundArguments(session: Session, e: ModelElement): CallArgument[] {
  const args: CallArgument[] = [];
  for (const m of session.values.bodyMembers(e)) {
    if (m.kind !== 'Usage' || m.role === 'return') continue;
    if (m.direction !== 'in' && m.direction !== 'inout' && m.role !== 'subject') continue;
    const f = session.values.index.elementOf(m);
    const name = f?.name;
    if (!f || !name) continue;
    const path = session.subjectContext.path === '' ? name : `${session.subjectContext.path}.${name}`;
    const bound = session.values.bindings.get(path);
    if (bound !== undefined) args.push({ name, value: bound });
    else if (m.value === null && m.role === 'subject' && ![...session.values.bindings.keys()].some((k) => k.startsWith(`${path}.`))) {
      // An unvalued subject is not an instance with unknown features: the question cannot be answered.
      throw new UnsupportedError(`${place(e.path, m.nameRange ?? m.range)}: the subject '${name}' of ${label(e)} has no value: give it one in the model (subject ${name} = …) or bind its features in the question`);
    } else if (m.value === null) {
      const v = session.values.featureValue(session.subjectContext, f);
      if (v.kind === 'instance') args.push({ name, value: v });
    }
  }
  return args;
}

function verdictResult(session: Session, v: Verdict | (Outcome & { kind: 'error' }), negated = false): SubjectValue {
  if ('kind' in v) throw failure(v, session.model, session.subject.path);
  const value = negated ? !v.value : v.value;
  const out: SubjectValue = { value: { kind: 'boolean', value } };
  if (!v.value && v.failing) {
    const where = place(session.model.pathOf(v.failing.range) ?? session.subject.path, v.failing.range);
    out.reason = `${label(session.subject)}: ${v.failing.label} is false (${where})`;
  }
  if (v.vacuous) {
    const where = place(session.model.pathOf(v.vacuous.range) ?? session.subject.path, v.vacuous.range);
    out.reason = `${label(session.subject)} holds only because its assumption ${v.vacuous.label} is false (${where})`;
    out.assumptions = [`${v.vacuous.label} is false`];
  }
  return out;
}

/** The subject's value under the session's bindings. */
/**
 * Whether a requirement's body (own and inherited members) states a condition: a require, assume or
 * asserted constraint, or a nested requirement. One stated in prose only carries no verdict: its
 * condition is its text, which is not modeled (the OpenSysML suite's satisfy_without_conditions reads it
 * so too). KerML would make it vacuously true, which reads as "checked, holds".
 */
export function statesCondition(members: readonly Member[]): boolean {
  return members.some((m) => m.kind === 'Usage' && (m.role === 'require' || m.role === 'assume' || (m.role === 'assert' && m.keyword === 'constraint') || (m.keyword === 'requirement' && m.role === null)));
}

export function evaluateSubject(session: Session): SubjectValue {
  const e = session.subject;
  const kind = declarationKind(e);
  const values = session.values;
  const ctx = session.subjectContext;
  const env = values.environment(ctx, e);
  if (kind === 'requirement' || kind === 'concern') {
    if (!statesCondition(values.bodyMembers(e))) {
      throw new UnsupportedError(`${place(session.model.pathOf(e.node.range) ?? e.path, e.node.range)}: '${label(e)}' states no condition (no require, assume or nested requirement), so there is no check to evaluate: its text is not read`);
    }
    return verdictResult(session, session.evaluator.checkRequirement(label(e), checkMembers(session, e), [], env, e.node.range));
  }
  if (kind === 'constraint') {
    const negated = e.node.kind === 'Usage' && e.node.isNegated;
    return verdictResult(session, session.evaluator.checkConstraint(label(e), constraintMembers(session, e), [], env, e.node.range), negated);
  }
  let v: Outcome;
  let outputs: SubjectValue['outputs'];
  let failing: string | undefined;
  let objectiveNote: string | undefined;
  if (isCallable(e)) {
    const r = values.invokeElementDetailed(e, boundArguments(session, e), ctx, e.node.range);
    v = r.value;
    if (r.failing) failing = `${label(e)}: its asserted constraint ${r.failing.label} is false (${place(session.model.pathOf(r.failing.range) ?? e.path, r.failing.range)})`;
    const outs: { name: string; value: Value }[] = [];
    for (const o of r.outputs) {
      if (isError(o.value)) throw failure(o.value, session.model, e.path);
      if (o.value.kind !== 'instance') outs.push({ name: o.name, value: o.value });
    }
    // The single output already is the value when there is no result.
    if (outs.length > 0 && !(outs.length === 1 && !hasResult(session, e))) outputs = outs;
    // A case's objective: its verdict on the result, beside it; where it has none, the reason says why.
    if (r.objective) {
      const o = r.objective;
      const its = o.label === 'objective' ? 'its objective' : `its objective ${o.label}`;
      if ('kind' in o.verdict) {
        if (o.verdict.code === 'unsupported') throw failure(o.verdict, session.model, e.path);
        objectiveNote = `${its} has no verdict: ${o.verdict.message}`;
      } else {
        outputs = [...(outputs ?? []), { name: o.label, value: { kind: 'boolean', value: o.verdict.value } }];
        if (!o.verdict.value) {
          const f = o.verdict.failing;
          objectiveNote = `${its} is not met${f ? `: ${f.label} is false (${place(session.model.pathOf(f.range) ?? e.path, f.range)})` : ''}`;
        } else if (o.unstated) {
          objectiveNote = `${its} states no constraint (text only), so it holds with nothing checked`;
        } else if (o.verdict.vacuous) {
          objectiveNote = `${its} holds only because its assumption ${o.verdict.vacuous.label} is false`;
        }
      }
    }
  } else if (e.node.kind === 'Usage' && e.node.value) {
    const bound = values.bindings.get(ctx.path);
    // `attribute x := 1;` in an action that then assigns x: 1 is x's value when the action starts, not
    // its value (evaluate answered x = 1 at proved). Bound by the question, x is that value throughout.
    const assigned = bound === undefined ? assignedByOwner(session, e) : undefined;
    if (assigned) {
      throw new UnsupportedError(`${place(assigned.at.path, assigned.at.range)}: ${label(assigned.owner)} assigns '${e.name}', so its value changes as that behaviour runs, and evaluate reads only the value the model declares (its initial one); ask outcomes for its value at each end, or holds for a condition on it while it runs`);
    }
    if (bound !== undefined) v = bound;
    else if (ctx.parent) v = values.featureValue(ctx.parent, e);
    else v = session.evaluator.evaluate(e.node.value.expression, values.environment(ctx, e.parent ?? e));
  } else if (e.node.kind === 'Usage' && ctx.parent) {
    v = values.featureValue(ctx.parent, e);
  } else {
    throw new UnsupportedError(`${place(e.path, e.node.nameRange ?? e.node.range)}: ${e.qualifiedName} is a ${kind} ${e.node.kind === 'Definition' ? 'definition' : 'usage'}, which has no value to evaluate`);
  }
  if (isError(v)) throw failure(v, session.model, e.path);
  if (v.kind === 'quantity') v = presentable(v, declaredType(session, e));
  v = shownVariant(v);
  if (v.kind === 'instance') {
    throw new UnsupportedError(`${place(e.path, e.node.nameRange ?? e.node.range)}: ${e.qualifiedName} is a structured value (${v.label}); ask about one of its attributes`);
  }
  const reason = [failing, objectiveNote && `${label(e)}: ${objectiveNote}`].filter((x): x is string => x !== undefined).join('; ');
  return { value: v, ...(reason ? { reason } : {}), ...(outputs ? { outputs } : {}) };
}

const CASE_KINDS = new Set(['analysis', 'case', 'verification']);

/**
 * An analysis (or case) that has no result of its own — no result expression, return or output, no
 * asserted constraint — but runs analyses or calcs of its own (`analysis def AnalysisPlan { analysis
 * massAnalysisCase : MassAnalysisCase { return mass; } }`): its value is theirs, each under its name
 * with its objective's verdict, and the reason says that the plan itself has no result. Its own
 * objective may only be text (a constraint on a result it does not have is refused as before).
 * Undefined where that is not the case.
 */
function analysisPlan(session: Session, e: ModelElement): SubjectValue | undefined {
  if (!CASE_KINDS.has(declarationKind(e))) return undefined;
  const values = session.values;
  const members = values.bodyMembers(e);
  const own = (m: Member) => m.kind === 'ResultExpression' || (m.kind === 'Usage' && (m.role === 'return' || m.role === 'assert' || m.direction === 'out'));
  if (members.some(own)) return undefined;
  const objective = members.find((m): m is Usage => m.kind === 'Usage' && m.role === 'objective');
  if (objective && objective.body?.some((m) => m.kind !== 'Comment' && m.kind !== 'Documentation' && !(m.kind === 'Usage' && m.role === 'subject'))) return undefined;
  const nested = values.index.featuresOf(e).filter((f) => f.node.kind === 'Usage' && f.node.role === null && f.node.direction === null && isCallable(f) && CASE_KINDS.has(declarationKind(f)) || (f.node.kind === 'Usage' && f.node.keyword === 'calc' && f.node.role === null && f.node.direction === null));
  if (nested.length === 0) return undefined;
  const ctx = session.subjectContext;
  // A nested analysis whose subject is not given takes the plan's (the release's validation model
  // 10a-Analysis: "the subject of a nested analysis case [is] bound to that of its containing analysis
  // case"); the answer lists that as an assumption.
  const planSubject = members.find((m): m is Usage => m.kind === 'Usage' && m.role === 'subject' && m.name !== null);
  const planSubjectElement = planSubject ? values.index.elementOf(planSubject) : undefined;
  const planSubjectValue = planSubjectElement ? values.featureValue(ctx, planSubjectElement) : undefined;
  const outputs: { name: string; value: Value }[] = [];
  const notes: string[] = [];
  const assumptions: string[] = [];
  for (const f of nested) {
    const name = f.name ?? '<unnamed>';
    const subject = values.bodyMembers(f).find((m): m is Usage => m.kind === 'Usage' && m.role === 'subject' && m.name !== null);
    const passes = subject && (!subject.value || subject.value.isDefault) && planSubjectValue !== undefined && !isError(planSubjectValue);
    if (passes) assumptions.push(`the subject ${subject.name} of ${name} is ${label(e)}'s subject ${planSubject!.name} (a nested analysis's subject is bound to its containing analysis's, as the release's 10a-Analysis model states)`);
    const r = values.invokeElementDetailed(f, passes ? [{ name: subject.name, value: planSubjectValue as Value }] : [], values.child(ctx, f), f.node.range);
    if (isError(r.value)) throw failure(r.value, session.model, e.path);
    let v = r.value;
    if (v.kind === 'quantity') v = presentable(v, declaredType(session, f));
    if (v.kind === 'instance') throw new UnsupportedError(`${place(e.path, f.node.nameRange ?? f.node.range)}: ${name} of ${label(e)} is a structured value (${v.label}); ask about it directly`);
    outputs.push({ name, value: v });
    if (r.failing) throw new UnsupportedError(`${place(session.model.pathOf(r.failing.range) ?? e.path, r.failing.range)}: ${name}: its asserted constraint ${r.failing.label} is false, so it has no result`);
    if (r.objective) {
      const o = r.objective;
      if ('kind' in o.verdict) {
        if (o.verdict.code === 'unsupported') throw failure(o.verdict, session.model, e.path);
        notes.push(`${name}'s objective has no verdict: ${o.verdict.message}`);
      } else {
        outputs.push({ name: `${name}.${o.label}`, value: { kind: 'boolean', value: o.verdict.value } });
        if (o.unstated) notes.push(`${name}'s objective states no constraint (text only)`);
        else if (!o.verdict.value) notes.push(`${name}'s objective is not met`);
      }
    }
  }
  const [first, ...rest] = outputs;
  const reason = `${label(e)} has no result of its own (no result expression, return value or output); the values are those of its ${nested.length === 1 ? 'analysis' : 'analyses'} ${nested.map((f) => f.name ?? '<unnamed>').join(', ')}${notes.length ? `; ${notes.join('; ')}` : ''}`;
  return { value: first!.value, name: first!.name, reason, outputs: rest, ...(assumptions.length ? { assumptions } : {}) };
}

/** A variation point's value, the variant selected, answered by its name as a literal of the point. */
function shownVariant(v: Value): Value {
  return v.kind === 'instance' && v.variant ? enumLiteral(v.variant.point, v.variant.name) : v;
}

/** Whether a calc-like element has a result of its own (a result expression or a return parameter). */
function hasResult(session: Session, e: ModelElement): boolean {
  return session.values.bodyMembers(e).some((m) => m.kind === 'ResultExpression' || (m.kind === 'Usage' && m.role === 'return'));
}

/** The type a subject's value is declared with: its own typing, or a calc's return parameter's. */
function declaredType(session: Session, e: ModelElement): string | undefined {
  const own = typeName(e, session.values.index);
  if (own && quantityKindUnit(own)) return own;
  if (!isCallable(e)) return own;
  const ret = session.values.bodyMembers(e).find((m) => m.kind === 'Usage' && m.role === 'return');
  const element = ret ? session.values.index.elementOf(ret as Usage) : undefined;
  return (element ? typeName(element, session.values.index) : undefined) ?? own;
}

/**
 * A quantity in a compound unit the arithmetic left behind (`kg*km^2/h^2`) is reported in the coherent
 * unit of its declared quantity kind (`J` for an EnergyValue); units a modeler wrote stay as written.
 */
export function presentable(v: Value, type: string | undefined): Value {
  if (v.kind !== 'quantity' || !type || !isLeftover(v.unit)) return v;
  const kind = quantityKindUnit(type);
  if (!kind || !sameDimension(kind.dimension, v.unit.dimension)) return v;
  const converted = convertQuantity(v, kind);
  return isError(converted) ? v : (converted as Value);
}

/**
 * Whether a unit is what arithmetic left behind rather than what a modeler writes: three or more
 * factors (`kg*km^2/h^2`), or several factors that cancel down to one base quantity (`kJ/W` is a time).
 * `km/h`, `m/s^2`, `N*m`, `kW*h` are kept.
 */
function isLeftover(unit: Unit): boolean {
  if (unit.terms.length >= 3) return true;
  if (unit.terms.length < 2) return false;
  const axes = unit.dimension.slice(0, 7).filter((x) => x !== 0).length;
  return axes === 1;
}

export function protocolValues(name: string, v: Value): ProtocolValue[] {
  // The protocol's values are numbers, Booleans and strings: a Complex is its two parts.
  if (v.kind === 'complex') {
    return [toProtocolValue(`${name}.re`, { kind: 'real', value: v.re }) as ProtocolValue, toProtocolValue(`${name}.im`, { kind: 'real', value: v.im }) as ProtocolValue];
  }
  return [toProtocolValue(name, v) as ProtocolValue];
}

export function coversEvaluate(params: CoversParams): CoversResult {
  const model = new Model(params.model.sources!);
  const subject = model.subject(params.question.subject);
  if (!evaluable(subject) && !STRUCTURES.has(declarationKind(subject)) && checkedConstraints(model.index, subject).length === 0 && satisfactions(model.index, subject).length === 0) {
    return {
      covers: false,
      reason: `evaluate answers about attributes, calcs, constraints, requirements, and the attributes and constraints of a part or other structure; ${params.question.subject} is ${/^[aeiou]/.test(declarationKind(subject)) ? 'an' : 'a'} ${declarationKind(subject)} ${subject.node.kind === 'Definition' ? 'definition' : 'usage'}`,
    };
  }
  const construct = unsupportedConstruct(model, subject);
  return construct ? { covers: false, reason: construct } : { covers: true };
}

export const evaluateQuestion: QuestionHandler = {
  covers: coversEvaluate,
  async run(params: RunParams, run: RunContext): Promise<RunResult> {
    const { session, random } = runSession(params, run, { stepLimit: true });
    if (params.question.conditions && params.question.conditions.length > 0) {
      throw new UnsupportedError(`evaluate takes one condition (--condition), not condition sets: condition sets are solved by satisfiable`);
    }
    if (params.question.condition) return conditionValue(session, params.question.condition, random, run);
    const own = checkedConstraints(session.values.index, session.subject);
    const satisfied = evaluable(session.subject) ? [] : satisfactions(session.values.index, session.subject);
    const checks: Check[] = [
      ...own.map((c) => ({ constraint: c, holder: session.subjectContext, name: label(c), nested: false })),
      ...(STRUCTURES.has(declarationKind(session.subject)) ? nestedChecks(session) : []),
    ];
    let unchecked: string[] = [];
    if (checks.length > 0 || satisfied.length > 0) {
      const r = checkConstraints(session, checks, satisfied, random, run);
      if (!('unchecked' in r)) return r;
      unchecked = r.unchecked;
    }
    if (STRUCTURES.has(declarationKind(session.subject)) && (!evaluable(session.subject) || holdsParts(session))) {
      const r = structureValues(session);
      const reason = unchecked.length > 0 ? `${r.reason}; ${uncheckedNote(unchecked)}` : r.reason;
      return { claim: 'value', strength: random && random.draws > 0 ? 'observed' : 'proved', values: r.values, reason, elapsed: run.elapsed() };
    }
    // An analysis plan answers its analyses' values (evaluate only: a table's column is the subject's own value).
    const r = (isCallable(session.subject) ? analysisPlan(session, session.subject) : undefined) ?? evaluateSubject(session);
    const name = r.name ?? session.subject.name ?? 'value';
    return {
      claim: 'value',
      // One draw from a seed is one observation; everything else is computed exactly.
      strength: random && random.draws > 0 ? 'observed' : 'proved',
      values: [...protocolValues(name, r.value), ...(r.outputs ?? []).flatMap((o) => protocolValues(o.name, o.value))],
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.assumptions ? { assumptions: r.assumptions } : {}),
      elapsed: run.elapsed(),
    };
  },
};


/**
 * `evaluate <structure> --condition c=<expr>`: the value of the expression on the subject's instance,
 * its names read as the subject's features (as a constraint in its body reads them), under the
 * question's bindings, answered under the condition's name (`p1 == p2` is whether the two parts are one
 * object). Only a structure (part, item, port, occurrence) is the scope of a condition here: a calc,
 * constraint or attribute has a value of its own, which evaluate answers without one. A condition
 * without text (naming a constraint) is refused: ask about the constraint itself.
 */
function conditionValue(session: Session, condition: { name: string; text?: string | undefined }, random: CountingRandom | undefined, run: RunContext): RunResult {
  const e = session.subject;
  const subject = label(e);
  const what = `condition ${condition.name}`;
  if (!STRUCTURES.has(declarationKind(e))) {
    throw new UnsupportedError(`${what}: evaluate reads a condition on a part, item, port or occurrence (its names are the structure's features); ${subject} is ${/^[aeiou]/.test(declarationKind(e)) ? 'an' : 'a'} ${declarationKind(e)}: ask about it without a condition`);
  }
  if (condition.text === undefined || condition.text.trim() === '') {
    throw new UnsupportedError(`${what}: no expression; to evaluate a declared constraint, ask about it (evaluate <its qualified name>)`);
  }
  const expr = parseExpressionText(condition.text, what);
  const refused = session.values.bodyRefusal(e, 'checks');
  if (refused) throw failure(refused, session.model, e.path);
  // The condition reads the features' values as the model gives them (bound, initial or default): a
  // behaviour of the subject that assigns one it reads would change it as it runs.
  const assigned = behaviourAssignments(session);
  for (const n of namesIn(expr as unknown as Node)) {
    const a = assigned.get(n);
    if (a) throw new UnsupportedError(`${place(a.path, a.range)}: a behaviour of ${subject} assigns '${n}', which ${what} reads: evaluate reads the features' initial values; whether the condition holds while the behaviour runs is what \`holds\` answers`);
  }
  const source = sourceOf(expr.range);
  let v = session.evaluateExpression(expr);
  if (isError(v)) {
    if (v.code === 'budget' || !v.range || sourceOf(v.range) !== source) throw failure(v, session.model, e.path);
    throw new UnsupportedError(`${what}, column ${v.range.column}: ${v.message}`);
  }
  if (v.kind === 'instance') throw new UnsupportedError(`${what}: its value is a structured value (${v.label}); ask about that feature (evaluate <its qualified name>)`);
  v = shownVariant(v);
  return {
    claim: 'value',
    strength: random && random.draws > 0 ? 'observed' : 'proved',
    values: protocolValues(condition.name, v),
    reason: `${what} (${condition.text.trim()}) on ${subject}`,
    elapsed: run.elapsed(),
  };
}

/**
 * Subjects without a value of their own whose attributes evaluate lists (when they assert no
 * constraint), and the features it lists through (`engine.power`).
 */
const STRUCTURES = new Set(['part', 'item', 'port', 'occurrence']);
/** Value features listed. */
const VALUE_FEATURES = new Set(['attribute', 'enum', 'ref', 'feature']);
const MAX_STRUCTURE_VALUES = 200;
const MAX_STRUCTURE_DEPTH = 3;

/** A structure usage whose value is given as other parts (`part both : Sub[*] = (left, right);`): listed like one that is not. */
function holdsParts(session: Session): boolean {
  const e = session.subject;
  const owner = session.subjectContext.parent;
  if (e.node.kind !== 'Usage' || !owner) return false;
  const v = session.values.featureValue(owner, e);
  if (isError(v)) return false;
  const items = v.kind === 'sequence' ? v.items : [v];
  return items.length > 0 && items.every((x) => x.kind === 'instance' && !x.variant && session.values.contextOfInstance(x) !== undefined);
}

/**
 * A part (item, port, occurrence) without constraints, evaluated: the values of its attributes and of
 * its nested parts' attributes (`engine.power`), in declaration order. An attribute the model gives no
 * value is named in the reason; any other error (a construct not modeled, a model error) refuses the
 * question, as it does for one attribute.
 */
function structureValues(session: Session): { values: ProtocolValue[]; reason: string } {
  const values = session.values;
  const refused = values.bodyRefusal(session.subject);
  if (refused) throw failure(refused, session.model, session.subject.path);
  const e = session.subject;
  const ctx0 = session.subjectContext;
  // What the usage holds decides: one instance is listed as itself; several (or none: `[*]`, `[0..*]`)
  // are counted and each listed under its index (`#(2).mass`, SysML's indexing); a variation point is the
  // variant selected.
  let held: Value | undefined;
  if (e.node.kind === 'Usage' && ctx0.parent) {
    const v = values.featureValue(ctx0.parent, e);
    if (isError(v)) throw failure(v, session.model, e.path);
    if (v.kind === 'instance' && v.variant) {
      return { values: protocolValues(label(e), shownVariant(v)), reason: `${label(e)}: the variant ${v.variant.name}` };
    }
    held = v;
  }
  const out: ProtocolValue[] = [];
  const unvalued: string[] = [];
  const kinds: string[] = [];
  const ranged: string[] = [];
  const initial: string[] = [];
  let cut = false;
  const visit = (ctx: typeof session.subjectContext, prefix: string, depth: number): void => {
    for (const f of values.index.featuresOf(ctx.element)) {
      if (cut) return;
      if (f.node.kind !== 'Usage' || !f.name || f.node.role !== null && f.node.role !== 'member') continue;
      const keyword = f.node.keyword;
      const name = `${prefix}${f.name}`;
      const nested = STRUCTURES.has(keyword);
      if (!nested && !VALUE_FEATURES.has(keyword)) continue;
      // A feature declaring a quantity kind by its value (`torquePerCurrent :> scalarQuantities =
      // ISQ::torque / ISQ::electricCurrent;`) has every value of that kind: named in the reason, no value.
      if (!nested && declaredKindUnit(f, values.index)) {
        kinds.push(name);
        continue;
      }
      let v = values.featureValue(ctx, f);
      if (isError(v)) {
        // Missing values (this feature's or one it is computed from) are listed as such; anything else refuses.
        if (isMissingValue(v)) {
          unvalued.push(name);
          continue;
        }
        // A nested part declared with a range (`part cyl : Cylinder[4..6];`) that nothing subsets: how many
        // it holds is not said, so it is not counted. Several parts are only counted here (never listed
        // one by one), and a listed value that reads them is refused as before, so nothing listed
        // depends on the number.
        const uncounted = nested ? uncountedFeature(v) : undefined;
        if (uncounted && uncounted.path === joinPath(ctx.path, f.name)) {
          ranged.push(`${name} holds between ${uncounted.lower} and ${uncounted.upper} ${keyword}s`);
          continue;
        }
        throw failure(v, session.model, f.path);
      }
      v = shownVariant(v);
      if (v.kind === 'instance') {
        // The instance's own context: a feature one part subsets holds that part, not its own declaration.
        if (nested && depth < MAX_STRUCTURE_DEPTH) visit(values.contextOfInstance(v) ?? values.child(ctx, f), `${name}.`, depth + 1);
        continue;
      }
      // Several parts (`wheels : Wheel[4]`) are counted, not listed one by one.
      if (v.kind === 'sequence' && v.items.some((x) => x.kind === 'instance')) {
        if (nested) out.push({ name: `${name}.count`, value: v.items.length } as ProtocolValue);
        continue;
      }
      if (v.kind === 'quantity') v = presentable(v, typeName(f, values.index));
      if (f.name && behaviourAssignments(session, ctx.element).has(f.name)) initial.push(name);
      out.push(...protocolValues(name, v));
      if (out.length >= MAX_STRUCTURE_VALUES) cut = true;
    }
  };
  const subject = label(session.subject);
  const parts: string[] = [];
  if (held === undefined || held.kind === 'instance') {
    visit(held === undefined ? session.subjectContext : (values.contextOfInstance(held) ?? session.subjectContext), '', 1);
  } else {
    const items = held.kind === 'sequence' ? held.items : [held];
    const contexts = items.map((item) => (item.kind === 'instance' ? values.contextOfInstance(item) : undefined));
    if (contexts.some((c) => c === undefined)) {
      throw new UnsupportedError(`${place(e.path, e.node.nameRange ?? e.node.range)}: ${e.qualifiedName} holds ${items.length} value${items.length === 1 ? '' : 's'} that are not parts of this model: ask about an attribute that reads them`);
    }
    out.push({ name: 'count', value: items.length } as ProtocolValue);
    contexts.forEach((c, k) => visit(c!, `#(${k + 1}).`, 2));
    const named = items.map((item) => (item as Instance).label.split('.').at(-1)!);
    parts.push(`${subject}: ${items.length} part${items.length === 1 ? '' : 's'}${items.length > 0 ? ` (${named.join(', ')})` : ''}`);
  }
  parts.push(`${parts.length > 0 ? '' : `${subject}: `}${out.length} value${out.length === 1 ? '' : 's'}${cut ? ` (the first ${MAX_STRUCTURE_VALUES})` : ''}`);
  if (kinds.length > 0) parts.push(`${kinds.join(', ')} ${kinds.length === 1 ? 'declares a quantity kind' : 'declare quantity kinds'} (an expression of the library's quantities), not ${kinds.length === 1 ? 'a value' : 'values'}`);
  if (ranged.length > 0) parts.push(`${ranged.join(', ')}: the model does not say how many, so ${ranged.length === 1 ? 'it is' : 'they are'} not counted (no value listed reads ${ranged.length === 1 ? 'it' : 'them'})`);
  if (initial.length > 0) parts.push(`${initial.slice(0, 10).join(', ')}${initial.length > 10 ? ` and ${initial.length - 10} more` : ''}: the initial value${initial.length === 1 ? '' : 's'}, which a behaviour of the holder assigns as it runs (outcomes gives the values at each end)`);
  if (unvalued.length > 0) parts.push(`no value in the model for ${unvalued.slice(0, 10).join(', ')}${unvalued.length > 10 ? ` and ${unvalued.length - 10} more` : ''} (bind them in the question)`);
  return { values: out, reason: parts.join('; ') };
}

/** A constraint to check, on the instance that holds it, under the name the answer gives it (`eng.lim`). */
interface Check {
  readonly constraint: ModelElement;
  readonly holder: InstanceContext;
  readonly name: string;
  /** Asserted by a nested part: one that reads a feature without a value is named as not checked. */
  readonly nested: boolean;
}

function uncheckedNote(unchecked: readonly string[]): string {
  return `not checked, for want of a value: ${unchecked.slice(0, 5).join('; ')}${unchecked.length > 5 ? ` and ${unchecked.length - 5} more` : ''} (bind them in the question)`;
}

/**
 * The asserted constraints of the subject's nested parts (items, ports, occurrences), own and inherited,
 * down to MAX_STRUCTURE_DEPTH: what a part asserts holds in every instance of what holds it, so a vehicle
 * whose engine asserts `p > 10` with p = 5 violates it. They were left out: `evaluate` of the vehicle
 * answered its values (or its own constraints) at proved, saying nothing of the engine's false one.
 * Several parts (`wheels : Wheel[4]`) are checked one by one (`wheels#(2).lim`). A nested part whose
 * instances cannot be made (a range nothing fixes) while it asserts something is refused.
 */
function nestedChecks(session: Session): Check[] {
  const values = session.values;
  const index = values.index;
  const out: Check[] = [];
  // Whether a feature, or a part nested in it, asserts anything (decides whether an unmade part matters).
  const asserts = (e: ModelElement, depth: number): boolean =>
    checkedConstraints(index, e).length > 0 ||
    (depth < MAX_STRUCTURE_DEPTH && index.featuresOf(e).some((f) => isNestedStructure(f) && asserts(f, depth + 1)));
  const visit = (ctx: InstanceContext, prefix: string, depth: number): void => {
    for (const f of index.featuresOf(ctx.element)) {
      if (!isNestedStructure(f)) continue;
      const name = `${prefix}${f.name}`;
      const v = values.featureValue(ctx, f);
      if (isError(v)) {
        if (asserts(f, depth)) throw failure(v, session.model, f.path);
        continue;
      }
      const shown = shownVariant(v);
      const items = shown.kind === 'sequence' ? shown.items : [shown];
      items.forEach((item, k) => {
        if (item.kind !== 'instance') return;
        const holder = values.contextOfInstance(item) ?? values.child(ctx, f);
        const at = shown.kind === 'sequence' ? `${name}#(${k + 1})` : name;
        for (const c of checkedConstraints(index, holder.element)) out.push({ constraint: c, holder, name: `${at}.${label(c)}`, nested: true });
        if (depth < MAX_STRUCTURE_DEPTH) visit(holder, `${at}.`, depth + 1);
      });
    }
  };
  visit(session.subjectContext, '', 1);
  return out;
}

function isNestedStructure(f: ModelElement): boolean {
  return f.node.kind === 'Usage' && f.name !== null && (f.node.role === null || f.node.role === 'member') && STRUCTURES.has(f.node.keyword);
}

/** A structured subject's constraints under the bindings: each one's verdict, and the first false one named. */
function checkConstraints(session: Session, checks: Check[], satisfied: Satisfaction[], random: CountingRandom | undefined, run: RunContext): RunResult | { unchecked: string[] } {
  // Soundness: what the structure asserts besides constraints (a satisfy, a verification) must be modeled too.
  const refused = session.values.bodyRefusal(session.subject, 'checks');
  if (refused) throw failure(refused, session.model, session.subject.path);
  const derivation = derivationConnection(session);
  if (derivation) {
    throw new UnsupportedError(`${place(derivation.path, derivation.node.range)}: a requirement derivation connection (#derivation) in ${label(session.subject)}: its library constraints (the original requirement implies the derived ones, and is none of them) are asserted where the structure's constraints are checked, and are not modeled`);
  }
  const assigned = behaviourAssignments(session);
  const values: ProtocolValue[] = [];
  const failing: string[] = [];
  const unchecked: string[] = [];
  for (const { constraint: c, holder, name, nested } of checks) {
    // An asserted constraint holds at all times of the part's life; evaluate reads initial values, so a
    // behaviour of the part that assigns a feature the constraint reads could break it as it runs.
    if (assigned.size > 0) {
      for (const n of namesIn(c.node)) {
        const a = assigned.get(n);
        if (a) {
          throw new UnsupportedError(`${place(a.path, a.range)}: a behaviour of ${label(session.subject)} assigns '${n}', which the asserted constraint ${name} reads: evaluate checks the features' initial values, and whether the constraint holds while the behaviour runs is what \`holds\` answers`);
        }
      }
    }
    const ctx = session.values.child(holder, c);
    const env = session.values.environment(ctx, c);
    const verdict = c.node.kind === 'Usage' && referencedConstraint(c.node) ? namedVerdict(session, c, ctx) : session.evaluator.checkConstraint(label(c), constraintMembers(session, c), [], env, c.node.range);
    if ('kind' in verdict) {
      // A nested part's constraint over a feature the model leaves without a value: named, not checked
      // (the subject's own constraints are refused so, as before).
      if (nested && isMissingValue(verdict)) {
        unchecked.push(`${name} (${verdict.message.replace(/: give it one in the model or bind it in the question$/, '')})`);
        continue;
      }
      throw failure(verdict, session.model, c.path);
    }
    const value = (c.node as Usage).isNegated ? !verdict.value : verdict.value;
    values.push({ name, value });
    if (!value) {
      const at = verdict.failing ?? { label: label(c), range: c.node.range };
      failing.push(`${name}: ${at.label} is false (${place(session.model.pathOf(at.range) ?? c.path, at.range)})`);
    }
  }
  for (const sat of satisfied) {
    const { name, value, failing: why } = checkSatisfaction(session, sat);
    values.push({ name, value });
    if (!value) failing.push(`${name}: ${why}`);
  }
  const subject = label(session.subject);
  // Only nested constraints, none of them checkable: the subject's values are the answer, with the note.
  if (values.length === 0 && unchecked.length > 0) return { unchecked };
  const count = values.length;
  const note = unchecked.length > 0 ? `; ${uncheckedNote(unchecked)}` : '';
  return {
    claim: 'value',
    strength: random && random.draws > 0 ? 'observed' : 'proved',
    values,
    reason: failing.length > 0
      ? `${subject} violates ${failing.length === 1 ? 'a constraint' : `${failing.length} constraints`}: ${failing.join('; ')}${note}`
      : `${subject}: ${count === 1 ? (satisfied.length === 0 ? 'its constraint holds' : 'its satisfaction assertion holds') : `all ${count} ${satisfied.length === 0 ? 'constraints' : 'constraints and satisfaction assertions'} hold`}${note}`,
    elapsed: run.elapsed(),
  };
}

/**
 * A connection of the subject (own or inherited) that RequirementDerivation's semantic metadata makes a
 * Derivation (`#derivation connection : D { … }`, or typed by a `#derivation connection def`), whose
 * asserted constraints come from the library.
 */
function derivationConnection(session: Session): ModelElement | undefined {
  const index = session.values.index;
  const derives = (e: ModelElement): boolean => e.node.kind !== 'Package' && e.node.prefixMetadata.some((q) => q.segments.at(-1) === 'derivation');
  return index.featuresOf(session.subject).find((f) => f.node.kind === 'Usage' && (derives(f) || index.typesOf(f).some(derives)));
}

const ASSIGNMENTS = new WeakMap<ModelElement, Map<string, { path: string; range: SourceRange }>>();

/** The names a behaviour in the subject's body, or in what it specializes, assigns (`assign k := …`): by
 * each segment of the target, with the first such assignment's place. */
function behaviourAssignments(session: Session, of: ModelElement = session.subject): Map<string, { path: string; range: SourceRange }> {
  // Once per element: a sweep checks its constraints on every row.
  const cached = ASSIGNMENTS.get(of);
  if (cached) return cached;
  const out = new Map<string, { path: string; range: SourceRange }>();
  ASSIGNMENTS.set(of, out);
  const seen = new Set<ModelElement>();
  const visit = (e: ModelElement): void => {
    if (seen.has(e) || e.node.kind === 'Package') return;
    seen.add(e);
    walk(e.node as Node, (n) => {
      if (n.kind !== 'AssignAction') return;
      for (const name of namesIn(n.target as Node)) if (!out.has(name)) out.set(name, { path: e.path, range: n.range });
    });
    for (const t of session.values.index.typesOf(e)) visit(t);
    // Nested usages' types (`perform action bump : Bump;`) and what a usage names (`perform bump;`).
    const index = session.values.index;
    const members = (m: ModelElement): void => {
      for (const x of m.members) {
        for (const t of index.typesOf(x)) visit(t);
        for (const r of 'relations' in x.node ? x.node.relations : []) {
          const target = index.resolveReference(x.parent ?? x, r.target, x);
          if (target && target !== e) visit(target);
        }
        members(x);
      }
    };
    members(e);
  };
  visit(of);
  return out;
}

/**
 * Where a behaviour of the feature's owners (the action, part or definition it is declared in, out to
 * the package) assigns it: its value there is the initial one only, and it changes as the behaviour runs.
 */
function assignedByOwner(session: Session, e: ModelElement): { owner: ModelElement; at: { path: string; range: SourceRange } } | undefined {
  if (!e.name) return undefined;
  for (let p = e.parent; p && p.node.kind !== 'Package'; p = p.parent) {
    const at = behaviourAssignments(session, p).get(e.name);
    if (at) return { owner: p, at };
  }
  return undefined;
}

/** Every name segment written in a node (feature references, chains, member accesses). */
function namesIn(node: Node): Set<string> {
  const out = new Set<string>();
  walk(node, (n) => {
    if (n.kind === 'QualifiedName') for (const s of (n as unknown as QualifiedName).segments) out.add(s);
  });
  return out;
}

/** The verdict of a constraint usage that names its constraint (`assert heavy;`): that constraint's value on the instance holding it. */
function namedVerdict(session: Session, c: ModelElement, ctx: InstanceContext): Verdict | (Outcome & { kind: 'error' }) {
  const b = expectBoolean(session.values.invokeElement(c, [], ctx, c.node.range), label(c), c.node.range);
  return typeof b === 'boolean' ? { value: b } : b;
}

/** `[assert] [not] satisfy R by p;` in a structure (own or inherited), with the element whose body holds it. */
export interface Satisfaction {
  readonly usage: Usage;
  readonly owner: ModelElement;
}

/** The satisfaction assertions of a structure: its own body's and its types' (SysML 7.20.7, 8.3.21). */
export function satisfactions(index: Model['index'], e: ModelElement): Satisfaction[] {
  const out: Satisfaction[] = [];
  const seen = new Set<ModelElement>();
  const visit = (x: ModelElement): void => {
    if (seen.has(x) || x.node.kind === 'Package') return;
    seen.add(x);
    for (const m of x.node.body ?? []) if (m.kind === 'Usage' && m.role === 'satisfy') out.push({ usage: m, owner: x });
    for (const t of index.typesOf(x)) visit(t);
  };
  visit(e);
  return out;
}

function referenceText(r: Reference): string {
  return r.kind === 'QualifiedName' ? r.segments.join('::') : r.chain.map((q) => q.segments.join('::')).join('.');
}

/**
 * A satisfaction assertion as a check (SysML 7.20.7 / 8.3.21: a SatisfyRequirementUsage is an asserted
 * requirement whose subject is bound to the satisfying feature): the requirement evaluated with its
 * subject parameter given the value of `p`, negated for `not satisfy`. A requirement declared in the
 * structure whose body holds the satisfy is read on the instance checked. Refused: no `by`, a requirement
 * declared inside another definition or part (which instance it is read on is not modeled), a requirement
 * without a condition (no check to run).
 */
function checkSatisfaction(session: Session, sat: Satisfaction): { name: string; value: boolean; failing: string } {
  const { usage, owner } = sat;
  const values = session.values;
  const at = place(session.model.pathOf(usage.range) ?? owner.path, usage.range);
  const target = usage.relations.find((r) => r.relation === 'reference' || r.relation === 'typing' || r.relation === 'subsetting')?.target;
  if (!target) throw new UnsupportedError(`${at}: a satisfy without a requirement reference is not modeled`);
  if (!usage.satisfiedBy) throw new UnsupportedError(`${at}: satisfy ${referenceText(target)} without 'by' is not modeled as a check (name the satisfying feature: satisfy ${referenceText(target)} by …)`);
  const by = usage.satisfiedBy;
  const byText = by.kind === 'Name' ? referenceText(by.name) : (values.sourceText(owner.path, by.range) ?? 'its subject');
  const name = `${usage.isNegated ? 'not ' : ''}satisfy ${referenceText(target)} by ${byText}`;
  // The satisfy usage (unnamed, it references the requirement) is never the answer: look past it.
  let requirement = values.index.resolveReference(owner, target, values.index.elementOf(usage));
  if (requirement && requirement.node.kind === 'Usage' && requirement.node.role === 'satisfy' && owner.parent) requirement = values.index.resolveReference(owner.parent, target);
  const kind = requirement ? declarationKind(requirement) : undefined;
  if (!requirement || (kind !== 'requirement' && kind !== 'concern')) {
    throw new UnsupportedError(`${at}: ${name}: ${referenceText(target)} is ${requirement ? `a ${kind}` : 'not found'}, not a requirement`);
  }
  // A requirement declared in the structure whose body holds the satisfy (`part context { requirement
  // spec { … } satisfy spec by car; }`) is that structure's feature: read on the instance being checked,
  // where the satisfy's own names (`by car`) are read too. One the asked structure redefines is not taken.
  const onSubject = requirement.parent === owner && requirement.name !== null && values.feature(session.subject, requirement.name) === requirement;
  if (requirement.parent && requirement.parent.node.kind !== 'Package' && !onSubject) {
    throw new UnsupportedError(`${at}: ${name}: ${requirement.qualifiedName} is declared inside '${requirement.parent.name ?? requirement.parent.qualifiedName}', so it is read on an instance of it; which instance a satisfaction check reads it on is not modeled`);
  }
  const members = values.bodyMembers(requirement);
  if (!statesCondition(members)) throw new UnsupportedError(`${at}: ${name}: ${requirement.name ?? requirement.qualifiedName} states no condition (no require, assume or nested requirement), so there is no check to evaluate`);
  const p = session.evaluator.evaluate(by, values.environment(session.subjectContext, owner));
  if (isError(p)) throw failure(p, session.model, owner.path);
  const subjectParam = members.find((m): m is Usage => m.kind === 'Usage' && m.role === 'subject');
  const subjectName = subjectParam?.name ?? null;
  const args: CallArgument[] = subjectName !== null ? [{ name: subjectName, value: p }] : [];
  const r = values.invokeElementDetailed(requirement, args, onSubject ? values.child(session.subjectContext, requirement) : values.contextOf(requirement), usage.range);
  if (isError(r.value)) throw failure(r.value, session.model, requirement.path);
  if (r.value.kind !== 'boolean') throw new UnsupportedError(`${at}: ${name}: the requirement gave ${r.value.kind}, not a verdict`);
  const value = usage.isNegated ? !r.value.value : r.value.value;
  const why = usage.isNegated ? `${referenceText(target)} holds of ${byText}` : r.failing ? `${r.failing.label} is false (${place(session.model.pathOf(r.failing.range) ?? requirement.path, r.failing.range)})` : `${referenceText(target)} does not hold of ${byText}`;
  return { name, value, failing: why };
}

/** The evaluation session of one run: its model, draws (policy or seed), cancel signal, deadline and,
 * when asked, the `steps` bound as a step limit. */
export function runSession(params: RunParams, run: RunContext, options: { stepLimit?: boolean } = {}): { session: Session; random: CountingRandom | undefined } {
  const random = params.question.draws ? undefined : seededRandom(params.question);
  const session = new Session(new Model(params.model.sources!), params.question, {
    signal: run.signal,
    ...(params.budget.deadline ? { deadline: Date.parse(params.budget.deadline) } : {}),
    ...(random ? { draws: { random } } : {}),
    ...(options.stepLimit && run.limit('steps') ? { maxSteps: run.limit('steps') } : {}),
  });
  return { session, random };
}

/** The generator for modelled draws: from modelSeed, else a `seed:<n>` schedule; none when neither is given. */
export function seededRandom(q: RunParams['question']): CountingRandom | undefined {
  const seed = q.modelSeed ?? (/^seed:(\d+)$/.exec(q.schedule) ? Number(/^seed:(\d+)$/.exec(q.schedule)![1]) : undefined);
  return seed === undefined ? undefined : new CountingRandom(seed);
}
