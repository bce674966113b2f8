// A sweep or compute question asked in the editor, run as N shards on the task-execution service
// (issue #20, part 1, editor side): the documents as the editor holds them are written to a folder the
// workers read, each shard runs `<worker command> <kind> <subject> --model <files> <question flags>
// --shard k/N --json --output <file>`, and the shards' answers merge (shard-merge.ts) into the answer a
// local run gives. Transport (submit, poll, retry once, cancel or delete) is runShards'. No vscode here.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { AdapterConfig } from '../adapter/config';
import type { Question, Scalar, SourceDocument } from '../protocol/schema';
import type { RunOutcome } from './host';
import { runShards, type ShardCommand, type ShardResult } from './offload';
import { describeMissing, mergeShards, readAnswer, rowsOf, type MissingRows, type ShardAnswer } from './shard-merge';

/** The worker command's words: the setting's text split on spaces, or `node <dist>/cli.js`. */
export function workerWords(setting: string | undefined, distDir: string): [string, ...string[]] {
  const text = (setting ?? '').trim();
  return (text !== '' ? text.split(/\s+/) : ['node', join(distDir, 'cli.js')]) as [string, ...string[]];
}

function scalarText(value: Scalar, unit: string | undefined): string {
  const text = typeof value === 'string' ? `"${value}"` : String(value);
  return unit ? `${text}[${unit}]` : text;
}

/**
 * The CLI flags that ask `question` (after `<kind> <subject> --model …`), or why it cannot be said on a
 * command line (then it is not offered for the task service).
 */
export function questionFlags(question: Question): string[] | string {
  if (question.kind !== 'sweep' && question.kind !== 'compute') return `${question.kind} questions are not split into shards (only sweep and compute)`;
  if (question.condition) return 'a question with a condition is not offloaded yet';
  if (question.inputs && question.inputs.length > 0) return 'a question with free inputs is not offloaded yet';
  const flags = ['--schedule', question.schedule];
  if (question.draws) flags.push('--draws', question.draws);
  if (question.clockStep !== undefined) flags.push('--clock-step', String(question.clockStep));
  if (question.modelSeed !== undefined) flags.push('--model-seed', String(question.modelSeed));
  if (question.free.length > 0) flags.push('--free', question.free.join(','));
  for (const b of question.bindings ?? []) {
    if (typeof b.value === 'string' && /["\]]/.test(b.value)) return `binding ${b.name} has a value a command line cannot carry`;
    flags.push('--bind', `${b.name}=${scalarText(b.value, b.unit)}`);
  }
  const sweep = question.sweep;
  if (sweep) {
    for (const r of sweep.ranges) {
      const parts = [r.from, r.to, ...(r.step !== undefined ? [r.step] : [])];
      if (parts.some((p) => typeof p !== 'number') || /:/.test(r.parameter + r.type)) return `range ${r.parameter} cannot be said as --range <param>:<type>:<from>:<to>[:<step>]`;
      flags.push('--range', [r.parameter, r.type, ...parts.map((p) => scalarText(p, r.unit))].join(':'));
    }
    if (sweep.samples !== undefined) flags.push('--samples', String(sweep.samples));
    if (sweep.seed !== undefined) flags.push('--seed', String(sweep.seed));
    if (sweep.runs !== undefined) flags.push('--runs', String(sweep.runs));
  }
  return flags;
}

/** What a run stopped on request says, by how the shards were stopped. */
export function stoppedMessage(n: number, how: 'cancelled' | 'deleted'): string {
  return `cancelled: the ${n} shards were ${how === 'deleted' ? 'deleted on the task service (it has no cancel route; their workers may run on)' : 'cancelled on the task service'}`;
}

/** The error object a shard wrote to its output file, if it wrote one (the CLI's and the editor's). */
export function shardError(file: string): { message: string; status: string } | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as { error?: { message?: unknown; status?: unknown } };
    const e = value.error;
    if (e && typeof e.message === 'string' && typeof e.status === 'string') return { ...e, message: e.message, status: e.status };
  } catch {
    // No file (the shard did not get that far) or not JSON: the service's reason stands.
  }
  return undefined;
}

export interface OffloadQuestionProgress {
  done: number;
  failed: number;
  total: number;
  rows: number;
}

export interface OffloadQuestionOptions {
  config: AdapterConfig;
  question: Question;
  documents: readonly SourceDocument[];
  shards: number;
  worker: readonly [string, ...string[]];
  /** Seconds each shard may run (the CLI's --deadline); the service's timeout is this plus a minute. */
  deadlineSeconds?: number;
  signal?: AbortSignal;
  pollMs?: number;
  /** The folder the shard files go to; must be readable and writable by the workers. Default: a temporary folder. */
  folder?: string;
  onProgress?(progress: OffloadQuestionProgress): void;
  onNote?(text: string): void;
}

export interface OffloadQuestionResult {
  outcome: RunOutcome;
  /** Rows no shard answered (the outcome is then answered with the rows present, or an error). */
  missing: MissingRows[];
  shards: ShardResult[];
}

export async function offloadQuestion(options: OffloadQuestionOptions): Promise<OffloadQuestionResult> {
  const n = options.shards;
  if (!Number.isInteger(n) || n < 1) throw new Error(`shards: expected a whole number of at least 1, got ${n}`);
  const flags = questionFlags(options.question);
  if (typeof flags === 'string') throw new Error(flags);
  if (options.documents.length === 0) throw new Error('no documents to send to the workers');
  const ownFolder = options.folder === undefined;
  const dir = ownFolder ? mkdtempSync(join(tmpdir(), 'assay-shards-')) : options.folder!;
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  try {
    const models = options.documents.map((d, i) => {
      const name = basename(d.path).replace(/[^\w.-]/g, '_') || 'model';
      const file = join(dir, `model-${i + 1}-${/\.(sysml|kerml)$/i.test(name) ? name : `${name}.sysml`}`);
      writeFileSync(file, d.text);
      return file;
    });
    const fileOf = (k: number) => join(dir, `shard-${k}-of-${n}.json`);
    const [command, ...leading] = options.worker;
    const deadline = options.deadlineSeconds;
    const shards: ShardCommand[] = [];
    for (let k = 1; k <= n; k++) {
      shards.push({
        name: `assay shard ${k}/${n}`,
        command,
        args: [
          ...leading, options.question.kind, options.question.subject, '--model', ...models, ...flags,
          ...(deadline !== undefined ? ['--deadline', String(deadline)] : []),
          '--shard', `${k}/${n}`, '--json', '--output', fileOf(k),
        ],
        ...(deadline !== undefined ? { timeoutMs: Math.ceil((deadline + 60) * 1000) } : {}),
      });
    }
    const answers = new Map<number, ShardAnswer>();
    const failures = new Map<number, string>();
    /** The error a failed shard answered (its output file), by shard. */
    const errors = new Map<number, { message: string; status: string }>();
    let rows = 0;
    let failed = 0;
    let done = 0;
    const take = (result: ShardResult) => {
      const k = result.index + 1;
      done++;
      if (result.status !== 'success') {
        failed++;
        const said = shardError(fileOf(k));
        if (said) errors.set(k, said);
        failures.set(k, said ? said.message : result.reason);
      } else {
        const answer = readAnswer(fileOf(k), result.stdout);
        if (typeof answer === 'string') {
          failed++;
          failures.set(k, answer);
        } else {
          answers.set(k, answer);
          rows += rowsOf(answer);
        }
      }
      options.onProgress?.({ done, failed, total: n, rows });
    };
    options.onProgress?.({ done: 0, failed: 0, total: n, rows: 0 });
    const ran = await runShards({
      config: options.config,
      shards,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      onShard: take,
      ...(options.onNote ? { onNote: options.onNote } : {}),
    });
    if (ran.stopped) return { outcome: { status: 'cancelled', message: stoppedMessage(n, ran.stopped) }, missing: [], shards: ran.shards };
    const merged = mergeShards(n, answers, failures, Date.now() - started);
    // A shard that answered an error: a local run stops at the first such row and answers its error,
    // so the outcome is the error of the first shard that answered one (as the CLI's).
    const firstError = [...errors.entries()].sort((a, b) => a[0] - b[0])[0];
    if (firstError) {
      const [k, said] = firstError;
      const message = `${said.message} (shard ${k}/${n})`;
      const status = said.status === 'budget' || said.status === 'cancelled' ? said.status : 'error';
      return { outcome: { status, message }, missing: merged.missing, shards: ran.shards };
    }
    if ('error' in merged) return { outcome: { status: 'error', message: merged.error }, missing: merged.missing, shards: ran.shards };
    if (merged.missing.length > 0) {
      return { outcome: { status: 'error', message: `rows missing: ${merged.missing.map(describeMissing).join('; ')}` }, missing: merged.missing, shards: ran.shards };
    }
    return { outcome: { status: 'answered', engine: merged.engine, result: merged.result, standing: merged.standing }, missing: [], shards: ran.shards };
  } finally {
    if (ownFolder) rmSync(dir, { recursive: true, force: true });
  }
}
