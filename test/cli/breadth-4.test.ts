// Breadth of semantics, fourth round: constructs the release's models use (or the breadth rounds left
// refused), answered through the CLI of the bundled engine on small models written here. Each expected
// value is worked out by hand beside it.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder, refusalOf as refusal, valuesOf as values } from './ask-json';
import { buildIfMissing } from './built';

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('breadth of semantics, round 4 (CLI)', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));
  const folder = modelFolder('assay-breadth4-');
  let n = 0;
  const write = (text: string): string => folder.model(`m${++n}.sysml`, text);

  describe('a subject declared again by name is the inherited subject', () => {
    // SysML: a requirement's subject is its first parameter, and a parameter redefines the general
    // type's parameter at its place (KerML parameter redefinition): r's `subject v` is R's v, so
    // `redefines v` in a specialization of r names one feature (Annex A SimpleVehicleModel's
    // `subject generateTorque redefines generateTorque`). It was refused as naming two elements.
    const model = `package S {
      part def V { attribute mass = 150; }
      requirement def R { subject v : V; require constraint { v.mass < 200 } }
      part car : V;
      part heavy : V { attribute :>> mass = 250; }
      requirement r : R { subject v : V; }
      requirement light :> r { subject v redefines v = car; }
      requirement tooHeavy :> r { subject v redefines v = heavy; }
    }`;
    it('reads the requirement on the subject bound: car (150 < 200) satisfies it', () => {
      assert.deepEqual(values(askJson('evaluate', 'S::light', '--model', write(model))), { light: 'true' });
    });
    it('and heavy (250) does not', () => {
      const a = askJson('evaluate', 'S::tooHeavy', '--model', write(model));
      assert.deepEqual(values(a), { tooHeavy: 'false' });
      assert.match(a.answer.result?.reason ?? '', /v\.mass < 200 is false/);
    });
  });

  describe('a behaviour’s default that reads a feature the run writes, replaced by --bind', () => {
    // KerML FeatureValue: `default e` (isDefault, isInitial = false) binds the feature only given no
    // other value. Bound by the question, y is 10 for the whole run and its default is never read, so
    // that the run writes x no longer matters; without the binding it stays refused (a default binding
    // re-read in every state is not modeled), and an assignment to y stays refused either way.
    const model = `package D {
      action def Run {
        attribute x : Integer := 1;
        attribute y : Integer default x * 2;
        attribute z : Integer := 0;
        first start;
        then assign x := 5;
        then assign z := y + x;
        then done;
      }
      action def Reassign {
        attribute x : Integer := 1;
        attribute y : Integer default x * 2;
        first start;
        then assign x := 5;
        then assign y := 3;
        then done;
      }
    }`;
    it('answers with y bound to 10: z = 10 + 5 = 15', () => {
      const v = values(askJson('outcomes', 'D::Run', '--model', write(model), '--bind', 'y=10'));
      assert.equal(v['y@1'], '10');
      assert.equal(v['x@1'], '5');
      assert.equal(v['z@1'], '15');
    });
    it('still refuses the default without the binding, at the default', () => {
      const path = write(model);
      assert.match(refusal(askJson('outcomes', 'D::Run', '--model', path)), new RegExp(`${escaped(path)}:4:31: 'y' has a default value .* reads 'x', which the run writes`));
    });
    it('still refuses an assignment to y when it is bound, at the assignment', () => {
      const path = write(model);
      assert.match(refusal(askJson('outcomes', 'D::Reassign', '--model', path, '--bind', 'y=10')), new RegExp(`${escaped(path)}:16:14: 'y' has a default value .* cannot also be assigned`));
    });
  });

  describe('temperatures on an offset scale (°C)', () => {
    // ISO 80000-5 / SI: a Celsius temperature is a point on an interval scale. t2 - t1 is a difference
    // (10 K), a point plus a difference is a point: t1 + (t2 - t1) / 2 = 20 °C + 5 K = 25 °C. The mean
    // written (t1 + t2) / 2 divides a sum of two points, which depends on where the scale puts zero
    // (25 °C read as differences, 161.575 °C read from 0 K): refused, naming the division.
    const model = `package T {
      private import ISQ::*;
      private import SI::*;
      part p {
        attribute t1 : ThermodynamicTemperatureValue = 20 ['°C'];
        attribute t2 : ThermodynamicTemperatureValue = 30 ['°C'];
        attribute mid = t1 + (t2 - t1) / 2;
        attribute span = t2 - t1;
        attribute mean = (t1 + t2) / 2;
      }
    }`;
    it('a point plus half the difference: 25 °C', () => {
      assert.deepEqual(values(askJson('evaluate', 'T::p::mid', '--model', write(model))), { mid: '25 [°C]' });
    });
    it('the difference of two points: 10 K', () => {
      assert.deepEqual(values(askJson('evaluate', 'T::p::span', '--model', write(model))), { span: '10 [K]' });
    });
    it('refuses the mean of two points written as a sum, at the division', () => {
      const path = write(model);
      assert.match(refusal(askJson('evaluate', 'T::p::mean', '--model', path)), new RegExp(`${escaped(path)}:9:\\d+: '/' of 50 \\[°C\\] and 2: .*offset scale`));
    });
  });
});
