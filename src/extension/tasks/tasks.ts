// The `Assay Tasks:` commands, which call the task adapter (dist/adapter.js) as a process. Only the
// registrations live here; the implementation (and the adapter client with its schema library) is
// loaded on the first task command, so that activation does not pay for it.
import * as vscode from 'vscode';
import type { Summary, TaskCommand } from '../../adapter/editor-commands';
import type { Envelope } from '../../adapter/outcome';
import { lazy } from '../loadLazy';
import { TaskResultDocuments, taskResultScheme } from './tasksResults';
import type { TaskCommands } from './tasksCommands';

/** What every task command resolves to (for tests, keybindings and other extensions). */
export interface TaskCommandResult {
  command: TaskCommand;
  /** The adapter arguments; empty when the request was refused before the adapter ran. */
  args: string[];
  exitCode: number;
  envelope: Envelope;
  summary: Summary;
  /** The `assay-task:` document holding the envelope, when one was opened. */
  document?: string;
  /** True when the user stopped the adapter process. */
  stopped?: boolean;
}

/** Arguments the body-taking commands accept instead of asking: a file (path or Uri) or the text itself. */
export interface BodyOptions {
  file?: string | vscode.Uri;
  text?: string;
}

export interface WaitOptions {
  taskIds?: string[];
  timeout?: string;
}

export interface CancelOptions extends WaitOptions {
  wait?: boolean;
}

export function registerTaskCommands(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): void {
  const documents = new TaskResultDocuments();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(taskResultScheme, documents));
  let loaded: Promise<TaskCommands> | undefined;
  const commands = () => (loaded ??= lazy().then(({ TaskCommands }) => new TaskCommands(context, output, documents)));
  const register = (name: string, run: (tasks: TaskCommands, ...args: never[]) => Promise<TaskCommandResult | undefined>) =>
    context.subscriptions.push(vscode.commands.registerCommand(`assay.tasks.${name}`, async (...args: never[]) => run(await commands(), ...args)));
  register('checkService', (tasks) => tasks.checkService());
  register('submitTaskGraph', (tasks, options?: BodyOptions | vscode.Uri) => tasks.sendBody('submit', options));
  register('runAgentAction', (tasks, options?: BodyOptions | vscode.Uri) => tasks.sendBody('act', options));
  register('translateAgentAction', (tasks, options?: BodyOptions | vscode.Uri) => tasks.sendBody('translate', options));
  register('waitForTasks', (tasks, options?: WaitOptions) => tasks.waitForTasks(options));
  register('cancelTask', (tasks, options?: CancelOptions) => tasks.cancelTask(options));
  register('showCapabilities', (tasks) => tasks.show('capabilities'));
  register('showTools', (tasks) => tasks.show('tools'));
}
