// The comparison of one "All covering engines" ask, from the runs it made (one per engine): the rows
// of the comparison panel, the verdict once every run has settled, and the Runs view's grouping.
// No vscode import: the unit tests use it as the panel and the Runs view do.
import { compareAnswers, type Comparison, type EngineAnswer, type Verdict } from '../../host/compare';
import type { RunOutcome } from '../../host/host';
import type { Question } from '../../protocol';
import type { RunHistory, RunRecord } from '../runs/runRecord';

/** The engine pick's entry that asks every covering engine (the ask flow's engine `all`). */
export const ALL_COVERING_ENGINES = 'All covering engines';

/** Marks the runs of one ask of every engine as a group (the first run's id names it): the Runs view nests them, the panel opens. */
export function groupRuns(history: Pick<RunHistory, 'update'>, ids: readonly number[]): number | undefined {
  if (ids.length === 0) return undefined;
  const group = ids[0]!;
  for (const id of ids) history.update(id, { group });
  return group;
}

export interface ComparisonRowView {
  run: number;
  engine: string;
  /** queued, running, or the outcome's status once settled. */
  state: 'queued' | 'running' | 'answered' | 'not covered' | 'cancelled' | 'budget' | 'error';
  claim?: string;
  claimed?: string;
  strength?: string;
  elapsedMs?: number;
  reason: string;
  /** Whether the run's result has a witness (or values) the witness panel can show. */
  hasResult: boolean;
}

export interface ComparisonView {
  group: number;
  question: Question;
  rows: ComparisonRowView[];
  /** Absent while runs are still going. */
  verdict?: Verdict;
  /** `2 of 3 engines have answered` while going. */
  progress: string;
}

/** The records of a group (one ask of every engine), in the order the engines were asked. */
export function groupRecords(records: readonly RunRecord[], group: number): RunRecord[] {
  return records.filter((r) => r.group === group).sort((a, b) => a.id - b.id);
}

/** What the host decided for the run, before any comparison lowered it: what the comparison compares. */
function hostOutcome(record: RunRecord): RunOutcome {
  return record.beforeComparison ?? record.outcome!;
}

/** The engine a run of the group was asked of. */
function engineOf(record: RunRecord): string {
  return record.engineChoice ?? record.engine ?? `run ${record.id}`;
}

export function comparisonView(group: number, records: readonly RunRecord[]): ComparisonView | undefined {
  const members = groupRecords(records, group);
  if (members.length === 0) return undefined;
  const settled = members.filter((r) => r.state === 'settled' && r.outcome);
  let comparison: Comparison | undefined;
  if (settled.length === members.length) {
    const answers: EngineAnswer[] = members.map((r) => ({ engine: engineOf(r), outcome: hostOutcome(r), elapsedMs: r.elapsedMs ?? 0 }));
    comparison = compareAnswers(members[0]!.question, answers);
  }
  const rows = members.map((record, index): ComparisonRowView => {
    const compared = comparison?.rows[index];
    const base = { run: record.id, engine: engineOf(record) };
    if (!compared) {
      return { ...base, state: record.state === 'queued' ? 'queued' : 'running', reason: record.waitingFor ? `waiting for ${record.waitingFor}` : '', hasResult: false };
    }
    const o = compared.outcome;
    return {
      ...base,
      state: compared.status,
      ...(compared.claim ? { claim: compared.claim } : {}),
      ...(compared.claimed ? { claimed: compared.claimed } : {}),
      ...(compared.strength ? { strength: compared.strength } : {}),
      ...(compared.status !== 'not covered' ? { elapsedMs: compared.elapsedMs } : {}),
      reason: [...compared.standingReasons].reverse().concat(compared.reason ? [compared.reason] : []).join('; '),
      hasResult: o.status === 'answered' && (o.result.witness !== undefined || (o.result.executions?.length ?? 0) > 0 || (o.result.values?.length ?? 0) > 0),
    };
  });
  return {
    group,
    question: members[0]!.question,
    rows,
    ...(comparison ? { verdict: comparison.verdict } : {}),
    progress: comparison ? '' : `${settled.length} of ${members.length} engines have answered`,
  };
}

/**
 * Once every run of the group has settled: the runs whose standing the comparison lowered (a `holds`
 * contradicted by another engine's replayed witness), with the outcome that now stands, so the Runs
 * view, the witness panel and Copy Result say what the comparison says. Empty when nothing changes.
 */
export function loweredByComparison(group: number, records: readonly RunRecord[]): { run: number; outcome: RunOutcome; beforeComparison: RunOutcome }[] {
  const members = groupRecords(records, group);
  if (members.length === 0 || members.some((r) => r.state !== 'settled' || !r.outcome)) return [];
  const comparison = compareAnswers(members[0]!.question, members.map((r) => ({ engine: engineOf(r), outcome: hostOutcome(r), elapsedMs: r.elapsedMs ?? 0 })));
  const changes: { run: number; outcome: RunOutcome; beforeComparison: RunOutcome }[] = [];
  members.forEach((record, index) => {
    const now = comparison.rows[index]!.outcome;
    const shown = record.outcome!;
    if (now.status === 'answered' && shown.status === 'answered' && now.standing.strength !== shown.standing.strength) changes.push({ run: record.id, outcome: now, beforeComparison: hostOutcome(record) });
  });
  return changes;
}

/** A root of the Runs view: a run on its own, or the group of one ask of every engine (at its newest run's place). */
export type RunsRoot = { run: number } | { group: number };

export function runsRoots(records: readonly RunRecord[]): RunsRoot[] {
  const roots: RunsRoot[] = [];
  const seen = new Set<number>();
  for (const record of records) {
    if (record.group === undefined) roots.push({ run: record.id });
    else if (!seen.has(record.group)) {
      seen.add(record.group);
      roots.push({ group: record.group });
    }
  }
  return roots;
}

/** The group row's description: the verdict, or how many engines have answered. */
export function groupDescription(view: ComparisonView): string {
  return view.verdict ? view.verdict.message : view.progress;
}

/** `All covering engines: holds Race::Race` */
export function groupLabel(question: Question): string {
  return `All covering engines: ${question.kind} ${question.subject}`;
}
