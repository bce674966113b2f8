// `outcomes`, `holds` and `sensitive`: the behaviour questions, answered by the semantics library
// (src/sysml/behavior) on the run's budget, with progress, cancel and deadline from the RunContext.
import type { CoversParams, CoversResult, RunParams, RunResult } from '../protocol';
import { answerBehavior, BehaviorError, compileBehavior, type BehaviorKind, type BehaviorQuestion } from '../sysml/behavior';
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
      const compiled = compileBehavior(documentsOf(model), params.question.subject);
      if (compiled instanceof BehaviorError) return { covers: false, reason: compiled.text };
      return { covers: true };
    },
    async run(params: RunParams, run: RunContext): Promise<RunResult> {
      const model = new Model(params.model.sources!);
      model.subjectChain(params.question.subject);
      const bounds = (['depth', 'steps', 'runs', 'memory'] as const)
        .filter((name) => params.bounds.some((b) => b.name === name))
        .map((name) => ({ name, limit: run.limit(name) }));
      const answer = await answerBehavior(documentsOf(model), behaviorQuestion(params, kind), {
        bounds,
        hooks: {
          cancelled: () => run.signal.aborted,
          pause: yieldNow,
          progress: (p) => run.progress({ runs: p.runs, depth: p.depth, steps: p.steps, text: p.text }),
        },
      });
      if (answer instanceof BehaviorError) throw failure(answer);
      return answer;
    },
  };
}

/** The behaviour question handlers, for the engine's dispatcher (ENGINE_QUESTIONS). */
export const BEHAVIOR_QUESTIONS: QuestionHandlers = {
  outcomes: handler('outcomes'),
  holds: handler('holds'),
  sensitive: handler('sensitive'),
};
