// dist/cli.js runs the CLI's bundle with the V8 code cache the build made (dist/cli-main.cache). What a
// user observes must not depend on that cache: the same output and exit code with it, without it, and
// with a cache made for another bundle (a stale one after a partial build), which must not be used.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfMissing, distCopy } from './built';

const DIST = join(__dirname, '..', '..', 'dist');

const MODEL = `package Tank {
  private import ScalarValues::*;
  private import SI::*;
  part def Vessel { attribute volume : ISQ::VolumeValue = 2 [m^3]; attribute full : Boolean; }
  part tank : Vessel { attribute :>> full = true; attribute level : Real = missing; }
}
`;

function parseWith(dist: string, model: string, ownCaches = 'off'): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(dist, 'cli.js'), 'parse', model], {
    encoding: 'utf8', timeout: 60_000, env: { ...process.env, ASSAY_CODE_CACHE_DIR: ownCaches },
  });
  // The summary ends with the time taken.
  return { code: r.status, stdout: r.stdout.replace(/, [\d.]+ s\n$/, '\n'), stderr: r.stderr };
}

describe('cli: the code cache of dist/cli.js', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'assay-code-cache-'));
  const model = join(dir, 'tank.sysml');
  const copy = join(dir, 'dist');

  before(() => {
    buildIfMissing('cli.js', 'cli-main.js', 'cli-main.cache');
    writeFileSync(model, MODEL);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the same diagnostics and exit code with the cache, without it and with a stale one', () => {
    const built = parseWith(DIST, model);
    assert.equal(built.code, 1, built.stdout + built.stderr);
    assert.match(built.stdout, /tank\.sysml:5:\d+: unresolved reference 'missing'/);
    assert.match(built.stdout, /1 files, 6 lines, 0 syntax errors, 1 unresolved references\n$/);
    assert.equal(built.stderr, '');

    distCopy(copy, 'cli', null);
    assert.deepEqual(parseWith(copy, model), built);

    // A cache whose key names another bundle, with another bundle's compiled code in it.
    const cache = readFileSync(join(DIST, 'cli-main.cache'));
    const stale = Buffer.concat([Buffer.from('0'.repeat(40), 'latin1'), cache.subarray(40)]);
    distCopy(copy, 'cli', stale);
    assert.deepEqual(parseWith(copy, model), built);

    // Garbage where the cache should be.
    const key = cache.subarray(0, 40);
    distCopy(copy, 'cli', Buffer.concat([key, Buffer.from('not a code cache')]));
    assert.deepEqual(parseWith(copy, model), built);
  });

  it('runs bundles written in ASCII only, and the escaped characters still mean what they did', () => {
    // One non-ASCII character (a `…` in a comment, a `°` in a regular expression) makes V8 hold the
    // whole bundle as a two-byte string: twice the bytes to read, copy and wrap at every start.
    buildIfMissing('server-main.js');
    for (const bundle of ['cli-main.js', 'server-main.js']) {
      const text = readFileSync(join(DIST, bundle), 'utf8');
      const at = text.search(/[^\x00-\x7f]/);
      assert.equal(at, -1, `${bundle}: non-ASCII at ${at}: ${text.slice(at - 40, at + 10)}`);
    }
    // Names with non-ASCII letters, in a name and in a string, come out as written.
    const named = join(dir, 'named.sysml');
    writeFileSync(named, "package Wärme { part def 'Kessel°'; part k : 'Kessel°'; part m : Größe; doc /* …℃ */ }\n");
    const r = parseWith(DIST, named);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /named\.sysml:1:\d+: unresolved reference ''Größe''\n1 files, 1 lines, 0 syntax errors, 1 unresolved references\n$/);
  });

  it("makes its own cache when V8 rejects the build's (another Node, other flags), and gives the same answers with it", () => {
    const built = parseWith(DIST, model);
    const key = readFileSync(join(DIST, 'cli-main.cache')).subarray(0, 40);
    distCopy(copy, 'cli', Buffer.concat([key, Buffer.from('not a code cache')]));
    const own = join(dir, 'own-caches');
    assert.deepEqual(parseWith(copy, model, own), built);
    const made = readdirSync(own);
    assert.equal(made.length, 1, `one cache in ${own}: ${made.join(', ')}`);
    assert.match(made[0]!, new RegExp(`^cli-${key.toString('latin1').slice(0, 12)}-${process.version.replace(/\./g, '\\.')}-[0-9a-f]+\\.cache$`));
    const bytes = readFileSync(join(own, made[0]!));
    assert.equal(bytes.subarray(0, 40).toString('latin1'), key.toString('latin1'));
    assert.ok(bytes.length > 100_000, `${bytes.length} bytes of compiled code`);
    // The next process takes that cache (and so makes no other); a garbage one is rejected and remade.
    const first = statSync(join(own, made[0]!)).mtimeMs;
    assert.deepEqual(parseWith(copy, model, own), built);
    assert.deepEqual([readdirSync(own), statSync(join(own, made[0]!)).mtimeMs], [made, first]);
    writeFileSync(join(own, made[0]!), Buffer.concat([key, Buffer.from('garbage')]));
    assert.deepEqual(parseWith(copy, model, own), built);
    assert.ok(readFileSync(join(own, made[0]!)).length > 100_000);
  });
});
