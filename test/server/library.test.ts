// `assay.standardLibraryPath`: read through workspace/configuration, followed on
// didChangeConfiguration; library names resolve into the library's files; a bad value is one error
// message naming the setting, and the built-in names take over.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LanguageClient, positionOf, repoRoot, type Hover, type Location } from './lspClient';

const library = join(repoRoot, '..', 'shared', 'corpus', 'sysml-release-2026-04', 'library');
const scalarValues = join(library, 'Kernel Libraries', 'Kernel Data Type Library', 'ScalarValues.kerml');
const workspace = join(repoRoot, 'test', 'fixtures', 'server', 'cross');
const droneUri = pathToFileURL(join(workspace, 'drone.sysml')).href;
const droneText = readFileSync(join(workspace, 'drone.sysml'), 'utf8');
const onReal = positionOf(droneText, 'ScalarValues::Real', 15);

describe('language server: assay.standardLibraryPath', function () {
  let client: LanguageClient;
  let setting = library;

  before(async function () {
    assert.ok(existsSync(scalarValues), `the SysML corpus is missing: ${scalarValues}`);
    client = await LanguageClient.start({ workspace, settings: (section) => (section === 'assay.standardLibraryPath' ? setting : null) });
    await client.open(droneUri, droneText);
  });

  after(async function () {
    await client?.stop();
  });

  async function definitionOfReal(): Promise<Location[]> {
    return (await client.request<Location[] | null>('textDocument/definition', { textDocument: { uri: droneUri }, position: onReal })) ?? [];
  }

  it('resolves library names into the library folder: go to definition opens the library file', async function () {
    assert.deepEqual(await client.diagnostics(droneUri, () => true), []);
    const locations = await definitionOfReal();
    assert.deepEqual(locations, [{
      uri: pathToFileURL(scalarValues).href,
      range: { start: { line: 17, character: 10 }, end: { line: 17, character: 14 } }, // `\tdatatype Real`
    }]);
    const hover = await client.request<Hover>('textDocument/hover', { textDocument: { uri: droneUri }, position: onReal });
    assert.match(hover.contents.value, /datatype ScalarValues::Real :> Complex/);
    assert.match(hover.contents.value, /Standard library: `ScalarValues\.kerml`/);
  });

  it('checks library names: a name the library does not declare is unresolved', async function () {
    await client.change(droneUri, droneText.replace('ScalarValues::Real', 'ScalarValues::Rea1'));
    const diagnostics = await client.diagnostics(droneUri, (d) => d.length > 0);
    assert.deepEqual(diagnostics.map((d) => [d.message, d.range.start]), [["unresolved reference 'ScalarValues::Rea1'", positionOf(droneText, 'ScalarValues::Real')]]);
    await client.change(droneUri, droneText);
    await client.diagnostics(droneUri, (d) => d.length === 0);
  });

  it('a library file opened from a definition is checked and navigable itself', async function () {
    const uri = pathToFileURL(scalarValues).href;
    const text = readFileSync(scalarValues, 'utf8');
    await client.open(uri, text);
    assert.deepEqual(await client.diagnostics(uri, () => true), []);
    const locations = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri }, position: positionOf(text, 'specializes Complex', 13),
    });
    assert.equal(locations.length, 1);
    assert.equal(locations[0]!.uri, uri);
    assert.equal(locations[0]!.range.start.line, positionOf(text, 'datatype Complex').line);
    await client.close(uri);
  });

  it('names the setting in one error message when the folder does not exist, and falls back to the built-in names', async function () {
    setting = join(repoRoot, 'no-such-library');
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { assay: { standardLibraryPath: setting } } });
    await client.until('an error message', () => client.messages.length > 0);
    assert.equal(client.messages.length, 1);
    assert.equal(client.messages[0]!.type, 1);
    assert.equal(client.messages[0]!.message,
      `assay.standardLibraryPath: '${setting}' does not exist (${setting}); standard library names resolve against the built-in table instead.`);
    // The built-in table knows Real, but not where it is written.
    assert.deepEqual(await definitionOfReal(), []);
    assert.deepEqual(await client.diagnostics(droneUri, () => true), []);
    // The same setting again is not shown again.
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await client.request('textDocument/hover', { textDocument: { uri: droneUri }, position: onReal });
    assert.equal(client.messages.length, 1);
  });

  it('says when the setting names a file or a folder without models', async function () {
    setting = scalarValues;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await client.until('a second message', () => client.messages.length > 1);
    assert.match(client.messages[1]!.message, /^assay\.standardLibraryPath: '.*ScalarValues\.kerml' is not a folder;/);
    setting = join(repoRoot, 'docs');
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await client.until('a third message', () => client.messages.length > 2);
    assert.match(client.messages[2]!.message, /^assay\.standardLibraryPath: '.*docs' holds no \.sysml or \.kerml files;/);
    // A relative path is taken from the workspace folder.
    setting = relative(workspace, library);
    assert.ok(setting.startsWith('..'), setting);
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    assert.equal((await definitionOfReal())[0]?.uri, pathToFileURL(scalarValues).href);
    assert.equal(client.messages.length, 3);
  });

  it("'/' is not walked through the whole disk: one message saying it holds too many folders, and the server answers", async function () {
    this.timeout(60_000);
    const before = client.messages.length;
    setting = '/';
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await client.until('a message about /', () => client.messages.length > before, 50_000);
    assert.match(client.messages[before]!.message, /^assay\.standardLibraryPath: '\/' holds more than 10000 folders, too many for the library folder/);
    await client.request('textDocument/hover', { textDocument: { uri: droneUri }, position: onReal });
    setting = library;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    assert.equal((await definitionOfReal())[0]?.uri, pathToFileURL(scalarValues).href);
  });
});
