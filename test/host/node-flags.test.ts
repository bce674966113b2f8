import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { referenceEngineEntry } from '../../src/host';
import { MODEL_NODE_FLAGS, nodeOptionsWithModelFlags } from '../../src/host/node-flags';

describe('host: V8 flags of the programs that parse models', function () {
  this.timeout(20000);
  it('starts the bundled engine with them in NODE_OPTIONS, after the options already set, and keeps args the program', () => {
    assert.deepEqual(MODEL_NODE_FLAGS, ['--max-semi-space-size=64']);
    assert.equal(nodeOptionsWithModelFlags(undefined), '--max-semi-space-size=64');
    assert.equal(nodeOptionsWithModelFlags('  '), '--max-semi-space-size=64');
    assert.equal(nodeOptionsWithModelFlags('--require x --max-semi-space-size=8'), '--max-semi-space-size=64 --require x --max-semi-space-size=8');
    const entry = referenceEngineEntry('/x/dist');
    assert.deepEqual(entry.args, [join('/x/dist', 'engine.js')]);
    assert.equal(entry.env?.NODE_OPTIONS, nodeOptionsWithModelFlags(process.env.NODE_OPTIONS));
  });

  it('Node takes the flag from NODE_OPTIONS: the young generation grows past its default 32 MiB', () => {
    // Retains ~100 MiB of small objects and reports the largest new space seen.
    const program = `const v8 = require('v8'); const keep = []; let max = 0;
      for (let i = 0; i < 2e6; i++) { keep.push({ a: i, b: null }); if (i % 20000 === 0) max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size); }
      process.stdout.write(String(max / 1048576));`;
    const run = (env: NodeJS.ProcessEnv) => Number(spawnSync(process.execPath, ['-e', program], { env, encoding: 'utf8' }).stdout);
    const plain = run({ ...process.env, NODE_OPTIONS: '' });
    const flagged = run({ ...process.env, NODE_OPTIONS: nodeOptionsWithModelFlags('') });
    assert.ok(plain <= 32, `default new space ${plain} MiB`);
    assert.ok(flagged > 32, `new space with the flags ${flagged} MiB`);
  });
});
