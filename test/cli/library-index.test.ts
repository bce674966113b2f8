// `assay parse --library` keeps an index of the library folder in the user's cache folder (src/cli/
// library-index.ts) and then parses only the library files a lookup reaches. What a user observes must
// not depend on it: the same output and exit code without an index, with one, with a stale one (a
// library file changed since), a corrupt one, one another build made, and for a library with syntax
// errors (which are reported on every run: no index is made for it). Real processes (dist/cli.js).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfMissing, distCopy } from './built';

const DIST = join(__dirname, '..', '..', 'dist');

const LIBRARY: Record<string, string> = {
  'Base.kerml': 'standard library package Base {\n  abstract classifier Anything;\n  feature things : Anything;\n}\n',
  'Quantities.sysml': 'standard library package Quantities {\n  attribute def ScalarQuantityValue;\n  attribute def MassValue :> ScalarQuantityValue;\n}\n',
  'Units.sysml': 'standard library package Units {\n  public import Quantities::*;\n  attribute def MassUnit;\n}\n',
  'sub/Unused.sysml': 'standard library package Unused {\n  part def Never;\n}\n',
  'sub/Short.sysml': 'standard library package <S> Shorts {\n  part def Tiny;\n}\n',
};

const MODEL = `package Rocket {
  private import Units::*;
  part def Stage { attribute mass : MassValue; attribute unit : MassUnit; attribute oops : NoSuchValue; }
  part s : S::Tiny;
  part t : Shorts::Tiny;
}
`;

interface Run { code: number | null; stdout: string; stderr: string }

describe('cli: the library index of assay parse --library', function () {
  this.timeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'assay-library-index-'));
  const library = join(dir, 'library');
  const model = join(dir, 'rocket.sysml');
  const cache = join(dir, 'cache');

  const run = (cli: string, lib: string, env: Record<string, string>, extra: string[]): Run => {
    const r = spawnSync(process.execPath, [cli, 'parse', model, '--library', lib, ...extra], {
      encoding: 'utf8', timeout: 60_000, env: { ...process.env, ASSAY_WRITE_LIBRARY_INDEX: '', ...env },
    });
    return { code: r.status, stdout: r.stdout.replace(/, [\d.]+ s\n$/, '\n').replace(/"seconds":[\d.e-]+/, '"seconds":0'), stderr: r.stderr };
  };
  const parse = (caches: string, ...extra: string[]): Run => run(join(DIST, 'cli.js'), library, { ASSAY_CODE_CACHE_DIR: caches }, extra);
  const indexFiles = (): string[] => readdirSync(cache).filter((f) => f.startsWith('library-index-') && f.endsWith('.json'));
  const writeLibrary = (files: Record<string, string>): void => {
    rmSync(library, { recursive: true, force: true });
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(library, name, '..'), { recursive: true });
      writeFileSync(join(library, name), text);
    }
  };

  before(() => {
    buildIfMissing('cli.js', 'cli-main.js', 'cli-main.cache');
    writeFileSync(model, MODEL);
  });
  beforeEach(() => {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache);
    writeLibrary(LIBRARY);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the same output with the index as without, in text and JSON', () => {
    const without = parse('off');
    assert.equal(without.code, 1, without.stdout + without.stderr);
    assert.match(without.stdout, /rocket\.sysml:3:\d+: unresolved reference 'NoSuchValue'\n/);
    assert.match(without.stdout, /1 files \(\+5 library\), 24 lines, 0 syntax errors, 1 unresolved references\n$/);
    const withoutJson = parse('off', '--json');

    assert.deepEqual(parse(cache), without); // makes the index
    assert.equal(indexFiles().length, 1);
    assert.deepEqual(parse(cache), without); // takes it
    assert.deepEqual(parse(cache, '--json'), withoutJson);
  });

  it('ignores an index once a library file changed, and sees the change', () => {
    parse(cache);
    assert.equal(indexFiles().length, 1);
    // MassUnit leaves Units, NoSuchValue comes into Quantities: the model's unresolved reference changes.
    writeLibrary({
      ...LIBRARY,
      'Units.sysml': 'standard library package Units {\n  public import Quantities::*;\n}\n',
      'Quantities.sysml': LIBRARY['Quantities.sysml']!.replace('}\n', '  attribute def NoSuchValue;\n}\n'),
    });
    const changed = parse(cache);
    assert.deepEqual(changed, parse('off'));
    assert.match(changed.stdout, /unresolved reference 'MassUnit'\n/);
    assert.doesNotMatch(changed.stdout, /NoSuchValue/);
    // A file added to the library is seen too.
    writeFileSync(join(library, 'More.sysml'), 'standard library package More { part def Extra; }\n');
    assert.deepEqual(parse(cache), parse('off'));
  });

  it('ignores a corrupt index, a truncated one and one made by another build', () => {
    const without = parse('off');
    parse(cache);
    const [name] = indexFiles();
    const file = join(cache, name!);
    const made = readFileSync(file, 'utf8');
    for (const bad of [
      'not json at all',
      made.slice(0, made.length >> 1),
      '{"format":"assay-library-index-1","build":"x","files":[]}',
      made.replace(/"build":"[0-9a-f]+"/, `"build":"${'0'.repeat(40)}"`),
      made.replace(/"lineCount":\d+/, '"lineCount":"many"'),
      'null',
    ]) {
      writeFileSync(file, bad);
      assert.deepEqual(parse(cache), without, bad.slice(0, 60));
      writeFileSync(file, bad); // the run may have replaced it: corrupt it again for the JSON run
      assert.deepEqual(parse(cache, '--json'), parse('off', '--json'), bad.slice(0, 60));
    }
  });

  it('takes the build\'s index (dist/library-index.json) for a copy of its library anywhere, and ignores a changed one', () => {
    const copy = join(dir, 'dist');
    const cli = distCopy(copy, 'cli', readFileSync(join(DIST, 'cli-main.cache')));
    const built = join(copy, 'library-index.json');
    // What the build does for the standard library, here for this one.
    run(cli, library, { ASSAY_CODE_CACHE_DIR: 'off', ASSAY_WRITE_LIBRARY_INDEX: built }, []);
    assert.ok(readFileSync(built, 'utf8').startsWith('{"format":'));
    const elsewhere = join(dir, 'elsewhere', 'lib');
    rmSync(elsewhere, { recursive: true, force: true });
    cpSync(library, elsewhere, { recursive: true });
    const without = run(join(DIST, 'cli.js'), elsewhere, { ASSAY_CODE_CACHE_DIR: 'off' }, []);
    assert.deepEqual(run(cli, elsewhere, { ASSAY_CODE_CACHE_DIR: cache }, []), without);
    assert.deepEqual(indexFiles(), [], 'the build\'s index was taken: no index of the user\'s made');
    writeFileSync(built, readFileSync(built, 'utf8').replace(/"text":"standard/, '"text":"changed'));
    assert.deepEqual(run(cli, elsewhere, { ASSAY_CODE_CACHE_DIR: cache }, []), without);
    assert.equal(indexFiles().length, 1, 'the build\'s index no longer matches: the user\'s is made');
  });

  it('reports a library file\'s syntax errors on every run: no index is made for such a library', () => {
    writeLibrary({ ...LIBRARY, 'Broken.sysml': 'standard library package Broken {\n  part def X :> ;\n}\n' });
    const without = parse('off');
    assert.equal(without.code, 1);
    assert.match(without.stdout, /Broken\.sysml:2:\d+: /);
    assert.deepEqual(parse(cache), without);
    assert.deepEqual(indexFiles(), []);
    assert.deepEqual(parse(cache), without);
  });
});
