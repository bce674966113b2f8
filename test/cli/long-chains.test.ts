// Long operator chains (`1+1+…+1`, `a.a.…`, `a[1][1]…`) as a user meets them through `assay parse`
// and `assay evaluate` with the bundled engine (real processes): a chain the tree walks can take is
// answered, a longer one is one diagnostic at its place — never a stack overflow or "host failure".
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const BOOLEAN_OPS = new Set(['and', 'or', 'xor', 'implies', '|', '&']);
/** `package P { attribute x = t op t op … op t; }` with `terms` terms. */
function chain(op: string, terms: number): string {
  const term = BOOLEAN_OPS.has(op) ? 'true' : op === '??' ? 'null' : '1';
  // `null ?? … ?? 1`: x holds one value, as a usage without a multiplicity must.
  return `package P { attribute x = ${Array.from({ length: terms }, (_, i) => (op === '??' && i === terms - 1 ? '1' : term)).join(` ${op} `)}; }\n`;
}

describe('cli: long operator chains', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'assay-chains-'));

  before(() => buildIfMissing('cli.js', 'engine.js'));

  it('assay parse: 3,000-term chains of +, member access, brackets, calls and ** are diagnostics at their place, exit 1', () => {
    const file = join(dir, 'chains.sysml');
    writeFileSync(file, [
      `package P { attribute x : Integer = ${Array(3000).fill('1').join('+')}; }`,
      `package Q { part a { part a; } attribute y = ${Array(3000).fill('a').join('.')}; }`,
      `package R { attribute z = a${'[1]'.repeat(3000)}; }`,
      `package S { attribute w = ${'f('.repeat(3000)}1${')'.repeat(3000)}; }`,
      `package T { attribute v = ${Array(3000).fill('2').join('**')}; }`,
      '',
    ].join('\n'));
    const r = cli('parse', file);
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /RangeError|Maximum call stack/);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines.at(-1)!, /^1 files, 5 lines, \d+ syntax errors, \d+ unresolved references/);
    assert.ok(lines.includes(`${file}:1:37: expression nested too deeply (3000 levels; at most 999 here): split it into named parts`), r.stdout);
    assert.ok(lines.some((l) => l.startsWith(`${file}:2:46: expression nested too deeply (3001 levels;`)), r.stdout);
    assert.ok(lines.some((l) => l.startsWith(`${file}:3:27: expression nested too deeply (3002 levels;`)), r.stdout);
    assert.ok(lines.some((l) => l.startsWith(`${file}:4:`) && l.endsWith('nesting too deep')), r.stdout);
    assert.ok(lines.some((l) => l.startsWith(`${file}:5:`) && l.endsWith('nesting too deep')), r.stdout);
  });

  it('assay evaluate: a 999-term chain of every binary operator is answered by the bundled engine', () => {
    const ops = ['+', '-', '*', '/', '%', 'and', 'or', 'xor', 'implies', '|', '&', '==', '!=', '??', '..'];
    const expected: Record<string, unknown> = { '+': 999, '-': -997, '*': 1, '/': 1, '%': 0, and: true, or: true, xor: true, implies: true, '|': true, '&': true };
    for (const op of ops) {
      const file = join(dir, `op-${ops.indexOf(op)}.sysml`);
      writeFileSync(file, chain(op, 999));
      const r = cli('evaluate', 'P::x', '--model', file, '--json');
      assert.doesNotMatch(r.stderr, /RangeError|Maximum call stack/, op);
      assert.equal(r.code, 0, `${op}: ${r.stdout}${r.stderr}`);
      const answer = JSON.parse(r.stdout) as { result: { claim: string; values: { name: string; value: unknown }[] } };
      assert.equal(answer.result.claim, 'value', op);
      if (op in expected) assert.deepEqual(answer.result.values[0]!.value, expected[op], op);
    }
  });

  it('assay evaluate: a 3,000-term chain is a model error, naming the place and the limit (exit 6, not a host failure)', () => {
    const file = join(dir, 'long.sysml');
    writeFileSync(file, chain('+', 3000));
    const r = cli('evaluate', 'P::x', '--model', file);
    assert.equal(r.code, 6, r.stdout + r.stderr);
    assert.match(r.stderr, /model error: .*long\.sysml:1:27: expression nested too deeply \(3000 levels; at most 999 here\)/);
  });
});
