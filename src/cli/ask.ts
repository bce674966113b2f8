// `assay <kind> <subject> --model <file.sysml>... [options]` and `assay engines`: the host on the command
// line. Exit codes: 0 answered, 1 engine or host failure, 2 usage error, 3 not covered, 4 cancelled or budget,
// 5 the engines disagree and no witness decides (`--engine all`, see ask-all.ts).
// 6 model or condition error (a syntax error where the subject is declared, a condition that cannot be read).
// Ctrl-C sends the protocol's cancel; a second Ctrl-C (or one while the engines shut down) stops them at once.
import { readFileSync, writeFileSync } from 'node:fs';
import {
  Host, formatManifestProblem, parseManifest, referenceEngineEntry,
  type EngineEntry, type ManifestProblem, type ModelIndex, type RunOutcome, type WitnessChecker,
} from '../host';
import type { Question, SourceDocument } from '../protocol';
import { USAGE, UsageError, parseAskArgs, type AskArgs, type EnginesArgs } from './ask-args';
import { formatEngineChecks, formatOutcome, terminalSafe } from './format';
import { ALL_ENGINES, askAllEngines } from './ask-all';
import { engineFailed, questionProblem } from '../host/question-check';
import { offload } from './offload';
import { SHARD_ENVIRONMENT } from '../host/shard-merge';

export const EXIT = { answered: 0, failure: 1, usage: 2, notCovered: 3, cancelled: 4, unresolved: 5, model: 6 } as const;

export interface AskOutput {
  out(text: string): void;
  err(text: string): void;
  /** Whether progress lines may be drawn on err. */
  interactive: boolean;
}

/** What the CLI can be given by its caller (the SysML front end, the witness replay, test settings). */
export interface AskDependencies {
  modelIndex?: ModelIndex;
  witnessChecker?: WitnessChecker;
  /** Folder of the bundles (default: this file's folder, i.e. dist/). */
  distDir?: string;
  output?: AskOutput;
  /** Where Ctrl-C comes from (default: process SIGINT/SIGTERM). */
  interrupts?: { on(listener: () => void): () => void };
}

const PROCESS_OUTPUT: AskOutput = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  interactive: Boolean(process.stderr.isTTY),
};

const PROCESS_INTERRUPTS = {
  on(listener: () => void): () => void {
    process.on('SIGINT', listener);
    process.on('SIGTERM', listener);
    return () => {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    };
  },
};

export async function runAskCommand(argv: string[], deps: AskDependencies = {}): Promise<number> {
  const given = deps.output ?? PROCESS_OUTPUT;
  // `--json --output <file>`: the one JSON object goes to the file (what a shard on a worker does).
  let toFile: string | undefined;
  let written = '';
  const output: AskOutput = { ...given, out: (text) => (toFile === undefined ? given.out(text) : void (written += text)) };
  try {
    return await askCommand(argv, deps, output, (file) => (toFile = file));
  } finally {
    if (toFile !== undefined) {
      try {
        writeFileSync(toFile, written);
      } catch (error) {
        given.err(`assay: --output ${toFile}: cannot write (${(error as Error).message})\n`);
        given.out(written);
      }
    }
  }
}

async function askCommand(argv: string[], deps: AskDependencies, output: AskOutput, setOutputFile: (file: string) => void): Promise<number> {
  const wantsJson = argv.includes('--json') || argv.includes('-json');
  let args: ReturnType<typeof parseAskArgs>;
  try {
    args = parseAskArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageError(output, error.message, wantsJson);
  }
  if (args.command === 'help') {
    output.out(USAGE);
    return EXIT.answered;
  }
  if (args.command === 'ask' && args.outputFile !== undefined) setOutputFile(args.outputFile);
  const entries = loadEntries(args, deps, output);
  if ('usage' in entries) return usageError(output, entries.usage, args.json);
  if (args.command === 'engines') return listEngines(args, entries.list, entries.problems, deps, output);

  // Listen for Ctrl-C before reading the model, not once the run exists: reading it and routing it
  // (host.ask parses the model) take tens of milliseconds without yielding, and a Ctrl-C then met
  // Node's default action, killing the process by SIGINT instead of exiting 4 as documented. With a
  // listener the signal waits until that work yields, and by then the run exists to be cancelled.
  // The listener stays until the engines are shut down and the outcome is printed.
  const interrupts = new Interrupts(deps.interrupts ?? PROCESS_INTERRUPTS);
  try {
    const documents: SourceDocument[] = [];
    for (const path of args.modelFiles) {
      try {
        documents.push({ path, text: readFileSync(path, 'utf8') });
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a folder' : e.code === 'EACCES' ? 'permission denied' : e.message;
        // The path as given: a folder's EISDIR carries none.
        return usageError(output, `--model ${path}: cannot read the model file (${why})`, args.json);
      }
    }
    if (args.engine === ALL_ENGINES) return await askAllEngines(args, entries.list, documents, deps, output, interrupts);
    if (args.engine !== undefined && !entries.list.some((e) => e.name === args.engine)) {
      return usageError(output, `--engine ${args.engine}: no such engine; configured: ${entries.list.map((e) => e.name).join(', ') || 'none'}`, args.json);
    }
    // The user's own mistakes are said as what they are, before any engine is asked.
    const problem = questionProblem(args.question, documents);
    if (problem) {
      output.err(`assay: ${problem.status}: ${terminalSafe(problem.message)}\n`);
      if (args.json) {
        const { status, message, ...place } = problem;
        output.out(JSON.stringify({ error: { message, status, ...place } }) + '\n');
      }
      return EXIT.model;
    }
    if (args.offload !== undefined) return await offload(args, argv, deps, output, interrupts);
    return await ask(args, entries.list, documents, deps, output, interrupts);
  } finally {
    interrupts.stop();
  }
}

/** Counts Ctrl-C from its creation on and passes each one to the handler; those that came first, once it is set. */
export class Interrupts {
  private count = 0;
  private handler: ((count: number) => void) | undefined;
  private readonly stopListening: () => void;

  constructor(source: { on(listener: () => void): () => void }) {
    this.stopListening = source.on(() => {
      this.count++;
      this.handler?.(this.count);
    });
  }

  handle(handler: (count: number) => void): void {
    this.handler = handler;
    for (let i = 1; i <= this.count; i++) handler(i);
  }

  stop(): void {
    this.stopListening();
  }
}

export function usageError(output: AskOutput, message: string, json: boolean): number {
  output.err(`assay: ${message}\n${json ? '' : 'run `assay --help` for usage\n'}`);
  if (json) output.out(JSON.stringify({ error: { message, status: 'usage' } }) + '\n');
  return EXIT.usage;
}

function loadEntries(
  args: AskArgs | EnginesArgs,
  deps: AskDependencies,
  output: AskOutput,
): { list: EngineEntry[]; problems: ManifestProblem[] } | { usage: string } {
  if (args.enginesFile === undefined) {
    const entry = referenceEngineEntry(deps.distDir ?? __dirname);
    // `--shard k/N`: the bundled engine's shard option (ASSAY_ENGINE_SHARD, outside the protocol).
    // Set either way, so that a variable of the user's own environment does not shard a whole run.
    entry.env = { ...entry.env, [SHARD_ENVIRONMENT]: args.command === 'ask' && args.shard ? `${args.shard.index}/${args.shard.of}` : '' };
    return { list: [entry], problems: [] };
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(args.enginesFile, 'utf8'));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e instanceof SyntaxError ? `not JSON: ${e.message}` : e.message;
    return { usage: `--engines ${args.enginesFile}: cannot read the manifest (${why})` };
  }
  const manifest = parseManifest(value);
  for (const problem of manifest.problems) output.err(`assay: ${formatManifestProblem(problem, args.enginesFile)} (entry ignored)\n`);
  if (manifest.entries.length === 0 && manifest.problems.some((p) => p.index === undefined)) {
    return { usage: `--engines ${args.enginesFile}: ${manifest.problems[0]!.message}` };
  }
  return { list: manifest.entries, problems: manifest.problems };
}

function graceFromEnvironment(): number | undefined {
  const text = process.env.ASSAY_CANCEL_GRACE_MS;
  const value = text === undefined ? NaN : Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function newHost(entries: EngineEntry[], deps: AskDependencies, output: AskOutput): Host {
  const grace = graceFromEnvironment();
  const host = new Host({
    entries,
    ...(grace !== undefined ? { cancelGraceMs: grace, shutdownGraceMs: grace } : {}),
    ...(deps.modelIndex ? { modelIndex: deps.modelIndex } : {}),
    ...(deps.witnessChecker ? { witnessChecker: deps.witnessChecker } : {}),
  });
  host.onLog(({ engine, text }) => output.err(terminalSafe(`assay: engine "${engine}": ${text}`) + '\n'));
  return host;
}

async function listEngines(
  args: EnginesArgs,
  entries: EngineEntry[],
  problems: ManifestProblem[],
  deps: AskDependencies,
  output: AskOutput,
): Promise<number> {
  const host = newHost(entries, deps, output);
  try {
    const checks = await host.checkEngines();
    if (args.json) {
      output.out(
        JSON.stringify({
          engines: checks.map((c) => ({
            name: c.name,
            command: c.entry.command,
            args: c.entry.args ?? [],
            ok: c.ok,
            ...(c.capabilities ? { description: c.capabilities } : {}),
            ...(c.problem ? { problem: c.problem } : {}),
          })),
          problems: problems.map((p) => ({ ...p, message: formatManifestProblem(p, args.enginesFile) })),
        }) + '\n',
      );
    } else {
      output.out(checks.length === 0 ? 'no engines configured\n' : formatEngineChecks(checks));
    }
    return checks.every((c) => c.ok) && problems.length === 0 ? EXIT.answered : EXIT.failure;
  } finally {
    await host.shutdown();
  }
}

async function ask(
  args: AskArgs,
  entries: EngineEntry[],
  documents: SourceDocument[],
  deps: AskDependencies,
  output: AskOutput,
  interrupts: Interrupts,
): Promise<number> {
  const host = newHost(entries, deps, output);
  const run = host.ask({
    question: args.question,
    documents,
    budget: args.budget,
    ...(args.engine !== undefined ? { engine: args.engine } : {}),
  });
  const startedAt = Date.now();
  interrupts.handle((count) => {
    if (count === 1 && !run.outcome) {
      output.err('\nassay: cancelling (Ctrl-C again to stop the engines at once)\n');
      run.cancel();
    } else {
      // Also after the run settled: the shutdown may wait out the engine's grace period.
      for (const engine of host.engines) void engine.kill(count === 1 ? 'the user interrupted the shutdown' : 'the user interrupted twice');
    }
  });
  let progressShown = false;
  let questionSent = args.question;
  host.onEvent((event) => {
    if (event.type === 'started') questionSent = event.question;
    // A long witness takes the host a while to replay: say so, and that the deadline and Ctrl-C still hold.
    if (event.type === 'checking' && event.steps >= 10_000) {
      output.err(`assay: ${event.engine} answered; the host replays its witness (${event.steps} steps) — the deadline and Ctrl-C stop the replay\n`);
    }
    if (args.json || !output.interactive) return;
    if (event.type === 'queued' && event.waitingFor) output.err(`waiting for engine ${event.waitingFor} (it runs one question at a time)\n`);
    if (event.type === 'progress') {
      const p = event.progress;
      // One number format, no `runs 0` while no execution has ended, and the time since the question was asked.
      const n = (x: number) => x.toLocaleString('en-US');
      const counts = [p.steps !== undefined && `${n(p.steps)} steps`, p.depth !== undefined && `depth ${n(p.depth)}`, p.runs && `${n(p.runs)} runs`]
        .filter(Boolean)
        .join(', ');
      const seconds = `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
      output.err(`\r\x1b[K${terminalSafe(`${event.engine}: ${[counts, p.text, seconds].filter(Boolean).join(' — ')}`)}`);
      progressShown = true;
    }
  });
  let outcome: RunOutcome;
  try {
    outcome = await run.settled;
  } finally {
    if (progressShown) output.err('\r\x1b[K');
    await host.shutdown();
  }
  if (args.json) {
    output.out(JSON.stringify(jsonOf(questionSent, outcome)) + '\n');
  } else {
    output.out(formatOutcome(args.question, outcome, Date.now() - startedAt));
  }
  return exitCodeOf(outcome);
}

export function jsonOf(question: Question, outcome: RunOutcome): unknown {
  switch (outcome.status) {
    case 'answered':
      return {
        question,
        engine: outcome.engine,
        result: outcome.result,
        standing: { strength: outcome.standing.strength, reasons: outcome.standing.reasons },
      };
    case 'not covered':
      return {
        error: {
          message: `${engineFailed(outcome) ? 'engine error' : 'not covered'}: ${outcome.reasons.map((r) => `${r.engine}: ${r.reason}`).join('; ') || 'no engines configured'}`,
          status: engineFailed(outcome) ? 'error' : 'not covered',
          reasons: outcome.reasons,
        },
      };
    default:
      return { error: { message: outcome.message, status: outcome.status, ...(outcome.engine ? { engine: outcome.engine } : {}) } };
  }
}

export function exitCodeOf(outcome: RunOutcome): number {
  switch (outcome.status) {
    case 'answered':
      // An answer whose witness the host could not reproduce does not stand.
      return outcome.standing.strength === 'not covered' ? EXIT.notCovered : EXIT.answered;
    case 'not covered':
      return engineFailed(outcome) ? EXIT.failure : EXIT.notCovered;
    case 'cancelled':
    case 'budget':
      return EXIT.cancelled;
    case 'error':
      return EXIT.failure;
  }
}
