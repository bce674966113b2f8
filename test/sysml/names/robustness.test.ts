// Broken models (what an editor holds while the user types) give diagnostics, never exceptions.
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from '../../../src/sysml';
import { lowerToGraphs } from '../../../src/sysml/lower';
import { Workspace } from '../../../src/sysml/names';
import { CORPUS } from './corpus-files';

const FILES = [
  'training/17. Control/Decision Example.sysml',
  'training/25. Transitions/Transition Actions.sysml',
  'examples/Simple Tests/FeaturePathTest.sysml',
  'validation/05-State-based Behavior/5-State-based Behavior-1.sysml',
];

/** Deterministic pseudo-random positions (a small LCG) so that failures reproduce. */
function positions(seed: number, count: number, max: number): number[] {
  let x = seed;
  return Array.from({ length: count }, () => { x = (x * 1103515245 + 12345) % 2147483648; return x % max; });
}

describe('sysml names: robustness', () => {
  it('resolves and lowers truncated and spliced corpus models without throwing', function () {
    this.timeout(60_000);
    const ws = new Workspace();
    let cases = 0;
    for (const rel of FILES) {
      const text = fs.readFileSync(path.join(CORPUS, rel), 'utf8');
      for (const at of positions(rel.length, 25, text.length)) {
        for (const variant of [text.slice(0, at), text.slice(0, at) + text.slice(Math.min(text.length, at + 40)), text.slice(at) + text.slice(0, at)]) {
          ws.update('broken.sysml', parse(variant).document);
          const diagnostics = ws.diagnostics('broken.sysml');
          for (const d of diagnostics) assert.match(d.message, /^unresolved reference '.*'$/s);
          for (const decl of ws.declarationsIn('broken.sysml')) {
            if (decl.kind === 'action' || decl.kind === 'state') lowerToGraphs(ws, decl.qualifiedName, { textOf: () => variant });
          }
          ws.lookupAt('broken.sysml', at);
          cases++;
        }
      }
    }
    assert.equal(cases, FILES.length * 25 * 3);
  });
});
