// Asking every covering engine: one question to each engine that takes it, and one comparison of
// what they answered. A disagreement is a result of its own: a witness the host reproduced decides it,
// and one without a deciding witness is reported as unresolved, never hidden.
// Types only: the editor's activation bundle draws the comparison and must not load zod.
import type { Claim, Question, QuestionKind, Strength, Value } from '../protocol';
import type { AskRequest, Host, Run, RunOutcome } from './host';

/** One engine's part of an ask-all: its outcome (standing as decided after the comparison) and its time. */
export interface EngineAnswer {
  engine: string;
  outcome: RunOutcome;
  elapsedMs: number;
}

/** A line of the comparison table: engine, claim, claimed and standing strength, time, reason. */
export interface ComparedRow {
  engine: string;
  status: RunOutcome['status'];
  claim?: Claim;
  claimed?: Strength;
  strength?: Strength;
  elapsedMs: number;
  /** The engine's reason, the reason it does not cover the question, or why it failed. */
  reason: string;
  /** Why the standing is below the claim (the standing policy and the comparison). */
  standingReasons: string[];
  outcome: RunOutcome;
}

/** Where two standing answers differ: a claim, or the named values (`x: a = 3, b = 4`). */
export interface Difference {
  /** What differs: `claim`, `outcomes` (the outcome sets, each engine's as `{(end = done, x = 1), …}`) or a value's name. */
  what: string;
  /** Each engine's side, as text. */
  by: { engine: string; text: string }[];
}

export type Verdict =
  /** Every answer that stands says the same (one answer included). */
  | { status: 'agree'; claim: Claim; engines: string[]; message: string }
  /** The answers differed and a reproduced witness decided it; the contradicted answers stand at `not covered`. */
  | { status: 'decided'; claim: Claim; by: string[]; contradicted: string[]; message: string }
  /** The answers differ and no reproduced witness decides: exit code 5. */
  | { status: 'unresolved'; differences: Difference[]; moreDifferences?: number; message: string }
  /** No engine gave an answer that stands. */
  | { status: 'no answer'; message: string };

export interface Comparison {
  question: Question;
  rows: ComparedRow[];
  verdict: Verdict;
}

/** For each claim a reproduced witness shows, the claims it refutes. */
const REFUTES: Partial<Record<Claim, readonly Claim[]>> = {
  violated: ['holds'],
  sensitive: ['holds'],
  satisfiable: ['unsatisfiable'],
};

/** Most differences a verdict lists. */
export const MAX_DIFFERENCES = 100;

/** Relative tolerance under which two numbers are the same value (engines round differently). */
const RELATIVE_TOLERANCE = 1e-9;

/** Asks each engine on its own (the host's routing decides per engine; slots keep non-concurrent engines to one run). */
export function askAll(host: Host, request: Omit<AskRequest, 'engine'>): { runs: { engine: string; run: Run }[]; settled: Promise<Comparison>; cancel(): void } {
  const askedAt = Date.now();
  // An engine's time runs from its run request (not from starting its process or routing).
  const startedAt = new Map<number, number>();
  const stopListening = host.onEvent((event) => {
    if (event.type === 'started') startedAt.set(event.run, Date.now());
  });
  const runs = host.engines.map((engine) => ({ engine: engine.name, run: host.ask({ ...request, engine: engine.name }) }));
  const settled = Promise.all(
    runs.map(async ({ engine, run }): Promise<EngineAnswer> => {
      const outcome = await run.settled;
      return { engine, outcome, elapsedMs: Date.now() - (startedAt.get(run.id) ?? askedAt) };
    }),
  )
    .then((answers) => compareAnswers(request.question, answers))
    .finally(stopListening);
  return { runs, settled, cancel: () => runs.forEach(({ run }) => run.cancel()) };
}

/** Whether an answer counts in the comparison: answered, with a claim, standing above `not covered`. */
function stands(outcome: RunOutcome): outcome is Extract<RunOutcome, { status: 'answered' }> {
  return outcome.status === 'answered' && outcome.result.claim !== 'none' && outcome.standing.strength !== 'not covered';
}

/** Compares the engines' answers; lowers the answers a reproduced witness contradicts. Pure. */
export function compareAnswers(question: Question, answers: readonly EngineAnswer[]): Comparison {
  const outcomes = new Map(answers.map((a) => [a.engine, a.outcome] as const));
  let standing = answers.filter((a) => stands(a.outcome));
  let decided: { claim: Claim; by: string[]; contradicted: string[] } | undefined;

  if (distinctKeys(question.kind, standing).length > 1) {
    // Claims whose witness the host reproduced itself: they refute the opposite claim of the others.
    const deciding = standing.filter((a) => {
      const o = a.outcome as Extract<RunOutcome, { status: 'answered' }>;
      return o.standing.witnessCheck === 'reproduced' && REFUTES[o.result.claim] !== undefined;
    });
    const claims = [...new Set(deciding.map((a) => (a.outcome as Extract<RunOutcome, { status: 'answered' }>).result.claim))];
    if (claims.length === 1) {
      const claim = claims[0]!;
      const refuted = REFUTES[claim]!;
      const by = deciding.map((a) => a.engine);
      const reason = `contradicted by ${by.join(' and ')}'s replayed witness`;
      const contradicted: string[] = [];
      for (const a of standing) {
        const o = a.outcome as Extract<RunOutcome, { status: 'answered' }>;
        if (!refuted.includes(o.result.claim)) continue;
        contradicted.push(a.engine);
        outcomes.set(a.engine, { ...o, standing: { ...o.standing, strength: 'not covered', reasons: [...o.standing.reasons, reason] } });
      }
      standing = standing.filter((a) => !contradicted.includes(a.engine)).map((a) => ({ ...a, outcome: outcomes.get(a.engine)! }));
      if (contradicted.length > 0) decided = { claim, by, contradicted };
    }
  }

  const rows = answers.map((a) => rowOf(a.engine, outcomes.get(a.engine)!, a.elapsedMs));
  const keys = distinctKeys(question.kind, standing);
  let verdict: Verdict;
  if (standing.length === 0) {
    verdict = { status: 'no answer', message: `no engine gave an answer that stands (${answers.length} asked)` };
  } else if (keys.length > 1) {
    const all = differencesOf(standing);
    const named = all.slice(0, 3).map(differenceText).join('; ') + (all.length > 3 ? `; and ${all.length - 3} more values differ` : '');
    verdict = {
      status: 'unresolved',
      // A table of a million rows may differ everywhere: the first MAX_DIFFERENCES are kept, and counted.
      differences: all.slice(0, MAX_DIFFERENCES),
      ...(all.length > MAX_DIFFERENCES ? { moreDifferences: all.length - MAX_DIFFERENCES } : {}),
      message: `unresolved disagreement: ${named}; no witness the host reproduced decides it`,
    };
  } else {
    const claim = (standing[0]!.outcome as Extract<RunOutcome, { status: 'answered' }>).result.claim;
    const engines = standing.map((a) => a.engine);
    verdict = decided
      ? {
          status: 'decided', claim, by: decided.by, contradicted: decided.contradicted,
          message: `${claim}, decided by ${decided.by.join(' and ')}'s replayed witness; ${decided.contradicted.map((e) => `${e}'s ${(answers.find((a) => a.engine === e)!.outcome as Extract<RunOutcome, { status: 'answered' }>).result.claim}`).join(' and ')} does not stand`,
        }
      : { status: 'agree', claim, engines, message: engines.length === 1 ? `${claim}, answered by ${engines[0]} alone` : `${claim}: ${engines.join(', ')} agree` };
  }
  return { question, rows, verdict };
}

function rowOf(engine: string, outcome: RunOutcome, elapsedMs: number): ComparedRow {
  switch (outcome.status) {
    case 'answered':
      return {
        engine, status: outcome.status, claim: outcome.result.claim, claimed: outcome.standing.claimed, strength: outcome.standing.strength,
        elapsedMs: outcome.result.elapsed ?? elapsedMs, reason: outcome.result.reason ?? '', standingReasons: outcome.standing.reasons, outcome,
      };
    case 'not covered':
      return { engine, status: outcome.status, elapsedMs, reason: outcome.reasons.map((r) => r.reason).join('; '), standingReasons: [], outcome };
    default:
      return { engine, status: outcome.status, elapsedMs, reason: outcome.message, standingReasons: [], outcome };
  }
}

/**
 * An `outcomes` answer's outcome set: outcome k's end values are named `<feature>@<k>`
 * (docs/protocol-notes.md). Each outcome becomes one text of its sorted values, and the texts are sorted,
 * so two engines that number the same outcomes in another order agree.
 */
function outcomeSet(values: readonly Value[]): string[] {
  const byOutcome = new Map<string, Value[]>();
  for (const v of values) {
    const m = /^(.+)@(\d+)$/.exec(v.name);
    const k = m ? m[2]! : '';
    const list = byOutcome.get(k) ?? [];
    list.push({ ...v, name: m ? m[1]! : v.name });
    byOutcome.set(k, list);
  }
  return [...byOutcome.values()]
    .map((vs) => vs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((v) => `${v.name} = ${valueText({ ...v, value: normal(v.value) })}`).join(', '))
    .sort();
}

/**
 * What two answers must share to agree: the claim; for values and tables every value; for outcomes the
 * set of outcomes (two engines both claiming `outcomes` with different end states disagree).
 */
function keyOf(outcome: Extract<RunOutcome, { status: 'answered' }>): string {
  const { claim, values } = outcome.result;
  if (claim === 'outcomes') return `${claim}:${JSON.stringify(outcomeSet(values ?? []))}`;
  if ((claim === 'value' || claim === 'table') && values) {
    const sorted = [...values].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return `${claim}:${JSON.stringify(sorted.map((v) => [v.name, normal(v.value), v.unit ?? '']))}`;
  }
  return claim;
}

/** Numbers rounded to the comparison tolerance, so 0.1+0.2 and 0.3 are one value. */
function normal(value: Value['value']): Value['value'] {
  if (typeof value !== 'number' || !Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(Math.round(-Math.log10(RELATIVE_TOLERANCE))));
}

function distinctKeys(_kind: QuestionKind, answers: readonly EngineAnswer[]): string[] {
  return [...new Set(answers.map((a) => keyOf(a.outcome as Extract<RunOutcome, { status: 'answered' }>)))];
}

function valueText(v: Value | undefined): string {
  if (!v) return 'absent';
  const text = typeof v.value === 'string' ? JSON.stringify(v.value) : String(v.value);
  return v.unit ? `${text} [${v.unit}]` : text;
}

/** The claims when they differ; otherwise each value whose name or value differs. */
function differencesOf(answers: readonly EngineAnswer[]): Difference[] {
  const answered = answers.map((a) => ({ engine: a.engine, result: (a.outcome as Extract<RunOutcome, { status: 'answered' }>).result }));
  const claims = new Set(answered.map((a) => a.result.claim));
  if (claims.size > 1) {
    return [{ what: 'claim', by: answered.map((a) => ({ engine: a.engine, text: a.result.claim })) }];
  }
  if (claims.has('outcomes')) {
    const texts = (r: (typeof answered)[number]['result']) => outcomeSet(r.values ?? []);
    const text = (set: string[]) => `{${set.map((o) => `(${o})`).join(', ')}}`;
    return [{ what: 'outcomes', by: answered.map((a) => ({ engine: a.engine, text: text(texts(a.result)) })) }];
  }
  const names = [...new Set(answered.flatMap((a) => (a.result.values ?? []).map((v) => v.name)))];
  const differences: Difference[] = [];
  for (const name of names) {
    const by = answered.map((a) => {
      const v = a.result.values?.find((x) => x.name === name);
      return { engine: a.engine, text: valueText(v), key: v ? JSON.stringify([normal(v.value), v.unit ?? '']) : 'absent' };
    });
    if (new Set(by.map((b) => b.key)).size > 1) differences.push({ what: name, by: by.map(({ engine, text }) => ({ engine, text })) });
  }
  return differences;
}

/** `claim: a holds, b violated` or `x: a = 3, b = 4` (at most 3 differences named, then a count). */
export function differenceText(d: Difference): string {
  return d.what === 'claim' || d.what === 'outcomes' ? `${d.what}: ${d.by.map((b) => `${b.engine} ${b.text}`).join(', ')}` : `${d.what}: ${d.by.map((b) => `${b.engine} = ${b.text}`).join(', ')}`;
}
