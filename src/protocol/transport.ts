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
 * The engine side runs on a vscode-jsonrpc MessageConnection; the host side uses vscode-jsonrpc's
 * reader/writer interfaces and matches responses itself (see EngineConnection for why).
 */
import type { Readable, Writable } from 'node:stream';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  CancellationTokenSource,
  createMessageConnection,
  ResponseError,
  type CancellationToken,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
  type RequestMessage,
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

/** MessageWriter writing one JSON line per message, with one shared drain promise for backpressure. */
export class NdjsonWriter extends AbstractMessageWriter implements MessageWriter {
  private drain: Promise<void> | undefined;
  private ended = false;
  private corked = false;

  /**
   * @param backlog Says whether more messages are about to be written (the engine's unanswered
   *   requests); while it does, lines are held and leave together, in one system call.
   */
  constructor(
    private readonly writable: Writable,
    private readonly encode: (message: Message) => Message = (m) => m,
    private readonly trace?: (line: string) => void,
    private readonly backlog?: () => boolean,
  ) {
    super();
    writable.on('error', (error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  async write(message: Message): Promise<void> {
    if (this.ended || this.writable.destroyed || !this.writable.writable) {
      throw new Error('the engine input is closed');
    }
    const line = JSON.stringify(this.encode(message));
    this.trace?.(line);
    this.hold();
    const flushed = this.writable.write(line + '\n');
    if (!flushed) {
      this.drain ??= new Promise<void>((resolve) => {
        const done = () => {
          this.writable.off('drain', done);
          this.writable.off('close', done);
          this.drain = undefined;
          resolve();
        };
        this.writable.on('drain', done);
        this.writable.on('close', done);
      });
      await this.drain;
    }
  }

  /** Lines written in the same tick (or during a backlog) leave together. */
  private hold(): void {
    if (this.corked) return;
    this.corked = true;
    this.writable.cork();
    if (this.backlog?.()) setImmediate(this.release);
    else process.nextTick(this.release);
  }

  private readonly release = (): void => {
    if (!this.corked) return;
    if (this.backlog?.() && this.writable.writableLength < 256 * 1024 && !this.ended) {
      setImmediate(this.release);
      return;
    }
    this.corked = false;
    this.writable.uncork();
  };

  /** Writes a line directly (used for messages vscode-jsonrpc does not produce itself). */
  writeRaw(value: unknown): void {
    if (this.ended || this.writable.destroyed || !this.writable.writable) return;
    const line = JSON.stringify(value);
    this.trace?.(line);
    this.hold();
    this.writable.write(line + '\n');
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.writable.end();
  }
}

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

interface PendingRequest {
  method: Method;
  onProgress?: (params: ProgressParams) => void;
  resolve: (result: unknown) => void;
  reject: (error: EngineRequestError) => void;
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
  private readonly pending = new Map<number, PendingRequest>();
  /** Wire id of the next request; every id below it has been sent. */
  private nextWireId = 1;
  private faultReason: string | undefined;
  private closedReason: string | undefined;
  private readonly faultListeners: Listener<ProtocolViolation>[] = [];
  private readonly warningListeners: Listener<string>[] = [];
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
    this.writer = new NdjsonWriter(engineStdin, undefined, trace && ((line) => trace('send', line)));
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
    let id = 0;
    const result = new Promise<ResultOf<M>>((resolve, reject) => {
      const checked = PARAMS_SCHEMA[method].safeParse(params);
      if (!checked.success) {
        reject(new EngineRequestError('write', `invalid ${method} params: ${describeIssues(checked.error, 'params')}`));
        return;
      }
      const unavailable = this.faultReason ?? this.closedReason;
      if (unavailable !== undefined) {
        reject(new EngineRequestError(this.faultReason ? 'fault' : 'closed', unavailable));
        return;
      }
      id = this.nextWireId++;
      const entry: PendingRequest = {
        method,
        resolve: (value) => resolve(value as ResultOf<M>),
        reject,
      };
      if (onProgress) entry.onProgress = onProgress;
      this.pending.set(id, entry);
      this.writer.write({ jsonrpc: '2.0', id, method, params: checked.data } as RequestMessage).catch((error: unknown) => {
        if (this.pending.delete(id)) reject(new EngineRequestError('write', `cannot send ${method}: ${messageOf(error)}`));
      });
    });
    let cancelled = false;
    return {
      get id() {
        return id;
      },
      result,
      cancel: () => {
        if (cancelled || id === 0 || !this.pending.has(id)) return;
        cancelled = true;
        this.writer.write({ jsonrpc: '2.0', method: 'cancel', params: { id } } as Message).catch(() => {});
      },
    };
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

  private decode(line: string): void {
    if (this.faultReason !== undefined) return;
    const verdict = classifyEngineLine(line, (id) => this.pending.get(id)?.method, this.nextWireId);
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
        this.warn(`ignored progress for id ${verdict.params.id}, which no running request has: ${excerpt(line)}`);
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
  const fault = (reason: string): EngineLineVerdict => ({ kind: 'fault', violation: { reason, line: excerpt(line) } });
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return fault('the line is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fault('the line is not a JSON object');
  const object = value as Record<string, unknown>;

  if ('method' in object) {
    if (object.method !== 'progress' || 'id' in object) {
      return fault(`the engine sent a ${'id' in object ? 'request' : 'notification'} ${JSON.stringify(object.method)}, which the protocol does not allow`);
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

  if (!('id' in object)) return fault('the message is neither a response nor a progress notification');
  const id = object.id;
  const method = typeof id === 'number' ? methodOf(id) : undefined;
  if (method === undefined) {
    const answered = typeof id === 'number' && Number.isInteger(id) && id >= 1 && id < nextId;
    return fault(answered ? `a second response for id ${id}, which was already answered` : `a response for id ${JSON.stringify(id)}, which was never sent`);
  }
  const wireId = id as number;
  const invalid = (reason: string): EngineLineVerdict => ({ kind: 'invalid', id: wireId, violation: { reason, line: excerpt(line) } });
  if ('result' in object && 'error' in object) return invalid('the response has both result and error');
  if ('error' in object) {
    const checked = ErrorResponse.safeParse(object);
    if (!checked.success) return invalid(`invalid ${method} response: ${describeIssues(checked.error)}`);
    return { kind: 'response', id: wireId, error: checked.data.error };
  }
  const checked = RESULT_RESPONSE_SCHEMA[method].safeParse(object);
  if (!checked.success) return invalid(`invalid ${method} response: ${describeIssues(checked.error)}`);
  return { kind: 'response', id: wireId, result: checked.data.result };
}

export function connectToEngine(engineStdout: Readable, engineStdin: Writable, options?: EngineConnectionOptions): EngineConnection {
  return new EngineConnection(engineStdout, engineStdin, options);
}

/** vscode-jsonrpc replaces non-numeric error codes, so protocol error words ride in `data`. */
const CODE_CARRIER = -32000;

function protocolCodeOf(data: unknown): ErrorCode | undefined {
  const code = typeof data === 'object' && data !== null ? (data as { protocolCode?: unknown }).protocolCode : undefined;
  return code === 'unsupported' || code === 'budget' || code === 'internal' ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const silentLogger = { error: () => {}, warn: () => {}, info: () => {}, log: () => {} };

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
  const running = new Map<number, CancellationTokenSource>();
  // Requests read but not yet dispatched by vscode-jsonrpc, and those of them already cancelled.
  const queued = new Set<number>();
  const cancelledEarly = new Set<number>();
  const tokenIds = new WeakMap<CancellationToken, number>();

  const writer = new NdjsonWriter(
    output,
    (message) => {
    // vscode-jsonrpc answers unknown methods and thrown handlers with numeric codes; the protocol's codes are words.
    const response = message as { error?: { code: unknown; message: string; data?: unknown } };
    if (response.error) {
      const code = protocolCodeOf(response.error.data) ?? (response.error.code === -32601 ? 'unsupported' : 'internal');
      return { ...message, error: { code, message: response.error.message } } as unknown as Message;
    }
    return message;
    },
    undefined,
    () => queued.size > 0,
  );

  const reader = new NdjsonReader(
    input,
    (line) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        log(`ignored a line that is not JSON: ${excerpt(line)}`);
        return undefined;
      }
      const object = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
      const id = object.id;
      const answerable = typeof id === 'number' && Number.isInteger(id) && id >= 1;
      if (object.method === 'cancel' && !('id' in object)) {
        const checked = CancelNotification.safeParse(object);
        if (!checked.success) {
          log(`ignored an invalid cancel: ${describeIssues(checked.error)}; line: ${excerpt(line)}`);
          return undefined;
        }
        const target = checked.data.params.id;
        const source = running.get(target);
        if (source) source.cancel();
        else if (queued.has(target)) cancelledEarly.add(target);
        return undefined;
      }
      if (!answerable) {
        log(`ignored a message that is neither a request nor a cancel: ${excerpt(line)}`);
        return undefined;
      }
      if (!isMethod(object.method)) {
        writer.writeRaw({ jsonrpc: '2.0', id, error: { code: 'unsupported', message: `unknown method ${JSON.stringify(object.method)}` } });
        return undefined;
      }
      const method = object.method;
      const envelope = object.jsonrpc === '2.0' ? undefined : 'jsonrpc: must be "2.0"';
      const extra = Object.keys(object).filter((k) => !['jsonrpc', 'id', 'method', 'params'].includes(k));
      const checked = PARAMS_SCHEMA[method].safeParse(object.params);
      const problem =
        envelope ??
        (extra.length > 0 ? `unknown properties ${extra.join(', ')}` : checked.success ? undefined : describeIssues(checked.error, 'params'));
      if (problem !== undefined) {
        writer.writeRaw({ jsonrpc: '2.0', id, error: { code: 'unsupported', message: `invalid ${method} request: ${problem}` } });
        return undefined;
      }
      queued.add(id);
      return { jsonrpc: '2.0', id, method, params: checked.data } as Message;
    },
    {
      overlong: (bytes) => log(`ignored a line of ${bytes} bytes (limit ${options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES})`),
      partial: (rest) => log(`input ended in the middle of a line: ${excerpt(rest)}`),
    },
    options.maxLineBytes,
  );

  const connection = createMessageConnection(reader, writer, silentLogger, {
    cancellationStrategy: {
      receiver: {
        kind: 'request',
        createCancellationTokenSource: (request: RequestMessage) => {
          const id = request.id as number;
          const source = new CancellationTokenSource();
          running.set(id, source);
          tokenIds.set(source.token, id);
          queued.delete(id);
          if (cancelledEarly.delete(id)) source.cancel();
          return source;
        },
      },
      sender: { sendCancellation: async () => {}, cleanup: () => {} },
    },
  });

  function register<M extends Method>(method: M, handle: (params: ParamsOf<M>, id: number, token: CancellationToken) => Awaitable<ResultOf<M>>) {
    connection.onRequest(method, async (params: ParamsOf<M>, token: CancellationToken) => {
      const id = tokenIds.get(token) ?? 0;
      try {
        const result = await handle(params, id, token);
        const checked = RESULT_SCHEMA[method].safeParse(result);
        if (!checked.success) {
          const problem = `the engine produced an invalid ${method} result: ${describeIssues(checked.error, 'result')}`;
          log(problem);
          throw new EngineError('internal', problem);
        }
        return checked.data;
      } catch (error) {
        if (error instanceof EngineError) throw new ResponseError(CODE_CARRIER, error.message, { protocolCode: error.code });
        const message = error instanceof Error ? error.message : String(error);
        throw new ResponseError(CODE_CARRIER, `${method} failed: ${message}`, { protocolCode: 'internal' });
      } finally {
        // vscode-jsonrpc never tells a custom receiver that a request finished.
        running.delete(id);
      }
    });
  }

  register('describe', (params, id, token) => handlers.describe(params, { id, token }));
  register('covers', (params, id, token) => handlers.covers(params, { id, token }));
  register('run', (params, id, token) =>
    handlers.run(params, {
      id,
      token,
      progress: (counts) => {
        const checked = ProgressNotification.safeParse({ jsonrpc: '2.0', method: 'progress', params: { ...counts, id } });
        if (!checked.success) {
          log(`did not send invalid progress: ${describeIssues(checked.error)}`);
          return;
        }
        void connection.sendNotification('progress', checked.data.params).catch(() => {});
      },
    }),
  );

  const closed = new Promise<void>((resolve) => connection.onClose(() => resolve()));
  connection.listen();
  return {
    closed,
    get runningCount() {
      return running.size;
    },
    dispose: () => {
      connection.dispose();
      writer.end();
    },
  };
}
