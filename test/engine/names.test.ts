// Names resolve through the project's name resolver (src/sysml/names), asked of the real engine
// process: imports are followed (not guessed by simple name) and a private member is not imported.
import assert from 'node:assert/strict';
import { EngineProcess, question, runParams, valuesOf } from './engine-process';

// Two enumerations named Color; the lamp imports the one from Signals. A lookup by simple name
// found Palette's first (declared first) and refused `Color::green`.
const COLORS = `package Palette {
	enum def Color { enum red; enum blue; }
}
package Signals {
	enum def Color { enum red; enum green; }
}
package Lamp {
	private import Signals::*;
	action def Switch {
		attribute c : Color := Color::red;
		first start;
		then turn;
		action turn { assign c := Color::green; }
		then done;
	}
}
`;

// A subject reached through an alias and a nested package, with its type in another package.
const ALIASED = `package Parts {
	public import Inner::*;
	package Inner {
		action def Count {
			attribute n : ScalarValues::Integer := 0;
			first start;
			then up;
			action up { assign n := n + 2; }
			then done;
		}
	}
}
package Uses {
	private import Parts::*;
	alias Counter for Count;
	action def Twice :> Counter;
}
`;

// Both packages have a `k`; Draft's is private, so the import brings in only Released's.
const VISIBILITY = `package Draft {
	private attribute k = 1;
}
package Released {
	attribute k = 2;
}
package Use {
	private import Draft::*;
	private import Released::*;
	attribute v = k * 10;
}
`;

describe('reference engine process: names resolved by src/sysml/names', function () {
  this.timeout(30000);
  let engine: EngineProcess;
  before(() => {
    engine = new EngineProcess();
  });
  after(async () => {
    await engine.close();
  });

  const model = (text: string) => ({ sources: { library: '2026-04', documents: [{ path: 'model.sysml', text }] } });

  it('evaluate: a private member of an imported package is not visible through the import', async () => {
    const r = await engine.request(3, 'run', runParams(question('evaluate', 'Use::v'), model(VISIBILITY)));
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.deepEqual(valuesOf(r.result), { v: 20 });
  });

  it('outcomes: follows an import to the enumeration it names', async () => {
    const r = await engine.request(1, 'run', runParams(question('outcomes', 'Lamp::Switch', { schedule: 'all' }), model(COLORS)));
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.equal(r.result?.claim, 'outcomes');
    assert.deepEqual(valuesOf(r.result), { 'end@1': 'done', 'c@1': 'Color::green' });
  });

  it('outcomes: follows an alias and a re-exporting import to a definition another behaviour specializes', async () => {
    const r = await engine.request(2, 'run', runParams(question('outcomes', 'Uses::Twice', { schedule: 'all' }), model(ALIASED)));
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.equal(r.result?.claim, 'outcomes');
    assert.equal(valuesOf(r.result)['n@1'], 2);
  });
});
