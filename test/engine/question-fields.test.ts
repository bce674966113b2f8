// A question with a field its kind does not read (a condition, free inputs, a sweep) is refused by the
// engine, naming the field — never answered without it. Asked straight to the engine's run (no covers
// first, as another host might) and through the CLI (whose host asks covers first).
import assert from 'node:assert/strict';
import { modelText, question, suiteEngine } from './engine-process';
import { buildIfMissing } from '../cli/built';
import { askJson, modelFolder } from '../cli/ask-json';

const MODEL = `package QF {
  attribute a : ScalarValues::Real = 2.0;
  calc def Twice { in x : ScalarValues::Real; return : ScalarValues::Real = 2 * x; }
  constraint def Positive { in x : ScalarValues::Real; x > 0 }
  action def Count {
    attribute c : ScalarValues::Integer := 0;
    first start; then fork; then inc; then dbl;
    action inc { assign c := c + 1; } then j;
    action dbl { assign c := c * 2; } then j;
    join j; then done;
  }
}`;

const range = { ranges: [{ parameter: 'x', type: 'Real', from: 1, to: 2, step: 1 }] };
const input = [{ name: 'c', type: 'Integer', domain: '0..5' }];

/** [kind, subject, fields the kind does not read, what the refusal names] */
const UNREAD: readonly [string, string, Record<string, unknown>, RegExp][] = [
  ['outcomes', 'QF::Count', { schedule: 'all', condition: { name: 'big', text: 'c > 100' } }, /outcomes does not read a condition \('big'\)/],
  ['sensitive', 'QF::Count', { schedule: 'all', conditions: [{ name: 'set', features: [], assertions: [{ name: 'k', text: 'c > 1' }] }] }, /sensitive does not read a condition \('set'\)/],
  ['compute', 'QF::Twice', { bindings: [{ name: 'x', value: 3 }], condition: { name: 'q', text: 'x > 1' } }, /compute does not read a condition/],
  ['evaluate', 'QF::a', { inputs: [{ name: 'a', type: 'Real', domain: '0..5' }], free: ['inputs'] }, /evaluate does not read free inputs \('a'\)/],
  ['sweep', 'QF::Twice', { sweep: range, inputs: [{ name: 'y', type: 'Real', domain: '0..1' }] }, /sweep does not read free inputs \('y'\)/],
  ['holds', 'QF::Count', { schedule: 'all', condition: { name: 'small', text: 'c <= 2' }, inputs: input }, /free inputs 'c' are given, but free does not list inputs/],
  ['evaluate', 'QF::a', { sweep: range }, /evaluate does not read a sweep/],
  ['evaluate', 'QF::a', { conditions: [{ name: 'set', features: [], assertions: [{ name: 'k', text: 'a > 1' }] }] }, /evaluate takes one condition, not condition sets \('set'\)/],
  ['holds', 'QF::Count', { schedule: 'all', conditions: [{ name: 'set', features: [{ name: 'c', type: 'Integer', domain: '0..5' }], assertions: [{ name: 'k', text: 'c <= 2' }] }] }, /holds reads the assertions of a condition set, not its free features .*'c'/],
  ['outcomes', 'QF::Count', { schedule: 'all', sweep: { ranges: [], samples: 3, seed: 1 } }, /outcomes does not read a sweep/],
  ['satisfiable', 'QF::Positive', { inputs: [{ name: 'x', type: 'Real', domain: '0..5' }], sweep: { ranges: [{ parameter: 'z', type: 'Real', from: 1, to: 2 }] } }, /satisfiable does not read a sweep/],
  ['compute', 'QF::Twice', { bindings: [{ name: 'x', value: 3 }], sweep: { ranges: [], runs: 3, seed: 1 } }, /compute reads a sweep only with ranges/],
  ['compute', 'QF::Twice', { bindings: [{ name: 'x', value: 1 }, { name: 'x', value: 2 }] }, /'x' is bound \(bindings, --bind\) twice/],
  ['sweep', 'QF::Twice', { sweep: { ranges: [range.ranges[0], { parameter: 'x', type: 'Real', from: 5, to: 6, step: 1 }] } }, /'x' is ranged over \(sweep ranges, --range\) twice/],
  ['compute', 'QF::Twice', { bindings: [{ name: 'x', value: 1 }], sweep: range }, /'x' is both bound \(bindings, --bind\) and ranged over/],
  ['satisfiable', 'QF::Positive', { bindings: [{ name: 'x', value: 50 }], inputs: [{ name: 'x', type: 'Real', domain: '0..3' }] }, /'x' is both bound \(bindings, --bind\) and a free input/],
  ['satisfiable', 'QF::Positive', { inputs: [{ name: 'x', type: 'Real', domain: '0..3' }, { name: 'x', type: 'Real', domain: '0..20' }] }, /'x' is a free input \(inputs, --input\) twice/],
  ['outcomes', 'QF::Count', { schedule: 'all', free: ['schedule', 'inputs'], inputs: [{ name: 'c', type: 'Integer' }] }, /the input c has no domain/],
  ['outcomes', 'QF::Count', { schedule: 'all', free: ['schedule', 'inputs'], inputs: [{ name: 'c', type: 'Boolean', domain: '0..2' }] }, /the input c is given as Boolean, but c is declared ScalarValues::Integer/],
  ['holds', 'QF::Count', { schedule: 'all', free: ['schedule', 'inputs'], condition: { name: 'k', text: 'c < 9' }, inputs: [{ name: 'c', unit: 'kg', domain: '0..2' }] }, /a unit beside the domain is not read/],
  ['satisfiable', 'QF::Positive', { conditions: [{ name: 'set', features: [{ name: 'x', type: 'Real', domain: '0..3' }], pinned: [{ name: 'x', text: '2' }], assertions: [{ name: 'k', text: 'x > 1' }] }] }, /the condition set 'set' gives 'x' twice/],
  // A free input that names no feature of the subject: a variable of the question alone, whose witness no
  // host can replay against the model.
  ['satisfiable', 'QF::Positive', { inputs: [{ name: 'zz', type: 'Real', domain: '0..1' }], condition: { name: 'c', text: 'x + zz > 1.5' } }, /the free input zz is not a feature of QF::Positive/],
  ['satisfiable', 'QF::Positive', { conditions: [{ name: 'set', features: [{ name: 'zz', type: 'Real', domain: '0..1' }], assertions: [{ name: 'k', text: 'zz > 0.5' }] }] }, /the free input zz is not a feature of QF::Positive/],
];

describe('reference engine: a question field its kind does not read is refused, not ignored', function () {
  this.timeout(60_000);
  const engine = suiteEngine();
  const model = modelText('qf.sysml', MODEL);

  for (const [kind, subject, extra, what] of UNREAD) {
    it(`${kind} ${JSON.stringify(extra).slice(0, 90)}: unsupported at run`, async () => {
      const r = await engine.run(question(kind, subject, extra), model);
      assert.equal(r.result, undefined, `answered: ${JSON.stringify(r.result)}`);
      assert.equal(r.error?.code, 'unsupported');
      assert.match(r.error!.message, what);
    });
  }

  it('still answers the fields each kind reads (holds with free inputs, satisfiable with inputs, sweep with ranges)', async () => {
    const holds = await engine.run(question('holds', 'QF::Count', { schedule: 'all', free: ['schedule', 'inputs'], condition: { name: 'small', text: 'c <= 2' }, inputs: input }), model);
    // c starts anywhere in 0..5: from c = 2, inc then dbl ends at 6.
    assert.equal(holds.result?.claim, 'violated', JSON.stringify(holds));
    // A condition set of assertions alone is checked in every state: c ends at 1 or 2.
    const set = await engine.run(question('holds', 'QF::Count', { schedule: 'all', conditions: [{ name: 'set', features: [], assertions: [{ name: 'small', text: 'c <= 2' }] }] }), model);
    assert.equal(set.result?.claim, 'holds', JSON.stringify(set));
    const sat = await engine.run(question('satisfiable', 'QF::Positive', { inputs: [{ name: 'x', type: 'Real', domain: '0..5' }] }), model);
    assert.equal(sat.result?.claim, 'satisfiable', JSON.stringify(sat));
    const sweep = await engine.run(question('sweep', 'QF::Twice', { sweep: range }), model);
    assert.equal(sweep.result?.claim, 'table', JSON.stringify(sweep));
  });
});

describe('cli: a flag the question kind does not read is refused (exit 3), naming it', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js'));
  const { model } = modelFolder('assay-fields-');
  const ask = (...args: string[]) => askJson(...args, '--model', model('qf.sysml', MODEL));

  it('evaluate --range, outcomes --condition, sweep --input, holds --input without --free inputs', () => {
    for (const [args, what] of [
      [['evaluate', 'QF::a', '--range', 'x:Real:1:2:1'], /evaluate does not read a sweep/],
      [['outcomes', 'QF::Count', '-schedule', 'all', '--condition', 'big=c > 100'], /outcomes does not read a condition/],
      [['sweep', 'QF::Twice', '--range', 'x:Real:1:2:1', '--input', 'y:Real:0..1'], /sweep does not read free inputs/],
      [['holds', 'QF::Count', '-schedule', 'all', '--condition', 'small=c <= 2', '--input', 'c:Integer:0..5'], /--free inputs/],
      [['compute', 'QF::Twice', '--bind', 'x=1', '--bind', 'x=2'], /'x' is bound \(bindings, --bind\) twice/],
      [['compute', 'QF::Twice', '--range', 'x:Real:1:2:1', '--range', 'x:Real:5:6:1'], /'x' is ranged over \(sweep ranges, --range\) twice/],
      [['satisfiable', 'QF::Positive', '--input', 'zz:Real:0..1', '--condition', 'c=x + zz > 1.5'], /the free input zz is not a feature of QF::Positive/],
    ] as const) {
      const r = ask(...args);
      assert.equal(r.code, 3, JSON.stringify(r.answer));
      assert.equal(r.answer.result, undefined);
      assert.match(r.answer.error?.message ?? '', what);
    }
  });
});
