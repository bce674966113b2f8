// Engine manifest: the list of engines the host may start, each entry validated on its own so one bad
// entry (reported by index and field) does not take the others down.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  BoundName, Description, ModelForm, QuestionKind, Strength, WitnessKind, referenceEngineDescription,
} from '../protocol';
import packageJson from '../../package.json';
import { nodeOptionsWithModelFlags } from './node-flags';

/** One engine entry as a manifest file or the `assay.engines` setting spells it. */
export const ManifestEntry = z.strictObject({
  name: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  version: z.string().min(1).optional(),
  protocol: z.int().min(1).optional(),
  answers: z.array(QuestionKind).min(1).optional(),
  subjects: z.array(z.string().min(1)).optional(),
  bounds: z.array(BoundName).optional(),
  witness: WitnessKind.optional(),
  model: z.array(ModelForm).optional(),
  authority: Strength.optional(),
  concurrent: z.boolean().optional(),
});
export type ManifestEntry = z.infer<typeof ManifestEntry>;

/** An entry the host can start. `builtIn` marks the bundled reference engine. */
export interface EngineEntry extends ManifestEntry {
  builtIn?: boolean;
}

/** A manifest entry that could not be used, with where and why. */
export interface ManifestProblem {
  /** Index of the entry in the list (undefined: the list itself is wrong). */
  index?: number;
  /** Dotted field path inside the entry, e.g. `answers.1`. */
  field?: string;
  message: string;
}

export interface Manifest {
  entries: EngineEntry[];
  problems: ManifestProblem[];
}

/** The description fields an entry can declare, which the describe check compares. */
export const DESCRIBED_FIELDS = [
  'version', 'protocol', 'answers', 'subjects', 'bounds', 'witness', 'model', 'authority', 'concurrent',
] as const satisfies readonly (keyof Description & keyof ManifestEntry)[];

/** Validates a list of entries: good entries are kept, each bad one is reported by index and field. */
export function parseManifest(value: unknown): Manifest {
  const list = isEnginesFile(value) ? value.engines : value;
  if (!Array.isArray(list)) {
    return { entries: [], problems: [{ message: 'the manifest must be a JSON array of engine entries or an object {"engines": [...]}' }] };
  }
  const entries: EngineEntry[] = [];
  const problems: ManifestProblem[] = [];
  const seen = new Map<string, number>();
  list.forEach((item: unknown, index) => {
    const checked = ManifestEntry.safeParse(item);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
        const path = [...issue.path.map(String), ...(keys.length === 1 ? keys : [])].join('.');
        problems.push({ index, ...(path ? { field: path } : {}), message: issue.message });
      }
      return;
    }
    const earlier = seen.get(checked.data.name);
    if (earlier !== undefined) {
      problems.push({ index, field: 'name', message: `the name "${checked.data.name}" is already used by entry ${earlier}` });
      return;
    }
    seen.set(checked.data.name, index);
    entries.push(checked.data);
  });
  return { entries, problems };
}

function isEnginesFile(value: unknown): value is { engines: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'engines' in value;
}

/** `entry 2, field answers.0: Invalid option …` */
export function formatManifestProblem(problem: ManifestProblem, source = 'manifest'): string {
  const where = problem.index === undefined ? source : `${source} entry ${problem.index}${problem.field ? `, field ${problem.field}` : ''}`;
  return `${where}: ${problem.message}`;
}

/**
 * The bundled reference engine, run by the same Node that runs the host, with the V8 flags of
 * `MODEL_NODE_FLAGS` (in NODE_OPTIONS, so that `args` stays the program and its arguments). `distDir`
 * is the folder holding the bundles (the CLI and the extension pass their own `__dirname`).
 */
export function referenceEngineEntry(distDir: string): EngineEntry {
  return {
    ...referenceEngineDescription(packageJson.version),
    command: process.execPath,
    args: [join(distDir, 'engine.js')],
    env: { NODE_OPTIONS: nodeOptionsWithModelFlags() },
    builtIn: true,
  };
}

/** Why a built-in entry cannot start, or undefined when its program exists. */
export function missingBuiltInProgram(entry: EngineEntry): string | undefined {
  if (!entry.builtIn) return undefined;
  const program = entry.args?.[0];
  if (program !== undefined && !existsSync(program)) {
    return `the bundled engine is missing: ${program} does not exist (run \`npm run build\`)`;
  }
  return undefined;
}
