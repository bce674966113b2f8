// Runs the rows of a sweep on `jobs` threads: the main thread and `jobs - 1` worker threads (inline on the
// main thread alone for jobs <= 1).
//
// A task is registered by name on both sides: the main thread and every worker load the same bundle
// (dist/engine.js starts itself as a worker), prepare the task once from its spec (parse the model, find
// the subject: only source text and the question cross the thread boundary) and then compute rows by
// index. Rows are handed out in chunks, whoever is free takes the next one, and results are stored by
// index, so the table is the same for any `jobs`. A task may pack each finished chunk on the thread that
// computed it (say, into typed arrays that move to the main thread instead of being copied), so the main
// thread receives and keeps compact chunks rather than one object per row. A row must depend on its
// index alone (seeded draws are derived from the index), never on which thread computed it. The main thread computes chunks too, in
// slices of a few milliseconds, so cancel, progress and the workers' results get their turn; a worker
// that would only wait while the main thread tabulates would cost a thread and a model parse.
import { Worker, isMainThread, parentPort, workerData, type Transferable } from 'node:worker_threads';

/** Computes one row from its index; built once per worker from the task's spec. */
export type RowFunction<R> = (index: number) => R;
/** A task whose finished chunks are packed where they were computed, before they reach the main thread. */
export interface ChunkTask<R, C> {
  row: RowFunction<R>;
  /** The chunk of rows `start …` as it is sent to (and kept by) the main thread. */
  pack(rows: R[], start: number): C;
  /** The buffers of a packed chunk that move to the main thread rather than being copied. */
  transfer?(chunk: C): Transferable[];
}
/** A row function (its chunks are the arrays of its rows) or a task that packs its chunks. */
export type PreparedTask<R, C = R[]> = RowFunction<R> | ChunkTask<R, C>;
/**
 * Builds the row function of a task from its spec (may throw a user-facing error). On the main thread
 * it gets the run's signal, so a long row can stop in the middle; a worker is terminated instead.
 */
export type TaskPreparer<S = unknown, R = unknown, C = unknown> = (spec: S, signal?: AbortSignal) => PreparedTask<R, C>;
export type TaskRegistry = Record<string, TaskPreparer<never, unknown, unknown>>;

function chunkTask<R, C>(task: PreparedTask<R, C>): ChunkTask<R, C> {
  return typeof task === 'function' ? { row: task, pack: (rows) => rows as unknown as C } : task;
}

export interface PoolOptions {
  /** Worker threads to use; 0 or 1 computes inline on the main thread (yielding so cancel is seen). */
  jobs: number;
  /** Memory budget in MiB for the whole engine process; 0 or absent leaves it open. */
  memoryMiB?: number;
  /** The tasks known to this process (used inline, and to check the task name before starting workers). */
  tasks: TaskRegistry;
  /** The script a worker runs; it must call serveWorker with the same registry. Default: this bundle. */
  workerFile?: string;
}

export interface PoolRun<S, R = unknown> {
  task: string;
  spec: S;
  count: number;
  signal?: AbortSignal;
  /** Called with the number of rows finished, after each chunk. */
  onProgress?: (done: number) => void;
  /**
   * Called on the main thread with each finished chunk as it arrives (in any order), so the caller can
   * tabulate while other threads still compute.
   */
  onRows?: (start: number, rows: readonly R[]) => void;
  /** The task's row function already prepared on the main thread (saves preparing it twice). */
  prepared?: RowFunction<R>;
  /** Rows per chunk; by default a size that gives every worker several chunks. */
  chunkSize?: number;
}

export type PoolOutcome<R> =
  | { status: 'done'; rows: R[] }
  /** Stopped early: `rows` is the finished prefix of the table (rows 1..rows.length). */
  | { status: 'cancelled'; rows: R[] }
  | { status: 'memory'; rows: R[]; reason: string };

export interface ChunkRun<S, R, C> {
  task: string;
  spec: S;
  count: number;
  signal?: AbortSignal;
  /** Called with the number of rows finished, after each chunk. */
  onProgress?: (done: number) => void;
  /** Called on the main thread with each finished chunk (rows `start`, `start + 1`, …) as it arrives, in any order. */
  onChunk?: (start: number, chunk: C) => void;
  /** The task already prepared on the main thread (saves preparing it twice). */
  prepared?: PreparedTask<R, C>;
  /** Rows per chunk; by default a size that gives every worker several chunks. */
  chunkSize?: number;
}

/** `chunks`: the finished chunks in row order, `done` rows in all (every row, or the finished prefix when stopped early). */
export type ChunkOutcome<C> =
  | { status: 'done' | 'cancelled'; done: number; chunks: C[] }
  | { status: 'memory'; done: number; chunks: C[]; reason: string };

/** A row (or the preparation, row -1) failed inside the task; `name` is the error's class name. */
export class TaskError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
    readonly row: number,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

// Every message carries its run's number: a warm worker may still answer a previous run's `prepare`
// (the main thread finished that table alone), and such an answer must not reach the next run.
type ToWorker = { type: 'prepare'; run: number; task: string; spec: unknown } | { type: 'chunk'; run: number; start: number; end: number };
type FromWorker =
  | { type: 'ready'; run: number }
  | { type: 'rows'; run: number; start: number; count: number; chunk: unknown }
  | { type: 'error'; run: number; row: number; name: string; message: string; details?: unknown };

let runCounter = 0;

const WORKER_ROLE = 'assay-engine-rows';
const MIB = 1024 * 1024;

/** True in a thread started by this pool: the entry point should call serveWorker and do nothing else. */
export function isPoolWorker(): boolean {
  return !isMainThread && (workerData as { role?: unknown } | null)?.role === WORKER_ROLE;
}

/** A worker's side: prepare tasks and compute the chunks the main thread sends. */
export function serveWorker(tasks: TaskRegistry): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorker runs in a worker thread only');
  let task: ChunkTask<unknown, unknown> | undefined;
  port.on('message', (m: ToWorker) => {
    if (m.type === 'prepare') {
      const prepare = tasks[m.task];
      try {
        if (!prepare) throw new Error(`unknown task ${m.task}`);
        task = chunkTask((prepare as TaskPreparer<unknown, unknown, unknown>)(m.spec));
        port.postMessage({ type: 'ready', run: m.run } satisfies FromWorker);
      } catch (e) {
        port.postMessage(errorMessage(e, -1, m.run));
      }
      return;
    }
    const rows: unknown[] = [];
    let i = m.start;
    try {
      const t = task!;
      for (; i < m.end; i++) rows.push(t.row(i));
      const chunk = t.pack(rows, m.start);
      port.postMessage({ type: 'rows', run: m.run, start: m.start, count: rows.length, chunk } satisfies FromWorker, t.transfer?.(chunk) ?? []);
    } catch (e) {
      port.postMessage(errorMessage(e, i, m.run));
    }
  });
}

function errorMessage(e: unknown, row: number, run: number): FromWorker {
  const err = e instanceof Error ? e : new Error(String(e));
  const details = (err as { details?: unknown }).details;
  return { type: 'error', run, row, name: err.constructor.name, message: err.message, ...(details !== undefined ? { details } : {}) };
}

function overMemory(memoryMiB: number | undefined): string | undefined {
  if (!memoryMiB) return undefined;
  const rss = process.memoryUsage.rss();
  if (rss <= memoryMiB * MIB) return undefined;
  return `memory budget of ${memoryMiB} MiB reached (the engine uses ${Math.round(rss / MIB)} MiB)`;
}

/** Runs every row of a task; never rejects for cancel or memory, rejects with TaskError when a row fails. */
export async function runPool<S, R>(options: PoolOptions, run: PoolRun<S, R>): Promise<PoolOutcome<R>> {
  const { onRows, prepared, ...rest } = run;
  const out = await runChunks<S, R, R[]>(options, {
    ...rest,
    ...(prepared ? { prepared } : {}),
    ...(onRows ? { onChunk: onRows } : {}),
  });
  const rows: R[] = [];
  for (const chunk of out.chunks) for (const row of chunk) rows.push(row);
  return out.status === 'memory' ? { status: 'memory', rows, reason: out.reason } : { status: out.status, rows };
}

/** runPool for tasks that pack their chunks: the outcome keeps the chunks as they came. */
export function runChunks<S, R, C>(options: PoolOptions, run: ChunkRun<S, R, C>): Promise<ChunkOutcome<C>> {
  const prepare = options.tasks[run.task] as TaskPreparer<S, R, C> | undefined;
  if (!prepare) return Promise.reject(new Error(`unknown task ${run.task}`));
  const jobs = Math.max(1, Math.min(Math.floor(options.jobs) || 1, run.count));
  if (jobs <= 1 && options.memoryMiB) dropIdle();
  return runThreads<S, R, C>(jobs, prepare, options, run);
}

function asTaskError(e: unknown, row: number): TaskError {
  if (e instanceof TaskError) return e;
  const err = e instanceof Error ? e : new Error(String(e));
  return new TaskError(err.message, err.constructor.name, row, (err as { details?: unknown }).details);
}

function workerScript(file: string): { script: string; eval: boolean } {
  if (!file.endsWith('.ts')) return { script: file, eval: false };
  // Under tsx (tests, benches on sources) a worker needs the TypeScript loader too.
  // Spelled so that esbuild does not try to bundle tsx: the bundle never runs this branch.
  const loader = require.resolve(['tsx', 'cjs'].join('/'));
  return { script: `require(${JSON.stringify(loader)}); require(${JSON.stringify(file)});`, eval: true };
}

/**
 * A worker's young generation, MiB (three semi-spaces' worth: 64 MiB semi-spaces, as the host gives the
 * engine process with --max-semi-space-size=64). A row allocates ~17 KB of short-lived values; with the
 * young generation a worker gets by default, in a process started without that flag, the worker paused
 * 0.5-0.9 s per 100k-row table for garbage collection (0.03-0.09 s with 64 MiB semi-spaces), jobs=2 used
 * 0.6-2.1 s more CPU than jobs=1, and was no faster (bench with Node's defaults, control 1.75-2.0x: 0.94x
 * best/best before, 1.85-1.98x after). It only grows that large while a worker allocates that fast; a
 * --max-semi-space-size given to the process takes precedence.
 */
const WORKER_YOUNG_MIB = 192;

// Idle workers, warm (code compiled, model parsed) for the next table, by script and heap limit.
const idle = new Map<string, Worker[]>();
/** Idle workers kept at most, per kind. */
const MAX_IDLE = 8;

function takeWorker(script: string, isEval: boolean, share: number | undefined): Worker {
  const key = `${share ?? 0}|${script}`;
  const warm = idle.get(key)?.pop();
  if (warm) {
    warm.ref();
    return warm;
  }
  const w = new Worker(script, {
    eval: isEval,
    workerData: { role: WORKER_ROLE },
    resourceLimits: { maxYoungGenerationSizeMb: share ? Math.min(WORKER_YOUNG_MIB, Math.max(16, share)) : WORKER_YOUNG_MIB, ...(share ? { maxOldGenerationSizeMb: share } : {}) },
    stdout: false,
    stderr: false,
  });
  // An idle worker that dies is forgotten; one never keeps the process alive while idle (unref below).
  w.on('exit', () => {
    const list = idle.get(key);
    const at = list?.indexOf(w) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
  });
  w.on('error', () => undefined);
  return w;
}

/** Stops idle workers other than those of `keep`: a run with a memory budget does not pay for them. */
function dropIdle(keep?: string): void {
  for (const [key, list] of idle) {
    if (key === keep) continue;
    for (const w of list) void w.terminate();
    idle.delete(key);
  }
}

function returnWorker(w: Worker, script: string, share: number | undefined): void {
  const key = `${share ?? 0}|${script}`;
  const list = idle.get(key) ?? [];
  idle.set(key, list);
  if (list.length >= MAX_IDLE) {
    void w.terminate();
    return;
  }
  w.unref();
  list.push(w);
}

/** Wall time the main thread computes rows before it yields to the event loop. */
const MAIN_SLICE_MS = 5;

function runThreads<S, R, C>(jobs: number, prepare: TaskPreparer<S, R, C>, options: PoolOptions, run: ChunkRun<S, R, C>): Promise<ChunkOutcome<C>> {
  const count = run.count;
  const helpers = jobs - 1;
  const runId = ++runCounter;
  const chunk = Math.max(1, run.chunkSize ?? Math.min(512, Math.ceil(count / (jobs * 8))));
  const chunks: C[] = new Array<C>(Math.ceil(count / chunk));
  const finished = new Uint8Array(chunks.length);
  let next = 0;
  let done = 0;
  const workers: Worker[] = [];
  const detachers: (() => void)[] = [];
  const { script, eval: isEval } = workerScript(options.workerFile ?? __filename);
  // Each thread's old generation gets a share of the budget, so one runaway row cannot take the process down.
  const share = options.memoryMiB ? Math.max(32, Math.floor(options.memoryMiB / jobs)) : undefined;
  if (options.memoryMiB && helpers > 0) dropIdle(`${share ?? 0}|${script}`);

  return new Promise<ChunkOutcome<C>>((resolve, reject) => {
    let settled = false;
    let memoryTimer: NodeJS.Timeout | undefined;
    const prefix = (): { done: number; chunks: C[] } => {
      let k = 0;
      while (k < finished.length && finished[k]) k++;
      return { done: Math.min(count, k * chunk), chunks: chunks.slice(0, k) };
    };
    const finish = (outcome: ChunkOutcome<C> | TaskError) => {
      if (settled) return;
      settled = true;
      if (memoryTimer) clearInterval(memoryTimer);
      run.signal?.removeEventListener('abort', onAbort);
      for (const detach of detachers) detach();
      // Workers that finished their rows stay warm for the next table; any other ending stops them
      // (the only way to stop a row in the middle, and a clean slate after an error).
      if (!(outcome instanceof TaskError) && outcome.status === 'done') for (const w of workers) returnWorker(w, script, share);
      else for (const w of workers) void w.terminate();
      if (outcome instanceof TaskError) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = () => finish({ status: 'cancelled', ...prefix() });
    if (run.signal?.aborted) return onAbort();
    run.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.memoryMiB) {
      memoryTimer = setInterval(() => {
        const reason = overMemory(options.memoryMiB);
        if (reason) finish({ status: 'memory', ...prefix(), reason });
      }, 50);
    }

    /** The next chunk to compute, or undefined when every row is handed out. */
    const take = (): [number, number] | undefined => {
      if (next >= count) return undefined;
      const start = next;
      next = Math.min(count, start + chunk);
      return [start, next];
    };
    const store = (start: number, rows: number, packed: C) => {
      const k = Math.floor(start / chunk);
      chunks[k] = packed;
      finished[k] = 1;
      done += rows;
      run.onChunk?.(start, packed);
      run.onProgress?.(done);
      if (done >= count) finish({ status: 'done', done, chunks });
    };
    const give = (w: Worker) => {
      const range = take();
      if (range) w.postMessage({ type: 'chunk', run: runId, start: range[0], end: range[1] } satisfies ToWorker);
    };

    for (let j = 0; j < helpers; j++) {
      const w = takeWorker(script, isEval, share);
      workers.push(w);
      const onMessage = (m: FromWorker) => {
        if (settled || m.run !== runId) return;
        // Two chunks in flight per worker: it starts the next one while this thread (busy with its own
        // slice) gets round to storing the last one; with one, a worker waited ~40% of the time.
        if (m.type === 'ready') {
          give(w);
          return give(w);
        }
        if (m.type === 'error') return finish(new TaskError(m.message, m.name, m.row, m.details));
        give(w);
        store(m.start, m.count, m.chunk as C);
      };
      const onError = (e: Error & { code?: string }) => {
        if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          finish({ status: 'memory', ...prefix(), reason: `memory budget of ${options.memoryMiB} MiB reached (a worker ran out of its ${share} MiB share)` });
        } else {
          finish(new TaskError(e.message, e.constructor.name, -1));
        }
      };
      const onExit = (code: number) => {
        if (!settled) finish(new TaskError(`a worker thread stopped unexpectedly (exit code ${code})`, 'Error', -1));
      };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      detachers.push(() => {
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
      });
      w.postMessage({ type: 'prepare', run: runId, task: run.task, spec: run.spec } satisfies ToWorker);
    }

    // The main thread's share: chunks computed in slices, yielding between them.
    void (async () => {
      let task: ChunkTask<R, C>;
      try {
        task = chunkTask(run.prepared ?? prepare(run.spec, run.signal));
      } catch (e) {
        return finish(asTaskError(e, -1));
      }
      const rowOf = task.row;
      let slice = Date.now();
      for (let range = take(); range && !settled; range = take()) {
        const [start, end] = range;
        const rows: R[] = [];
        for (let i = start; i < end; i++) {
          try {
            rows.push(rowOf(i));
          } catch (e) {
            // A row stopped by cancel mid-way is not a failure of the task.
            if (settled || run.signal?.aborted) return onAbort();
            return finish(asTaskError(e, i));
          }
          if (Date.now() - slice >= MAIN_SLICE_MS) {
            await new Promise<void>((r) => setImmediate(r));
            slice = Date.now();
            if (settled) return;
            if (run.signal?.aborted) return onAbort();
            if (helpers === 0) {
              // Alone, the memory check and the progress of a long chunk come from here.
              run.onProgress?.(done + rows.length);
              const reason = overMemory(options.memoryMiB);
              if (reason) return finish({ status: 'memory', ...prefix(), reason });
            }
          }
        }
        let packed: C;
        try {
          packed = task.pack(rows, start);
        } catch (e) {
          return finish(asTaskError(e, start));
        }
        store(start, rows.length, packed);
      }
    })();
  });
}
