import * as vscode from 'vscode';
import type { RunHistory } from './runRecord';

/** `Assay: Open Witness` and the replay panels. */
export function registerWitnessPanels(context: vscode.ExtensionContext, output: vscode.LogOutputChannel, history: RunHistory): void {
  context.subscriptions.push(vscode.commands.registerCommand('assay.openWitness', () => {
    const message = `Assay: witness panels are not available in this build yet (${history.all().length} runs in this window).`;
    output.info(message);
    void vscode.window.showInformationMessage(message);
  }));
}
