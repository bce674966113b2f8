// `assay sweep|compute … --offload <N>`: the rows of a table question as N shards on the task-execution
// service (task-adapter-contract.md), one task graph of `shell` tasks, each running
// `<worker command> <the same question> --shard k/N --json --output <file>`; awaited with progress on
// stderr, and merged into the answer a local run gives (same rows in the same order, same values, same
// summaries, same question and seed). A shard that fails is retried once (runShards); after that the
// answer says which rows are missing and why, and the exit code is 1. Ctrl-C cancels the shards.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readConfig, redactCredentials } from '../adapter/config';
import { runShards, type ShardCommand, type ShardResult } from '../host/offload';
import { shardError, stoppedMessage } from '../host/offload-question';
import { describeMissing, mergeShards, readAnswer, rowsOf, type ShardAnswer } from '../host/shard-merge';
import type { RunOutcome } from '../host';
import type { AskArgs } from './ask-args';
import { shardArgv } from './ask-args';
import { EXIT, exitCodeOf, usageError, type AskDependencies, type AskOutput, type Interrupts } from './ask';
import { formatOutcome, terminalSafe } from './format';

/** A worker command from the environment, when there is no --worker-command. */
export const WORKER_COMMAND_ENVIRONMENT = 'ASSAY_TASKS_WORKER_COMMAND';

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
    const message = stoppedMessage(n, outcome.stopped);
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

