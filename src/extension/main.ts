import { bundleLoadStartedAt } from './clock';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { configuredEngines, type ConfiguredEngine } from './engineSettings';
import { RunHistory } from './runRecord';
import { RunsTree } from './runsView';
import { registerTaskCommands } from './tasks';
import { registerWitnessPanels } from './witnessPanel';

/** What the extension exports to other extensions and to its own in-editor tests. */
export interface AssayApi {
  /** Milliseconds spent evaluating dist/extension.js plus running activate() (the language server starts after). */
  activationMs: number;
  /** Settles when the language server has answered `initialize` (rejects if it cannot start). */
  languageServerReady: Promise<void>;
}

let client: LanguageClient | undefined;

// The ask/run flow is wired to the host core in a later release; until then these commands say so
// instead of pretending to run anything.
const notYet =
  'is not available in this build yet: the question flow arrives with the engine host wiring. ' +
  'Meanwhile ask from a terminal with `npm run ask -- <kind> <subject> --model <file.sysml>`.';

// The bundle's own evaluation ends here; VS Code may then wait (preparing the extension context)
// before calling activate(), which is its time, not ours.
const bundleEvaluatedMs = performance.now() - bundleLoadStartedAt;

export function activate(context: vscode.ExtensionContext): AssayApi {
  const activateStartedAt = performance.now();
  const output = vscode.window.createOutputChannel('Assay', { log: true });
  context.subscriptions.push(output);
  const version = String(context.extension.packageJSON.version ?? '');

  const history = new RunHistory();
  context.subscriptions.push(history);
  registerWitnessPanels(context, output, history);
  registerTaskCommands(context, output);

  const runs = new RunsTree();
  context.subscriptions.push(runs, vscode.window.createTreeView('assay.runs', { treeDataProvider: runs }));

  const bundledEngine = context.asAbsolutePath('dist/engine.js');
  const command = (id: string, run: () => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));

  command('assay.showOutput', () => output.show(true));
  command('assay.ask', () => {
    output.info(`Assay: Ask a Question… ${notYet}`);
    void vscode.window.showInformationMessage(`Assay: Ask a Question… ${notYet}`);
  });
  command('assay.askAgain', () => {
    void vscode.window.showInformationMessage('Assay: no question has been asked yet in this window.');
  });
  command('assay.cancelRun', () => {
    void vscode.window.showInformationMessage('Assay: no run is in progress.');
  });
  command('assay.restartEngines', () => {
    output.info(`Assay: Restart Engines ${notYet}`);
    void vscode.window.showInformationMessage(`Assay: Restart Engines ${notYet}`);
  });
  command('assay.showEngines', () => showEngines(output, bundledEngine));

  let resolveReady: () => void = () => undefined;
  let rejectReady: (error: unknown) => void = () => undefined;
  const languageServerReady = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // Load the language client (most of this bundle) and start the server after activation returns:
  // commands, views and settings are usable at once, and activation does not wait for a second process.
  const startedAt = performance.now();
  import('./languageServer')
    .then(({ createLanguageClient }) => {
      client = createLanguageClient(context, output);
      return client.start();
    })
    .then(
      () => {
        output.info(`Language server ready in ${(performance.now() - startedAt).toFixed(0)} ms.`);
        resolveReady();
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        output.error(`Language server failed to start: ${message}`);
        void vscode.window.showErrorMessage(`Assay: the language server failed to start (${message}).`, 'Show Output')
          .then((choice) => choice && output.show(true));
        rejectReady(error);
      },
    );
  // Nobody may be awaiting this promise; an unobserved rejection must not become an unhandled one.
  languageServerReady.catch(() => undefined);

  const activateMs = performance.now() - activateStartedAt;
  const activationMs = bundleEvaluatedMs + activateMs;
  output.info(`Assay ${version} activated in ${activationMs.toFixed(1)} ms ` +
    `(bundle evaluation ${bundleEvaluatedMs.toFixed(1)} ms, activate() ${activateMs.toFixed(1)} ms).`);
  return { activationMs, languageServerReady };
}

async function showEngines(output: vscode.LogOutputChannel, bundledEngine: string): Promise<ConfiguredEngine[]> {
  const engines = await configuredEngines(bundledEngine, existsSync(bundledEngine));
  output.info(`Engines (${engines.length}):`);
  for (const engine of engines) {
    output.info(`  ${engine.name} [${engine.origin}] ${engine.command}${engine.ignoredBecause ? ` — ${engine.ignoredBecause}` : ''}`);
  }
  const items: vscode.QuickPickItem[] = engines.map((engine) => ({
    label: `${engine.ignoredBecause ? '$(circle-slash)' : '$(server-process)'} ${engine.name}`,
    description: `${engine.origin} settings`.replace('bundled settings', 'bundled'),
    detail: engine.ignoredBecause ?? `${engine.command} — not started`,
  }));
  if (items.length === 0) {
    items.push({ label: 'No engines', detail: 'assay.useBundledEngine is off and assay.engines is empty.' });
  }
  // Not awaited: the command returns the list at once (tests and other extensions read it).
  void vscode.window.showQuickPick(items, { title: 'Assay Engines', placeHolder: 'Configured engines' });
  return engines;
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
