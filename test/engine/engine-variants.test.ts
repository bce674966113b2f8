// Variation points through the real engine process (test/fixtures/models/engine/variants.sysml): a
// variation point's value is the variant a value selects, read on the configured instance; an open one,
// or a value that is no variant, is refused; the solver does not choose variants.
import assert from 'node:assert/strict';
import { modelOf, question, suiteEngine, valuesOf } from './engine-process';

describe('reference engine process: variation points and variants', function () {
  this.timeout(30000);
  const engine = suiteEngine();
  const model = modelOf('variants.sysml');
  const ask = (kind: string, subject: string) => engine.run(question(kind, subject), model);
  async function value(subject: string) {
    const r = await ask('evaluate', subject);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    return valuesOf(r.result);
  }
  async function refusal(kind: string, subject: string) {
    const r = await ask(kind, subject);
    assert.equal(r.error?.code, 'unsupported', JSON.stringify(r));
    return String(r.error?.message);
  }

  it('reads the selected variant, on the configured instance', async () => {
    // sportCar selects electric, whose power is 150 * boost, and sportCar's boost is 2: 900 + 300.
    assert.deepEqual(await value('Variants::sportCar::curbMass'), { curbMass: 1200 });
    // classicCar selects petrol, which keeps Engine's power 100: 900 + 100.
    assert.deepEqual(await value('Variants::classicCar::curbMass'), { curbMass: 1000 });
    // The point's own value is the variant, by name; a variation definition's variants too.
    assert.deepEqual(await value('Variants::sportCar::engine'), { engine: 'Variants::Car::engine::electric' });
    assert.deepEqual(await value('Variants::sportCar::spare'), { spare: 'Variants::EngineKind::turbo' });
    // A variant named in a car, selected or not, reads that car's values: 150 * 2 and 150 * 1.
    assert.deepEqual(await value('Variants::sportCar::electricPower'), { electricPower: 300 });
    assert.deepEqual(await value('Variants::classicCar::electricPower'), { electricPower: 150 });
  });

  it('compares a selection with a variant in constraints', async () => {
    // electric selected and 1200 >= 1100: the implication fails; petrol: it holds vacuously.
    assert.deepEqual(await value('Variants::sportCar'), { electricIsLight: false });
    assert.deepEqual(await value('Variants::classicCar'), { electricIsLight: true });
    // An attribute variant with a value is selected by it: grade is high's 2.0.
    assert.deepEqual(await value('Variants::ring'), { isHigh: true });
    assert.deepEqual(await value('Variants::ring::grade'), { grade: 2 });
  });

  it('keeps a variant outside a variation point an ordinary feature', async () => {
    assert.deepEqual(await value('Variants::Widget::total'), { total: 3 });
  });

  it('refuses an open variation point, a value that is no variant, a path through a point, and the solver choosing', async () => {
    assert.match(await refusal('evaluate', 'Variants::openCar::curbMass'), /variants\.sysml:13:24: variation 'openCar\.engine' has no variant selected: select one with a value \(`:>> engine = engine::electric`; its variants: electric, petrol\)/);
    assert.match(await refusal('evaluate', 'Variants::badCar::curbMass'), /'badCar\.engine' is a variation point: its value must be one of its variants \(electric, petrol\), not 3/);
    assert.match(await refusal('evaluate', 'Variants::sportCar::spare::power'), /read through the variation point 'spare', whose features are those of the variant selected/);
    // Strong with factor > 1.5 would satisfy fast: the solver must not answer from Engine's 100 alone.
    assert.match(await refusal('satisfiable', 'Variants::solverCar'), /'engine' is a variation point or one of its variants: variants are evaluated/);
  });
});
