// The words and numbers the editor shows for a run: status bar text, progress messages, settled
// notifications, Runs view rows and the result JSON; and the throttle that keeps progress at a
// readable rate. Pure: no vscode.
import type { RunOutcome } from '../../host';
import type { ProgressParams, Question } from '../../protocol';
import { computedText, tableText } from './askInputs';
import { engineFailed } from '../../host/question-check';

export type Progress = Omit<ProgressParams, 'id'>;

/** What the text functions need of a run (RunRecord has all of it). */
export interface RunView {
  id: number;
  question: Question;
  state: 'queued' | 'running' | 'settled';
  engine?: string;
  waitingFor?: string;
  progress?: Progress;
  outcome?: RunOutcome;
  elapsedMs?: number;
  /** When it was asked (epoch ms): a running run shows the time since. */
  askedAt?: number;
}

const count = (n: number) => n.toLocaleString('en-US');

/** `holds TrafficLight::TimedCrossing` */
export function questionText(question: Pick<Question, 'kind' | 'subject'>): string {
  return `${question.kind} ${question.subject}`;
}

/**
 * `41,200 steps · depth 18 · 3 runs · text · 2.4 s`, empty when the engine said nothing yet. Numbers in
 * one format; no `0 runs` (a holds search ends no execution until it does); the time since it was asked.
 */
export function progressCounts(progress: Progress | undefined, elapsedMs?: number): string {
  const parts: string[] = [];
  if (progress) {
    if (progress.steps !== undefined) parts.push(`${count(progress.steps)} steps`);
    if (progress.depth !== undefined) parts.push(`depth ${count(progress.depth)}`);
    if (progress.runs) parts.push(`${count(progress.runs)} ${progress.runs === 1 ? 'run' : 'runs'}`);
    if (progress.text) parts.push(progress.text.replace(/\b\d{4,}\b/g, (n) => count(Number(n))));
  }
  if (parts.length > 0 && elapsedMs !== undefined) parts.push(durationText(elapsedMs));
  return parts.join(' · ');
}

/** `7 ms`, `2.4 s`, `1 min 5 s` */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

const CLAIM_ICONS: Record<string, string> = {
  holds: '$(pass)', satisfiable: '$(pass)', value: '$(pass)', table: '$(pass)', outcomes: '$(pass)',
  violated: '$(error)', unsatisfiable: '$(error)', sensitive: '$(warning)', unbounded: '$(warning)', none: '$(question)',
};

/** The strength shown for an answer: the standing one, with the claimed one when they differ. */
export function strengthText(outcome: Extract<RunOutcome, { status: 'answered' }>): string {
  const { claimed, strength } = outcome.standing;
  return claimed === strength ? strength : `${strength} (claimed ${claimed})`;
}

/** One line for the status bar. */
export function statusText(run: RunView): string {
  const asked = questionText(run.question);
  // Every run is queued until an engine takes it; only one that waits for a busy engine says so.
  if (run.state === 'queued' && run.waitingFor) return `$(clock) ${asked} · queued for ${run.waitingFor}`;
  if (run.state === 'running' || !run.outcome) {
    const counts = progressCounts(run.progress, run.askedAt !== undefined ? Date.now() - run.askedAt : undefined);
    return `$(sync~spin) ${asked} · ${counts || (run.engine ? `running on ${run.engine}` : 'starting')}`;
  }
  const o = run.outcome;
  switch (o.status) {
    case 'answered':
      return `${CLAIM_ICONS[o.result.claim] ?? '$(info)'} ${o.result.claim} — ${strengthText(o)}`;
    case 'not covered':
      return engineFailed(o) ? `$(error) engine error — ${asked}` : `$(circle-slash) not covered — ${asked}`;
    case 'cancelled':
      return `$(circle-slash) cancelled — ${asked}`;
    case 'budget':
      return `$(watch) out of budget — ${asked}`;
    case 'error':
      return `$(error) engine error — ${asked}`;
  }
}

/** Why a run ended as it did, in one sentence (the reasons of each engine for `not covered`). */
export function outcomeReason(outcome: RunOutcome): string {
  switch (outcome.status) {
    case 'answered': {
      const reasons = [outcome.result.reason, ...outcome.standing.reasons].filter((r): r is string => Boolean(r));
      return reasons.join('; ');
    }
    case 'not covered':
      return outcome.reasons.length === 0 ? 'no engine is configured' : outcome.reasons.map((r) => `${r.engine} ${r.reason}`).join('; ');
    default:
      return outcome.message;
  }
}

/** The settled notification: `holds TrafficLight::TimedCrossing — violated (proved): safety fails after step 2`. */
export function settledMessage(run: RunView): string {
  const o = run.outcome;
  const asked = questionText(run.question);
  if (!o) return asked;
  const took = run.elapsedMs !== undefined ? ` in ${durationText(run.elapsedMs)}` : '';
  switch (o.status) {
    case 'answered': {
      // A computed value or table is the answer itself: it leads, the engine's reason follows.
      const shown = o.result.claim === 'value' ? computedText(o.result.values) : o.result.claim === 'table' ? tableText(o.result.values) : '';
      const reason = [shown, outcomeReason(o)].filter(Boolean).join('; ');
      return `${asked} — ${o.result.claim} (${strengthText(o)}) by ${o.engine}${took}${reason ? `: ${reason}` : ''}`;
    }
    case 'not covered':
      return engineFailed(o)
        ? `${asked} — engine error: ${o.reasons.map((r) => r.reason).join('; ')}`
        : `${asked} — not covered: ${outcomeReason(o)}`;
    case 'cancelled':
      return `${asked} — cancelled${took}`;
    case 'budget':
      return `${asked} — out of budget: ${o.message}`;
    case 'error':
      return `${asked} — ${o.message}`;
  }
}

/** Whether an answer is a value or a table the panel shows (its `Show` button). */
export function hasValues(outcome: RunOutcome | undefined): boolean {
  return outcome?.status === 'answered' && (outcome.result.claim === 'value' || outcome.result.claim === 'table') && (outcome.result.values?.length ?? 0) > 0;
}

/** Whether an answer carries a witness the witness panel can show. */
export function hasWitness(outcome: RunOutcome | undefined): boolean {
  if (outcome?.status !== 'answered') return false;
  const r = outcome.result;
  return Boolean(r.witness?.schedules?.length || r.witness?.inputs?.length || r.executions?.length);
}

/** The condition a holds run checks, as the user gave it (`safety`, `quick = not (a and b)`), or the
 * subject's asserted constraints when none was given; null for kinds without a condition. */
export function conditionText(question: Pick<RunView['question'], 'kind' | 'subject' | 'condition'>): string | null {
  const c = question.condition;
  if (c) return `${c.name}${c.text ? ` = ${c.text}` : ''}`;
  return question.kind === 'holds' ? `the asserted constraints of ${question.subject}` : null;
}

/** A Runs view row: label, description and the detail lines shown under it. */
export function runsEntry(run: RunView): { label: string; description: string; details: string[] } {
  const label = questionText(run.question);
  const o = run.outcome;
  const details: string[] = [];
  if (run.engine) details.push(`engine: ${run.engine}`);
  if (run.question.schedule) details.push(`schedule: ${run.question.schedule}`);
  const condition = conditionText(run.question);
  if (condition) details.push(`condition: ${condition}`);
  if (run.question.bindings?.length) details.push(`bound: ${run.question.bindings.map((b) => `${b.name} = ${String(b.value)}${b.unit ? ` [${b.unit}]` : ''}`).join(', ')}`);
  if (run.state !== 'settled' || !o) {
    const counts = progressCounts(run.progress);
    const description = run.state === 'queued'
      ? (run.waitingFor ? `queued for ${run.waitingFor}` : 'starting')
      : `running${counts ? ` · ${counts}` : ''}`;
    return { label, description, details };
  }
  const took = run.elapsedMs !== undefined ? durationText(run.elapsedMs) : '';
  let description: string;
  if (o.status === 'answered') {
    description = [o.result.claim, strengthText(o), o.engine, took].filter(Boolean).join(' · ');
    details.push(`claim: ${o.result.claim} (claimed ${o.standing.claimed})`, `standing: ${o.standing.strength}`);
    for (const reason of o.standing.reasons) details.push(`lowered: ${reason}`);
    if (o.result.reason) details.push(`reason: ${o.result.reason}`);
  } else {
    description = [engineFailed(o) ? 'engine error' : o.status, took].filter(Boolean).join(' · ');
    details.push(`${o.status}: ${outcomeReason(o)}`);
  }
  if (took) details.push(`duration: ${took}`);
  return { label, description, details };
}

/** The JSON a user copies from the Runs view (the CLI's --json shape, plus the run's id and duration). */
export function resultJson(run: RunView): string {
  const o = run.outcome;
  const condition = conditionText(run.question);
  const base = { run: run.id, question: run.question, ...(condition ? { condition } : {}), ...(run.elapsedMs !== undefined ? { elapsedMs: run.elapsedMs } : {}) };
  let body: Record<string, unknown>;
  if (!o) body = { ...base, state: run.state };
  else if (o.status === 'answered') body = { ...base, engine: o.engine, result: o.result, standing: o.standing };
  else if (o.status === 'not covered') body = { ...base, error: { status: o.status, message: `not covered: ${outcomeReason(o)}`, reasons: o.reasons } };
  else body = { ...base, error: { status: o.status, message: o.message, ...(o.engine ? { engine: o.engine } : {}) } };
  return JSON.stringify(body, null, 2);
}

export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Passes values on at most once per interval: the first at once, later ones when the interval since
 * the last delivery has passed, the newest value winning (none is delivered twice, the last is never lost).
 */
export class Throttle<T> {
  private lastAt = -Infinity;
  private pending: { value: T } | undefined;
  private timer: unknown;

  constructor(
    private readonly intervalMs: number,
    private readonly deliver: (value: T) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  push(value: T): void {
    this.pending = { value };
    if (this.timer !== undefined) return;
    const wait = this.lastAt + this.intervalMs - this.timers.now();
    if (wait <= 0) this.flush();
    else this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  /** Delivers the pending value now, if any. */
  flush(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.lastAt = this.timers.now();
    this.deliver(pending.value);
  }

  /** Drops the pending value. */
  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }
}
