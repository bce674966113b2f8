// Calling the adapter as a process — how the extension (and any other Node caller) uses it: the CLI
// is the API. Runs `node <adapter> <args>`, feeds the request body on stdin, and returns the parsed
// envelope with the exit code. Anything else on stdout is reported as a failure, never guessed at.
import { spawn } from 'node:child_process';
import { z } from 'zod';
import type { Envelope } from './outcome';

// Not strict: `assay.tasks.adapterPath` may name another adapter.v1 program, which may add fields.
const envelopeSchema = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ message: z.string(), status_code: z.number().int(), body: z.string() }),
    data: z.unknown().optional(),
  }),
]);

export interface AdapterInvocation {
  /** Path of the adapter: a `.js` file is run with Node, anything else is executed directly. */
  adapterPath: string;
  args: readonly string[];
  /** Full environment of the child (SERVICE_URL, SERVICE_RUNTIME_URL, …). */
  env: NodeJS.ProcessEnv;
  /** Written to standard input (then closed); e.g. the body for act/translate/submit. */
  stdin?: string;
  /** Aborting kills the adapter process; the result then says so. */
  signal?: AbortSignal;
  /** Node executable for `.js` adapters (default: this process's, run as Node under Electron). */
  nodePath?: string;
}

/** Settings that map to the adapter's environment; empty values leave the inherited/default ones. */
export interface AdapterSettings {
  serviceUrl?: string;
  runtimeUrl?: string;
}

/** The child environment: `base` (usually process.env) with SERVICE_URL / SERVICE_RUNTIME_URL from settings. */
export function adapterEnvironment(base: NodeJS.ProcessEnv, settings: AdapterSettings): NodeJS.ProcessEnv {
  const env = { ...base };
  if (settings.serviceUrl?.trim()) env['SERVICE_URL'] = settings.serviceUrl.trim();
  if (settings.runtimeUrl?.trim()) env['SERVICE_RUNTIME_URL'] = settings.runtimeUrl.trim();
  return env;
}

export interface AdapterResult {
  exitCode: number;
  envelope: Envelope;
  /** The adapter's diagnostics. */
  stderr: string;
}

export function invokeAdapter(invocation: AdapterInvocation): Promise<AdapterResult> {
  const isScript = /\.[cm]?js$/.test(invocation.adapterPath);
  const command = isScript ? (invocation.nodePath ?? process.execPath) : invocation.adapterPath;
  const args = isScript ? [invocation.adapterPath, ...invocation.args] : [...invocation.args];
  // Inside the editor process.execPath is Electron; this makes it behave as plain Node.
  const env = isScript && !invocation.nodePath ? { ...invocation.env, ELECTRON_RUN_AS_NODE: '1' } : invocation.env;
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let spawnError: Error | undefined;
    let aborted = false;
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error) => {
      spawnError = error;
    });
    child.stdin.on('error', () => {
      /* the adapter may exit without reading its input */
    });
    child.stdin.end(invocation.stdin ?? '');
    const onAbort = (): void => {
      aborted = true;
      child.kill();
    };
    if (invocation.signal?.aborted) onAbort();
    else invocation.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('close', (code, signal) => {
      invocation.signal?.removeEventListener('abort', onAbort);
      const stderr = Buffer.concat(err).toString('utf8');
      const stdout = Buffer.concat(out).toString('utf8');
      const fail = (message: string): AdapterResult => ({
        exitCode: code ?? 1,
        envelope: { ok: false, error: { message, status_code: 0, body: stdout } },
        stderr,
      });
      if (spawnError) return resolve(fail(`cannot start the adapter ${invocation.adapterPath}: ${spawnError.message}`));
      if (aborted) return resolve(fail('cancelled: the adapter process was stopped'));
      let parsed: unknown;
      try {
        parsed = JSON.parse(stdout);
      } catch {
        const how = signal ? `was killed by ${signal}` : `exited with code ${String(code)}`;
        return resolve(fail(`the adapter ${invocation.adapterPath} ${how} without printing one JSON envelope on stdout`));
      }
      const checked = envelopeSchema.safeParse(parsed);
      if (!checked.success) return resolve(fail(`the adapter ${invocation.adapterPath} printed JSON that is not an adapter envelope`));
      resolve({ exitCode: code ?? 1, envelope: checked.data as Envelope, stderr });
    });
  });
}
