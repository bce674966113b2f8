// `satisfiable`: can the subject's constraints (or the question's condition sets) all hold at once?
// Each condition set becomes one z3 problem: its features are free variables (type, unit, domain), its
// pinned features constants, its assertions Boolean terms, translated by the Symbolizer.
import { sourceOf } from '../../sysml';
import type { Expression, Reference, SourceRange, Usage } from '../../sysml/ast';
import { coherentUnit, isDimensionless, tryParseUnit, type Dimension } from '../../sysml/semantics/units';
import { format, int, isError, quantity, real, toProtocolValue, type Value } from '../../sysml/semantics/values';
import { decimalRational, formatRational, rational, type Rational } from '../../sysml/semantics/rational';
import { parseExpressionText } from '../../sysml/expression-text';
import type { ConditionSet, CoversParams, Question, CoversResult, FreeInput, Input, RunParams, RunResult, Value as ProtocolValue } from '../../protocol';
import { BudgetError, UnsupportedError, place } from '../../sysml/model/errors';
import { constraintsOf, declarationKind, type ModelElement } from '../../sysml/model/model';
import type { RunContext } from '../run';
import { DEFAULT_SOLVER_TIMEOUT_MS } from '../run';
import type { QuestionHandler } from '../server';
import { Model, Session, typeName } from '../../sysml/model/session';
import { ProblemError, solve, type Assertion, type Outcome, type Problem, type SolverValue, type Term } from '../solver';
import { describeType, enumerationVariable, Symbolizer, type FreeVariable, type Sym } from '../symbolic';
import { unsupportedConstruct } from './coverage';
import { constraintReference } from '../../sysml/semantics/evaluate';
import { satisfactions, statesCondition } from './evaluate';


/** `heavy`, `engine.fast`: a reference as written. */
function referenceNotation(r: Reference): string {
  return r.kind === 'QualifiedName' ? r.segments.join('::') : r.chain.map((q) => q.segments.join('::')).join('.');
}


interface SolvableSet {
  name: string;
  symbolizer: Symbolizer;
  assertions: Assertion[];
  /** `label` is the objective as the question wrote it; `dim` its dimension (the term is in SI units). */
  objective?: { direction: 'minimize' | 'maximize'; term: Term; dim: Dimension; label: string };
  pinned: { name: string; path: string; text: string; type?: string }[];
  /**
   * A requirement subject with assumptions: the assertions again with the requirement as SysML reads it
   * (its assumptions imply its requirements), solved when no values meet both its assumptions and its
   * requirements: it then holds only where an assumption fails (vacuously), as evaluate answers there.
   */
  vacuous?: Assertion[];
}

/** A finite domain or bounds, as a question spells them: `0..10`, `1, 3, 5`, `{1, 3, 5}`, `>= 0`, `true, false`. */
function parseDomain(domain: string, variable: FreeVariable): Pick<FreeVariable, 'lower' | 'upper' | 'values'> & { lowerStrict?: boolean; upperStrict?: boolean } {
  const text = domain.trim();
  const num = (s: string): string => {
    const t = s.trim();
    if (variable.enumeration) {
      const at = variable.enumeration.literals.indexOf(t.split('::').at(-1)!);
      if (at < 0) throw new UnsupportedError(`domain of ${variable.name}: ${t} is not a literal of ${variable.enumeration.definition}`);
      return String(at);
    }
    if (variable.sort === 'Bool') {
      if (t !== 'true' && t !== 'false') throw new UnsupportedError(`domain of ${variable.name}: ${t} is not true or false`);
      return t;
    }
    // The decimal as written, exactly (as a literal in the model is read): through a double,
    // 1.999999999999999999 was the bound 2 and 9007199254740993 was …992.
    const exact = decimalRational(t);
    if (exact === undefined) {
      const unitHint = t.includes('[') && variable.unit ? ` (give numbers in the feature's unit, ${variable.unit.name}, without one)` : '';
      throw new UnsupportedError(`domain of ${variable.name}: ${JSON.stringify(t)} is not a number${unitHint}`);
    }
    if (variable.sort === 'Int' && exact.d !== 1n) throw new UnsupportedError(`domain of ${variable.name}: ${t} is not an Integer`);
    return formatRational(exact); // `p/q` or an integer, as the solver reads numerals
  };
  const range = /^\[?\s*([^.\s][^\s]*?)\s*\.\.\s*([^\]\s]*)\s*\]?$/.exec(text);
  if (range) {
    const out: { lower?: string; upper?: string } = {};
    if (range[1] !== '*') out.lower = num(range[1]!);
    if (range[2] !== '*' && range[2] !== '') out.upper = num(range[2]!);
    return out;
  }
  const cmp = /^(>=|>|<=|<)\s*(.+)$/.exec(text);
  if (cmp) {
    const v = num(cmp[2]!);
    if (cmp[1] === '>=') return { lower: v };
    if (cmp[1] === '>') return { lower: v, lowerStrict: true };
    if (cmp[1] === '<=') return { upper: v };
    return { upper: v, upperStrict: true };
  }
  const list = text.replace(/^[{(]\s*|\s*[})]$/g, '');
  return { values: list.split(',').map(num) };
}

/** A solver's exact numeral (`p/q` or an integer) as a rational. */
function exactRational(text: string): Rational | undefined {
  const m = /^(-?\d+)(?:\/(\d+))?$/.exec(text.trim());
  return m ? rational(BigInt(m[1]!), m[2] !== undefined ? BigInt(m[2]) : 1n) : undefined;
}

function describeOutcomeValue(v: SolverValue, variable: FreeVariable): { protocol: ProtocolValue; notation: string } {
  if (variable.enumeration && v.sort === 'Int') {
    const literal = `${variable.enumeration.definition}::${variable.enumeration.literals[Number(v.value)] ?? '?'}`;
    return { protocol: { name: variable.name, value: literal }, notation: literal };
  }
  let value: Value;
  // A rational solution keeps its exact value: the witness then gives it as the decimal it is when that
  // ends and no double is it (1.9999999999999999995 is no double; through one it was 2, which fails x < 2).
  const exact = v.sort === 'Real' && !v.algebraic ? exactRational(v.exact) : undefined;
  if (v.sort === 'Bool') value = { kind: 'boolean', value: v.value };
  else if (v.sort === 'Int') value = variable.unit ? quantity(Number(v.value), variable.unit) : int(v.value);
  else value = variable.unit ? quantity(v.approx, variable.unit, exact) : real(v.approx, exact);
  const raw: number | boolean | string =
    v.sort === 'Bool' ? v.value : v.sort === 'Int' ? (v.value <= BigInt(Number.MAX_SAFE_INTEGER) && v.value >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v.value) : v.value.toString()) : toProtocolValue(variable.name, value).value;
  const protocol: ProtocolValue = { name: variable.name, value: raw, ...(variable.unit ? { unit: variable.unit.name } : {}) };
  const decimal = typeof raw === 'string' && v.sort === 'Real' ? raw : undefined;
  const notation =
    decimal !== undefined ? (variable.unit ? `${decimal} [${variable.unit.name}]` : /[.eE]/.test(decimal) ? decimal : `${decimal}.0`)
    : v.sort === 'Real' && !variable.unit && !v.algebraic && !v.exact.includes('/') ? `${v.exact}.0` : format(value);
  return { protocol, notation };
}

class SatisfiableQuestion {
  readonly session: Session<Question>;
  /** The condition each parsed condition text is, by the identity of its source (see sourceOf). */
  private readonly conditionPlaces = new Map<object, string>();

  constructor(
    readonly model: Model,
    params: RunParams | CoversParams,
    signal?: AbortSignal,
  ) {
    this.session = new Session(model, params.question, signal ? { signal } : {});
  }

  /** The sets to solve: the question's, or one made of the subject's own constraints. */
  sets(): SolvableSet[] {
    const q = this.session.question;
    if (q.conditions && q.conditions.length > 0) return q.conditions.map((c) => this.fromConditionSet(c));
    return [this.fromSubject()];
  }

  private symbolizer(features: readonly FreeInput[], pinned: ReadonlyMap<string, Value>): Symbolizer {
    const declared: FreeVariable[] = [];
    for (const f of features) {
      const found = this.session.featurePath(f.name);
      // A free input frees a feature of the subject. One naming no feature would be a variable of the
      // question alone, which no host can replay against the model.
      if (!found) throw new UnsupportedError(`the free input ${f.name} is not a feature of ${this.session.question.subject}`);
      const type = f.type ?? typeName(found.feature, this.session.model.index);
      const t = describeType(type, f.unit, tryParseUnit) ?? enumerationVariable(this.model.index, found.feature);
      if (!t) {
        throw new UnsupportedError(
          f.unit && !tryParseUnit(f.unit) ? `feature ${f.name}: unknown unit '${f.unit}'` : `feature ${f.name}: the solver chooses Booleans, Integers, Reals and quantities, not ${type}`,
        );
      }
      const v: FreeVariable = { name: found.path, ...t, type, domain: f.domain, declared: true };
      if (f.domain) Object.assign(v, parseDomain(f.domain, v));
      declared.push(v);
    }
    return new Symbolizer(this.session.values, declared, pinned, (at, fallback) => this.placeOf(at, fallback));
  }

  /** Where a range is: a model document, or a condition's text. */
  private placeOf(at: SourceRange | undefined, fallback: string): string {
    if (!at) return fallback;
    const source = sourceOf(at);
    const condition = source === undefined ? undefined : this.conditionPlaces.get(source);
    if (condition) return `${condition}, column ${at.column}`;
    const path = this.model.pathOf(at, fallback);
    return path ? place(path, at) : `${fallback}:${at.line}:${at.column}`;
  }

  private conditionExpression(text: string, what: string): Expression {
    const expr = parseExpressionText(text, what);
    // Every range of the condition's tree has the text as its source, so messages can say "condition c, column 7".
    const source = sourceOf(expr.range);
    if (source !== undefined) this.conditionPlaces.set(source, what);
    return expr;
  }

  private pinnedValues(set: ConditionSet): { values: Map<string, Value>; list: SolvableSet['pinned'] } {
    const values = new Map<string, Value>();
    const list: SolvableSet['pinned'] = [];
    for (const p of set.pinned ?? []) {
      const found = this.session.featurePath(p.name);
      if (!found) throw new UnsupportedError(`pinned ${p.name} names no feature of ${this.session.question.subject}`);
      const expr = this.conditionExpression(p.text, `pinned ${p.name}`);
      const v = this.session.evaluateExpression(expr);
      if (isError(v)) throw new UnsupportedError(`pinned ${p.name}: ${v.message}`);
      const typed = this.session.values.conforming(found.feature, `'${p.name}'`, v);
      if (isError(typed)) throw new UnsupportedError(`pinned ${p.name}: ${typed.message}`);
      values.set(found.path, typed);
      const type = typeName(found.feature, this.session.model.index);
      list.push({ name: p.name, path: found.path, text: p.text, ...(type ? { type } : {}) });
    }
    return { values, list };
  }

  private fromConditionSet(set: ConditionSet): SolvableSet {
    const { values, list } = this.pinnedValues(set);
    const symbolizer = this.symbolizer(set.features, values);
    const assertions: Assertion[] = [];
    let objective: SolvableSet['objective'];
    const env = symbolizer.environment(this.session.subjectContext, this.session.subject);
    for (const a of set.assertions) {
      const what = `condition ${a.name}`;
      if ((a.name === 'minimize' || a.name === 'maximize') && a.text) {
        const s = symbolizer.expression(this.conditionExpression(a.text, what), env);
        if (s.kind !== 'num') throw new UnsupportedError(`${what}: the objective must be a number`);
        objective = { direction: a.name, term: s.term, dim: s.dim, label: `${a.name}(${a.text})` };
        continue;
      }
      let term: Term;
      if (a.text) {
        term = symbolizer.asBool(symbolizer.expression(this.conditionExpression(a.text, what), env), undefined, what);
      } else {
        term = this.namedConstraint(symbolizer, a.name);
      }
      assertions.push({ name: a.name, term });
    }
    symbolizer.stateDeclaredTypes(this.session.subjectContext);
    return { name: set.name, symbolizer, assertions, ...(objective ? { objective } : {}), pinned: list };
  }

  /** A condition without text names a constraint or requirement of the subject (or of the model). */
  private namedConstraint(symbolizer: Symbolizer, name: string): Term {
    const found = this.session.featurePath(name);
    if (found) {
      const ctx = this.contextOfPath(found.path);
      return this.constraintTerm(symbolizer, found.feature, ctx);
    }
    const element = this.model.index.find(name);
    if (!element) throw new UnsupportedError(`condition ${name}: no text, and no constraint or requirement of that name`);
    return this.constraintTerm(symbolizer, element, { element, path: '', parent: this.session.values.root });
  }

  private contextOfPath(path: string) {
    let ctx = this.session.values.root;
    let element = this.session.root;
    for (const seg of path.split('.')) {
      const f = this.session.values.feature(element, seg)!;
      ctx = this.session.values.child(ctx, f);
      element = f;
    }
    return ctx;
  }

  /** A constraint, requirement, or constraint usage as one Boolean term. */
  private constraintTerm(symbolizer: Symbolizer, e: ModelElement, ctx: ReturnType<SatisfiableQuestion['contextOfPath']>, nested = false): Term {
    const kind = declarationKind(e);
    const range = e.node.nameRange ?? e.node.range;
    if (kind === 'requirement' || kind === 'concern') {
      const { assumed, required } = this.requirementTerms(symbolizer, e, ctx);
      // A requirement holds where its assumptions do not (SysML: assumptions imply requirements). The
      // subject's own are first solved as conditions the solution meets (a witness that meets them;
      // see runSatisfiable and docs/host.md).
      if (nested && assumed.length > 0) return { op: 'implies', left: { op: 'and', args: assumed }, right: { op: 'and', args: required } };
      return { op: 'and', args: [...assumed, ...required] };
    }
    if (kind !== 'constraint') throw new UnsupportedError(`${place(e.path, range)}: ${e.qualifiedName} is a ${kind}, not a constraint or requirement`);
    const s: Sym = symbolizer.invokeElement(e, [], ctx, range);
    const term = symbolizer.asBool(s, range, e.path);
    return e.node.kind === 'Usage' && e.node.isNegated ? { op: 'not', arg: term } : term;
  }

  /** A requirement's assumptions and what it requires, each as one Boolean term. */
  private requirementTerms(symbolizer: Symbolizer, e: ModelElement, ctx: ReturnType<SatisfiableQuestion['contextOfPath']>): { assumed: Term[]; required: Term[] } {
    const features = this.session.values.index.featuresOf(e);
    const has = (f: ModelElement, test: (u: Usage) => boolean) => f.node.kind === 'Usage' && test(f.node);
    const term = (c: ModelElement, inner = false) => this.constraintTerm(symbolizer, c, this.session.values.child(ctx, c), inner);
    const assumed = features.filter((f) => has(f, (u) => u.role === 'assume')).map((c) => term(c));
    // What evaluate requires of a requirement: its `require` and `assert constraint` members, and its
    // nested requirements (Requirements library: subrequirements :> constraints), each read as evaluate
    // reads it (its assumptions false make it hold).
    const required = [
      ...features.filter((f) => has(f, (u) => u.role === 'require' || (u.role === 'assert' && u.keyword === 'constraint'))).map((c) => term(c)),
      ...features.filter((f) => has(f, (u) => u.keyword === 'requirement' && u.role === null && !u.isRef)).map((c) => term(c, true)),
    ];
    return { assumed, required };
  }

  /**
   * No condition sets: the subject's own constraints (asserted ones for a part; the body of a
   * constraint or requirement), over the question's `inputs`, and the question's `condition` when it
   * has one (an assertion, or the objective when named minimize/maximize).
   */
  private fromSubject(): SolvableSet {
    const subject = this.session.subject;
    const question = this.session.question;
    const symbolizer = this.symbolizer(question.inputs ?? [], new Map());
    const kind = declarationKind(subject);
    const ctx = this.session.subjectContext;
    if (kind !== 'constraint' && kind !== 'requirement' && kind !== 'concern') {
      // Soundness: a structure's other assertions (satisfy, verify …) must be modeled to solve for it.
      const refused = this.session.values.bodyRefusal(subject, 'checks');
      if (refused) throw new UnsupportedError(`${place(this.session.model.pathOf(refused.range!) ?? subject.path, refused.range)}: ${refused.message}`);
      // evaluate checks satisfaction assertions; the solver does not encode them.
      const sat = satisfactions(this.session.values.index, subject)[0];
      if (sat) throw new UnsupportedError(`${place(this.session.model.pathOf(sat.usage.range) ?? sat.owner.path, sat.usage.range)}: a satisfy assertion is not supported by satisfiable (evaluate checks it)`);
    }
    const assertions: Assertion[] = [];
    let objective: SolvableSet['objective'];
    const condition = question.condition;
    if (condition) {
      const what = `condition ${condition.name}`;
      if (condition.text) {
        const s = symbolizer.expression(this.conditionExpression(condition.text, what), symbolizer.environment(ctx, subject));
        if (condition.name === 'minimize' || condition.name === 'maximize') {
          if (s.kind !== 'num') throw new UnsupportedError(`${what}: the objective must be a number`);
          objective = { direction: condition.name, term: s.term, dim: s.dim, label: `${condition.name}(${condition.text})` };
        } else assertions.push({ name: condition.name, term: symbolizer.asBool(s, undefined, what) });
      } else assertions.push({ name: condition.name, term: this.namedConstraint(symbolizer, condition.name) });
    }
    let vacuous: Assertion[] | undefined;
    if (kind === 'constraint' || kind === 'requirement' || kind === 'concern') {
      const name = subject.name ?? subject.qualifiedName;
      if (kind === 'constraint') assertions.push({ name, term: this.constraintTerm(symbolizer, subject, ctx) });
      else {
        // Stated in prose only: what would be solved is the question's condition alone, not the requirement.
        if (!statesCondition(this.session.values.bodyMembers(subject))) {
          throw new UnsupportedError(`${place(this.session.model.pathOf(subject.node.range) ?? subject.path, subject.node.range)}: '${name}' states no condition (no require, assume or nested requirement), so there is nothing of it to satisfy: its text is not read`);
        }
        // Stated once: met with its assumptions as conditions, and, for the second search, as implied.
        const { assumed, required } = this.requirementTerms(symbolizer, subject, ctx);
        if (assumed.length > 0) vacuous = [...assertions, { name, term: { op: 'implies', left: { op: 'and', args: assumed }, right: { op: 'and', args: required } } }];
        assertions.push({ name, term: { op: 'and', args: [...assumed, ...required] } });
      }
    } else {
      for (const c of constraintsOf(this.session.values.index, subject)) {
        const range = c.node.nameRange ?? c.node.range;
        const named = c.node.kind === 'Usage' ? constraintReference(c.node) : undefined;
        const name = c.name ?? (named ? `${c.node.kind === 'Usage' && c.node.isNegated ? 'not ' : ''}${referenceNotation(named)} at ${place(c.path, range)}` : `constraint at ${place(c.path, range)}`);
        assertions.push({ name, term: this.constraintTerm(symbolizer, c, this.session.values.child(ctx, c)) });
      }
      if (assertions.length === 0) throw new UnsupportedError(`${question.subject} has no constraints to satisfy; give a condition or condition sets`);
    }
    symbolizer.stateDeclaredTypes(ctx);
    return { name: subject.name ?? 'subject', symbolizer, assertions, ...(objective ? { objective } : {}), pinned: [], ...(vacuous ? { vacuous } : {}) };
  }
}

function problemOf(set: SolvableSet, timeoutMs: number): Problem {
  const variables = [...set.symbolizer.variables.values()].map((v) => ({
    name: v.name,
    sort: v.sort,
    ...(v.lower !== undefined ? { lower: v.lower } : {}),
    ...(v.upper !== undefined ? { upper: v.upper } : {}),
    ...((v as { lowerStrict?: boolean }).lowerStrict ? { lowerStrict: true } : {}),
    ...((v as { upperStrict?: boolean }).upperStrict ? { upperStrict: true } : {}),
    ...(v.values ? { domain: v.values } : {}),
  }));
  const objective = set.objective ? { direction: set.objective.direction, term: set.objective.term } : undefined;
  return { variables, assertions: [...set.assertions, ...set.symbolizer.typeAssertions], ...(objective ? { objective } : {}), timeoutMs };
}

/** A feature path as the question would name it: relative to the subject when it is inside the subject. */
function relativeTo(subjectPath: string, path: string): string {
  return subjectPath !== '' && path.startsWith(`${subjectPath}.`) ? path.slice(subjectPath.length + 1) : path;
}

function inputsOf(
  set: SolvableSet,
  model: Map<string, SolverValue> | undefined,
  prefix: string,
  subjectPath: string,
  bindings: readonly ProtocolValue[],
): { inputs: Input[]; witness: ProtocolValue[] } {
  const inputs: Input[] = [];
  const witness: ProtocolValue[] = [];
  for (const v of set.symbolizer.variables.values()) {
    const sv = model?.get(v.name);
    const described = sv ? describeOutcomeValue(sv, v) : undefined;
    const name = `${prefix}${relativeTo(subjectPath, v.name)}`;
    inputs.push({
      name,
      ...(v.type ? { type: v.type } : {}),
      sort: v.sort === 'Bool' ? 'Boolean' : v.sort === 'Int' ? 'Integer' : 'Real',
      ...(v.domain ? { domain: v.domain } : {}),
      free: true,
      ...(described ? { value: described.notation } : {}),
    });
    if (described) witness.push({ ...described.protocol, name });
  }
  for (const p of set.pinned) inputs.push({ name: `${prefix}${relativeTo(subjectPath, p.path)}`, ...(p.type ? { type: p.type } : {}), free: false, value: p.text });
  // The question's own bindings hold the features they name for every set: inputs too, not free.
  for (const b of bindings) inputs.push({ name: `${prefix}${b.name}`, free: false, value: b.unit ? `${b.value} [${b.unit}]` : typeof b.value === 'string' ? b.value : String(b.value) });
  return { inputs, witness };
}

async function runSatisfiable(params: RunParams, run: RunContext): Promise<RunResult> {
  const model = new Model(params.model.sources!);
  const question = new SatisfiableQuestion(model, params, run.signal);
  const sets = question.sets();
  const prefixed = sets.length > 1;
  const subjectPath = question.session.subjectContext.path;
  const inputs: Input[] = [];
  const witness: ProtocolValue[] = [];
  let unbounded: string | undefined;
  const optima: ProtocolValue[] = [];
  const notes: string[] = [];
  for (const [i, set] of sets.entries()) {
    // Leave the solver time to answer `unknown (timeout)` before the deadline stops the run: a quarter of
    // what is left (0.2 s to 2 s), counted from when z3 starts (loading z3 can take seconds on a loaded machine).
    const remaining = run.remainingMs();
    const timeoutMs = Math.min(DEFAULT_SOLVER_TIMEOUT_MS, remaining === undefined ? DEFAULT_SOLVER_TIMEOUT_MS : remaining - 200);
    const endBy = remaining === undefined ? undefined : Date.now() + remaining - Math.max(200, Math.min(2000, remaining / 4));
    run.progress({ steps: i, text: `solving ${set.name}` });
    // A long solve says it is still at work (z3 reports nothing while it searches).
    const started = Date.now();
    const heartbeat = setInterval(() => run.progress({ steps: i, text: `solving ${set.name}: ${Math.round((Date.now() - started) / 1000)} s` }), 1000);
    let outcome: Outcome;
    const solveSet = async (s: SolvableSet): Promise<Outcome> => {
      try {
        return await solve({ ...problemOf(s, Math.max(1, timeoutMs)), ...(endBy === undefined ? {} : { endBy }) }, run.signal);
      } catch (e) {
        if (e instanceof ProblemError) throw new UnsupportedError(`condition set ${set.name}: ${e.message}`);
        throw e;
      }
    };
    const conflictOf = (o: Outcome & { status: 'unsat' }): string =>
      o.core.length === 0
        ? 'the features\' types and domains admit no value'
        : o.core.length === 1
          ? `${o.core[0]} cannot hold`
          : `${o.core.join(', ')} cannot hold together`;
    try {
      outcome = await solveSet(set);
      if (outcome.status === 'unsat' && set.vacuous) {
        // No values meet the requirement's assumptions and its requirements: it may still hold where
        // an assumption fails, as evaluate answers there (assumptions imply requirements).
        const withAssumptions = conflictOf(outcome);
        const vacuous = await solveSet({ ...set, assertions: set.vacuous });
        if (vacuous.status === 'sat') {
          notes.push(`${set.name} holds only vacuously: with its assumptions as conditions, ${withAssumptions}; at the witness an assumption is false, so the requirement holds (SysML: its assumptions imply its requirements)`);
        }
        outcome = vacuous;
      }
    } finally {
      clearInterval(heartbeat);
    }
    const prefix = prefixed ? `${set.name}:` : '';
    if (outcome.status === 'cancelled') throw new BudgetError(run.stopReason === 'deadline' ? 'deadline reached while solving' : 'cancelled by the host while solving');
    if (outcome.status === 'unsat') {
      const conflict = conflictOf(outcome);
      return {
        claim: 'unsatisfiable',
        strength: 'proved',
        reason: `${set.name}: ${conflict}`,
        inputs: inputsOf(set, undefined, prefix, subjectPath, params.question.bindings ?? []).inputs,
        elapsed: run.elapsed(),
      };
    }
    if (outcome.status === 'unknown') {
      return {
        claim: 'none',
        strength: 'not covered',
        reason: `z3 could not decide ${set.name}: ${outcome.reason}${outcome.nonlinear ? ' (the constraints are non-linear)' : ''}`,
        inputs: inputsOf(set, undefined, prefix, subjectPath, params.question.bindings ?? []).inputs,
        elapsed: run.elapsed(),
      };
    }
    const parts = inputsOf(set, outcome.model, prefix, subjectPath, params.question.bindings ?? []);
    inputs.push(...parts.inputs);
    witness.push(...parts.witness);
    if (outcome.status === 'sat' && outcome.optimum && set.objective && outcome.optimum.sort !== 'Bool') {
      // The optimum, in the coherent SI unit of the objective's dimension: `maximize(payload)` = 3.9 [kg].
      const value = outcome.optimum.sort === 'Int' ? Number(outcome.optimum.value) : outcome.optimum.approx;
      const unit = isDimensionless(set.objective.dim) ? undefined : coherentUnit(set.objective.dim).name;
      optima.push({ name: `${prefix}${set.objective.label}`, value, ...(unit ? { unit } : {}) });
    }
    if (outcome.status === 'unbounded') unbounded = `${set.name}: ${outcome.reason}`;
  }
  return {
    claim: unbounded ? 'unbounded' : 'satisfiable',
    strength: 'proved',
    witness: { inputs: witness },
    inputs,
    ...(optima.length > 0 ? { values: optima } : {}),
    ...(unbounded ? { reason: unbounded } : {}),
    ...(notes.length > 0 ? { assumptions: notes } : {}),
    elapsed: run.elapsed(),
  };
}

export const satisfiableQuestion: QuestionHandler = {
  covers(params: CoversParams): CoversResult {
    const model = new Model(params.model.sources!);
    const subject = model.subject(params.question.subject);
    const construct = unsupportedConstruct(model, subject);
    if (construct) return { covers: false, reason: construct };
    // Stating the problem finds what the solver cannot take (strings in arithmetic, unsupported functions).
    new SatisfiableQuestion(model, params).sets();
    return { covers: true };
  },
  run: runSatisfiable,
};

