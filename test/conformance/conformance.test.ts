// OpenSysML's 171 execution conformance cases (../shared/conformance/opensysml), each asked of the
// real `assay` CLI (dist/cli.js, built by `npm run test:unit`): assay may refuse, but it must never
// answer something the case (corrected by the spec where the two disagree) contradicts.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { CLI, SUITE_DIR, loadCases, report, runAll, type CaseResult } from './harness';

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
