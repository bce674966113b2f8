// ensure-running: probe the service ({base_url}/health) and the runtime ({runtime_url}/readyz); when
// down, start the service with `docker compose` in SERVICE_COMPOSE_DIR and (with --with-runtime) the
// runtime from SERVICE_RUNTIME_IMAGE, but only when those tools are on PATH; otherwise say what to do.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { httpRequest } from './client';
import type { AdapterConfig, Environment } from './config';
import { formatDuration } from './duration';

export interface ServiceProbe {
  url: string;
  reachable: boolean;
  /** already-up, compose, not-started */
  started_by: string;
  health_status_code: number;
}

export interface RuntimeProbe {
  url: string;
  reachable: boolean;
  /** already-up, image, not-started */
  started_by: string;
  ready_status_code: number;
}

export interface EnsureRunningData {
  service: ServiceProbe;
  runtime: RuntimeProbe;
  manual_hints: string[];
}

export interface EnsureOptions {
  withRuntime: boolean;
  /** How long a started service/runtime may take to answer, and the bound on the start command. */
  startTimeoutMs: number;
  env: Environment;
  /** Diagnostics (the start commands' output goes here, never to stdout). */
  log: (line: string) => void;
}

interface Probe {
  reachable: boolean;
  status: number;
  problem: string;
}

async function probe(url: string, timeoutMs: number): Promise<Probe> {
  try {
    const response = await httpRequest('GET', new URL(url), { timeoutMs });
    const ok = response.status >= 200 && response.status < 300;
    return { reachable: ok, status: response.status, problem: ok ? '' : `GET ${url} returned ${response.status}` };
  } catch (error) {
    return { reachable: false, status: 0, problem: error instanceof Error ? error.message : String(error) };
  }
}

async function probeUntil(url: string, requestTimeoutMs: number, budgetMs: number): Promise<Probe> {
  const end = Date.now() + budgetMs;
  for (;;) {
    const left = end - Date.now();
    const result = await probe(url, Math.max(1, Math.min(requestTimeoutMs, left)));
    if (result.reachable || Date.now() + 250 >= end) return result;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Absolute path of an executable on PATH, or undefined. */
export function findOnPath(program: string, env: Environment): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

interface CommandResult {
  code: number | null;
  output: string;
  failure?: string;
}

// A start command runs in its own process group (POSIX), so a timeout stops the tool and whatever it
// started; groups still running when the adapter exits are stopped too.
const GROUPED = process.platform !== 'win32';
const runningGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess): void {
  if (GROUPED && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
      return;
    } catch {
      // gone already
    }
  }
  child.kill('SIGKILL');
}

/** After the tool exits: how long its output may stay open (held by something it left running)
 * before the adapter stops reading it. */
const PIPE_LINGER_MS = 300;

function runCommand(
  command: string, args: string[], cwd: string | undefined, env: Environment, timeoutMs: number, log: (line: string) => void,
  /** The bound as the user knows it (the time left of -start-timeout is not what they set). */
  bound = formatDuration(timeoutMs),
): Promise<CommandResult> {
  return new Promise((resolve) => {
    log(`$ ${[command, ...args].join(' ')}${cwd ? `   (in ${cwd})` : ''}`);
    const child = spawn(command, args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: GROUPED });
    const pid = child.pid;
    if (GROUPED && pid !== undefined) {
      runningGroups.add(pid);
      if (!exitHookInstalled) {
        exitHookInstalled = true;
        process.on('exit', () => {
          for (const group of runningGroups) {
            try {
              process.kill(-group, 'SIGKILL');
            } catch {
              // gone already
            }
          }
        });
      }
    }
    const chunks: Buffer[] = [];
    const collect = (chunk: Buffer): void => {
      chunks.push(chunk);
      log(chunk.toString('utf8').replace(/\n$/, ''));
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, Math.max(1, timeoutMs));
    let failure: string | undefined;
    let settled = false;
    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (pid !== undefined) runningGroups.delete(pid);
      if (timedOut && !failure) failure = `did not finish within ${bound}`;
      resolve({ code, output: Buffer.concat(chunks).toString('utf8'), failure });
    };
    child.on('error', (error) => {
      failure = error.message;
      finish(null);
    });
    child.on('close', (code) => finish(code));
    child.on('exit', (code) => {
      // Normally 'close' follows at once; when something the tool left running holds its output, the
      // adapter does not wait for that.
      setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        finish(code);
      }, PIPE_LINGER_MS).unref();
    });
  });
}

/** The line of a tool's output that says what went wrong (docker puts it first, then usage advice). */
function telling(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /error|cannot|denied|not found|no such|refused|failed/i.test(l)) ?? lines[0] ?? '';
}

function why(result: CommandResult): string {
  if (result.failure) return result.failure;
  const said = telling(result.output);
  return `exit code ${String(result.code)}${said ? `: ${said}` : ''}`;
}

/** `docker compose` when the plugin works, else `docker-compose`; or why neither is usable. */
async function composeCommand(options: EnsureOptions, end: number): Promise<string[] | string> {
  const docker = findOnPath('docker', options.env);
  let pluginProblem = '';
  if (docker) {
    const version = await runCommand(docker, ['compose', 'version'], undefined, options.env, Math.min(15_000, end - Date.now()), options.log, `${formatDuration(options.startTimeoutMs)} (-start-timeout)`);
    if (version.code === 0 && !version.failure) return [docker, 'compose'];
    pluginProblem = `docker is on PATH but "docker compose" does not work (${why(version)})`;
  }
  const legacy = findOnPath('docker-compose', options.env);
  if (legacy) return [legacy];
  return pluginProblem ? `${pluginProblem} and docker-compose is not on PATH` : 'neither "docker compose" nor "docker-compose" is available on PATH';
}

function isLocalHost(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]', '::1', '0.0.0.0'].includes(url.hostname);
}

async function ensureService(config: AdapterConfig, options: EnsureOptions, hints: string[]): Promise<ServiceProbe> {
  const url = `${config.baseUrl}/health`;
  let result = await probe(url, config.requestTimeoutMs);
  if (result.reachable) return { url: config.baseUrl, reachable: true, started_by: 'already-up', health_status_code: result.status };
  options.log(`service not reachable: ${result.problem}`);
  let startedBy = 'not-started';
  const startByHand = `start the task service so that GET ${url} answers 2xx (SERVICE_URL=${config.baseUrl})`;
  if (!config.composeDir) {
    hints.push(`${startByHand}; or set SERVICE_COMPOSE_DIR to the directory holding its compose file so that ensure-running can start it`);
  } else if (!isDirectory(config.composeDir)) {
    hints.push(`SERVICE_COMPOSE_DIR=${config.composeDir} is not a directory; ${startByHand}`);
  } else {
    // -start-timeout bounds the whole start: finding the tool, running it and waiting for health.
    const end = Date.now() + options.startTimeoutMs;
    const compose = await composeCommand(options, end);
    const byHand = `cd ${config.composeDir} && docker compose up -d`;
    if (typeof compose === 'string') {
      hints.push(`${compose}; run "${byHand}" where it works, or ${startByHand}`);
    } else {
      const [command, ...prefix] = compose;
      const started = await runCommand(command!, [...prefix, 'up', '-d'], config.composeDir, options.env, end - Date.now(), options.log, `${formatDuration(options.startTimeoutMs)} (-start-timeout)`);
      if (started.code !== 0 || started.failure) {
        hints.push(`"${compose.join(' ')} up -d" in ${config.composeDir} failed (${why(started)}); fix that and run "${byHand}", or ${startByHand}`);
      } else {
        startedBy = 'compose';
        result = await probeUntil(url, config.requestTimeoutMs, end - Date.now());
        if (!result.reachable) {
          hints.push(`the service was started with "${compose.join(' ')} up -d" in ${config.composeDir} but GET ${url} did not answer 2xx within ${formatDuration(options.startTimeoutMs)} (${result.problem}); check its logs ("docker compose logs" there)`);
        }
      }
    }
  }
  return { url: config.baseUrl, reachable: result.reachable, started_by: startedBy, health_status_code: result.status };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function runtimeByHand(config: AdapterConfig, readyz: string): string {
  const where = config.runtimeSource
    ? `start the runtime from its source at ${config.runtimeSource} so that GET ${readyz} answers 2xx`
    : `start the runtime so that GET ${readyz} answers 2xx (set SERVICE_RUNTIME_SOURCE to its source root, or SERVICE_RUNTIME_IMAGE to a container image ensure-running can start)`;
  return `${where}; SERVICE_RUNTIME_URL=${config.runtimeUrl} must match the runtime URL the service itself uses`;
}

async function ensureRuntime(config: AdapterConfig, options: EnsureOptions, hints: string[]): Promise<RuntimeProbe> {
  const readyz = `${config.runtimeUrl}/readyz`;
  let result = await probe(readyz, config.requestTimeoutMs);
  if (result.reachable) return { url: config.runtimeUrl, reachable: true, started_by: 'already-up', ready_status_code: result.status };
  // Without --with-runtime the runtime is not needed: report it, start nothing, ask nothing.
  if (!options.withRuntime) return { url: config.runtimeUrl, reachable: false, started_by: 'not-started', ready_status_code: result.status };
  options.log(`runtime not ready: ${result.problem}`);
  let startedBy = 'not-started';
  const byHand = runtimeByHand(config, readyz);
  const runtimeUrl = new URL(config.runtimeUrl);
  const docker = config.runtimeImage ? findOnPath('docker', options.env) : undefined;
  if (!config.runtimeImage) {
    hints.push(byHand);
  } else if (!docker) {
    hints.push(`SERVICE_RUNTIME_IMAGE=${config.runtimeImage} is set but docker is not on PATH; ${byHand}`);
  } else if (!isLocalHost(runtimeUrl)) {
    hints.push(`SERVICE_RUNTIME_URL=${config.runtimeUrl} is not on this machine, so the image is not started here; ${byHand}`);
  } else {
    const port = runtimeUrl.port || (runtimeUrl.protocol === 'https:' ? '443' : '80');
    // The runtime URL's port on this machine, to the port the image listens on inside its container.
    const args = ['run', '-d', '--rm', '-p', `127.0.0.1:${port}:${config.runtimeContainerPort}`, config.runtimeImage];
    const end = Date.now() + options.startTimeoutMs;
    const started = await runCommand(docker, args, undefined, options.env, options.startTimeoutMs, options.log, `${formatDuration(options.startTimeoutMs)} (-start-timeout)`);
    if (started.code !== 0 || started.failure) {
      hints.push(`"docker ${args.join(' ')}" failed (${why(started)}); ${byHand}`);
    } else {
      startedBy = 'image';
      result = await probeUntil(readyz, config.requestTimeoutMs, end - Date.now());
      if (!result.reachable) {
        hints.push(`the runtime was started from ${config.runtimeImage} but GET ${readyz} did not answer 2xx within ${formatDuration(options.startTimeoutMs)} (${result.problem}); check "docker logs" of its container`);
      }
    }
  }
  return { url: config.runtimeUrl, reachable: result.reachable, started_by: startedBy, ready_status_code: result.status };
}

export async function ensureRunning(config: AdapterConfig, options: EnsureOptions): Promise<EnsureRunningData> {
  const hints: string[] = [];
  const service = await ensureService(config, options, hints);
  const runtime = await ensureRuntime(config, options, hints);
  return { service, runtime, manual_hints: hints };
}
