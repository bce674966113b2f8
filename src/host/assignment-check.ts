// The host's re-check of a `satisfiable` assignment witness: the model is read with the same code the
// engine uses (src/sysml/model), the witness's values are bound to the features they name, and every
// assertion the question asks to hold at once is evaluated: the subject's constraints (or a constraint
// or requirement subject itself), the question's `condition`, each condition set's assertions with its
// pinned values. Only feasibility is checked; an objective's optimality is not.
//
// Reals a solver reports are rounded (an algebraic √2 arrives as a double, and `x * x == 2` is false
// for it in doubles). An equality or non-strict comparison that is false exactly but within a relative
// 1e-9 (or an absolute 1e-12) of its boundary is no evidence against the witness, and none for it either
// (a point a hair across a boundary is all a forged witness of `x >= 3 and x < 3` needs): the check
// then ends `unchecked` and the answer stands at most observed. A strict comparison must hold exactly.
// Only an exact pass lets `proved` stand.
import type { Expression, SourceRange } from '../sysml/ast';
import { EXPRESSION_WRAPPER, parseExpressionText } from '../sysml/expression-text';
import { UnsupportedError, place } from '../sysml/model/errors';
import { constraintsOf, declarationKind, type ModelElement } from '../sysml/model/model';
import type { InstanceContext } from '../sysml/model/environment';
import { drawsOf, Model, Session, typeName } from '../sysml/model/session';
import type { Environment } from '../sysml/semantics/evaluate';
import { convertQuantity, truth } from '../sysml/semantics/operators';
import { quantityKindUnit, tryParseUnit } from '../sysml/semantics/units';
import { equals, format, isError, magnitude, type Outcome, type Scalar, type Value } from '../sysml/semantics/values';
import type { ConditionSet, FreeInput, Question, RunResult, SourceDocument, Value as ProtocolValue } from '../protocol';

/** What the host's check of a witness found (see WitnessChecker in standing.ts). */
export type WitnessVerdict =
  | { readonly ok: true }
  /** The witness does not show the claim: the answer stands at `not covered`. */
  | { readonly ok: false; readonly reason: string }
  /** The host could not check it (its own semantics refused): the answer stands at most `observed`. */
  | { readonly ok: 'unchecked'; readonly reason: string };

export const RELATIVE_TOLERANCE = 1e-9;
export const ABSOLUTE_TOLERANCE = 1e-12;

/** Comparisons that held only within rounding in the check under way (the check is synchronous). */
let rounding: string[] = [];

/** A witness that is wrong about the model (not the host's failure to check it). */
class Refuted extends Error {}

interface AssertionSet {
  /** Prefix of the set's witness names (`heavy:` when the question has several sets), else ''. */
  prefix: string;
  name: string;
  features: readonly FreeInput[];
  assertions: readonly { name: string; text?: string | undefined }[];
  pinned: readonly { name: string; text: string }[];
  /** Whether the subject's own constraints are part of the set (no condition sets). */
  subjectConstraints: boolean;
}

export function checkAssignment(question: Question, result: RunResult, documents: readonly SourceDocument[]): WitnessVerdict {
  const inputs = result.witness?.inputs ?? [];
  let model: Model;
  try {
    model = new Model({ documents });
    if (!model.index.findChain(question.subject)) return { ok: false, reason: `the subject ${question.subject} is not declared in the model` };
    model.subjectChain(question.subject); // refuses a subject in a document with syntax errors
  } catch (e) {
    return { ok: 'unchecked', reason: messageOf(e) };
  }
  const sets: AssertionSet[] = question.conditions && question.conditions.length > 0
    ? question.conditions.map((c: ConditionSet) => ({
        prefix: question.conditions!.length > 1 ? `${c.name}:` : '', name: c.name, features: c.features, assertions: c.assertions, pinned: c.pinned ?? [], subjectConstraints: false,
      }))
    : [{ prefix: '', name: question.subject, features: question.inputs ?? [], assertions: question.condition ? [question.condition] : [], pinned: [], subjectConstraints: true }];
  rounding = [];
  const stray = inputs.find((v) => !sets.some((set) => v.name.startsWith(set.prefix)));
  if (stray) return { ok: false, reason: `the witness value ${stray.name} belongs to no condition set of the question` };
  try {
    for (const set of sets) {
      const own = inputs.filter((v) => v.name.startsWith(set.prefix)).map((v) => ({ ...v, name: v.name.slice(set.prefix.length) }));
      const missing = set.features.find((f) => !own.some((v) => v.name === f.name));
      if (missing) return { ok: false, reason: `the witness gives no value for ${set.prefix}${missing.name}, a free feature of the question` };
      checkSet(model, question, set, own);
    }
    if (rounding.length > 0) {
      return { ok: 'unchecked', reason: `the assignment meets its assertions only within the rounding of Reals, which the host's evaluation in doubles cannot settle: ${rounding.join('; ')}` };
    }
    return { ok: true };
  } catch (e) {
    if (e instanceof Refuted) return { ok: false, reason: e.message };
    return { ok: 'unchecked', reason: messageOf(e) };
  }
}

/**
 * A behaviour witness's feature names (a `sensitive` witness's `feature`, the inputs of the witness and
 * of each execution) that the subject does not have, for when the host cannot replay the witness: such
 * a witness is wrong about the model whatever the semantics. Undefined when all resolve (or the question
 * itself names what the model lacks).
 */
export function unknownWitnessFeature(question: Question, result: RunResult, documents: readonly SourceDocument[]): string | undefined {
  let session: Session;
  try {
    session = new Session(new Model({ documents }), question);
  } catch {
    return undefined;
  }
  // A sensitive witness may name the end (`end`) or a machine's configuration (`state`, `<machine>.state`)
  // the two schedules end differently in, rather than a feature (docs/execution-semantics.md).
  const feature = result.witness?.feature;
  const outcomeItem = feature !== undefined && (feature === 'end' || feature === 'state' || feature.endsWith('.state'));
  const names = [
    ...(feature !== undefined && !outcomeItem ? [feature] : []),
    ...(result.witness?.inputs ?? []).map((v) => v.name),
    ...(result.executions ?? []).flatMap((e) => (e.inputs ?? []).map((v) => v.name)),
  ];
  const unknown = names.find((n) => !session.featurePath(n));
  return unknown === undefined ? undefined : `the witness names ${unknown}, which is not a feature of ${question.subject}`;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function checkSet(model: Model, question: Question, set: AssertionSet, witness: readonly ProtocolValue[]): void {
  const base = new Session(model, question);
  const where = set.prefix === '' ? '' : ` (condition set ${set.name})`;
  const bound = new Map<string, Value>();
  const derived: { name: string; path: string; value: Value }[] = [];
  // Pinned values first: a witness that changes one of them is wrong.
  const pinned = new Map<string, Value>();
  for (const p of set.pinned) {
    const found = base.featurePath(p.name);
    if (!found) throw new Refuted(`the pinned feature ${p.name}${where} is not a feature of ${question.subject}`);
    const v = base.evaluateExpression(parseExpressionText(p.text, `pinned ${p.name}`));
    if (isError(v)) throw new UnsupportedError(`pinned ${p.name}: ${v.message}`);
    pinned.set(found.path, v);
    bound.set(found.path, v);
  }
  for (const w of witness) {
    const found = base.featurePath(w.name);
    if (!found) throw new Refuted(`the witness names ${w.name}${where}, which is not a feature of ${question.subject}`);
    let value: Value;
    try {
      value = base.bindingValue(w, found.feature, w.name);
    } catch (e) {
      throw new Refuted(`the witness value of ${w.name}${where} is not a value of the feature: ${messageOf(e).replace(/^binding [^:]*: /, '')}`);
    }
    const input = set.features.find((f) => f.name === w.name);
    const type = input?.type ?? typeName(found.feature);
    if (type && /(^|::)(Integer|Natural|Positive)$/.test(type) && !(value.kind === 'integer' || (value.kind === 'real' && Number.isInteger(value.value)))) {
      throw new Refuted(`the witness value of ${w.name}${where} is ${format(value)}, not an ${type.split('::').at(-1)}`);
    }
    const fixed = pinned.get(found.path) ?? base.values.bindings.get(found.path);
    if (fixed !== undefined && !equals(fixed, value)) {
      throw new Refuted(`the witness gives ${w.name}${where} = ${format(value)}, but the question fixes it at ${format(fixed)}`);
    }
    if (input?.domain) {
      const outside = outsideDomain(value, input, type);
      if (outside) throw new Refuted(`the witness value of ${w.name}${where} is ${format(value)}, outside its domain ${input.domain}${outside === true ? '' : ` (${outside})`}`);
    }
    const node = found.feature.node;
    // A feature the model gives a value (`totalMass = frameMass + …`) is not the witness's to choose,
    // unless the question lists it as free: its value is computed below and must agree.
    if (node.kind === 'Usage' && node.value && !node.value.isDefault && !node.value.isInitial && !input && !base.values.bindings.has(found.path)) {
      derived.push({ name: w.name, path: found.path, value });
      continue;
    }
    bound.set(found.path, value);
  }
  const session = base.forRow(bound, drawsOf(question));
  for (const d of derived) {
    const ctx = contextOfPath(session, d.path, d.name);
    const computed = session.values.featureValue(ctx.parent!, ctx.element);
    if (isError(computed)) throw evaluationFailure(session, computed, ctx.element);
    if (!equals(computed, d.value) && !near(computed, d.value)) {
      throw new Refuted(`the witness gives ${d.name}${where} = ${format(d.value)}, but with the witness's other values the model computes ${format(computed)}`);
    }
  }
  const subject = session.subject;
  const ctx = session.subjectContext;
  const failures: string[] = [];
  // `liftMargin: motors * thrust >= … is false (design.sysml:14:34)`, or `liftMargin is false (…)` when unnamed.
  const note = (name: string, at: string | undefined, failing: string | undefined) =>
    failures.push(failing ? `${name}: ${failing}` : `${name} is false${at ? ` (${at})` : ''}`);

  for (const a of set.assertions) {
    if ((a.name === 'minimize' || a.name === 'maximize') && a.text) continue; // an objective, not an assertion
    if (a.text) {
      const expr = parseExpressionText(a.text, `condition ${a.name}`);
      const r = holds(session, expr, session.values.environment(ctx, subject), true, (range) => conditionText(a.text!, range));
      if (!r.ok) note(`condition ${a.name}`, undefined, r.failing ? `${conditionText(a.text, r.failing)} is false` : undefined);
    } else {
      const failing = namedConstraint(session, model, a.name);
      if (failing !== undefined) note(`condition ${a.name}`, undefined, failing || undefined);
    }
  }
  if (set.subjectConstraints) {
    const kind = declarationKind(subject);
    if (kind === 'constraint' || kind === 'requirement' || kind === 'concern') {
      const failing = constraintFails(session, subject, ctx);
      if (failing !== undefined) note(subject.name ?? subject.qualifiedName, placeOf(subject), failing || undefined);
    } else {
      for (const c of constraintsOf(session.values.index, subject)) {
        const failing = constraintFails(session, c, session.values.child(ctx, c));
        if (failing !== undefined) note(c.name ?? `the constraint at ${placeOf(c)}`, placeOf(c), failing || undefined);
      }
    }
  }
  if (failures.length > 0) throw new Refuted(`with the witness's values${where}, ${failures.join('; ')}`);
}

function placeOf(e: ModelElement): string {
  return place(e.path, e.node.nameRange ?? e.node.range);
}


function conditionText(text: string, range: SourceRange): string {
  const start = range.start - EXPRESSION_WRAPPER.length;
  const end = range.end - EXPRESSION_WRAPPER.length;
  return start >= 0 && end <= text.length ? text.slice(start, end) : text;
}

/** A condition without text names a constraint or requirement of the subject, or of the model. */
function namedConstraint(session: Session, model: Model, name: string): string | undefined {
  const found = session.featurePath(name);
  if (found) return constraintFails(session, found.feature, contextOfPath(session, found.path, name));
  const element = model.index.find(name);
  if (!element) throw new Refuted(`the question's condition ${name} has no text and names no constraint or requirement of the model`);
  return constraintFails(session, element, { element, path: '', parent: session.values.root });
}

/** The instance context of a feature path from the session's root. */
function contextOfPath(session: Session, path: string, name: string): InstanceContext {
  let ctx = session.values.root;
  let element = session.root;
  for (const seg of path.split('.')) {
    const f = session.values.feature(element, seg);
    if (!f) throw new UnsupportedError(`${name}: ${path} cannot be followed from ${session.root.qualifiedName}`);
    ctx = session.values.child(ctx, f);
    element = f;
  }
  return ctx;
}

/**
 * Whether a constraint (or a requirement: each `require` where every `assume` holds; where one fails the
 * requirement holds, SysML's assumptions imply its requirements) holds on an instance: undefined when it
 * holds, else what failed ('' when unnamed).
 */
function constraintFails(session: Session, e: ModelElement, ctx: InstanceContext): string | undefined {
  const kind = declarationKind(e);
  if (kind === 'requirement' || kind === 'concern') {
    const features = session.values.index.featuresOf(e).filter((f) => f.node.kind === 'Usage');
    for (const a of features.filter((f) => f.node.kind === 'Usage' && f.node.role === 'assume')) {
      if (constraintFails(session, a, session.values.child(ctx, a)) !== undefined) return undefined;
    }
    const checks = features.filter((f) => f.node.kind === 'Usage' && f.node.role === 'require');
    for (const c of checks) {
      const failing = constraintFails(session, c, session.values.child(ctx, c));
      if (failing !== undefined) return failing || `${c.name ?? (c.node.kind === 'Usage' ? c.node.role : 'constraint')} is false (${place(c.path, c.node.range)})`;
    }
    return undefined;
  }
  if (kind !== 'constraint') throw new UnsupportedError(`${place(e.path, e.node.nameRange ?? e.node.range)}: ${e.qualifiedName} is a ${kind}, not a constraint or requirement`);
  const members = session.values.bodyMembers(e);
  const result = [...members].reverse().find((m) => m.kind === 'ResultExpression');
  const negated = e.node.kind === 'Usage' && e.node.isNegated;
  if (!result || result.kind !== 'ResultExpression') {
    // No expression of its own or inherited (a reference to another constraint): the evaluator's verdict.
    const v = session.values.invokeElement(e, [], ctx, e.node.range);
    const b = isError(v) ? v : truth(v, e.name ?? 'constraint', e.node.range);
    if (typeof b !== 'boolean') throw evaluationFailure(session, b, e);
    return b !== negated ? undefined : '';
  }
  const env = session.values.environment(ctx, e);
  const r = holds(session, result.expression, env, !negated, (range) => env.sourceText(range));
  if (r.ok) return undefined;
  return r.failing ? `${env.sourceText(r.failing) ?? 'an expression'} is false (${place(session.model.pathOf(r.failing) ?? e.path, r.failing)})` : '';
}

function evaluationFailure(session: Session, v: Outcome & { kind: 'error' }, e: ModelElement): Error {
  const path = v.range ? (session.model.pathOf(v.range) ?? e.path) : e.path;
  return new UnsupportedError(`${v.range ? `${place(path, v.range)}: ` : ''}${v.message}`);
}

type Holds = { ok: true } | { ok: false; failing?: SourceRange };

/**
 * Whether `expr` can be taken to have the Boolean value `want`: exactly, or with a comparison that
 * misses its boundary by no more than the tolerance. `and`/`or`/`not`/`implies` are followed so the
 * tolerance applies to each comparison, and the failing part is named.
 */
function holds(session: Session, expr: Expression, env: Environment, want: boolean, textOf: (range: SourceRange) => string | undefined): Holds {
  if (expr.kind === 'Binary') {
    const op = expr.operator;
    const both = (wl: boolean, wr: boolean, all: boolean): Holds => {
      const l = holds(session, expr.left, env, wl, textOf);
      if (all && !l.ok) return l;
      if (!all && l.ok) return l;
      const r = holds(session, expr.right, env, wr, textOf);
      if (r.ok || all) return r;
      return { ok: false, failing: expr.range };
    };
    if (op === 'and' || op === '&') return want ? both(true, true, true) : both(false, false, false);
    if (op === 'or' || op === '|') return want ? both(true, true, false) : both(false, false, true);
    if (op === 'implies') return want ? both(false, true, false) : both(true, false, true);
    if (op === '==' || op === '!=' || op === '<' || op === '<=' || op === '>' || op === '>=') {
      const exact = booleanOf(session, expr, env);
      if (exact === want) return { ok: true };
      // Tolerance only widens what is closed at its boundary (`==`, `<=`, `>=`, and their negations
      // `!=`, `>`, `<` wanted false): a strict comparison must hold exactly, so `x < 3 and x >= 3`
      // cannot stand on x = 3.
      const closed = want ? op === '==' || op === '<=' || op === '>=' : op === '!=' || op === '<' || op === '>';
      if (!closed) return { ok: false, failing: expr.range };
      const left = session.evaluator.evaluate(expr.left, env);
      const right = session.evaluator.evaluate(expr.right, env);
      if (!isError(left) && !isError(right) && near(left, right)) {
        // Within rounding: no evidence against the witness, and none for it either (a point just
        // across a boundary may be all a forged witness needs): the answer stands at most observed.
        rounding.push(`${textOf(expr.range) ?? 'a comparison'} is ${want ? 'false' : 'true'} exactly (${format(left)} against ${format(right)}), but within rounding`);
        return { ok: true };
      }
      return { ok: false, failing: expr.range };
    }
  }
  if (expr.kind === 'Unary' && expr.operator === 'not') return holds(session, expr.operand, env, !want, textOf);
  return booleanOf(session, expr, env) === want ? { ok: true } : { ok: false, failing: expr.range };
}

function booleanOf(session: Session, expr: Expression, env: Environment): boolean {
  const v = session.evaluator.evaluate(expr, env);
  const b = isError(v) ? v : truth(v, 'an assertion', expr.range);
  if (typeof b !== 'boolean') {
    const path = b.range ? session.model.pathOf(b.range) : undefined;
    throw new UnsupportedError(`${b.range && path ? `${place(path, b.range)}: ` : ''}${b.message}`);
  }
  return b;
}

function near(a: Value, b: Value): boolean {
  if (a.kind === 'sequence' || b.kind === 'sequence') return false;
  const pair = numbers(a, b);
  if (!pair) return false;
  const [x, y] = pair;
  const d = Math.abs(x - y);
  return d <= ABSOLUTE_TOLERANCE || d <= RELATIVE_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
}

function numbers(a: Scalar, b: Scalar): [number, number] | undefined {
  if (a.kind === 'quantity' && b.kind === 'quantity') {
    const c = convertQuantity(b, a.unit);
    if (isError(c) || c.kind !== 'quantity') return undefined;
    return [a.value, c.value];
  }
  if (a.kind === 'quantity' || b.kind === 'quantity') return undefined;
  const x = magnitude(a);
  const y = magnitude(b);
  return x === undefined || y === undefined ? undefined : [x, y];
}

/**
 * Whether a value lies outside a free input's domain, as a question spells it: `0..10`, `1, 3, 5`,
 * `{1, 3, 5}`, `>= 0`, `true, false`, enumeration literals. Numbers are in the input's unit when it
 * gives one, else in the coherent unit of the feature's quantity kind. `true` when outside, a string when the domain cannot be read (also outside: the engine
 * read it), false when inside.
 */
function outsideDomain(value: Value, input: FreeInput, type: string | undefined): boolean | string {
  const text = input.domain!.trim();
  if (value.kind === 'enum' || value.kind === 'boolean' || value.kind === 'string') {
    const shown = value.kind === 'enum' ? value.literal : String(value.value);
    const list = text.replace(/^[{(]\s*|\s*[})]$/g, '').split(',').map((s) => s.trim().split('::').at(-1)!);
    return !list.includes(shown);
  }
  let n: number | undefined;
  // A quantity's domain is in the input's unit, else in the coherent unit of its quantity kind (as the engine reads it).
  const domainUnit = input.unit ? tryParseUnit(input.unit) : type ? quantityKindUnit(type) : undefined;
  if (value.kind === 'quantity' && domainUnit) {
    const unit = domainUnit;
    const c = unit ? convertQuantity(value, unit) : undefined;
    n = c && !isError(c) && c.kind === 'quantity' ? c.value : undefined;
  } else if (value.kind !== 'sequence') n = magnitude(value);
  if (n === undefined) return `its value cannot be compared with the domain`;
  const num = (s: string): number => {
    const x = Number(s.trim());
    if (s.trim() === '' || !Number.isFinite(x)) throw new UnsupportedError(`domain of ${input.name}: ${JSON.stringify(s.trim())} is not a number`);
    return x;
  };
  const close = (a: number, b: number) => Math.abs(a - b) <= ABSOLUTE_TOLERANCE || Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
  // Past a closed bound by no more than rounding: not outside, but not settled either.
  const past = (bound: number, what: string): boolean => {
    if (!close(n!, bound)) return true;
    rounding.push(`${input.name} = ${n} is ${what} ${bound}, within rounding`);
    return false;
  };
  const range = /^\[?\s*([^.\s][^\s]*?)\s*\.\.\s*([^\]\s]*)\s*\]?$/.exec(text);
  if (range) {
    if (range[1] !== '*' && n < num(range[1]!) && past(num(range[1]!), 'below')) return true;
    if (range[2] !== '*' && range[2] !== '' && n > num(range[2]!) && past(num(range[2]!), 'above')) return true;
    return false;
  }
  const cmp = /^(>=|>|<=|<)\s*(.+)$/.exec(text);
  if (cmp) {
    const bound = num(cmp[2]!);
    switch (cmp[1]) {
      case '>=': return n < bound && past(bound, 'below');
      case '>': return !(n > bound);
      case '<=': return n > bound && past(bound, 'above');
      default: return !(n < bound);
    }
  }
  const list = text.replace(/^[{(]\s*|\s*[})]$/g, '').split(',').map(num);
  if (list.includes(n)) return false;
  const nearest = list.find((x) => close(x, n!));
  if (nearest === undefined) return true;
  rounding.push(`${input.name} = ${n} is not ${nearest} of its domain, but within rounding of it`);
  return false;
}

