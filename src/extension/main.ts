import { bundleLoadStartedAt } from './clock';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ENGINE_ANSWERS_NOTIFICATION } from '../server/requests';
import type { AskArguments, EngineListing, QuestionFlow } from './ask/askFlow';
import { RunHistory, type RunRecord } from './runs/runRecord';
import { revealRun, RunsTree, type RunNode } from './runs/runsView';
import { RunStatusBar } from './runs/statusBar';
import { registerTaskCommands } from './tasks/tasks';
import { registerWitnessPanels } from './witness/witnessPanel';
import { registerTeamFeed } from './feed/feed';
import { registerComparePanels } from './compare/comparePanel';
import { lazy } from './loadLazy';

/** What the extension exports to other extensions and to its own in-editor tests. */
export interface AssayApi {
  /** Milliseconds spent evaluating dist/extension.js plus running activate() (the language server starts after). */
  activationMs: number;
  /** Settles when the language server has answered `initialize` (rejects if it cannot start). */
  languageServerReady: Promise<void>;
  /** Every run of this window, newest first. */
  history: RunHistory;
  /** Settles with the run's record once the run has settled. */
  settled(id: number): Promise<RunRecord>;
  /** The run status bar item's text as shown now (empty before the first run). */
  statusBarText(): string;
  /** The run the status bar item shows (its click reveals it in the Runs view). */
  statusBarRun(): number | undefined;
  /** The question flow (loaded on first use): engine process ids and the notifications it showed. */
  questions(): Promise<Pick<QuestionFlow, 'enginePids' | 'shown'>>;
}

let client: LanguageClient | undefined;
let flow: Promise<QuestionFlow> | undefined;

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
  const witness = registerWitnessPanels(context, output, history);
  registerTeamFeed(context, output, history, witness);
  registerComparePanels(context, output, history);
  registerTaskCommands(context, output);

  const runs = new RunsTree(history);
  const status = new RunStatusBar(history);
  const runsView = vscode.window.createTreeView('assay.runs', { treeDataProvider: runs, showCollapseAll: true });
  context.subscriptions.push(runs, status, runsView);
  // The status bar item's click: the Runs view, with the run the item shows selected.
  context.subscriptions.push(vscode.commands.registerCommand('assay.runs.reveal', (id?: number) => revealRun(runsView, runs, id)));

  // The question flow (host core, SysML front end) is loaded on first use, so activation does not pay for it.
  const questions = (): Promise<QuestionFlow> => (flow ??= lazy().then(({ QuestionFlow }) => {
    const created = new QuestionFlow(context, output, history);
    context.subscriptions.push({ dispose: () => void created.dispose() });
    return created;
  }));
  const command = <A extends unknown[]>(id: string, run: (flow: QuestionFlow, ...args: A) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: A) => {
      try {
        return await run(await questions(), ...args);
      } catch (error) {
        // A failure of the flow itself (not an engine's): say so instead of failing silently.
        const message = error instanceof Error ? error.stack ?? error.message : String(error);
        output.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(`Assay: ${id} failed: ${error instanceof Error ? error.message : String(error)}`, 'Show Output')
          .then((choice) => choice && output.show(true));
        return undefined;
      }
    }));

  context.subscriptions.push(vscode.commands.registerCommand('assay.showOutput', () => output.show(true)));
  command('assay.ask', (f, args?: AskArguments) => f.ask(isObject(args) ? args : {}));
  command('assay.askAgain', (f, target?: RunNode | number) => f.askAgain(target));
  command('assay.askAgainWithInputs', (f, target?: RunNode | number) => f.askAgainWithInputs(target));
  command('assay.cancelRun', (f, target?: RunNode | number) => f.cancelRun(target));
  command('assay.restartEngines', (f) => f.restartEngines());
  command('assay.showEngines', (f): Promise<EngineListing[]> => f.showEngines());
  command('assay.runs.openWitness', (f, node?: RunNode | number) => f.openWitnessOf(node));
  command('assay.runs.askAgain', (f, node?: RunNode | number) => f.askAgain(node ?? -1));
  command('assay.runs.copyResult', (f, node?: RunNode | number) => f.copyResult(node));
  command('assay.runs.cancel', (f, node?: RunNode | number) => f.cancelRun(node ?? -1));

  let resolveReady: () => void = () => undefined;
  let rejectReady: (error: unknown) => void = () => undefined;
  const languageServerReady = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // The language server's `Ask:` code lenses follow what the configured engines answer.
  const sendEngineAnswers = async (changed: boolean) => {
    const f = await questions();
    const settings = changed ? await f.settingsChanged() : await f.engineSettings();
    if (!client?.isRunning()) return;
    const { engineAnswers } = await lazy();
    // With assay.codeLens off the server is told of no engines: it then draws no lenses.
    const lensesOn = vscode.workspace.getConfiguration('assay').get<boolean>('codeLens', true) !== false;
    await client.sendNotification(ENGINE_ANSWERS_NOTIFICATION, lensesOn ? engineAnswers(settings.entries) : { engines: [] });
  };
  const reportFailure = (error: unknown) => output.error(`Engine settings: ${error instanceof Error ? error.message : String(error)}`);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (['assay.engines', 'assay.useBundledEngine'].some((key) => event.affectsConfiguration(key))) {
        sendEngineAnswers(true).catch(reportFailure);
      }
      if (event.affectsConfiguration('assay.codeLens')) sendEngineAnswers(false).catch(reportFailure);
      // A bad schedule, draws or clock step is said when it is set, not only at the next question.
      if (['assay.schedule', 'assay.draws', 'assay.clockStep'].some((key) => event.affectsConfiguration(key))) {
        questions().then((f) => f.checkQuestionOptions()).catch(reportFailure);
      }
      if (event.affectsConfiguration('assay.trace') && flow) {
        void flow.then((f) => f.readTrace());
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => sendEngineAnswers(true).catch(reportFailure)),
  );

  // Load the language client (in the bundle loaded after activation) and start the server:
  // commands, views and settings are usable at once, and activation does not wait for a second process.
  const startedAt = performance.now();
  lazy()
    .then(({ createLanguageClient }) => {
      client = createLanguageClient(context, output);
      return client.start();
    })
    .then(
      () => {
        output.info(`Language server ready in ${(performance.now() - startedAt).toFixed(0)} ms.`);
        resolveReady();
        sendEngineAnswers(false).catch(reportFailure);
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
  return {
    activationMs,
    languageServerReady,
    history,
    settled: (id) => settledRecord(history, id),
    statusBarText: () => status.text,
    statusBarRun: () => status.shownRun,
    questions,
  };
}

function isObject(value: unknown): value is AskArguments {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function settledRecord(history: RunHistory, id: number): Promise<RunRecord> {
  const now = history.get(id);
  if (now?.state === 'settled') return Promise.resolve(now);
  return new Promise((resolve) => {
    const subscription = history.onDidChange((record) => {
      if (record.id === id && record.state === 'settled') {
        subscription.dispose();
        resolve(record);
      }
    });
  });
}

export async function deactivate(): Promise<void> {
  const stopping = flow?.then((f) => f.dispose());
  flow = undefined;
  await Promise.all([client?.stop(), stopping]);
  client = undefined;
}
