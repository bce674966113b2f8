// dist/server.js runs the language server's bundle with the V8 code cache the build made for it
// (dist/server-main.cache, made under the editor's V8 flags). What the editor shows must not depend on
// that cache: the same diagnostics with it, without it, and with a cache made for another bundle.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfMissing, distCopy } from '../cli/built';
import { LanguageClient, repoRoot, type Diagnostic } from './lspClient';

const DIST = join(repoRoot, 'dist');

const USES = `package Rig {
  private import ScalarValues::*;
  public import Tank::*;
  part rig : Vessel { attribute :>> full = true; attribute level : Real = missing; attribute n : Natural = 3; }
}
`;
const TANK = `package Tank {
  private import SI::*;
  part def Vessel { attribute volume : ISQ::VolumeValue = 2 [m^3]; attribute full : ScalarValues::Boolean; }
}
`;

describe('language server: the code cache of dist/server.js', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'assay-server-cache-'));
  const workspace = join(dir, 'workspace');
  const copy = join(dir, 'dist');

  before(() => {
    buildIfMissing('server.js', 'server-main.js', 'server-main.cache');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'rig.sysml'), USES);
    writeFileSync(join(workspace, 'tank.sysml'), TANK);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function diagnosticsWith(server: string): Promise<Diagnostic[]> {
    // Only the build's cache (or none): the server's own caches are the CLI test's subject.
    const before = process.env.ASSAY_CODE_CACHE_DIR;
    process.env.ASSAY_CODE_CACHE_DIR = 'off';
    const client = await LanguageClient.start({ workspace, server }).finally(() => {
      if (before === undefined) delete process.env.ASSAY_CODE_CACHE_DIR;
      else process.env.ASSAY_CODE_CACHE_DIR = before;
    });
    try {
      const uri = pathToFileURL(join(workspace, 'rig.sysml')).href;
      await client.open(uri, USES);
      // The complete set: the names resolved against tank.sysml and the built-in library.
      return await client.diagnostics(uri, (d) => d.some((x) => /missing/.test(x.message)));
    } finally {
      await client.stop();
    }
  }

  it('publishes the same diagnostics with the cache, without it, with a stale one and with garbage', async () => {
    const built = await diagnosticsWith(join(DIST, 'server.js'));
    assert.deepEqual(built.map((d) => [d.range.start.line, d.range.start.character, d.message]), [[3, 74, "unresolved reference 'missing'"]]);

    assert.deepEqual(await diagnosticsWith(distCopy(copy, 'server', null)), built);
    const cache = readFileSync(join(DIST, 'server-main.cache'));
    assert.deepEqual(await diagnosticsWith(distCopy(copy, 'server', Buffer.concat([Buffer.from('0'.repeat(40), 'latin1'), cache.subarray(40)]))), built);
    assert.deepEqual(await diagnosticsWith(distCopy(copy, 'server', Buffer.concat([cache.subarray(0, 40), Buffer.from('not a code cache')]))), built);
  });
});
