// Runs inside the real extension host (code-server or desktop VS Code) with the fixture workspace
// test/e2e/workspace open; drives the extension through the VS Code API.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';

interface AssayApi {
  activationMs: number;
  languageServerReady: Promise<void>;
}
interface ConfiguredEngine {
  name: string;
  command: string;
  origin: string;
  ignoredBecause?: string;
}

const extensionId = 'assay.assay';
const assayCommands = ['assay.ask', 'assay.askAgain', 'assay.cancelRun', 'assay.showEngines', 'assay.restartEngines', 'assay.showOutput'];

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace is not open');
  return vscode.Uri.file(join(folder.uri.fsPath, name));
}

async function activated(): Promise<AssayApi> {
  const extension = vscode.extensions.getExtension<AssayApi>(extensionId);
  assert.ok(extension, `extension ${extensionId} is not loaded`);
  return extension.activate();
}

describe('Assay extension in the extension host', () => {
  it('activates when a .sysml document opens, as language sysml', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile('vehicle.sysml'));
    await vscode.window.showTextDocument(document);
    assert.equal(document.languageId, 'sysml');
    const api = await activated();
    assert.ok(vscode.extensions.getExtension(extensionId)?.isActive);
    assert.ok(api.activationMs > 0, 'activation time not measured');
    console.log(`activation: ${api.activationMs.toFixed(1)} ms`);
  });

  it('opens .kerml documents as language kerml', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile('basics.kerml'));
    assert.equal(document.languageId, 'kerml');
  });

  it('starts the language server', async () => {
    const api = await activated();
    await api.languageServerReady;
  });

  it('outlines a model through the language server', async () => {
    await (await activated()).languageServerReady;
    const uri = workspaceFile('vehicle.sysml');
    await vscode.workspace.openTextDocument(uri);
    let symbols: vscode.DocumentSymbol[] = [];
    for (let attempt = 0; attempt < 50 && symbols.length === 0; attempt++) {
      symbols = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri)) ?? [];
      if (symbols.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(symbols.map((s) => s.name), ['VehicleModel']);
    const vehicle = symbols[0]!.children.find((s) => s.name === 'Vehicle');
    assert.ok(vehicle, 'no Vehicle in the outline');
    assert.equal(vehicle.kind, vscode.SymbolKind.Class);
    assert.deepEqual(vehicle.children.map((s) => s.name), ['maxSpeed', 'max load', 'wheels', 'door']);
  });

  it('reports syntax errors of an open model as diagnostics, and clears them after an edit', async () => {
    await (await activated()).languageServerReady;
    const document = await vscode.workspace.openTextDocument(workspaceFile('broken.sysml'));
    const waitFor = async (predicate: (d: readonly vscode.Diagnostic[]) => boolean) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const diagnostics = vscode.languages.getDiagnostics(document.uri);
        if (predicate(diagnostics)) return diagnostics;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`diagnostics never matched: ${JSON.stringify(vscode.languages.getDiagnostics(document.uri).map((d) => d.message))}`);
    };
    const errors = await waitFor((d) => d.length > 0);
    assert.ok(errors.some((d) => d.source === 'sysml' && d.severity === vscode.DiagnosticSeverity.Error && /expected ';'/.test(d.message)));
    const edit = new vscode.WorkspaceEdit();
    const text = document.getText();
    const broken = text.indexOf('part engine : Engine\n        attribute = ;');
    assert.ok(broken >= 0, 'fixture changed');
    edit.replace(document.uri, new vscode.Range(document.positionAt(broken), document.positionAt(broken + 'part engine : Engine\n        attribute = ;'.length)),
      'part engine : Engine;\n        attribute torque = 1;');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor((d) => d.length === 0);
    // Leave the buffer as the file is (nothing was saved).
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('registers every Assay command', async () => {
    await activated();
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const command of assayCommands) assert.ok(registered.has(command), `${command} is not registered`);
  });

  it('reads its settings with the declared defaults', () => {
    const config = vscode.workspace.getConfiguration('assay');
    assert.equal(config.get('schedule'), 'fifo');
    assert.equal(config.get('useBundledEngine'), true);
    assert.deepEqual(config.get('budget'), { deadline: 60 });
    assert.equal(config.get('draws'), 'random');
    assert.equal(config.get('trace'), false);
  });

  describe('Show Engines', () => {
    afterEach(async () => {
      await vscode.workspace.getConfiguration('assay').update('engines', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('assay').update('useBundledEngine', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    });

    it('lists the bundled engine and the workspace entry', async () => {
      const engines = await vscode.commands.executeCommand<ConfiguredEngine[]>('assay.showEngines');
      assert.deepEqual(engines.map((engine) => [engine.name, engine.origin]), [
        ['assay-reference', 'bundled'],
        ['workspace-engine', 'workspace'],
      ]);
      // The workspace is trusted here (code-server runs with --disable-workspace-trust).
      assert.equal(engines[1]!.ignoredBecause, undefined);
    });

    it('names a user entry without a command and leaves out the bundled engine when it is off', async () => {
      const config = vscode.workspace.getConfiguration('assay');
      await config.update('engines', [{ name: 'no-command' }], vscode.ConfigurationTarget.Global);
      await config.update('useBundledEngine', false, vscode.ConfigurationTarget.Global);
      const engines = await vscode.commands.executeCommand<ConfiguredEngine[]>('assay.showEngines');
      assert.deepEqual(engines.map((engine) => engine.name), ['no-command', 'workspace-engine']);
      assert.match(engines[0]!.ignoredBecause ?? '', /assay\.engines\[0\] \(user settings\) has no "command"/);
    });
  });

  it('answers Cancel Run without a run (nothing cancelled), and Show Output without error', async () => {
    assert.deepEqual(await vscode.commands.executeCommand('assay.cancelRun'), []);
    await vscode.commands.executeCommand('assay.showOutput');
  });
});
