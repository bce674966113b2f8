// The subcommands: their flags, usage text and what each does (task-adapter-contract.md, "Endpoints").
import { readFile } from 'node:fs/promises';
import { TaskServiceClient } from './client';
import { readConfig, type AdapterConfig, type Environment } from './config';
import { formatDuration } from './duration';
import { ensureRunning } from './ensure';
import { parseFlags, type FlagSpec, type FlagValue } from './flags';
import { AdapterFailure, ExitCode, success, UsageError, type Outcome } from './outcome';
import { deadlineFailure, waitForTasks } from './wait';

/** What a command may touch besides the network. */
export interface AdapterIo {
  env: Environment;
  /** Standard input, read to the end; undefined when it is a terminal (nothing piped). */
  readStdin: () => Promise<string | undefined>;
  /** Diagnostics (stderr). */
  log: (line: string) => void;
}

interface Command {
  name: string;
  summary: string;
  flags: FlagSpec[];
  run: (flags: Map<string, FlagValue>, config: AdapterConfig, io: AdapterIo) => Promise<Outcome>;
}

const requestTimeoutFlag: FlagSpec = {
  name: 'request-timeout',
  kind: 'duration',
  default: '30s',
  description: 'bound on each HTTP request (default from SERVICE_REQUEST_TIMEOUT, else 30s)',
};
const fileFlag: FlagSpec = { name: 'file', kind: 'string', description: 'JSON request body file ("-" or absent: standard input)' };
const taskIdsFlag: FlagSpec = { name: 'task-ids', kind: 'string', description: 'comma-separated task ids (required)' };
const timeoutFlag: FlagSpec = { name: 'timeout', kind: 'duration', default: '2m', description: 'deadline for every task to be terminal; 0 = none' };
const intervalFlag: FlagSpec = { name: 'interval', kind: 'duration', default: '500ms', description: 'pause between polls' };
const startTimeoutFlag: FlagSpec = { name: 'start-timeout', kind: 'duration', default: '60s', description: 'how long a started service/runtime may take to answer' };

function durationFlag(flags: Map<string, FlagValue>, spec: FlagSpec, fallbackMs: number): number {
  const value = flags.get(spec.name);
  const ms = typeof value === 'number' ? value : fallbackMs;
  if (ms < 0) throw new UsageError(`-${spec.name} must not be negative`);
  return ms;
}

function taskIds(flags: Map<string, FlagValue>): string[] {
  const raw = flags.get('task-ids');
  if (typeof raw !== 'string') throw new UsageError('-task-ids is required (e.g. -task-ids t1,t2)');
  const ids = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  if (ids.length === 0) throw new UsageError('-task-ids lists no task id (e.g. -task-ids t1,t2)');
  // A URL treats `.` and `..` as path steps, encoded or not: /tasks/../cancel would be POST /cancel.
  const dots = ids.find((id) => id === '.' || id === '..');
  if (dots !== undefined) throw new UsageError(`-task-ids: "${dots}" is not a task id (it would name another endpoint)`);
  return ids;
}

function waitOptions(flags: Map<string, FlagValue>): { timeoutMs: number; intervalMs: number } {
  const timeoutMs = durationFlag(flags, timeoutFlag, 120_000);
  const intervalMs = durationFlag(flags, intervalFlag, 500);
  if (intervalMs <= 0) throw new UsageError('-interval must be positive (e.g. 500ms)');
  return { timeoutMs, intervalMs };
}

/** The request body of act/translate/submit: the -file's text or standard input, checked to be JSON. */
async function requestBody(flags: Map<string, FlagValue>, io: AdapterIo): Promise<string> {
  const file = flags.get('file');
  let text: string | undefined;
  let source: string;
  if (file === '') throw new UsageError('-file is empty (give a path, or - for standard input)');
  if (typeof file === 'string' && file !== '-') {
    source = file;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new AdapterFailure(`cannot read request file ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`, ExitCode.ioOrHttp);
    }
  } else {
    source = 'standard input';
    text = await io.readStdin();
    if (text === undefined) throw new UsageError('no request body: pass -file <path> or pipe JSON on standard input');
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1); // a byte-order mark some editors write is not JSON
  if (text.trim() === '') throw new UsageError(`the request body from ${source} is empty`);
  try {
    JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the request body from ${source} is not JSON: ${(error as Error).message}`);
  }
  return text;
}

const commands: Command[] = [
  {
    name: 'capabilities',
    summary: 'GET /adapters/capabilities — the adapter contract (adapter.v1)',
    flags: [requestTimeoutFlag],
    run: async (_f, config) => success(await new TaskServiceClient(config).capabilities()),
  },
  {
    name: 'tools',
    summary: 'GET /adapters/tools — the tool manifest for agent tools',
    flags: [requestTimeoutFlag],
    run: async (_f, config) => success(await new TaskServiceClient(config).tools()),
  },
  {
    name: 'act',
    summary: 'POST /adapters/actions — run an AgentActionRequest; data holds the translation and task_ids',
    flags: [fileFlag, requestTimeoutFlag],
    run: async (flags, config, io) => success(await new TaskServiceClient(config).act(await requestBody(flags, io))),
  },
  {
    name: 'translate',
    summary: 'POST /adapters/translate — translate an action without executing it',
    flags: [fileFlag, requestTimeoutFlag],
    run: async (flags, config, io) => success(await new TaskServiceClient(config).translate(await requestBody(flags, io))),
  },
  {
    name: 'submit',
    summary: 'POST /tasks — submit a task graph directly',
    flags: [fileFlag, requestTimeoutFlag],
    run: async (flags, config, io) => success(await new TaskServiceClient(config).submit(await requestBody(flags, io))),
  },
  {
    name: 'wait',
    summary: 'poll GET /tasks/{id} until every task is terminal; data: tasks, all_terminal, deadline_rfc3339',
    flags: [taskIdsFlag, timeoutFlag, intervalFlag, requestTimeoutFlag],
    run: async (flags, config) => {
      const ids = taskIds(flags);
      const options = waitOptions(flags);
      const result = await waitForTasks(new TaskServiceClient(config), ids, options);
      if (result.deadlinePassed) throw deadlineFailure(result.data, options.timeoutMs);
      return success(result.data);
    },
  },
  {
    name: 'cancel',
    summary: 'POST /tasks/{id}/cancel for each task; with -wait, then poll like wait',
    flags: [taskIdsFlag, { name: 'wait', kind: 'boolean', description: 'after cancelling, wait until every task is terminal' }, timeoutFlag, intervalFlag, requestTimeoutFlag],
    run: async (flags, config, io) => {
      const ids = taskIds(flags);
      const wantWait = flags.get('wait') === true;
      const options = wantWait ? waitOptions(flags) : undefined;
      const client = new TaskServiceClient(config);
      const tasks: unknown[] = [];
      const failures: AdapterFailure[] = [];
      // One call per task, in order; a failed call does not stop the others.
      for (const id of ids) {
        try {
          const body = await client.cancel(id);
          const item = typeof body === 'object' && body !== null && !Array.isArray(body) ? { task_id: id, ...body } : { task_id: id, response: body };
          tasks.push(item);
          io.log(`cancel ${id}: requested`);
        } catch (error) {
          if (!(error instanceof AdapterFailure)) throw error;
          io.log(`cancel ${id}: ${error.message}`);
          failures.push(error);
        }
      }
      if (failures.length > 0) {
        const first = failures[0]!;
        const message =
          failures.length === 1 && ids.length === 1
            ? first.message
            : `cancel failed for ${failures.length} of ${ids.length} task(s): ${failures.map((f) => f.message).join('; ')}`;
        throw new AdapterFailure(message, ExitCode.ioOrHttp, first.statusCode, first.body, { tasks });
      }
      if (!options) return success({ tasks });
      const result = await waitForTasks(client, ids, options);
      const data = { tasks, wait: result.data, all_terminal: result.data.all_terminal };
      if (result.deadlinePassed) throw deadlineFailure(result.data, options.timeoutMs, data);
      return success(data);
    },
  },
  {
    name: 'health',
    summary: 'GET /health — liveness',
    flags: [requestTimeoutFlag],
    run: async (_f, config) => success(await new TaskServiceClient(config).health()),
  },
  {
    name: 'ensure-running',
    summary: 'probe {base_url}/health (and {runtime_url}/readyz), start what is down when possible',
    flags: [
      { name: 'with-runtime', kind: 'boolean', description: 'also require the runtime (start it from SERVICE_RUNTIME_IMAGE when possible)' },
      startTimeoutFlag,
      requestTimeoutFlag,
    ],
    run: async (flags, config, io) => {
      const withRuntime = flags.get('with-runtime') === true;
      const startTimeoutMs = durationFlag(flags, startTimeoutFlag, 60_000);
      const data = await ensureRunning(config, { withRuntime, startTimeoutMs, env: io.env, log: io.log });
      if (!data.service.reachable) {
        throw new AdapterFailure(`the service is unreachable at ${data.service.url}/health${data.manual_hints.length ? `: ${data.manual_hints[0]}` : ''}`, ExitCode.serviceUnreachable, data.service.health_status_code, '', data);
      }
      if (withRuntime && !data.runtime.reachable) {
        throw new AdapterFailure(`the runtime is unreachable at ${data.runtime.url}/readyz${data.manual_hints.length ? `: ${data.manual_hints[0]}` : ''}`, ExitCode.runtimeUnreachable, data.runtime.ready_status_code, '', data);
      }
      return success(data);
    },
  },
];

const environmentHelp = `Environment:
  SERVICE_URL              control plane base URL (default http://127.0.0.1:8080)
  SERVICE_RUNTIME_URL      runtime base URL (default http://127.0.0.1:18080)
  SERVICE_COMPOSE_DIR      directory with the service's compose file (ensure-running starts it)
  SERVICE_RUNTIME_IMAGE    container image ensure-running --with-runtime may start
  SERVICE_RUNTIME_SOURCE   runtime source root, named in manual hints
  SERVICE_REQUEST_TIMEOUT  default for -request-timeout (Go duration, e.g. 30s)`;

const exitHelp = `Output: exactly one JSON object on stdout: {"ok":true,"data":...} or
  {"ok":false,"error":{"message","status_code","body"}} (plus "data" for exit codes 3-5).
Exit codes: 0 success, 1 I/O or HTTP error, 2 usage error, 3 deadline passed without every task
  terminal, 4 service unreachable, 5 runtime unreachable (ensure-running --with-runtime).`;

function flagLine(spec: FlagSpec): string {
  const shape = spec.kind === 'boolean' ? '' : spec.kind === 'duration' ? ' <duration>' : ' <value>';
  const fallback = spec.default ? ` (default ${spec.default})` : '';
  return `  -${spec.name}${shape}`.padEnd(32) + `${spec.description}${spec.kind === 'duration' && spec.name !== 'request-timeout' ? fallback : ''}`;
}

export function usage(commandName?: string): string {
  const command = commands.find((c) => c.name === commandName);
  if (command) {
    const flags = command.flags.map(flagLine).join('\n');
    return `Usage: assay-adapter ${command.name} [flags]\n\n${command.summary}\n\nFlags (one or two dashes; -flag value or -flag=value):\n${flags}\n\n${environmentHelp}\n\n${exitHelp}\n`;
  }
  const list = commands.map((c) => `  ${c.name.padEnd(16)}${c.summary}`).join('\n');
  return `Usage: assay-adapter <subcommand> [flags]\n\nSubcommands:\n${list}\n\nRun "assay-adapter <subcommand> -h" for its flags.\n\n${environmentHelp}\n\n${exitHelp}\n`;
}

const helpWords = new Set(['help', '-h', '--h', '-help', '--help']);

/** Runs one invocation. Never throws for anything a user can cause: that becomes an Outcome. */
export async function runAdapter(argv: readonly string[], io: AdapterIo): Promise<Outcome> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.log(usage());
    throw new UsageError('no subcommand given (one of: ' + commands.map((c) => c.name).join(', ') + ')');
  }
  if (helpWords.has(name)) {
    const topic = rest[0] && commands.some((c) => c.name === rest[0]) ? rest[0] : undefined;
    const text = usage(topic);
    io.log(text);
    return success({ usage: text });
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.log(usage());
    throw new UsageError(`unknown subcommand "${name}" (one of: ${commands.map((c) => c.name).join(', ')})`);
  }
  try {
    const parsed = parseFlags(rest, command.flags);
    if (parsed.help) {
      const text = usage(command.name);
      io.log(text);
      return success({ usage: text });
    }
    const config = readConfig(io.env);
    const requestTimeout = parsed.values.get('request-timeout');
    if (typeof requestTimeout === 'number') {
      if (requestTimeout <= 0) throw new UsageError('-request-timeout must be positive (e.g. 30s)');
      config.requestTimeoutMs = requestTimeout;
    }
    io.log(`assay-adapter ${command.name}: service ${config.baseUrl}, request timeout ${formatDuration(config.requestTimeoutMs)}`);
    return await command.run(parsed.values, config, io);
  } catch (error) {
    // Flag values are checked as the command reads them: every usage error shows the usage.
    if (error instanceof UsageError) io.log(usage(command.name));
    throw error;
  }
}
