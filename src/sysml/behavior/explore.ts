// The explorer: depth-first (or breadth-first, for shortest witnesses) search over the choices of a
// run, with a visited set of canonical state keys (Runtime.writeKey) and partial-order reduction; seeded sampling
// and single-schedule runs for the policies that do not range over schedules.
//
// Reduction: at a state with several enabled moves, when some token's only move is a *local* node
// (ExecutionModel.local: it touches features no other node touches, sends nothing, creates and ends no
// token) that writes nothing a checked condition reads, that move alone is explored — every order of
// it against the other tokens' moves leads to the same states. The cycle proviso: when its successor
// was already visited the state is expanded in full, so no move is postponed forever.
import { Random } from '../semantics/random';
import { BehaviorError } from './model';
import type { BehaviorState, EndStatus, Move, Runtime } from './machine';
import { StateKey, StateSet } from './state-store';

export type Policy = { readonly kind: 'fifo' | 'lifo' | 'all' } | { readonly kind: 'seed'; readonly seed: number };

/** Reads a policy as -schedule spells it. */
export function parsePolicy(text: string): Policy | string {
  if (text === 'fifo' || text === 'lifo' || text === 'all') return { kind: text };
  const m = /^seed:(\d+)$/.exec(text);
  if (m) return { kind: 'seed', seed: Number(m[1]) };
  return `unknown schedule policy '${text}' (fifo, lifo, seed:<n>, all)`;
}

export interface Limits {
  /** Longest schedule explored (0/undefined: open). */
  readonly depth?: number;
  /** Moves fired over the whole exploration. */
  readonly steps?: number;
  /** Executions (runs that end or are cut). */
  readonly runs?: number;
  /** MiB the visited set may take. */
  readonly memoryMiB?: number;
}

/** With the memory bound open the visited set still stops here, so the process survives. */
export const OPEN_MEMORY_MIB = 1024;
/** Sampled runs when `runs` is open. */
export const DEFAULT_SAMPLES = 100;
/** Longest single run when `depth` is open (a cycle ends it sooner: a repeated state). */
export const DEFAULT_WALK_DEPTH = 100_000;
/** Longest sampled run when `depth` is open. */
export const DEFAULT_SAMPLE_DEPTH = 10_000;

export interface Progress {
  readonly runs: number;
  readonly depth: number;
  readonly steps: number;
  readonly states: number;
  readonly text: string;
}

export interface ExploreHooks {
  /** Polled between slices: true stops the search (reported as `stopped: 'cancelled'`). */
  readonly cancelled?: () => boolean;
  /** Called about every `progressMs` (default 200). */
  readonly progress?: (p: Progress) => void;
  /** Awaited about every `sliceMs` (default 5) so the caller's event loop gets its turn. */
  readonly pause?: () => Promise<void> | void;
  readonly progressMs?: number;
  readonly sliceMs?: number;
}

export interface PathStep {
  readonly move: Move;
  readonly enabled: readonly Move[];
}

export interface Visitor {
  /** A newly reached state (the initial one with an empty path); return true to stop the search. */
  state?(s: BehaviorState, path: readonly PathStep[]): boolean | void;
  /** A state in which the run ends; return true to stop the search. */
  end?(s: BehaviorState, status: EndStatus, path: readonly PathStep[]): boolean | void;
}

export interface ExploreOptions {
  readonly policy: Policy;
  /** Range over every schedule (policy all, or `free` has `schedule`); otherwise one run (fifo/lifo) or samples (seed). */
  readonly exhaustive: boolean;
  readonly reduction?: boolean;
  /** Feature indices a checked condition reads: moves writing them are never reduced away. */
  readonly visible?: ReadonlySet<number>;
  readonly limits?: Limits;
  readonly hooks?: ExploreHooks;
  /** Breadth-first (shortest paths first) instead of depth-first. */
  readonly breadthFirst?: boolean;
  /** Depth-first only: note whether a move leads back to a state on the current path (`cycles`). */
  readonly detectCycles?: boolean;
}

export interface ExploreReport {
  /** Distinct states visited. */
  states: number;
  steps: number;
  runs: number;
  maxDepth: number;
  reached: { depth: boolean; steps: boolean; runs: boolean; memory: boolean };
  stopped: 'cancelled' | 'visitor' | undefined;
  /** Every choice within the bounds was explored (false for samples). */
  exhaustive: boolean;
  memoryBytes: number;
  elapsedMs: number;
  /** With detectCycles: some run returns to a state it was in, so it can go on forever without ending. */
  cycles?: boolean;
}

class Clock {
  // The first tick reports at once: a user sees counts as soon as exploring starts, then every progressMs.
  private lastProgress = Number.NEGATIVE_INFINITY;
  private lastPause = Date.now();
  constructor(private readonly hooks: ExploreHooks | undefined, private readonly report: ExploreReport, private readonly startedAt: number) {}

  async tick(depth: number): Promise<boolean> {
    const now = Date.now();
    const h = this.hooks;
    if (!h) return false;
    if (h.progress && now - this.lastProgress >= (h.progressMs ?? 200)) {
      this.lastProgress = now;
      const secs = Math.max(0.001, (now - this.startedAt) / 1000);
      const r = this.report;
      h.progress({ runs: r.runs, depth, steps: r.steps, states: r.states, text: `${r.states} states, ${Math.round(r.states / secs)} states/s` });
    }
    if (h.pause && now - this.lastPause >= (h.sliceMs ?? 5)) {
      await h.pause();
      this.lastPause = Date.now();
    }
    return h.cancelled?.() === true;
  }
}

/** Bytes a visited-set entry is estimated to take: the key's bytes plus the set's own overhead. */
function entryBytes(key: StateKey): number {
  return StateSet.entryBytes(key);
}

export async function explore(rt: Runtime, initial: BehaviorState, options: ExploreOptions, visitor: Visitor): Promise<ExploreReport> {
  const started = Date.now();
  const report: ExploreReport = {
    states: 0, steps: 0, runs: 0, maxDepth: 0, reached: { depth: false, steps: false, runs: false, memory: false }, stopped: undefined,
    exhaustive: options.exhaustive || options.policy.kind !== 'seed', memoryBytes: 0, elapsedMs: 0,
  };
  const clock = new Clock(options.hooks, report, started);
  if (options.hooks?.cancelled?.()) {
    report.stopped = 'cancelled';
    return report;
  }
  try {
    if (options.exhaustive) {
      await (options.breadthFirst ? bfs : dfs)(rt, initial, options, visitor, report, clock);
      // Within a depth bound a search must cover every schedule up to it. Depth-first with a visited
      // set does not (a state first met deep is not expanded again when met shallower), nor does
      // reduction (it runs a postponed move first, so the schedule it explores for one within the bound
      // may be longer): when only the depth bound cut such a search, everything within it is explored
      // again breadth-first without reduction (the visitor sees those states too).
      const r = report.reached;
      const complete = options.breadthFirst === true && options.reduction === false;
      if (!complete && r.depth && !r.steps && !r.runs && !r.memory && report.stopped === undefined) {
        const again: ExploreReport = { ...report, states: 0, steps: 0, runs: 0, maxDepth: 0, reached: { depth: false, steps: false, runs: false, memory: false }, memoryBytes: 0 };
        await bfs(rt, initial, { ...options, reduction: false }, visitor, again, new Clock(options.hooks, again, started));
        Object.assign(report, {
          states: report.states + again.states, steps: report.steps + again.steps, runs: report.runs + again.runs, maxDepth: Math.max(report.maxDepth, again.maxDepth),
          memoryBytes: Math.max(report.memoryBytes, again.memoryBytes), reached: again.reached, stopped: again.stopped,
        });
      }
    } else if (options.policy.kind === 'seed') await samples(rt, initial, options, visitor, report, clock, options.policy.seed);
    else await single(rt, initial, options, visitor, report, clock);
  } finally {
    report.elapsedMs = Date.now() - started;
  }
  return report;
}

function limitOf(n: number | undefined): number {
  return n && n > 0 ? n : Infinity;
}

function memoryLimit(options: ExploreOptions): number {
  return (options.limits?.memoryMiB && options.limits.memoryMiB > 0 ? options.limits.memoryMiB : OPEN_MEMORY_MIB) * 1024 * 1024;
}

/** The moves to explore at a state: one local move when reduction allows it, else all. */
function reduce(rt: Runtime, state: BehaviorState, enabled: readonly Move[], options: ExploreOptions, visited: StateSet, key: StateKey): readonly Move[] {
  if (options.reduction === false || enabled.length < 2) return enabled;
  const m = rt.model;
  const perToken = new Map<number, number>();
  for (const e of enabled) perToken.set(e.token, (perToken.get(e.token) ?? 0) + 1);
  for (const e of enabled) {
    if (!m.local[e.node] || perToken.get(e.token) !== 1) continue;
    if (options.visible && m.writes[e.node]!.some((f) => options.visible!.has(f))) continue;
    const next = rt.step(state, e);
    rt.writeKey(next, key);
    if (visited.has(key)) continue;
    // What `fire` would have refused in this new state is refused here, as before.
    rt.enabled(next);
    return [e];
  }
  return enabled;
}

/** The order choices are tried in: lifo tries the last enabled move first, so its run comes first. */
function ordered(moves: readonly Move[], options: ExploreOptions): readonly Move[] {
  // A copy: the enabled moves are kept on their state.
  return options.policy.kind === 'lifo' ? [...moves].reverse() : moves;
}

interface Frame {
  readonly state: BehaviorState;
  readonly enabled: readonly Move[];
  readonly moves: readonly Move[];
  next: number;
  /** The state's visited-set entry. */
  readonly id: number;
  /** Where the marks of its key (Runtime.keyMarks) start in the search's `marks`. */
  readonly marks: number;
}

async function dfs(rt: Runtime, initial: BehaviorState, options: ExploreOptions, visitor: Visitor, report: ExploreReport, clock: Clock): Promise<void> {
  const visited = new StateSet();
  // One key buffer, rewritten for each state looked up (reduce's lookahead too, after the state is added).
  const key = new StateKey();
  const maxDepth = limitOf(options.limits?.depth);
  const maxSteps = limitOf(options.limits?.steps);
  const maxRuns = limitOf(options.limits?.runs);
  const maxBytes = memoryLimit(options);
  const path: PathStep[] = [];
  const stack: Frame[] = [];
  // The entries of the states on the stack: a move to one of them closes a cycle.
  const onStack = options.detectCycles ? new Set<number>() : undefined;
  // The key marks of the states on the stack, one after another: a quick move's successor key is
  // its parent's key patched (Runtime.quickKey), and the successor is built only when that key is new.
  let marks = new Int32Array(1024);
  let marksTop = 0;

  const enter = (s: BehaviorState): boolean => {
    visited.add(key);
    const id = visited.addedId;
    report.states++;
    report.memoryBytes += entryBytes(key);
    if (visitor.state?.(s, path)) {
      report.stopped = 'visitor';
      return false;
    }
    const enabled = rt.enabled(s);
    if (enabled.length === 0) {
      report.runs++;
      if (visitor.end?.(s, rt.status(s)!, path)) {
        report.stopped = 'visitor';
        return false;
      }
      return true;
    }
    if (path.length >= maxDepth) {
      report.reached.depth = true;
      report.runs++;
      return true;
    }
    const count = rt.keyMarkCount;
    if (marksTop + count > marks.length) {
      const grown = new Int32Array(Math.max(marks.length * 2, marksTop + count));
      grown.set(marks.subarray(0, marksTop));
      marks = grown;
    }
    const base = marksTop;
    rt.copyKeyMarks(marks, base);
    marksTop += count;
    stack.push({ state: s, enabled, moves: ordered(reduce(rt, s, enabled, options, visited, key), options), next: 0, id, marks: base });
    onStack?.add(id);
    return true;
  };

  rt.writeKey(initial, key);
  if (!enter(initial)) return;
  let ticks = 0;
  while (stack.length > 0) {
    if (++ticks % 256 === 0 && (await clock.tick(path.length))) {
      report.stopped = 'cancelled';
      return;
    }
    const f = stack[stack.length - 1]!;
    if (f.next >= f.moves.length) {
      stack.pop();
      marksTop = f.marks;
      path.pop();
      onStack?.delete(f.id);
      continue;
    }
    const move = f.moves[f.next++]!;
    if (report.steps >= maxSteps) {
      report.reached.steps = true;
      return;
    }
    if (report.runs >= maxRuns) {
      report.reached.runs = true;
      return;
    }
    report.steps++;
    // A state already seen needs no enabled moves; a new one gets them at once (refused here if they cannot be computed).
    let next: BehaviorState | undefined;
    if (rt.quickPlan(f.state, move)) {
      if (!rt.quickKey(f.state, visited.stored, visited.keyStart(f.id), visited.keyLength(f.id), marks, f.marks, key)) {
        next = rt.quickBuild(f.state);
        rt.writeKey(next, key);
      }
    } else {
      next = rt.stepInFull(f.state, move);
      rt.writeKey(next, key);
    }
    if (visited.has(key)) {
      if (onStack?.has(visited.foundId)) report.cycles = true;
      continue;
    }
    next ??= rt.quickBuild(f.state);
    rt.enabled(next);
    if (report.memoryBytes + entryBytes(key) > maxBytes) {
      report.reached.memory = true;
      return;
    }
    path.push({ move, enabled: f.enabled });
    report.maxDepth = Math.max(report.maxDepth, path.length);
    const before = stack.length;
    if (!enter(next)) return;
    if (stack.length === before) path.pop();
  }
}

async function bfs(rt: Runtime, initial: BehaviorState, options: ExploreOptions, visitor: Visitor, report: ExploreReport, clock: Clock): Promise<void> {
  const visited = new StateSet();
  const maxDepth = limitOf(options.limits?.depth);
  const maxSteps = limitOf(options.limits?.steps);
  const maxRuns = limitOf(options.limits?.runs);
  const maxBytes = memoryLimit(options);
  // Parent links: the path to a state is rebuilt when the visitor needs it.
  const parent: number[] = [];
  const via: (PathStep | undefined)[] = [];
  const depthOf: number[] = [];
  const pathTo = (i: number): PathStep[] => {
    const out: PathStep[] = [];
    for (let k = i; k > 0; k = parent[k]!) out.push(via[k]!);
    return out.reverse();
  };
  let queue: { state: BehaviorState; index: number }[] = [];
  const key = new StateKey();
  const add = (s: BehaviorState, from: number, step: PathStep | undefined): boolean => {
    const index = parent.length;
    parent.push(from);
    via.push(step);
    depthOf.push(from < 0 ? 0 : depthOf[from]! + 1);
    visited.add(key);
    report.states++;
    report.memoryBytes += entryBytes(key) + 48;
    report.maxDepth = Math.max(report.maxDepth, depthOf[index]!);
    if (visitor.state && visitor.state(s, pathTo(index))) {
      report.stopped = 'visitor';
      return false;
    }
    queue.push({ state: s, index });
    return true;
  };
  rt.writeKey(initial, key);
  if (!add(initial, -1, undefined)) return;
  let head = 0;
  let ticks = 0;
  while (head < queue.length) {
    if (++ticks % 64 === 0 && (await clock.tick(report.maxDepth))) {
      report.stopped = 'cancelled';
      return;
    }
    const { state, index } = queue[head++]!;
    if (head > 4096) {
      queue = queue.slice(head);
      head = 0;
    }
    const enabled = rt.enabled(state);
    if (enabled.length === 0) {
      report.runs++;
      if (visitor.end?.(state, rt.status(state)!, pathTo(index))) {
        report.stopped = 'visitor';
        return;
      }
      if (report.runs >= maxRuns) {
        report.reached.runs = true;
        return;
      }
      continue;
    }
    if (depthOf[index]! >= maxDepth) {
      report.reached.depth = true;
      continue;
    }
    for (const move of ordered(reduce(rt, state, enabled, options, visited, key), options)) {
      if (report.steps >= maxSteps) {
        report.reached.steps = true;
        return;
      }
      report.steps++;
      const next = rt.step(state, move);
      rt.writeKey(next, key);
      if (visited.has(key)) continue;
      rt.enabled(next);
      if (report.memoryBytes + entryBytes(key) > maxBytes) {
        report.reached.memory = true;
        return;
      }
      if (!add(next, index, { move, enabled })) return;
    }
  }
}

/** One run under fifo or lifo; a repeated state means the run cycles forever (all of it was seen). */
async function single(rt: Runtime, initial: BehaviorState, options: ExploreOptions, visitor: Visitor, report: ExploreReport, clock: Clock): Promise<void> {
  const seen = new Set<string>();
  const maxDepth = Math.min(limitOf(options.limits?.depth), limitOf(options.limits?.steps), DEFAULT_WALK_DEPTH);
  const path: PathStep[] = [];
  let s = initial;
  seen.add(rt.encode(s));
  report.states = 1;
  if (visitor.state?.(s, path)) {
    report.stopped = 'visitor';
    return;
  }
  for (;;) {
    const enabled = rt.enabled(s);
    if (enabled.length === 0) {
      report.runs = 1;
      if (visitor.end?.(s, rt.status(s)!, path)) report.stopped = 'visitor';
      return;
    }
    if (path.length >= maxDepth) {
      report.runs = 1;
      if (maxDepth === DEFAULT_WALK_DEPTH && !options.limits?.depth) report.reached.depth = true;
      else report.reached[options.limits?.steps && options.limits.steps <= path.length ? 'steps' : 'depth'] = true;
      return;
    }
    const move = options.policy.kind === 'lifo' ? enabled[enabled.length - 1]! : enabled[0]!;
    s = rt.fire(s, move);
    report.steps++;
    path.push({ move, enabled });
    report.maxDepth = path.length;
    const key = rt.encode(s);
    if (visitor.state?.(s, path)) {
      report.stopped = 'visitor';
      return;
    }
    if (seen.has(key)) {
      report.runs = 1;
      return;
    }
    seen.add(key);
    report.states++;
    if (path.length % 256 === 0 && (await clock.tick(path.length))) {
      report.stopped = 'cancelled';
      return;
    }
  }
}

/** Seeded random runs: evidence, not proof (`observed`). */
async function samples(rt: Runtime, initial: BehaviorState, options: ExploreOptions, visitor: Visitor, report: ExploreReport, clock: Clock, seed: number): Promise<void> {
  const random = new Random(seed);
  const runs = options.limits?.runs && options.limits.runs > 0 ? options.limits.runs : DEFAULT_SAMPLES;
  const maxDepth = Math.min(limitOf(options.limits?.depth), DEFAULT_SAMPLE_DEPTH);
  const maxSteps = limitOf(options.limits?.steps);
  report.exhaustive = false;
  if (visitor.state?.(initial, [])) {
    report.stopped = 'visitor';
    return;
  }
  for (let r = 0; r < runs; r++) {
    const path: PathStep[] = [];
    let s = initial;
    for (;;) {
      const enabled = rt.enabled(s);
      if (enabled.length === 0) {
        if (visitor.end?.(s, rt.status(s)!, path)) {
          report.runs++;
          report.stopped = 'visitor';
          return;
        }
        break;
      }
      if (path.length >= maxDepth) {
        report.reached.depth = true;
        break;
      }
      if (report.steps >= maxSteps) {
        report.reached.steps = true;
        report.runs++;
        return;
      }
      const move = enabled[Math.floor(random.next() * enabled.length)]!;
      s = rt.fire(s, move);
      report.steps++;
      report.states++;
      path.push({ move, enabled });
      report.maxDepth = Math.max(report.maxDepth, path.length);
      if (visitor.state?.(s, path)) {
        report.runs++;
        report.stopped = 'visitor';
        return;
      }
      if (report.steps % 256 === 0 && (await clock.tick(path.length))) {
        report.stopped = 'cancelled';
        return;
      }
    }
    report.runs++;
  }
}

/** Schedule text of a path (see schedule.ts). */
export function scheduleText(path: readonly PathStep[]): string {
  return path.map((p, i) => `step ${i + 1}: ${p.move.label} first of ${p.enabled.map((m) => m.label).join(', ')}`).join('\n');
}

export { BehaviorError };
