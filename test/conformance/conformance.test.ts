// OpenSysML's 171 execution conformance cases (../shared/conformance/opensysml), each asked of the
// real `assay` CLI (dist/cli.js, built by `npm run test:unit`): assay may refuse, but it must never
// answer something the case (corrected by the spec where the two disagree) contradicts.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { CLI, SUITE_DIR, disagreement, loadCases, notationOf, outcomesOf, report, runAll, type CaseResult } from './harness';

describe('OpenSysML execution conformance (harness over ../shared/conformance/opensysml)', function () {
  // Every question is two processes (CLI and engine); on a loaded 2-core machine that is minutes.
  this.timeout(30 * 60 * 1000);
  let results: CaseResult[] = [];

  before(async function () {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    results = await runAll(loadCases(SUITE_DIR), 2);
    console.log(report(results).replace(/^/gm, '      '));
  });

  it('reads all 171 cases, each classified', function () {
    assert.equal(results.length, 171);
    for (const r of results) assert.ok(['pass', 'wrong', 'refused', 'syntax error', 'not askable'].includes(r.verdict), r.name);
  });

  it('assay answers nothing a case contradicts (0 wrong)', function () {
    const wrong = results.filter((r) => r.verdict === 'wrong').map((r) => `${r.name}: ${r.reason}`);
    assert.deepEqual(wrong, []);
  });
});

describe('conformance harness: reading answers and notation', function () {
  it('compares values as the suite writes them, never counting a different value as agreement', function () {
    assert.equal(disagreement({ type: 'Real', value: 12 }, { value: 12 }), null);
    assert.equal(disagreement({ type: 'Integer', value: 44 }, { value: 34 }), 'different value');
    assert.equal(disagreement({ type: 'Integer', value: 2 }, { value: 2.5 }), 'expected an Integer, got 2.5');
    assert.equal(disagreement({ type: 'Quantity', value: 1.5, unit: 'km' }, { value: 1500, unit: 'm' }), null);
    assert.equal(disagreement({ type: 'Quantity', value: 1.5, unit: 'km' }, { value: 1.5, unit: 'm' }), 'different magnitude');
    assert.equal(disagreement({ type: 'Sequence', elements: [{ type: 'Integer', value: 1 }, { type: 'Integer', value: 9 }] }, { value: '(1, 9)' }), null);
    assert.equal(disagreement({ type: 'Sequence', elements: [{ type: 'Integer', value: 1 }] }, { value: '(1, 9)' }), 'expected 1 element(s), got 2');
    assert.equal(disagreement({ type: 'EnumLiteral', value: 'Color::red' }, { value: 'test::Color::red' }), null);
    assert.equal(disagreement({ type: 'Boolean', value: true }, { value: false }), 'different value');
  });

  it('reads every outcome of an outcomes answer, with the states its tokens were left in', function () {
    const outs = outcomesOf({
      reason: '2 outcomes (5 states, 4 moves): 1: deadlock (t1@run.c, t2@b), 2: done',
      values: [{ name: 'end@1', value: 'deadlock' }, { name: 'x@1', value: 7 }, { name: 'end@2', value: 'done' }, { name: 'x@2', value: 8 }],
    });
    assert.deepEqual(outs.map((o) => [o.end, o.nodes, o.values.get('x')?.value]), [['deadlock', ['run.c', 'b'], 7], ['done', [], 8]]);
  });

  it("tells OpenSysML's notation from the SysML v2 grammar", function () {
    const standard = 'package p { action a { attribute x : Integer := 0; first start; then b; action b { assign x := x + 1; } then done; } calc c { in y : Integer; return : Integer = y; } }';
    assert.deepEqual(notationOf(standard), []);
    assert.deepEqual(notationOf('package p {\n action a {\n first start;\n done end;\n then start b;\n action b;\n }\n}'), ['`done X;` marker', '`then A B;` succession']);
    assert.deepEqual(notationOf('package p { calc c { in n : Integer; attribute i : Integer = n;\n while i > 1 {\n i = i / 2;\n }\n return : Integer = i; } }'), ['`x = e;` as assignment']);
    assert.deepEqual(notationOf('package p { calc c { in a : Integer; if a > 0 { return : Integer = 1; } return : Integer = 0; } }'), ['`return` inside an action/control body']);
  });
});
