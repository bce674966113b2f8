// A large document: its syntax errors may be published before its names are resolved again, with the
// earlier name diagnostics carried over the edit; every publish must put them where the text now is.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LanguageClient, repoRoot } from './lspClient';

const annexA = join(repoRoot, '..', 'shared', 'corpus', 'sysml-release-2026-04', 'examples', 'Vehicle Example',
  'SysML v2 Spec Annex A SimpleVehicleModel.sysml');

describe('language server: a large document (7 × the Annex A vehicle model)', function () {
  let client: LanguageClient;
  let folder: string;
  let uri: string;
  let text: string;

  before(async function () {
    assert.ok(existsSync(annexA), `the SysML corpus is missing: ${annexA}`);
    const annex = readFileSync(annexA, 'utf8');
    // One unresolved name near the top of the first copy.
    text = Array.from({ length: 7 }, (_, i) => annex.replace('package SimpleVehicleModel{', `package SimpleVehicleModel${i}{`))
      .join('\n').replace('package SimpleVehicleModel0{', 'package SimpleVehicleModel0{\n    part extra : Nowhere;');
    folder = mkdtempSync(join(tmpdir(), 'assay-ls-large-'));
    uri = pathToFileURL(join(folder, 'large.sysml')).href;
    client = await LanguageClient.start({ workspace: folder });
  });

  after(async function () {
    await client?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('every publish after an edit shows the unresolved name where the text now has it, and a new one once resolved', async function () {
    await client.open(uri, text);
    const opened = await client.diagnostics(uri, (d) => d.length > 0, 60_000);
    assert.deepEqual(opened.map((d) => [d.message, d.range.start.line, d.range.start.character]), [["unresolved reference 'Nowhere'", 1, 17]]);
    // Several edits: a line at the top (moves the name down), then a new unresolved name at the end.
    let edited = `// a note\n${text}`;
    await client.change(uri, edited);
    await client.diagnostics(uri, (d) => d.some((x) => x.range.start.line === 2), 60_000);
    edited += '\npart late : Elsewhere;\n';
    await client.change(uri, edited);
    const final = await client.diagnostics(uri, (d) => d.length === 2, 60_000);
    const lastLine = edited.split('\n').length - 2;
    assert.deepEqual(final.map((d) => [d.message, d.range.start.line]), [["unresolved reference 'Nowhere'", 2], ["unresolved reference 'Elsewhere'", lastLine]]);
    // Whatever was published in between (syntax first, or all at once) never had the name elsewhere.
    for (const publish of client.published.filter((p) => p.uri === uri)) {
      const nowhere = publish.diagnostics.filter((d) => d.message.includes('Nowhere'));
      assert.equal(nowhere.length, 1, JSON.stringify(publish));
      assert.equal(nowhere[0]!.range.start.line, publish.version === 1 ? 1 : 2, `version ${publish.version}: ${JSON.stringify(nowhere)}`);
    }
  });
});
