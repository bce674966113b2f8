// Standing: the engine claims a strength, the host decides what stands (ARCHITECTURE.md, "Standing").
import type { WitnessVerdict } from './assignment-check';
import { STRENGTHS, strengthRank, type Claim, type Model, type Question, type QuestionKind, type RunResult, type Strength, type Witness } from '../protocol';

/** Claims each question kind may be answered with; `none` (no answer) fits every kind. */
export const CLAIMS_BY_KIND: Record<QuestionKind, readonly Claim[]> = {
  evaluate: ['value', 'unbounded', 'none'],
  compute: ['value', 'table', 'unbounded', 'none'],
  outcomes: ['outcomes', 'none'],
  holds: ['holds', 'violated', 'none'],
  sensitive: ['sensitive', 'holds', 'none'],
  satisfiable: ['satisfiable', 'unsatisfiable', 'unbounded', 'none'],
  sweep: ['table', 'value', 'none'],
};

/** Claims that stand above `observed` only with a well-formed witness. */
export const CLAIMS_NEEDING_WITNESS: readonly Claim[] = ['violated', 'sensitive', 'satisfiable', 'outcomes'];

export interface Standing {
  /** What the engine claimed. */
  claimed: Strength;
  /** What stands after the policy. */
  strength: Strength;
  /** One sentence per lowering, in the order applied. Empty when claimed and standing agree. */
  reasons: string[];
  /** What the host's own re-check of the witness found, when it checked one (asking every engine: a reproduced witness decides a disagreement). */
  witnessCheck?: 'reproduced' | 'not reproduced' | 'unchecked';
}

/**
 * The host's own re-check of a witness (replay of schedules, evaluation of assignments). `ok: false`
 * (the witness does not show the claim) makes the answer stand at `not covered`; `ok: 'unchecked'` (the
 * host could not check it) at most `observed`; either with the reason shown.
 */
export interface WitnessChecker {
  /** `signal` fires when the run is stopped (deadline, Ctrl-C): the check should end then, rejecting. */
  check(question: Question, result: RunResult, model: Model, signal?: AbortSignal): Promise<WitnessVerdict>;
}

/** A claim that does not answer the question asked; the run ends in an error, not a standing. */
export class ClaimMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClaimMismatch';
  }
}

export interface StandingInput {
  engine: string;
  authority: Strength;
  question: Question;
  result: RunResult;
  model: Model;
  witnessChecker?: WitnessChecker;
  /** The run's stop signal; a check it ends leaves the witness unchecked, naming `stoppedBecause()`. */
  signal?: AbortSignal;
  stoppedBecause?: () => string;
}

export async function decideStanding(input: StandingInput): Promise<Standing> {
  const { engine, authority, question, result } = input;
  const allowed = CLAIMS_BY_KIND[question.kind];
  if (!allowed.includes(result.claim)) {
    throw new ClaimMismatch(
      `engine "${engine}" answered ${/^[aeiou]/.test(question.kind) ? 'an' : 'a'} ${question.kind} question with claim "${result.claim}", which does not fit it (expected ${allowed.join(', ')})`,
    );
  }
  const claimed = result.strength;
  let strength = claimed;
  const reasons: string[] = [];
  const cap = (limit: Strength, reason: string) => {
    if (strengthRank(strength) > strengthRank(limit)) {
      strength = limit;
      reasons.push(reason);
    }
  };

  cap(authority, `engine "${engine}" has authority ${authority}`);

  const reached = (result.bounds ?? []).filter((b) => b.reached === true);
  if (reached.length > 0) {
    const named = reached.map((b) => `${b.name} (limit ${b.limit})`).join(', ');
    cap('bounded', `the run reached ${reached.length === 1 ? 'its bound' : 'its bounds'} ${named}`);
  }

  if (CLAIMS_NEEDING_WITNESS.includes(result.claim)) {
    const problem = input.signal ? await witnessProblemYielding(question, result, input.signal) : witnessProblem(question, result);
    if (typeof problem === 'object') {
      cap('observed', `the host could not check the witness: the check was stopped before it finished: ${input.stoppedBecause?.() ?? 'the run was stopped'}`);
      return { claimed, strength, reasons };
    }
    if (problem !== undefined) cap('observed', `claim ${result.claim} needs a witness, but ${problem}`);
  }

  let witnessCheck: Standing['witnessCheck'];
  if (input.witnessChecker && strengthRank(strength) > strengthRank('not covered') && hasWitness(result)) {
    let verdict: WitnessVerdict;
    try {
      verdict = await input.witnessChecker.check(question, result, input.model, input.signal);
    } catch (error) {
      // A check that breaks, or that the run's deadline or Ctrl-C ended, is no evidence against the
      // engine, and no evidence for it either.
      verdict = input.signal?.aborted
        ? { ok: 'unchecked', reason: `the check was stopped before it finished: ${input.stoppedBecause?.() ?? 'the run was stopped'}` }
        : { ok: 'unchecked', reason: `the witness check failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    witnessCheck = verdict.ok === true ? 'reproduced' : verdict.ok === false ? 'not reproduced' : 'unchecked';
    if (verdict.ok === false) cap('not covered', `the host's ${checkName(result)} of the witness does not reproduce the claim: ${verdict.reason}`);
    else if (verdict.ok === 'unchecked') cap('observed', `the host could not check the witness: ${verdict.reason}`);
  }

  return { claimed, strength, reasons, ...(witnessCheck ? { witnessCheck } : {}) };
}

/** What the host does to check a witness: replay schedules, evaluate assignments. */
function checkName(result: RunResult): string {
  return result.claim === 'satisfiable' || result.claim === 'unbounded' ? 'evaluation' : 'replay';
}

function hasWitness(result: RunResult): boolean {
  return result.witness !== undefined || (result.executions?.length ?? 0) > 0;
}

/** Why the witness of a result is missing or malformed for its claim, or undefined when it is fine. */
export function witnessProblem(question: Question, result: RunResult): string | undefined {
  const steps = witnessProblemSteps(question, result);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * witnessProblem a slice at a time, yielding to the event loop between slices: a schedule of a million
 * steps takes seconds to read, and the run's deadline and Ctrl-C (`signal`) must still be heard.
 * Resolves to `stopped` when the signal fired first.
 */
async function witnessProblemYielding(question: Question, result: RunResult, signal: AbortSignal): Promise<string | undefined | { stopped: true }> {
  const steps = witnessProblemSteps(question, result);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) return { stopped: true };
  }
}

/** How many schedule lines are read between two yields. */
const LINES_PER_SLICE = 20_000;

function* witnessProblemSteps(question: Question, result: RunResult): Generator<void, string | undefined> {
  const scheduleProblem = (schedule: string, witness: Witness) => scheduleProblemSteps(schedule, witness);
  switch (result.claim) {
    case 'violated': {
      if (!result.witness) return 'none was returned';
      const w = result.witness;
      if (w.schedules !== undefined) {
        if (w.schedules.length !== 1) return `a violation needs one schedule, the witness has ${w.schedules.length}`;
        return yield* scheduleProblem(w.schedules[0]!, w);
      }
      if (w.inputs !== undefined) return undefined; // an assignment witness
      return 'the witness has neither a schedule nor inputs';
    }
    case 'sensitive': {
      if (!result.witness) return 'none was returned';
      const w = result.witness;
      if (w.schedules?.length !== 2) return `a sensitive claim needs two schedules, the witness has ${w.schedules?.length ?? 0}`;
      if (!w.feature) return 'the witness does not name the feature the schedules diverge on';
      return (yield* scheduleProblem(w.schedules[0]!, w)) ?? (yield* scheduleProblem(w.schedules[1]!, w));
    }
    case 'satisfiable': {
      if (!result.witness) return 'none was returned';
      if (result.witness.inputs === undefined) return 'the witness has no inputs (an assignment witness is inputs alone)';
      if (result.witness.schedules !== undefined) return 'an assignment witness must not carry schedules';
      return undefined;
    }
    case 'outcomes': {
      const executions = result.executions ?? [];
      if (executions.length === 0) return 'no executions were returned';
      for (const [index, execution] of executions.entries()) {
        if (execution.schedules === undefined && execution.inputs === undefined) {
          return `execution ${index + 1} has neither a schedule nor inputs`;
        }
        if (execution.schedules !== undefined) {
          if (execution.schedules.length !== 1) return `execution ${index + 1} needs one schedule, it has ${execution.schedules.length}`;
          const problem = yield* scheduleProblem(execution.schedules[0]!, execution);
          if (problem) return `execution ${index + 1}: ${problem}`;
        }
      }
      void question;
      return undefined;
    }
    default:
      return undefined;
  }
}

const STEP_LINE = /^step ([1-9][0-9]*): (\S+)@(.+?) first of (.+)$/;

/** A schedule replays as lines `step N: <token>@<node> first of <token>@<node>, ...`, N from 1. */
export function scheduleProblem(schedule: string, witness: Witness): string | undefined {
  const steps = scheduleProblemSteps(schedule, witness);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

function* scheduleProblemSteps(schedule: string, witness: Witness): Generator<void, string | undefined> {
  // Line by line with indexOf, not split: a million-step schedule need not exist twice in memory.
  let index = 0;
  for (let from = 0; from <= schedule.length; ) {
    let end = schedule.indexOf('\n', from);
    if (end < 0) end = schedule.length;
    const line = schedule.slice(from, end);
    from = end + 1;
    if (line.trim().length === 0) continue;
    if (index > 0 && index % LINES_PER_SLICE === 0) yield;
    const match = STEP_LINE.exec(line.trim());
    if (!match) return `schedule line ${index + 1} is not "step N: <token>@<node> first of ...": ${JSON.stringify(line.slice(0, 120))}`;
    if (Number(match[1]) !== index + 1) return `schedule line ${index + 1} is numbered step ${match[1]}`;
    const chosen = `${match[2]}@${match[3]}`;
    const enabled = match[4]!.split(',').map((s) => s.trim());
    if (!enabled.includes(chosen)) return `schedule step ${index + 1} chose ${chosen}, which is not among the enabled moves`;
    index++;
  }
  if (witness.at !== undefined && witness.at > index) {
    return `the witness points at move ${witness.at}, but the schedule has ${index} moves`;
  }
  return undefined;
}

export { STRENGTHS };
export type { WitnessVerdict };
