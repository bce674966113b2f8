// The engine's protocol handlers: describe, covers and run (with cancel), on the protocol layer's server.
//
// Every run is an async task of its own, so runs proceed concurrently; a run answers `cancel` within
// 100 ms: the handler races the question's work against the cancel signal, and the work (which checks
// the signal between slices, or is interrupted: z3, worker threads) winds down behind it.
import { version } from '../../package.json';
import {
  EngineError,
  REFERENCE_ENGINE,
  referenceEngineDescription,
  serveEngine,
  type CoversParams,
  type CoversResult,
  type Description,
  type DescribeParams,
  type EngineRunRequest,
  type EngineServer,
  type EngineServerOptions,
  type RunParams,
  type RunResult,
} from '../protocol';
import { BudgetError, UnsupportedError } from '../sysml/model/errors';
import { notationAssumptions } from '../sysml/model/session';
import { RunContext } from './run';

/** One question kind the engine answers. */
export interface QuestionHandler {
  /** Whether the engine covers the question on the model, with the reason when it does not. */
  covers(params: CoversParams): CoversResult;
  run(params: RunParams, run: RunContext): Promise<RunResult>;
}

export type QuestionHandlers = Partial<Record<RunParams['question']['kind'], QuestionHandler>>;

export function describeEngine(params: DescribeParams): Description {
  if (!params.protocols.includes(REFERENCE_ENGINE.protocol)) {
    throw new EngineError('unsupported', `this engine speaks protocol ${REFERENCE_ENGINE.protocol}; the host offered ${params.protocols.join(', ')}`);
  }
  return referenceEngineDescription(version);
}

function handlerFor(questions: QuestionHandlers, kind: string): QuestionHandler | string {
  const h = questions[kind as keyof QuestionHandlers];
  if (h) return h;
  return `${kind} questions are not answered by this engine`;
}

export function coversQuestion(questions: QuestionHandlers, params: CoversParams): CoversResult {
  const h = handlerFor(questions, params.question.kind);
  if (typeof h === 'string') return { covers: false, reason: h };
  if (!params.model.sources) return { covers: false, reason: 'this engine reads the sources model form only' };
  try {
    return h.covers(params);
  } catch (e) {
    if (e instanceof UnsupportedError) return { covers: false, reason: e.message };
    throw e;
  }
}

/** Runs a question, answering within 100 ms of cancel or deadline. */
export async function runQuestion(questions: QuestionHandlers, params: RunParams, request: Pick<EngineRunRequest, 'token' | 'progress'>): Promise<RunResult> {
  const h = handlerFor(questions, params.question.kind);
  if (typeof h === 'string') throw new EngineError('unsupported', h);
  if (!params.model.sources) throw new EngineError('unsupported', 'this engine reads the sources model form only');
  // Fault injection for the engine's own tests: a bug must become `internal` and cost only that answer.
  if (process.env.ASSAY_ENGINE_TEST_FAULT !== undefined && process.env.ASSAY_ENGINE_TEST_FAULT === params.question.subject) {
    throw toEngineError(new TypeError(`injected fault for ${params.question.subject}`), new RunContext({}, []));
  }
  const run = new RunContext(params.budget, params.bounds, (counts) => request.progress(counts));
  const cancel = request.token.onCancellationRequested(() => run.stop('cancelled'));
  if (request.token.isCancellationRequested) run.stop('cancelled');
  let stopped: () => void = () => {};
  const stoppedEarly = new Promise<'stopped'>((resolve) => {
    stopped = () => resolve('stopped');
    run.signal.addEventListener('abort', stopped, { once: true });
  });
  try {
    const work = h.run(params, run);
    const first = await Promise.race([work, stoppedEarly]);
    if (first !== 'stopped') return withNotation({ ...first, elapsed: first.elapsed ?? run.elapsed() }, params);
    // The work may still finish with a definitive answer in the same turn; give it no more than that.
    const settled = await Promise.race([work.then((r) => r, () => undefined), new Promise<undefined>((r) => setTimeout(() => r(undefined), 20))]);
    work.catch(() => undefined); // the work winds down on its own; its late failure is not this run's answer
    if (settled && settled.claim !== 'none') return withNotation({ ...settled, elapsed: settled.elapsed ?? run.elapsed() }, params);
    throw stopError(run);
  } catch (e) {
    throw toEngineError(e, run);
  } finally {
    run.signal.removeEventListener('abort', stopped);
    cancel.dispose();
    run.dispose();
  }
}

/** An answer on a model written partly in OpenSysML's notation says so: it rests on reading each such
 * construct as its SysML v2 spelling. */
function withNotation(result: RunResult, params: RunParams): RunResult {
  const read = params.model.sources ? notationAssumptions(params.model.sources, params.question.subject) : [];
  if (read.length === 0) return result;
  return { ...result, assumptions: [...(result.assumptions ?? []), ...read] };
}

function stopError(run: RunContext): EngineError {
  return run.stopReason === 'deadline'
    ? new EngineError('budget', `deadline reached after ${run.elapsed()} ms`)
    : new EngineError('budget', `cancelled by the host after ${run.elapsed()} ms`);
}

function toEngineError(e: unknown, run: RunContext): unknown {
  if (e instanceof EngineError) return e;
  if (e instanceof UnsupportedError) return new EngineError('unsupported', e.message);
  if (e instanceof BudgetError) return new EngineError('budget', e.message);
  if (run.signal.aborted) return stopError(run);
  // A bug: report it as internal with enough to find it, and keep serving.
  const err = e instanceof Error ? e : new Error(String(e));
  process.stderr.write(`assay-reference: internal error: ${err.stack ?? err.message}\n`);
  return new EngineError('internal', `internal error: ${err.message}`);
}

export function startEngineServer(questions: QuestionHandlers, options: EngineServerOptions = {}): EngineServer {
  return serveEngine(
    {
      describe: (params) => describeEngine(params),
      covers: (params) => {
        try {
          return coversQuestion(questions, params);
        } catch (e) {
          throw toEngineError(e, new RunContext({}, []));
        }
      },
      run: (params, request) => runQuestion(questions, params, request),
    },
    options,
  );
}
