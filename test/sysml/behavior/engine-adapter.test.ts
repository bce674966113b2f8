// The engine's behaviour handlers (src/engine/behavior-questions.ts) on a run context like the
// server gives them: results valid under the protocol schema, bounds from the run, refusals as the
// engine's unsupported / budget errors, cancel answered.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BEHAVIOR_QUESTIONS } from '../../../src/engine/behavior-questions';
import { BudgetError, UnsupportedError } from '../../../src/sysml/model/errors';
import { RunContext } from '../../../src/engine/run';
import { RunResult, type RunParams } from '../../../src/protocol';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'models', 'behavior');

function params(kind: 'outcomes' | 'holds' | 'sensitive', file: string, subject: string, extra: Partial<RunParams['question']> = {}, bounds: RunParams['bounds'] = []): RunParams {
  return {
    question: { kind, subject, schedule: 'all', free: ['schedule'], ...extra },
    model: { sources: { library: '2026-04', documents: [{ path: file, text: readFileSync(join(FIXTURES, file), 'utf8') }] } },
    bounds,
    budget: {},
  };
}

describe('engine behaviour handlers', () => {
  it('answers holds with a schema-valid violated result and its witness', async () => {
    const p = params('holds', 'traffic-light.sysml', 'TrafficLight::TimedCrossing', {}, [{ name: 'depth', limit: 100 }]);
    const run = new RunContext(p.budget, p.bounds);
    const r = await BEHAVIOR_QUESTIONS.holds!.run(p, run);
    run.dispose();
    assert.equal(RunResult.safeParse(r).success, true, JSON.stringify(RunResult.safeParse(r).error?.issues));
    assert.equal(r.claim, 'violated');
    assert.equal(r.witness?.at, 2);
    assert.deepEqual(r.bounds, [{ name: 'depth', limit: 100 }]);
  });

  it('answers outcomes and sensitive with schema-valid results', async () => {
    for (const kind of ['outcomes', 'sensitive'] as const) {
      const p = params(kind, 'race.sysml', 'Race::Race');
      const run = new RunContext(p.budget, p.bounds);
      const r = await BEHAVIOR_QUESTIONS[kind]!.run(p, run);
      run.dispose();
      assert.equal(RunResult.safeParse(r).success, true);
      assert.equal(r.claim, kind);
    }
  });

  it('covers what compiles and refuses the rest with the place', () => {
    assert.deepEqual(BEHAVIOR_QUESTIONS.outcomes!.covers(params('outcomes', 'race.sysml', 'Race::Race')), { covers: true });
    const no = BEHAVIOR_QUESTIONS.outcomes!.covers(params('outcomes', 'race.sysml', 'Race'));
    assert.equal(no.covers, false);
    assert.match(no.reason!, /the subject Race is a package/);
  });

  it('turns a model it cannot run into UnsupportedError and a cancel into BudgetError', async () => {
    const p = params('outcomes', 'decide.sysml', 'Decide::Dispatch');
    await assert.rejects(BEHAVIOR_QUESTIONS.outcomes!.run(p, new RunContext({}, [])), (e: unknown) => e instanceof UnsupportedError && /decide\.sysml:\d+:\d+: 'sensorOk' has no value/.test(e.message));
    const run = new RunContext({}, []);
    run.stop('cancelled');
    await assert.rejects(BEHAVIOR_QUESTIONS.holds!.run(params('holds', 'ping-pong.sysml', 'PingPong::Table', { condition: { name: 'c', text: 'hits <= 3' } }), run), (e: unknown) => e instanceof BudgetError);
  });

  it('a holds search cancelled after exploring keeps what it found: no violation up to here, bounded by the moves explored', async function () {
    this.timeout(120_000);
    const text = readFileSync(join(__dirname, '..', '..', 'e2e', 'workspace', 'counters.sysml'), 'utf8');
    const p: RunParams = {
      question: { kind: 'holds', subject: 'Counters::Six', schedule: 'all', free: ['schedule'] },
      model: { sources: { library: '2026-04', documents: [{ path: 'counters.sysml', text }] } },
      bounds: [], budget: {},
    };
    const sent: { runs?: number; steps?: number; text?: string }[] = [];
    const run: RunContext = new RunContext(p.budget, p.bounds, (counts) => {
      sent.push(counts);
      if ((counts.steps ?? 0) > 0) run.stop('cancelled');
    });
    const r = await BEHAVIOR_QUESTIONS.holds!.run(p, run);
    run.dispose();
    assert.equal(RunResult.safeParse(r).success, true, JSON.stringify(RunResult.safeParse(r).error?.issues));
    assert.equal(r.claim, 'holds');
    assert.equal(r.strength, 'bounded');
    const steps = r.bounds?.[0]?.limit ?? 0;
    assert.ok(steps > 0);
    assert.deepEqual(r.bounds, [{ name: 'steps', limit: steps, reached: true }]);
    assert.match(r.reason!, /^no violation up to here: [\d,]+ states, [\d,]+ moves, depth \d+ explored before the run stopped when it was cancelled$/);
    // Progress in one number format, without `0 runs` before an execution has ended.
    assert.ok(sent.every((c) => c.runs !== 0), JSON.stringify(sent));
    assert.ok(sent.every((c) => c.text === undefined || /^\d{1,3}(,\d{3})* states$/.test(c.text)), JSON.stringify(sent));
  });
});
