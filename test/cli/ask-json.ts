// The CLI as an agent calls it: one question with --json, exactly one JSON object on stdout; and the
// small models the CLI tests write for it, each in a temporary folder of its suite.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

export interface CliAnswer {
  result?: {
    claim: string; strength: string; values?: { name: string; value: unknown; unit?: string }[]; reason?: string;
    assumptions?: string[]; witness?: { inputs?: { name: string; value: unknown }[] };
  };
  standing?: { strength: string };
  error?: { message: string; status: string };
}

/** Runs `assay <args> --json` from the repository root: its exit code and its one JSON object. */
export function askJson(...args: string[]): { code: number | null; answer: CliAnswer } {
  const run = spawnSync(process.execPath, [CLI, ...args, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `exactly one JSON line on stdout, got:\n${run.stdout}\n${run.stderr}`);
  return { code: run.status, answer: JSON.parse(lines[0]!) as CliAnswer };
}

/**
 * A temporary folder for a suite's models, made before its tests and removed after them (call inside
 * `describe`); `model(name, text)` writes one and returns its path.
 */
export function modelFolder(prefix: string): { model(name: string, text: string): string } {
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), prefix))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    model(name: string, text: string): string {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}

/** Asks `question` of `model`: refused (exit 3), the message naming the place and what. */
export function refuses(model: string, question: readonly string[], placeAt: RegExp, what: RegExp): void {
  const { code, answer } = askJson(...question, '--model', model);
  assert.equal(code, 3, JSON.stringify(answer));
  assert.match(answer.error?.message ?? '', placeAt);
  assert.match(answer.error?.message ?? '', what);
}

/** Asks `question` of `model`: answered at proved, the value `name` being `want` (`"40 [kg]"` with a unit). */
export function proves(model: string, question: readonly string[], name: string, want: string): void {
  const { code, answer } = askJson(...question, '--model', model);
  assert.equal(code, 0, JSON.stringify(answer));
  assert.equal(answer.standing?.strength, 'proved', JSON.stringify(answer));
  const v = answer.result?.values?.find((x) => x.name === name);
  assert.ok(v, `no value ${name} in ${JSON.stringify(answer)}`);
  assert.equal(v.unit ? `${String(v.value)} [${v.unit}]` : String(v.value), want, question.join(' '));
}

export type Asked = { code: number | null; answer: CliAnswer };

/** An answer at proved, as name → value text (`"40 [kg]"` with a unit). */
export function valuesOf(a: Asked): Record<string, string> {
  assert.equal(a.code, 0, JSON.stringify(a.answer));
  assert.equal(a.answer.standing?.strength, 'proved');
  return Object.fromEntries((a.answer.result?.values ?? []).map((v) => [v.name, v.unit ? `${String(v.value)} [${v.unit}]` : String(v.value)]));
}

/** A refusal (exit 3): its message. */
export function refusalOf(a: Asked): string {
  assert.equal(a.code, 3, JSON.stringify(a.answer));
  return a.answer.error?.message ?? '';
}
