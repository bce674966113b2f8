// The editor's comparison of one "All covering engines" ask, from the run records the ask flow writes:
// the Runs view's grouping, the panel's rows and verdict as runs settle, and the panel's HTML (CSP with
// a nonce, every engine-supplied text escaped).
import assert from 'node:assert/strict';
import type { RunOutcome } from '../../src/host';
import type { Question } from '../../src/protocol';
import type { RunRecord } from '../../src/extension/runs/runRecord';
import { comparisonView, groupDescription, groupRuns, loweredByComparison, runsRoots } from '../../src/extension/compare/compareModel';
import { compareHtml } from '../../src/extension/compare/compareHtml';

const question: Question = { kind: 'holds', subject: 'Race::Race', schedule: 'all', free: ['schedule'], condition: { name: 'ok', text: 'x != 3' } };
const answered = (engine: string, claim: 'holds' | 'violated', witnessCheck?: 'reproduced' | 'unchecked'): RunOutcome => ({
  status: 'answered', engine,
  result: { claim, strength: 'proved', ...(claim === 'violated' ? { witness: { schedules: ['step 1: t1@a first of t1@a'], at: 1 } } : {}) },
  standing: { claimed: 'proved', strength: witnessCheck === 'unchecked' ? 'observed' : 'proved', reasons: witnessCheck === 'unchecked' ? ['the host could not check the witness: no semantics'] : [], ...(witnessCheck ? { witnessCheck } : {}) },
});

function record(id: number, engine: string, extra: Partial<RunRecord> = {}): RunRecord {
  return { id, question, documents: [], state: 'running', askedAt: 0, engineChoice: engine, ...extra };
}

/** A history as the ask flow leaves it: newest first. */
function history(records: RunRecord[]) {
  const list = [...records].sort((a, b) => b.id - a.id);
  return {
    all: () => list,
    update: (id: number, change: Partial<RunRecord>) => Object.assign(list.find((r) => r.id === id)!, change),
  };
}

describe('extension: comparison of all covering engines', () => {
  it('the Runs view nests the runs of one ask under one row, at the place of its newest run', () => {
    const h = history([record(1, 'solo'), record(2, 'a'), record(3, 'b'), record(4, 'later')]);
    assert.equal(groupRuns(h, [2, 3]), 2);
    assert.deepEqual(runsRoots(h.all()), [{ run: 4 }, { group: 2 }, { run: 1 }]);
  });

  it('while runs go: their rows and how many have answered, no verdict; then the verdict, a replayed violation deciding', () => {
    const h = history([record(5, 'prover'), record(6, 'finder')]);
    groupRuns(h, [5, 6]);
    h.update(5, { state: 'settled', outcome: answered('prover', 'holds'), elapsedMs: 12 });
    const going = comparisonView(5, h.all())!;
    assert.equal(going.verdict, undefined);
    assert.equal(groupDescription(going), '1 of 2 engines have answered');
    assert.deepEqual(going.rows.map((r) => [r.engine, r.state]), [['prover', 'running'], ['finder', 'running']]);

    h.update(6, { state: 'settled', outcome: answered('finder', 'violated', 'reproduced'), elapsedMs: 30 });
    const done = comparisonView(5, h.all())!;
    assert.equal(done.verdict?.status, 'decided');
    assert.equal(groupDescription(done), "violated, decided by finder's replayed witness; prover's holds does not stand");
    assert.deepEqual(done.rows.map((r) => [r.engine, r.claim, r.claimed, r.strength, r.reason, r.hasResult]), [
      ['prover', 'holds', 'proved', 'not covered', "contradicted by finder's replayed witness", false],
      ['finder', 'violated', 'proved', 'proved', '', true],
    ]);

    // The contradicted run's record then says so too (the Runs view, Copy Result), and the comparison
    // still compares what the host decided: the verdict does not change once it is applied.
    const lowered = loweredByComparison(5, h.all());
    assert.deepEqual(lowered.map((c) => [c.run, c.outcome.status === 'answered' && c.outcome.standing.strength]), [[5, 'not covered']]);
    for (const c of lowered) h.update(c.run, { outcome: c.outcome, beforeComparison: c.beforeComparison });
    assert.deepEqual(loweredByComparison(5, h.all()), []);
    assert.equal(comparisonView(5, h.all())!.verdict?.status, 'decided');
  });

  it('an unchecked violation against a proof: unresolved, nobody lowered, the panel says so and lists the difference', () => {
    const h = history([
      record(7, 'prover', { state: 'settled', outcome: answered('prover', 'holds'), elapsedMs: 3 }),
      record(8, 'fin<der', { state: 'settled', outcome: answered('fin<der', 'violated', 'unchecked'), elapsedMs: 1500 }),
    ]);
    groupRuns(h, [7, 8]);
    const view = comparisonView(7, h.all())!;
    assert.equal(view.verdict?.status, 'unresolved');
    const html = compareHtml(view, { cspSource: 'vscode-resource:', nonce: 'N0nce' });
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-N0nce'; script-src 'nonce-N0nce'">/);
    assert.match(html, /<strong>Unresolved disagreement<\/strong>/);
    assert.match(html, /<li>claim: prover holds, fin&lt;der violated<\/li>/);
    assert.ok(!html.includes('fin<der'), 'an engine name reaches the page unescaped');
    assert.match(html, /<td class="strength lowered">proved → observed<\/td>/);
    assert.match(html, /<td class="time">1\.50 s<\/td>/);
    // Only the run with a witness offers to show it; every script carries the nonce.
    assert.deepEqual([...html.matchAll(/data-run="(\d+)"/g)].map((m) => m[1]), ['8']);
    assert.equal([...html.matchAll(/<script(?![^>]*nonce="N0nce")/g)].length, 0);
  });
});
