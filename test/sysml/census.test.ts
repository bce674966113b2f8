import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { censusMarkdown, takeCensus } from '../../scripts/census-table';
import { CONSTRUCTS, EXPRESSIONS, unmodeled } from '../../src/sysml/support';
import { parse } from '../../src/sysml';

const root = resolve(__dirname, '../..');

describe('construct census (soundness: every construct is modeled, inert for a reason, or refused)', function () {
  this.timeout(120_000);
  const census = takeCensus(root);

  it('every construct in the corpus and the conformance cases is classified for every evaluation layer', () => {
    assert.ok(census.files > 300, `read ${census.files} model files`);
    assert.deepEqual(census.unknown, [], `constructs nobody classified: ${census.unknown.join(', ')}`);
  });

  it('docs/census.md is the table the models give (npm run census writes it)', () => {
    const docs = readFileSync(resolve(root, 'docs/census.md'), 'utf8');
    assert.equal(docs, censusMarkdown(census), 'docs/census.md is stale: run npm run census');
  });

  it('every classification names what it is and why', () => {
    for (const [key, info] of [...Object.entries(CONSTRUCTS), ...Object.entries(EXPRESSIONS)]) {
      assert.ok(info.what.length > 0 && info.note.length > 0, key);
    }
  });

  it('a refused construct is reported with its place; an unknown one too', () => {
    const text = 'package P { part p { snapshot attribute s = 1; variation attribute v; attribute ok = 1; } }';
    const p = (parse(text).document.members[0] as { members: unknown[] }).members[0] as { body: Parameters<typeof unmodeled>[0][] };
    const [snap, variation, ok] = p.body;
    assert.deepEqual({ ...unmodeled(snap!, 'values'), range: undefined }, { key: 'portion:snapshot', what: 'a snapshot', range: undefined, note: CONSTRUCTS['portion:snapshot']!.note });
    assert.equal(unmodeled(snap!, 'values')!.range.column, 22);
    // A variation point is read for its selected variant, not in a calc body.
    assert.equal(unmodeled(variation!, 'values'), undefined);
    assert.equal(unmodeled(variation!, 'calc')?.key, 'variation');
    assert.equal(unmodeled(ok!, 'values'), undefined);
  });
});
