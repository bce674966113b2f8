// The SysML front end on a worker thread: the same answers as SysmlModel, but the host's own parsing
// of the model and replay of a witness run off the event loop, so a 13 MB model or a 1.3M-step witness
// cannot hold the deadline or Ctrl-C hostage. A job whose run is stopped (its AbortSignal fires) ends
// the worker at once (Worker.terminate stops a busy loop); the next job starts a fresh worker.
import { Worker } from 'node:worker_threads';
import type { Graphs, Model, Question, RunResult, SourceDocument } from '../protocol';
import type { ModelIndex } from './host';
import type { WitnessChecker } from './standing';
import type { WitnessVerdict } from './assignment-check';

type JobSpec =
  | { op: 'subjectKindOf'; subject: string; documents: readonly SourceDocument[] }
  | { op: 'lowerToGraphs'; subject: string; documents: readonly SourceDocument[] }
  | { op: 'check'; question: Question; result: RunResult; model: Model };

interface Job {
  id: number;
  spec: JobSpec;
  signal: AbortSignal | undefined;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Why a job did not finish: the signal's reason, in words. */
export class ModelWorkAborted extends Error {}

export class WorkerModel implements ModelIndex, WitnessChecker {
  private worker: Worker | undefined;
  private workerDocs = new WeakMap<readonly SourceDocument[], number>();
  private nextDocs = 1;
  private nextId = 1;
  private readonly queue: Job[] = [];
  private busy: Job | undefined;

  /** `file`: the bundled worker (dist/model-worker.js). */
  constructor(private readonly file: string) {}

  subjectKindOf(subject: string, documents: readonly SourceDocument[], signal?: AbortSignal): Promise<string | undefined> {
    return this.submit({ op: 'subjectKindOf', subject, documents }, signal) as Promise<string | undefined>;
  }

  lowerToGraphs(subject: string, documents: readonly SourceDocument[], signal?: AbortSignal): Promise<Graphs | { error: string }> {
    return this.submit({ op: 'lowerToGraphs', subject, documents }, signal) as Promise<Graphs | { error: string }>;
  }

  check(question: Question, result: RunResult, model: Model, signal?: AbortSignal): Promise<WitnessVerdict> {
    return this.submit({ op: 'check', question, result, model }, signal) as Promise<WitnessVerdict>;
  }

  /** Starts the worker now (it loads while the caller reads its files), not at the first job. */
  warm(): void {
    this.ensureWorker().unref();
  }

  /** Ends the worker (the process can then exit); pending jobs fail. */
  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const job of [...(this.busy ? [this.busy] : []), ...this.queue.splice(0)]) job.reject(new Error('the model worker was stopped'));
    this.busy = undefined;
    if (worker) await worker.terminate();
  }

  private submit(spec: JobSpec, signal: AbortSignal | undefined): Promise<unknown> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, spec, signal, resolve, reject };
      signal?.addEventListener('abort', () => this.abort(job), { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
    } else if (this.busy === job) {
      // The worker is inside a synchronous parse or replay: only terminating it stops that.
      const worker = this.worker;
      this.worker = undefined;
      this.busy = undefined;
      void worker?.terminate();
      this.pump();
    } else {
      return;
    }
    job.reject(abortError(job.signal!));
  }

  private pump(): void {
    if (this.busy) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker?.unref();
      return;
    }
    this.busy = job;
    const worker = this.ensureWorker();
    // Held while it works (the run awaits it), let go when idle (the process may then exit).
    worker.ref();
    worker.postMessage(this.message(job));
  }

  private message(job: Job): unknown {
    const { spec } = job;
    if (spec.op === 'check') return { id: job.id, op: 'check', question: spec.question, result: spec.result, model: spec.model };
    let docs = this.workerDocs.get(spec.documents);
    const known = docs !== undefined;
    if (docs === undefined) {
      docs = this.nextDocs++;
      this.workerDocs.set(spec.documents, docs);
    }
    return { id: job.id, op: spec.op, subject: spec.subject, docs, ...(known ? {} : { documents: spec.documents }) };
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.file);
    // A fresh worker holds no document set: each set is sent again.
    this.workerDocs = new WeakMap();
    worker.unref();
    worker.on('message', (answer: { id: number; value?: unknown; error?: string }) => {
      const job = this.busy;
      if (!job || job.id !== answer.id) return;
      this.busy = undefined;
      if (answer.error !== undefined) job.reject(new Error(answer.error));
      else job.resolve(answer.value);
      this.pump();
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const job = this.busy;
      this.busy = undefined;
      job?.reject(new Error(`the model worker stopped: ${why}`));
      this.pump();
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return new ModelWorkAborted(reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'stopped');
}
