// Calc usages inside behaviours (`calc t : Twice { in k = v; }` in an action body): read through their
// parameters and results, each bound to the values of the state it is read in. Expected values are
// worked out by hand beside each question; answers are re-checked by replay.
import assert from 'node:assert/strict';
import type { BehaviorQuestion } from '../../../src/sysml/behavior';
import { ask, ends, refusal, text } from './asking';

const q = (subject: string): BehaviorQuestion => ({ kind: 'outcomes', subject, schedule: 'all', free: ['schedule'] });

describe('behaviour semantics: calc usages in action bodies', () => {
  const d = [text('calc.sysml', `package C {
	private import ScalarValues::*;
	calc def Twice { in k : Real; out d = k * 2.0; return r : Real = d + 1.0; }
	calc def Half { in k : Real; k / 2.0 }
	calc def Nothing { in k : Real; return : Real; }
	action def Run {
		attribute v : Real := 1.0;
		attribute doubled : Real := 0.0;
		attribute res : Real := 0.0;
		attribute h : Real := 0.0;
		attribute acc : Real := 0.0;
		attribute i : Integer := 0;
		calc t : Twice { in k = v; }
		calc half : Half { in k = v; }
		first start;
		then assign v := 2.0;
		then assign doubled := t.d;
		then assign res := t;
		then assign h := half;
		then while i < 3 {
			calc step : Twice { in k = i; }
			assign i := i + 1;
			then assign acc := acc + step.d;
		}
		then done;
	}
	action def NoResult {
		attribute v : Real := 1.0;
		attribute x : Real := 0.0;
		calc n : Nothing { in k = v; }
		first start;
		then assign x := n;
		then done;
	}
	action def Stepped {
		attribute v : Real := 1.0;
		action a1;
		calc t : Twice { in k = v; }
		then a2;
		action a2;
	}
	calc def Loose { in k : Real; attribute z : Real; return : Real = k; }
	action def ReadsLoose {
		attribute v : Real := 1.0;
		attribute x : Real := 0.0;
		calc l : Loose { in k = v; }
		first start;
		then assign x := l.z;
		then done;
	}
	action def Initial {
		attribute v : Real := 1.0;
		attribute x : Real := 0.0;
		calc l : Loose { in k := v; }
		first start;
		then assign x := l;
		then done;
	}
	calc def WithAction { in k : Real; attribute z : Real = k; assign z := k; return : Real = z; }
	action def Acting {
		attribute v : Real := 1.0;
		attribute x : Real := 0.0;
		calc a : WithAction { in k = v; }
		first start;
		then assign x := a;
		then done;
	}
}
`)];

  it('reads a calc usage\'s outputs and result on the values of the state they are read in', async () => {
    const a = await ask(d, q('C::Run'));
    // v is 2 when t.d is read: d = 2 * 2 = 4; t is its return r = d + 1 = 5; half's result expression 2 / 2 = 1.
    assert.deepEqual(ends(a, 'doubled'), [4]);
    assert.deepEqual(ends(a, 'res'), [5]);
    assert.deepEqual(ends(a, 'h'), [1]);
    // In the loop, step.d is read after i is incremented: (1 + 2 + 3) * 2 = 12.
    assert.deepEqual(ends(a, 'acc'), [12]);
    assert.deepEqual(ends(a, 'i'), [3]);
  });

  it('refuses reading a calc usage with no result or an unbound feature, a succession after a calc, an initial value, and a calc with an action inside', async () => {
    assert.match(await refusal(d, q('C::NoResult')), /calc\.sysml:\d+:\d+: the calc usage 'n' has no result to read/);
    assert.match(await refusal(d, q('C::Stepped')), /this succession follows a calc usage/);
    assert.match(await refusal(d, q('C::Acting')), /assign inside the calc usage 'a' is not modeled/);
    // A calc's attribute without a binding has no value whenever it is read; an initial value (:=) would be
    // taken when the calculation is performed, which is no moment of the model.
    assert.match(await refusal(d, q('C::ReadsLoose')), /'l\.z' has no value: the calc usage 'l' does not compute it/);
    assert.match(await refusal(d, q('C::Initial')), /an initial value \(':='\) of 'k' in the calc usage 'l' is not modeled/);
  });
});
