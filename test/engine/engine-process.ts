// Drives the real engine process (`node dist/engine.js`) over stdio with raw NDJSON lines, as a host does.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const ENGINE = join(ROOT, 'dist', 'engine.js');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'models', 'engine');

export interface WireMessage {
  jsonrpc: '2.0';
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

export class EngineProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: WireMessage[] = [];
  readonly stderr: string[] = [];
  readonly badLines: string[] = [];
  private buffer = '';
  private waiters: { match: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }[] = [];
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string> = {}) {
    if (!existsSync(ENGINE)) throw new Error(`${ENGINE} is missing: run \`npm run build\` first`);
    this.child = spawn(process.execPath, [ENGINE], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim() === '') continue;
        let m: WireMessage;
        try {
          m = JSON.parse(line) as WireMessage;
        } catch {
          this.badLines.push(line);
          continue;
        }
        this.received.push(m);
        this.waiters = this.waiters.filter((w) => {
          if (!w.match(m)) return true;
          w.resolve(m);
          return false;
        });
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => this.stderr.push(chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Writes one raw line (no validation: tests send broken ones on purpose). */
  writeLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  send(message: Record<string, unknown>): void {
    this.writeLine(JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  /** Sends a request and resolves with its response (result or error). */
  request(id: number, method: string, params: unknown): Promise<WireMessage> {
    const answer = this.next((m) => m.id === id && m.method === undefined);
    this.send({ id, method, params });
    return answer;
  }

  cancel(id: number): void {
    this.send({ method: 'cancel', params: { id } });
  }

  next(match: (m: WireMessage) => boolean, timeoutMs = 30000): Promise<WireMessage> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching engine message within ${timeoutMs} ms; stderr: ${this.stderr.join('')}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  progressOf(id: number): WireMessage[] {
    return this.received.filter((m) => m.method === 'progress' && m.params?.id === id);
  }

  /** Closes stdin (the host's way to say goodbye) and waits for the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** A `sources` model from fixture files (paths as the host sends them: relative to the workspace). */
export function modelOf(...files: string[]): { sources: { library: string; documents: { path: string; text: string }[] } } {
  return {
    sources: {
      library: '2026-04',
      documents: files.map((f) => ({ path: f, text: readFileSync(join(FIXTURES, f), 'utf8') })),
    },
  };
}

/** A `sources` model from literal text. */
export function modelText(path: string, text: string): { sources: { library: string; documents: { path: string; text: string }[] } } {
  return { sources: { library: '2026-04', documents: [{ path, text }] } };
}

export function question(kind: string, subject: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind, subject, schedule: 'fifo', free: [], ...extra };
}

export function runParams(q: Record<string, unknown>, model: unknown, budget: Record<string, unknown> = {}, bounds: unknown[] = []): Record<string, unknown> {
  return { question: q, model, bounds, budget };
}

/** The values of a result as a name → value map (units appended as ` [unit]`). */
export function valuesOf(result: Record<string, unknown> | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const v of (result?.values ?? []) as { name: string; value: string | number | boolean; unit?: string }[]) {
    out[v.name] = v.unit ? `${v.value} [${v.unit}]` : v.value;
  }
  return out;
}

/**
 * One engine process shared by the tests of a mocha suite: started before them, closed after. `run` sends
 * a `run` request with a fresh id. Call it in the suite's body (it registers the before/after hooks).
 */
export function suiteEngine(): { readonly process: EngineProcess; nextId(): number; run(q: Record<string, unknown>, model: unknown, budget?: Record<string, unknown>, bounds?: unknown[]): Promise<WireMessage> } {
  let engine: EngineProcess | undefined;
  let id = 0;
  before(() => {
    engine = new EngineProcess();
  });
  after(async () => {
    await engine?.close();
  });
  const shared = {
    get process(): EngineProcess {
      if (!engine) throw new Error('the suite engine starts in the suite\'s before hook');
      return engine;
    },
    nextId: () => ++id,
    run: (q: Record<string, unknown>, model: unknown, budget: Record<string, unknown> = {}, bounds: unknown[] = []) =>
      shared.process.request(shared.nextId(), 'run', runParams(q, model, budget, bounds)),
  };
  return shared;
}

