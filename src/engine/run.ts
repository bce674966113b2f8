// What a question's code sees of its run: the cancel signal (host cancel or deadline), the budget, and a
// throttled progress reporter.
import { availableParallelism } from 'node:os';
import type { Bound, Budget } from '../protocol';

/** Progress notifications at most this often; the last count is always sent when a run ends. */
export const PROGRESS_INTERVAL_MS = 200;
/** Longest a single z3 check may take when no deadline is given. */
export const DEFAULT_SOLVER_TIMEOUT_MS = 60_000;

export interface ProgressCounts {
  runs?: number;
  steps?: number;
  depth?: number;
  text?: string;
}

export class RunContext {
  readonly startedAt = Date.now();
  private readonly controller = new AbortController();
  private lastProgress = 0;
  private pending: ProgressCounts | undefined;
  private pendingTimer: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  /** Why the signal aborted: the host's cancel or the budget's deadline. */
  stopReason: 'cancelled' | 'deadline' | undefined;

  constructor(
    readonly budget: Budget,
    readonly bounds: Bound[],
    private readonly send: (counts: ProgressCounts) => void = () => {},
  ) {
    if (budget.deadline) {
      const ms = Date.parse(budget.deadline) - Date.now();
      this.deadlineTimer = setTimeout(() => this.stop('deadline'), Math.max(0, ms));
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(reason: 'cancelled' | 'deadline'): void {
    if (this.controller.signal.aborted) return;
    this.stopReason = reason;
    this.controller.abort();
  }

  /** Milliseconds left before the deadline (undefined: no deadline). */
  remainingMs(): number | undefined {
    if (!this.budget.deadline) return undefined;
    return Math.max(0, Date.parse(this.budget.deadline) - Date.now());
  }

  /** The limit of a bound as the run was given it (0 = open). */
  limit(name: 'depth' | 'steps' | 'runs' | 'memory'): number {
    const fromBounds = this.bounds.find((b) => b.name === name)?.limit;
    const fromBudget = this.budget[name];
    const limits = [fromBounds, fromBudget].filter((x): x is number => typeof x === 'number' && x > 0);
    return limits.length === 0 ? 0 : Math.min(...limits);
  }

  /** Worker threads the run may use: the budget's `jobs`, one when absent, every CPU when 0 (open). */
  get jobs(): number {
    if (this.budget.jobs === 0) return Math.max(1, availableParallelism());
    return Math.max(1, this.budget.jobs ?? 1);
  }

  /** Reports progress, at most every PROGRESS_INTERVAL_MS; a count held back is sent when the interval ends. */
  progress(counts: ProgressCounts): void {
    if (this.controller.signal.aborted) return;
    const now = Date.now();
    if (now - this.lastProgress >= PROGRESS_INTERVAL_MS) {
      this.lastProgress = now;
      this.pending = undefined;
      // A held-back count whose timer is late (the thread was busy) is superseded by this one: without
      // clearing the timer, it sent a second notification in the same millisecond.
      if (this.pendingTimer) clearTimeout(this.pendingTimer);
      this.pendingTimer = undefined;
      this.send(counts);
      return;
    }
    this.pending = counts;
    this.pendingTimer ??= setTimeout(() => {
      this.pendingTimer = undefined;
      if (this.pending && !this.controller.signal.aborted) {
        this.lastProgress = Date.now();
        this.send(this.pending);
        this.pending = undefined;
      }
    }, PROGRESS_INTERVAL_MS - (now - this.lastProgress));
  }

  elapsed(): number {
    return Date.now() - this.startedAt;
  }

  dispose(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    if (this.pendingTimer) clearTimeout(this.pendingTimer);
    this.pending = undefined;
  }
}

/** Yields to the event loop so a cancel (and other runs) get their turn in a CPU-bound loop. */
export function yieldNow(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
