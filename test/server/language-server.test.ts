// The language server as a client sees it: dist/server.js over stdio, speaking LSP.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

const root = join(__dirname, '..', '..');
const server = join(root, 'dist', 'server.js');
const workspace = join(root, 'test', 'e2e', 'workspace');

interface Position { line: number; character: number }
interface Range { start: Position; end: Position }
interface DocumentSymbol { name: string; detail?: string; kind: number; range: Range; selectionRange: Range; children?: DocumentSymbol[] }
interface Diagnostic { range: Range; message: string; severity?: number; source?: string; code?: string | number }
interface PublishDiagnostics { uri: string; version?: number; diagnostics: Diagnostic[] }
interface FoldingRange { startLine: number; endLine: number; kind?: string }
interface Hover { contents: { kind: string; value: string } }
interface SymbolInformation { name: string; kind: number; containerName?: string; location: { uri: string; range: Range } }

describe('language server (dist/server.js over stdio)', function () {
  let child: ChildProcess;
  let connection: MessageConnection;
  const published: PublishDiagnostics[] = [];
  let version = 1;

  before(async function () {
    assert.ok(existsSync(server), 'dist/server.js is missing: run npm run build');
    child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnostics) => {
      published.push(params);
    });
    connection.listen();
    const init = await connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
      processId: process.pid, rootUri: null, capabilities: {},
      workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: 'workspace' }],
    });
    assert.ok(init.capabilities.documentSymbolProvider, 'server does not offer document symbols');
    assert.ok(init.capabilities.foldingRangeProvider, 'server does not offer folding ranges');
    await connection.sendNotification('initialized', {});
  });

  after(async function () {
    if (connection) {
      await connection.sendRequest('shutdown').catch(() => undefined);
      await connection.sendNotification('exit').catch(() => undefined);
      connection.dispose();
    }
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => { child.kill('SIGKILL'); resolve(); }, 2000);
        child.once('exit', () => { clearTimeout(timer); resolve(); });
      });
    }
    assert.notEqual(child?.exitCode ?? child?.signalCode, null, 'server still running');
  });

  async function open(uri: string, languageId: string, text: string): Promise<void> {
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: version++, text } });
  }

  async function diagnosticsFor(uri: string, predicate: (d: Diagnostic[]) => boolean, ms = 5000): Promise<Diagnostic[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const latest = [...published].reverse().find((p) => p.uri === uri);
      if (latest && predicate(latest.diagnostics)) return latest.diagnostics;
      if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${uri}; last: ${JSON.stringify(latest?.diagnostics)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('reports a syntax error with its line and range, and clears it once fixed as the user types', async function () {
    const uri = 'file:///work/broken.sysml';
    const text = readFileSync(join(workspace, 'broken.sysml'), 'utf8');
    await open(uri, 'sysml', text);
    const errors = await diagnosticsFor(uri, (d) => d.length > 0);
    const missingSemicolon = errors.find((d) => /expected ';'/.test(d.message));
    assert.ok(missingSemicolon, JSON.stringify(errors));
    // 0-based lines 5-6: `part engine : Engine` lacks its ';', and the next line starts with the token that shows it.
    assert.ok([5, 6].includes(missingSemicolon.range.start.line), JSON.stringify(missingSemicolon.range));
    assert.equal(missingSemicolon.severity, 1);
    assert.equal(missingSemicolon.source, 'sysml');
    // Fix both lines through an incremental edit, as VS Code sends them.
    const fixed = text.replace('part engine : Engine\n        attribute = ;', 'part engine : Engine;\n        attribute torque = 1;');
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: version++ },
      contentChanges: [{ text: fixed }],
    });
    await diagnosticsFor(uri, (d) => d.length === 0);
  });

  it('shows `x = e;` over a declared feature in a loop body as an error over the statement', async function () {
    const uri = 'file:///work/loop.sysml';
    await open(uri, 'sysml', 'calc def Sum {\n  in xs;\n  attribute sum = 0;\n  for x in xs { sum = sum + x; }\n  sum\n}\n');
    const errors = await diagnosticsFor(uri, (d) => d.length > 0);
    const misread = errors.find((d) => d.message.startsWith('`sum = sum + x;` declares a new feature'));
    assert.ok(misread, JSON.stringify(errors));
    assert.equal(misread.message, "`sum = sum + x;` declares a new feature 'sum', it does not assign: write `assign sum := sum + x;`");
    assert.deepEqual(misread.range, { start: { line: 3, character: 16 }, end: { line: 3, character: 30 } });
    assert.equal(misread.severity, 1);
  });

  it('shows a construct of OpenSysML\'s notation as a warning naming the SysML v2 spelling it is read as', async function () {
    const uri = 'file:///work/opensysml.sysml';
    await open(uri, 'sysml', 'package P {\n  action a {\n    action x; action y;\n    then x y;\n  }\n}\n');
    const shown = await diagnosticsFor(uri, (d) => d.length > 0);
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.equal(shown[0]!.message, 'nonstandard notation (OpenSysML): `then x y;`; SysML v2 writes `first x then y;`, and it is read so');
    assert.equal(shown[0]!.severity, 2);
    assert.equal(shown[0]!.code, 'nonstandard-notation');
    assert.deepEqual(shown[0]!.range, { start: { line: 3, character: 4 }, end: { line: 3, character: 13 } });
  });

  it('lists declarations with kinds and nesting as document symbols', async function () {
    const uri = 'file:///work/vehicle.sysml';
    await open(uri, 'sysml', readFileSync(join(workspace, 'vehicle.sysml'), 'utf8'));
    const symbols = await connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(symbols.map((s) => s.name), ['VehicleModel']);
    const pkg = symbols[0]!;
    assert.equal(pkg.kind, 4); // Package
    const names = pkg.children!.map((s) => s.name);
    assert.deepEqual(names, ['Speed', 'Wheel', 'Vehicle', 'Door', 'DoorStates', 'SpeedLimit', 'fleet']);
    const vehicle = pkg.children!.find((s) => s.name === 'Vehicle')!;
    assert.equal(vehicle.kind, 5); // Class
    assert.equal(vehicle.detail, 'part def');
    assert.deepEqual(vehicle.children!.map((s) => [s.name, s.detail]), [
      ['maxSpeed', 'attribute : Speed'], ['max load', 'attribute :> mass'], ['wheels', 'part : Wheel'], ['door', 'part : Door'],
    ]);
    assert.equal(vehicle.selectionRange.start.line, 12);
    assert.equal(vehicle.selectionRange.start.character, 13); // the name, not the keyword
    const states = pkg.children!.find((s) => s.name === 'DoorStates')!;
    assert.deepEqual(states.children!.map((s) => s.name), ['closed', 'open', 'closed_to_open', 'open_to_closed']);
    assert.equal(pkg.children!.find((s) => s.name === 'SpeedLimit')!.kind, 11); // Interface (constraint def)
  });

  it('gives ports and interfaces the interface symbol kind, definitions and usages alike', async function () {
    const uri = 'file:///work/ports.sysml';
    await open(uri, 'sysml', 'package Ports {\n  port def Plug;\n  interface def Link;\n  part def Box { port plug : Plug; part inner; }\n}\n');
    const symbols = await connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    const [plug, link, box] = symbols[0]!.children!;
    assert.deepEqual([plug!.name, plug!.kind, link!.name, link!.kind, box!.kind], ['Plug', 11, 'Link', 11, 5]);
    assert.deepEqual(box!.children!.map((s) => [s.name, s.kind]), [['plug', 11], ['inner', 8]]);
  });

  it('outlines KerML documents', async function () {
    const uri = 'file:///work/basics.kerml';
    await open(uri, 'kerml', readFileSync(join(workspace, 'basics.kerml'), 'utf8'));
    const symbols = await connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    const children = symbols[0]!.children!;
    assert.deepEqual(children.map((s) => [s.name, s.detail]), [
      ['Shape', 'classifier'], ['area', 'feature : ScalarValues::Real'], ['Circle', 'class :> Shape'],
    ]);
  });

  it('folds bodies, multi-line comments and region markers', async function () {
    const uri = 'file:///work/vehicle.sysml';
    const ranges = await connection.sendRequest<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } });
    const spans = ranges.map((r) => `${r.startLine}-${r.endLine}${r.kind ? ':' + r.kind : ''}`);
    assert.ok(spans.includes('0-38'), `package body not folded: ${spans}`);
    assert.ok(spans.includes('12-16'), `part def Vehicle body not folded: ${spans}`);
    assert.ok(spans.includes('36-38:region'), `region markers not folded: ${spans}`);
  });

  it('hovers a declared name with its kind, qualified name and documentation', async function () {
    const uri = 'file:///work/vehicle.sysml';
    const onVehicle = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 12, character: 15 } });
    assert.ok(onVehicle, 'no hover on Vehicle');
    assert.match(onVehicle.contents.value, /part def VehicleModel::Vehicle/);
    // The real-editor test hovers this one too.
    const onMaxSpeed = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 13, character: 20 } });
    assert.ok(onMaxSpeed?.contents.value.includes('attribute VehicleModel::Vehicle::maxSpeed : Speed = 180 [km/h]\n'), onMaxSpeed?.contents.value);
    const onPackage = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 10 } });
    assert.match(onPackage!.contents.value, /package VehicleModel[\s\S]*A small vehicle with a door controller/);
    const onQuoted = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 14, character: 20 } });
    assert.match(onQuoted!.contents.value, /VehicleModel::Vehicle::'max load'/);
    const onKeyword = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 12, character: 5 } });
    assert.equal(onKeyword, null);
  });

  it('hovers a feature with its types, multiplicity, value or default as written, and doc comment, at the declaration and at a reference', async function () {
    const uri = 'file:///work/hover.sysml';
    const text = [
      'package H {',
      '  private import ScalarValues::*;',
      '  part def Wheel;',
      '  part def Car {',
      '    part wheels : Wheel [4];',
      '    attribute speed : Real default := 10 *',
      '      2 {',
      '      doc /* Cruising speed, set by the driver. */',
      '    }',
      '    attribute fast : Boolean = speed > 100;',
      '  }',
      '}',
    ].join('\n');
    await open(uri, 'sysml', text);
    await diagnosticsFor(uri, (d) => d.length === 0);
    const hoverAt = async (line: number, character: number): Promise<string> =>
      (await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line, character } }))?.contents.value ?? '(none)';
    assert.match(await hoverAt(4, 11), /part H::Car::wheels : Wheel \[4\]/);
    const speed = await hoverAt(5, 15);
    assert.match(speed, /attribute H::Car::speed : Real default := 10 \* 2\n/);
    assert.match(speed, /Cruising speed, set by the driver\./);
    // At a reference (`speed` in fast's value) the declaration it denotes is described the same way.
    const reference = await hoverAt(9, 32);
    assert.match(reference, /attribute H::Car::speed : Real default := 10 \* 2\n/);
    assert.match(reference, /Cruising speed/);
    assert.match(await hoverAt(9, 16), /attribute H::Car::fast : Boolean = speed > 100\n/);
  });

  it('finds declarations of files no editor has open as workspace symbols', async function () {
    const symbols = await connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'circ' });
    // An earlier test opened a copy as file:///work/basics.kerml; the file on disk is not open.
    const circle = symbols.find((s) => s.name === 'Circle' && s.location.uri.endsWith('/test/e2e/workspace/basics.kerml'));
    assert.ok(circle, `no Circle from the file on disk in ${JSON.stringify(symbols)}`);
    assert.equal(circle.containerName, 'Basics');
    assert.equal(circle.location.range.start.line, 4);
    const doors = (await connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'door' })).map((s) => `${s.containerName}::${s.name}`);
    assert.ok(doors.includes('VehicleModel::Door') && doors.includes('VehicleModel::Door::doorStates'), JSON.stringify(doors));
    assert.ok(!doors.some((name) => /Circle|Wheel/.test(name)), JSON.stringify(doors));
  });
});
