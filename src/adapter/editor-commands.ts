// What the editor's `Assay Tasks:` commands need that has nothing to do with the editor: the adapter
// arguments of each command, one-line summaries of the adapter's envelopes, the task ids to offer
// first in the pickers, and where a request body stops being JSON. No vscode, no processes here.
import { isAbsolute, join } from 'node:path';
import { parseDuration } from './duration';
import type { Envelope } from './outcome';

/** The editor commands, named by the adapter subcommand each one runs. */
export type TaskCommand = 'ensure-running' | 'submit' | 'act' | 'translate' | 'wait' | 'cancel' | 'capabilities' | 'tools';

// ---------------------------------------------------------------------------------------------
// Arguments

export interface WaitRequest {
  taskIds: readonly string[];
  /** A Go duration (`2m`, `30s`; `0` = no deadline). */
  timeout: string;
}

export interface CancelRequest {
  taskIds: readonly string[];
  /** Poll until every task is terminal. */
  wait: boolean;
  /** Deadline of the wait (Go duration); ignored without `wait`. */
  timeout?: string;
}

export function checkServiceArgs(withRuntime: boolean): string[] {
  return withRuntime ? ['ensure-running', '-with-runtime'] : ['ensure-running'];
}

/** Body-taking commands read standard input: `-file -` says so explicitly. */
export function bodyArgs(command: 'submit' | 'act' | 'translate'): string[] {
  return [command, '-file', '-'];
}

export function waitArgs(request: WaitRequest): string[] {
  return ['wait', '-task-ids', joinTaskIds(request.taskIds), '-timeout', request.timeout.trim()];
}

export function cancelArgs(request: CancelRequest): string[] {
  const args = ['cancel', '-task-ids', joinTaskIds(request.taskIds)];
  if (request.wait) args.push('-wait', '-timeout', (request.timeout ?? '2m').trim());
  return args;
}

function joinTaskIds(ids: readonly string[]): string {
  const clean = parseTaskIds(ids.join(','));
  if (clean.length === 0) throw new Error('no task ids given');
  return clean.join(',');
}

/** Task ids as a person types them: separated by commas and/or blanks; blanks and repeats dropped, order kept. */
export function parseTaskIds(text: string): string[] {
  const seen = new Set<string>();
  for (const id of text.split(/[\s,]+/)) if (id !== '') seen.add(id);
  return [...seen];
}

/** Why a typed deadline is not one the adapter takes (undefined when it is fine). */
export function deadlineProblem(text: string): string | undefined {
  const parsed = parseDuration(text);
  if (typeof parsed !== 'number') return `${parsed.error}; e.g. 2m, 30s, 1m30s, or 0 for no deadline`;
  if (parsed < 0) return 'the deadline may not be negative';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Which adapter

export interface AdapterChoice {
  /** What invokeAdapter runs: a `.js` file under Node, anything else as a program. */
  path: string;
  /** Where it came from, for messages. */
  origin: 'bundled' | 'setting';
}

/**
 * The adapter to run: the `assay.tasks.adapterPath` setting when it is set, else the bundled one. A
 * relative path with a folder part is taken from the workspace folder; a bare name is left for PATH.
 */
export function chooseAdapter(setting: string | undefined, bundled: string, workspaceFolder: string | undefined): AdapterChoice {
  const value = setting?.trim() ?? '';
  if (value === '') return { path: bundled, origin: 'bundled' };
  if (isAbsolute(value) || !/[\\/]/.test(value) || !workspaceFolder) return { path: value, origin: 'setting' };
  return { path: join(workspaceFolder, value), origin: 'setting' };
}

/**
 * The adapter names the environment variables it refuses (SERVICE_URL="x" must be …); in the editor
 * the user wrote a setting, so name that too when the value came from one.
 */
export function withSettingNames(message: string, fromSettings: { serviceUrl: boolean; runtimeUrl: boolean }): string {
  const names: string[] = [];
  if (fromSettings.serviceUrl && /\bSERVICE_URL=/.test(message)) names.push('assay.tasks.serviceUrl');
  if (fromSettings.runtimeUrl && /\bSERVICE_RUNTIME_URL=/.test(message)) names.push('assay.tasks.runtimeUrl');
  return names.length > 0 ? `${message} (from the setting ${names.join(' and ')})` : message;
}

// ---------------------------------------------------------------------------------------------
// Request bodies

export interface JsonProblem {
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/**
 * Where `text` stops being JSON (a leading byte-order mark is allowed, as the adapter allows it), or
 * undefined when it is JSON. The adapter refuses such bodies too; this gives the place in the file.
 */
export function jsonProblem(text: string): JsonProblem | undefined {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return { message: 'the request body is empty', line: 1, column: 1 };
  try {
    JSON.parse(body);
    return undefined;
  } catch (error) {
    // V8's message does not always carry a position, so find the place with a scanner of our own.
    const found = scanJson(body) ?? { offset: body.length, message: error instanceof Error ? error.message : String(error) };
    const before = body.slice(0, found.offset);
    const line = before.split('\n').length;
    return { message: found.message, line, column: found.offset - before.lastIndexOf('\n') };
  }
}

/** The first place where `text` is not JSON (RFC 8259), with what was expected there. */
function scanJson(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const blank = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const found = () => (i < text.length ? `found ${JSON.stringify(text[i])}` : 'found the end of the text');
  class Stop extends Error {
    constructor(readonly offset: number, message: string) {
      super(message);
    }
  }
  const fail = (what: string): never => {
    throw new Stop(i, `expected ${what}, ${found()}`);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail('a value');
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) throw new Stop(i, 'unterminated string');
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c < ' ') throw new Stop(i, 'control character inside a string (escape it)');
      if (c === '\\') {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else throw new Stop(i, 'invalid escape in a string');
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail('a value');
    i += m![0].length;
  };
  const value = (): void => {
    blank();
    const c = text[i];
    if (c === '{') {
      i++;
      blank();
      if (text[i] === '}') return void i++;
      for (;;) {
        blank();
        if (text[i] !== '"') fail('a property name in double quotes');
        string();
        blank();
        if (text[i] !== ':') fail("':'");
        i++;
        value();
        blank();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail("',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      blank();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        blank();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail("',' or ']'");
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail('a value');
  };
  try {
    value();
    blank();
    if (i < text.length) fail('the end of the text');
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return { offset: error.offset, message: error.message };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Results

interface TaskRecord {
  id?: unknown;
  task_id?: unknown;
  status?: unknown;
}

/** The task ids a submit or act answer names (`data.task_ids`), as strings. */
export function taskIdsOf(envelope: Envelope): string[] {
  const data = envelope.ok ? envelope.data : undefined;
  const ids = (data as { task_ids?: unknown } | undefined)?.task_ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && id !== '') : [];
}

export interface Summary {
  severity: 'info' | 'warning' | 'error';
  /** One line, for a notification. */
  message: string;
}

function recordsOf(data: unknown, key = 'tasks'): TaskRecord[] {
  const list = (data as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(list) ? (list.filter((r) => typeof r === 'object' && r !== null) as TaskRecord[]) : [];
}

function statusList(records: TaskRecord[]): string {
  return records.map((r) => `${String(r.id ?? r.task_id ?? '?')} ${String(r.status ?? 'unknown')}`).join(', ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function failureLine(what: string, exitCode: number, error: { message: string; status_code: number }): string {
  const http = error.status_code > 0 ? `HTTP ${error.status_code}` : exitCode === 2 ? 'usage' : `exit ${exitCode}`;
  return `${what} failed (${http}): ${error.message}`;
}

/** A one-line account of what the adapter answered, as the notification says it. */
export function summarise(command: TaskCommand, exitCode: number, envelope: Envelope): Summary {
  const data = envelope.data;
  switch (command) {
    case 'ensure-running':
      return summariseEnsure(exitCode, envelope);
    case 'submit':
    case 'act': {
      if (!envelope.ok) return { severity: 'error', message: failureLine(command === 'submit' ? 'Submit' : 'Agent action', exitCode, envelope.error) };
      const ids = taskIdsOf(envelope);
      const verb = command === 'submit' ? 'Submitted' : 'Agent action started';
      return { severity: 'info', message: ids.length > 0 ? `${verb} ${plural(ids.length, 'task')}: ${ids.join(', ')}` : `${verb}; the service named no task ids` };
    }
    case 'translate': {
      if (!envelope.ok) return { severity: 'error', message: failureLine('Translate', exitCode, envelope.error) };
      const trace = (data as { translation_trace?: unknown } | undefined)?.translation_trace;
      const steps = Array.isArray(trace) ? `, ${plural(trace.length, 'trace step')}` : '';
      return { severity: 'info', message: `Translated without running anything${steps}` };
    }
    case 'wait': {
      const records = recordsOf(data);
      // A failed task is worth a second look even though the wait itself succeeded.
      const severity = records.some((r) => r.status === 'failed') ? 'warning' : 'info';
      if (envelope.ok) return { severity, message: `${records.length === 1 ? 'The task' : `All ${records.length} tasks`} finished: ${statusList(records)}` };
      if (exitCode === 3) return { severity: 'warning', message: `Deadline passed before every task finished: ${statusList(records)}` };
      return { severity: 'error', message: failureLine('Wait', exitCode, envelope.error) };
    }
    case 'cancel': {
      const waited = (data as { wait?: unknown } | undefined)?.wait;
      if (envelope.ok && waited !== undefined) {
        const records = recordsOf(waited);
        const all = records.every((r) => r.status === 'cancelled');
        return { severity: 'info', message: `${all ? 'Cancelled' : 'Ended'}: ${statusList(records)}` };
      }
      if (envelope.ok) return { severity: 'info', message: `Cancel requested: ${statusList(recordsOf(data))}` };
      if (exitCode === 3) {
        return { severity: 'warning', message: `Cancel requested, but not every task had ended at the deadline: ${statusList(recordsOf(waited))}` };
      }
      return { severity: 'error', message: failureLine('Cancel', exitCode, envelope.error) };
    }
    case 'capabilities': {
      if (!envelope.ok) return { severity: 'error', message: failureLine('Capabilities', exitCode, envelope.error) };
      const c = (data ?? {}) as { contract?: unknown; endpoints?: unknown };
      const contract = typeof c.contract === 'string' ? c.contract : 'an unnamed contract';
      const endpoints = Array.isArray(c.endpoints) ? `, ${plural(c.endpoints.length, 'endpoint')}` : '';
      return { severity: 'info', message: `The service speaks ${contract}${endpoints}` };
    }
    case 'tools': {
      if (!envelope.ok) return { severity: 'error', message: failureLine('Tools', exitCode, envelope.error) };
      const list = (data as { tools?: unknown } | undefined)?.tools;
      const names = Array.isArray(list) ? list.map((t) => (t as { name?: unknown })?.name).filter((n): n is string => typeof n === 'string') : [];
      return { severity: 'info', message: names.length > 0 ? `${plural(names.length, 'tool')}: ${names.join(', ')}` : 'The service lists no tools' };
    }
  }
}

interface Probe {
  url?: unknown;
  reachable?: unknown;
  started_by?: unknown;
  health_status_code?: unknown;
  ready_status_code?: unknown;
}

function summariseEnsure(exitCode: number, envelope: Envelope): Summary {
  const data = (envelope.data ?? {}) as { service?: Probe; runtime?: Probe; manual_hints?: unknown };
  const service = data.service;
  const runtime = data.runtime;
  if (!service) return { severity: 'error', message: failureLine('Check Service', exitCode, envelope.ok ? { message: 'no service data', status_code: 0 } : envelope.error) };
  const started = service.started_by === 'already-up' ? '' : ` (started by ${String(service.started_by)})`;
  const runtimeText = runtime?.reachable === true
    ? `; runtime ready at ${String(runtime.url)}`
    : `; runtime not ready at ${String(runtime?.url ?? '?')}${runtime?.ready_status_code ? ` (HTTP ${String(runtime.ready_status_code)})` : ''}`;
  if (envelope.ok) {
    return { severity: 'info', message: `Task service is up at ${String(service.url)}${started} (health ${String(service.health_status_code)})${runtimeText}` };
  }
  if (exitCode === 5) return { severity: 'warning', message: `Task service is up at ${String(service.url)}${started}${runtimeText}` };
  const code = typeof service.health_status_code === 'number' && service.health_status_code > 0 ? ` (health answered HTTP ${service.health_status_code})` : '';
  return { severity: 'error', message: `Task service is unreachable at ${String(service.url)}${code}` };
}

/** `manual_hints` of an ensure-running answer. */
export function manualHints(envelope: Envelope): string[] {
  const hints = (envelope.data as { manual_hints?: unknown } | undefined)?.manual_hints;
  return Array.isArray(hints) ? hints.filter((h): h is string => typeof h === 'string') : [];
}

/**
 * Shell commands a hint suggests running ("run "cd /srv && docker compose up -d""), for a terminal.
 * Quoted commands the hint reports as failed or not working, and quoted text that does not start like
 * a command (a docker error message), are left out.
 */
export function hintCommands(hint: string): string[] {
  const commands: string[] = [];
  for (const match of hint.matchAll(/"([^"]+)"/g)) {
    const text = match[1]!.trim();
    const after = hint.slice(match.index + match[0].length);
    if (/^\s+(in \S+ )?(failed|does not work)/.test(after)) continue;
    if (/^(cd|docker|docker-compose|podman|\/\S*docker)\b/.test(text) && !commands.includes(text)) commands.push(text);
  }
  return commands;
}

// ---------------------------------------------------------------------------------------------
// Remembered task ids

export interface RememberedTask {
  id: string;
  /** Which command produced it (submit, act). */
  via: string;
  /** Where the request body came from (a file name, or "untitled"). */
  source: string;
  /** ISO time of the submission. */
  at: string;
}

/** Newest first: `ids` of one submission go to the front (in their order), older entries of the same id are dropped. */
export function rememberTasks(previous: readonly RememberedTask[], ids: readonly string[], meta: Omit<RememberedTask, 'id'>,
  limit = 50): RememberedTask[] {
  const fresh = parseTaskIds(ids.join(',')).map((id) => ({ id, ...meta }));
  const kept = previous.filter((t) => !fresh.some((f) => f.id === t.id));
  return [...fresh, ...kept].slice(0, limit);
}

export interface TaskIdChoice {
  label: string;
  description: string;
  taskIds: string[];
}

/**
 * What a task picker offers, best first: the whole last submission (when it had several tasks), then
 * every remembered id, newest first.
 */
export function taskIdChoices(remembered: readonly RememberedTask[],
  time: (iso: string) => string = (iso) => new Date(iso).toLocaleTimeString()): TaskIdChoice[] {
  const choices: TaskIdChoice[] = [];
  const first = remembered[0];
  if (first) {
    const batch = remembered.filter((t) => t.at === first.at && t.via === first.via && t.source === first.source);
    if (batch.length > 1) {
      choices.push({ label: batch.map((t) => t.id).join(', '), description: `all of the last ${first.via} (${first.source})`, taskIds: batch.map((t) => t.id) });
    }
  }
  for (const t of remembered) choices.push({ label: t.id, description: `${t.via} of ${t.source}, ${time(t.at)}`, taskIds: [t.id] });
  return choices;
}
