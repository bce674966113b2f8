import * as vscode from 'vscode';

/** The `Assay Tasks:` commands, which call the task adapter (dist/adapter.js) as a process. */
export function registerTaskCommands(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): void {
  // Until the commands call the adapter they say so rather than fail with "command not found".
  for (const command of ['checkService', 'submitTaskGraph', 'runAgentAction', 'translateAgentAction',
    'waitForTasks', 'cancelTask', 'showCapabilities', 'showTools']) {
    context.subscriptions.push(vscode.commands.registerCommand(`assay.tasks.${command}`, () => {
      const message = `Assay Tasks: ${command} is not available in this build yet; use \`node dist/adapter.js\` from a terminal.`;
      output.info(message);
      void vscode.window.showInformationMessage(message);
    }));
  }
}
