// The implementation of the `Assay Tasks:` commands (loaded on first use by ./tasks.ts). Each one runs
// the adapter.v1 program (the bundled dist/adapter.js or `assay.tasks.adapterPath`) as a process and
// shows its envelope: the CLI is the API, so the editor never speaks HTTP to the task service itself.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import {
  bodyArgs, cancelArgs, checkServiceArgs, chooseAdapter, deadlineProblem, hintCommands, jsonProblem, manualHints, parseTaskIds,
  rememberTasks, summarise, taskIdChoices, taskIdsOf, waitArgs, withSettingNames, type AdapterChoice, type Summary, type TaskCommand,
} from '../../adapter/editor-commands';
import { adapterEnvironment, invokeAdapter } from '../../adapter/process';
import { redactCredentials } from '../../adapter/config';
import type { BodyOptions, CancelOptions, TaskCommandResult, WaitOptions } from './tasks';
import { TaskMemory, taskResultScheme, type TaskResultDocuments } from './tasksResults';

const defaultDeadline = '2m';

interface Body {
  text: string;
  /** A short name for messages and the task memory (file name, or "Untitled-1"). */
  source: string;
  /** Where the text lives, to point at a JSON problem. */
  uri?: vscode.Uri;
}

const bodyTitles = { submit: 'Submit Task Graph', act: 'Run Agent Action', translate: 'Translate Agent Action' } as const;
const bodyProgress = { submit: 'submitting', act: 'sending the agent action in', translate: 'translating' } as const;

export class TaskCommands {
  private readonly memory: TaskMemory;
  private terminal: vscode.Terminal | undefined;

  constructor(private readonly context: vscode.ExtensionContext, private readonly output: vscode.LogOutputChannel,
    private readonly documents: TaskResultDocuments) {
    this.memory = new TaskMemory(context.workspaceState);
    context.subscriptions.push(vscode.window.onDidCloseTerminal((closed) => {
      if (closed === this.terminal) this.terminal = undefined;
    }));
  }

  async checkService(): Promise<TaskCommandResult | undefined> {
    // A runtime URL in the settings says the runtime matters: then it must be up too.
    const withRuntime = this.settings().runtimeUrl !== '';
    const result = await this.run('ensure-running', checkServiceArgs(withRuntime), { title: 'checking the task service', progressAfterMs: 0 });
    if (!result || result.stopped) return result;
    const hints = manualHints(result.envelope);
    if (hints.length === 0) {
      this.notify(result.summary, []);
      return result;
    }
    for (const hint of hints) this.output.warn(`Manual step: ${hint}`);
    const commands = hints.flatMap(hintCommands);
    const more = hints.length > 1 ? ` (and ${hints.length - 1} more in the output)` : '';
    const summary: Summary = { ...result.summary, message: `${result.summary.message} — ${hints[0]}${more}` };
    const actions: [string, () => unknown][] = [];
    if (commands.length > 0) actions.push(['Open Terminal', () => this.openTerminal(commands[0]!)]);
    actions.push(['Copy Hints', () => vscode.env.clipboard.writeText(hints.join('\n'))]);
    actions.push(['Open Settings', () => vscode.commands.executeCommand('workbench.action.openSettings', 'assay.tasks')]);
    this.notify(summary, actions);
    return { ...result, summary };
  }

  async sendBody(command: 'submit' | 'act' | 'translate', options?: BodyOptions | vscode.Uri): Promise<TaskCommandResult | undefined> {
    const given = options instanceof vscode.Uri ? { file: options } : typeof options === 'object' && options !== null ? options : {};
    const body = await this.requestBody(command, given);
    if (!body) return undefined;
    const problem = jsonProblem(body.text);
    if (problem) {
      const where = `${body.source}:${problem.line}:${problem.column}`;
      const summary: Summary = { severity: 'error', message: `${bodyTitles[command]}: ${where} is not JSON: ${problem.message}` };
      this.output.error(summary.message);
      const uri = body.uri;
      this.notify(summary, uri ? [['Go to Problem', () => vscode.window.showTextDocument(uri, {
        selection: new vscode.Range(problem.line - 1, problem.column - 1, problem.line - 1, problem.column - 1),
      })]] : []);
      return { command, args: [], exitCode: 2, envelope: { ok: false, error: { message: summary.message, status_code: 0, body: '' } }, summary };
    }
    const result = await this.run(command, bodyArgs(command), { stdin: body.text, title: `${bodyProgress[command]} ${body.source}`, progressAfterMs: 1000 });
    if (!result || result.stopped) return result;
    const ids = taskIdsOf(result.envelope);
    if (ids.length > 0) {
      const remembered = rememberTasks(this.memory.get(), ids, { via: command, source: body.source, at: new Date().toISOString() });
      await this.memory.set(remembered);
      this.notify(result.summary, [
        ['Wait for Tasks', () => vscode.commands.executeCommand('assay.tasks.waitForTasks', { taskIds: ids, timeout: defaultDeadline })],
        ['Cancel Tasks', () => vscode.commands.executeCommand('assay.tasks.cancelTask', { taskIds: ids, wait: true, timeout: defaultDeadline })],
      ]);
    } else {
      this.notify(result.summary, this.failureActions(result));
    }
    return result;
  }

  async waitForTasks(options: WaitOptions = {}): Promise<TaskCommandResult | undefined> {
    options = typeof options === 'object' && options !== null ? options : {};
    const taskIds = Array.isArray(options.taskIds) ? parseTaskIds(options.taskIds.join(',')) : await this.pickTaskIds('Wait for Tasks');
    if (!taskIds?.length) return undefined;
    const timeout = typeof options.timeout === 'string' ? options.timeout : await this.askDeadline('Wait for Tasks');
    if (timeout === undefined) return undefined;
    const problem = deadlineProblem(timeout);
    if (problem) return this.refuse('wait', `Wait for Tasks: ${problem}`);
    const result = await this.run('wait', waitArgs({ taskIds, timeout }), { title: `waiting for ${taskIds.join(', ')}`, progressAfterMs: 0 });
    if (result && !result.stopped) this.notify(result.summary, this.failureActions(result));
    return result;
  }

  async cancelTask(options: CancelOptions = {}): Promise<TaskCommandResult | undefined> {
    // Keybindings and other extensions may pass anything; only an options object is read.
    options = typeof options === 'object' && options !== null ? options : {};
    const taskIds = Array.isArray(options.taskIds) ? parseTaskIds(options.taskIds.join(',')) : await this.pickTaskIds('Cancel Task');
    if (!taskIds?.length) return undefined;
    const timeout = typeof options.timeout === 'string' ? options.timeout : defaultDeadline;
    let wait = typeof options.wait === 'boolean' ? options.wait : undefined;
    if (wait === undefined) {
      const choice = await vscode.window.showQuickPick([
        { label: 'Cancel and wait until they end', description: `up to ${timeout}`, wait: true },
        { label: 'Cancel without waiting', description: 'the tasks go on to cancelling', wait: false },
      ], { title: `Cancel ${taskIds.join(', ')}` });
      if (!choice) return undefined;
      wait = choice.wait;
    }
    const problem = wait ? deadlineProblem(timeout) : undefined;
    if (problem) return this.refuse('cancel', `Cancel Task: ${problem}`);
    const result = await this.run('cancel', cancelArgs({ taskIds, wait, timeout }), {
      title: `cancelling ${taskIds.join(', ')}${wait ? ' and waiting until they end' : ''}`,
      progressAfterMs: wait ? 0 : 1000,
    });
    if (result && !result.stopped) this.notify(result.summary, this.failureActions(result));
    return result;
  }

  async show(command: 'capabilities' | 'tools'): Promise<TaskCommandResult | undefined> {
    const result = await this.run(command, [command], { title: `asking for the service's ${command}`, progressAfterMs: 1000 });
    if (result && !result.stopped) this.notify(result.summary, this.failureActions(result));
    return result;
  }

  // -------------------------------------------------------------------------------------------

  private settings(): { adapter: AdapterChoice; serviceUrl: string; runtimeUrl: string } {
    const config = vscode.workspace.getConfiguration('assay.tasks');
    // adapterPath, serviceUrl and runtimeUrl are restricted settings: in an untrusted workspace
    // VS Code itself answers get() without the workspace's values.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const bundled = this.context.asAbsolutePath('dist/adapter.js');
    return {
      adapter: chooseAdapter(config.get<string>('adapterPath'), bundled, folder),
      serviceUrl: (config.get<string>('serviceUrl') ?? '').trim(),
      runtimeUrl: (config.get<string>('runtimeUrl') ?? '').trim(),
    };
  }

  /** Runs the adapter with a progress notification (cancellable: cancelling kills the process), opens the envelope. */
  private async run(command: TaskCommand, args: string[], options: { stdin?: string; title: string; progressAfterMs: number }):
    Promise<TaskCommandResult | undefined> {
    const { adapter, serviceUrl, runtimeUrl } = this.settings();
    const missing = this.missingAdapter(adapter);
    if (missing) return this.refuse(command, missing);
    if (!vscode.workspace.isTrusted) this.noteIgnoredWorkspaceSettings();
    const env = adapterEnvironment(process.env, { serviceUrl, runtimeUrl });
    this.output.info(redactCredentials(`assay-adapter ${args.join(' ')}  [${adapter.origin === 'bundled' ? 'bundled adapter' : adapter.path}; ` +
      `SERVICE_URL=${env['SERVICE_URL'] ?? '(default)'}${runtimeUrl ? `; SERVICE_RUNTIME_URL=${runtimeUrl}` : ''}]`));

    const controller = new AbortController();
    const started = Date.now();
    const running = invokeAdapter({ adapterPath: adapter.path, args, env, stdin: options.stdin, signal: controller.signal });
    let settled = false;
    void running.finally(() => (settled = true));
    // Quick answers need no progress toast; slow ones (and waits, at once) get a cancellable one.
    const timer = setTimeout(() => {
      if (settled) return;
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Assay Tasks: ${options.title}`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          const ticker = setInterval(() => progress.report({ message: `${Math.round((Date.now() - started) / 1000)} s` }), 1000);
          return running.finally(() => clearInterval(ticker));
        });
    }, options.progressAfterMs);
    const result = await running.finally(() => clearTimeout(timer));

    for (const line of result.stderr.split('\n')) if (line.trim()) this.output.info(`  ${line}`);
    this.output.info(`  exit ${result.exitCode} after ${Date.now() - started} ms`);
    if (controller.signal.aborted) {
      const summary: Summary = { severity: 'info', message: `Stopped ${options.title}: the adapter process was ended; the service is not told and keeps what it already has` };
      void vscode.window.showInformationMessage(`Assay Tasks: ${summary.message}.`);
      return { command, args, exitCode: result.exitCode, envelope: result.envelope, summary, stopped: true };
    }
    let summary = summarise(command, result.exitCode, result.envelope);
    if (!result.envelope.ok && /^cannot start the adapter/.test(result.envelope.error.message) && adapter.origin === 'setting') {
      summary = { ...summary, message: `${summary.message} (from the setting assay.tasks.adapterPath)` };
    } else if (result.exitCode === 2) {
      summary = { ...summary, message: withSettingNames(summary.message, { serviceUrl: serviceUrl !== '', runtimeUrl: runtimeUrl !== '' }) };
    }
    (summary.severity === 'error' ? this.output.error : summary.severity === 'warning' ? this.output.warn : this.output.info)
      .call(this.output, summary.message);
    const uri = this.documents.add(command, result.envelope);
    await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true, viewColumn: resultColumn() });
    return { command, args, exitCode: result.exitCode, envelope: result.envelope, summary, document: uri.toString() };
  }

  /** Why the adapter cannot run at all, naming the setting or the build; undefined when it may. */
  private missingAdapter(adapter: AdapterChoice): string | undefined {
    if (adapter.origin === 'bundled') {
      return existsSync(adapter.path) ? undefined : `the bundled adapter ${adapter.path} is missing from this build (run npm run build), or set assay.tasks.adapterPath`;
    }
    // A bare name is looked up on PATH by the system when it starts.
    if (/[\\/]/.test(adapter.path) && !existsSync(adapter.path)) return `assay.tasks.adapterPath: ${adapter.path} does not exist`;
    return undefined;
  }

  private noteIgnoredWorkspaceSettings(): void {
    const config = vscode.workspace.getConfiguration('assay.tasks');
    for (const key of ['adapterPath', 'serviceUrl', 'runtimeUrl']) {
      const inspected = config.inspect(key);
      if (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined) {
        this.output.warn(`assay.tasks.${key} from the workspace is ignored: the workspace is not trusted`);
      }
    }
  }

  private refuse(command: TaskCommand, message: string): TaskCommandResult {
    const summary: Summary = { severity: 'error', message };
    this.output.error(message);
    this.notify(summary, []);
    return { command, args: [], exitCode: 2, envelope: { ok: false, error: { message, status_code: 0, body: '' } }, summary };
  }

  private failureActions(result: TaskCommandResult): [string, () => unknown][] {
    return result.summary.severity === 'error' ? [['Show Output', () => this.output.show(true)]] : [];
  }

  /** A short notification; not awaited, so that the command's result does not wait for a click. */
  private notify(summary: Summary, actions: [string, () => unknown][]): void {
    const show = summary.severity === 'error' ? vscode.window.showErrorMessage
      : summary.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(`Assay Tasks: ${summary.message}`, ...actions.map(([label]) => label)).then((choice) => {
      const action = actions.find(([label]) => label === choice);
      if (action) void Promise.resolve(action[1]()).catch((error: unknown) => this.output.error(String(error)));
    });
  }

  private openTerminal(command: string): void {
    this.terminal ??= vscode.window.createTerminal({ name: 'Assay Tasks' });
    this.terminal.show();
    // Typed, not run: the hint is advice, the user reads it and presses Enter.
    this.terminal.sendText(command, false);
  }

  // -------------------------------------------------------------------------------------------
  // Asking

  /** The body: given, else the active JSON editor (unsaved edits included), else a picked .json file. */
  private async requestBody(command: 'submit' | 'act' | 'translate', options: BodyOptions = {}): Promise<Body | undefined> {
    if (options.text !== undefined) return { text: options.text, source: 'the given text' };
    if (options.file !== undefined) {
      const uri = typeof options.file === 'string' ? vscode.Uri.file(options.file) : options.file;
      return this.readBody(uri);
    }
    const editor = vscode.window.activeTextEditor;
    if (editor && isJsonDocument(editor.document)) {
      return { text: editor.document.getText(), source: basename(editor.document.uri.path), uri: editor.document.uri };
    }
    const browse = { label: '$(folder-opened) Browse…', uri: undefined as vscode.Uri | undefined, description: '' };
    const files = await vscode.workspace.findFiles('**/*.json', '{**/node_modules/**,**/.vscode/**,**/package-lock.json}', 200);
    const items = files.sort((a, b) => a.path.localeCompare(b.path))
      .map((uri) => ({ label: basename(uri.path), description: vscode.workspace.asRelativePath(uri), uri: uri as vscode.Uri | undefined }));
    const picked = await vscode.window.showQuickPick([...items, browse], {
      title: bodyTitles[command], placeHolder: command === 'submit' ? 'The task graph to submit (a JSON file)' : 'The AgentActionRequest to send (a JSON file)',
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    let uri = picked.uri;
    if (!uri) {
      const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { JSON: ['json'] }, title: bodyTitles[command] });
      uri = chosen?.[0];
    }
    return uri ? this.readBody(uri) : undefined;
  }

  private async readBody(uri: vscode.Uri): Promise<Body | undefined> {
    // An open document may have unsaved edits; those are what the user sees and means.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return { text: open.getText(), source: basename(uri.path), uri };
    try {
      return { text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), source: basename(uri.path), uri };
    } catch (error) {
      const message = `cannot read ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`;
      this.output.error(message);
      void vscode.window.showErrorMessage(`Assay Tasks: ${message}`);
      return undefined;
    }
  }

  /** Task ids from a picker that lists the remembered ones first and takes typed ids too. */
  private pickTaskIds(title: string): Promise<string[] | undefined> {
    const remembered = taskIdChoices(this.memory.get()).map((choice) => ({ ...choice, alwaysShow: false }));
    const picker = vscode.window.createQuickPick<(typeof remembered)[number]>();
    picker.title = title;
    picker.placeholder = remembered.length > 0 ? 'Pick a task, or type task ids separated by commas' : 'Type task ids separated by commas';
    picker.items = remembered;
    picker.onDidChangeValue((value) => {
      const typed = parseTaskIds(value);
      const label = typed.join(', ');
      const exists = remembered.some((choice) => choice.label === label);
      picker.items = typed.length > 0 && !exists
        ? [{ label, description: 'as typed', taskIds: typed, alwaysShow: true }, ...remembered]
        : remembered;
    });
    return new Promise((resolve) => {
      let answer: string[] | undefined;
      picker.onDidAccept(() => {
        answer = picker.selectedItems[0]?.taskIds ?? parseTaskIds(picker.value);
        picker.hide();
      });
      picker.onDidHide(() => {
        picker.dispose();
        resolve(answer?.length ? answer : undefined);
      });
      picker.show();
    });
  }

  private async askDeadline(title: string): Promise<string | undefined> {
    return vscode.window.showInputBox({
      title, prompt: 'How long to wait (e.g. 30s, 2m, 1m30s; 0 waits without a deadline)', value: defaultDeadline,
      validateInput: (text) => deadlineProblem(text),
    });
  }
}

function isJsonDocument(document: vscode.TextDocument): boolean {
  return document.uri.scheme !== taskResultScheme && (['json', 'jsonc'].includes(document.languageId) || document.fileName.endsWith('.json'));
}

/** Results go where earlier results are (one column for all of them), else beside the active editor. */
function resultColumn(): vscode.ViewColumn {
  const group = vscode.window.tabGroups.all.find((g) =>
    g.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === taskResultScheme));
  return group?.viewColumn ?? vscode.ViewColumn.Beside;
}
