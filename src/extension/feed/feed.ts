import * as vscode from 'vscode';
import { lazy } from '../loadLazy';
import type { RunHistory } from '../runs/runRecord';
import type { WitnessPanels } from '../witness/witnessPanel';
import type { FeedSession } from './feedSession';
import { FeedTree } from './feedView';

/** The scheme of the read-only documents that hold a shared run's model text. */
export const FEED_SCHEME = 'assay-feed';

/**
 * The team feed in the editor: the `Team Feed` view, its status bar hint, the read-only documents of
 * shared models and the `Assay Feed` commands. The session (HTTP, live channel, zod) is in the bundle
 * loaded on first use; it starts at activation only when a server is configured.
 */
export function registerTeamFeed(context: vscode.ExtensionContext, output: vscode.LogOutputChannel, history: RunHistory, witness: WitnessPanels): { session(): Promise<FeedSession> } {
  const tree = new FeedTree();
  const view = vscode.window.createTreeView('assay.feed', { treeDataProvider: tree });
  const hint = vscode.window.createStatusBarItem('assay.feed.new', vscode.StatusBarAlignment.Left, 0);
  hint.name = 'Assay Team Feed';
  // `<view id>.focus` is the command VS Code makes for every view.
  hint.command = 'assay.feed.focus';
  context.subscriptions.push(tree, view, hint);

  let loaded: Promise<FeedSession> | undefined;
  const session = (): Promise<FeedSession> => (loaded ??= lazy().then(({ FeedSession }) => {
    const created = new FeedSession({ context, output, history, tree, view, hint, witness });
    context.subscriptions.push(created);
    return created;
  }));

  const command = (id: string, run: (s: FeedSession, ...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(await session(), ...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        output.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(`Assay Feed: ${message}`);
        return undefined;
      }
    }));
  command('assay.feed.signIn', (s) => s.signIn(false));
  command('assay.feed.signUp', (s) => s.signIn(true));
  command('assay.feed.signOut', (s) => s.signOut());
  command('assay.feed.share', (s, target) => s.share(target));
  command('assay.feed.open', (s, target) => s.open(target));
  command('assay.feed.edit', (s, target) => s.edit(target));
  command('assay.feed.delete', (s, target) => s.remove(target));
  command('assay.feed.refresh', (s) => s.reload());
  command('assay.feed.askAgainHere', (s, postId) => s.askAgainHere(postId));

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(FEED_SCHEME, {
      provideTextDocumentContent: async (uri) => (await session()).documentText(uri),
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('assay.feed.url')) void session().then((s) => s.start());
    }),
    view.onDidChangeVisibility(({ visible }) => {
      if (visible && loaded) void loaded.then((s) => s.seen());
    }),
  );

  // Connect at start only when there is a server to connect to (the session reads the stored sign-in).
  if (vscode.workspace.getConfiguration('assay.feed').get<string>('url')) {
    void session().then((s) => s.start()).catch((error: unknown) => output.error(`Team feed: ${error instanceof Error ? error.message : String(error)}`));
  }
  return { session };
}
