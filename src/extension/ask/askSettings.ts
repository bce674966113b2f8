// The Assay settings as the question flow uses them, read into host terms: engine entries (with the
// trust rules and a message naming the entry and the setting key for each bad one), the budget, and
// the question options. Pure: the caller reads the values from VS Code and passes them in.
import { isAbsolute, resolve } from 'node:path';
import { homedir } from 'node:os';
import type { BudgetLimits, EngineEntry, ManifestProblem } from '../../host';
import { formatManifestProblem, parseManifest } from '../../host/manifest';
import { QUESTION_KINDS, type Question } from '../../protocol';
import type { EngineAnswersParams } from '../../server/requests';

export type EngineOrigin = 'bundled' | 'user' | 'workspace' | 'workspace folder';

/** One engine as the settings declare it, with where it came from and whether it may start. */
export interface ConfiguredEngine {
  name: string;
  command: string;
  origin: EngineOrigin;
  /** Why this entry will not be used; absent when it may start. */
  ignoredBecause?: string;
}

/** The `assay.engines` value of one settings level. */
export interface EngineLevel {
  origin: Exclude<EngineOrigin, 'bundled'>;
  entries: unknown[] | undefined;
}

export interface EngineSettingsInput {
  /** The bundled engine's entry when `assay.useBundledEngine` is on. */
  bundled?: EngineEntry;
  /** Why the bundled engine cannot start (its program is missing), when it cannot. */
  bundledMissing?: string;
  levels: EngineLevel[];
  trusted: boolean;
  /** The workspace folder: the working directory of entries that name none, and the base of relative ones. */
  folder?: string;
  /** In an untrusted workspace, the working directory instead of the folder (default: the home directory). */
  neutralDir?: string;
}

export interface EngineSettings {
  /** Every entry of every level, in order, for Show Engines. */
  listing: ConfiguredEngine[];
  /** The entries the host may start, in order (the bundled engine first). */
  entries: EngineEntry[];
  /** One message per unusable entry, naming the entry and the setting key (trust refusals excluded). */
  problems: string[];
}

/** Reads the engine entries of every settings level: bundled first, then user, workspace, folder. */
export function resolveEngineSettings(input: EngineSettingsInput): EngineSettings {
  const listing: ConfiguredEngine[] = [];
  const entries: EngineEntry[] = [];
  const problems: string[] = [];
  const taken = new Map<string, string>();
  if (input.bundled) {
    const bundled: ConfiguredEngine = { name: input.bundled.name, command: input.bundled.args?.[0] ?? input.bundled.command, origin: 'bundled' };
    if (input.bundledMissing) bundled.ignoredBecause = `missing: ${input.bundledMissing}`;
    else {
      entries.push(input.bundled);
      taken.set(input.bundled.name, 'the bundled engine');
    }
    listing.push(bundled);
  }
  for (const level of input.levels) {
    if (!Array.isArray(level.entries)) continue;
    const key = `assay.engines (${level.origin} settings)`;
    const manifest = parseManifest(level.entries);
    const byIndex = new Map<number, ManifestProblem[]>();
    for (const problem of manifest.problems) {
      if (problem.index === undefined) continue;
      byIndex.set(problem.index, [...(byIndex.get(problem.index) ?? []), problem]);
    }
    let good = 0;
    level.entries.forEach((raw, index) => {
      const shape = typeof raw === 'object' && raw !== null ? (raw as { name?: unknown; command?: unknown }) : {};
      const name = typeof shape.name === 'string' && shape.name.length > 0 ? shape.name : `assay.engines[${index}]`;
      const command = typeof shape.command === 'string' ? shape.command : '';
      const engine: ConfiguredEngine = { name, command, origin: level.origin };
      listing.push(engine);
      if (level.origin !== 'user' && !input.trusted) {
        engine.ignoredBecause =
          `ignored: the workspace is not trusted, and engine entries from ${level.origin} settings start programs ` +
          `(set it in user settings, or trust the workspace)`;
        return;
      }
      const entryProblems = byIndex.get(index);
      if (entryProblems) {
        const why = command === ''
          ? `assay.engines[${index}] (${level.origin} settings) has no "command"`
          : entryProblems.map((p) => formatManifestProblem(p, key)).join('; ');
        engine.ignoredBecause = `ignored: ${why}`;
        problems.push(`${why}${name.startsWith('assay.engines[') ? '' : ` — engine "${name}" is not used`}`);
        return;
      }
      // parseManifest keeps the good entries in order; this is the next one.
      const entry = { ...manifest.entries[good++]! };
      const earlier = taken.get(entry.name);
      if (earlier) {
        const why = formatManifestProblem({ index, field: 'name', message: `the name "${entry.name}" is already used by ${earlier}` }, key);
        engine.ignoredBecause = `ignored: ${why}`;
        problems.push(why);
        return;
      }
      taken.set(entry.name, `${key} entry ${index}`);
      // In an untrusted workspace even a user's entry must not run the workspace's files: a relative
      // `args` path (`node engine.js`) would find them in the folder, so engines start in a neutral
      // directory (the user's home) there.
      const base = input.trusted ? input.folder : (input.neutralDir ?? homedir());
      if (base) entry.cwd = entry.cwd === undefined ? base : isAbsolute(entry.cwd) ? entry.cwd : resolve(base, entry.cwd);
      entries.push(entry);
    });
  }
  return { listing, entries, problems };
}

/** What the language server needs for its `Ask:` code lenses: each usable engine's answers and subjects. */
export function engineAnswers(entries: readonly EngineEntry[]): EngineAnswersParams {
  return {
    engines: entries.map((e) => ({ name: e.name, answers: [...(e.answers ?? QUESTION_KINDS)], subjects: [...(e.subjects ?? [])] })),
  };
}

const BUDGET_KEYS = ['depth', 'steps', 'runs', 'memory', 'jobs'] as const;

/** `assay.budget` as host limits; a value of the wrong shape is left out and named. */
export function budgetFromSetting(value: unknown): { budget: BudgetLimits; problems: string[] } {
  const budget: BudgetLimits = {};
  const problems: string[] = [];
  if (value === undefined || value === null) return { budget: { deadline: 60 }, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { budget: { deadline: 60 }, problems: ['assay.budget: expected an object such as {"deadline": 60}; using a deadline of 60 s'] };
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'deadline' && !(BUDGET_KEYS as readonly string[]).includes(key)) problems.push(`assay.budget.${key}: not a budget limit (deadline, ${BUDGET_KEYS.join(', ')}); ignored`);
  }
  const deadline = record['deadline'];
  if (deadline !== undefined) {
    if (typeof deadline === 'number' && Number.isFinite(deadline) && deadline > 0 && deadline <= 2147483) budget.deadline = deadline;
    else problems.push(`assay.budget.deadline: expected a number of seconds greater than 0 and at most 2147483 (about 24.8 days), got ${JSON.stringify(deadline)}; ignored`);
  }
  for (const key of BUDGET_KEYS) {
    const limit = record[key];
    if (limit === undefined) continue;
    if (typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0) budget[key] = limit;
    else problems.push(`assay.budget.${key}: expected a non-negative integer, got ${JSON.stringify(limit)}; ignored`);
  }
  return { budget, problems };
}

export const SCHEDULE_PATTERN = /^(fifo|lifo|all|seed:(0|[1-9][0-9]*))$/;

/** The question options from `assay.schedule`, `assay.draws` and `assay.clockStep`. */
export function questionOptions(values: { schedule?: unknown; draws?: unknown; clockStep?: unknown }):
  { schedule: string; draws?: NonNullable<Question['draws']>; clockStep?: number; problems: string[] } {
  const problems: string[] = [];
  let schedule = 'fifo';
  if (typeof values.schedule === 'string' && SCHEDULE_PATTERN.test(values.schedule)) schedule = values.schedule;
  else if (values.schedule !== undefined) problems.push(`assay.schedule: ${JSON.stringify(values.schedule)} is not fifo, lifo, all or seed:<n>; using fifo`);
  const out: { schedule: string; draws?: NonNullable<Question['draws']>; clockStep?: number; problems: string[] } = { schedule, problems };
  if (values.draws === 'min' || values.draws === 'max' || values.draws === 'average') out.draws = values.draws;
  else if (values.draws !== undefined && values.draws !== 'random') problems.push(`assay.draws: ${JSON.stringify(values.draws)} is not random, min, max or average; drawing at random`);
  if (typeof values.clockStep === 'number' && Number.isFinite(values.clockStep) && values.clockStep > 0) out.clockStep = values.clockStep;
  else if (values.clockStep !== undefined && values.clockStep !== null) problems.push(`assay.clockStep: expected a number of seconds greater than 0 or null; using a continuous clock`);
  return out;
}
