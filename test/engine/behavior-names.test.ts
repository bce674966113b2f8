// Names in behaviour models resolve through the project's name resolver (src/sysml/names), through
// the real engine process: imports are followed, not guessed by simple name.
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

describe('reference engine process: names in behaviour models', function () {
  this.timeout(30000);
  let engine: EngineProcess;
  before(() => {
    engine = new EngineProcess();
  });
  after(async () => {
    await engine.close();
  });

  const model = (text: string) => ({ sources: { library: '2026-04', documents: [{ path: 'model.sysml', text }] } });

  it('follows an import to the enumeration it names', async () => {
    const r = await engine.request(1, 'run', runParams(question('outcomes', 'Lamp::Switch', { schedule: 'all' }), model(COLORS)));
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.equal(r.result?.claim, 'outcomes');
    assert.deepEqual(valuesOf(r.result), { 'end@1': 'done', 'c@1': 'Color::green' });
  });

  it('follows an alias and a re-exporting import to a definition another behaviour specializes', async () => {
    const r = await engine.request(2, 'run', runParams(question('outcomes', 'Uses::Twice', { schedule: 'all' }), model(ALIASED)));
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.equal(r.result?.claim, 'outcomes');
    assert.equal(valuesOf(r.result)['n@1'], 2);
  });
});
