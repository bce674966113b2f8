// Runs shards of a question as one task graph on the task-execution service (issue #20, part 1), through
// the adapter.v1 client: submit every shard as a `shell` task in one POST /tasks, poll until each is
// terminal (progress: shards done of N), retry a failed shard once, and on a stop cancel the shards —
// or, when the service answers that it has no cancel route, delete them and say that their workers may
// run on. What a shard computes and how results merge is the caller's; this is the transport.
import { AdapterFailure } from '../adapter/outcome';
import { TaskServiceClient } from '../adapter/client';
import type { AdapterConfig } from '../adapter/config';

export interface ShardCommand {
  /** Shown as the task's name (`assay shard 2/4`). */
  name: string;
  command: string;
  args: string[];
  /** The service kills a shard past this (the `shell` task's timeout_ms). */
  timeoutMs?: number;
}

export type ShardResult =
  | { index: number; status: 'success'; stdout: string; attempts: number; taskId: string }
  | { index: number; status: 'failed'; reason: string; attempts: number; taskId: string }
  | { index: number; status: 'cancelled'; reason: string; attempts: number; taskId: string };

export interface OffloadProgress {
  done: number;
  failed: number;
  total: number;
}

export interface OffloadOptions {
  config: AdapterConfig;
  shards: readonly ShardCommand[];
  pollMs?: number;
  signal?: AbortSignal;
  onProgress?(progress: OffloadProgress): void;
  /** Called once per shard as it ends for good (succeeded, or failed after its retry), while others still run. */
  onShard?(result: ShardResult): void;
  /** Said once when the tasks could not be cancelled and were deleted instead. */
  onNote?(text: string): void;
}

export interface OffloadOutcome {
  shards: ShardResult[];
  /** Set when stopped: how the shards were stopped. */
  stopped?: 'cancelled' | 'deleted';
}

const TERMINAL = new Set(['success', 'failed', 'cancelled', 'skipped']);

interface Slot {
  index: number;
  taskId: string;
  attempts: number;
  result?: ShardResult;
}

export async function runShards(options: OffloadOptions): Promise<OffloadOutcome> {
  const client = new TaskServiceClient(options.config);
  const pollMs = options.pollMs ?? 500;
  const specOf = (shard: ShardCommand) => ({
    name: shard.name,
    type: 'shell',
    command: shard.command,
    args: shard.args,
    ...(shard.timeoutMs !== undefined ? { timeout_ms: shard.timeoutMs } : {}),
  });
  const submit = async (shards: readonly ShardCommand[]): Promise<string[]> => {
    const answer = await client.submit(JSON.stringify({ tasks: shards.map(specOf) }));
    const ids = (answer as { task_ids?: unknown }).task_ids;
    if (!Array.isArray(ids) || ids.length !== shards.length || ids.some((id) => typeof id !== 'string')) {
      throw new Error(`the service answered POST /tasks without ${shards.length} task ids: ${JSON.stringify(answer).slice(0, 200)}`);
    }
    return ids as string[];
  };

  const ids = await submit(options.shards);
  const slots: Slot[] = ids.map((taskId, index) => ({ index, taskId, attempts: 1 }));
  const report = () => {
    const done = slots.filter((s) => s.result?.status === 'success').length;
    const failed = slots.filter((s) => s.result && s.result.status !== 'success').length;
    options.onProgress?.({ done, failed, total: slots.length });
  };
  report();

  // A poll that fails (a dropped connection, a 502 of a proxy) is tried again on the next round; after
  // MAX_POLL_FAILURES rounds in a row the service is given up on, and the shards still going are
  // cancelled (so no worker is left running) before the error is thrown.
  let pollFailures = 0;
  while (slots.some((s) => !s.result)) {
    if (options.signal?.aborted) return { shards: await stopAll(client, slots, options), stopped: stoppedHow(slots) };
    try {
      await pollRound();
      pollFailures = 0;
    } catch (error) {
      if (++pollFailures >= MAX_POLL_FAILURES) {
        await stopAll(client, slots, options).catch(() => undefined);
        throw error;
      }
    }
    report();
    if (slots.some((s) => !s.result)) await sleep(pollMs, options.signal);
  }
  return { shards: slots.map((s) => s.result!) };

  async function pollRound(): Promise<void> {
    for (const slot of slots) {
      if (slot.result) continue;
      const record = (await client.task(slot.taskId)) as { status?: unknown; stdout?: unknown; stderr?: unknown; error?: { message?: unknown; code?: unknown } };
      const status = typeof record.status === 'string' ? record.status : undefined;
      if (!status || !TERMINAL.has(status)) continue;
      if (status === 'success') {
        slot.result = { index: slot.index, status: 'success', stdout: typeof record.stdout === 'string' ? record.stdout : '', attempts: slot.attempts, taskId: slot.taskId };
        options.onShard?.(slot.result);
        continue;
      }
      // The service's reason, and the last line the shard wrote on stderr when the record carries it.
      const said = typeof record.stderr === 'string' ? record.stderr.trim().split('\n').at(-1)?.trim() : undefined;
      const reason = (typeof record.error?.message === 'string' ? record.error.message : `the task ended ${status}`) + (said ? ` (${said.slice(0, 300)})` : '');
      if (slot.attempts < 2 && status === 'failed') {
        // One retry: a worker can fail for reasons of its own (a lost machine, a timeout under load).
        const [retry] = await submit([options.shards[slot.index]!]);
        slot.taskId = retry!;
        slot.attempts++;
        continue;
      }
      slot.result = { index: slot.index, status: status === 'cancelled' ? 'cancelled' : 'failed', reason, attempts: slot.attempts, taskId: slot.taskId };
      options.onShard?.(slot.result!);
    }
  }
}

/** Poll rounds in a row that may fail before the shards are cancelled and the run fails. */
const MAX_POLL_FAILURES = 5;

function stoppedHow(slots: Slot[]): 'cancelled' | 'deleted' {
  return slots.some((s) => s.result?.status === 'cancelled' && s.result.reason.startsWith('deleted')) ? 'deleted' : 'cancelled';
}

/** Cancels every shard still going; a service without a cancel route gets DELETE instead. */
async function stopAll(client: TaskServiceClient, slots: Slot[], options: OffloadOptions): Promise<ShardResult[]> {
  let deletedNote = false;
  for (const slot of slots) {
    if (slot.result) continue;
    try {
      await client.cancel(slot.taskId);
      slot.result = { index: slot.index, status: 'cancelled', reason: 'cancelled on request', attempts: slot.attempts, taskId: slot.taskId };
    } catch (error) {
      if (isMissingRoute(error)) {
        await client.deleteTask(slot.taskId);
        if (!deletedNote) options.onNote?.('the service has no cancel route: the shards\' tasks were deleted, and their workers may run on');
        deletedNote = true;
        slot.result = { index: slot.index, status: 'cancelled', reason: 'deleted (no cancel route); its worker may run on', attempts: slot.attempts, taskId: slot.taskId };
      } else {
        slot.result = { index: slot.index, status: 'cancelled', reason: `the cancel failed: ${error instanceof Error ? error.message : String(error)}`, attempts: slot.attempts, taskId: slot.taskId };
      }
    }
  }
  return slots.map((s) => s.result!);
}

/** A plain-text 404 (the router's), not a JSON error about the task. */
function isMissingRoute(error: unknown): boolean {
  if (!(error instanceof AdapterFailure) || error.statusCode !== 404) return false;
  try {
    JSON.parse(error.body);
    return false;
  } catch {
    return true;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
