// Command line of `assay <kind> <subject> --model <file.sysml>... [options]` and `assay engines`, parsed
// into a protocol question, a budget and the host choices. A usage error names the flag and the value.
import {
  DRAWS, FREE_DIMENSIONS, QUESTION_KINDS,
  type Condition, type FreeInput, type Question, type QuestionKind, type Range, type Scalar, type Sweep, type Value,
} from '../protocol';
import type { BudgetLimits } from '../host';
import { isAbsolute, resolve } from 'node:path';
import { decimalRational } from '../sysml/semantics/rational';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface AskArgs {
  command: 'ask';
  question: Question;
  modelFiles: string[];
  budget: BudgetLimits;
  engine?: string;
  enginesFile?: string;
  json: boolean;
  /** `--shard k/N`: compute only shard k's rows (the bundled engine's shard option). */
  shard?: { index: number; of: number };
  /** `--offload N`: run the rows as N shards on the task service and merge them. */
  offload?: number;
  /** `--worker-command`: the program (and its first arguments) a worker runs for a shard. */
  workerCommand?: string;
  /** `--shard-dir`: where the shards write their answers (a folder the workers and this host share). */
  shardDir?: string;
  /** `--output <file>`: write the JSON object to this file instead of standard output. */
  outputFile?: string;
}

export interface EnginesArgs {
  command: 'engines';
  enginesFile?: string;
  json: boolean;
}

export interface HelpArgs {
  command: 'help';
}

/** Longest `--deadline`: what a Node timer can wait, 2^31-1 ms, in whole seconds. */
export const MAX_DEADLINE_SECONDS = 2147483;

/** Seconds a run may take when no `--deadline` is given (the `assay.budget` default). */
export const DEFAULT_DEADLINE_SECONDS = 60;

export const USAGE = `usage: assay <kind> <subject> --model <file.sysml>... [options]
       assay engines [--engines <manifest.json>] [--json]
       assay parse <files or folders...> [--library <folder>] [--json]
       assay --version | -V                print the version and exit

kinds: ${QUESTION_KINDS.join(', ')}

question:
  -schedule fifo|lifo|all|seed:<n>    scheduling policy (default fifo)
  -draws min|max|average              how random-function draws resolve (default: at random)
  -clock-step <seconds>               clock tick; absent is a continuous clock
  -model-seed <n>                     seed for modeled draws
  --free schedule,inputs              what the question ranges over
  --condition <name>[=<text>]         the condition (a declared constraint, or a label and an expression)
  --bind <name>=<value>[<unit>]       bind a feature, e.g. --bind mass=3.5[kg] (repeatable)
  --input <name>:<type>:<domain>      a free input (repeatable)
  --range <param>:<type>:<from>:<to>[:<step>]   a sweep range (repeatable)
  --samples <n>  --seed <n>  --runs <n>         sampled sweep / Monte Carlo
budget:
  --deadline <seconds> (default ${DEFAULT_DEADLINE_SECONDS})  --depth <n>  --steps <n>  --runs-limit <n>
  --memory <MiB>  --jobs <n>          a limit of 0 leaves that bound open
engines:
  --engine <name>                     ask only this engine
  --engine all                        ask every engine that covers the question; compare their answers
  --engines <manifest.json>           use these engines instead of the built-in list
output:
  --json                              print exactly one JSON object
  --output <file>                     write that JSON object to a file instead (with --json)
offload (sweep, compute --range; task service at SERVICE_URL):
  --offload <N>                       run the rows as N shards on the task service, merged into one answer
  --worker-command <command>          what a worker runs for a shard (default: node <this dist/cli.js>)
  --shard-dir <folder>                where shards write their answers (default: a temporary folder)
  --shard <k>/<N>                     compute only shard k's rows (what a worker runs; bundled engine only)

exit codes: 0 answered, 1 engine or host failure, 2 usage error, 3 not covered, 4 cancelled or budget,
  5 the engines disagree and no witness the host reproduced decides (--engine all),
  6 model or condition error
`;

/** Flags that take a value, by their name without dashes. Each may be written -name, --name or --name=value. */
const VALUE_FLAGS = new Set([
  'schedule', 'draws', 'clock-step', 'model-seed', 'free', 'condition', 'bind', 'input', 'range', 'samples', 'seed', 'runs',
  'deadline', 'depth', 'steps', 'runs-limit', 'memory', 'jobs', 'engine', 'engines', 'model',
  'shard', 'offload', 'worker-command', 'shard-dir', 'output',
]);

/** The flags of the coordinator of an offload, which a shard's command line does not repeat. */
const OFFLOAD_ONLY = new Set(['offload', 'worker-command', 'shard-dir', 'output', 'shard', 'json']);

/**
 * The command line a worker runs for shard k of N: the question's own flags as given, model files as
 * absolute paths (a worker does not share this process's folder), then `--shard k/N --json --output <file>`.
 */
export function shardArgv(argv: readonly string[], shard: { index: number; of: number }, outputFile: string, cwd: string): string[] {
  const out: string[] = [];
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) {
      out.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const takesValue = VALUE_FLAGS.has(name) && eq < 0;
    if (OFFLOAD_ONLY.has(name)) {
      if (takesValue) i++;
      continue;
    }
    if (name === 'model') {
      out.push('--model');
      if (eq >= 0) out.push(absolute(body.slice(eq + 1)));
      else if (i + 1 < argv.length) out.push(absolute(argv[++i]!));
      while (i + 1 < argv.length && /\.(sysml|kerml)$/i.test(argv[i + 1]!) && !argv[i + 1]!.startsWith('-')) out.push(absolute(argv[++i]!));
      continue;
    }
    out.push(arg);
    if (takesValue && i + 1 < argv.length) out.push(argv[++i]!);
  }
  out.push('--shard', `${shard.index}/${shard.of}`, '--json', '--output', outputFile);
  return out;
}
const SWITCHES = new Set(['json', 'help', 'h']);

interface RawFlag {
  name: string;
  spelled: string;
  value?: string;
}

export function parseAskArgs(argv: readonly string[]): AskArgs | EnginesArgs | HelpArgs {
  const positionals: string[] = [];
  const flags: RawFlag[] = [];
  const modelFiles: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    if (SWITCHES.has(name)) {
      if (eq >= 0) throw new UsageError(`${arg}: the flag -${name} takes no value`);
      flags.push({ name, spelled: arg });
      continue;
    }
    if (!VALUE_FLAGS.has(name)) throw new UsageError(`unknown option ${arg}`);
    let value: string | undefined = eq >= 0 ? body.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`${arg} needs a value`);
    // `--model --json`: the next flag is not this one's value (it took `--json` as the model's path).
    if (eq < 0 && /^--?[a-z]/i.test(value)) {
      const next = value.replace(/^--?/, '').split('=')[0]!;
      if (VALUE_FLAGS.has(next) || SWITCHES.has(next)) throw new UsageError(`${arg} needs a value, but the next argument is the option ${value}`);
    }
    if (name === 'model') {
      // --model a.sysml b.sysml …: later files are taken while they look like model files.
      modelFiles.push(value);
      while (i + 1 < argv.length && /\.(sysml|kerml)$/i.test(argv[i + 1]!) && !argv[i + 1]!.startsWith('-')) modelFiles.push(argv[++i]!);
      continue;
    }
    flags.push({ name, spelled: `${arg.split('=')[0]}`, value });
    value = undefined;
  }

  const json = flags.some((f) => f.name === 'json');
  if (flags.some((f) => f.name === 'help' || f.name === 'h')) return { command: 'help' };

  if (positionals[0] === 'engines') {
    if (positionals.length > 1) throw new UsageError(`assay engines takes no arguments (got ${positionals.slice(1).join(' ')})`);
    const allowed = new Set(['engines', 'json']);
    const other = flags.find((f) => !allowed.has(f.name));
    if (other || modelFiles.length > 0) throw new UsageError(`${other?.spelled ?? '--model'} does not apply to assay engines`);
    const enginesFile = single(flags, 'engines');
    return { command: 'engines', json, ...(enginesFile !== undefined ? { enginesFile } : {}) };
  }

  const [kindText, subject, ...extra] = positionals;
  if (kindText === undefined) throw new UsageError('missing question kind (one of ' + QUESTION_KINDS.join(', ') + ')');
  if (!(QUESTION_KINDS as readonly string[]).includes(kindText)) {
    throw new UsageError(`unknown question kind "${kindText}" (expected one of ${QUESTION_KINDS.join(', ')}, or engines)`);
  }
  const kind = kindText as QuestionKind;
  if (subject === undefined || subject.trim() === '') throw new UsageError(`missing subject: assay ${kind} <subject> --model <file.sysml>`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (a question has one subject; model files follow --model)`);
  if (modelFiles.length === 0) throw new UsageError('missing --model <file.sysml>');

  const schedule = single(flags, 'schedule') ?? 'fifo';
  if (!/^(fifo|lifo|all|seed:(0|[1-9][0-9]*))$/.test(schedule)) {
    throw new UsageError(`-schedule ${schedule}: expected fifo, lifo, all or seed:<n> (n a non-negative integer)`);
  }
  const question: Question = { kind, subject, schedule, free: [] };

  const draws = single(flags, 'draws');
  if (draws !== undefined) {
    if (!(DRAWS as readonly string[]).includes(draws)) throw new UsageError(`-draws ${draws}: expected min, max or average`);
    question.draws = draws as Question['draws'] & string;
  }
  const clockStep = single(flags, 'clock-step');
  if (clockStep !== undefined) question.clockStep = positiveNumber('-clock-step', clockStep);
  const modelSeed = single(flags, 'model-seed');
  if (modelSeed !== undefined) question.modelSeed = count('-model-seed', modelSeed);

  const free = single(flags, 'free');
  if (free !== undefined) {
    const parts = free.split(',').map((p) => p.trim()).filter(Boolean);
    for (const part of parts) {
      if (!(FREE_DIMENSIONS as readonly string[]).includes(part)) throw new UsageError(`--free ${free}: "${part}" is not schedule or inputs`);
    }
    question.free = [...new Set(parts)] as Question['free'];
  }

  const condition = single(flags, 'condition');
  if (condition !== undefined) question.condition = parseCondition(condition);
  const bindings = all(flags, 'bind').map(parseBinding);
  if (bindings.length > 0) question.bindings = bindings;
  const inputs = all(flags, 'input').map(parseInput);
  if (inputs.length > 0) question.inputs = inputs;

  const ranges = all(flags, 'range').map(parseRange);
  const samples = single(flags, 'samples');
  const seed = single(flags, 'seed');
  const runs = single(flags, 'runs');
  if (ranges.length > 0 || samples !== undefined || seed !== undefined || runs !== undefined) {
    const sweep: Sweep = { ranges };
    if (samples !== undefined) {
      sweep.sampled = true;
      sweep.samples = count('--samples', samples);
    }
    if (seed !== undefined) sweep.seed = count('--seed', seed);
    else if (samples !== undefined || runs !== undefined) sweep.seed = 0; // the spec: seed present, zero included, when sampled
    if (runs !== undefined) sweep.runs = count('--runs', runs);
    question.sweep = sweep;
  }

  const budget: BudgetLimits = { deadline: DEFAULT_DEADLINE_SECONDS };
  const deadline = single(flags, 'deadline');
  if (deadline !== undefined) {
    budget.deadline = positiveNumber('--deadline', deadline);
    // Node's timers hold at most 2^31-1 ms; a longer deadline would fire at once.
    if (budget.deadline > MAX_DEADLINE_SECONDS) throw new UsageError(`--deadline ${deadline}: at most ${MAX_DEADLINE_SECONDS} seconds (about 24.8 days)`);
  }
  for (const [flag, key] of [['depth', 'depth'], ['steps', 'steps'], ['runs-limit', 'runs'], ['memory', 'memory'], ['jobs', 'jobs']] as const) {
    const value = single(flags, flag);
    if (value !== undefined) budget[key] = count(`--${flag}`, value);
  }

  const engine = single(flags, 'engine');
  const enginesFile = single(flags, 'engines');
  const sharding = shardingOf(flags, question, engine, enginesFile, json);
  return {
    command: 'ask',
    question,
    modelFiles,
    budget,
    json,
    ...(engine !== undefined ? { engine } : {}),
    ...(enginesFile !== undefined ? { enginesFile } : {}),
    ...sharding,
  };
}

/** Whether a question is answered as a table of rows (what a shard splits). */
export function isTableQuestion(question: Question): boolean {
  if (question.kind === 'sweep') return question.sweep !== undefined;
  return question.kind === 'compute' && (question.sweep?.ranges.length ?? 0) > 0;
}

function shardingOf(flags: RawFlag[], question: Question, engine: string | undefined, enginesFile: string | undefined, json: boolean) {
  const shardText = single(flags, 'shard');
  const offloadText = single(flags, 'offload');
  const workerCommand = single(flags, 'worker-command');
  const shardDir = single(flags, 'shard-dir');
  const outputFile = single(flags, 'output');
  if (outputFile !== undefined && !json) throw new UsageError(`--output ${outputFile}: writes the JSON object; give --json too`);
  if (outputFile !== undefined && outputFile.trim() === '') throw new UsageError('--output needs a file name');
  const out: Pick<AskArgs, 'shard' | 'offload' | 'workerCommand' | 'shardDir' | 'outputFile'> = {};
  if (outputFile !== undefined) out.outputFile = outputFile;
  if (shardText === undefined && offloadText === undefined) {
    if (workerCommand !== undefined) throw new UsageError('--worker-command applies to --offload only');
    if (shardDir !== undefined) throw new UsageError('--shard-dir applies to --offload only');
    return out;
  }
  const flag = shardText !== undefined ? '--shard' : '--offload';
  if (shardText !== undefined && offloadText !== undefined) throw new UsageError('--shard and --offload do not go together (a worker runs --shard; --offload starts the workers)');
  if (!isTableQuestion(question)) {
    throw new UsageError(`${flag} splits the rows of a table: it applies to sweep (with --range, --samples or --runs) and to compute with --range, not to ${question.kind}${question.kind === 'compute' ? ' without --range' : ''}`);
  }
  if (engine !== undefined || enginesFile !== undefined) {
    throw new UsageError(`${flag} works with the bundled engine only (its shard option is not part of the engine protocol); drop ${engine !== undefined ? '--engine' : '--engines'}`);
  }
  if (shardText !== undefined) {
    const m = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(shardText.trim());
    const index = m ? Number(m[1]) : NaN;
    const of = m ? Number(m[2]) : NaN;
    if (!m || index > of || !Number.isSafeInteger(of)) throw new UsageError(`--shard ${shardText}: expected k/N with 1 <= k <= N, e.g. --shard 2/4`);
    if (workerCommand !== undefined || shardDir !== undefined) throw new UsageError(`${workerCommand !== undefined ? '--worker-command' : '--shard-dir'} applies to --offload only`);
    out.shard = { index, of };
    return out;
  }
  const n = count('--offload', offloadText!);
  if (n < 1 || n > 1000) throw new UsageError(`--offload ${offloadText}: expected a number of shards from 1 to 1000`);
  out.offload = n;
  if (workerCommand !== undefined) {
    if (workerCommand.trim() === '') throw new UsageError('--worker-command needs a command, e.g. --worker-command "node /opt/assay/dist/cli.js"');
    out.workerCommand = workerCommand;
  }
  if (shardDir !== undefined) out.shardDir = shardDir;
  return out;
}

/** Flags a question has at most once. */
function single(flags: RawFlag[], name: string): string | undefined {
  const found = flags.filter((f) => f.name === name);
  if (found.length > 1) throw new UsageError(`${found[1]!.spelled} is given ${found.length} times; it takes one value`);
  return found[0]?.value;
}

function all(flags: RawFlag[], name: string): string[] {
  return flags.filter((f) => f.name === name).map((f) => f.value!);
}

function count(flag: string, text: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${flag} ${text}: expected a non-negative integer`);
  }
  return Number(text);
}

function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} ${text}: expected a number of seconds greater than 0`);
  return value;
}

function parseCondition(text: string): Condition {
  const eq = text.indexOf('=');
  const name = (eq >= 0 ? text.slice(0, eq) : text).trim();
  if (name === '') throw new UsageError(`--condition ${text}: expected <name>=<text> or <name>`);
  if (eq < 0) return { name };
  const body = text.slice(eq + 1).trim();
  if (body === '') throw new UsageError(`--condition ${text}: the condition text after "=" is empty`);
  return { name, text: body };
}

/** `3`, `-2.5`, `true`, `"text"`, `3.5[kg]`, `3.5 [m/s]`, `3.5kg`, or any other text as a string. */
export function parseScalarWithUnit(text: string): { value: Scalar; unit?: string } {
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return { value: trimmed === 'true' };
  const quoted = /^"(.*)"$/.exec(trimmed);
  if (quoted) return { value: quoted[1]! };
  const number = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(?:\[\s*([^\]]+?)\s*\]|([A-Za-z°µΩ%][\w°µΩ/·*^%-]*))?$/.exec(trimmed);
  if (number) {
    const unit = number[2] ?? number[3];
    const value = carriedNumber(number[1]!);
    return unit ? { value, unit } : { value };
  }
  return { value: trimmed };
}

/**
 * A number's text as the double a question carries (the protocol's JSON numbers; an engine reads a
 * double as its shortest decimal, so `0.1` is one tenth). Text whose value that double does not
 * keep is refused rather than rounded: `1.999999999999999999` would arrive as 2 (and `x < 2` would be
 * answered false), `9007199254740993` as 9007199254740992, `1e400` as no number at all.
 */
function carriedNumber(text: string): number {
  const value = Number(text);
  // Exact values compared (rational.ts): the text's, and that of the shortest decimal of its double.
  const written = decimalRational(text);
  if (!Number.isFinite(value) || written === undefined || (value === 0 && written.n !== 0n)) {
    throw new UsageError(`${text} is beyond the range of the numbers a question carries (doubles, about 1e-308 to 1e308)`);
  }
  const carried = decimalRational(String(value));
  if (carried === undefined || carried.n !== written.n || carried.d !== written.d) {
    throw new UsageError(`${text} is not carried exactly: a question carries numbers as doubles, and the nearest one is ${value}; give at most 15 significant digits`);
  }
  return value;
}

/** What `read` refuses, said of the flag it came from. */
function withFlag<T>(flag: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof UsageError) throw new UsageError(`${flag}: ${e.message}`);
    throw e;
  }
}

function parseBinding(text: string): Value {
  const eq = text.indexOf('=');
  const name = eq >= 0 ? text.slice(0, eq).trim() : '';
  const rest = eq >= 0 ? text.slice(eq + 1).trim() : '';
  if (name === '' || rest === '') throw new UsageError(`--bind ${text}: expected <name>=<value>[<unit>], e.g. mass=3.5[kg]`);
  const { value, unit } = withFlag(`--bind ${text}`, () => parseScalarWithUnit(rest));
  return unit ? { name, value, unit } : { name, value };
}

function parseInput(text: string): FreeInput {
  // The type may be qualified (ISQ::MassValue): single colons separate, double ones belong to the name.
  const m = /^([^:]*)(?::((?:[^:]|::)*))?(?::(.*))?$/s.exec(text);
  const name = m?.[1]?.trim() ?? '';
  if (!m || name === '') throw new UsageError(`--input ${text}: expected <name>:<type>:<domain>`);
  const input: FreeInput = { name };
  const type = m[2]?.trim() ?? '';
  if (type !== '') input.type = type;
  const domain = m[3]?.trim() ?? '';
  if (domain !== '') input.domain = domain;
  return input;
}

function parseRange(text: string): Range {
  const parts = text.split(':');
  if (parts.length < 4 || parts.length > 5 || parts.some((p) => p.trim() === '')) {
    throw new UsageError(`--range ${text}: expected <param>:<type>:<from>:<to>[:<step>]`);
  }
  const [parameter, type, fromText, toText, stepText] = parts.map((p) => p.trim()) as [string, string, string, string, string?];
  const from = withFlag(`--range ${text}`, () => parseScalarWithUnit(fromText));
  const to = withFlag(`--range ${text}`, () => parseScalarWithUnit(toText));
  const step = stepText !== undefined ? withFlag(`--range ${text}`, () => parseScalarWithUnit(stepText)) : undefined;
  const units = [from.unit, to.unit, step?.unit].filter((u): u is string => u !== undefined);
  if (new Set(units).size > 1) throw new UsageError(`--range ${text}: from, to and step use different units (${[...new Set(units)].join(', ')})`);
  // The engine would refuse these as "not covered" (exit 3); they are a mistake in the command line.
  if (typeof from.value === 'number' && typeof to.value === 'number' && from.value > to.value) throw new UsageError(`--range ${text}: from ${fromText} is above to ${toText} (a range runs upward: write ${parameter}:${type}:${toText}:${fromText}${stepText !== undefined ? `:${stepText}` : ''})`);
  if (typeof step?.value === 'number' && !(step.value > 0)) throw new UsageError(`--range ${text}: the step ${stepText} must be above 0`);
  const range: Range = { parameter, type, from: from.value, to: to.value };
  if (units[0] !== undefined) range.unit = units[0];
  if (step) range.step = step.value;
  return range;
}

export type { Condition };
