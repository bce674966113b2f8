// `outcomes`, `holds` and `sensitive`: the behaviour questions, answered by the semantics library
// (src/sysml/behavior) on the run's budget, with progress, cancel and deadline from the RunContext.
import type { CoversParams, CoversResult, RunParams, RunResult } from '../protocol';
import { answerBehavior, BehaviorError, boundKeys, compileBehavior, type BehaviorKind, type BehaviorQuestion } from '../sysml/behavior';
import { BudgetError, UnsupportedError } from '../sysml/model/errors';
import { yieldNow, type RunContext } from './run';
import type { QuestionHandler, QuestionHandlers } from './server';
import { Model } from '../sysml/model/session';

function documentsOf(model: Model) {
  return model.index.documents;
}

function failure(e: BehaviorError): Error {
  return e.code === 'budget' ? new BudgetError(e.message.startsWith('cancelled') ? 'cancelled by the host' : e.text) : new UnsupportedError(e.text);
}

function behaviorQuestion(params: RunParams | CoversParams, kind: BehaviorKind): BehaviorQuestion {
  const q = params.question;
  return {
    kind,
    subject: q.subject,
    schedule: q.schedule,
    free: q.free,
    clockStep: q.clockStep,
    modelSeed: q.modelSeed,
    draws: q.draws,
    condition: q.condition,
    conditions: q.conditions,
    bindings: q.bindings,
    inputs: q.inputs,
  };
}

function handler(kind: BehaviorKind): QuestionHandler {
  return {
    covers(params: CoversParams): CoversResult {
      const model = new Model(params.model.sources!);
      model.subjectChain(params.question.subject); // refuses a missing subject or a syntax error, with its place
      const compiled = compileBehavior(documentsOf(model), params.question.subject, boundKeys(params.question.bindings));
      if (compiled instanceof BehaviorError) return { covers: false, reason: compiled.text };
      return { covers: true };
    },
    async run(params: RunParams, run: RunContext): Promise<RunResult> {
      const model = new Model(params.model.sources!);
      model.subjectChain(params.question.subject);
      const bounds = (['depth', 'steps', 'runs', 'memory'] as const)
        .filter((name) => params.bounds.some((b) => b.name === name))
        .map((name) => ({ name, limit: run.limit(name) }));
      // What was explored so far, kept for an answer that a cancel or the deadline cuts short.
      const seen = { states: 0, steps: 0, depth: 0, runs: 0 };
      const answer = await answerBehavior(documentsOf(model), behaviorQuestion(params, kind), {
        bounds,
        hooks: {
          cancelled: () => run.signal.aborted,
          pause: yieldNow,
          progress: (p) => {
            seen.states = p.states ?? seen.states;
            seen.steps = p.steps ?? seen.steps;
            seen.depth = Math.max(seen.depth, p.depth ?? 0);
            seen.runs = p.runs ?? seen.runs;
            // One number format (41,200), and no `0 runs` while no execution has ended yet.
            run.progress({
              ...(p.runs ? { runs: p.runs } : {}), depth: p.depth, steps: p.steps,
              text: p.states !== undefined ? `${count(p.states)} states` : p.text,
            });
          },
        },
      });
      if (answer instanceof BehaviorError) {
        if (answer.code === 'budget' && run.signal.aborted) {
          const stopped = run.stopReason === 'deadline' ? 'at its deadline' : 'when it was cancelled';
          const explored = `${count(seen.states)} states, ${count(seen.steps)} moves, depth ${count(seen.depth)}`;
          // A holds search cut short keeps what it found: no violation in the states explored, bounded by them.
          if (kind === 'holds' && seen.steps > 0) {
            return {
              claim: 'holds', strength: 'bounded',
              bounds: [{ name: 'steps', limit: seen.steps, reached: true }],
              reason: `no violation up to here: ${explored} explored before the run stopped ${stopped}`,
            };
          }
          throw new BudgetError(`stopped ${stopped} after ${explored}`);
        }
        throw failure(answer);
      }
      return answer;
    },
  };
}

const count = (n: number) => n.toLocaleString('en-US');

/** The behaviour question handlers, for the engine's dispatcher (ENGINE_QUESTIONS). */
export const BEHAVIOR_QUESTIONS: QuestionHandlers = {
  outcomes: handler('outcomes'),
  holds: handler('holds'),
  sensitive: handler('sensitive'),
};
