// The host's check of witnesses through SysmlModel.check (the checker the CLI and the editor inject):
// condition sets with their prefixes and pinned values, and what the host cannot check.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SysmlModel } from '../../src/host/sysml-model';
import type { Question, RunResult } from '../../src/protocol';

const DESIGN = join(__dirname, '..', 'fixtures', 'models', 'engine', 'design.sysml');
const model = { sources: { library: '2026-04', documents: [{ path: 'design.sysml', text: readFileSync(DESIGN, 'utf8') }] } };

const twoSets: Question = {
  kind: 'satisfiable', subject: 'Design::Drone', schedule: 'fifo', free: ['inputs'],
  conditions: [
    { name: 'light', features: [{ name: 'payload', unit: 'kg' }, { name: 'motors', domain: '4, 6, 8' }], assertions: [{ name: 'liftMargin' }], pinned: [{ name: 'batteryMass', text: '1 [kg]' }] },
    { name: 'heavy', features: [{ name: 'payload', unit: 'kg' }, { name: 'motors', domain: '4, 6, 8' }], assertions: [{ name: 'liftMargin' }, { name: 'big', text: 'payload >= 3 [kg]' }], pinned: [{ name: 'batteryMass', text: '1 [kg]' }] },
  ],
};
const answer = (inputs: RunResult['witness'] extends infer W ? (W extends { inputs?: infer I } ? I : never) : never): RunResult => ({ claim: 'satisfiable', strength: 'proved', witness: { inputs } });

describe('host: SysmlModel.check of assignment witnesses', () => {
  const check = (q: Question, r: RunResult) => new SysmlModel().check(q, r, model);

  it('condition sets: each set is checked with its own prefixed values and pinned values', async () => {
    // 8 motors * 15 N lift 6.116 kg: 1.2 kg frame + 1 kg battery leave 3.9 kg of payload
    const good = answer([
      { name: 'light:payload', value: 0, unit: 'kg' }, { name: 'light:motors', value: 4 },
      { name: 'heavy:payload', value: 3.5, unit: 'kg' }, { name: 'heavy:motors', value: 8 },
    ]);
    assert.deepEqual(await check(twoSets, good), { ok: true });
    const small = answer([
      { name: 'light:payload', value: 0, unit: 'kg' }, { name: 'light:motors', value: 4 },
      { name: 'heavy:payload', value: 2, unit: 'kg' }, { name: 'heavy:motors', value: 8 },
    ]);
    assert.deepEqual(await check(twoSets, small), { ok: false, reason: "with the witness's values (condition set heavy), condition big: payload >= 3 [kg] is false" });
    const tooHeavy = answer([
      { name: 'light:payload', value: 0, unit: 'kg' }, { name: 'light:motors', value: 4 },
      { name: 'heavy:payload', value: 4, unit: 'kg' }, { name: 'heavy:motors', value: 8 },
    ]);
    const r = await check(twoSets, tooHeavy);
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /^with the witness's values \(condition set heavy\), condition liftMargin: motors \* thrustPerMotor >= 2 \* totalMass \* 9\.81 \[m\/s\^2\] is false \(design\.sysml:14:34\)$/);
  });

  it('a witness that changes a pinned value, names a set the question does not have, or leaves a free feature out: refuted', async () => {
    const repinned = answer([{ name: 'light:payload', value: 0, unit: 'kg' }, { name: 'light:motors', value: 4 }, { name: 'light:batteryMass', value: 0.5, unit: 'kg' }]);
    assert.deepEqual(await check(twoSets, repinned), { ok: false, reason: 'the witness gives batteryMass (condition set light) = 0.5 [kg], but the question fixes it at 1 [kg]' });
    const stray = answer([{ name: 'light:payload', value: 0, unit: 'kg' }, { name: 'light:motors', value: 4 }, { name: 'medium:motors', value: 4 }]);
    assert.deepEqual(await check(twoSets, stray), { ok: false, reason: 'the witness value medium:motors belongs to no condition set of the question' });
    const partial = answer([{ name: 'light:payload', value: 0, unit: 'kg' }, { name: 'light:motors', value: 4 }, { name: 'heavy:payload', value: 3, unit: 'kg' }]);
    assert.deepEqual(await check(twoSets, partial), { ok: false, reason: 'the witness gives no value for heavy:motors, a free feature of the question' });
  });

  it('schedule witnesses: a subject or feature the model does not have is refuted, a model without behaviour is unchecked', async () => {
    const violated: RunResult = { claim: 'violated', strength: 'proved', witness: { schedules: ['step 1: t1@go first of t1@go'], at: 1 } };
    const holds = (subject: string): Question => ({ kind: 'holds', subject, schedule: 'fifo', free: ['schedule'] });
    assert.deepEqual(await check(holds('Design::Plane'), violated), { ok: false, reason: 'the subject Design::Plane is not declared in the model' });
    const unchecked = await check(holds('Design::Drone'), violated);
    assert.equal(unchecked.ok, 'unchecked');
    assert.match((unchecked as { reason: string }).reason, /^the host's semantics cannot execute the model: design\.sysml:\d+:\d+: Design::Drone performs and exhibits no behaviour$/);
    // a feature the subject does not have is wrong whatever the semantics
    const sensitive: RunResult = { claim: 'sensitive', strength: 'proved', witness: { schedules: ['step 1: t1@go first of t1@go', 'step 1: t1@go first of t1@go'], feature: 'wings' } };
    assert.deepEqual(await check({ ...holds('Design::Drone'), kind: 'sensitive' }, sensitive), { ok: false, reason: 'the witness names wings, which is not a feature of Design::Drone' });
    // the end and a machine's configuration are items of an outcome a sensitive witness may name: unchecked, not refuted
    for (const feature of ['end', 'state', 'door.state']) {
      const named: RunResult = { ...sensitive, witness: { ...sensitive.witness, feature } };
      assert.equal((await check({ ...holds('Design::Drone'), kind: 'sensitive' }, named)).ok, 'unchecked', feature);
    }
    const withInputs: RunResult = { ...violated, witness: { ...violated.witness, inputs: [{ name: 'payload', value: 1, unit: 'kg' }] } };
    assert.equal((await check(holds('Design::Drone'), withInputs)).ok, 'unchecked', 'a feature it has: still unchecked');
  });

  it('within rounding is not settled (observed), past it is refuted; a strict comparison must hold exactly', async () => {
    const edges = { sources: { library: '2026-04', documents: [{ path: 'edges.sysml', text: 'package E {\n\tconstraint def Root { in x : Real; x * x == 2 }\n\tconstraint def Gap { in x : Real; x >= 3 and x < 3 }\n\tconstraint def Not { in x : Real; not (x * x != 2) }\n}\n' }] } };
    const q = (subject: string): Question => ({ kind: 'satisfiable', subject, schedule: 'fifo', free: ['inputs'] });
    const x = (value: number) => answer([{ name: 'x', value }]);
    const sysml = new SysmlModel();
    assert.equal(Math.SQRT2 * Math.SQRT2 === 2, false, 'the double nearest √2 does not square to 2');
    const unsettled = "the assignment meets its assertions only within the rounding of Reals, which the host's evaluation in doubles cannot settle: ";
    assert.deepEqual(await sysml.check(q('E::Root'), x(Math.SQRT2), edges), { ok: 'unchecked', reason: `${unsettled}x * x == 2 is false exactly (2.0000000000000004 against 2), but within rounding` });
    assert.deepEqual(await sysml.check(q('E::Not'), x(Math.SQRT2), edges), { ok: 'unchecked', reason: `${unsettled}x * x != 2 is true exactly (2.0000000000000004 against 2), but within rounding` });
    assert.deepEqual(await sysml.check(q('E::Root'), x(1.5), edges), { ok: false, reason: "with the witness's values, Root: x * x == 2 is false (edges.sysml:2:37)" });
    // nothing satisfies Gap: on its boundary the strict part fails exactly, a hair below it is not settled
    assert.deepEqual(await sysml.check(q('E::Gap'), x(3), edges), { ok: false, reason: "with the witness's values, Gap: x < 3 is false (edges.sysml:3:47)" });
    assert.equal((await sysml.check(q('E::Gap'), x(3 - 1e-12), edges)).ok, 'unchecked');
    assert.deepEqual(await sysml.check(q('E::Root'), x(1.4142135623730951), edges), await sysml.check(q('E::Root'), x(Math.SQRT2), edges));
  });

  it('a model sent as graphs cannot be checked', async () => {
    const r = await new SysmlModel().check(twoSets, answer([]), { graphs: { actions: [], states: [] } } as never);
    assert.deepEqual(r, { ok: 'unchecked', reason: 'the model was sent as graphs:1, which the host cannot re-check' });
  });
});
