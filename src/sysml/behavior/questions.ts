// The behaviour questions — outcomes, holds, sensitive — as library functions returning objects of
// the shape of the protocol's `result` (structurally: sysml/ does not import protocol/).
import { parse } from '../parser';
import type { Expression, Member } from '../ast';
import { Evaluator } from '../semantics/evaluate';
import { Random, type DrawPolicy } from '../semantics/random';
import { tryParseUnit } from '../semantics/units';
import { format, fromProtocolValue, int, isError, parseNotation, toProtocolValue, type Value } from '../semantics/values';
import { compileBehavior, featureReader } from './compile';
import { explore, parsePolicy, scheduleText, type ExploreHooks, type ExploreReport, type Limits, type PathStep, type Policy } from './explore';
import { Runtime, type BehaviorState, type EndStatus } from './machine';
import { BehaviorError, type ExecutionModel } from './model';
import { BehaviorScope, usageName, type BehaviorDocument } from './scope';

export type BehaviorKind = 'outcomes' | 'holds' | 'sensitive';

/** The question fields behaviour questions read (a subset of the protocol's `question`). */
export interface BehaviorQuestion {
  readonly kind: BehaviorKind;
  readonly subject: string;
  readonly schedule: string;
  readonly free: readonly ('schedule' | 'inputs')[];
  readonly clockStep?: number | undefined;
  readonly modelSeed?: number | undefined;
  readonly draws?: DrawPolicy | undefined;
  readonly condition?: { readonly name: string; readonly text?: string | undefined } | undefined;
  readonly conditions?: readonly { readonly name: string; readonly assertions: readonly { readonly name: string; readonly text?: string | undefined }[] }[] | undefined;
  readonly bindings?: readonly ProtocolValue[] | undefined;
  readonly inputs?: readonly { readonly name: string; readonly type?: string | undefined; readonly unit?: string | undefined; readonly domain?: string | undefined }[] | undefined;
}

export interface ProtocolValue {
  name: string;
  value: number | boolean | string;
  unit?: string;
}

export interface WitnessObject {
  schedules?: string[];
  at?: number;
  feature?: string;
  inputs?: ProtocolValue[];
}

export interface BoundObject {
  name: string;
  limit: number;
  reached?: boolean;
}

export interface BehaviorAnswer {
  claim: 'none' | 'holds' | 'violated' | 'sensitive' | 'outcomes';
  strength: 'observed' | 'witnessed' | 'bounded' | 'proved';
  bounds?: BoundObject[];
  witness?: WitnessObject;
  executions?: WitnessObject[];
  reason?: string;
  values?: ProtocolValue[];
  elapsed?: number;
  /** What the answer rests on beyond SysML v2 (the compiled model's readings). */
  assumptions?: string[];
}

export interface BehaviorRunOptions {
  /** The bounds the run was given (limit 0 = open); each comes back with `reached`. */
  readonly bounds?: readonly { readonly name: 'depth' | 'steps' | 'runs' | 'memory'; readonly limit: number }[];
  readonly hooks?: ExploreHooks;
  /** Partial-order reduction (default on). */
  readonly reduction?: boolean;
}

/** Input combinations beyond this are refused (the question should bind some inputs). */
export const MAX_INPUT_COMBINATIONS = 4096;
/** Distinct outcomes reported at most. */
export const MAX_OUTCOMES = 1000;

/** A compiled subject ready to run: the model, its runtime, and the question's initial states. */
export interface PreparedBehavior {
  readonly model: ExecutionModel;
  readonly runtime: Runtime;
  readonly policy: Policy;
  readonly exhaustive: boolean;
  /** One entry per combination of free inputs (a single empty one when there are none). */
  readonly assignments: ReadonlyMap<string, Value>[];
  /** The feature keys that are free inputs. */
  readonly freeKeys: readonly string[];
}

function drawsOf(q: BehaviorQuestion, policy: Policy): ConstructorParameters<typeof Evaluator>[0] {
  if (q.draws) return { draws: { policy: q.draws } };
  const seed = q.modelSeed ?? (policy.kind === 'seed' ? policy.seed : undefined);
  return seed === undefined ? {} : { draws: { random: new Random(seed) } };
}

function domainOf(text: string, where: string): Value[] {
  const range = /^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$/.exec(text);
  if (range) {
    const out: Value[] = [];
    for (let i = BigInt(range[1]!); i <= BigInt(range[2]!); i++) out.push(int(i));
    if (out.length > MAX_INPUT_COMBINATIONS) throw new BehaviorError(`input ${where}: domain ${text} has more than ${MAX_INPUT_COMBINATIONS} values`, undefined, undefined);
    return out;
  }
  const inner = text.trim().replace(/^\{|\}$/g, '');
  return inner.split(',').map((p) => {
    const v = parseNotation(p.trim());
    if (isError(v)) throw new BehaviorError(`input ${where}: ${v.message}`, undefined, undefined);
    return v;
  });
}

/**
 * A given value as the member of a finite domain it names: an enumeration literal however qualified
 * (`Mode::sport`, `Pkg::Mode::sport`) is the model's; anything else outside the domain is refused.
 */
function inDomain(v: Value, domain: readonly Value[], what: string): Value {
  const last = (d: string) => d.split('::').at(-1);
  const text = v.kind === 'string' ? v.value : v.kind === 'enum' ? `${v.definition}::${v.literal}` : undefined;
  const names = (d: Value) => d.kind === 'enum' && text !== undefined && (text === d.literal || text === `${d.definition}::${d.literal}` || text.endsWith(`::${last(d.definition)}::${d.literal}`));
  const found = domain.find((d) => (d.kind === 'enum' ? names(d) : format(d) === format(v)));
  if (!found) throw new BehaviorError(`${what}: ${format(v)} is not one of ${domain.map(format).join(', ')}`, undefined, undefined);
  return found;
}

/** The keys of the features a question binds, as the compiled model names them (`a.b` for `a::b`). */
export function boundKeys(bindings: readonly { name: string }[] | undefined): Set<string> {
  return new Set((bindings ?? []).map((b) => b.name.replace(/::/g, '.')));
}

/** Compiles the subject and lays out the question's initial states. */
export function prepareBehavior(documents: readonly BehaviorDocument[], q: BehaviorQuestion): PreparedBehavior | BehaviorError {
  const policy = parsePolicy(q.schedule);
  if (typeof policy === 'string') return new BehaviorError(policy, undefined, undefined);
  const model = compileBehavior(documents, q.subject, boundKeys(q.bindings));
  if (model instanceof BehaviorError) return model;
  try {
    const runtime = new Runtime(model, {
      ...(q.clockStep ? { clockStep: q.clockStep } : {}),
      environmentSignals: q.free.includes('inputs'),
      evaluator: new Evaluator(drawsOf(q, policy)),
    });
    const keyOf = (name: string) => name.replace(/::/g, '.');
    const given = new Map<string, Value>();
    for (const b of q.bindings ?? []) {
      const key = keyOf(b.name);
      const i = model.featureIndex.get(key);
      if (i === undefined) return new BehaviorError(`the binding ${b.name} names no feature of ${q.subject}`, undefined, undefined);
      const decl = model.features[i]!;
      if (decl.outside) return new BehaviorError(`the binding ${b.name}: ${decl.outside}`, decl.path, decl.range);
      if (decl.bound) return new BehaviorError(`the binding ${b.name}: ${decl.key} is bound to a value in the model ('=')`, decl.path, decl.range);
      const v = fromProtocolValue(b, tryParseUnit, model.features[i]!.type ?? undefined);
      if (isError(v)) return new BehaviorError(`binding ${b.name}: ${v.message}`, undefined, undefined);
      given.set(key, decl.domain ? inDomain(v, decl.domain, `binding ${b.name}`) : v);
    }
    // Free inputs: features with no value whose domain is finite (declared, or given with the question).
    const domains = new Map<string, Value[]>();
    if (q.free.includes('inputs')) {
      for (const f of model.features) if (!f.hidden && !f.output && !f.outside && !f.init && !given.has(f.key) && f.domain) domains.set(f.key, [...f.domain]);
      for (const inp of q.inputs ?? []) {
        const key = keyOf(inp.name);
        if (!model.featureIndex.has(key)) return new BehaviorError(`the input ${inp.name} names no feature of ${q.subject}`, undefined, undefined);
        const decl = model.features[model.featureIndex.get(key)!]!;
        if (decl.outside) return new BehaviorError(`the input ${inp.name}: ${decl.outside}`, decl.path, decl.range);
        // What the input says besides its domain is checked, not dropped: its type must be the feature's,
        // and a unit has no place (the domain's values carry their own: `1 [kg], 2 [kg]`).
        const last = (t: string) => t.split('::').at(-1)!.replace(/^'|'$/g, '');
        if (inp.type && decl.type && last(inp.type) !== last(decl.type)) {
          return new BehaviorError(`the input ${inp.name} is given as ${inp.type}, but ${decl.key} is declared ${decl.type}: give its declared type or none (${inp.name}::<domain>)`, decl.path, decl.range);
        }
        if (inp.unit) return new BehaviorError(`the input ${inp.name}: a unit beside the domain is not read here; write it with the domain's values (1 [${inp.unit}], 2 [${inp.unit}])`, undefined, undefined);
        if (inp.domain) domains.set(key, domainOf(inp.domain, inp.name));
        else if (!domains.has(key)) {
          return new BehaviorError(`the input ${inp.name} has no domain, and ${decl.key}'s type gives none: give the values it ranges over (${inp.name}:${inp.type ?? decl.type ?? ''}:0..5, or a, b, c)`, decl.path, decl.range);
        }
      }
    }
    const freeKeys = [...domains.keys()];
    let assignments: Map<string, Value>[] = [new Map(given)];
    for (const k of freeKeys) {
      const next: Map<string, Value>[] = [];
      for (const a of assignments) for (const v of domains.get(k)!) next.push(new Map(a).set(k, v));
      assignments = next;
      if (assignments.length > MAX_INPUT_COMBINATIONS) {
        return new BehaviorError(`the free inputs ${freeKeys.join(', ')} have more than ${MAX_INPUT_COMBINATIONS} combinations: bind some of them`, undefined, undefined);
      }
    }
    const exhaustive = q.kind === 'sensitive' ? policy.kind !== 'seed' : policy.kind === 'all' || (q.free.includes('schedule') && policy.kind !== 'seed');
    return { model, runtime, policy, exhaustive, assignments, freeKeys };
  } catch (e) {
    if (e instanceof BehaviorError) return e;
    throw e;
  }
}

function inputValues(p: PreparedBehavior, a: ReadonlyMap<string, Value>): ProtocolValue[] {
  return p.freeKeys.map((k) => toProtocolValue(k, a.get(k)!) as ProtocolValue);
}

function boundsOf(options: BehaviorRunOptions, reports: readonly ExploreReport[]): BoundObject[] | undefined {
  if (!options.bounds) return undefined;
  return options.bounds.map((b) => {
    const reached = reports.some((r) => r.reached[b.name]);
    return reached ? { name: b.name, limit: b.limit, reached: true } : { name: b.name, limit: b.limit };
  });
}

function limitsOf(options: BehaviorRunOptions): Limits {
  const get = (n: string) => options.bounds?.find((b) => b.name === n)?.limit ?? 0;
  return { depth: get('depth'), steps: get('steps'), runs: get('runs'), memoryMiB: get('memory') };
}

function anyReached(reports: readonly ExploreReport[]): boolean {
  return reports.some((r) => Object.values(r.reached).some(Boolean));
}

/** proved when every exploration covered its choices within the bounds; bounded when a bound cut it; observed for samples. */
function coverageStrength(reports: readonly ExploreReport[]): BehaviorAnswer['strength'] {
  if (reports.some((r) => !r.exhaustive)) return 'observed';
  return anyReached(reports) ? 'bounded' : 'proved';
}

function cancelled(reports: readonly ExploreReport[]): boolean {
  return reports.some((r) => r.stopped === 'cancelled');
}

const CANCELLED = new BehaviorError('cancelled before the exploration finished', undefined, undefined, 'budget');

function statsText(reports: readonly ExploreReport[]): string {
  const states = reports.reduce((n, r) => n + r.states, 0);
  const steps = reports.reduce((n, r) => n + r.steps, 0);
  return `${states} states, ${steps} moves${reports.length > 1 ? ` over ${reports.length} input choices` : ''}`;
}

// ---- conditions -----------------------------------------------------------------------------------

export interface CheckedCondition {
  readonly name: string;
  readonly text: string;
  readonly expr: Expression;
}

function parseCondition(name: string, text: string): CheckedCondition {
  const r = parse(`calc __condition { ${text} }`);
  const first = r.document.members[0];
  const body = first && (first.kind === 'Definition' || first.kind === 'Usage') ? (first.body ?? []) : [];
  const result = body.find((m): m is Member & { kind: 'ResultExpression' } => m.kind === 'ResultExpression');
  if (r.errors.length > 0 || !result) throw new BehaviorError(`condition ${name}: cannot read '${text}'${r.errors[0] ? `: ${r.errors[0].message}` : ''}`, undefined, undefined);
  return { name, text, expr: result.expression };
}

/** The conditions of a holds question: given ones, or the subject's asserted constraints. */
export function conditionsOf(documents: readonly BehaviorDocument[], q: BehaviorQuestion): CheckedCondition[] {
  const given = [...(q.condition ? [q.condition] : []), ...(q.conditions ?? []).flatMap((c) => c.assertions)];
  const scope = new BehaviorScope(documents);
  const subject = scope.find(q.subject);
  const constraintNamed = (name: string): CheckedCondition | undefined => {
    for (const e of [subject, ...(subject ? scope.typesOf(subject) : [])]) {
      const m = e?.members.find((x) => x.name === name && x.node.kind !== 'Package' && x.node.keyword === 'constraint');
      const expr = m && m.node.kind !== 'Package' ? (m.node.body ?? []).filter((b) => b.kind === 'ResultExpression').at(-1) : undefined;
      if (expr && expr.kind === 'ResultExpression') return { name, text: name, expr: expr.expression };
    }
    return undefined;
  };
  if (given.length > 0) {
    return given.map((c) => {
      if (c.text !== undefined && c.text.trim() !== '') return parseCondition(c.name, c.text);
      const declared = constraintNamed(c.name);
      if (!declared) throw new BehaviorError(`condition ${c.name} has no text and names no constraint of ${q.subject}`, undefined, undefined);
      return declared;
    });
  }
  const out: CheckedCondition[] = [];
  if (subject && subject.node.kind !== 'Package') {
    const members: Member[] = [...(subject.node.body ?? []), ...scope.typesOf(subject).flatMap((t) => (t.node.kind === 'Package' ? [] : (t.node.body ?? [])))];
    for (const m of members) {
      if (m.kind !== 'Usage' || m.keyword !== 'constraint' || m.role !== 'assert') continue;
      const expr = (m.body ?? []).filter((b) => b.kind === 'ResultExpression').at(-1);
      // An asserted constraint is checked, never skipped: one without its own expression is refused.
      if (!expr || expr.kind !== 'ResultExpression') throw new BehaviorError(`the asserted constraint${m.name ? ` '${m.name}'` : ''} has no expression of its own to check (a constraint it is typed by or names is not read)`, subject.path, m.range);
      const name = usageName(m) ?? `assert at ${m.range.line}:${m.range.column}`;
      out.push({ name, text: name, expr: m.isNegated ? { kind: 'Unary', operator: 'not', operand: expr.expression, range: expr.expression.range } : expr.expression });
    }
  }
  if (out.length === 0) throw new BehaviorError(`no condition to check: give the question a condition, or assert a constraint in ${q.subject}`, undefined, undefined);
  return out;
}

/**
 * With the environment's events free, the signals awaited that the model itself sends are not among
 * them (docs/execution-semantics.md): said in the answer, since a deadlock or a missing end may rest on it.
 */
function internalSignals(model: ExecutionModel, q: BehaviorQuestion): string | undefined {
  if (!q.free.includes('inputs')) return undefined;
  const awaited = new Set<string>();
  for (const n of model.nodes) if (n.trigger?.kind === 'signal' && model.sentSignals.has(n.trigger.signal)) awaited.add(n.trigger.signal);
  for (const t of model.transitions) if (t.trigger?.kind === 'signal' && model.sentSignals.has(t.trigger.signal)) awaited.add(t.trigger.signal);
  if (awaited.size === 0) return undefined;
  const names = [...awaited].sort();
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} sent by the model itself, so ${names.length === 1 ? 'it arrives' : 'they arrive'} only when the model sends ${names.length === 1 ? 'it' : 'them'}, never as an event of the environment`;
}

/**
 * With a timed wait in the model, the answer rests on moves taking no time: the clock advances only
 * when nothing else can move (docs/execution-semantics.md, Time). SysML v2 gives actions no
 * durations, so a run in which an action still runs when a wait comes due is not among the runs
 * explored: said in the answer.
 */
function zeroTimeMoves(runtime: Runtime): string | undefined {
  if (!runtime.timed) return undefined;
  return 'actions and transitions take no time: the clock advances to the next timed wait (accept after / at) only when nothing else can move, so a wait never comes due while another action could still run';
}

// ---- the questions ----------------------------------------------------------------------------------

export async function answerBehavior(documents: readonly BehaviorDocument[], q: BehaviorQuestion, options: BehaviorRunOptions = {}): Promise<BehaviorAnswer | BehaviorError> {
  const started = Date.now();
  const prepared = prepareBehavior(documents, q);
  if (prepared instanceof BehaviorError) return prepared;
  try {
    const answer = q.kind === 'outcomes' ? await outcomes(prepared, options) : q.kind === 'holds' ? await holds(prepared, conditionsOf(documents, q), options) : await sensitive(prepared, options);
    if (answer instanceof BehaviorError) return answer;
    answer.elapsed = Date.now() - started;
    if (prepared.model.readings.length > 0) answer.assumptions = [...(answer.assumptions ?? []), ...prepared.model.readings];
    const internal = internalSignals(prepared.model, q);
    if (internal) answer.assumptions = [...(answer.assumptions ?? []), internal];
    // A violation or a difference is witnessed by a run, which zero-time actions do not make impossible;
    // the other answers say that no run does otherwise, and rest on it.
    const timing = answer.claim === 'violated' || answer.claim === 'sensitive' ? undefined : zeroTimeMoves(prepared.runtime);
    if (timing) answer.assumptions = [...(answer.assumptions ?? []), timing];
    return answer;
  } catch (e) {
    if (e instanceof BehaviorError) return e;
    throw e;
  }
}

interface Outcome {
  readonly status: EndStatus;
  readonly state: BehaviorState;
  readonly path: readonly PathStep[];
  readonly inputs: ReadonlyMap<string, Value>;
}

/** One thing an answer reports of a run's end (endItems). */
export interface EndItem {
  /** Unique among the items (a feature may be named `end` or `state` too). */
  readonly id: string;
  /** As the answer names it: the feature's key, `state` / `<machine>.state`, or `end`. */
  readonly name: string;
  readonly text: string;
}

/**
 * What an answer reports of a run's end, item by item: each reported feature's value (declaration
 * order), each state machine's active configuration, and the end — its status and, for a deadlock,
 * the nodes its tokens rest at (the reason names them). Two runs have the same outcome exactly when
 * every item is equal; `sensitive` names the first item two ends differ on.
 */
export function endItems(rt: Runtime, s: BehaviorState, status: EndStatus, features: readonly number[]): EndItem[] {
  const out = features.map((i): EndItem => ({ id: `feature ${rt.model.features[i]!.key}`, name: rt.model.features[i]!.key, text: s.values[i] === undefined ? 'no value' : format(s.values[i]!) }));
  for (const c of rt.configurations(s)) out.push({ id: `configuration ${c.name}`, name: c.name, text: c.value });
  out.push({ id: 'end', name: 'end', text: status === 'deadlock' ? `deadlock (${restingPlaces(rt, s)})` : status });
  return out;
}

/** Where a run's tokens rest, by node (sorted: token numbers are no part of a state). */
function restingPlaces(rt: Runtime, s: BehaviorState): string {
  return s.tokens.map((t) => rt.model.nodes[t.node]!.name).sort().join(', ');
}

/** The first item two ends differ on (an item one end lacks, a machine that has ended, differs too). */
function divergence(a: readonly EndItem[], b: readonly EndItem[]): { name: string; first: string; second: string } | undefined {
  const second = new Map(b.map((x) => [x.id, x.text]));
  const first = new Map(a.map((x) => [x.id, x.text]));
  for (const x of [...a, ...b.filter((y) => !first.has(y.id))]) {
    const l = first.get(x.id) ?? 'none';
    const r = second.get(x.id) ?? 'none';
    if (l !== r) return { name: x.name, first: l, second: r };
  }
  return undefined;
}

async function outcomes(p: PreparedBehavior, options: BehaviorRunOptions): Promise<BehaviorAnswer | BehaviorError> {
  const found = new Map<string, Outcome>();
  const reports: ExploreReport[] = [];
  const rt = p.runtime;
  const visible = p.model.features.map((f, i) => (f.hidden ? -1 : i)).filter((i) => i >= 0);
  for (const a of p.assignments) {
    const initial = rt.initial(a);
    const report = await explore(rt, initial, { policy: p.policy, exhaustive: p.exhaustive, limits: limitsOf(options), hooks: options.hooks, reduction: options.reduction, detectCycles: true }, {
      end(s, status, path) {
        // One outcome per distinct end as reported: values, configurations, status and resting places.
        const key = endItems(rt, s, status, visible).map((x) => `${x.id}=${x.text}`).join('\u0000');
        if (!found.has(key)) found.set(key, { status, state: s, path: [...path], inputs: a });
        return found.size >= MAX_OUTCOMES;
      },
    });
    reports.push(report);
    if (cancelled(reports)) return CANCELLED;
    if (report.stopped === 'visitor') break;
  }
  const bounds = boundsOf(options, reports);
  const strength = coverageStrength(reports);
  if (found.size === 0) {
    return { claim: 'none', strength, ...(bounds ? { bounds } : {}), reason: anyReached(reports) ? `no run ends within the bounds (${statsText(reports)})` : `no run ends (${statsText(reports)}): every reachable state has a move or a pending wait` };
  }
  const values: ProtocolValue[] = [];
  const executions: WitnessObject[] = [];
  let k = 0;
  for (const o of found.values()) {
    k++;
    values.push({ name: `end@${k}`, value: o.status });
    for (const c of rt.configurations(o.state)) values.push({ name: `${c.name}@${k}`, value: c.value });
    for (const i of visible) {
      const v = o.state.values[i];
      if (v !== undefined) values.push(toProtocolValue(`${p.model.features[i]!.key}@${k}`, v) as ProtocolValue);
    }
    executions.push({ schedules: [scheduleText(o.path)], ...(p.freeKeys.length > 0 ? { inputs: inputValues(p, o.inputs) } : {}) });
  }
  const summary = [...found.values()].map((o, i) => `${i + 1}: ${o.status}${o.status === 'deadlock' ? ` (${rt.positions(o.state)})` : ''}`).join('; ');
  return {
    claim: 'outcomes',
    strength: found.size >= MAX_OUTCOMES ? 'bounded' : strength,
    ...(bounds ? { bounds } : {}),
    executions,
    values,
    reason: `${found.size} outcome${found.size === 1 ? '' : 's'} (${statsText(reports)}): ${summary}${neverEnding(reports)}`,
  };
}

/**
 * A run that returns to a state it was in can go on forever: it has no end, so it is no outcome, and
 * an answer listing the ends says so rather than letting them read as every run's.
 */
function neverEnding(reports: readonly ExploreReport[]): string {
  const n = reports.filter((r) => r.cycles === true).length;
  if (n === 0) return '';
  const where = reports.length > 1 ? ` (under ${n} of the ${reports.length} input choices)` : '';
  return `; some runs never end${where}: a schedule returns to a state it was in and can repeat forever, and a run that never ends has no outcome`;
}

async function holds(p: PreparedBehavior, conditions: CheckedCondition[], options: BehaviorRunOptions): Promise<BehaviorAnswer | BehaviorError> {
  const rt = p.runtime;
  // Every feature a condition may read, through bound features and calc usages too: a move writing
  // one is never reduced away (explore.ts), so no state where a condition fails is skipped.
  const reader = featureReader(p.model.features);
  const visible = new Set(conditions.flatMap((c) => reader.of(c.expr)));
  const reports: ExploreReport[] = [];
  const failing = (s: BehaviorState): CheckedCondition | undefined => conditions.find((c) => !rt.truth(c.expr, s.values, [''], { path: p.model.subject }));
  // Between two effects of one move too (Runtime.watch): a violation there is refused, not missed.
  rt.watch = (values) => conditions.some((c) => !rt.truth(c.expr, values, [''], { path: p.model.subject }));
  try {
    return await holdsWatched(p, conditions, options, failing, visible, reports);
  } finally {
    rt.watch = undefined;
  }
}

async function holdsWatched(
  p: PreparedBehavior,
  conditions: CheckedCondition[],
  options: BehaviorRunOptions,
  failing: (s: BehaviorState) => CheckedCondition | undefined,
  visible: Set<number>,
  reports: ExploreReport[],
): Promise<BehaviorAnswer | BehaviorError> {
  const rt = p.runtime;
  for (const a of p.assignments) {
    let violation: { path: PathStep[]; condition: CheckedCondition } | undefined;
    const initial = rt.initial(a);
    const report = await explore(rt, initial, { policy: p.policy, exhaustive: p.exhaustive, breadthFirst: true, visible, limits: limitsOf(options), hooks: options.hooks, reduction: options.reduction }, {
      state(s, path) {
        const c = failing(s);
        if (c) violation = { path: [...path], condition: c };
        return c !== undefined;
      },
    });
    reports.push(report);
    if (cancelled(reports)) return CANCELLED;
    if (violation && report.exhaustive && options.reduction !== false && violation.path.length > 1) {
      // Reduction may postpone the moves that lead to a violation soonest: look for a shorter schedule
      // without it, no deeper than the one found (kept when that search hits a bound).
      let shorter: { path: PathStep[]; condition: CheckedCondition } | undefined;
      const limits = { ...limitsOf(options), depth: violation.path.length - 1 };
      const again = await explore(rt, initial, { policy: p.policy, exhaustive: true, breadthFirst: true, visible, limits, hooks: options.hooks, reduction: false }, {
        state(s, path) {
          const c = failing(s);
          if (c) shorter = { path: [...path], condition: c };
          return c !== undefined;
        },
      });
      if (again.stopped === 'cancelled') return CANCELLED;
      const found = shorter as { path: PathStep[]; condition: CheckedCondition } | undefined;
      if (found) violation = found;
    }
    if (violation) {
      const at = violation.path.length;
      const bounds = boundsOf(options, reports);
      return {
        claim: 'violated',
        strength: report.exhaustive ? 'proved' : 'witnessed',
        ...(bounds ? { bounds } : {}),
        witness: { schedules: [scheduleText(violation.path)], at, ...(p.freeKeys.length > 0 ? { inputs: inputValues(p, a) } : {}) },
        reason: `${violation.condition.name} fails ${at === 0 ? 'in the initial state' : `after step ${at}`}: ${violation.condition.text}`,
      };
    }
  }
  const bounds = boundsOf(options, reports);
  return {
    claim: 'holds',
    strength: coverageStrength(reports),
    ...(bounds ? { bounds } : {}),
    reason: `${conditions.map((c) => c.name).join(', ')} hold${conditions.length === 1 ? 's' : ''} after every move (${statsText(reports)})`,
  };
}

async function sensitive(p: PreparedBehavior, options: BehaviorRunOptions): Promise<BehaviorAnswer | BehaviorError> {
  const rt = p.runtime;
  const reports: ExploreReport[] = [];
  const visible = p.model.features.map((f, i) => (f.hidden ? -1 : i)).filter((i) => i >= 0);
  let ends = 0;
  for (const a of p.assignments) {
    let first: { items: EndItem[]; path: PathStep[] } | undefined;
    let found: { path: PathStep[]; name: string; first: string; second: string } | undefined;
    const initial = rt.initial(a);
    const report = await explore(rt, initial, { policy: p.policy, exhaustive: p.exhaustive, limits: limitsOf(options), hooks: options.hooks, reduction: options.reduction, detectCycles: true }, {
      end(s, status, path) {
        ends++;
        // The outcome as `outcomes` reports it: values, configurations, end status and resting places.
        const items = endItems(rt, s, status, visible);
        if (!first) {
          first = { items, path: [...path] };
          return false;
        }
        const d = divergence(first.items, items);
        if (d) found = { path: [...path], ...d };
        return d !== undefined;
      },
    });
    reports.push(report);
    if (cancelled(reports)) return CANCELLED;
    if (found && first) {
      const bounds = boundsOf(options, reports);
      const what = found.name === 'end' ? 'the run' : found.name;
      return {
        claim: 'sensitive',
        strength: report.exhaustive ? 'proved' : 'witnessed',
        ...(bounds ? { bounds } : {}),
        witness: { schedules: [scheduleText(first.path), scheduleText(found.path)], feature: found.name, ...(p.freeKeys.length > 0 ? { inputs: inputValues(p, a) } : {}) },
        reason: `${what} ends as ${found.first} under one schedule and ${found.second} under another`,
      };
    }
  }
  const bounds = boundsOf(options, reports);
  return {
    claim: 'none',
    strength: coverageStrength(reports),
    ...(bounds ? { bounds } : {}),
    reason: ends === 0 ? `no run ends (${statsText(reports)}), so no two end states to compare` : `every schedule that ends, ends the same way: the same end, state configuration and feature values (${statsText(reports)})${neverEnding(reports)}`,
  };
}
