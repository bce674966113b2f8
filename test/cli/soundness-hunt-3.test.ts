// Soundness hunt, third round (behaviour flows, the solver, library functions): questions on which assay
// answered wrongly at `proved`, asked through the CLI of the bundled engine. Each answer is now the
// correct one, or a refusal naming the construct and its place. The models are small ones written here.
import { buildIfMissing } from './built';
import { modelFolder, proves, refuses } from './ask-json';

describe('cli: soundness hunt 3 — behaviour flows, the solver, library functions', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));
  const { model } = modelFolder('assay-hunt3-');

  it('`if … else if … else …` then an action: the action follows every branch of the chain (after an inner branch the run ended)', () => {
    const m = model('else-if.sysml', `package EI {
  import ScalarValues::*;
  action def Grade {
    in attribute k : Integer;
    attribute r : Integer := 0;
    first start;
    then if k > 5 { assign r := 1; } else if k > 2 { assign r := 2; } else { assign r := 3; }
    then action scale { assign r := r * 10; }
  }
}
`);
    // Once: r = 3 and r = 2 at proved for k = 1 and k = 3 (the branches of the inner if ended the run
    // instead of going on to scale); k = 7 was right.
    for (const [k, r] of [['1', '30'], ['3', '20'], ['7', '10']] as const) {
      proves(m, ['outcomes', 'EI::Grade', '-schedule', 'all', '--bind', `k=${k}`], 'r@1', r);
    }
  });
  it('a `default` without `:=` binds its feature for life (KerML FeatureValue, isInitial = false): assigning it, or reading one over a feature the run writes, is refused; `default :=` is an initial default', () => {
    const m = model('default-binding.sysml', `package DB {
  import ScalarValues::*;
  action def Bump {
    attribute x : Integer default 5;
    first start;
    then assign x := x + 1;
  }
  action def Follow {
    attribute x : Integer := 1;
    attribute y : Integer default x * 2;
    attribute r : Integer := 0;
    first start;
    then assign x := 5;
    then assign r := y;
  }
  action def InitialDefault {
    attribute x : Integer default := 5;
    first start;
    then assign x := x + 1;
  }
  action def Given {
    in attribute k : Integer default 3;
    attribute r : Integer := 0;
    first start;
    then assign r := k * 10;
  }
}
`);
    // Once: x = 6 and r = 2 at proved (the default was taken as an initial value: assigned over, and read
    // as it was when the run started, though y = x * 2 = 10 once x is 5).
    refuses(m, ['outcomes', 'DB::Bump', '-schedule', 'all'], /default-binding\.sysml:6:/, /'x' has a default value \('default' at 4:/);
    refuses(m, ['outcomes', 'DB::Follow', '-schedule', 'all'], /default-binding\.sysml:10:/, /'y' has a default value .* reads 'x', which the run writes/);
    // An initial default may be assigned; a default the question replaces is the question's value.
    proves(m, ['outcomes', 'DB::InitialDefault', '-schedule', 'all'], 'x@1', '6');
    proves(m, ['outcomes', 'DB::Given', '-schedule', 'all'], 'r@1', '30');
    proves(m, ['outcomes', 'DB::Given', '-schedule', 'all', '--bind', 'k=7'], 'r@1', '70');
  });
  it('calc bodies: a local with a `default` without `:=` is bound, as in behaviours: assigning it, or reading one over a local the body assigns, is refused', () => {
    const m = model('calc-default.sysml', `package CD {
  import ScalarValues::*;
  calc def Add {
    in n : Integer;
    attribute x : Integer default 5;
    assign x := x + n;
    return : Integer = x;
  }
  calc def Track {
    in n : Integer;
    attribute x : Integer := 1;
    attribute y : Integer default x * 2;
    attribute z : Integer := 0;
    assign z := y;
    then assign x := n;
    then assign z := z * 100 + y;
    return : Integer = z;
  }
  calc def Initial {
    in n : Integer;
    attribute x : Integer default := 5;
    assign x := x + n;
    return : Integer = x;
  }
}
`);
    // Once: Add(1) = 6 and Track(5) = 202 at proved (y kept 2 after x became 5; bound, it is 10: 210).
    refuses(m, ['compute', 'CD::Add', '--bind', 'n=1'], /calc-default\.sysml:6:/, /'x' has a default value without ':=', which binds it .* cannot be assigned/);
    refuses(m, ['compute', 'CD::Track', '--bind', 'n=5'], /calc-default\.sysml:/, /'y' is bound \('default' without ':='\) to an expression over a local the body assigns/);
    proves(m, ['compute', 'CD::Initial', '--bind', 'n=1'], 'Initial', '6');
  });
});
