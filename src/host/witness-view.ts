// The witness / result panel's content, computed by the host from what was asked, the documents as
// they were sent and the engine's result. Schedules are replayed here through the shared semantics
// library (never trusted from the engine): the state after every step, what changed, each condition's
// value, and where each move's node is declared. Types: witness-view-types.ts.
import type { Question, RunResult, SourceDocument, Value as ProtocolValue } from '../protocol';
import { parse, languageOfPath } from '../sysml/parser';
import {
  BehaviorError, conditionsOf, prepareBehavior, recheckAnswer, replay, witnessInputs,
  type BehaviorDocument, type BehaviorQuestion, type BehaviorState, type PreparedBehavior,
} from '../sysml/behavior';
import type { SourceRange } from '../sysml/ast';
import type { Standing } from './standing';
import type {
  ConditionValue, EndDifference, OutcomeCard, PlotSpec, ReplayCheck, ReplayView, SourceLocation, StepView, TableCell, TableColumn,
  TableView, ValueRow, WitnessContent, WitnessView,
} from './witness-view-types';

export type * from './witness-view-types';

export interface WitnessViewInput {
  runId?: number;
  question: Question;
  result: RunResult;
  /** The model exactly as it was sent. */
  documents: readonly SourceDocument[];
  engine?: string;
  /** The host's standing for the result (absent: the claimed strength stands). */
  standing?: Standing;
}

/** Whether a result carries anything a panel shows beyond its one-line summary. */
export function hasWitnessView(result: RunResult): boolean {
  return result.witness !== undefined || (result.executions?.length ?? 0) > 0 || (result.values?.length ?? 0) > 0 || (result.inputs?.length ?? 0) > 0;
}

export function witnessView(input: WitnessViewInput): WitnessView {
  const { question, result } = input;
  const condition = question.condition ? (question.condition.text ? `${question.condition.name}: ${question.condition.text}` : question.condition.name) : undefined;
  const view: WitnessView = {
    ...(input.runId !== undefined ? { runId: input.runId } : {}),
    title: `${question.kind} ${question.subject}`,
    question: { kind: question.kind, subject: question.subject, schedule: question.schedule, ...(condition ? { condition } : {}), bindings: (question.bindings ?? []).map(valueRow) },
    ...(input.documents[0] ? { modelPath: input.documents[0].path } : {}),
    ...(input.engine ? { engine: input.engine } : {}),
    claim: result.claim,
    strength: { claimed: result.strength, standing: input.standing?.strength ?? result.strength, reasons: input.standing?.reasons ?? [] },
    ...(result.reason ? { reason: result.reason } : {}),
    content: { kind: 'message', text: '' },
  };
  const behaviour = behaviourContent(input);
  if (behaviour) {
    view.content = behaviour.content;
    view.check = behaviour.check;
    return view;
  }
  view.content = plainContent(question, result);
  return view;
}

// ---- behaviour witnesses --------------------------------------------------------------------------

function parsedDocuments(documents: readonly SourceDocument[]): BehaviorDocument[] {
  return documents.map((d) => ({ path: d.path, document: parse(d.text, { language: languageOfPath(d.path) }).document }));
}

function isScheduleWitness(result: RunResult): boolean {
  return (result.witness?.schedules?.length ?? 0) > 0 || (result.executions ?? []).some((e) => (e.schedules?.length ?? 0) > 0);
}

function behaviourContent(input: WitnessViewInput): { content: WitnessContent; check: ReplayCheck } | undefined {
  const { question, result } = input;
  if (question.kind !== 'holds' && question.kind !== 'outcomes' && question.kind !== 'sensitive') return undefined;
  if (!isScheduleWitness(result)) return undefined;
  const documents = parsedDocuments(input.documents);
  const q = question as BehaviorQuestion;
  const prepared = prepareBehavior(documents, q);
  if (prepared instanceof BehaviorError) {
    const text = `The host cannot replay this model with its own semantics (${prepared.text}), so the witness is shown as the engine sent it, unchecked.`;
    return { content: unreplayedContent(result, text), check: { verdict: 'unchecked', text } };
  }
  const conditions = question.kind === 'holds' ? safeConditions(documents, q) : [];
  const recheck = recheckAnswer(documents, q, result as never);
  const lowered = input.standing && input.standing.strength !== result.strength;
  const check: ReplayCheck = recheck.ok
    ? { verdict: 'confirmed', text: confirmedText(question.kind, result) }
    : recheck.unchecked
      ? { verdict: 'unchecked', text: `The host's replay stopped on what its semantics cannot do (${recheck.reason}), so the witness is unchecked.` }
      : {
      verdict: 'refuted',
      text: `The host's replay does not reproduce the claim: ${recheck.reason}.` +
        (lowered ? ` The standing is lowered from ${result.strength} to ${input.standing!.strength}.` : ''),
    };
  const replayOf = (label: string, schedule: string, inputs: readonly ProtocolValue[] | undefined, at?: number) =>
    replayView(prepared, q, conditions, label, schedule, inputs ?? [], at);

  if (result.claim === 'sensitive' && result.witness?.schedules?.length === 2) {
    const w = result.witness;
    const left = replayOf('Schedule 1', w.schedules![0]!, w.inputs);
    const right = replayOf('Schedule 2', w.schedules![1]!, w.inputs);
    const content = sensitiveContent(left, right, w.feature);
    if (check.verdict === 'confirmed' && content.kind === 'sensitive' && content.differIn) check.text = `The host replayed both schedules: they end ${content.differIn}, as claimed.`;
    return { content, check };
  }
  if (result.claim === 'outcomes' || (result.executions?.length ?? 0) > 0) {
    const executions: ReplayView[] = [];
    const cards: OutcomeCard[] = outcomeCards(result);
    for (const card of cards) {
      const e = result.executions?.[card.index - 1];
      const schedule = e?.schedules?.[0];
      if (schedule === undefined) continue;
      card.execution = executions.length;
      const r = replayOf(`Outcome ${card.index}`, schedule, e!.inputs);
      executions.push(r);
      const mismatch = outcomeMismatch(card, r);
      if (mismatch) card.mismatch = mismatch;
    }
    return { content: { kind: 'outcomes', outcomes: cards, executions }, check };
  }
  const w = result.witness!;
  const schedule = w.schedules![0]!;
  const replay = replayOf('Schedule', schedule, w.inputs, result.claim === 'violated' ? w.at ?? parseStepCount(schedule) : undefined);
  return { content: { kind: 'schedule', replay }, check };
}

function confirmedText(kind: string, result: RunResult): string {
  if (result.claim === 'violated') return `The host replayed the schedule: the condition fails at step ${result.witness?.at ?? 'the end'}, as claimed.`;
  if (result.claim === 'outcomes') return `The host replayed every execution: each ends as its outcome says.`;
  return `The host replayed the witness of this ${kind} answer.`;
}

function parseStepCount(schedule: string): number {
  return schedule.split('\n').filter((l) => l.trim() !== '').length;
}

type Conditions = ReturnType<typeof conditionsOf>;

function safeConditions(documents: readonly BehaviorDocument[], q: BehaviorQuestion): Conditions {
  try {
    return conditionsOf(documents, q);
  } catch (e) {
    if (e instanceof BehaviorError) return [];
    throw e;
  }
}

function locationOf(path: string, range: SourceRange): SourceLocation {
  return { path, line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn };
}

function replayView(p: PreparedBehavior, q: BehaviorQuestion, conditions: Conditions, label: string, schedule: string, inputs: readonly ProtocolValue[], at: number | undefined): ReplayView {
  const rt = p.runtime;
  const model = p.model;
  const features = model.features.filter((f) => !f.hidden).map((f) => f.key);
  const view: ReplayView = { label, schedule, features, conditions: conditions.map((c) => c.name), inputs: [...(q.bindings ?? []), ...inputs].map(valueRow), steps: [], ...(at !== undefined ? { at } : {}), replayed: true };
  const given = witnessInputs(p, q, inputs);
  if (given instanceof BehaviorError) {
    view.error = given.text;
    return view;
  }
  const r = replay(rt, schedule, given);
  if (!r.ok) view.error = r.error;
  if (!r.initial) return view;

  const conditionValues = (s: BehaviorState): ConditionValue[] => conditions.map((c) => {
    try {
      return { name: c.name, value: String(rt.truth(c.expr, s.values, [''], { path: q.subject })) };
    } catch (e) {
      if (e instanceof BehaviorError) return { name: c.name, value: `error: ${e.message}` };
      throw e;
    }
  });
  const stepOf = (n: number, state: BehaviorState, previous: StepView | undefined, moveFrom: BehaviorState | undefined, label: string | undefined): StepView => {
    const v = rt.view(state);
    const values = features.map((name) => v.values.find((x) => x.name === name)?.value ?? 'no value');
    const enabled = moveFrom ? rt.enabled(moveFrom) : [];
    const step: StepView = {
      n,
      enabled: enabled.map((m) => m.label),
      enabledLabels: enabled.map((m) => plainLabel(p, m)),
      violating: at !== undefined && n === at && n > 0,
      // A state is settled (its clock already runs on to the next wait), so the time a move happened
      // is the clock of the state it fired in; the initial state is at 0.
      clock: moveFrom ? moveFrom.clock : 0,
      status: v.status,
      positions: v.tokens.map((t) => `${t.token}@${t.node}`),
      machines: rt.configurations(state).map((c) => ({ name: c.name, state: c.value })),
      values,
      changed: previous ? features.filter((_, i) => previous.values[i] !== values[i]) : [],
      conditions: conditionValues(state),
      pending: v.pending.map((x) => `${x.receiver}: ${x.signals.join(', ')}`),
    };
    if (label !== undefined && moveFrom) {
      step.move = label;
      const sep = label.indexOf('@');
      step.token = label.slice(0, sep);
      step.node = label.slice(sep + 1);
      const move = enabled.find((m) => m.label === label);
      step.label = move ? plainLabel(p, move) : plainText(label);
      if (move) {
        const node = model.nodes[move.node]!;
        const transition = node.kind === 'state' ? model.transitions[move.branch] : undefined;
        const where = transition ?? node;
        step.location = locationOf(where.path, where.range);
      }
    }
    return step;
  };
  let previous = stepOf(0, r.initial, undefined, undefined, undefined);
  view.steps.push(previous);
  let before = r.initial;
  for (const s of r.steps) {
    const step = stepOf(s.step, s.state, previous, before, s.move);
    view.steps.push(step);
    previous = step;
    before = s.state;
  }
  return view;
}

/** A move in plain words: a transition as `machine: source → target`, a decision as `decide → branch`, else the node's path. */
function plainLabel(p: PreparedBehavior, move: { node: number; branch: number; label: string }): string {
  const nodes = p.model.nodes;
  const node = nodes[move.node];
  if (!node) return plainText(move.label);
  if (node.kind === 'state') {
    const tr = p.model.transitions[move.branch];
    if (!tr) return plainText(move.label);
    const machine = nodes[p.runtime.stateChain(tr.source)[0]!]!.name;
    const relative = (name: string) => (name.startsWith(`${machine}.`) ? name.slice(machine.length + 1) : name);
    const target = tr.target < 0 ? 'done' : relative(nodes[tr.target]!.name);
    return `${machine}: ${relative(nodes[tr.source]!.name)} → ${target}`;
  }
  if (node.kind === 'decide') {
    const target = nodes[node.succ[move.branch]!];
    return target ? `${node.name} → ${target.name}` : node.name;
  }
  return node.name;
}

/** A schedule's token text in plain words, without the model: `t1@a.b->c` → `a.b → c`. */
export function plainText(move: string): string {
  return move.replace(/^t[0-9]+@/, '').replace(/->/g, ' → ');
}

function sensitiveContent(left: ReplayView, right: ReplayView, feature: string | undefined): WitnessContent {
  let divergence: number | undefined;
  const n = Math.max(left.steps.length, right.steps.length);
  for (let i = 1; i < n; i++) {
    if (left.steps[i]?.move !== right.steps[i]?.move) {
      divergence = i;
      break;
    }
  }
  const ends: EndDifference[] = [];
  const l = left.steps.at(-1);
  const r = right.steps.at(-1);
  const key = feature?.replace(/::/g, '.');
  if (l && r) {
    left.features.forEach((name, i) => {
      const j = right.features.indexOf(name);
      if (j < 0 || l.values[i] === r.values[j]) return;
      ends.push({ feature: name, left: l.values[i]!, right: r.values[j]!, named: name === key });
    });
    // The rest of an outcome (questions.ts endItems): each machine's configuration, and the end with
    // where a deadlock rests.
    const machine = (v: StepView, name: string) => v.machines.find((m) => m.name === name)?.state ?? 'none';
    for (const name of [...new Set([...l.machines, ...r.machines].map((m) => m.name))]) {
      if (machine(l, name) !== machine(r, name)) ends.push({ feature: name, left: machine(l, name), right: machine(r, name), named: name === key });
    }
    const end = (v: StepView) => (v.status === 'deadlock' ? `deadlock (${v.positions.map(plainText).sort().join(', ')})` : v.status);
    if (end(l) !== end(r)) ends.push({ feature: 'end', left: end(l), right: end(r), named: key === 'end' });
  }
  const differIn = feature && key ? differenceOf(feature, key, left) : undefined;
  return { kind: 'sensitive', ...(feature ? { feature } : {}), ...(differIn ? { differIn } : {}), left, right, ...(divergence !== undefined ? { divergence } : {}), ends };
}

/** What a sensitive witness's `feature` stands for (sysml/behavior/witness.ts): a feature of the
 * model first (a feature may be named `end` or `state`), else the end (how a run ends, where a
 * deadlock rests) or a machine's configuration (`state`, `<machine>.state`). */
function differenceOf(feature: string, key: string, view: ReplayView): string {
  if (view.features.includes(key)) return `with different values of ${feature}`;
  if (key === 'end') return 'differently (how each run ends: done, terminated, or deadlocked and where)';
  if (key === 'state') return 'in different states';
  if (key.endsWith('.state')) return `in different states of ${key.slice(0, -'.state'.length)}`;
  return `with different values of ${feature}`;
}

function outcomeCards(result: RunResult): OutcomeCard[] {
  const byIndex = new Map<number, OutcomeCard>();
  const card = (k: number) => {
    let c = byIndex.get(k);
    if (!c) byIndex.set(k, (c = { index: k, end: '', values: [] }));
    return c;
  };
  for (const v of result.values ?? []) {
    const m = /^(.*)@([1-9][0-9]*)$/.exec(v.name);
    if (!m) continue;
    const c = card(Number(m[2]));
    if (m[1] === 'end') c.end = String(v.value);
    else c.values.push(valueRow({ ...v, name: m[1]! }));
  }
  (result.executions ?? []).forEach((_, i) => card(i + 1));
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

function outcomeMismatch(card: OutcomeCard, r: ReplayView): string | undefined {
  if (r.error) return `the host's replay stops: ${r.error}`;
  const end = r.steps.at(-1);
  if (!end) return undefined;
  if (card.end && end.status !== card.end) return `the host's replay ends as ${end.status}, not ${card.end}`;
  for (const v of card.values) {
    const i = r.features.indexOf(v.name.replace(/::/g, '.'));
    if (i >= 0 && end.values[i] !== v.text) return `the host's replay ends with ${v.name} = ${end.values[i]}, not ${v.text}`;
    const machine = i < 0 ? end.machines.find((m) => m.name === v.name) : undefined;
    if (machine && machine.state !== String(v.value)) return `the host's replay ends with ${v.name} = ${machine.state}, not ${String(v.value)}`;
  }
  return undefined;
}

/** A schedule the host could not replay: its moves as sent, with no states. */
function unreplayedContent(result: RunResult, note: string): WitnessContent {
  void note; // the check banner says why
  const asSent = (label: string, schedule: string, at?: number): ReplayView => ({
    label, schedule, features: [], conditions: [], inputs: [], ...(at !== undefined ? { at } : {}), replayed: false,
    steps: schedule.split('\n').filter((l) => l.trim() !== '').map((line, i) => {
      const m = /^step \d+: (\S+?)@(.+?) first of (.*)$/.exec(line.trim());
      const move = m ? `${m[1]}@${m[2]}` : line.trim();
      const enabled = m ? m[3]!.split(',').map((s) => s.trim()) : [];
      return { n: i + 1, move, label: plainText(move), ...(m ? { token: m[1]!, node: m[2]! } : {}), enabled, enabledLabels: enabled.map(plainText), violating: at === i + 1, clock: 0, status: 'running', positions: [], machines: [], values: [], changed: [], conditions: [], pending: [] };
    }),
  });
  const w = result.witness;
  if (result.claim === 'sensitive' && w?.schedules?.length === 2) {
    return sensitiveContent(asSent('Schedule 1', w.schedules[0]!), asSent('Schedule 2', w.schedules[1]!), w.feature);
  }
  if ((result.executions?.length ?? 0) > 0) {
    const cards = outcomeCards(result);
    const executions: ReplayView[] = [];
    for (const c of cards) {
      const s = result.executions?.[c.index - 1]?.schedules?.[0];
      if (s === undefined) continue;
      c.execution = executions.length;
      executions.push(asSent(`Outcome ${c.index}`, s));
    }
    return { kind: 'outcomes', outcomes: cards, executions };
  }
  const s = w!.schedules![0]!;
  return { kind: 'schedule', replay: asSent('Schedule', s, result.claim === 'violated' ? w!.at ?? parseStepCount(s) : undefined) };
}

// ---- values, assignments, tables ------------------------------------------------------------------

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return String(Number(n.toPrecision(10)));
}

function valueText(value: number | boolean | string, unit?: string): string {
  const v = typeof value === 'number' ? formatNumber(value) : String(value);
  return unit ? `${v} [${unit}]` : v;
}

function valueRow(v: { name: string; value: number | boolean | string; unit?: string | undefined }): ValueRow {
  return { name: v.name, text: valueText(v.value, v.unit), value: v.value, ...(v.unit ? { unit: v.unit } : {}) };
}

function plainContent(question: Question, result: RunResult): WitnessContent {
  const values = result.values ?? [];
  if (result.claim === 'table') return { kind: 'table', table: tableView(question, values) };
  if (result.witness?.inputs && !result.witness.schedules) {
    const declared = new Map((result.inputs ?? []).map((i) => [i.name, i]));
    const inputs = result.witness.inputs.map((v) => {
      const d = declared.get(v.name);
      return { ...valueRow(v), ...(d?.type ? { type: d.type } : {}), ...(d?.free !== undefined ? { free: d.free } : {}) };
    });
    // Inputs the engine describes but the witness does not choose (pinned ones) still belong to the picture.
    for (const d of result.inputs ?? []) {
      if (inputs.some((i) => i.name === d.name) || d.value === undefined) continue;
      inputs.push({ name: d.name, text: d.value, value: d.value, ...(d.type ? { type: d.type } : {}), ...(d.free !== undefined ? { free: d.free } : {}) });
    }
    const bindings = [...(question.bindings ?? []), ...result.witness.inputs].map((v) => ({ name: v.name, value: v.value, ...(v.unit ? { unit: v.unit } : {}) }));
    const satisfies = result.claim === 'satisfiable';
    return {
      kind: 'assignment', heading: satisfies ? 'Inputs the engine chose' : `Inputs under which ${question.subject} is ${result.claim}`,
      inputs, values: values.map(valueRow), ...(satisfies ? { bindings } : {}),
    };
  }
  if (values.length > 0) return { kind: 'values', values: values.map(valueRow) };
  const text = result.claim === 'none'
    ? `No answer${result.reason ? `: ${result.reason}` : '.'}`
    : `${question.kind} ${question.subject}: ${result.claim}${result.reason ? ` — ${result.reason}` : ''}`;
  return { kind: 'message', text };
}

const STAT = /^(min|max|mean|p5|p95)\((.+)\)$/;
const CELL = /^(.+)@([1-9][0-9]*)$/;

/** `<column>@<row>` values row by row, `<stat>(<column>)` summaries (ARCHITECTURE.md, "Values in results"). */
export function tableView(question: Pick<Question, 'sweep'>, values: readonly ProtocolValue[]): TableView {
  const columns: TableColumn[] = [];
  const rows: TableCell[][] = [];
  const summary: TableView['summary'] = [];
  const parameters = new Set((question.sweep?.ranges ?? []).map((r) => r.parameter));
  const columnIndex = new Map<string, number>();
  for (const v of values) {
    const stat = STAT.exec(v.name);
    if (stat) {
      summary.push({ stat: stat[1]!, column: stat[2]!, text: valueText(v.value, v.unit) });
      continue;
    }
    const cell = CELL.exec(v.name);
    if (!cell) continue;
    const name = cell[1]!;
    let c = columnIndex.get(name);
    if (c === undefined) {
      c = columns.length;
      columnIndex.set(name, c);
      columns.push({ name, ...(v.unit ? { unit: v.unit } : {}), parameter: parameters.has(name) });
    }
    const r = Number(cell[2]) - 1;
    while (rows.length <= r) rows.push([]);
    rows[r]![c] = { text: typeof v.value === 'number' ? formatNumber(v.value) : String(v.value), value: v.value };
  }
  for (const row of rows) for (let c = 0; c < columns.length; c++) row[c] ??= { text: '', value: null };
  return { columns, rows, summary, plots: plotsOf(question, columns, rows) };
}

function numericColumn(rows: readonly TableCell[][], c: number): number[] | undefined {
  const out: number[] = [];
  for (const row of rows) {
    const v = row[c]?.value;
    if (typeof v !== 'number') return undefined;
    out.push(v);
  }
  return out;
}

/** Line chart for one swept parameter, heat map for two, histograms for Monte Carlo / sampled columns. */
function plotsOf(question: Pick<Question, 'sweep'>, columns: readonly TableColumn[], rows: readonly TableCell[][]): PlotSpec[] {
  if (rows.length === 0) return [];
  const params = columns.map((c, i) => ({ c, i })).filter((x) => x.c.parameter);
  const outputs = columns.map((c, i) => ({ c, i, data: numericColumn(rows, i) })).filter((x) => !x.c.parameter && x.data);
  const sweep = question.sweep;
  const monteCarlo = (sweep?.runs ?? 0) > 0 || (params.length === 0 && rows.length > 1);
  const withUnit = (name: string, unit?: string) => (unit ? `${name} [${unit}]` : name);
  if (!monteCarlo && params.length === 1) {
    const xs = numericColumn(rows, params[0]!.i);
    if (xs) {
      const p = params[0]!.c;
      return [{
        kind: 'line', title: outputs.map((o) => o.c.name).join(', ') + ` over ${p.name}`, x: p.name, ...(p.unit ? { xUnit: p.unit } : {}),
        series: outputs.map((o) => ({
          name: o.c.name, ...(o.c.unit ? { unit: o.c.unit } : {}),
          points: xs.map((x, r) => [x, o.data![r]!] as [number, number]).sort((a, b) => a[0] - b[0]),
        })),
      }];
    }
  }
  if (!monteCarlo && !sweep?.sampled && params.length === 2) {
    const xs = numericColumn(rows, params[0]!.i);
    const ys = numericColumn(rows, params[1]!.i);
    if (xs && ys) {
      return outputs.map((o) => ({
        kind: 'heatmap' as const, title: `${o.c.name} over ${params[0]!.c.name} and ${params[1]!.c.name}`,
        x: withUnit(params[0]!.c.name, params[0]!.c.unit), y: withUnit(params[1]!.c.name, params[1]!.c.unit), value: o.c.name, ...(o.c.unit ? { unit: o.c.unit } : {}),
        xs: [...new Set(xs)].sort((a, b) => a - b), ys: [...new Set(ys)].sort((a, b) => a - b),
        cells: xs.map((x, r) => ({ x, y: ys[r]!, v: o.data![r]! })),
      }));
    }
  }
  if (monteCarlo || sweep?.sampled) {
    return outputs.map((o) => ({ kind: 'histogram' as const, title: `${o.c.name} over ${rows.length} ${monteCarlo ? 'runs' : 'samples'}`, column: o.c.name, ...(o.c.unit ? { unit: o.c.unit } : {}), bins: histogram(o.data!) }));
  }
  return [];
}

/** Equal-width bins, about √n of them (5 to 30). */
export function histogram(data: readonly number[]): { from: number; to: number; count: number }[] {
  if (data.length === 0) return [];
  const min = Math.min(...data);
  const max = Math.max(...data);
  if (min === max) return [{ from: min, to: max, count: data.length }];
  const n = Math.min(30, Math.max(5, Math.ceil(Math.sqrt(data.length))));
  const width = (max - min) / n;
  const bins = Array.from({ length: n }, (_, i) => ({ from: min + i * width, to: i === n - 1 ? max : min + (i + 1) * width, count: 0 }));
  for (const x of data) bins[Math.min(n - 1, Math.floor((x - min) / width))]!.count++;
  return bins;
}
