// With the standard library loaded, every example, training and validation model of the release
// corpus resolves its names. Models are resolved together with the other models of their group
// (an example folder, all of training, all of validation): they import each other's packages.
import * as assert from 'node:assert/strict';
import * as path from 'path';
import { Workspace } from '../../../src/sysml/names';
import { CORPUS, libraryDocuments, load, sysmlFiles } from './corpus-files';

/** Files allowed to fail, with their unresolved names (none at present). */
const KNOWN: Record<string, string[]> = {};

function groupOf(file: string): string {
  const rel = path.relative(CORPUS, file).split(path.sep);
  return rel[0] === 'examples' ? rel.slice(0, 2).join('/') : rel[0]!;
}

describe('sysml names: release corpus', function () {
  this.timeout(120_000);

  it('resolves every model with the library loaded (failing files listed with their first names)', () => {
    const ws = new Workspace();
    ws.setLibrary(libraryDocuments());
    const groups = new Map<string, string[]>();
    for (const f of ['examples', 'training', 'validation'].flatMap((d) => sysmlFiles(path.join(CORPUS, d)))) {
      groups.set(groupOf(f), [...(groups.get(groupOf(f)) ?? []), f]);
    }
    let files = 0;
    const failing: Record<string, string[]> = {};
    for (const members of groups.values()) {
      for (const f of members) ws.update(f, load(f).document);
      for (const f of members) {
        files++;
        const names = ws.diagnostics(f).map((d) => d.message.replace(/^unresolved reference '(.*)'$/, '$1'));
        if (names.length > 0) failing[path.relative(CORPUS, f).split(path.sep).join('/')] = names.slice(0, 5);
      }
      for (const f of members) ws.remove(f);
    }
    assert.equal(files, 251);
    assert.deepEqual(failing, KNOWN);
  });

  it('resolves the library itself completely', () => {
    const ws = new Workspace();
    const docs = libraryDocuments();
    for (const d of docs) ws.update(d.uri, d.document);
    const unresolved = docs.flatMap((d) => ws.diagnostics(d.uri).map((x) => `${path.basename(d.uri)}:${x.range.line} ${x.message}`));
    assert.deepEqual(unresolved, []);
  });
});
