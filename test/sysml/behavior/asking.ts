// Helpers the behaviour tests share: a model from text (it must parse), a question answered and its
// witnesses re-checked as the host does, a refusal, and the end values of an outcomes answer.
import assert from 'node:assert/strict';
import { parse } from '../../../src/sysml';
import { answerBehavior, BehaviorError, recheckAnswer, type BehaviorAnswer, type BehaviorDocument, type BehaviorQuestion } from '../../../src/sysml/behavior';

type Bound = { name: 'depth' | 'steps' | 'runs' | 'memory'; limit: number };

/** A document from source text, which must parse without errors. */
export const text = (path: string, source: string): BehaviorDocument => {
  const r = parse(source);
  assert.deepEqual(r.errors.map((e) => e.message), [], `${path} parses`);
  return { path, document: r.document };
};

/**
 * A document whose source is `package <name> {`, its import of ScalarValues::* on the next line, then
 * `rest`: the package's members and closing brace, from a new line (it starts with a line break).
 */
export const scalarPackage = (path: string, name: string, rest: string): BehaviorDocument =>
  text(path, `package ${name} {\n    private import ScalarValues::*;${rest}`);

/** Asks; the answer must be one (not a refusal), and every witness must replay to what it says. */
export async function ask(d: BehaviorDocument[], question: BehaviorQuestion, bounds: Bound[] = []): Promise<BehaviorAnswer> {
  const a = await answerBehavior(d, question, { bounds });
  if (a instanceof BehaviorError) assert.fail(a.text);
  assert.deepEqual(recheckAnswer(d, question, a), { ok: true });
  return a;
}

/** Asks; the answer must be a refusal, whose text is returned. */
export async function refusal(d: BehaviorDocument[], question: BehaviorQuestion): Promise<string> {
  return (await refused(d, question)).text;
}

/** Asks; the answer must be a refusal for what the semantics does not model (code `unsupported`). */
export async function unsupported(d: BehaviorDocument[], question: BehaviorQuestion): Promise<string> {
  const a = await refused(d, question);
  assert.equal(a.code, 'unsupported');
  return a.text;
}

async function refused(d: BehaviorDocument[], question: BehaviorQuestion): Promise<BehaviorError> {
  const a = await answerBehavior(d, question, { bounds: [] });
  assert.ok(a instanceof BehaviorError, `expected a refusal, got ${JSON.stringify(a)}`);
  return a;
}

/** `name@k` of an outcomes answer, over its executions. */
export const ends = (a: BehaviorAnswer, name: string) => (a.values ?? []).filter((v) => v.name.replace(/@\d+$/, '') === name).map((v) => v.value);
