import { strict as assert } from 'node:assert';
import { decideStanding, witnessProblem, type StandingInput } from '../../src/host';
import type { Question, RunResult } from '../../src/protocol';

const q = (kind: Question['kind']): Question => ({ kind, subject: 'S', schedule: 'fifo', free: ['schedule'] });
const input = (kind: Question['kind'], result: RunResult, authority: StandingInput['authority'] = 'proved'): StandingInput => ({
  engine: 'e', authority, question: q(kind), result, model: {},
});
const schedule = 'step 1: t1@start first of t1@start, t2@other\nstep 2: t2@other first of t2@other';

describe('host: standing policy', () => {
  it('leaves a claim that passes every rule as claimed, with no reasons', async () => {
    assert.deepEqual(await decideStanding(input('holds', { claim: 'holds', strength: 'proved' })), { claimed: 'proved', strength: 'proved', reasons: [] });
    assert.deepEqual(
      await decideStanding(input('holds', { claim: 'violated', strength: 'witnessed', witness: { schedules: [schedule], at: 2 } })),
      { claimed: 'witnessed', strength: 'witnessed', reasons: [] },
    );
  });

  it('never raises a claim: caps only lower', async () => {
    const s = await decideStanding(input('holds', { claim: 'holds', strength: 'observed', bounds: [{ name: 'depth', limit: 1, reached: true }] }, 'bounded'));
    assert.deepEqual(s, { claimed: 'observed', strength: 'observed', reasons: [] });
  });

  it('caps at bounded when any returned bound was reached', async () => {
    const s = await decideStanding(input('holds', { claim: 'holds', strength: 'proved', bounds: [{ name: 'depth', limit: 8, reached: true }, { name: 'steps', limit: 0, reached: false }] }));
    assert.deepEqual(s, { claimed: 'proved', strength: 'bounded', reasons: ['the run reached its bound depth (limit 8)'] });
  });

  it('caps at observed for each kind of missing or malformed witness', () => {
    const cases: [Question['kind'], RunResult, RegExp][] = [
      ['holds', { claim: 'violated', strength: 'proved' }, /none was returned/],
      ['holds', { claim: 'violated', strength: 'proved', witness: { schedules: [schedule, schedule] } }, /one schedule, the witness has 2/],
      ['holds', { claim: 'violated', strength: 'proved', witness: { schedules: ['step 2: t1@a first of t1@a'] } }, /numbered step 2/],
      ['holds', { claim: 'violated', strength: 'proved', witness: { schedules: ['went left'] } }, /is not "step N/],
      ['holds', { claim: 'violated', strength: 'proved', witness: { schedules: ['step 1: t3@x first of t1@a'] } }, /chose t3@x, which is not among the enabled moves/],
      ['holds', { claim: 'violated', strength: 'proved', witness: { schedules: [schedule], at: 5 } }, /points at move 5, but the schedule has 2 moves/],
      ['holds', { claim: 'violated', strength: 'proved', witness: {} }, /neither a schedule nor inputs/],
      ['sensitive', { claim: 'sensitive', strength: 'proved', witness: { schedules: [schedule] } }, /needs two schedules/],
      ['sensitive', { claim: 'sensitive', strength: 'proved', witness: { schedules: [schedule, schedule] } }, /does not name the feature/],
      ['satisfiable', { claim: 'satisfiable', strength: 'proved', witness: { schedules: [schedule] } }, /has no inputs/],
      ['outcomes', { claim: 'outcomes', strength: 'proved' }, /no executions/],
      ['outcomes', { claim: 'outcomes', strength: 'proved', executions: [{ schedules: [schedule] }, {}] }, /execution 2 has neither/],
    ];
    for (const [kind, result, pattern] of cases) assert.match(witnessProblem(q(kind), result) ?? 'fine', pattern, JSON.stringify(result));
    assert.equal(witnessProblem(q('satisfiable'), { claim: 'satisfiable', strength: 'proved', witness: { inputs: [{ name: 'x', value: 1 }] } }), undefined);
    assert.equal(witnessProblem(q('sensitive'), { claim: 'sensitive', strength: 'proved', witness: { schedules: [schedule, schedule], feature: 'x' } }), undefined);
    assert.equal(witnessProblem(q('holds'), { claim: 'violated', strength: 'proved', witness: { schedules: [''], at: 0 } }), undefined, 'a violation in the initial state');
  });

  it('applies every rule in order and keeps each reason', async () => {
    const s = await decideStanding(input('outcomes', { claim: 'outcomes', strength: 'proved', bounds: [{ name: 'runs', limit: 3, reached: true }] }, 'bounded'));
    assert.deepEqual(s, {
      claimed: 'proved',
      strength: 'observed',
      reasons: ['engine "e" has authority bounded', 'claim outcomes needs a witness, but no executions were returned'],
    });
  });

  it('a witness checker that throws has not checked the witness: at most observed, with the error', async () => {
    const s = await decideStanding({
      ...input('satisfiable', { claim: 'satisfiable', strength: 'proved', witness: { inputs: [] } }),
      witnessChecker: { check: async () => { throw new Error('replay crashed'); } },
    });
    assert.deepEqual(s, { claimed: 'proved', strength: 'observed', reasons: ['the host could not check the witness: the witness check failed: replay crashed'], witnessCheck: 'unchecked' });
  });

  it('a refuted witness stands at not covered, an unchecked one at most observed, each with its reason', async () => {
    const refuted = await decideStanding({
      ...input('satisfiable', { claim: 'satisfiable', strength: 'proved', witness: { inputs: [{ name: 'x', value: 1 }] } }),
      witnessChecker: { check: async () => ({ ok: false, reason: 'x > 2 is false' }) },
    });
    assert.deepEqual(refuted, { claimed: 'proved', strength: 'not covered', reasons: ["the host's evaluation of the witness does not reproduce the claim: x > 2 is false"], witnessCheck: 'not reproduced' });
    const unchecked = await decideStanding({
      ...input('holds', { claim: 'violated', strength: 'proved', witness: { schedules: [schedule], at: 2 } }),
      witnessChecker: { check: async () => ({ ok: 'unchecked', reason: 'no semantics for it' }) },
    });
    assert.deepEqual(unchecked, { claimed: 'proved', strength: 'observed', reasons: ['the host could not check the witness: no semantics for it'], witnessCheck: 'unchecked' });
    const lower = await decideStanding({
      ...input('holds', { claim: 'violated', strength: 'observed', witness: { schedules: [schedule], at: 2 } }),
      witnessChecker: { check: async () => ({ ok: 'unchecked', reason: 'no semantics for it' }) },
    });
    assert.deepEqual(lower, { claimed: 'observed', strength: 'observed', reasons: [], witnessCheck: 'unchecked' }, 'a claim already at observed keeps it');
  });

  it('rejects a claim that does not fit the question kind', async () => {
    await assert.rejects(decideStanding(input('evaluate', { claim: 'holds', strength: 'proved' })), /answered an evaluate question with claim "holds"/);
  });
});
