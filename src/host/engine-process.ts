// One engine program: spawned on first use, checked with `describe`, restarted on the next use after it
// exits or crashes, stopped cleanly (stdin closed, then killed after a grace period).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  EngineRequestError, connectToEngine, type EngineConnection, type Method, type ParamsOf, type ProgressParams,
  type RequestHandle, type ErrorCode,
} from '../protocol';
import { SERVED_PROTOCOLS, capabilitiesOf, describeMismatches, type EngineCapabilities } from './describe-check';
import { missingBuiltInProgram, type EngineEntry } from './manifest';

export interface EngineProcessOptions {
  /** How long `describe` may take after spawning (default 10 s). */
  startTimeoutMs?: number;
  /** How long an engine may take to exit after its input is closed, before it is killed (default 2 s). */
  shutdownGraceMs?: number;
  /** Bytes of stderr kept for diagnostics (default 64 KiB; older output is dropped). */
  stderrLimit?: number;
  /** Longest stdout line accepted (default 64 MiB). */
  maxLineBytes?: number;
  /** Working directory for entries that name none. */
  cwd?: string;
  /** Every protocol line, for the protocol trace. */
  trace?: (engine: string, direction: 'send' | 'receive', line: string) => void;
  /** Things worth telling the user that fail nothing (progress for unknown ids, protocol faults). */
  log?: (engine: string, text: string) => void;
}

export type EngineFailureKind =
  | 'start' // could not be started or did not answer describe
  | 'refused' // describe disagrees with the entry
  | 'exited' // the process ended before answering
  | 'protocol' // the engine broke the protocol
  | 'error' // the engine answered with a protocol error
  | 'stopped'; // the host stopped it (cancel not honoured, deadline, shutdown)

export class EngineFailure extends Error {
  constructor(
    readonly engine: string,
    readonly kind: EngineFailureKind,
    message: string,
    /** The protocol error code when kind is 'error'. */
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = 'EngineFailure';
  }
}

export type EngineStatus = 'not started' | 'starting' | 'ready' | 'refused' | 'failed';

interface Running {
  child: ChildProcessWithoutNullStreams;
  connection: EngineConnection;
  exited: Promise<void>;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  /** Set when the host killed it, to name the reason in failures. */
  stopReason?: string;
  fault?: string;
}

/** Last bytes of a stream, bounded. */
class BoundedText {
  private chunks: string[] = [];
  private size = 0;
  dropped = 0;
  constructor(private readonly limit: number) {}
  add(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    while (this.size > this.limit && this.chunks.length > 1) {
      const first = this.chunks.shift()!;
      this.size -= first.length;
      this.dropped += first.length;
    }
    if (this.size > this.limit) {
      const only = this.chunks[0]!;
      const cut = only.length - this.limit;
      this.chunks[0] = only.slice(cut);
      this.size -= cut;
      this.dropped += cut;
    }
  }
  text(): string {
    return this.chunks.join('');
  }
  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.dropped = 0;
  }
}

// Every engine runs in its own process group (POSIX), so a wrapper script that starts the real engine
// without `exec`, or an engine's own children, are stopped with it: killing only the direct child would
// leave the real engine holding the host's pipes. Groups still alive when the host exits are killed.
const GROUPED = process.platform !== 'win32';
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killTree(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals = 'SIGKILL'): void {
  const pid = child.pid;
  if (GROUPED && pid !== undefined) {
    try {
      process.kill(-pid, signal);
      return;
    } catch {
      // The group is gone already (or never formed): fall back to the child itself.
    }
  }
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

function trackGroup(pid: number | undefined): void {
  if (!GROUPED || pid === undefined) return;
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** After the engine exits: how long its stdout may stay open (held by a process that escaped its
 * group) before the host stops reading it. */
const PIPE_LINGER_MS = 500;

export class EngineProcess {
  private running: Running | undefined;
  private starting: Promise<EngineCapabilities> | undefined;
  private capabilities: EngineCapabilities | undefined;
  private refusal: string | undefined;
  private lastFailure: string | undefined;
  private readonly stderr: BoundedText;
  private readonly options: Required<Pick<EngineProcessOptions, 'startTimeoutMs' | 'shutdownGraceMs' | 'stderrLimit'>> & EngineProcessOptions;

  constructor(
    readonly entry: EngineEntry,
    options: EngineProcessOptions = {},
  ) {
    this.options = { startTimeoutMs: 10_000, shutdownGraceMs: 2_000, stderrLimit: 64 * 1024, ...options };
    this.stderr = new BoundedText(this.options.stderrLimit);
  }

  get name(): string {
    return this.entry.name;
  }

  get status(): EngineStatus {
    if (this.refusal !== undefined) return 'refused';
    if (this.starting) return 'starting';
    if (this.running && this.capabilities) return 'ready';
    return this.lastFailure !== undefined ? 'failed' : 'not started';
  }

  /** Why the engine is refused or last failed. */
  get problem(): string | undefined {
    return this.refusal ?? this.lastFailure;
  }

  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  /** The capabilities from the last successful describe (kept across restarts). */
  get described(): EngineCapabilities | undefined {
    return this.capabilities;
  }

  /** The last stderr output (bounded), with a note when older output was dropped. */
  stderrTail(maxChars = 2000): string {
    const text = this.stderr.text();
    const tail = text.length > maxChars ? text.slice(text.length - maxChars) : text;
    const dropped = this.stderr.dropped + (text.length - tail.length);
    return dropped > 0 ? `[${dropped} earlier characters dropped]\n${tail}` : tail;
  }

  /** Starts the engine if it is not running and checks its description. Rejects with EngineFailure. */
  start(): Promise<EngineCapabilities> {
    if (this.refusal !== undefined) return Promise.reject(new EngineFailure(this.name, 'refused', this.refusal));
    const running = this.running;
    const stopping = running !== undefined && !running.exit && running.stopReason !== undefined;
    if (running && this.capabilities && !running.exit && !stopping) return Promise.resolve(this.capabilities);
    // A process on its way out (shut down, killed, faulted) is let go first: the new one replaces it.
    this.starting ??= (stopping ? running.exited : Promise.resolve()).then(() => this.spawnAndDescribe()).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Sends a request to the running engine; failures arrive as EngineFailure with the engine's name. */
  request<M extends Method>(method: M, params: ParamsOf<M>, onProgress?: (p: ProgressParams) => void): RequestHandle<M> {
    const running = this.running;
    if (!running) {
      const failed = Promise.reject(new EngineFailure(this.name, 'exited', `engine "${this.name}" is not running`));
      return { id: 0, result: failed, cancel: () => {} };
    }
    const handle = running.connection.request(method, params, onProgress);
    const result = handle.result.catch((error: unknown) => this.explain(running, method, error));
    return {
      get id() {
        return handle.id;
      },
      result,
      cancel: () => handle.cancel(),
    };
  }

  /** Kills the process now; pending requests fail naming `reason`. */
  kill(reason: string): Promise<void> {
    const running = this.running;
    if (!running) return Promise.resolve();
    running.stopReason ??= reason;
    if (!running.exit) killTree(running.child);
    return running.exited;
  }

  /** Closes the engine's input, waits the grace period, then kills it. */
  async shutdown(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.stopReason ??= 'the host shut the engine down';
    running.connection.dispose();
    if (!running.exit) {
      const timer = setTimeout(() => killTree(running.child), this.options.shutdownGraceMs);
      await running.exited;
      clearTimeout(timer);
    }
  }

  /** Forgets a refusal or failure and stops the process; the next use starts it afresh. */
  async restart(): Promise<void> {
    this.refusal = undefined;
    this.lastFailure = undefined;
    await this.shutdown();
  }

  // ---------------------------------------------------------------------------------------------------

  private async spawnAndDescribe(): Promise<EngineCapabilities> {
    const missing = missingBuiltInProgram(this.entry);
    if (missing) throw this.failStart(`engine "${this.name}" cannot start: ${missing}`);
    let running: Running;
    try {
      running = this.spawn();
    } catch (error) {
      throw this.failStart(`engine "${this.name}" cannot start: ${messageOf(error)}`);
    }
    const spawnError = new Promise<never>((_, reject) => {
      running.child.once('error', (error: NodeJS.ErrnoException) => {
        const why = error.code === 'ENOENT' ? `command ${JSON.stringify(this.entry.command)} was not found` : error.message;
        reject(new EngineFailure(this.name, 'start', `engine "${this.name}" cannot start: ${why}`));
      });
    });
    const describe = running.connection.request('describe', { protocols: SERVED_PROTOCOLS });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new EngineFailure(this.name, 'start', `engine "${this.name}" did not answer describe within ${seconds(this.options.startTimeoutMs)}`)),
        this.options.startTimeoutMs,
      );
    });
    try {
      const description = await Promise.race([
        describe.result.catch((error: unknown) => this.explain(running, 'describe', error)),
        spawnError,
        timeout,
      ]);
      const mismatches = describeMismatches(this.entry, description);
      if (mismatches.length > 0) {
        this.refusal = `engine "${this.name}" is not used: its describe answer differs from its entry in ${mismatches.length === 1 ? 'one field' : `${mismatches.length} fields`}: ${mismatches.join('; ')}`;
        void this.kill('its describe answer differs from its entry');
        throw new EngineFailure(this.name, 'refused', this.refusal);
      }
      this.capabilities = capabilitiesOf(description);
      this.lastFailure = undefined;
      return this.capabilities;
    } catch (error) {
      const failure = error instanceof EngineFailure ? error : new EngineFailure(this.name, 'start', messageOf(error));
      if (failure.kind !== 'refused') {
        this.lastFailure = failure.message;
        await this.kill(failure.message);
      }
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  private spawn(): Running {
    this.stderr.clear();
    const child = spawn(this.entry.command, this.entry.args ?? [], {
      cwd: this.entry.cwd ?? this.options.cwd ?? process.cwd(),
      env: { ...process.env, ...(this.entry.env ?? {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // Its own process group (see killTree); the host forwards Ctrl-C as a protocol cancel anyway.
      detached: GROUPED,
    });
    trackGroup(child.pid);
    const trace = this.options.trace;
    const connection = connectToEngine(child.stdout, child.stdin, {
      ...(this.options.maxLineBytes ? { maxLineBytes: this.options.maxLineBytes } : {}),
      ...(trace ? { trace: (direction: 'send' | 'receive', line: string) => trace(this.name, direction, line) } : {}),
    });
    const running: Running = {
      child,
      connection,
      exited: new Promise<void>((resolve) => {
        child.once('exit', (code, signal) => {
          running.exit = { code, signal };
          // What the engine left behind in its group (a wrapper's engine, a child holding stdout)
          // goes with it, so the pipe ends; one that escaped the group is not waited for.
          killTree(child);
          if (child.pid !== undefined) liveGroups.delete(child.pid);
          const linger = setTimeout(() => {
            child.stdout.destroy();
            child.stderr.destroy();
            child.stdin.destroy();
          }, PIPE_LINGER_MS);
          linger.unref();
          child.stdout.once('close', () => clearTimeout(linger));
          resolve();
        });
        // A spawn failure emits 'error' and never 'exit'.
        child.once('error', () => {
          running.exit ??= { code: null, signal: null };
          resolve();
        });
      }),
    };
    // EPIPE and late process errors when the engine is gone: the exit handler reports them, and an
    // 'error' event without a listener would bring the host down.
    child.on('error', () => {});
    child.stdin.on('error', () => {});
    child.stderr.on('error', () => {});
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => this.stderr.add(text));
    connection.onFault((violation) => {
      running.fault = `${violation.reason}; line: ${violation.line}`;
      this.options.log?.(this.name, `broke the protocol: ${running.fault}`);
      // An engine that cannot be understood is stopped; the next use starts it afresh.
      running.stopReason ??= `it broke the protocol: ${running.fault}`;
      killTree(child);
    });
    connection.onWarning((text) => this.options.log?.(this.name, text));
    void running.exited.then(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }

  private failStart(message: string): EngineFailure {
    this.lastFailure = message;
    return new EngineFailure(this.name, 'start', message);
  }

  /** Turns a transport failure into a message naming the engine, its exit status and its stderr. */
  private async explain(running: Running, method: Method, error: unknown): Promise<never> {
    if (!(error instanceof EngineRequestError)) throw new EngineFailure(this.name, 'protocol', messageOf(error));
    switch (error.failure) {
      case 'error':
        throw new EngineFailure(this.name, 'error', error.message, error.code);
      case 'violation':
        this.options.log?.(this.name, `invalid answer to ${method}: ${error.message}`);
        throw new EngineFailure(this.name, 'protocol', `engine "${this.name}" broke the protocol answering ${method}: ${error.message}`);
      case 'fault':
        throw new EngineFailure(this.name, 'protocol', `engine "${this.name}" broke the protocol: ${running.fault ?? error.message}`);
      case 'write':
        throw new EngineFailure(this.name, 'protocol', `engine "${this.name}": ${error.message}`);
      case 'closed': {
        // The output closed: wait briefly for the exit status to say why.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([running.exited, new Promise((r) => (timer = setTimeout(r, 1000)))]);
        clearTimeout(timer);
        if (running.stopReason) {
          const kind = running.fault ? 'protocol' : 'stopped';
          throw new EngineFailure(this.name, kind, `engine "${this.name}" was stopped before answering ${method}: ${running.stopReason}`);
        }
        const exit = running.exit;
        const status = !exit ? 'closed its output' : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
        const stderr = this.stderrTail(800).trim();
        throw new EngineFailure(
          this.name,
          'exited',
          `engine "${this.name}" ${status} before answering ${method}${stderr ? `; its stderr ends with:\n${stderr}` : ''}`,
        );
      }
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
