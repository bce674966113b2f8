// `assay sweep|compute … --offload <N>`: the rows of a table question as N shards on the task-execution
// service (task-adapter-contract.md), one task graph of `shell` tasks, each running
// `<worker command> <the same question> --shard k/N --json --output <file>`; awaited with progress on
// stderr, and merged into the answer a local run gives (same rows in the same order, same values, same
// summaries, same question and seed). A shard that fails is retried once (runShards); after that the
// answer says which rows are missing and why, and the exit code is 1. Ctrl-C cancels the shards.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readConfig } from '../adapter/config';
import { redactCredentials } from '../adapter/config';
import { runShards, type ShardCommand, type ShardResult } from '../host/offload';
import type { RunOutcome, Standing } from '../host';
import type { Question, RunResult, Value as ProtocolValue } from '../protocol';
import { SUMMARY_STATISTICS, summarize, summarizeValues } from '../sysml/semantics/stats';
import { tryParseUnit } from '../sysml/semantics/units';
import { isError, quantity, real, toProtocolValue, type Value } from '../sysml/semantics/values';
import type { AskArgs } from './ask-args';
import { shardArgv } from './ask-args';
import { EXIT, exitCodeOf, usageError, type AskDependencies, type AskOutput, type Interrupts } from './ask';
import { formatOutcome, terminalSafe } from './format';

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

/** The setting `assay.tasks.workerCommand` reaches the CLI as this variable (the editor sets it). */
export const WORKER_COMMAND_ENVIRONMENT = 'ASSAY_TASKS_WORKER_COMMAND';

interface ShardAnswer {
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

export async function offload(args: AskArgs, argv: readonly string[], deps: AskDependencies, output: AskOutput, interrupts: Interrupts): Promise<number> {
  const n = args.offload!;
  let config;
  try {
    config = readConfig(process.env);
  } catch (error) {
    return usageError(output, `--offload: ${(error as Error).message}`, args.json);
  }
  const commandText = args.workerCommand ?? process.env[WORKER_COMMAND_ENVIRONMENT]?.trim() ?? '';
  const words = commandText !== '' ? commandText.split(/\s+/) : ['node', join(deps.distDir ?? __dirname, 'cli.js')];
  const [command, ...leading] = words as [string, ...string[]];
  const ownDir = args.shardDir === undefined;
  const dir = ownDir ? mkdtempSync(join(tmpdir(), 'assay-shards-')) : resolve(args.shardDir!);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    return usageError(output, `--shard-dir ${args.shardDir}: cannot create the folder (${(error as Error).message})`, args.json);
  }
  const fileOf = (k: number) => join(dir, `shard-${k}-of-${n}.json`);
  const deadline = args.budget.deadline ?? 0;
  const shards: ShardCommand[] = [];
  for (let k = 1; k <= n; k++) {
    rmSync(fileOf(k), { force: true });
    shards.push({
      name: `assay shard ${k}/${n}`,
      command,
      args: [...leading, ...shardArgv(argv, { index: k, of: n }, fileOf(k), process.cwd())],
      // The shard's own deadline ends it first; the service's timeout is the backstop.
      ...(deadline > 0 ? { timeoutMs: Math.ceil((deadline + 60) * 1000) } : {}),
    });
  }

  const started = Date.now();
  const stop = new AbortController();
  interrupts.handle((count) => {
    if (count === 1) output.err('\nassay: cancelling the shards on the task service\n');
    stop.abort();
  });
  const answers = new Map<number, ShardAnswer>();
  const failures = new Map<number, string>();
  /** The error a failed shard answered (its --output file), by shard. */
  const errors = new Map<number, { message: string; status: string }>();
  let rowsSoFar = 0;
  // ASSAY_OFFLOAD_TIMING=1: where the coordinator's own time goes (bench/offload.bench.ts reads it).
  const timing = { submitted: 0, lastShard: 0, readMs: 0, mergeMs: 0, writeMs: 0 };
  let done = 0;
  const showProgress = () => {
    const line = `assay: offload: ${done}/${n} shards done, ${rowsSoFar.toLocaleString('en-US')} rows so far${failures.size ? `, ${failures.size} failed` : ''}`;
    output.err(output.interactive ? `\r\x1b[K${line}` : `${line}\n`);
  };
  const take = (result: ShardResult) => {
    const k = result.index + 1;
    done++;
    if (result.status !== 'success') {
      const said = shardError(fileOf(k));
      if (said) errors.set(k, said);
      failures.set(k, said ? said.message : result.reason);
    } else {
      const t = performance.now();
      const answer = readAnswer(fileOf(k), result.stdout);
      timing.readMs += performance.now() - t;
      if (typeof answer === 'string') failures.set(k, answer);
      else {
        answers.set(k, answer);
        rowsSoFar += rowsOf(answer);
      }
    }
    timing.lastShard = Date.now() - started;
    showProgress();
  };
  output.err(`assay: offload: ${n} shards to ${redactCredentials(config.baseUrl)} (worker: ${terminalSafe(words.join(' '))})\n`);
  let outcome;
  try {
    outcome = await runShards({
      config,
      shards,
      signal: stop.signal,
      pollMs: pollMs(),
      onShard: take,
      onProgress: () => void (timing.submitted ||= Date.now() - started),
      onNote: (text) => output.err(`assay: ${text}\n`),
    });
  } catch (error) {
    const message = `the task service failed: ${redactCredentials((error as Error).message)}`;
    output.err(`${output.interactive ? '\n' : ''}assay: ${message}\n`);
    if (args.json) output.out(JSON.stringify({ error: { message, status: 'error' } }) + '\n');
    return EXIT.failure;
  } finally {
    if (output.interactive) output.err('\r\x1b[K');
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    else for (let k = 1; k <= n; k++) rmSync(fileOf(k), { force: true });
  }
  if (outcome.stopped) {
    const message = `cancelled: the ${n} shards were ${outcome.stopped === 'deleted' ? 'deleted on the task service (it has no cancel route; their workers may run on)' : 'cancelled on the task service'}`;
    output.err(`assay: ${message}\n`);
    if (args.json) output.out(JSON.stringify({ error: { message, status: 'cancelled' } }) + '\n');
    return EXIT.cancelled;
  }

  const mergeStart = performance.now();
  const merged = mergeShards(n, answers, failures, Date.now() - started);
  timing.mergeMs = performance.now() - mergeStart;
  // A shard that answered an error (a row the engine cannot compute, a question it does not cover):
  // a local run stops at the first such row and answers its error, so the answer is the error of the
  // first shard that answered one.
  const firstError = [...errors.entries()].sort((a, b) => a[0] - b[0])[0];
  if (firstError) {
    const [k, said] = firstError;
    output.err(`assay: ${terminalSafe(said.message)} (shard ${k}/${n})\n`);
    if (args.json) output.out(JSON.stringify({ error: said }) + '\n');
    return exitOfStatus(said.status);
  }
  if ('error' in merged) {
    output.err(`assay: ${terminalSafe(merged.error)}\n`);
    if (args.json) output.out(JSON.stringify({ error: { message: merged.error, status: 'error', missing: merged.missing } }) + '\n');
    return EXIT.failure;
  }
  const answered: RunOutcome = { status: 'answered', engine: merged.engine, result: merged.result, standing: merged.standing };
  for (const m of merged.missing) output.err(`assay: ${terminalSafe(describeMissing(m))}\n`);
  const writeStart = performance.now();
  if (args.json) {
    output.out(
      JSON.stringify({
        question: merged.question,
        engine: merged.engine,
        result: merged.result,
        standing: { strength: merged.standing.strength, reasons: merged.standing.reasons },
        ...(merged.missing.length > 0 ? { missing: merged.missing } : {}),
      }) + '\n',
    );
  } else {
    output.out(formatOutcome(args.question, answered, Date.now() - started));
  }
  timing.writeMs = performance.now() - writeStart;
  if (process.env.ASSAY_OFFLOAD_TIMING === '1') {
    const ms = (x: number) => Math.round(x);
    output.err(`assay: offload timing: submitted ${timing.submitted} ms, last shard ${timing.lastShard} ms, read ${ms(timing.readMs)} ms, merge ${ms(timing.mergeMs)} ms, write ${ms(timing.writeMs)} ms (after the start)\n`);
  }
  return merged.missing.length > 0 ? EXIT.failure : exitCodeOf(answered);
}

/** The error object a shard wrote to its output file, if it wrote one. */
function shardError(file: string): { message: string; status: string } | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as { error?: { message?: unknown; status?: unknown } };
    const e = value.error;
    if (e && typeof e.message === 'string' && typeof e.status === 'string') return { ...e, message: e.message, status: e.status };
  } catch {
    // No file (the shard did not get that far) or not JSON: the service's reason stands.
  }
  return undefined;
}

function exitOfStatus(status: string): number {
  switch (status) {
    case 'not covered':
      return EXIT.notCovered;
    case 'usage':
      return EXIT.usage;
    case 'cancelled':
    case 'budget':
      return EXIT.cancelled;
    case 'error':
      return EXIT.failure;
    default:
      return EXIT.model;
  }
}

function pollMs(): number {
  const value = Number(process.env.ASSAY_OFFLOAD_POLL_MS);
  return Number.isFinite(value) && value >= 10 ? value : 250;
}

export function describeMissing(m: MissingRows): string {
  const rows = m.from === undefined ? 'its rows' : m.from === m.to ? `row ${m.from}` : `rows ${m.from}-${m.to}`;
  return `shard ${m.shard}: ${rows} missing: ${m.reason}`;
}

/** A shard's answer from its output file (or, without one, the task's stdout), or why there is none. */
function readAnswer(file: string, stdout: string): ShardAnswer | string {
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
  if (!v.result.values.some((x) => x.name === 'shard.rows')) return 'its answer carries no shard window (was the worker run with --shard by an assay that knows it?)';
  return v as ShardAnswer;
}

function shardValue(answer: ShardAnswer, name: 'from' | 'to' | 'rows'): number {
  const v = answer.result.values!.find((x) => x.name === `shard.${name}`)!;
  return Number(v.value);
}

function rowsOf(answer: ShardAnswer): number {
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
    if (answer) for (const v of answer.result.values!) if (!SHARD_VALUE.test(v.name)) cells.push(v);
    if (got < window.to - window.from) {
      const reason = answer ? `the shard stopped early: ${answer.result.reason ?? 'no reason given'}` : (failures.get(k) ?? 'no answer');
      missing.push({ shard: k, from: window.from + got + 1, to: window.to, reason });
    }
  }
  const { values: _values, elapsed: _elapsed, ...rest } = first.result;
  // The key order of a local answer: values, then the rest in the engine's order, elapsed last.
  const result: RunResult = {} as RunResult;
  for (const key of Object.keys(first.result) as (keyof RunResult)[]) {
    if (key === 'values') (result as Record<string, unknown>).values = [...cells, ...summaries(cells)];
    else if (key === 'elapsed') result.elapsed = elapsed;
    else (result as Record<string, unknown>)[key] = rest[key as keyof typeof rest];
  }
  // A shard's JSON carries the standing's strength and reasons; what the engine claimed is its result's.
  const standing: Standing = { claimed: first.result.strength, strength: first.standing.strength, reasons: first.standing.reasons };
  return { question: first.question, engine: first.engine, result, standing, missing };
}

/**
 * The summaries a local run gives (the engine's TableCells.values): per column, in column order,
 * min/max/mean/p5/p95 of its numbers. A column of finite numbers in one unit (or none) is summarized as
 * the engine's packed columns are; any other through summarizeValues, as the engine does.
 */
export function summaries(cells: readonly ProtocolValue[]): ProtocolValue[] {
  const columns = new Map<string, ProtocolValue[]>();
  for (const cell of cells) {
    const at = cell.name.lastIndexOf('@');
    const column = at >= 0 ? cell.name.slice(0, at) : cell.name;
    let list = columns.get(column);
    if (!list) columns.set(column, (list = []));
    list.push(cell);
  }
  const out: ProtocolValue[] = [];
  for (const [column, list] of columns) {
    const unitName = list[0]!.unit;
    const plain = list.every((c) => typeof c.value === 'number' && Number.isFinite(c.value) && c.unit === unitName);
    let summary: ReturnType<typeof summarizeValues>;
    if (plain) {
      const s = summarize(list.map((c) => c.value as number))!;
      const unit = unitName === undefined ? undefined : tryParseUnit(unitName);
      const wrap = (x: number): Value => (unit ? quantity(x, unit) : real(x));
      summary = { min: wrap(s.min), max: wrap(s.max), mean: wrap(s.mean), p5: wrap(s.p5), p95: wrap(s.p95) };
    } else {
      summary = summarizeValues(list.map(valueOf));
    }
    if (!summary) continue;
    for (const stat of SUMMARY_STATISTICS) {
      const v = summary[stat];
      if (v && !isError(v)) out.push(toProtocolValue(`${stat}(${column})`, v) as ProtocolValue);
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
