// Polling GET /tasks/{id} until every task is terminal or the deadline passes (contract: "wait data").
import type { TaskServiceClient } from './client';
import { NoResponse } from './client';
import { AdapterFailure, ExitCode } from './outcome';
import { formatDuration } from './duration';

export const terminalStatuses: ReadonlySet<string> = new Set(['success', 'failed', 'cancelled', 'skipped']);

/** A task as the service last described it; `status` is "unknown" until the first answer. */
export type TaskRecord = { id: unknown; status: string } & Record<string, unknown>;

export interface WaitData {
  tasks: TaskRecord[];
  all_terminal: boolean;
  /** RFC 3339; empty when -timeout is 0 (no deadline). */
  deadline_rfc3339: string;
}

export interface WaitOptions {
  /** 0 = no deadline. */
  timeoutMs: number;
  intervalMs: number;
}

export interface WaitResult {
  data: WaitData;
  /** The deadline passed before every task was terminal. */
  deadlinePassed: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function taskRecord(id: string, body: unknown, client: TaskServiceClient): TaskRecord {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AdapterFailure(`GET ${client.url(`/tasks/${encodeURIComponent(id)}`).toString()} returned a task that is not a JSON object`, ExitCode.ioOrHttp, 200, JSON.stringify(body));
  }
  const record = body as Record<string, unknown>;
  if (typeof record['status'] !== 'string') {
    throw new AdapterFailure(`GET ${client.url(`/tasks/${encodeURIComponent(id)}`).toString()} returned a task without a string "status"`, ExitCode.ioOrHttp, 200, JSON.stringify(body));
  }
  return { ...record, id: record['id'] ?? id, status: record['status'] };
}

export function allTerminal(tasks: readonly TaskRecord[]): boolean {
  return tasks.every((t) => terminalStatuses.has(t.status));
}

/** How long before the deadline the last look starts (at most the interval). */
const LAST_LOOK_MS = 250;

/**
 * Each round polls the tasks not yet terminal, all at once. Every request is bounded by the request
 * timeout and by the deadline: a request cut by the deadline ends the wait as "deadline passed" with
 * the tasks as last seen, and no request starts at or after the deadline. When the deadline is nearer
 * than the interval, one last look starts a moment before it; then the wait sleeps out the rest.
 */
export async function waitForTasks(client: TaskServiceClient, ids: readonly string[], options: WaitOptions): Promise<WaitResult> {
  const deadline = options.timeoutMs > 0 ? Date.now() + options.timeoutMs : undefined;
  const seen = new Map<string, TaskRecord>(ids.map((id) => [id, { id, status: 'unknown' }]));
  const snapshot = (): WaitData => {
    const tasks = ids.map((id) => seen.get(id)!);
    return { tasks, all_terminal: allTerminal(tasks), deadline_rfc3339: deadline === undefined ? '' : new Date(deadline).toISOString() };
  };
  let lastLook = false;
  for (;;) {
    const pending = ids.filter((id) => !terminalStatuses.has(seen.get(id)!.status));
    if (pending.length === 0) return { data: snapshot(), deadlinePassed: false };
    const controller = new AbortController();
    const remaining = deadline === undefined ? Infinity : deadline - Date.now();
    if (remaining <= 0) return { data: snapshot(), deadlinePassed: true };
    let cutByDeadline = false;
    const cut =
      remaining !== Infinity
        ? setTimeout(() => {
            cutByDeadline = true;
            controller.abort(`deadline passed (-timeout ${formatDuration(options.timeoutMs)})`);
          }, remaining)
        : undefined;
    try {
      const bodies = await Promise.all(pending.map((id) => client.task(id, controller.signal)));
      pending.forEach((id, i) => seen.set(id, taskRecord(id, bodies[i], client)));
    } catch (error) {
      controller.abort('another poll of this round failed');
      if (cutByDeadline && error instanceof NoResponse && error.reason === 'aborted') {
        return { data: snapshot(), deadlinePassed: true };
      }
      throw error;
    } finally {
      clearTimeout(cut);
    }
    const data = snapshot();
    if (data.all_terminal) return { data, deadlinePassed: false };
    if (deadline === undefined) {
      await sleep(options.intervalMs);
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0) return { data, deadlinePassed: true };
    if (left <= options.intervalMs) {
      if (lastLook) {
        await sleep(left);
        return { data: snapshot(), deadlinePassed: true };
      }
      lastLook = true;
      await sleep(Math.max(0, left - Math.min(LAST_LOOK_MS, options.intervalMs)));
      continue;
    }
    await sleep(options.intervalMs);
  }
}

export function deadlineFailure(data: WaitData, timeoutMs: number, wrapped: unknown = data): AdapterFailure {
  const open = data.tasks.filter((t) => !terminalStatuses.has(t.status));
  const list = open.map((t) => `${String(t.id)} (${t.status})`).join(', ');
  return new AdapterFailure(
    `deadline passed after ${formatDuration(timeoutMs)} with ${open.length} of ${data.tasks.length} task(s) not terminal: ${list}`,
    ExitCode.waitDeadline,
    0,
    '',
    wrapped,
  );
}
