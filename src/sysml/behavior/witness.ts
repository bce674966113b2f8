// Re-checking a behaviour answer's witnesses by replay, as the host does before it lets a claim stand:
// a `violated` schedule must reach a state where a condition fails exactly at `at`; the two
// `sensitive` schedules must end differently in `feature` (a feature, a configuration, or the end); each `outcomes` execution must
// end as its outcome says.
import { format, fromProtocolValue, isError, toProtocolValue, type Value } from '../semantics/values';
import { tryParseUnit } from '../semantics/units';
import type { BehaviorState } from './machine';
import { BehaviorError } from './model';
import { conditionsOf, endItems, prepareBehavior, type EndItem, type BehaviorAnswer, type BehaviorQuestion, type PreparedBehavior, type ProtocolValue, type WitnessObject } from './questions';
import { replay, type ReplayResult } from './schedule';
import type { BehaviorDocument } from './scope';

/** The initial values a witness replays from: the question's bindings and the witness's chosen inputs. */
export function witnessInputs(p: PreparedBehavior, q: BehaviorQuestion, inputs: readonly ProtocolValue[] = []): Map<string, Value> | BehaviorError {
  const given = new Map<string, Value>();
  for (const v of [...(q.bindings ?? []), ...inputs]) {
    const key = v.name.replace(/::/g, '.');
    const i = p.model.featureIndex.get(key);
    if (i === undefined) return new BehaviorError(`the witness input ${v.name} names no feature of ${q.subject}`, undefined, undefined);
    const f = p.model.features[i]!;
    // A value of a finite domain is matched in its protocol form (enumeration literals travel as `E::lit`).
    const fromDomain = f.domain?.find((d) => {
      const pv = toProtocolValue(key, d);
      return pv.value === v.value && (pv.unit ?? '') === (v.unit ?? '');
    });
    // The question's bindings as prepareBehavior read them (an enumeration literal however qualified).
    const bound = (q.bindings ?? []).includes(v) ? p.assignments[0]?.get(key) : undefined;
    const value = bound ?? fromDomain ?? fromProtocolValue(v, tryParseUnit, f.type ?? undefined);
    if (isError(value)) return new BehaviorError(`witness input ${v.name}: ${value.message}`, undefined, undefined);
    given.set(key, value);
  }
  return given;
}

/** Replays one schedule of a witness from its inputs. */
export function replayWitness(documents: readonly BehaviorDocument[], q: BehaviorQuestion, schedule: string, inputs: readonly ProtocolValue[] = []): ReplayResult | BehaviorError {
  const p = prepareBehavior(documents, q);
  if (p instanceof BehaviorError) return p;
  const given = witnessInputs(p, q, inputs);
  if (given instanceof BehaviorError) return given;
  return replay(p.runtime, schedule, given);
}

/** `unchecked`: the replay stopped on something the semantics cannot do (no evidence against the witness). */
export type Recheck = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly unchecked?: true };

/** Replays every witness of an answer and says whether it shows what the answer claims. */
export function recheckAnswer(documents: readonly BehaviorDocument[], q: BehaviorQuestion, a: Pick<BehaviorAnswer, 'claim' | 'witness' | 'executions' | 'values'>): Recheck {
  const p = prepareBehavior(documents, q);
  if (p instanceof BehaviorError) return { ok: false, reason: p.text };
  const rt = p.runtime;
  const run = (schedule: string | undefined, w: WitnessObject | undefined): { states: BehaviorState[] } | string => {
    if (schedule === undefined) return 'the witness has no schedule';
    const given = witnessInputs(p, q, w?.inputs);
    if (given instanceof BehaviorError) return given.text;
    const r = replay(rt, schedule, given);
    if (!r.ok && r.refused) throw new BehaviorError(r.error, undefined, undefined);
    if (!r.ok) return `the witness does not replay: ${r.error}`;
    return { states: [r.initial, ...r.steps.map((s) => s.state)] };
  };
  try {
    if (a.claim === 'violated') {
      const w = a.witness;
      const r = run(w?.schedules?.[0], w);
      if (typeof r === 'string') return { ok: false, reason: r };
      const at = w?.at ?? r.states.length - 1;
      if (at !== r.states.length - 1) return { ok: false, reason: `the witness has ${r.states.length - 1} steps but says the violation is at step ${at}` };
      const conditions = conditionsOf(documents, q);
      const failing = (s: BehaviorState) => conditions.find((c) => !rt.truth(c.expr, s.values, [''], { path: q.subject }));
      const early = r.states.slice(0, at).findIndex((s) => failing(s) !== undefined);
      if (early >= 0) return { ok: false, reason: `a condition already fails at step ${early}, before step ${at}` };
      if (!failing(r.states[at]!)) return { ok: false, reason: `every condition holds after step ${at}` };
      return { ok: true };
    }
    if (a.claim === 'sensitive') {
      const w = a.witness;
      if (w?.schedules?.length !== 2 || !w.feature) return { ok: false, reason: 'a sensitive witness needs two schedules and a feature' };
      // `feature` names a feature, a machine's configuration (`state`, `<machine>.state`) or `end` (the
      // end status, and where a deadlock rests): the items of an outcome (questions.ts endItems).
      const name = w.feature.replace(/::/g, '.');
      const i = p.model.featureIndex.get(name);
      const items: EndItem[][] = [];
      for (const s of w.schedules) {
        const r = run(s, w);
        if (typeof r === 'string') return { ok: false, reason: r };
        const end = r.states.at(-1)!;
        const status = rt.status(end);
        if (status === undefined) return { ok: false, reason: 'a schedule stops before its run ends' };
        items.push(endItems(rt, end, status, i === undefined ? [] : [i]));
      }
      // What the name may stand for (a feature may be named `end` or `state` too): the ends must differ in one.
      const ids = [...(i === undefined ? [] : [`feature ${p.model.features[i]!.key}`]), `configuration ${name}`, ...(name === 'end' ? ['end'] : [])];
      const named = (x: readonly EndItem[], id: string) => x.find((y) => y.id === id)?.text ?? 'none';
      if (!items.some((x) => x.some((y) => ids.includes(y.id)))) return { ok: false, reason: `${w.feature} is not a feature of ${q.subject}, the end, or a configuration its runs end in` };
      if (ids.every((id) => named(items[0]!, id) === named(items[1]!, id))) {
        const shown = ids.map((id) => named(items[0]!, id)).find((t) => t !== 'none') ?? 'none';
        return { ok: false, reason: `both schedules end with ${w.feature} = ${shown}` };
      }
      return { ok: true };
    }
    if (a.claim === 'outcomes') {
      const values = new Map((a.values ?? []).map((v) => [v.name, v]));
      for (const [k, e] of (a.executions ?? []).entries()) {
        const r = run(e.schedules?.[0], e);
        if (typeof r === 'string') return { ok: false, reason: `outcome ${k + 1}: ${r}` };
        const end = r.states.at(-1)!;
        const status = rt.status(end);
        if (status === undefined || values.get(`end@${k + 1}`)?.value !== status) return { ok: false, reason: `outcome ${k + 1}: the run ends as ${status ?? 'not ended'}` };
        const configurations = rt.configurations(end);
        for (const c of configurations) {
          const claimed = values.get(`${c.name}@${k + 1}`);
          if (claimed?.value !== c.value) return { ok: false, reason: `outcome ${k + 1}: ${c.name} ends as ${c.value}, not ${claimed ? String(claimed.value) : 'unreported'}` };
        }
        for (const name of values.keys()) {
          const [n, at] = name.split('@');
          if (at === String(k + 1) && (n === 'state' || n!.endsWith('.state')) && !p.model.featureIndex.has(n!) && !configurations.some((c) => c.name === n)) {
            return { ok: false, reason: `outcome ${k + 1}: the run ends with no ${n}, not ${String(values.get(name)!.value)}` };
          }
        }
        for (const [fi, f] of p.model.features.entries()) {
          const v = end.values[fi];
          if (f.hidden || v === undefined) continue;
          const claimed = values.get(`${f.key}@${k + 1}`);
          const actual = toProtocolValue(f.key, v);
          if (!claimed || claimed.value !== actual.value || (claimed.unit ?? '') !== (actual.unit ?? '')) {
            return { ok: false, reason: `outcome ${k + 1}: ${f.key} ends as ${format(v)}, not ${claimed ? String(claimed.value) : 'unreported'}` };
          }
        }
      }
      return { ok: true };
    }
    return { ok: true };
  } catch (e) {
    // Thrown while replaying or reading the conditions: the semantics refused, the witness is not refuted.
    if (e instanceof BehaviorError) return { ok: false, reason: e.text, unchecked: true };
    throw e;
  }
}
