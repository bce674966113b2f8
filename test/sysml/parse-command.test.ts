import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runParseCommand, type ParseReport } from '../../src/cli/parse';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runParseCommand(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe('assay parse', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-parse-'));
  const good = join(dir, 'good.sysml');
  const bad = join(dir, 'models', 'bad.sysml');
  const kerml = join(dir, 'models', 'nested', 'k.kerml');
  mkdirSync(join(dir, 'models', 'nested'), { recursive: true });
  writeFileSync(good, 'package P {\n  part def V;\n}\n');
  writeFileSync(bad, 'package Q {\n  attribute x : Real\n  attribute y = ;\n  attribute def Real;\n}\n');
  const unresolved = join(dir, 'unresolved.sysml');
  writeFileSync(unresolved, 'package U {\n  part def Car;\n  part car : Car;\n  part truck : Lorry;\n}\n');
  writeFileSync(kerml, 'classifier C { feature f : C; }\n');
  writeFileSync(join(dir, 'models', 'notes.txt'), 'not a model');

  it('prints nothing but the summary and exits 0 for clean files', async () => {
    const r = await run([good]);
    assert.equal(r.code, 0);
    assert.match(r.out, /^1 files, 3 lines, 0 syntax errors, 0 unresolved references, \d+\.\d\d s\n$/);
  });

  it('walks folders for .sysml and .kerml files and prints every diagnostic as file:line:col', async () => {
    const r = await run([join(dir, 'models')]);
    assert.equal(r.code, 1);
    const lines = r.out.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, -1), [
      `${bad}:2:21: expected ';' after attribute usage, found 'attribute'`,
      `${bad}:3:17: expected an expression, found ';'`,
    ]);
    assert.match(lines.at(-1)!, /^2 files, 6 lines, 2 syntax errors, 0 unresolved references/);
  });

  it('reports a keyword-less redeclaration in a loop body and a return statement as syntax errors', async () => {
    const file = join(dir, 'statements.sysml');
    writeFileSync(file, 'calc def Fact {\n  in n;\n  attribute acc = 1;\n  for i in 1..n { acc = acc * i; }\n  if n < 0 { return 0; }\n  acc\n}\n');
    const r = await run([file]);
    assert.equal(r.code, 1);
    const lines = r.out.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, -1), [
      `${file}:4:19: \`acc = acc * i;\` declares a new feature 'acc', it does not assign: write \`assign acc := acc * i;\``,
      `${file}:5:14: 'return' is not admitted here: SysML has no return statement; \`return\` declares the result parameter, directly in a calc, constraint, case or analysis body (give the result as the body's last expression, or \`assign\` it to a feature)`,
      `${file}:5:21: expected ';' after return usage, found '0'`,
    ]);
    assert.match(lines.at(-1)!, /^1 files, 7 lines, 3 syntax errors, /);
  });

  it('writes one JSON object with --json', async () => {
    const r = await run(['--json', good, join(dir, 'models')]);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.out) as ParseReport;
    assert.equal(report.files, 3);
    assert.equal(report.lines, 9);
    assert.equal(report.syntaxErrors, 2);
    assert.equal(report.unresolvedReferences, 0);
    assert.equal(report.names, 'built-in');
    assert.deepEqual(report.diagnostics.map((d) => [d.line, d.column, d.kind]), [[2, 21, 'syntax'], [3, 17, 'syntax']]);
  });

  it('reports references that resolve to nothing, with their place', async () => {
    const r = await run(['--json', unresolved]);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.out) as ParseReport;
    assert.equal(report.syntaxErrors, 0);
    assert.equal(report.unresolvedReferences, 1);
    assert.deepEqual(report.diagnostics.map((d) => [d.file, d.line, d.column, d.kind]), [[unresolved, 4, 16, 'name']]);
    assert.match(report.diagnostics[0]!.message, /Lorry/);
  });

  it('parses the --library folder too', async () => {
    const r = await run(['--json', good, '--library', join(dir, 'models', 'nested')]);
    const report = JSON.parse(r.out) as ParseReport;
    assert.equal(r.code, 0);
    assert.deepEqual([report.files, report.libraryFiles, report.lines, report.names], [1, 1, 4, 'library']);
  });

  it('exits 2 on usage errors', async () => {
    for (const argv of [[], ['--bogus', good], ['--library'], [join(dir, 'missing.sysml')]]) {
      const r = await run(argv);
      assert.equal(r.code, 2, `argv ${argv.join(' ')}`);
      assert.match(r.err, /^assay parse: /);
      assert.equal(r.out, '');
    }
  });
});
