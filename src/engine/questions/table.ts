// `compute` and `sweep`: the subject's value over points of the question's ranges, as a table.
//
// A row depends on its index alone: its point comes from the grid position or from a generator seeded
// by (seed, row), and the model's random functions draw from that same generator. So the table is the
// same for any number of worker threads, and the same seed gives the same table.
import { Random, type Draws } from '../../sysml/semantics/random';
import { SUMMARY_STATISTICS, summarize, summarizeValues } from '../../sysml/semantics/stats';
import { quantityKindUnit, sameDimension, tryParseUnit, type Unit } from '../../sysml/semantics/units';
import { describeKind, int, isError, quantity, real, toProtocolValue, type Value } from '../../sysml/semantics/values';
import { addRational, decimalRational, divideRational, multiplyRational, rationalToNumber, subtractRational, type Rational } from '../../sysml/semantics/rational';
import type { Bound, CoversParams, CoversResult, Question, Range, RunParams, RunResult, Sources, Value as ProtocolValue } from '../../protocol';
import { BudgetError, UnsupportedError } from '../../sysml/model/errors';
import { declarationKind, type ModelElement } from '../../sysml/model/model';
import { runChunks, TaskError, type ChunkOutcome, type ChunkTask, type TaskRegistry } from '../pool';
import type { RunContext } from '../run';
import type { QuestionHandler } from '../server';
import { failure, Model, Session, typeName } from '../../sysml/model/session';
import { unsupportedConstruct } from './coverage';
import { CountingRandom, evaluable, evaluateSubject, presentable, runSession, seededRandom } from './evaluate';

/**
 * More cells than this is refused up front: the answer is one protocol line, and a host reads lines of
 * at most 64 MiB (a cell is some 40 bytes of JSON).
 */
export const MAX_TABLE_CELLS = 1_000_000;

interface Axis {
  parameter: string;
  /** Instance path the parameter binds, and the feature there (its declared types check each point). */
  path: string;
  feature: ModelElement;
  integral: boolean;
  unit: Unit | undefined;
  from: number;
  to: number;
  /** Grid: the step and the number of points (absent for a sampled axis); points are computed on demand. */
  step?: number;
  count?: number;
  /** from and step as the decimals written, exactly: a grid point is from + k·step exactly (0.1 + 2·0.1 is 0.3). */
  fromExact?: Rational;
  stepExact?: Rational;
}

export interface TableSpec {
  sources: Sources;
  question: Question;
  maxSteps: number;
  /** Index of the table's first row this run computes (a shard's window; 0 for the whole table). */
  offset?: number;
  /** A shard: the cell limit applies to its window, not to the whole table. */
  windowed?: boolean;
}

/**
 * The bundled engine's shard option (not part of the protocol, whose `sweep` has no row window): with
 * ASSAY_ENGINE_SHARD=k/N in its environment, a table answer holds only the rows of shard k (from 1) of N
 * — rows floor((k-1)·R/N) … floor(k·R/N) - 1 of the R rows a whole run computes, each named by its row
 * number in the whole table — no summaries (the merge computes them over every row) and three values
 * that say the window: `shard.from` and `shard.to` (row numbers from 1, inclusive; from > to for an
 * empty shard) and `shard.rows` (R). Rows depend on their index alone, so a shard's rows are the rows
 * of a whole run. `assay … --shard k/N` sets it; `assay … --offload N` merges the shards.
 */
export const SHARD_ENVIRONMENT = 'ASSAY_ENGINE_SHARD';

export interface ShardWindow {
  index: number;
  of: number;
}

export function parseShard(text: string): ShardWindow | string {
  const m = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(text.trim());
  if (!m) return `expected k/N with 1 <= k <= N (got "${text}")`;
  const index = Number(m[1]);
  const of = Number(m[2]);
  if (index > of || !Number.isSafeInteger(of)) return `expected k/N with 1 <= k <= N (got "${text}")`;
  return { index, of };
}

/** The rows [from, to) of shard `index` (from 1) of `of` over `rows` rows. */
export function shardRows(rows: number, shard: ShardWindow): { from: number; to: number } {
  return { from: Math.floor(((shard.index - 1) * rows) / shard.of), to: Math.floor((shard.index * rows) / shard.of) };
}

function shardOfEnvironment(): ShardWindow | undefined {
  const text = process.env[SHARD_ENVIRONMENT];
  if (text === undefined || text === '') return undefined;
  const shard = parseShard(text);
  if (typeof shard === 'string') throw new Error(`${SHARD_ENVIRONMENT}: ${shard}`);
  return shard;
}

/** A row: the parameter values, then the result columns; or the message of the row's failure. */
export type Row = Value[];

function numberOf(x: string | number | boolean, what: string): number {
  const n = typeof x === 'number' ? x : typeof x === 'string' ? Number(x) : NaN;
  if (!Number.isFinite(n)) throw new UnsupportedError(`${what} must be a number, got ${JSON.stringify(x)}`);
  return n;
}

/** Rounds away the noise of from + k·step (0.1 + 0.2) to 12 significant digits. */
function tidy(x: number): number {
  return x === 0 ? 0 : Number(x.toPrecision(12));
}

/** The plan of a table: its axes, its columns and how many rows it has. */
export class TablePlan {
  readonly axes: Axis[];
  readonly columns: string[];
  readonly resultFeatures: ModelElement[] | undefined;
  readonly rows: number;
  /** Rows per grid point (Monte Carlo runs). */
  readonly runs: number;
  readonly sampled: boolean;
  readonly seed: number;
  readonly random: boolean;

  /** `wholeTable` false: a shard's plan, whose window (not the whole table) must fit the answer's cell limit. */
  constructor(readonly session: Session<Question>, wholeTable = true) {
    const q = session.question;
    const sweep = q.sweep;
    this.sampled = sweep?.sampled === true;
    this.runs = sweep?.runs && sweep.runs > 0 ? sweep.runs : 1;
    this.seed = sweep?.seed ?? q.modelSeed ?? 0;
    this.axes = (sweep?.ranges ?? []).map((r) => this.axis(r));
    const subject = session.subject;
    if (evaluable(subject)) {
      this.resultFeatures = undefined;
      this.columns = [...this.axes.map((a) => a.parameter), subject.name ?? 'value'];
    } else {
      // A part or other structure: one column per attribute it derives (has a value expression for).
      this.resultFeatures = session.values.index
        .featuresOf(subject)
        .filter((f) => f.node.kind === 'Usage' && f.node.value !== null && !this.axes.some((a) => a.parameter === f.name));
      if (this.resultFeatures.length === 0) {
        throw new UnsupportedError(`${q.subject} is a ${declarationKind(subject)} with no attribute that has a value to tabulate`);
      }
      this.columns = [...this.axes.map((a) => a.parameter), ...this.resultFeatures.map((f) => f.name ?? '?')];
    }
    const points = this.sampled ? Math.max(0, sweep?.samples ?? 0) : this.axes.reduce((n, a) => n * a.count!, 1);
    if (this.sampled && !(sweep?.samples && sweep.samples > 0)) throw new UnsupportedError('a sampled sweep needs samples > 0');
    const rows = points * (this.sampled ? 1 : this.runs);
    if (wholeTable && rows * this.columns.length > MAX_TABLE_CELLS) {
      throw new UnsupportedError(`the table would have ${rows} rows of ${this.columns.length} columns; this engine answers at most ${MAX_TABLE_CELLS} cells (narrow the ranges or use a larger step)`);
    }
    this.rows = rows;
    this.random = this.sampled || (sweep?.runs ?? 0) > 0;
  }

  private axis(r: Range): Axis {
    const found = this.session.featurePath(r.parameter);
    if (!found) throw new UnsupportedError(`the range ${r.parameter} names no feature of ${this.session.question.subject}`);
    const written = r.unit ? tryParseUnit(r.unit) : undefined;
    if (r.unit && !written) throw new UnsupportedError(`range ${r.parameter}: unknown unit '${r.unit}'`);
    // A range over a quantity without a unit is in the quantity kind's coherent unit (m/s for a SpeedValue).
    const featureType = typeName(found.feature, this.session.model.index);
    const kind = quantityKindUnit(r.type) ?? (featureType ? quantityKindUnit(featureType) : undefined);
    const unit = written ?? kind;
    if (kind && unit && !sameDimension(kind.dimension, unit.dimension)) {
      throw new UnsupportedError(`range ${r.parameter}: [${unit.name}] is not a ${(featureType ?? r.type).split('::').at(-1)} (use a unit like [${kind.name}])`);
    }
    const type = r.type.split('::').at(-1);
    if (type === 'Boolean' || type === 'String') throw new UnsupportedError(`range ${r.parameter}: a ${type} range is not supported (numbers and quantities only)`);
    const integral = /^(Integer|Natural|Positive)$/.test(type ?? '');
    const from = numberOf(r.from, `range ${r.parameter}: from`);
    const to = numberOf(r.to, `range ${r.parameter}: to`);
    if (to < from) throw new UnsupportedError(`range ${r.parameter}: from ${from} is above to ${to}`);
    if (integral && Math.ceil(from) > Math.floor(to)) throw new UnsupportedError(`range ${r.parameter}: no Integer lies between ${from} and ${to}`);
    const axis: Axis = { parameter: r.parameter, path: found.path, feature: found.feature, integral, unit, from, to };
    // A sampled range draws from its grid when it has a step (`1:3:1` draws 1, 2 or 3), else from the interval.
    const sampled = this.session.question.sweep?.sampled === true;
    if (sampled && r.step === undefined) return axis;
    let step = r.step === undefined ? (integral ? 1 : undefined) : numberOf(r.step, `range ${r.parameter}: step`);
    if (step === undefined) throw new UnsupportedError(`range ${r.parameter}: a grid over ${r.type} needs a step (or a sampled sweep)`);
    if (!(step > 0)) throw new UnsupportedError(`range ${r.parameter}: step must be positive, got ${step}`);
    if (integral && !Number.isInteger(step)) step = Math.max(1, Math.round(step));
    const fromExact = decimalRational(String(r.from));
    const toExact = decimalRational(String(r.to));
    const stepExact = integral ? decimalRational(String(step)) : r.step === undefined ? undefined : decimalRational(String(r.step));
    // The points from + k·step up to `to`, counted exactly where the range's decimals are.
    const span = fromExact && toExact && stepExact ? divideRational(subtractRational(toExact, fromExact) ?? { n: 0n, d: 1n }, stepExact) : undefined;
    const count = (span ? Number(span.n / span.d) : Math.floor((to - from) / step + 1e-9)) + 1;
    if (count > MAX_TABLE_CELLS && !sampled) throw new UnsupportedError(`range ${r.parameter} has ${count} points; at most ${MAX_TABLE_CELLS}`);
    axis.step = step;
    axis.count = count;
    if (span && fromExact && stepExact) {
      axis.fromExact = fromExact;
      axis.stepExact = stepExact;
    }
    return axis;
  }

  /** Grid point k of an axis: exact where its from and step are. */
  private gridPoint(a: Axis, k: number): Value {
    const exact = a.fromExact && a.stepExact ? addRational(a.fromExact, multiplyRational(a.stepExact, { n: BigInt(k), d: 1n }) ?? { n: 0n, d: 1n }) : undefined;
    return this.valueOf(a, exact ? rationalToNumber(exact, a.from + k * a.step!) : tidy(a.from + k * a.step!), exact);
  }

  /**
   * A point's value: an Integer, or a Real or quantity whose exact value is `exact` or, without one, the
   * decimal the row reports it as (String(x)), so the row and its evaluation agree on the point.
   */
  private valueOf(axis: Axis, x: number, exact?: Rational): Value {
    if (axis.integral) return int(Math.round(x));
    const e = exact ?? (Number.isFinite(x) ? decimalRational(String(x)) : undefined);
    if (axis.unit) return quantity(x, axis.unit, e);
    return real(x, e);
  }

  /** The generator of row `i` (from 0): seeded by (seed, i) so rows are independent of each other. */
  private rowRandom(i: number): CountingRandom {
    return new CountingRandom((BigInt(this.seed) * 0x9e3779b97f4a7c15n + BigInt(i) + 1n) & ((1n << 64n) - 1n));
  }

  /** The point and the result of row `i` (from 0). */
  row(i: number): Row {
    const q = this.session.question;
    const point = new Map<string, Value>();
    const cells: Value[] = [];
    let draws: Draws;
    let random: Random | undefined;
    if (this.sampled) {
      random = this.rowRandom(i);
      for (const a of this.axes) {
        const u = random.next();
        if (a.count !== undefined) {
          point.set(a.path, this.gridPoint(a, Math.min(a.count - 1, Math.floor(u * a.count))));
          continue;
        }
        const lo = Math.ceil(a.from);
        const x = a.integral ? lo + Math.floor(u * (Math.floor(a.to) - lo + 1)) : a.from + u * (a.to - a.from);
        point.set(a.path, this.valueOf(a, x));
      }
      draws = q.draws ? { policy: q.draws } : { random };
    } else {
      let k = Math.floor(i / this.runs);
      for (let j = this.axes.length - 1; j >= 0; j--) {
        const a = this.axes[j]!;
        const n = a.count!;
        point.set(a.path, this.gridPoint(a, k % n));
        k = Math.floor(k / n);
      }
      if (q.draws) draws = { policy: q.draws };
      else if (this.random) draws = { random: this.rowRandom(i) };
      else {
        const r = seededRandom(q);
        draws = r ? { random: r } : {};
      }
    }
    for (const a of this.axes) {
      // A point the feature's type does not admit (0.5 for an Integer, -1 for a Natural) is refused, as a binding is.
      const typed = this.session.values.conforming(a.feature, `'${a.parameter}'`, point.get(a.path)!);
      if (isError(typed)) throw new UnsupportedError(`range ${a.parameter}: ${typed.message}`);
      point.set(a.path, typed);
      cells.push(typed);
    }
    const session = this.session.forRow(point, draws);
    try {
      if (!this.resultFeatures) {
        cells.push(evaluateSubject(session).value);
      } else {
        for (const f of this.resultFeatures) {
          const v = session.values.featureValue(session.subjectContext, f);
          if (isError(v)) throw failure(v, session.model, f.path);
          if (v.kind === 'instance') throw new UnsupportedError(`${f.name} is a structured value (${v.label})`);
          cells.push(presentable(v, undefined));
        }
      }
    } catch (e) {
      if (e instanceof UnsupportedError) {
        const at = this.axes.map((a) => `${a.parameter} = ${describePoint(point.get(a.path)!)}`).join(', ');
        throw new UnsupportedError(`row ${i + 1}${at ? ` (${at})` : ''}: ${e.message}`);
      }
      throw e;
    }
    for (const c of cells) {
      if (c.kind === 'instance') throw new UnsupportedError(`row ${i + 1}: a structured value cannot be a table cell`);
    }
    return cells;
  }
}

function describePoint(v: Value): string {
  if (v.kind === 'quantity') return `${v.value} [${v.unit.name}]`;
  if (v.kind === 'integer' || v.kind === 'real' || v.kind === 'boolean' || v.kind === 'string') return String(v.value);
  return describeKind(v);
}

function planFor(spec: TableSpec, signal?: AbortSignal): TablePlan {
  const model = new Model(spec.sources);
  const session = new Session(model, spec.question, { ...(signal ? { signal } : {}), ...(spec.maxSteps ? { maxSteps: spec.maxSteps } : {}) });
  return new TablePlan(session, spec.windowed !== true);
}

/**
 * A cell as it crosses from a worker: a Real as a number, an Integer as a bigint, a Boolean as itself, a
 * quantity as [magnitude, unit name]; anything else as its Value. Plain data copies between threads far
 * faster than Value objects carrying Unit objects, and the main thread (which decodes) stays free.
 */
export type EncodedCell = number | bigint | boolean | [number, string] | Value;

const UNIT_READS_BACK = new Map<string, Unit | null>();

/** The unit a name reads back as, when it is the same unit (cached per name). */
function unitByName(name: string, like?: Unit): Unit | undefined {
  let u = UNIT_READS_BACK.get(name);
  if (u === undefined) {
    const parsed = tryParseUnit(name);
    u = parsed && (!like || (sameDimension(parsed.dimension, like.dimension) && parsed.num === like.num && parsed.den === like.den && parsed.offset === like.offset)) ? parsed : null;
    UNIT_READS_BACK.set(name, u);
  }
  return u ?? undefined;
}

export function encodeCell(v: Value): EncodedCell {
  switch (v.kind) {
    case 'real':
      return v.value;
    case 'integer':
      return v.value;
    case 'boolean':
      return v.value;
    case 'quantity':
      return unitByName(v.unit.name, v.unit) ? [v.value, v.unit.name] : v;
    default:
      return v;
  }
}

export function decodeCell(c: EncodedCell): Value {
  if (typeof c === 'number') return real(c);
  if (typeof c === 'bigint') return int(c);
  if (typeof c === 'boolean') return { kind: 'boolean', value: c };
  if (Array.isArray(c)) return quantity(c[0], unitByName(c[1])!);
  return c;
}

/**
 * A column of a finished chunk as it crosses to the main thread: finite numbers (Reals, safe Integers, or
 * magnitudes of quantities in one unit that reads back by its name) as one Float64Array, which moves
 * instead of being copied and costs the main thread's garbage collector nothing; any other column as
 * its encoded cells. A safe Integer is kept as its number: its protocol value and its summary are the
 * same as a Real's.
 */
export type PackedColumn = { numbers: Float64Array; unit: string | undefined } | { cells: EncodedCell[] };

/** The rows of a finished chunk, column by column. */
export interface PackedChunk {
  rows: number;
  columns: PackedColumn[];
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** Packs one column of a chunk (see PackedColumn). */
function packColumn(rows: readonly Row[], c: number): PackedColumn {
  const numbers = new Float64Array(rows.length);
  let unit: string | undefined;
  for (let r = 0; r < rows.length; r++) {
    const v = rows[r]![c]!;
    let x: number;
    if (v.kind === 'real' && unit === undefined) x = v.value;
    else if (v.kind === 'integer' && unit === undefined && v.value <= MAX_SAFE && v.value >= MIN_SAFE) x = Number(v.value);
    else if (v.kind === 'quantity' && (r === 0 ? unitByName(v.unit.name, v.unit) !== undefined : v.unit.name === unit)) {
      unit = v.unit.name;
      x = v.value;
    } else x = NaN;
    // Anything else, or a number that is not finite: the column's cells one by one.
    if (!Number.isFinite(x)) return { cells: rows.map((row) => encodeCell(row[c]!)) };
    numbers[r] = x;
  }
  return { numbers, unit };
}

export function packRows(rows: readonly Row[]): PackedChunk {
  const width = rows[0]?.length ?? 0;
  const columns: PackedColumn[] = [];
  for (let c = 0; c < width; c++) columns.push(packColumn(rows, c));
  return { rows: rows.length, columns };
}

function transferOf(chunk: PackedChunk): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const col of chunk.columns) if ('numbers' in col) buffers.push(col.numbers.buffer as ArrayBuffer);
  return buffers;
}

/** Worker tasks: the rows of a table (each thread parses the model once and plans the table itself). */
export const TABLE_TASKS: TaskRegistry = {
  tableRows: (spec: TableSpec, signal?: AbortSignal) => tableTask(planFor(spec, signal), spec.offset ?? 0),
};

/** Row i of the task is row offset + i of the table. */
function tableTask(plan: TablePlan, offset: number): ChunkTask<Row, PackedChunk> {
  return { row: (i) => plan.row(offset + i), pack: packRows, transfer: transferOf };
}

/** A cell as a protocol value, straight from its encoded form (the common cases without a Value). */
function protocolCell(name: string, c: EncodedCell): ProtocolValue {
  if (typeof c === 'number' && Number.isFinite(c)) return { name, value: c };
  if (Array.isArray(c) && Number.isFinite(c[0])) return { name, value: c[0], unit: c[1] };
  return toProtocolValue(name, decodeCell(c)) as ProtocolValue;
}

/**
 * The cells of a table as protocol values, filled chunk by chunk as chunks arrive (so the main thread
 * tabulates while other threads still compute), and the summaries from the chunks' columns.
 */
class TableCells {
  private readonly cells: ProtocolValue[];
  private readonly width: number;

  constructor(
    private readonly columns: readonly string[],
    count: number,
    /** Row number of the first row, less one (a shard's rows are named by their place in the whole table). */
    private readonly offset = 0,
  ) {
    this.width = columns.length;
    this.cells = new Array<ProtocolValue>(count * this.width);
  }

  add(start: number, chunk: PackedChunk): void {
    const { columns, width, cells } = this;
    const first = start + this.offset;
    for (let c = 0; c < width; c++) {
      const col = chunk.columns[c]!;
      const prefix = `${columns[c]}@`;
      if ('numbers' in col) {
        const { numbers, unit } = col;
        if (unit === undefined) for (let k = 0; k < chunk.rows; k++) cells[(start + k) * width + c] = { name: prefix + (first + k + 1), value: numbers[k]! };
        else for (let k = 0; k < chunk.rows; k++) cells[(start + k) * width + c] = { name: prefix + (first + k + 1), value: numbers[k]!, unit };
      } else {
        for (let k = 0; k < chunk.rows; k++) cells[(start + k) * width + c] = protocolCell(prefix + (first + k + 1), col.cells[k]!);
      }
    }
  }

  /** The values of the first `rows` rows (the finished table or prefix), then the summaries (unless `summaries` is false). */
  values(rows: number, chunks: readonly PackedChunk[], summaries = true): ProtocolValue[] {
    const out = rows * this.width === this.cells.length ? this.cells : this.cells.slice(0, rows * this.width);
    if (!summaries) return out;
    this.columns.forEach((column, c) => {
      const summary = summarizeColumn(chunks, c, rows);
      if (!summary) return;
      for (const stat of SUMMARY_STATISTICS) {
        const v = summary[stat];
        if (v && !isError(v)) out.push(toProtocolValue(`${stat}(${column})`, v) as ProtocolValue);
      }
    });
    return out;
  }
}

/**
 * summarizeValues of a column: a column of finite numbers, or of finite magnitudes in one unit, is
 * summarized from its chunks' Float64Arrays directly; anything else through the Values.
 */
function summarizeColumn(chunks: readonly PackedChunk[], c: number, rows: number): ReturnType<typeof summarizeValues> {
  if (rows === 0) return undefined;
  const first = chunks[0]!.columns[c]!;
  const unitName = 'numbers' in first ? first.unit : undefined;
  const plain = chunks.every((chunk) => {
    const col = chunk.columns[c]!;
    return 'numbers' in col && col.unit === unitName;
  });
  if (!plain) {
    const values: Value[] = [];
    for (const chunk of chunks) {
      const col = chunk.columns[c]!;
      for (let k = 0; k < chunk.rows; k++) {
        if ('cells' in col) values.push(decodeCell(col.cells[k]!));
        else values.push(col.unit === undefined ? real(col.numbers[k]!) : quantity(col.numbers[k]!, unitByName(col.unit)!));
      }
    }
    return summarizeValues(values);
  }
  const numbers = new Float64Array(rows);
  let at = 0;
  for (const chunk of chunks) {
    numbers.set((chunk.columns[c] as { numbers: Float64Array }).numbers, at);
    at += chunk.rows;
  }
  // Sorted as doubles first (no comparator calls), so summarize's own sort meets sorted input.
  const s = summarize(Array.from(numbers.sort()))!;
  const unit = unitName === undefined ? undefined : unitByName(unitName);
  const wrap = (n: number) => (unit ? quantity(n, unit) : real(n));
  return { min: wrap(s.min), max: wrap(s.max), mean: wrap(s.mean), p5: wrap(s.p5), p95: wrap(s.p95) };
}

async function runTable(params: RunParams, run: RunContext, kind: 'compute' | 'sweep'): Promise<RunResult> {
  // A shard (the bundled engine's option, see SHARD_ENVIRONMENT) computes a window of the rows.
  const shard = shardOfEnvironment();
  const spec: TableSpec = { sources: params.model.sources!, question: params.question, maxSteps: run.limit('steps'), ...(shard ? { windowed: true } : {}) };
  const plan = planFor(spec, run.signal);
  const runsLimit = run.limit('runs');
  const total = runsLimit > 0 ? Math.min(plan.rows, runsLimit) : plan.rows;
  const window = shard ? shardRows(total, shard) : { from: 0, to: total };
  const count = window.to - window.from;
  if (shard && count * plan.columns.length > MAX_TABLE_CELLS) {
    throw new UnsupportedError(`shard ${shard.index}/${shard.of} would have ${count} rows of ${plan.columns.length} columns; this engine answers at most ${MAX_TABLE_CELLS} cells (use more shards)`);
  }
  if (window.from > 0) spec.offset = window.from;
  // Worker threads pay ~0.1 s to start and parse the model: only worth it for tables of some size.
  const jobs = Math.min(run.jobs, Math.max(1, Math.floor(count / 32)));
  const cells = new TableCells(plan.columns, count, window.from);
  // A shard of a table with fewer rows than shards may have none (the pool waits for a first chunk).
  const empty: ChunkOutcome<PackedChunk> = { status: 'done', done: 0, chunks: [] };
  const outcome = count === 0 ? empty : await runChunks<TableSpec, Row, PackedChunk>(
    { jobs, memoryMiB: run.limit('memory'), tasks: TABLE_TASKS },
    {
      task: 'tableRows',
      spec,
      count,
      signal: run.signal,
      prepared: tableTask(plan, window.from),
      onChunk: (start, chunk) => cells.add(start, chunk),
      onProgress: (done) => run.progress({ runs: done, text: `${done} of ${count} rows` }),
    },
  ).catch((e: unknown) => {
    // A row's error crossed a thread boundary (or the inline pool) as a TaskError: give it back its kind.
    if (e instanceof TaskError) {
      if (e.errorName === 'UnsupportedError') throw new UnsupportedError(e.message);
      if (e.errorName === 'BudgetError') throw new BudgetError(e.message);
      throw new Error(`${e.errorName}: ${e.message}${e.row >= 0 ? ` (row ${window.from + e.row + 1})` : ''}`);
    }
    throw e;
  });
  if (outcome.status === 'cancelled') throw new BudgetError(`cancelled by the host after ${outcome.done} of ${count} rows`);
  const bounds: Bound[] = run.bounds.map((b) => ({ ...b }));
  const reach = (name: 'runs' | 'memory') => {
    const b = bounds.find((x) => x.name === name);
    if (b) b.reached = true;
    else bounds.push({ name, limit: run.limit(name), reached: true });
  };
  let reason: string | undefined;
  if (total < plan.rows) {
    reach('runs');
    reason = `stopped at the runs bound: ${total} of ${plan.rows} rows`;
  }
  if (outcome.status === 'memory') {
    if (outcome.done === 0) throw new BudgetError(outcome.reason);
    reach('memory');
    reason = `${outcome.reason}: ${outcome.done} of ${plan.rows} rows`;
  }
  const reached = bounds.some((b) => b.reached);
  const strength = reached ? 'bounded' : plan.random || (kind === 'compute' && usesDraws(plan)) ? 'observed' : 'proved';
  return {
    claim: 'table',
    strength,
    values: shard
      ? [
          ...cells.values(outcome.done, outcome.chunks, false),
          { name: 'shard.from', value: window.from + 1 },
          { name: 'shard.to', value: window.from + outcome.done },
          { name: 'shard.rows', value: total },
        ]
      : cells.values(outcome.done, outcome.chunks),
    ...(bounds.length > 0 ? { bounds } : {}),
    ...(reason ? { reason } : {}),
    elapsed: run.elapsed(),
  };
}

function usesDraws(plan: TablePlan): boolean {
  return plan.session.question.draws === undefined && seededRandom(plan.session.question) !== undefined;
}

function coversTable(params: CoversParams, kind: 'compute' | 'sweep'): CoversResult {
  const model = new Model(params.model.sources!);
  const subject = model.subject(params.question.subject);
  const k = declarationKind(subject);
  if (kind === 'compute' && !['calc', 'analysis', 'constraint', 'attribute', 'ref', 'feature', 'verification', 'case'].includes(k)) {
    return { covers: false, reason: `compute answers about calcs and analyses; ${params.question.subject} is a ${k}` };
  }
  if (kind === 'sweep' && (params.question.sweep === undefined || (params.question.sweep.ranges.length === 0 && !params.question.sweep.runs))) {
    return { covers: false, reason: 'a sweep needs ranges or Monte Carlo runs' };
  }
  const construct = unsupportedConstruct(model, subject);
  return construct ? { covers: false, reason: construct } : { covers: true };
}

export const computeQuestion: QuestionHandler = {
  covers: (params) => coversTable(params, 'compute'),
  async run(params, run) {
    if (params.question.sweep && params.question.sweep.ranges.length > 0) return runTable(params, run, 'compute');
    // No ranges: the calc's value for the bound inputs.
    const { session, random } = runSession(params, run);
    const r = evaluateSubject(session);
    return {
      claim: 'value',
      strength: random && random.draws > 0 ? 'observed' : 'proved',
      values: [toProtocolValue(session.subject.name ?? 'value', r.value) as ProtocolValue, ...(r.outputs ?? []).map((o) => toProtocolValue(o.name, o.value) as ProtocolValue)],
      ...(r.reason ? { reason: r.reason } : {}),
      elapsed: run.elapsed(),
    };
  },
};

export const sweepQuestion: QuestionHandler = {
  covers: (params) => coversTable(params, 'sweep'),
  async run(params, run) {
    if (!params.question.sweep) throw new UnsupportedError('a sweep question needs `sweep` with ranges or runs');
    return runTable(params, run, 'sweep');
  },
};
