// Breadth of semantics, second round: constructs the release's models use, answered through the CLI of
// the bundled engine on small models written here. Each expected value is worked out by hand beside it.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder, refusalOf as refusal, valuesOf as values, type Asked } from './ask-json';
import { buildIfMissing } from './built';

describe('breadth of semantics, round 2 (CLI)', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));
  const folder = modelFolder('assay-breadth2-');
  const ask = (text: string, ...args: string[]): Asked => askJson(...args, '--model', folder.model(`m${Math.random().toString(36).slice(2)}.sysml`, text));

  describe('a variant written as a reference to a part (`variant e4;`)', () => {
    // SysML 7.6.6 (variability): `variant e4;` in a variation is a ReferenceUsage whose reference
    // subsetting names the part e4; the choice is known by that name (`engine::e4`) and, chosen, has e4's features.
    const family = `package V {
      part def Engine { attribute cyl : ScalarValues::Integer; }
      part e4 : Engine { attribute :>> cyl = 4; }
      part e6 : Engine { attribute :>> cyl = 6; }
      part manual;
      part automatic;
      variation part def EngineChoices :> Engine {
        variant e4;
        variant e6;
      }
      abstract part family {
        part engine : EngineChoices[1];
        variation part transmission[1] {
          variant manual;
          variant automatic;
        }
        assert constraint fits { (engine == engine::e4 and transmission == transmission::manual) xor (engine == engine::e6 and transmission == transmission::automatic) }
      }
      part v4 :> family {
        part redefines engine = engine::e4;
        part redefines transmission = transmission::manual;
        attribute cylinders = engine.cyl;
      }
      part v6 :> family {
        part redefines engine = engine::e6;
        part redefines transmission = transmission::manual;
      }
      part w6 :> family {
        part redefines engine = engine::e6;
        part redefines transmission = transmission::automatic;
        attribute same = engine == e6;
      }
    }`;
    it('selects the variant by the referenced name and checks the configuration', () => {
      // v4: (e4 = e4 and manual = manual) xor (e4 = e6 and …) = true xor false = true
      assert.deepEqual(values(ask(family, 'evaluate', 'V::v4')), { fits: 'true' });
      // v6: (e6 = e4 and …) xor (e6 = e6 and manual = automatic) = false xor false = false
      assert.deepEqual(values(ask(family, 'evaluate', 'V::v6')), { fits: 'false' });
    });
    it('gives the chosen variant the referenced part’s features: engine.cyl of v4 is e4’s 4', () => {
      assert.deepEqual(values(ask(family, 'evaluate', 'V::v4::cylinders')), { cylinders: '4' });
    });
    it('refuses to equate the chosen variant with the part it references (the variant may be that part, or not)', () => {
      assert.match(refusal(ask(family, 'evaluate', 'V::w6::same')), /variant chosen for a variation point is the value of another feature is not decided/);
    });
    it('names the referenced variants when none is selected', () => {
      assert.match(refusal(ask(family, 'evaluate', 'V::family')), /its variants: e4, e6/);
    });
  });

  describe('a quantity kind a part declares by its value (`tpc :> scalarQuantities = torque / electricCurrent`)', () => {
    // Quantities library: ISQ::torque and ISQ::electricCurrent are features whose values are every torque
    // and every current, so the quotient is the kind N·m/A, not one value (EVSample's Motor).
    const motor = `package K {
      private import ISQ::*;
      private import SI::*;
      part def Motor {
        torquePerCurrent :> Quantities::scalarQuantities = ISQ::torque / ISQ::electricCurrent;
        attribute kt :> torquePerCurrent = 2 [N*m/A];
        attribute motL :> ISQ::inductance = 0.5 [H];
        attribute charge :> ISQ::electricCharge;
      }
      part motor : Motor {
        attribute torqueAt3A = kt * 3 [A];
        attribute doubled = torquePerCurrent * 2;
      }
      part wrong : Motor { attribute :>> kt = 2 [N*m]; }
    }`;
    it('lists the part’s values and names the kind feature as a kind, not a value', () => {
      const a = ask(motor, 'evaluate', 'K::Motor');
      // kt = 2 N·m/A; motL = 0.5 H (an inductance, L²·M·T⁻²·I⁻²); charge has no value; torquePerCurrent is a kind
      assert.deepEqual(Object.keys(values(a)), ['kt', 'motL']);
      assert.equal(values(a).kt, '2 [N*m/A]');
      assert.match(a.answer.result?.reason ?? '', /torquePerCurrent declares a quantity kind/);
      assert.match(a.answer.result?.reason ?? '', /no value in the model for charge/);
    });
    it('computes with a value of the kind: 2 N·m/A × 3 A = 6 N·m', () => {
      assert.deepEqual(values(ask(motor, 'evaluate', 'K::motor::torqueAt3A')), { torqueAt3A: '6 [N*m]' });
    });
    it('refuses to read the kind as a value', () => {
      assert.match(refusal(ask(motor, 'evaluate', 'K::motor::doubled')), /'motor.torquePerCurrent' declares a quantity kind by its value/);
    });
    it('holds a subsetting feature’s value to the kind’s dimension: 2 N·m is no torque per current', () => {
      assert.match(refusal(ask(motor, 'evaluate', 'K::wrong')), /'wrong.kt' subsets 'torquePerCurrent', a quantity kind in .*, but its value 2 \[N\*m\] is not of that kind/);
    });
    it('binds an inductance and an electric charge in their units', () => {
      // --bind charge=3[A*h]: 3 A·h = 10800 C, a charge; a mass is not one
      assert.deepEqual(values(ask(motor, 'evaluate', 'K::motor::charge', '--bind', 'charge=3[A*h]')), { charge: '3 [A*h]' });
      assert.match(refusal(ask(motor, 'evaluate', 'K::motor::charge', '--bind', 'charge=3[kg]')), /binding charge: \[kg\] is not a electricCharge \(give it in a unit like \[C\]\)/);
    });
  });

  describe('a requirement derivation connection where a structure’s checks are asked', () => {
    // RequirementDerivation: a `#derivation` connection is a DerivationConnections::Derivation, whose
    // asserted constraints (the original requirement implies the derived ones, and is none of them) come
    // from the library; the engine does not model them, so the structure's checks are refused, not answered.
    const model = `package S {
      requirement def Checked { subject v : Sys; require constraint { v.x > 0 } }
      part def Sys { attribute x = 1; }
      part system : Sys;
      #derivation connection def Der { end #original r1 : Checked; end #derive r2 : Checked; }
      part deriving {
        satisfy requirement a : Checked by system;
        satisfy requirement b : Checked by system;
        connection : Der { end r1 ::> a; end r2 ::> a; }
      }
      part plain {
        satisfy requirement a : Checked by system;
      }
    }`;
    it('refuses it, naming the connection (its derived end names the original: the library’s check would fail)', () => {
      assert.match(refusal(ask(model, 'evaluate', 'S::deriving')), /a requirement derivation connection \(#derivation\) in deriving: its library constraints .* are not modeled/);
    });
    it('a structure without one is checked as before: x = 1 > 0', () => {
      assert.deepEqual(values(ask(model, 'evaluate', 'S::plain')), { 'satisfy Checked by system': 'true' });
    });
  });

  describe('a part bound to one of a collection’s values by index, with a body (`part leftWheel :> rearWheel = rearWheel#(1) { … }`)', () => {
    // 2a-Parts Interconnection: the alias names rearWheel's first value and says more of it (its body), so
    // that value is an instance of leftWheel's declaration, which specializes rearWheel's.
    const axle = `package A {
      part def Wheel { attribute pressure = 20; }
      part def Axle {
        part rearWheel : Wheel[2];
        part leftWheel :> rearWheel = rearWheel#(1) { attribute :>> pressure = 30; port p; }
        part rightWheel :> rearWheel = rearWheel#(2) { attribute extra = 5; }
        attribute pressures[2] = rearWheel.pressure;
        attribute same = leftWheel == rearWheel#(1);
      }
      part def One {
        part w : Wheel[1];
        part a :> w = w#(1) { attribute :>> pressure = 33; }
        attribute wp = w.pressure;
      }
      part def Twin {
        part w : Wheel[2];
        part a :> w = w#(1) { attribute :>> pressure = 33; }
        part b :> w = w#(1);
        attribute wp[2] = w.pressure;
      }
    }`;
    it('makes each value from its alias: pressures are (30, 20), and leftWheel is rearWheel#(1)', () => {
      const v = values(ask(axle, 'evaluate', 'A::Axle'));
      assert.equal(v['rearWheel.count'], '2');
      assert.equal(v['leftWheel.pressure'], '30');
      assert.equal(v['rightWheel.pressure'], '20');
      assert.equal(v['rightWheel.extra'], '5');
      assert.equal(v.pressures, '(30, 20)');
      assert.equal(v.same, 'true');
    });
    it('a single value too: w is a, so w.pressure is a’s 33', () => {
      assert.deepEqual(values(ask(axle, 'evaluate', 'A::One::wp')), { wp: '33' });
    });
    it('refuses two aliases of one value when one has a body', () => {
      assert.match(refusal(ask(axle, 'evaluate', 'A::Twin::wp')), /'a' and 'b' are both 'w#\(1\)' and one declares a body/);
    });
  });

  describe('a binding connector between two parts or ports', () => {
    // `bind a.p = q;` makes a.p and q one object; the engine builds one instance per declaration, so
    // two that a binding joins are refused as not modeled, not reported as a contradiction of the model.
    const bound = `package B {
      port def P;
      part def W { port p : P; }
      part def V {
        port vp { port wr : P[2]; port l :> wr = wr#(1); }
        part wheel : W;
        bind wheel.p = vp.l;
      }
    }`;
    it('is refused as an identity not modeled', () => {
      assert.match(refusal(ask(bound, 'evaluate', 'B::V')), /a binding makes them one object, which the engine \(one instance per declaration\) does not model/);
    });
  });

  describe('a library unit defined as a product of others keeps its name', () => {
    // SI: H (henry) = Wb/A, T (tesla) = Wb/m²; 0.2 H + 0.1 V·s/A = 0.3 H, in the unit written first.
    const model = `package H {
      private import SI::*;
      part p {
        attribute a :> ISQ::inductance = 0.2 [H];
        attribute g = a + 0.1 [V*s/A];
        attribute same = a == 200 [mV*s/A];
        attribute e = 1 [Gy] * 2 [kg];
      }
    }`;
    it('answers 0.2 [H], not [V*s/A], and converts it', () => {
      const v = values(ask(model, 'evaluate', 'H::p'));
      assert.equal(v.a, '0.2 [H]');
      assert.equal(v.g, '0.3 [H]');
      assert.equal(v.same, 'true');
      // 1 Gy (J/kg) × 2 kg = 2 J
      assert.equal(v.e, '2 [J]');
    });
  });
});
