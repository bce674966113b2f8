/**
 * Engine Protocol v1 transport: one JSON object per `\n`-terminated line, on vscode-jsonrpc's
 * MessageReader/MessageWriter interfaces, every message checked by the strict schemas in `schema.ts`.
 *
 * Engine side (what an engine process such as `src/engine/` uses):
 *
 *   import { serveEngine, EngineError } from '../protocol';
 *   const server = serveEngine({
 *     describe: (params) => description,                 // params: DescribeParams (already validated)
 *     covers: (params, request) => ({ covers: true }),   // request: { id, token }
 *     run: async (params, request) => {                  // request: { id, token, progress }
 *       request.progress({ steps: 10, text: 'exploring' });   // sends `progress` with this request's id
 *       if (request.token.isCancellationRequested) throw new EngineError('budget', 'cancelled by the host');
 *       return { claim: 'holds', strength: 'proved' };
 *     },
 *   });                                                  // default streams: process.stdin / process.stdout
 *   await server.closed;                                 // resolves when the host closes stdin
 *
 * - Handlers get validated params; a request that fails validation is answered with error `unsupported`
 *   naming the zod path, without calling the handler.
 * - Each request's handler is called as soon as its line is read (runs proceed concurrently); an answer
 *   returned synchronously is sent without a promise in between. Answers written in the same turn of
 *   the event loop leave in one write.
 * - The protocol's `cancel` notification `{id}` cancels `request.token` (a vscode-jsonrpc
 *   CancellationToken) of the running request with that id. A CPU-bound handler only sees it if it
 *   yields now and then (`await new Promise(setImmediate)`).
 * - Throw `EngineError(code, message)` to answer with a protocol error; any other exception becomes
 *   error `internal`. A returned result is validated before it is sent: an invalid one is replaced by
 *   error `internal` naming what was wrong, and logged on stderr.
 *
 * Host side: `connectToEngine(engineStdout, engineStdin)` gives an `EngineConnection` whose `request`
 * sends describe/covers/run with ids from 1, routes `progress` to the request it names, and cancels with
 * the protocol's `cancel` notification (never `$/cancelRequest`). An invalid engine message fails only
 * the request it names; one that names no pending request faults the whole connection (`onFault`).
 * Both sides use vscode-jsonrpc's reader/writer interfaces and do their own dispatch: a vscode-jsonrpc
 * MessageConnection handles one queued message per event-loop turn and cost ~22 µs a request here,
 * most of the engine's time under pipelined load.
 */
import type { Readable, Writable } from 'node:stream';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  CancellationTokenSource,
  type CancellationToken,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
} from 'vscode-jsonrpc/node';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, excerpt } from './lines';
import {
  CancelNotification,
  ErrorResponse,
  PARAMS_SCHEMA,
  ProgressNotification,
  RESULT_RESPONSE_SCHEMA,
  RESULT_SCHEMA,
  describeIssues,
  isMethod,
  type ErrorCode,
  type ErrorObject,
  type Method,
  type ParamsOf,
  type ProgressParams,
  type ResultOf,
} from './schema';

export type { CancellationToken } from 'vscode-jsonrpc/node';

// ---- framing on vscode-jsonrpc's interfaces ---------------------------------------------------------

/**
 * Turns one line into the message vscode-jsonrpc should see, or undefined to drop it. Never throws
 * for bad input: problems are reported by the decoder's owner.
 */
export type LineDecoder = (line: string) => Message | undefined;

export interface NdjsonReaderEvents {
  /** A line beyond the size limit was dropped. */
  overlong?(bytes: number, head: string): void;
  /** The stream ended in the middle of a line; `rest` is what had arrived of it. */
  partial?(rest: string): void;
}

/** MessageReader over a byte stream of NDJSON lines. */
export class NdjsonReader extends AbstractMessageReader implements MessageReader {
  private callback: DataCallback | undefined;
  private readonly splitter: LineSplitter;
  private stopped = false;

  constructor(
    private readonly readable: Readable,
    private readonly decode: LineDecoder,
    private readonly events: NdjsonReaderEvents = {},
    maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {
    super();
    this.splitter = new LineSplitter(
      {
        line: (text) => this.onLine(text),
        overlong: (bytes, head) => this.events.overlong?.(bytes, head),
      },
      maxLineBytes,
    );
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const onData = (chunk: Buffer | string) => {
      if (this.stopped) return;
      this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    };
    const onEnd = () => {
      if (this.stopped) return;
      const rest = this.splitter.takePending();
      if (rest !== undefined && rest.length > 0) this.events.partial?.(rest);
      this.stopped = true;
      this.fireClose();
    };
    const onError = (error: Error) => this.fireError(error);
    this.readable.on('data', onData);
    this.readable.on('end', onEnd);
    this.readable.on('close', onEnd);
    this.readable.on('error', onError);
    return {
      dispose: () => {
        this.stopped = true;
        this.readable.off('data', onData);
        this.readable.off('end', onEnd);
        this.readable.off('close', onEnd);
        this.readable.off('error', onError);
      },
    };
  }

  /** Stops delivering messages (after a fault) without touching the stream. */
  stop(): void {
    this.stopped = true;
  }

  private onLine(text: string): void {
    if (this.stopped || text.length === 0) return;
    const message = this.decode(text);
    if (message !== undefined && !this.stopped) this.callback?.(message);
  }
}

/**
 * MessageWriter writing one JSON line per message. Lines written in the same turn of the event loop are
 * joined and leave in one write (one system call for a burst of answers); one shared drain promise
 * carries the stream's backpressure to every writer.
 */
export class NdjsonWriter extends AbstractMessageWriter implements MessageWriter {
  private batch = '';
  private flushQueued = false;
  private drain: Promise<void> | undefined;
  private ended = false;

  constructor(
    private readonly writable: Writable,
    private readonly trace?: (line: string) => void,
  ) {
    super();
    writable.on('error', (error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  /** Queues the line; resolves once the stream is ready for more (rejects if it is closed). */
  write(message: Message | object): Promise<void> {
    return this.send(message) ? (this.drain ?? READY) : Promise.reject(new Error('the output is closed'));
  }

  /** Queues the line without a promise; false when the stream is closed. Backpressure is `ready`. */
  send(message: object): boolean {
    return this.sendLine(JSON.stringify(message));
  }

  /** Queues one line of JSON text (without its newline). */
  sendLine(line: string): boolean {
    if (this.ended || this.writable.destroyed || !this.writable.writable) return false;
    this.trace?.(line);
    this.batch += line + '\n';
    if (this.batch.length >= BATCH_FLUSH_CHARS) this.flush();
    else if (!this.flushQueued) {
      this.flushQueued = true;
      process.nextTick(this.flush);
    }
    return true;
  }

  /** Resolves when the stream has room again: one drain promise shared by every writer. */
  get ready(): Promise<void> {
    return this.drain ?? READY;
  }

  private readonly flush = (): void => {
    this.flushQueued = false;
    if (this.batch.length === 0 || this.writable.destroyed || !this.writable.writable) return;
    const text = this.batch;
    this.batch = '';
    if (!this.writable.write(text) && this.drain === undefined) {
      this.drain = new Promise<void>((resolve) => {
        const done = () => {
          this.writable.off('drain', done);
          this.writable.off('close', done);
          this.drain = undefined;
          resolve();
        };
        this.writable.on('drain', done);
        this.writable.on('close', done);
      });
    }
  };

  end(): void {
    if (this.ended) return;
    this.flush();
    this.ended = true;
    this.writable.end();
  }
}

/** A batch this long is written at once rather than at the end of the turn. */
const BATCH_FLUSH_CHARS = 256 * 1024;
const READY = Promise.resolve();

// ---- host side -------------------------------------------------------------------------------------

/** What was wrong with an engine line: the line (shortened), and the reason with its zod path. */
export interface ProtocolViolation {
  reason: string;
  line: string;
}

export type EngineRequestFailure =
  /** The engine answered with a protocol error. */
  | 'error'
  /** The engine's answer to this request broke the protocol. */
  | 'violation'
  /** The connection failed for a reason not tied to this request (see the message). */
  | 'fault'
  /** The engine's output closed before it answered. */
  | 'closed'
  /** The request could not be written to the engine, or its params are invalid. */
  | 'write';

export class EngineRequestError extends Error {
  constructor(
    readonly failure: EngineRequestFailure,
    message: string,
    /** Set when failure is 'error'. */
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = 'EngineRequestError';
  }
}

export interface EngineConnectionOptions {
  /** Longest line accepted from the engine (default 64 MiB). */
  maxLineBytes?: number;
  /** Every line written (`send`) or read (`receive`), for the protocol trace. */
  trace?: (direction: 'send' | 'receive', line: string) => void;
}

export interface RequestHandle<M extends Method> {
  /** The id on the wire (≥ 1). */
  readonly id: number;
  readonly result: Promise<ResultOf<M>>;
  /** Sends the protocol's `cancel` notification for this request (once); the result still settles. */
  cancel(): void;
}

/** One request from the host: its handle for the caller and its entry in the pending table. */
class PendingRequest<M extends Method> implements RequestHandle<M> {
  /** The wire id (0 until sent). */
  id = 0;
  readonly result: Promise<ResultOf<M>>;
  resolve!: (result: unknown) => void;
  reject!: (error: EngineRequestError) => void;
  private cancelled = false;

  constructor(
    private readonly connection: EngineConnection,
    readonly method: M,
    readonly onProgress: ((params: ProgressParams) => void) | undefined,
  ) {
    this.result = new Promise<ResultOf<M>>((resolve, reject) => {
      this.resolve = resolve as (result: unknown) => void;
      this.reject = reject;
    });
  }

  cancel(): void {
    if (this.cancelled || this.id === 0) return;
    this.cancelled = true;
    this.connection.cancelRequest(this.id);
  }
}

type Listener<T> = (value: T) => void;

/**
 * The host's end of one engine's stdio, on vscode-jsonrpc's MessageReader/MessageWriter interfaces.
 * The host matches responses to requests itself rather than through a vscode-jsonrpc MessageConnection:
 * the connection dispatches one queued message per event-loop turn, and under pipelined load its queue
 * fell behind and held every answered response (measured: most host CPU went to garbage collection).
 * Ids are chosen here, from 1, so no offset is needed; cancel is the protocol's `cancel` notification.
 */
export class EngineConnection {
  private readonly reader: NdjsonReader;
  private readonly writer: NdjsonWriter;
  private readonly listening: Disposable;
  private readonly pending = new Map<number, PendingRequest<Method>>();
  /** Wire id of the next request; every id below it has been sent. */
  private nextWireId = 1;
  private faultReason: string | undefined;
  private closedReason: string | undefined;
  private readonly faultListeners: Listener<ProtocolViolation>[] = [];
  private readonly warningListeners: Listener<string>[] = [];
  /** Progress notifications for ids no running request has, counted (only the first is reported). */
  private unknownProgress = 0;
  private readonly closeListeners: Listener<void>[] = [];

  constructor(engineStdout: Readable, engineStdin: Writable, private readonly options: EngineConnectionOptions = {}) {
    const trace = options.trace;
    this.reader = new NdjsonReader(
      engineStdout,
      (line) => {
        trace?.('receive', line);
        this.decode(line);
        return undefined;
      },
      {
        overlong: (bytes, head) =>
          this.faultWith({ reason: `a line of ${bytes} bytes exceeds the limit of ${this.maxLineBytes} bytes`, line: excerpt(head) }),
        partial: (rest) => this.faultWith({ reason: 'the output ended in the middle of a line', line: excerpt(rest) }),
      },
      this.maxLineBytes,
    );
    this.writer = new NdjsonWriter(engineStdin, trace && ((line) => trace('send', line)));
    this.reader.onClose(() => this.closed('the engine closed its output'));
    // A write error (EPIPE) means the engine is gone; the close of its output reports it.
    this.reader.onError((error) => this.warn(`read error: ${error.message}`));
    this.writer.onError(([error]) => this.warn(`write error: ${error.message}`));
    this.listening = this.reader.listen(() => {});
  }

  private get maxLineBytes(): number {
    return this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Starts a request; params are validated before anything is written. */
  request<M extends Method>(
    method: M,
    params: ParamsOf<M>,
    onProgress?: (params: ProgressParams) => void,
  ): RequestHandle<M> {
    const handle = new PendingRequest<M>(this, method, onProgress);
    const checked = PARAMS_SCHEMA[method].safeParse(params);
    if (!checked.success) {
      handle.reject(new EngineRequestError('write', `invalid ${method} params: ${describeIssues(checked.error, 'params')}`));
      return handle;
    }
    const unavailable = this.faultReason ?? this.closedReason;
    if (unavailable !== undefined) {
      handle.reject(new EngineRequestError(this.faultReason ? 'fault' : 'closed', unavailable));
      return handle;
    }
    const id = this.nextWireId++;
    handle.id = id;
    this.pending.set(id, handle as PendingRequest<Method>);
    if (!this.writer.sendLine(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(checked.data)}}`)) {
      this.pending.delete(id);
      handle.reject(new EngineRequestError('write', `cannot send ${method}: the engine input is closed`));
    }
    return handle;
  }

  /** Sends the protocol's `cancel` for a request still waiting for its answer. */
  cancelRequest(id: number): void {
    if (!this.pending.has(id)) return;
    this.writer.send({ jsonrpc: '2.0', method: 'cancel', params: { id } });
  }

  /** Number of requests sent and not yet answered. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Set once an unattributable violation has stopped the connection. */
  get faultMessage(): string | undefined {
    return this.faultReason;
  }

  onFault(listener: Listener<ProtocolViolation>): void {
    this.faultListeners.push(listener);
  }

  /** Harmless oddities (progress for an unknown id, stream errors). */
  onWarning(listener: Listener<string>): void {
    this.warningListeners.push(listener);
  }

  onClose(listener: Listener<void>): void {
    this.closeListeners.push(listener);
  }

  /** Closes the engine's input (a well-behaved engine exits) and stops reading. */
  dispose(): void {
    this.closed('the connection was closed by the host');
    this.writer.end();
    this.listening.dispose();
  }

  // -- inbound ---------------------------------------------------------------------------------------

  private readonly methodOf = (id: number): Method | undefined => this.pending.get(id)?.method;

  private decode(line: string): void {
    if (this.faultReason !== undefined) return;
    const verdict = classifyEngineLine(line, this.methodOf, this.nextWireId);
    switch (verdict.kind) {
      case 'fault':
        this.faultWith(verdict.violation);
        return;
      case 'invalid': {
        const entry = this.pending.get(verdict.id);
        this.pending.delete(verdict.id);
        entry?.reject(new EngineRequestError('violation', `${verdict.violation.reason}; line: ${verdict.violation.line}`));
        return;
      }
      case 'unknown progress':
        // Once per connection: an engine that keeps reporting on a finished run would flood the log.
        if (this.unknownProgress++ === 0) {
          this.warn(`ignored progress for id ${verdict.params.id}, which no running request has: ${excerpt(line)} (further progress for unknown ids from this engine is ignored without a warning)`);
        }
        return;
      case 'progress':
        try {
          this.pending.get(verdict.params.id)?.onProgress?.(verdict.params);
        } catch (error) {
          this.warn(`a progress listener failed: ${messageOf(error)}`);
        }
        return;
      case 'response': {
        const entry = this.pending.get(verdict.id);
        this.pending.delete(verdict.id);
        if ('error' in verdict) entry?.reject(new EngineRequestError('error', verdict.error.message, verdict.error.code));
        else entry?.resolve(verdict.result);
        return;
      }
    }
  }

  private faultWith(violation: ProtocolViolation): void {
    if (this.faultReason !== undefined) return;
    this.faultReason = `${violation.reason}; line: ${violation.line}`;
    this.reader.stop();
    this.rejectAll(new EngineRequestError('fault', this.faultReason));
    for (const listener of this.faultListeners) listener(violation);
  }

  private closed(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    this.rejectAll(new EngineRequestError('closed', reason));
    for (const listener of this.closeListeners) listener();
  }

  private rejectAll(error: EngineRequestError): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) entry.reject(error);
  }

  private warn(text: string): void {
    for (const listener of this.warningListeners) listener(text);
  }
}

/** What one engine line means to the host, decided without side effects (the fuzzer drives this). */
export type EngineLineVerdict =
  | ({ kind: 'response'; id: number } & ({ result: unknown } | { error: ErrorObject }))
  | { kind: 'progress'; params: ProgressParams }
  | { kind: 'unknown progress'; params: ProgressParams }
  /** Names a pending request but breaks the protocol: fails that request only. */
  | { kind: 'invalid'; id: number; violation: ProtocolViolation }
  /** Cannot be attributed to a pending request: faults the connection. */
  | { kind: 'fault'; violation: ProtocolViolation };

/**
 * Classifies an engine line. `methodOf(id)` gives the method of a pending request with that wire id;
 * ids below `nextId` have been sent (so a response to one that is no longer pending is a duplicate).
 */
export function classifyEngineLine(line: string, methodOf: (id: number) => Method | undefined, nextId: number): EngineLineVerdict {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return faultVerdict(line, 'the line is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return faultVerdict(line, 'the line is not a JSON object');
  const object = value as Record<string, unknown>;

  if ('method' in object) {
    if (object.method !== 'progress' || 'id' in object) {
      return faultVerdict(line, `the engine sent a ${'id' in object ? 'request' : 'notification'} ${JSON.stringify(object.method)}, which the protocol does not allow`);
    }
    const checked = ProgressNotification.safeParse(object);
    if (!checked.success) {
      const params = object.params as Record<string, unknown> | undefined;
      const claimed = typeof params === 'object' && params !== null ? params.id : undefined;
      const violation = { reason: `invalid progress: ${describeIssues(checked.error)}`, line: excerpt(line) };
      return typeof claimed === 'number' && methodOf(claimed) !== undefined ? { kind: 'invalid', id: claimed, violation } : { kind: 'fault', violation };
    }
    const params = checked.data.params;
    return methodOf(params.id) !== undefined ? { kind: 'progress', params } : { kind: 'unknown progress', params };
  }

  if (!('id' in object)) return faultVerdict(line, 'the message is neither a response nor a progress notification');
  const id = object.id;
  const method = typeof id === 'number' ? methodOf(id) : undefined;
  if (method === undefined) {
    const answered = typeof id === 'number' && Number.isInteger(id) && id >= 1 && id < nextId;
    return faultVerdict(line, answered ? `a second response for id ${id}, which was already answered` : `a response for id ${JSON.stringify(id)}, which was never sent`);
  }
  const wireId = id as number;
  if ('result' in object && 'error' in object) return invalidVerdict(line, wireId, 'the response has both result and error');
  if ('error' in object) {
    const checked = ErrorResponse.safeParse(object);
    if (!checked.success) return invalidVerdict(line, wireId, `invalid ${method} response: ${describeIssues(checked.error)}`);
    return { kind: 'response', id: wireId, error: checked.data.error };
  }
  const checked = RESULT_RESPONSE_SCHEMA[method].safeParse(object);
  if (!checked.success) return invalidVerdict(line, wireId, `invalid ${method} response: ${describeIssues(checked.error)}`);
  return { kind: 'response', id: wireId, result: checked.data.result };
}

function faultVerdict(line: string, reason: string): EngineLineVerdict {
  return { kind: 'fault', violation: { reason, line: excerpt(line) } };
}

function invalidVerdict(line: string, id: number, reason: string): EngineLineVerdict {
  return { kind: 'invalid', id, violation: { reason, line: excerpt(line) } };
}

export function connectToEngine(engineStdout: Readable, engineStdin: Writable, options?: EngineConnectionOptions): EngineConnection {
  return new EngineConnection(engineStdout, engineStdin, options);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ---- engine side -----------------------------------------------------------------------------------

/** Answer a request with a protocol error. */
export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface EngineRequest {
  /** The request's wire id. */
  readonly id: number;
  /** Cancelled by the host's `cancel` notification for this id. */
  readonly token: CancellationToken;
}

export interface EngineRunRequest extends EngineRequest {
  /** Sends a `progress` notification for this run (the id is filled in). */
  progress(params: Omit<ProgressParams, 'id'>): void;
}

type Awaitable<T> = T | Promise<T>;

export interface EngineHandlers {
  describe(params: ParamsOf<'describe'>, request: EngineRequest): Awaitable<ResultOf<'describe'>>;
  covers(params: ParamsOf<'covers'>, request: EngineRequest): Awaitable<ResultOf<'covers'>>;
  run(params: ParamsOf<'run'>, request: EngineRunRequest): Awaitable<ResultOf<'run'>>;
}

export interface EngineServerOptions {
  input?: Readable;
  output?: Writable;
  /** Where the engine reports what it ignored or replaced (default: stderr). */
  log?: (text: string) => void;
  maxLineBytes?: number;
}

export interface EngineServer {
  /** Resolves when the host closes the engine's input. */
  readonly closed: Promise<void>;
  /** Requests currently running (for tests: the cancel map must not leak). */
  readonly runningCount: number;
  dispose(): void;
}

export function serveEngine(handlers: EngineHandlers, options: EngineServerOptions = {}): EngineServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const log = options.log ?? ((text: string) => void process.stderr.write(`${text}\n`));
  const running = new Map<number, IncomingRequest>();
  const writer = new NdjsonWriter(output);

  const send = (value: object): void => {
    writer.send(value);
  };

  /**
   * Runs one validated request and answers it. The handler starts before the next line is read; an
   * answer given synchronously is sent without a promise in between (most covers and describe calls),
   * and needs no entry in `running`: no cancel can be read while the handler has not returned.
   */
  const dispatch = (id: number, method: Method, params: unknown): void => {
    const request = new IncomingRequest(id, progress);
    let answer: Awaitable<unknown>;
    try {
      answer =
        method === 'run'
          ? handlers.run(params as ParamsOf<'run'>, request)
          : method === 'covers'
            ? handlers.covers(params as ParamsOf<'covers'>, request)
            : handlers.describe(params as ParamsOf<'describe'>, request);
    } catch (error) {
      request.dispose();
      send(failure(id, method, error));
      return;
    }
    if (!isThenable(answer)) {
      request.dispose();
      answerWith(id, method, answer);
      return;
    }
    running.set(id, request);
    answer.then(
      (result) => {
        finish(request);
        answerWith(id, method, result);
      },
      (error: unknown) => {
        finish(request);
        send(failure(id, method, error));
      },
    );
  };

  const finish = (request: IncomingRequest): void => {
    // A second request reusing a running id must not take the first one's entry away.
    if (running.get(request.id) === request) running.delete(request.id);
    request.dispose();
  };

  /** Sends a handler's result, validated; an invalid result becomes error `internal`. */
  const answerWith = (id: number, method: Method, result: unknown): void => {
    const checked = RESULT_SCHEMA[method].safeParse(result);
    if (checked.success) {
      // The envelope spelled out: the same text as stringifying { jsonrpc, id, result }, one object less.
      writer.sendLine(`{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(checked.data)}}`);
      return;
    }
    const problem = `the engine produced an invalid ${method} result: ${describeIssues(checked.error, 'result')}`;
    log(problem);
    send({ jsonrpc: '2.0', id, error: { code: 'internal', message: problem } });
  };

  const failure = (id: number, method: Method, error: unknown): object => {
    const body: ErrorObject =
      error instanceof EngineError ? { code: error.code, message: error.message } : { code: 'internal', message: `${method} failed: ${messageOf(error)}` };
    return { jsonrpc: '2.0', id, error: body };
  };

  const progress = (id: number, counts: Omit<ProgressParams, 'id'>): void => {
    const checked = ProgressNotification.safeParse({ jsonrpc: '2.0', method: 'progress', params: { ...counts, id } });
    if (!checked.success) {
      log(`did not send invalid progress: ${describeIssues(checked.error)}`);
      return;
    }
    send(checked.data);
  };

  const onLine = (line: string): undefined => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      log(`ignored a line that is not JSON: ${excerpt(line)}`);
      return undefined;
    }
    const object = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
    const id = object.id;
    if (object.method === 'cancel' && !('id' in object)) {
      const checked = CancelNotification.safeParse(object);
      if (!checked.success) {
        log(`ignored an invalid cancel: ${describeIssues(checked.error)}; line: ${excerpt(line)}`);
        return undefined;
      }
      // A cancel for a request that already ended (or never came) has nothing to stop.
      running.get(checked.data.params.id)?.cancel();
      return undefined;
    }
    if (!(typeof id === 'number' && Number.isInteger(id) && id >= 1)) {
      log(`ignored a message that is neither a request nor a cancel: ${excerpt(line)}`);
      return undefined;
    }
    if (!isMethod(object.method)) {
      send({ jsonrpc: '2.0', id, error: { code: 'unsupported', message: `unknown method ${JSON.stringify(object.method)}` } });
      return undefined;
    }
    const method = object.method;
    let problem: string | undefined;
    let params: unknown;
    if (object.jsonrpc !== '2.0') problem = 'jsonrpc: must be "2.0"';
    else {
      const extra = unknownEnvelopeKeys(object);
      const checked = PARAMS_SCHEMA[method].safeParse(object.params);
      if (extra !== undefined) problem = `unknown properties ${extra.join(', ')}`;
      else if (!checked.success) problem = describeIssues(checked.error, 'params');
      else params = checked.data;
    }
    if (problem !== undefined) {
      send({ jsonrpc: '2.0', id, error: { code: 'unsupported', message: `invalid ${method} request: ${problem}` } });
      return undefined;
    }
    dispatch(id, method, params);
    return undefined;
  };

  const reader = new NdjsonReader(
    input,
    onLine,
    {
      overlong: (bytes) => log(`ignored a line of ${bytes} bytes (limit ${options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES})`),
      partial: (rest) => log(`input ended in the middle of a line: ${excerpt(rest)}`),
    },
    options.maxLineBytes,
  );
  const closed = new Promise<void>((resolve) => {
    reader.onClose(() => resolve());
    writer.onClose(() => resolve());
  });
  reader.onError((error) => log(`read error: ${error.message}`));
  const listening = reader.listen(() => {});
  return {
    closed,
    get runningCount() {
      return running.size;
    },
    dispose: () => {
      listening.dispose();
      writer.end();
    },
  };
}

/** A request as its handler sees it; the cancellation token is made only when the handler asks. */
class IncomingRequest implements EngineRunRequest {
  private source: CancellationTokenSource | undefined;

  constructor(
    readonly id: number,
    private readonly sendProgress: (id: number, counts: Omit<ProgressParams, 'id'>) => void,
  ) {}

  get token(): CancellationToken {
    return (this.source ??= new CancellationTokenSource()).token;
  }

  progress(counts: Omit<ProgressParams, 'id'>): void {
    this.sendProgress(this.id, counts);
  }

  cancel(): void {
    (this.source ??= new CancellationTokenSource()).cancel();
  }

  dispose(): void {
    this.source?.dispose();
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Keys of a request other than jsonrpc, id, method and params (undefined when there are none). */
function unknownEnvelopeKeys(object: Record<string, unknown>): string[] | undefined {
  let extra: string[] | undefined;
  for (const key in object) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') (extra ??= []).push(key);
  }
  return extra;
}
