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
  check(question: Question, result: RunResult, model: Model): Promise<WitnessVerdict>;
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
    const problem = witnessProblem(question, result);
    if (problem !== undefined) cap('observed', `claim ${result.claim} needs a witness, but ${problem}`);
  }

  let witnessCheck: Standing['witnessCheck'];
  if (input.witnessChecker && strengthRank(strength) > strengthRank('not covered') && hasWitness(result)) {
    let verdict: WitnessVerdict;
    try {
      verdict = await input.witnessChecker.check(question, result, input.model);
    } catch (error) {
      // A check that breaks is no evidence against the engine, and no evidence for it either.
      verdict = { ok: 'unchecked', reason: `the witness check failed: ${error instanceof Error ? error.message : String(error)}` };
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
  switch (result.claim) {
    case 'violated': {
      if (!result.witness) return 'none was returned';
      const w = result.witness;
      if (w.schedules !== undefined) {
        if (w.schedules.length !== 1) return `a violation needs one schedule, the witness has ${w.schedules.length}`;
        return scheduleProblem(w.schedules[0]!, w);
      }
      if (w.inputs !== undefined) return undefined; // an assignment witness
      return 'the witness has neither a schedule nor inputs';
    }
    case 'sensitive': {
      if (!result.witness) return 'none was returned';
      const w = result.witness;
      if (w.schedules?.length !== 2) return `a sensitive claim needs two schedules, the witness has ${w.schedules?.length ?? 0}`;
      if (!w.feature) return 'the witness does not name the feature the schedules diverge on';
      return scheduleProblem(w.schedules[0]!, w) ?? scheduleProblem(w.schedules[1]!, w);
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
          const problem = scheduleProblem(execution.schedules[0]!, execution);
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
  const lines = schedule.split('\n').filter((line) => line.trim().length > 0);
  for (const [index, line] of lines.entries()) {
    const match = STEP_LINE.exec(line.trim());
    if (!match) return `schedule line ${index + 1} is not "step N: <token>@<node> first of ...": ${JSON.stringify(line.slice(0, 120))}`;
    if (Number(match[1]) !== index + 1) return `schedule line ${index + 1} is numbered step ${match[1]}`;
    const chosen = `${match[2]}@${match[3]}`;
    const enabled = match[4]!.split(',').map((s) => s.trim());
    if (!enabled.includes(chosen)) return `schedule step ${index + 1} chose ${chosen}, which is not among the enabled moves`;
  }
  if (witness.at !== undefined && witness.at > lines.length) {
    return `the witness points at move ${witness.at}, but the schedule has ${lines.length} moves`;
  }
  return undefined;
}

export { STRENGTHS };
export type { WitnessVerdict };
