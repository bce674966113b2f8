// Name resolution in the language server: unresolved names as diagnostics, go to definition and
// hover across the workspace's files, re-checking documents that depend on a changed one.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LanguageClient, positionOf, repoRoot, type Hover, type Location, type LocationLink } from './lspClient';

const workspace = join(repoRoot, 'test', 'fixtures', 'server', 'cross');
const droneUri = pathToFileURL(join(workspace, 'drone.sysml')).href;
const powerUri = pathToFileURL(join(workspace, 'power.sysml')).href;
const droneText = readFileSync(join(workspace, 'drone.sysml'), 'utf8');
const powerText = readFileSync(join(workspace, 'power.sysml'), 'utf8');

describe('language server: names across the workspace', function () {
  let client: LanguageClient;

  before(async function () {
    client = await LanguageClient.start({ workspace });
  });

  after(async function () {
    await client?.stop();
  });

  it('resolves names declared in a file no editor has open: no diagnostics for a correct model', async function () {
    await client.open(droneUri, droneText);
    const diagnostics = await client.diagnostics(droneUri, () => true);
    assert.deepEqual(diagnostics, []);
  });

  it('reports an unresolved name at its exact range as the user types, and clears it once fixed', async function () {
    const broken = droneText.replace('part battery : Battery;', 'part battery : Batery;');
    await client.change(droneUri, broken);
    const [unresolved, ...others] = await client.diagnostics(droneUri, (d) => d.length > 0);
    assert.deepEqual(others, []);
    assert.equal(unresolved!.message, "unresolved reference 'Batery'");
    assert.equal(unresolved!.severity, 1);
    assert.equal(unresolved!.source, 'sysml');
    // drone.sysml:5:24 (1-based), the name only.
    assert.deepEqual(unresolved!.range, { start: { line: 4, character: 23 }, end: { line: 4, character: 29 } });
    await client.change(droneUri, droneText);
    await client.diagnostics(droneUri, (d) => d.length === 0);
  });

  it('goes to the definition of a name declared in another file', async function () {
    const locations = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri: droneUri }, position: positionOf(droneText, ': Battery', 4),
    });
    assert.equal(locations.length, 1, JSON.stringify(locations));
    assert.equal(locations[0]!.uri, powerUri);
    const name = positionOf(powerText, 'Battery');
    assert.deepEqual(locations[0]!.range, { start: name, end: { line: name.line, character: name.character + 'Battery'.length } });
    // Within one file: the usage's type, then the performed action's definition.
    const drone = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri: droneUri }, position: positionOf(droneText, 'part drone : Drone', 15),
    });
    assert.deepEqual(drone.map((l) => [l.uri, l.range.start]), [[droneUri, positionOf(droneText, 'Drone {', 0, 2)]]);
    // A keyword is no name.
    const none = await client.request<Location[] | null>('textDocument/definition', {
      textDocument: { uri: droneUri }, position: positionOf(droneText, 'part drone', 1),
    });
    assert.deepEqual(none ?? [], []);
  });

  it('answers a client that takes links with the whole reference and the whole declaration', async function () {
    const linking = await LanguageClient.start({ workspace, definitionLinks: true });
    try {
      await linking.open(droneUri, droneText);
      const links = await linking.request<LocationLink[]>('textDocument/definition', {
        textDocument: { uri: droneUri }, position: positionOf(droneText, 'Power::*', 2),
      });
      // `private import Power::*;`: the link starts at the package name; the target is the whole package.
      assert.equal(links.length, 1, JSON.stringify(links));
      assert.equal(links[0]!.targetUri, powerUri);
      assert.deepEqual(links[0]!.originSelectionRange?.start, positionOf(droneText, 'Power::*'));
      assert.deepEqual(links[0]!.targetSelectionRange.start, positionOf(powerText, 'Power'));
      assert.deepEqual(links[0]!.targetRange.start, { line: 0, character: 0 });
      assert.equal(links[0]!.targetRange.end.line, powerText.trimEnd().split('\n').length - 1);
      const battery = await linking.request<LocationLink[]>('textDocument/definition', {
        textDocument: { uri: droneUri }, position: positionOf(droneText, ': Battery', 4),
      });
      const start = positionOf(droneText, ': Battery', 2);
      assert.deepEqual(battery[0]!.originSelectionRange, { start, end: { line: start.line, character: start.character + 'Battery'.length } });
      assert.deepEqual(battery[0]!.targetRange.start, positionOf(powerText, 'part def Battery'));
    } finally {
      await linking.stop();
    }
  });

  it('hovers a reference with what it denotes: kind, qualified name, documentation', async function () {
    const hover = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: droneUri }, position: positionOf(droneText, ': Battery', 5),
    });
    assert.ok(hover, 'no hover on the reference Battery');
    assert.match(hover.contents.value, /```sysml\npart def Power::Battery\n```/);
    assert.match(hover.contents.value, /Stores the charge the drone flies on\./);
    assert.deepEqual(hover.range?.start, positionOf(droneText, ': Battery', 2));
    const real = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: droneUri }, position: positionOf(droneText, 'ScalarValues::Real', 16),
    });
    assert.match(real!.contents.value, /ScalarValues::Real/);
    assert.match(real!.contents.value, /Standard library \(built-in names, 2026-04\)/);
  });

  it('re-checks an open document when a file it depends on changes', async function () {
    await client.open(powerUri, powerText);
    await client.diagnostics(powerUri, (d) => d.length === 0);
    const before = client.published.length;
    await client.change(powerUri, powerText.replace('part def Battery', 'part def Cell'));
    const diagnostics = await client.diagnostics(droneUri, (d) => d.length > 0);
    assert.ok(client.published.slice(before).some((p) => p.uri === droneUri), 'drone.sysml was not re-checked');
    assert.deepEqual(diagnostics.map((d) => [d.message, d.range.start.line]), [["unresolved reference 'Battery'", 4]]);
    await client.change(powerUri, powerText);
    await client.diagnostics(droneUri, (d) => d.length === 0);
  });

  it('uses the file on disk again once the editor closes it without saving', async function () {
    await client.change(powerUri, powerText.replace('part def Battery', 'part def Cell'));
    await client.diagnostics(droneUri, (d) => d.length > 0);
    await client.close(powerUri);
    await client.diagnostics(powerUri, (d) => d.length === 0);
    await client.diagnostics(droneUri, (d) => d.length === 0);
    const locations = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri: droneUri }, position: positionOf(droneText, ': Battery', 4),
    });
    assert.deepEqual(locations.map((l) => l.uri), [powerUri]);
  });

  it('shows the problems of closed workspace files, and re-checks them when an open file they use changes', async function () {
    const other = await LanguageClient.start({ workspace });
    try {
      // Both files are checked at start, though neither is open.
      await other.diagnostics(droneUri, (d) => d.length === 0);
      await other.diagnostics(powerUri, (d) => d.length === 0);
      await other.open(powerUri, powerText);
      await other.change(powerUri, powerText.replace('part def Battery', 'part def Cell'));
      const [unresolved, ...rest] = await other.diagnostics(droneUri, (d) => d.length > 0);
      assert.deepEqual(rest, []);
      assert.equal(unresolved!.message, "unresolved reference 'Battery'");
      assert.deepEqual(unresolved!.range.start, positionOf(droneText, 'Battery'));
      await other.change(powerUri, powerText);
      await other.diagnostics(droneUri, (d) => d.length === 0);
    } finally {
      await other.stop();
    }
  });

  it('follows model files created and deleted outside the editor (file events)', async function () {
    const folder = mkdtempSync(join(tmpdir(), 'assay-ls-files-'));
    const other = await LanguageClient.start({ workspace: folder });
    try {
      const uri = pathToFileURL(join(folder, 'site.sysml')).href;
      await other.open(uri, 'package Site {\n    part pad : Pads::Pad;\n}\n');
      const [missing] = await other.diagnostics(uri, (d) => d.length > 0);
      assert.equal(missing!.message, "unresolved reference 'Pads::Pad'");
      const created = join(folder, 'pads.sysml');
      writeFileSync(created, 'package Pads {\n    part def Pad;\n}\n');
      await other.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(created).href, type: 1 }] });
      await other.diagnostics(uri, (d) => d.length === 0);
      // The new file is checked too; a broken one shows its problem without being opened.
      await other.diagnostics(pathToFileURL(created).href, (d) => d.length === 0);
      writeFileSync(created, 'package Pads {\n    part def Pad :> Missing;\n}\n');
      await other.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(created).href, type: 2 }] });
      const [missingBase] = await other.diagnostics(pathToFileURL(created).href, (d) => d.length > 0);
      assert.equal(missingBase!.message, "unresolved reference 'Missing'");
      unlinkSync(created);
      await other.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(created).href, type: 3 }] });
      await other.diagnostics(uri, (d) => d.length === 1);
      await other.diagnostics(pathToFileURL(created).href, (d) => d.length === 0);
    } finally {
      await other.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
