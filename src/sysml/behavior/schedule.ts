// Witness schedule text (`step N: <token>@<node> first of <token>@<node>, ...`) and its replay: the
// host re-checks a witness by replaying it through the same semantics, and the witness panel draws
// the state after every step.
import type { Value } from '../semantics/values';
import { BehaviorError } from './model';
import type { BehaviorState, Move, Runtime } from './machine';

/** One line of a schedule. */
export function stepLine(n: number, chosen: Move, enabled: readonly Move[]): string {
  return `step ${n}: ${chosen.label} first of ${enabled.map((m) => m.label).join(', ')}`;
}

export interface ScheduleStep {
  readonly chosen: string;
  readonly enabled: readonly string[];
}

const LINE = /^step (\d+): (.*)$/;

/** Splits `text` at each `sep` outside 'quoted names'. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && quoted) i++;
    else if (c === "'") quoted = !quoted;
    else if (!quoted && text.startsWith(sep, i)) {
      out.push(text.slice(from, i));
      from = i + sep.length;
      i += sep.length - 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** Parses schedule text; an error names the line. */
export function parseSchedule(text: string): ScheduleStep[] | string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const steps: ScheduleStep[] = [];
  for (const [i, line] of lines.entries()) {
    const m = LINE.exec(line);
    const parts = m ? splitOutsideQuotes(m[2]!, ' first of ') : [];
    if (!m || parts.length !== 2 || parts[0]!.trim() === '') return `line ${i + 1}: expected 'step N: <token>@<node> first of <token>@<node>, ...', got '${line}'`;
    if (Number(m[1]) !== i + 1) return `line ${i + 1}: expected step ${i + 1}, got step ${m[1]}`;
    steps.push({ chosen: parts[0]!.trim(), enabled: splitOutsideQuotes(parts[1]!, ',').map((s) => s.trim()).filter((s) => s !== '') });
  }
  return steps;
}

export interface ReplayStep {
  /** 1-based step number. */
  readonly step: number;
  readonly move: string;
  readonly state: BehaviorState;
}

export type ReplayResult =
  | { readonly ok: true; readonly initial: BehaviorState; readonly steps: ReplayStep[] }
  | {
    readonly ok: false; readonly error: string; readonly step: number; readonly initial?: BehaviorState; readonly steps: ReplayStep[];
    /** The semantics could not take a step (an unsupported construct, an evaluation error), as opposed to a schedule that does not fit. */
    readonly refused?: true;
  };

/**
 * Replays a schedule from the initial state the given inputs (feature values by path) make. Fails
 * precisely when a line does not fit: its enabled list differs from the model's, or its move is not
 * enabled.
 */
export function replay(runtime: Runtime, scheduleText: string, inputs: ReadonlyMap<string, Value> = new Map()): ReplayResult {
  const parsed = parseSchedule(scheduleText);
  if (typeof parsed === 'string') return { ok: false, error: parsed, step: 0, steps: [] };
  const steps: ReplayStep[] = [];
  let state: BehaviorState;
  try {
    state = runtime.initial(inputs);
  } catch (e) {
    if (e instanceof BehaviorError) return { ok: false, error: `initial state: ${e.text}`, step: 0, steps, refused: true };
    throw e;
  }
  const initial = state;
  for (const [i, step] of parsed.entries()) {
    const n = i + 1;
    try {
      const enabled = runtime.enabled(state);
      const labels = enabled.map((m) => m.label);
      if (labels.join(', ') !== step.enabled.join(', ')) {
        return { ok: false, error: `step ${n}: the schedule lists ${step.enabled.join(', ') || 'no moves'} as enabled, the model enables ${labels.join(', ') || 'no moves'}`, step: n, initial, steps };
      }
      const move = enabled.find((m) => m.label === step.chosen);
      if (!move) return { ok: false, error: `step ${n}: ${step.chosen} is not enabled (enabled: ${labels.join(', ') || 'none'})`, step: n, initial, steps };
      state = runtime.fire(state, move);
      steps.push({ step: n, move: move.label, state });
    } catch (e) {
      if (e instanceof BehaviorError) return { ok: false, error: `step ${n}: ${e.text}`, step: n, initial, steps, refused: true };
      throw e;
    }
  }
  return { ok: true, initial, steps };
}
