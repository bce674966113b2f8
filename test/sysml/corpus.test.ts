import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, languageOfPath } from '../../src/sysml';

// The official SysML v2 release tree (library, examples, training, validation), read in place.
const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'sysml-release-2026-04');

function modelFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) modelFiles(path, out);
    else if (name.endsWith('.sysml') || name.endsWith('.kerml')) out.push(path);
  }
  return out;
}

describe('SysML v2 release corpus', () => {
  it('parses every .sysml and .kerml file with 0 syntax errors, and finds no OpenSysML notation in it', function () {
    this.timeout(120_000);
    assert.ok(existsSync(CORPUS), `corpus not found at ${CORPUS}`);
    const files = modelFiles(CORPUS);
    const library = files.filter((f) => relative(CORPUS, f).startsWith('library'));
    assert.equal(files.length, 345, 'the release holds 345 model files');
    assert.equal(library.length, 94, 'the release library holds 94 files');
    const failures: string[] = [];
    let lines = 0;
    for (const file of files) {
      const result = parse(readFileSync(file, 'utf8'), { language: languageOfPath(file) });
      lines += result.lineCount;
      if (result.errors.length > 0) {
        const first = result.errors
          .slice(0, 3)
          .map((e) => `    ${e.range.line}:${e.range.column}: ${e.message}`)
          .join('\n');
        failures.push(`${relative(CORPUS, file)} (${result.errors.length} errors)\n${first}`);
      }
      // The release is SysML v2 throughout: a nonstandard-notation warning here would be a misreading.
      for (const w of result.warnings) failures.push(`${relative(CORPUS, file)}:${w.range.line}:${w.range.column}: ${w.message}`);
    }
    assert.ok(lines > 40_000, `expected the whole corpus (~43k lines), read ${lines}`);
    assert.equal(failures.length, 0, `files with syntax errors:\n${failures.join('\n')}`);
  });

  it('builds declarations for the library files (not just an empty tree)', () => {
    const file = join(CORPUS, 'library', 'Systems Library', 'Actions.sysml');
    const result = parse(readFileSync(file, 'utf8'), { language: 'sysml' });
    const pkg = result.document.members.find((m) => m.kind === 'Package');
    assert.ok(pkg && pkg.kind === 'Package' && pkg.name === 'Actions' && pkg.isStandard && pkg.isLibrary);
    const names = (pkg.members ?? []).flatMap((m) => ('name' in m && m.name ? [m.name] : []));
    for (const expected of ['Action', 'DecisionAction', 'ForLoopAction', 'actions']) {
      assert.ok(names.includes(expected), `Actions.sysml declares ${expected}; got ${names.join(', ')}`);
    }
  });
});
