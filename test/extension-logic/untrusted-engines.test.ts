// An untrusted workspace must not get its files run by a user's engine entry: `node engine.js` with a
// relative path used to start in the workspace folder and run the workspace's engine.js. Real engine
// processes started from the resolved entries.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveEngineSettings } from '../../src/extension/ask/askSettings';
import { EngineProcess } from '../../src/host/engine-process';
import { FIXTURES } from '../host/fixture-engines';

describe('engine settings in an untrusted workspace (real processes)', function () {
  this.timeout(30_000);
  const workspace = mkdtempSync(join(tmpdir(), 'assay-untrusted-ws-'));
  const neutral = mkdtempSync(join(tmpdir(), 'assay-neutral-'));
  const marker = join(workspace, 'ran');
  // The workspace's own engine.js: a working engine that also leaves a mark that it ran.
  writeFileSync(join(workspace, 'engine.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nprocess.env.FIXTURE_NAME = 'mine';\nrequire(${JSON.stringify(join(FIXTURES, 'well-behaved.js'))});\n`);
  const userEntry = { name: 'mine', command: process.execPath, args: ['engine.js'] };

  it("a user's entry with a relative args path starts in a neutral directory, so the workspace's engine.js does not run", async () => {
    const s = resolveEngineSettings({ trusted: false, folder: workspace, neutralDir: neutral, levels: [{ origin: 'user', entries: [userEntry] }] });
    assert.deepEqual(s.entries.map((e) => [e.name, e.cwd]), [['mine', neutral]]);
    const engine = new EngineProcess(s.entries[0]!, { startTimeoutMs: 10_000 });
    await assert.rejects(engine.start(), /engine "mine" exited with code 1 before answering describe/);
    assert.equal(existsSync(marker), false, "the workspace's engine.js ran");
  });

  it('in a trusted workspace the same entry starts in the folder, as before', async () => {
    const s = resolveEngineSettings({ trusted: true, folder: workspace, neutralDir: neutral, levels: [{ origin: 'user', entries: [userEntry] }] });
    assert.deepEqual(s.entries.map((e) => [e.name, e.cwd]), [['mine', workspace]]);
    const engine = new EngineProcess(s.entries[0]!, { startTimeoutMs: 10_000 });
    try {
      const capabilities = await engine.start();
      assert.equal(capabilities.name, 'mine');
      assert.equal(existsSync(marker), true);
    } finally {
      await engine.shutdown();
    }
  });
});
