// The host: routes a question to an engine, runs it under a budget, lets it be cancelled, decides what
// stands, and reports everything as typed events so the editor and the CLI stay thin.
import {
  EMBEDDED_LIBRARY_VERSION, Question, describeIssues,
  type Bound, type Budget, type Graphs, type Model, type ModelForm, type ProgressParams, type RunResult, type SourceDocument,
} from '../protocol';
import type { EngineCapabilities } from './describe-check';
import { EngineFailure, EngineProcess, seconds, type EngineProcessOptions } from './engine-process';
import type { EngineEntry } from './manifest';
import { ClaimMismatch, decideStanding, type Standing, type WitnessChecker } from './standing';

/** What the host needs from the SysML front end; injected so the host does not depend on the parser. */
export interface ModelIndex {
  /**
   * The subject's declaration kind as manifests spell it (`action`, `state`, …), or undefined when the
   * model does not declare it exactly once. May answer later (a worker parses the model); `signal`
   * fires when the run no longer needs the answer (its deadline, Ctrl-C).
   */
  subjectKindOf(subject: string, documents: readonly SourceDocument[], signal?: AbortSignal): string | undefined | Promise<string | undefined>;
  /** Lowers the subject and every behavior it performs to `graphs:1`, or says why it cannot. */
  lowerToGraphs?(subject: string, documents: readonly SourceDocument[], signal?: AbortSignal): Graphs | { error: string } | Promise<Graphs | { error: string }>;
}

/** Budget as the user sets it: the deadline in seconds from now, other limits as counts (0 = open). */
export interface BudgetLimits {
  deadline?: number;
  depth?: number;
  steps?: number;
  runs?: number;
  memory?: number;
  jobs?: number;
}

export interface AskRequest {
  question: Question;
  /** The model's documents (path as the user named it, and text). */
  documents: SourceDocument[];
  budget?: BudgetLimits;
  /** Ask only this engine. */
  engine?: string;
}

export interface EngineReason {
  engine: string;
  reason: string;
  /** The engine itself failed (could not start, crashed, timed out) rather than declining the question. */
  failed?: boolean;
}

export type RunOutcome =
  | { status: 'answered'; engine: string; result: RunResult; standing: Standing }
  | { status: 'not covered'; reasons: EngineReason[] }
  | { status: 'cancelled'; message: string; engine?: string }
  | { status: 'budget'; message: string; engine?: string }
  | { status: 'error'; message: string; engine?: string };

export type RunEvent =
  | { type: 'queued'; run: number; question: Question; waitingFor?: string }
  | { type: 'started'; run: number; engine: string; requestId: number; /** The question as sent (with the host's subjectKind). */ question: Question; modelForm: ModelForm; bounds: Bound[]; budget: Budget }
  | { type: 'progress'; run: number; engine: string; progress: Omit<ProgressParams, 'id'> }
  /** The engine answered with a witness and the host checks it (a long replay may take a while). */
  | { type: 'checking'; run: number; engine: string; schedules: number; steps: number }
  | { type: 'settled'; run: number; outcome: RunOutcome; elapsedMs: number };

export interface HostOptions extends EngineProcessOptions {
  entries: EngineEntry[];
  /** How long a cancelled run may take to answer before its engine is killed (default 2 s). */
  cancelGraceMs?: number;
  /**
   * Shut an engine down once a run the user cancelled has settled and no other run is going (the
   * editor: a cancelled search may leave the engine holding a large heap; the next question starts it
   * afresh, while the user picks). Off by default.
   */
  stopEngineAfterCancel?: boolean;
  modelIndex?: ModelIndex;
  witnessChecker?: WitnessChecker;
}

export interface EngineCheck {
  name: string;
  entry: EngineEntry;
  ok: boolean;
  capabilities?: EngineCapabilities;
  problem?: string;
}

/** The model forms this host can serve: sources always, graphs:1 when lowering is available. Never rdf. */
export const SERVED_MODEL_FORMS = ['sources', 'graphs:1'] as const;

type Listener<T> = (value: T) => void;

/** A question being answered. `settled` never rejects. */
export class Run {
  /** Fires when the run is stopped or settles: the host's own work for it (parsing, replay) ends then. */
  private readonly controller = new AbortController();
  /** What the host is doing for the run before an engine runs it, for the message a stop settles with. */
  phase = 'the host prepared the question';
  private stopHandler: ((kind: 'cancel' | 'deadline') => void) | undefined;
  private stopRequested: 'cancel' | 'deadline' | undefined;
  outcome: RunOutcome | undefined;
  readonly settled: Promise<RunOutcome>;
  private resolveSettled!: (outcome: RunOutcome) => void;

  constructor(
    readonly id: number,
    readonly question: Question,
  ) {
    this.settled = new Promise((resolve) => (this.resolveSettled = resolve));
  }

  /** Asks the engine to stop (protocol `cancel`); the run settles with its answer, or `cancelled` after the grace period. */
  cancel(): void {
    this.stop('cancel');
  }

  /** @internal */
  stop(kind: 'cancel' | 'deadline'): void {
    if (this.outcome || this.stopRequested) return;
    this.stopRequested = kind;
    this.stopHandler?.(kind);
    this.controller.abort(kind);
  }

  /** @internal */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** @internal */
  get stopping(): 'cancel' | 'deadline' | undefined {
    return this.stopRequested;
  }

  /** @internal The running phase installs how to stop; a stop already requested fires at once. */
  onStop(handler: (kind: 'cancel' | 'deadline') => void): void {
    this.stopHandler = handler;
    if (this.stopRequested) handler(this.stopRequested);
  }

  /** @internal */
  settle(outcome: RunOutcome): boolean {
    if (this.outcome) return false;
    this.outcome = outcome;
    this.resolveSettled(outcome);
    this.controller.abort('settled');
    return true;
  }
}

/** One run at a time for an engine whose `concurrent` is false. */
class Slot {
  private busy = false;
  private readonly waiting: (() => void)[] = [];
  get isBusy(): boolean {
    return this.busy;
  }
  async acquire(): Promise<() => void> {
    if (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    };
  }
}

export class Host {
  readonly engines: EngineProcess[];
  private readonly slots = new Map<EngineProcess, Slot>();
  private readonly eventListeners: Listener<RunEvent>[] = [];
  private readonly logListeners: Listener<{ engine: string; text: string }>[] = [];
  private nextRun = 1;
  private readonly active = new Set<Run>();

  constructor(private readonly options: HostOptions) {
    this.engines = options.entries.map(
      (entry) =>
        new EngineProcess(entry, {
          ...options,
          log: (engine, text) => {
            options.log?.(engine, text);
            for (const listener of this.logListeners) listener({ engine, text });
          },
        }),
    );
    for (const engine of this.engines) this.slots.set(engine, new Slot());
  }

  /** Subscribes to run events; returns the unsubscribe function. */
  onEvent(listener: Listener<RunEvent>): () => void {
    this.eventListeners.push(listener);
    return () => remove(this.eventListeners, listener);
  }

  /** Engine diagnostics that fail nothing by themselves (protocol faults, ignored progress). */
  onLog(listener: Listener<{ engine: string; text: string }>): () => void {
    this.logListeners.push(listener);
    return () => remove(this.logListeners, listener);
  }

  engine(name: string): EngineProcess | undefined {
    return this.engines.find((e) => e.name === name);
  }

  /** Runs still going. */
  get runs(): Run[] {
    return [...this.active];
  }

  /** Starts every engine and reports its describe check. */
  async checkEngines(): Promise<EngineCheck[]> {
    return Promise.all(
      this.engines.map(async (engine): Promise<EngineCheck> => {
        try {
          const capabilities = await engine.start();
          return { name: engine.name, entry: engine.entry, ok: true, capabilities };
        } catch (error) {
          return { name: engine.name, entry: engine.entry, ok: false, problem: messageOf(error) };
        }
      }),
    );
  }

  /** Asks a question; follow it with `onEvent` or await `run.settled`. */
  ask(request: AskRequest): Run {
    const checked = Question.safeParse(request.question);
    const run = new Run(this.nextRun++, request.question);
    const startedAt = Date.now();
    this.active.add(run);
    this.emit({ type: 'queued', run: run.id, question: request.question });
    const finish = (outcome: RunOutcome) => {
      if (run.settle(outcome)) {
        this.active.delete(run);
        this.emit({ type: 'settled', run: run.id, outcome, elapsedMs: Date.now() - startedAt });
      }
    };
    if (!checked.success) {
      queueMicrotask(() => finish({ status: 'error', message: `invalid question: ${describeIssues(checked.error, 'question')}` }));
      return run;
    }
    const deadlineSeconds = request.budget?.deadline;
    const deadlineAt = deadlineSeconds !== undefined && deadlineSeconds > 0 ? startedAt + deadlineSeconds * 1000 : undefined;
    let deadlineTimer: NodeJS.Timeout | undefined;
    if (deadlineAt !== undefined) {
      deadlineTimer = setTimeout(() => run.stop('deadline'), Math.max(0, deadlineAt - Date.now()));
    }
    // Until the run request is sent, a stop settles at once.
    run.onStop((kind) => {
      finish(
        kind === 'cancel'
          ? { status: 'cancelled', message: `cancelled while ${run.phase}, before an engine started the run` }
          : { status: 'budget', message: `the deadline of ${deadlineSeconds} s passed while ${run.phase}, before an engine started the run` },
      );
    });
    this.answer(run, { ...request, question: checked.data }, deadlineAt, finish)
      .catch((error: unknown) => finish({ status: 'error', message: `host failure: ${messageOf(error)}` }))
      .finally(() => clearTimeout(deadlineTimer));
    return run;
  }

  /** Closes every engine (input closed, killed after the grace period). */
  async shutdown(): Promise<void> {
    for (const run of this.active) run.cancel();
    await Promise.all(this.engines.map((e) => e.shutdown()));
  }

  // ---------------------------------------------------------------------------------------------------

  private emit(event: RunEvent): void {
    for (const listener of this.eventListeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not break the run.
      }
    }
  }

  private async answer(run: Run, request: AskRequest, deadlineAt: number | undefined, finish: (o: RunOutcome) => void): Promise<void> {
    const question = { ...request.question };
    const index = this.options.modelIndex;
    const candidates = request.engine === undefined ? this.engines : this.engines.filter((e) => e.name === request.engine);
    // Engines whose entries fit start while the host reads the model (a large model takes seconds to
    // parse; an engine seconds to start): routing then awaits these very starts.
    const starts = new Map<EngineProcess, Promise<EngineCapabilities>>();
    for (const engine of candidates) {
      if (fitProblem(engine.entry, question, this.servedForms()) !== undefined) continue;
      const started = engine.start();
      started.catch(() => {}); // reported by routing
      starts.set(engine, started);
    }
    if (question.subjectKind === undefined && index) {
      run.phase = `the host read the model (${sizeOf(request.documents)})`;
      let kind: string | undefined;
      try {
        kind = await index.subjectKindOf(question.subject, request.documents, run.signal);
      } catch (error) {
        if (run.outcome) return;
        throw error;
      }
      if (run.outcome) return;
      if (kind !== undefined) question.subjectKind = kind;
    }
    run.phase = 'the engines were started and asked whether they cover it';

    if (candidates.length === 0) {
      finish({
        status: 'error',
        message: `no engine is named "${request.engine}"; configured: ${this.engines.map((e) => e.name).join(', ') || 'none'}`,
      });
      return;
    }

    const routes = await Promise.all(candidates.map((engine) => this.route(run, engine, question, request.documents, deadlineAt, starts.get(engine))));
    if (run.outcome) return;
    const chosen = routes.find((r): r is Route => 'model' in r);
    if (!chosen) {
      finish({ status: 'not covered', reasons: routes.map((r) => r as EngineReason) });
      return;
    }

    const { engine, capabilities, model, form } = chosen;
    const slot = capabilities.concurrent ? undefined : this.slots.get(engine)!;
    if (slot?.isBusy) this.emit({ type: 'queued', run: run.id, question, waitingFor: engine.name });
    const release = slot ? await slot.acquire() : () => {};
    try {
      if (run.outcome) return;
      const limits = request.budget ?? {};
      const budget: Budget = {};
      if (deadlineAt !== undefined) budget.deadline = new Date(deadlineAt).toISOString();
      for (const key of ['depth', 'steps', 'runs', 'memory', 'jobs'] as const) {
        const value = limits[key];
        if (value !== undefined) budget[key] = value;
      }
      const bounds: Bound[] = capabilities.bounds.map((name) => ({ name, limit: limits[name] ?? 0 }));
      await this.execute(run, engine, capabilities, { question, model, bounds, budget }, form, limits.deadline, finish);
    } finally {
      release();
    }
  }

  /** One engine's routing verdict: usable with a model, or the reason it is not. */
  private async route(
    run: Run,
    engine: EngineProcess,
    question: Question,
    documents: SourceDocument[],
    deadlineAt: number | undefined,
    started: Promise<EngineCapabilities> | undefined,
  ): Promise<Route | EngineReason> {
    const no = (reason: string): EngineReason => ({ engine: engine.name, reason });
    // Fields the entry declares decide without starting the engine.
    const declared = engine.entry;
    const early = fitProblem(declared, question, this.servedForms());
    if (early) return no(early);

    let capabilities: EngineCapabilities;
    try {
      capabilities = await (started ?? engine.start());
    } catch (error) {
      return { ...no(messageOf(error)), failed: true };
    }
    const late = fitProblem(capabilities, question, this.servedForms());
    if (late) return no(late);
    if (run.outcome) return no('the run ended before routing finished');

    const form = capabilities.model.includes('sources') ? 'sources' : 'graphs:1';
    let model: Model;
    if (form === 'sources') {
      model = { sources: { library: EMBEDDED_LIBRARY_VERSION, documents } };
    } else {
      let lowered: Graphs | { error: string } | undefined;
      try {
        lowered = await this.options.modelIndex?.lowerToGraphs?.(question.subject, documents, run.signal);
      } catch (error) {
        if (run.outcome) return no('the run ended before routing finished');
        throw error;
      }
      if (!lowered) return no('reads graphs:1, but this host has no lowering for the model');
      if ('error' in lowered) return no(`reads graphs:1, but lowering ${question.subject} failed: ${lowered.error}`);
      model = { graphs: lowered };
    }

    const slot = capabilities.concurrent ? undefined : this.slots.get(engine)!;
    if (slot?.isBusy) this.emit({ type: 'queued', run: run.id, question, waitingFor: engine.name });
    const release = slot ? await slot.acquire() : () => {};
    try {
      if (run.outcome) return no('the run ended before routing finished');
      // covers may take as long as the question's budget allows (reading a large model takes time);
      // without a deadline, the start timeout bounds it.
      const limit = deadlineAt !== undefined ? Math.max(1, deadlineAt - Date.now()) : (this.options.startTimeoutMs ?? 10_000);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // The question's own deadline, not the engine's fault: the run is out of budget (this timer
          // and the deadline's may fire in either order).
          if (deadlineAt !== undefined && Date.now() >= deadlineAt - 50) run.stop('deadline');
          const why = `it did not answer covers within ${seconds(limit)}`;
          void engine.kill(why);
          reject(new Error(`engine "${engine.name}" was stopped: ${why}`));
        }, limit);
      });
      // A run stopped meanwhile (deadline, Ctrl-C) has settled; an engine still reading the model for
      // it, and serving no other run, is stopped too rather than left to finish a read nobody awaits.
      const onStop = () => {
        if (this.active.size === 0) void engine.kill(`the question it was reading the model for was ${run.stopping === 'cancel' ? 'cancelled' : 'out of time'}`);
      };
      run.signal.addEventListener('abort', onStop, { once: true });
      const covers = await Promise.race([engine.request('covers', { question, model }).result, timeout]).finally(() => {
        clearTimeout(timer);
        run.signal.removeEventListener('abort', onStop);
      });
      if (!covers.covers) return no(`does not cover it: ${covers.reason ?? 'no reason given'}`);
      return { engine, capabilities, model, form };
    } catch (error) {
      if (error instanceof EngineFailure && error.kind === 'error') return no(`covers failed (${error.code}): ${error.message}`);
      return { ...no(messageOf(error)), failed: true };
    } finally {
      release();
    }
  }

  private servedForms(): ModelForm[] {
    return this.options.modelIndex?.lowerToGraphs ? [...SERVED_MODEL_FORMS] : ['sources'];
  }

  private async execute(
    run: Run,
    engine: EngineProcess,
    capabilities: EngineCapabilities,
    params: { question: Question; model: Model; bounds: Bound[]; budget: Budget },
    form: ModelForm,
    deadlineSeconds: number | undefined,
    finish: (o: RunOutcome) => void,
  ): Promise<void> {
    const handle = engine.request('run', params, ({ id: _id, ...progress }) => {
      if (!run.outcome) this.emit({ type: 'progress', run: run.id, engine: engine.name, progress });
    });

    const grace = this.options.cancelGraceMs ?? 2_000;
    let graceTimer: NodeJS.Timeout | undefined;
    let killedAfterGrace = false;
    const what = (kind: 'cancel' | 'deadline') =>
      kind === 'cancel' ? 'the cancel' : `the cancel sent at the deadline of ${deadlineSeconds} s`;
    run.onStop((kind) => {
      handle.cancel();
      graceTimer = setTimeout(() => {
        killedAfterGrace = true;
        void engine.kill(`it did not answer ${what(kind)} within ${seconds(grace)}`);
      }, grace);
    });
    this.emit({ type: 'started', run: run.id, engine: engine.name, requestId: handle.id, question: params.question, modelForm: form, bounds: params.bounds, budget: params.budget });

    const name = engine.name;
    try {
      const result = await handle.result;
      clearTimeout(graceTimer);
      // The engine has answered; a stop from here on ends the host's own check of the witness (the run's
      // signal), and the answer stands as unchecked: the engine is left alone.
      run.onStop(() => {});
      if (this.options.witnessChecker) {
        const schedules = [...(result.witness?.schedules ?? []), ...(result.executions ?? []).flatMap((e) => e.schedules ?? [])];
        const steps = schedules.reduce((sum, text) => sum + countLines(text), 0);
        if (schedules.length > 0) this.emit({ type: 'checking', run: run.id, engine: name, schedules: schedules.length, steps });
      }
      let standing: Standing;
      try {
        standing = await decideStanding({
          engine: name,
          authority: capabilities.authority,
          question: params.question,
          result,
          model: params.model,
          signal: run.signal,
          stoppedBecause: () => (run.stopping === 'cancel' ? 'the user cancelled it' : `the deadline of ${deadlineSeconds} s passed`),
          ...(this.options.witnessChecker ? { witnessChecker: this.options.witnessChecker } : {}),
        });
      } catch (error) {
        if (error instanceof ClaimMismatch) {
          finish({ status: 'error', engine: name, message: error.message });
          return;
        }
        throw error;
      }
      finish({ status: 'answered', engine: name, result, standing });
    } catch (error) {
      clearTimeout(graceTimer);
      const stop = run.stopping;
      if (!(error instanceof EngineFailure)) throw error;
      if (error.kind === 'error' && error.code === 'budget') {
        if (stop === 'cancel') finish({ status: 'cancelled', engine: name, message: `engine "${name}": ${error.message}` });
        else finish({ status: 'budget', engine: name, message: `engine "${name}": ${error.message}` });
        return;
      }
      if (error.kind === 'error' && error.code === 'unsupported') {
        finish({ status: 'not covered', reasons: [{ engine: name, reason: `run unsupported: ${error.message}` }] });
        return;
      }
      if (stop !== undefined && (killedAfterGrace || error.kind === 'exited' || error.kind === 'stopped')) {
        const message = killedAfterGrace
          ? `engine "${name}" did not answer ${what(stop)} within ${seconds(grace)} and was stopped`
          : error.message;
        finish(stop === 'cancel' ? { status: 'cancelled', engine: name, message } : { status: 'budget', engine: name, message });
        return;
      }
      finish({ status: 'error', engine: name, message: error.kind === 'error' ? `engine "${name}" failed (${error.code}): ${error.message}` : error.message });
    } finally {
      // `finish` has removed this run from `active`; a run asked meanwhile is in `active` already.
      if (this.options.stopEngineAfterCancel && run.stopping === 'cancel' && this.active.size === 0) void engine.shutdown();
    }
  }
}

interface Route {
  engine: EngineProcess;
  capabilities: EngineCapabilities;
  model: Model;
  form: ModelForm;
}

/** Why an engine (by its entry or its description) cannot take the question, or undefined. */
function fitProblem(
  declared: { answers?: readonly string[]; subjects?: readonly string[]; model?: readonly string[] },
  question: Question,
  served: readonly ModelForm[],
): string | undefined {
  if (declared.answers && !declared.answers.includes(question.kind)) {
    return `does not answer ${question.kind} questions (answers ${declared.answers.join(', ')})`;
  }
  if (declared.subjects && question.subjectKind !== undefined && !declared.subjects.includes(question.subjectKind)) {
    return `does not take ${question.subjectKind} subjects (takes ${declared.subjects.join(', ') || 'none'})`;
  }
  if (declared.model && !declared.model.some((form) => served.includes(form))) {
    return `reads ${declared.model.join(', ')}; this host serves ${served.join(' and ')}${declared.model.includes('rdf') ? ' and never rdf' : ''}`;
  }
  return undefined;
}

function countLines(text: string): number {
  let lines = text.length > 0 ? 1 : 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

function sizeOf(documents: readonly SourceDocument[]): string {
  const chars = documents.reduce((sum, d) => sum + d.text.length, 0);
  const size = chars >= 1e6 ? `${(chars / 1e6).toFixed(1)} MB` : chars >= 1e3 ? `${Math.round(chars / 1e3)} kB` : `${chars} B`;
  return `${documents.length} ${documents.length === 1 ? 'file' : 'files'}, ${size}`;
}

function remove<T>(list: T[], item: T): void {
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
