// Soundness hunt, fourth round (units, arithmetic, null and collections, redefinition chains, behaviour):
// questions on which assay answered wrongly at `proved`, asked through the CLI of the bundled engine.
// Each answer is now the correct one, or a refusal naming the construct and its place. The models are
// small ones written here.
import { buildIfMissing } from './built';
import { modelFolder, proves, refuses } from './ask-json';

describe('cli: soundness hunt 4 — units, arithmetic, redefinition chains, behaviour', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));
  const { model } = modelFolder('assay-hunt4-');

  it('a temperature in °C or °F scaled, multiplied, divided, negated or abs-ed is refused at the operator (2 * 20 °C was 40 °C at proved)', () => {
    const m = model('affine.sysml', `package AF {
  import ScalarValues::*;
  import ISQ::*;
  import SI::*;
  part def Room {
    attribute t : ThermodynamicTemperatureValue = 20 ['°C'];
    attribute doubled = 2 * t;
    attribute half = t / 2;
    attribute heat = 10 [J/K] * t;
    attribute warmer = t + 5 [K];
    attribute inKelvin = 2 * t [K];
    attribute negated = -t;
    attribute cold = -20 ['°C'];
    attribute absT = abs(t);
    attribute gap = abs(t - 25 ['°C']);
  }
  part room : Room;
}
`);
    // Once: 40 °C, 10 °C and 200 J at proved; read from 0 K they are 313.15 °C, −126.575 °C, 2931.5 J.
    refuses(m, ['evaluate', 'AF::room::doubled'], /affine\.sysml:7:25:/, /'\*' of 2 and 20 \[°C\]: .* offset scale/);
    refuses(m, ['evaluate', 'AF::room::half'], /affine\.sysml:8:22:/, /'\/' of 20 \[°C\] and 2: .* offset scale/);
    refuses(m, ['evaluate', 'AF::room::heat'], /affine\.sysml:9:/, /offset scale/);
    // A difference added to a point, and a point converted to K first, are answered.
    proves(m, ['evaluate', 'AF::room::warmer'], 'warmer', '25 [°C]');
    proves(m, ['evaluate', 'AF::room::inKelvin'], 'inKelvin', '586.3 [K]');
    // Once: −20 °C for −t and 20 °C for abs(−20 °C) at proved (from 0 K: −293.15 K, and 253.15 K itself).
    refuses(m, ['evaluate', 'AF::room::negated'], /affine\.sysml:12:/, /unary '-' of 20 \[°C\]: .* offset scale/);
    refuses(m, ['evaluate', 'AF::room::absT'], /affine\.sysml:14:/, /abs\(20 \[°C\]\): .* offset scale/);
    // A negative reading written as a literal, and abs of a difference, are answered.
    proves(m, ['evaluate', 'AF::room::cold'], 'cold', '-20 [°C]');
    proves(m, ['evaluate', 'AF::room::gap'], 'gap', '5 [K]');
  });

  it('a redefinition without a value of a feature a supertype already redefined with one (`w :>> A::x` past B\'s `:>> x = 2.0`) has that value, not the original\'s', () => {
    const m = model('redefined-again.sysml', `package RA {
  import ScalarValues::*;
  part def A { attribute x : Real = 1.0; attribute y = x * 10; }
  part def B :> A { attribute :>> x = 2.0; }
  part def C :> B { attribute w :>> A::x; }
  part c : C;
  part def Z :> A { attribute z :>> x = 3.0; }
  part def D :> Z { attribute v :>> x; }
  part d : D;
  part holder { part inner : D; attribute r = inner.y; }
}
`);
    // Once: c.y = 10, c.w = 1, d.y = 10 and holder.r = 10 at proved (A's x = 1.0 read past B's and Z's).
    proves(m, ['evaluate', 'RA::c::y'], 'y', '20');
    proves(m, ['evaluate', 'RA::c::w'], 'w', '2');
    proves(m, ['evaluate', 'RA::d::y'], 'y', '30');
    proves(m, ['evaluate', 'RA::holder::r'], 'r', '30');
  });

  it('min and max of two arguments take one value each: a null or empty argument is refused (max(x, 3) with x null was 3)', () => {
    const m = model('extremes.sysml', `package EX {
  import ScalarValues::*;
  attribute budget : Real[0..1] = null;
  attribute none : Real[0..*] = ();
  attribute s : Real[0..*] = (1.0, 7.0, 3.0);
  attribute capped = max(budget, 3.0);
  attribute least = min(none, 3.0);
  attribute both = max(2.0, 5.0);
  attribute over = max(s);
}
`);
    // Once: 3 and 3 at proved (the library's min(x, y) and max(x, y) take x : Real[1]).
    refuses(m, ['evaluate', 'EX::capped'], /extremes\.sysml:6:/, /'max\(\)' needs a value as argument 1, but it is null/);
    refuses(m, ['evaluate', 'EX::least'], /extremes\.sysml:7:/, /'min\(\)' needs a value as argument 1, but it is null/);
    proves(m, ['evaluate', 'EX::both'], 'both', '5');
    proves(m, ['evaluate', 'EX::over'], 'over', '7');
  });

  it('a state typed by a `parallel` state definition enters its regions (`exhibit state beh : Beh;` sat in beh, no entry action run)', () => {
    const m = model('parallel-def.sysml', `package PD {
  import ScalarValues::*;
  part def Lamp {
    attribute x : Integer := 0;
    attribute y : Integer := 0;
    state def Beh parallel {
      state a { entry action { assign x := 1; } }
      state b { entry action { assign y := 2; } }
    }
    exhibit state beh : Beh;
  }
  part lamp : Lamp;
  part def Clash {
    attribute x : Integer := 0;
    state def Beh parallel {
      state a { entry action { assign x := x + 1; } }
      state b { entry action { assign x := x * 10; } }
    }
    exhibit state beh : Beh;
  }
  part clash : Clash;
}
`);
    // Once: x = 0 and y = 0 at proved (the definition's `parallel` was not read; beh had no active region).
    proves(m, ['outcomes', 'PD::lamp', '-schedule', 'all'], 'x@1', '1');
    proves(m, ['outcomes', 'PD::lamp', '-schedule', 'all'], 'y@1', '2');
    proves(m, ['outcomes', 'PD::lamp', '-schedule', 'all'], 'state@1', 'a, b');
    // Regions whose entry actions write one feature: which runs first is not modeled, so refused.
    refuses(m, ['outcomes', 'PD::clash', '-schedule', 'all'], /parallel-def\.sysml:16:/, /the regions 'beh\.a' and 'beh\.b' of the parallel state 'beh' are performed concurrently/);
  });
});
