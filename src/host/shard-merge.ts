// The merge of a table question's shards (issue #20, part 1): the answers of `assay … --shard k/N`
// (the bundled engine's shard option) into the answer a whole run gives — the cells in shard order,
// the summaries over every row by the engine's own statistics — and which rows are missing, and why.
// The CLI (src/cli/offload.ts) submits the shards; this reads and merges their answers.
import { existsSync, readFileSync } from 'node:fs';
import type { Standing } from './standing';
import { strengthRank, type Question, type RunResult, type Strength, type Value as ProtocolValue } from '../protocol';
import { SUMMARY_STATISTICS, summarize, summarizeValues } from '../sysml/semantics/stats';
import { tryParseUnit } from '../sysml/semantics/units';
import { isError, quantity, real, toProtocolValue, type Value } from '../sysml/semantics/values';

/**
 * The bundled engine's shard option (src/engine/questions/table.ts, SHARD_ENVIRONMENT): with
 * ASSAY_ENGINE_SHARD=k/N a table answer holds rows floor((k-1)·R/N) … floor(k·R/N) - 1 only, and the
 * values `shard.from`, `shard.to` and `shard.rows`. Kept in step with the engine's copy.
 */
export const SHARD_ENVIRONMENT = 'ASSAY_ENGINE_SHARD';

/** Rows [from, to) (from 0) of shard `index` (from 1) of `of` over `rows` rows; the engine's formula. */
export function shardRows(rows: number, index: number, of: number): { from: number; to: number } {
  return { from: Math.floor(((index - 1) * rows) / of), to: Math.floor((index * rows) / of) };
}

/** A shard's answer: the JSON object of `assay … --shard k/N --json`. */
export interface ShardAnswer {
  question: Question;
  engine: string;
  result: RunResult;
  standing: Standing;
}

export interface MissingRows {
  shard: number;
  /** Row numbers from 1, inclusive; absent when no shard said how many rows the table has. */
  from?: number;
  to?: number;
  reason: string;
}

const SHARD_VALUE = /^shard\.(from|to|rows)$/;
export function describeMissing(m: MissingRows): string {
  const rows = m.from === undefined ? 'its rows' : m.from === m.to ? `row ${m.from}` : `rows ${m.from}-${m.to}`;
  return `shard ${m.shard}: ${rows} missing: ${m.reason}`;
}

/** A shard's answer from its output file (or, without one, the task's stdout), or why there is none. */
export function readAnswer(file: string, stdout: string): ShardAnswer | string {
  let text: string;
  if (existsSync(file)) text = readFileSync(file, 'utf8');
  else {
    text = stdout.trim().split('\n').at(-1) ?? '';
    if (text === '') return `its task succeeded but it left no answer (no ${file}, and nothing on stdout): the worker must write to the shard folder (--shard-dir)`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `its answer is not JSON: ${text.slice(0, 200)}`;
  }
  const v = value as Partial<ShardAnswer> & { error?: { message?: string } };
  if (v.error) return `the shard answered an error: ${v.error.message ?? JSON.stringify(v.error)}`;
  if (!v.result || !Array.isArray(v.result.values) || !v.question || typeof v.engine !== 'string' || !v.standing) {
    return `its answer is not a table answer: ${text.slice(0, 200)}`;
  }
  if (shardCell(v.result.values, 'rows') === undefined) return 'its answer carries no shard window (was the worker run with --shard by an assay that knows it?)';
  return v as ShardAnswer;
}

/** A shard window value, looked for from the end (the engine puts them after the table's cells). */
function shardCell(values: readonly ProtocolValue[], name: 'from' | 'to' | 'rows'): ProtocolValue | undefined {
  const wanted = `shard.${name}`;
  for (let i = values.length - 1; i >= 0; i--) if (values[i]!.name === wanted) return values[i];
  return undefined;
}

function shardValue(answer: ShardAnswer, name: 'from' | 'to' | 'rows'): number {
  return Number(shardCell(answer.result.values!, name)!.value);
}

export function rowsOf(answer: ShardAnswer): number {
  return Math.max(0, shardValue(answer, 'to') - shardValue(answer, 'from') + 1);
}

type Merged =
  | { question: Question; engine: string; result: RunResult; standing: Standing; missing: MissingRows[] }
  | { error: string; missing: MissingRows[] };

/** One answer from the shards' answers, in shard order; summaries over every row present. */
export function mergeShards(n: number, answers: ReadonlyMap<number, ShardAnswer>, failures: ReadonlyMap<number, string>, elapsed: number): Merged {
  const first = [...answers.entries()].sort((a, b) => a[0] - b[0])[0]?.[1];
  const missing: MissingRows[] = [];
  if (!first) {
    for (let k = 1; k <= n; k++) missing.push({ shard: k, reason: failures.get(k) ?? 'no answer' });
    return { error: `every shard failed; ${missing.map(describeMissing).join('; ')}`, missing };
  }
  const total = shardValue(first, 'rows');
  const cells: ProtocolValue[] = [];
  for (let k = 1; k <= n; k++) {
    const window = shardRows(total, k, n);
    const answer = answers.get(k);
    const got = answer ? rowsOf(answer) : 0;
    // `shard.*` are the window's own values (checked by first letter first: a table has millions of cells).
    if (answer) for (const v of answer.result.values!) if (v.name.charCodeAt(0) !== 115 || !SHARD_VALUE.test(v.name)) cells.push(v);
    if (got < window.to - window.from) {
      const reason = answer ? `the shard stopped early: ${answer.result.reason ?? 'no reason given'}` : (failures.get(k) ?? 'no answer');
      missing.push({ shard: k, from: window.from + got + 1, to: window.to, reason });
    }
  }
  const { values: _values, elapsed: _elapsed, ...rest } = first.result;
  // The key order of a local answer: values, then the rest in the engine's order, elapsed last.
  const result: RunResult = {} as RunResult;
  for (const key of Object.keys(first.result) as (keyof RunResult)[]) {
    if (key === 'values') {
      // Appended in place: a copy of millions of cells costs more than the summaries.
      for (const summary of summaries(cells)) cells.push(summary);
      (result as Record<string, unknown>).values = cells;
    }
    else if (key === 'elapsed') result.elapsed = elapsed;
    else (result as Record<string, unknown>)[key] = rest[key as keyof typeof rest];
  }
  // A shard's JSON carries the standing's strength and reasons; what the engine claimed is its result's.
  // The merged answer stands no higher than its weakest shard (each shard's rows stand on their own run),
  // and a table with rows missing was observed in part: its summaries are over the rows present only.
  const present = [...answers.values()];
  const weakest = (pick: (a: ShardAnswer) => Strength): Strength =>
    present.map(pick).reduce((low, s) => (strengthRank(s) < strengthRank(low) ? s : low));
  let strength = weakest((a) => a.standing.strength);
  const reasons = [...new Set(present.flatMap((a) => a.standing.reasons))];
  if (missing.length > 0) {
    if (strengthRank(strength) > strengthRank('observed')) strength = 'observed';
    reasons.push(`${missing.map(describeMissing).join('; ')}: the table and its summaries are over the rows present only`);
  }
  const standing: Standing = { claimed: weakest((a) => a.result.strength), strength, reasons };
  return { question: first.question, engine: first.engine, result, standing, missing };
}

/**
 * The summaries a local run gives (the engine's TableCells.values): per column, in column order,
 * min/max/mean/p5/p95 of its numbers. A column of finite numbers in one unit (or none) is summarized as
 * the engine's packed columns are; any other through summarizeValues, as the engine does.
 */
export function summaries(cells: readonly ProtocolValue[]): ProtocolValue[] {
  interface Column { readonly name: string; readonly index: number; readonly numbers: number[]; readonly unit: string | undefined; plain: boolean }
  const columns = new Map<string, Column>();
  const order: Column[] = [];
  let next = 0;
  for (const cell of cells) {
    const name = cell.name;
    // Rows repeat the columns in one order: the expected column is checked before slicing the name
    // (it is the column exactly when `name` is `<column>@<row>` with no later '@').
    let col = order.length > 0 ? order[next]! : undefined;
    if (!col || name.length <= col.name.length || name.charCodeAt(col.name.length) !== 64 || !name.startsWith(col.name) || name.indexOf('@', col.name.length + 1) >= 0) {
      const at = name.lastIndexOf('@');
      const key = at >= 0 ? name.slice(0, at) : name;
      col = columns.get(key);
      if (!col) {
        col = { name: key, index: order.length, numbers: [], unit: cell.unit, plain: true };
        columns.set(key, col);
        order.push(col);
      }
    }
    next = col.index + 1 === order.length ? 0 : col.index + 1;
    if (col.plain) {
      if (typeof cell.value === 'number' && Number.isFinite(cell.value) && cell.unit === col.unit) col.numbers.push(cell.value);
      else {
        col.plain = false;
        col.numbers.length = 0;
      }
    }
  }
  /** The cells of a column that is not plain numbers (a second pass: rare, and it spares a list per column). */
  const cellsOf = (col: Column) => cells.filter((c) => {
    const at = c.name.lastIndexOf('@');
    return (at >= 0 ? c.name.slice(0, at) : c.name) === col.name;
  });
  const out: ProtocolValue[] = [];
  for (const col of order) {
    let summary: ReturnType<typeof summarizeValues>;
    if (col.plain) {
      // As the engine summarizes its packed columns: sorted as doubles first (no comparator calls).
      const s = summarize(Array.from(Float64Array.from(col.numbers).sort()))!;
      const unit = col.unit === undefined ? undefined : tryParseUnit(col.unit);
      const wrap = (x: number): Value => (unit ? quantity(x, unit) : real(x));
      summary = { min: wrap(s.min), max: wrap(s.max), mean: wrap(s.mean), p5: wrap(s.p5), p95: wrap(s.p95) };
    } else {
      summary = summarizeValues(cellsOf(col).map(valueOf));
    }
    if (!summary) continue;
    for (const stat of SUMMARY_STATISTICS) {
      const v = summary[stat];
      if (v && !isError(v)) out.push(toProtocolValue(`${stat}(${col.name})`, v) as ProtocolValue);
    }
  }
  return out;
}

function valueOf(cell: ProtocolValue): Value {
  if (typeof cell.value === 'boolean') return { kind: 'boolean', value: cell.value };
  if (typeof cell.value === 'string') return { kind: 'string', value: cell.value };
  const unit = cell.unit === undefined ? undefined : tryParseUnit(cell.unit);
  return unit ? quantity(cell.value, unit) : real(cell.value);
}
