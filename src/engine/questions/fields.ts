// The question fields that change what is asked (a condition, free inputs, a sweep), by the kinds of
// this engine that read them. A question carrying one its kind does not read is refused, naming the
// field: answered without it, `outcomes … --condition` or `evaluate … --range` claimed `proved` for a
// question the user did not ask. Policies (schedule, draws, clockStep, modelSeed) only say how chance
// and time resolve where the model has them, and bindings are checked against the subject's features.
import type { Question } from '../../protocol';
import type { QuestionHandler, QuestionHandlers } from '../server';
import { UnsupportedError } from '../../sysml/model/errors';

type Kind = Question['kind'];

const READS_CONDITION: readonly Kind[] = ['evaluate', 'holds', 'satisfiable'];
const READS_INPUTS: readonly Kind[] = ['satisfiable', 'outcomes', 'holds', 'sensitive'];
const READS_SWEEP: readonly Kind[] = ['sweep', 'compute'];
const BEHAVIOR: readonly Kind[] = ['outcomes', 'holds', 'sensitive'];

const list = (kinds: readonly Kind[]): string => `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;

/**
 * A name given two values or roles: bound twice, free twice, ranged twice, or two of those at once. The
 * engine read one and dropped the other (two ranges over x made a table whose second x column was
 * the first one again), so the question is refused, naming it.
 */
function doubleName(q: Question): string | undefined {
  const roles: [list: readonly string[], what: string][] = [
    [(q.bindings ?? []).map((b) => b.name), 'bound (bindings, --bind)'],
    [(q.inputs ?? []).map((i) => i.name), 'a free input (inputs, --input)'],
    [(q.sweep?.ranges ?? []).map((r) => r.parameter), 'ranged over (sweep ranges, --range)'],
  ];
  const seen = new Map<string, string>();
  for (const [names, what] of roles) {
    for (const name of names) {
      const before = seen.get(name);
      if (before === what) return `'${name}' is ${what} twice: give each name one value, domain or range`;
      if (before !== undefined) return `'${name}' is both ${before} and ${what}: give it one of them`;
      seen.set(name, what);
    }
  }
  for (const set of q.conditions ?? []) {
    const names = [...set.features.map((f) => f.name), ...(set.pinned ?? []).map((p) => p.name)];
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice !== undefined) return `the condition set '${set.name}' gives '${twice}' twice (as a free feature or a pinned value): give each name once`;
  }
  return undefined;
}

/** Why this engine does not answer the question as asked (a field its kind does not read, a name given twice), or undefined. */
export function unreadField(q: Question): string | undefined {
  const twice = doubleName(q);
  if (twice) return twice;
  const conditions = [...(q.condition ? [q.condition.name] : []), ...(q.conditions ?? []).map((c) => c.name)];
  if (conditions.length > 0 && !READS_CONDITION.includes(q.kind)) {
    return `${q.kind} does not read a condition (${conditions.map((n) => `'${n}'`).join(', ')}): ${list(READS_CONDITION)} check conditions; ask one of them, or leave the condition out`;
  }
  const sets = q.conditions ?? [];
  if (sets.length > 0 && q.kind === 'evaluate') {
    return `evaluate takes one condition, not condition sets (${sets.map((c) => `'${c.name}'`).join(', ')}): condition sets are solved by satisfiable`;
  }
  // holds checks a set's assertions in every state; free features and pinned values are satisfiable's.
  const withValues = q.kind === 'holds' ? sets.find((c) => c.features.length > 0 || (c.pinned ?? []).length > 0) : undefined;
  if (withValues) {
    return `holds reads the assertions of a condition set, not its free features or pinned values ('${withValues.name}' has ${withValues.features.length > 0 ? `features ${withValues.features.map((f) => `'${f.name}'`).join(', ')}` : 'pinned values'}): give free inputs (inputs, with free: inputs) or bindings instead, or ask satisfiable`;
  }
  const inputs = (q.inputs ?? []).map((i) => `'${i.name}'`).join(', ');
  if (inputs !== '') {
    if (!READS_INPUTS.includes(q.kind)) {
      return `${q.kind} does not read free inputs (${inputs}): it answers for given values; bind them (bindings, the CLI's --bind)${READS_SWEEP.includes(q.kind) ? ' or sweep them (ranges, --range)' : ''}, or ask satisfiable`;
    }
    if (BEHAVIOR.includes(q.kind) && !q.free.includes('inputs')) {
      return `the free inputs ${inputs} are given, but free does not list inputs: ${q.kind} ranges over inputs only when asked to (free: inputs; the CLI's --free inputs)`;
    }
  }
  const sweep = q.sweep;
  if (sweep && !READS_SWEEP.includes(q.kind)) {
    return `${q.kind} does not read a sweep (ranges, samples or runs): ask sweep or compute`;
  }
  if (q.kind === 'compute' && sweep && sweep.ranges.length === 0) {
    return 'compute reads a sweep only with ranges (a table of the calc over them); Monte Carlo runs or samples without ranges are a sweep question';
  }
  return undefined;
}

/** A handler that refuses, in covers and in run, a question with a field its kind does not read. */
function readingFields(handler: QuestionHandler): QuestionHandler {
  return {
    covers(params) {
      const why = unreadField(params.question);
      return why ? { covers: false, reason: why } : handler.covers(params);
    },
    run(params, run) {
      const why = unreadField(params.question);
      if (why) return Promise.reject(new UnsupportedError(why));
      return handler.run(params, run);
    },
  };
}

export function readingFieldsOf(handlers: QuestionHandlers): QuestionHandlers {
  const out: QuestionHandlers = {};
  for (const [kind, h] of Object.entries(handlers) as [Kind, QuestionHandler][]) out[kind] = readingFields(h);
  return out;
}
