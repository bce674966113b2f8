// The team feed session (loaded on first use): the sign-in kept in SecretStorage, the HTTP client and the
// live channel of src/feed-client, and what the commands do with them. The token is never logged.
import * as vscode from 'vscode';
import {
  compareModel, FeedError, FeedHttp, FeedLive, FeedPosts, feedUrl, postOfRecord, SignInAgain, unshareable, witnessOfPost,
  type LiveStatus,
} from '../../feed-client';
import { Session, type Post } from '../../feed/shapes';
import type { RunHistory, RunRecord } from '../runs/runRecord';
import type { WitnessPanels, WitnessSource } from '../witness/witnessPanel';
import { FEED_SCHEME } from './feed';
import type { FeedNode, FeedTree } from './feedView';

export interface FeedSessionOptions {
  context: vscode.ExtensionContext;
  output: vscode.LogOutputChannel;
  history: RunHistory;
  tree: FeedTree;
  view: vscode.TreeView<unknown>;
  hint: vscode.StatusBarItem;
  witness: WitnessPanels;
}

/** How many posts the view loads (newest first). */
const LOAD = 100;

const secretKey = (url: string) => `assay.feed.session:${url}`;

export class FeedSession implements vscode.Disposable {
  private url: string | undefined;
  private session: Session | undefined;
  private http: FeedHttp | undefined;
  private live: FeedLive | undefined;
  private posts = new FeedPosts();
  private message: string | undefined;
  private unseen = 0;
  private expiredTold = false;

  constructor(private readonly o: FeedSessionOptions) {}

  // ---- connection ----------------------------------------------------------------------------

  /** (Re)reads the URL setting and the stored sign-in, and connects when both are there. */
  async start(): Promise<void> {
    this.stop();
    const text = vscode.workspace.getConfiguration('assay.feed').get<string>('url', '').trim();
    if (!text) {
      this.url = undefined;
      return this.draw(undefined, false);
    }
    try {
      this.url = feedUrl(text);
    } catch (error) {
      this.url = undefined;
      return this.draw(`assay.feed.url: ${error instanceof Error ? error.message : String(error)}`, false);
    }
    const stored = await this.o.context.secrets.get(secretKey(this.url));
    const parsed = stored ? Session.safeParse(safeJson(stored)) : undefined;
    this.session = parsed?.success ? parsed.data : undefined;
    if (!this.session) return this.draw(undefined, false);
    this.connect();
  }

  private connect(): void {
    const url = this.url!;
    const token = () => this.session?.token;
    this.http = new FeedHttp({ url, token });
    this.posts = new FeedPosts();
    this.expiredTold = false;
    const live = (this.live = new FeedLive({ url, token }));
    live.on('status', (s) => this.onStatus(s));
    live.on('change', (change) => {
      if (!this.posts.apply(change)) return;
      if (change.type === 'post:created' && change.post.author.id !== this.session?.user.id && !this.o.view.visible) {
        this.unseen++;
        this.o.hint.text = `$(broadcast) ${this.unseen} new on Team Feed`;
        this.o.hint.tooltip = `Assay: ${this.unseen} new post${this.unseen === 1 ? '' : 's'} on the team feed (${url}); click to show them`;
        this.o.hint.show();
      }
      this.redraw();
    });
    live.on('resync', () => void this.reload());
    live.on('malformed', (error) => this.o.output.warn(`Team feed: ${error.message}`));
    this.o.output.info(`Team feed: connecting to ${url} as ${this.session!.user.username}`);
    this.draw('Connecting…', true);
    live.start();
  }

  private onStatus(status: LiveStatus): void {
    switch (status.state) {
      case 'online':
        this.o.output.info(`Team feed: online (${this.url})`);
        this.draw(undefined, true);
        return;
      case 'offline':
        this.o.output.warn(`Team feed: offline (${status.reason}); reconnecting by itself`);
        this.draw(`Offline — ${this.url} cannot be reached; reconnecting…`, true);
        return;
      case 'signin':
        this.o.output.warn(`Team feed: the server refused the sign-in (${status.reason})`);
        this.draw('Your sign-in has expired or was refused — sign in again.', true);
        if (!this.expiredTold) {
          this.expiredTold = true;
          void this.askToSignIn(new SignInAgain(this.url ?? '', status.reason));
        }
        return;
      default:
        return;
    }
  }

  /** Loads the newest posts over HTTP (at connect, when the live channel cannot replay what was missed, on Refresh). */
  async reload(): Promise<void> {
    if (!this.http) return;
    try {
      this.posts.reset(await this.http.newest(LOAD));
      this.redraw();
    } catch (error) {
      this.fail(error, 'load the feed');
    }
  }

  /** The view became visible: the new posts are seen. */
  seen(): void {
    this.unseen = 0;
    this.o.hint.hide();
  }

  private stop(): void {
    this.live?.close();
    this.live = undefined;
    this.http = undefined;
  }

  private redraw(): void {
    this.o.tree.set({ posts: this.posts.list(), ...(this.session ? { me: this.session.user.id } : {}), ...(this.message ? { message: this.message } : {}) });
  }

  private draw(message: string | undefined, signedIn: boolean): void {
    this.message = message;
    this.o.view.message = message;
    this.o.view.description = signedIn && this.session ? this.session.user.username : undefined;
    void vscode.commands.executeCommand('setContext', 'assay.feed.signedIn', signedIn);
    if (!signedIn) this.posts = new FeedPosts();
    this.redraw();
  }

  // ---- sign in, up, out ------------------------------------------------------------------------

  async signIn(signUp: boolean): Promise<Session | undefined> {
    const what = signUp ? 'Sign Up' : 'Sign In';
    let url = this.url;
    if (!url) {
      const typed = await vscode.window.showInputBox({
        title: `Assay Feed: ${what} — server`,
        prompt: 'The team feed server (saved in the user setting assay.feed.url)',
        placeHolder: 'http://localhost:8080',
        ignoreFocusOut: true,
        validateInput: (v) => {
          try {
            feedUrl(v);
            return undefined;
          } catch (error) {
            return error instanceof Error ? error.message : String(error);
          }
        },
      });
      if (!typed) return undefined;
      url = feedUrl(typed);
      await vscode.workspace.getConfiguration('assay.feed').update('url', url, vscode.ConfigurationTarget.Global);
      this.url = url;
    }
    const username = await vscode.window.showInputBox({ title: `Assay Feed: ${what} (${url})`, prompt: 'User name', ignoreFocusOut: true, ...(this.session ? { value: this.session.user.username } : {}) });
    if (!username) return undefined;
    const password = await vscode.window.showInputBox({ title: `Assay Feed: ${what} as ${username}`, prompt: signUp ? 'Password (8 characters or more)' : 'Password', password: true, ignoreFocusOut: true });
    if (!password) return undefined;
    const http = new FeedHttp({ url });
    let session: Session;
    try {
      session = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Assay Feed: ${signUp ? 'signing up' : 'signing in'} at ${url}…` }, () =>
        signUp ? http.signUp(username, password) : http.signIn(username, password));
    } catch (error) {
      this.fail(error, signUp ? 'sign up' : 'sign in');
      return undefined;
    }
    await this.o.context.secrets.store(secretKey(url), JSON.stringify(session));
    this.o.output.info(`Team feed: signed ${signUp ? 'up' : 'in'} at ${url} as ${session.user.username}`);
    this.session = session;
    this.stop();
    this.connect();
    void vscode.window.showInformationMessage(`Assay Feed: signed in as ${session.user.username} at ${url}.`);
    return session;
  }

  async signOut(): Promise<void> {
    if (this.url) await this.o.context.secrets.delete(secretKey(this.url));
    const who = this.session?.user.username;
    this.session = undefined;
    this.stop();
    this.draw(undefined, false);
    this.seen();
    if (who) this.o.output.info(`Team feed: signed out (${who})`);
    void vscode.window.showInformationMessage(who ? `Assay Feed: signed out (${who}).` : 'Assay Feed: not signed in.');
  }

  /** The HTTP client of a signed-in session, or a prompt to sign in. */
  private async client(): Promise<FeedHttp | undefined> {
    if (!this.url || !this.session || !this.http) {
      const choice = await vscode.window.showWarningMessage('Assay Feed: sign in to the team feed first.', 'Sign In…', 'Sign Up…');
      if (choice) await this.signIn(choice === 'Sign Up…');
      return this.session ? this.http : undefined;
    }
    return this.http;
  }

  // ---- share ---------------------------------------------------------------------------------

  /** Shares a run (a Runs view row, a run id, or none: the active witness panel's run or a pick). */
  async share(target: unknown): Promise<Post | undefined> {
    const record = await this.recordOf(target);
    if (!record) return undefined;
    const why = unshareable(record);
    if (why) {
      void vscode.window.showWarningMessage(`Assay Feed: ${why}.`);
      return undefined;
    }
    const http = await this.client();
    if (!http) return undefined;
    const o = record.outcome as Extract<RunRecord['outcome'], { status: 'answered' }>;
    const subject = record.question.subject.split('::').at(-1) ?? record.question.subject;
    const title = await vscode.window.showInputBox({
      title: 'Share to Team Feed (1/2): title',
      value: `${subject}: ${record.question.kind} ${o.result.claim}`,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? 'A title is needed.' : v.trim().length > 200 ? 'At most 200 characters.' : undefined),
    });
    if (title === undefined) return undefined;
    const note = await vscode.window.showInputBox({ title: 'Share to Team Feed (2/2): note (optional)', prompt: 'What your team should look at; Enter to skip', ignoreFocusOut: true });
    if (note === undefined) return undefined;
    const post = postOfRecord(record, { title, note, pathOf: (path) => sharedPath(path, record.documentUris) });
    try {
      const created = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Assay Feed: sharing "${post.title}"…` }, () => http.create(post));
      this.posts.apply({ type: 'post:created', seq: -1, post: created });
      this.redraw();
      this.o.output.info(`Team feed: shared run ${record.id} as post ${created.id}`);
      void vscode.window.showInformationMessage(`Assay Feed: shared "${created.title}" to the team feed.`, 'Show Team Feed')
        .then((c) => c && vscode.commands.executeCommand('assay.feed.focus'));
      return created;
    } catch (error) {
      this.fail(error, 'share the run');
      return undefined;
    }
  }

  private async recordOf(target: unknown): Promise<RunRecord | undefined> {
    const history = this.o.history;
    let id: number | undefined;
    if (typeof target === 'number') id = target;
    else if (typeof target === 'object' && target !== null && typeof (target as { run?: unknown }).run === 'number') id = (target as { run: number }).run;
    else id = this.o.witness.activeRun();
    if (id !== undefined) {
      const record = history.get(id);
      if (!record) void vscode.window.showWarningMessage(`Assay Feed: run ${id} is not among this window's runs.`);
      return record;
    }
    const answered = history.all().filter((r) => r.outcome?.status === 'answered');
    if (answered.length === 0) {
      void vscode.window.showInformationMessage('Assay Feed: no run in this window has an answer to share yet. Ask a question first.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      answered.map((r) => ({ label: `${r.question.kind} ${r.question.subject}`, description: `run ${r.id} · ${(r.outcome as { result: { claim: string } }).result.claim}`, record: r })),
      { title: 'Share to Team Feed', placeHolder: 'Which run?' },
    );
    return picked?.record;
  }

  // ---- open, ask again -----------------------------------------------------------------------

  private async postOf(target: unknown): Promise<Post | undefined> {
    const id = typeof target === 'string' ? target : typeof target === 'object' && target !== null ? (target as Partial<FeedNode>).post : undefined;
    if (typeof id !== 'string') {
      void vscode.window.showWarningMessage('Assay Feed: choose a post in the Team Feed view.');
      return undefined;
    }
    const known = this.posts.get(id);
    if (known) return known;
    const http = await this.client();
    return http?.get(id);
  }

  /** Opens the witness panel on a post's run, its model text in read-only documents. */
  async open(target: unknown): Promise<unknown> {
    let post: Post | undefined;
    try {
      post = await this.postOf(target);
    } catch (error) {
      this.fail(error, 'open the post');
      return undefined;
    }
    if (!post) return undefined;
    const witness = witnessOfPost(post);
    if (typeof witness === 'string') {
      void vscode.window.showInformationMessage(`Assay Feed: ${witness}.`);
      return undefined;
    }
    const comparison = compareModel({ documents: witness.documents, hash: witness.post.hash }, await this.localTexts(witness.documents.map((d) => d.path)));
    const changed = comparison.state === 'same' ? undefined
      : [...comparison.changed.map((p) => `${p} differs`), ...comparison.missing.map((p) => `${p} is not in this workspace`)].join('; ');
    const documentUris = Object.fromEntries(witness.documents.map((d) => [d.path, documentUri(post.id, d.path).toString()]));
    const source: WitnessSource = {
      question: witness.question, result: witness.result, documents: witness.documents, engine: witness.engine, standing: witness.standing, documentUris,
      shared: { postId: post.id, title: post.title, note: post.body, author: post.author.username, postedAt: post.createdAt, hash: witness.post.hash, ...(changed ? { changed } : {}) },
    };
    return vscode.commands.executeCommand('assay.openWitness', source);
  }

  /** The local texts at the shared paths (open documents' unsaved text first, as a run sends it). */
  private async localTexts(paths: string[]): Promise<(path: string) => string | undefined> {
    const texts = new Map<string, string>();
    for (const path of paths) {
      for (const uri of localUris(path)) {
        const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (open) {
          texts.set(path, open.getText());
          break;
        }
        try {
          texts.set(path, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
          break;
        } catch {
          // not here; try the next workspace folder
        }
      }
    }
    return (path) => texts.get(path);
  }

  /** Asks a shared run's question again of the local model, and says how the answers compare. */
  async askAgainHere(postId: unknown): Promise<number[] | undefined> {
    const post = await this.postOf(postId);
    const run = post?.run;
    if (!post || !run) return undefined;
    const first = run.model.documents.map((d) => localUris(d.path)[0]).find((u) => u !== undefined);
    const q = run.question;
    const ids = await vscode.commands.executeCommand<number[] | undefined>('assay.ask', {
      ...(first ? { uri: first.toString() } : {}),
      subject: q.subject, kind: q.kind, schedule: q.schedule,
      // No condition: the run was about the subject's asserted constraints (null says so, instead of a pick).
      condition: q.condition ?? null,
      ...(q.bindings ? { bindings: q.bindings } : {}),
    });
    if (!ids || ids.length === 0) return ids;
    void this.compareWhenSettled(ids[0]!, post).catch((error: unknown) => this.o.output.error(String(error)));
    return ids;
  }

  private async compareWhenSettled(id: number, post: Post): Promise<void> {
    const record = await new Promise<RunRecord>((resolve) => {
      const now = this.o.history.get(id);
      if (now?.state === 'settled') return resolve(now);
      const sub = this.o.history.onDidChange((r) => {
        if (r.id === id && r.state === 'settled') {
          sub.dispose();
          resolve(r);
        }
      });
    });
    const run = post.run!;
    const shared = `${run.result.claim}, ${run.standing.strength}`;
    const o = record.outcome;
    const here = o?.status === 'answered' ? `${o.result.claim}, ${o.standing.strength}` : o?.status ?? 'no answer';
    const same = here === shared;
    void vscode.window.showInformationMessage(
      `Assay Feed: asked again here — ${run.question.kind} ${run.question.subject}: ${here} (run ${record.id}); shared by ${post.author.username}: ${shared}.${same ? ' Same answer.' : ' The answers differ.'}`,
    );
  }

  /** The text of a shared model document (`assay-feed:/<post id>/<path>`). */
  async documentText(uri: vscode.Uri): Promise<string> {
    const [, postId, ...rest] = uri.path.split('/');
    const post = postId ? await this.postOf(postId) : undefined;
    const path = rest.join('/');
    const doc = post?.run?.model.documents.find((d) => d.path.replace(/^\/+/, '') === path);
    if (!doc) throw new Error(`no shared document ${path} in post ${postId}`);
    return doc.text;
  }

  // ---- own posts -----------------------------------------------------------------------------

  private async own(target: unknown): Promise<{ post: Post; http: FeedHttp } | undefined> {
    const post = await this.postOf(target);
    const http = await this.client();
    if (!post || !http) return undefined;
    if (post.author.id !== this.session?.user.id) {
      void vscode.window.showWarningMessage(`Assay Feed: "${post.title}" is ${post.author.username}'s post; only its author may change it.`);
      return undefined;
    }
    return { post, http };
  }

  async edit(target: unknown): Promise<Post | undefined> {
    const mine = await this.own(target);
    if (!mine) return undefined;
    const { post, http } = mine;
    const title = await vscode.window.showInputBox({ title: 'Edit Post (1/2): title', value: post.title, ignoreFocusOut: true, validateInput: (v) => (v.trim() === '' ? 'A title is needed.' : undefined) });
    if (title === undefined) return undefined;
    const note = await vscode.window.showInputBox({ title: 'Edit Post (2/2): note', value: post.body, ignoreFocusOut: true });
    if (note === undefined) return undefined;
    try {
      const edited = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Assay Feed: saving…' }, () => http.update(post.id, { title, body: note }));
      this.posts.apply({ type: 'post:updated', seq: -1, post: edited });
      this.redraw();
      return edited;
    } catch (error) {
      this.fail(error, 'edit the post');
      return undefined;
    }
  }

  async remove(target: unknown): Promise<boolean> {
    const mine = await this.own(target);
    if (!mine) return false;
    const { post, http } = mine;
    const yes = await vscode.window.showWarningMessage(`Delete "${post.title}" from the team feed?`, { modal: true, detail: 'Your teammates will no longer see it.' }, 'Delete');
    if (yes !== 'Delete') return false;
    try {
      await http.remove(post.id);
      this.posts.apply({ type: 'post:deleted', seq: -1, id: post.id });
      this.redraw();
      return true;
    } catch (error) {
      this.fail(error, 'delete the post');
      return false;
    }
  }

  // ---- errors --------------------------------------------------------------------------------

  private fail(error: unknown, what: string): void {
    if (error instanceof SignInAgain) {
      void this.askToSignIn(error);
      return;
    }
    const message = error instanceof FeedError ? error.message : `cannot ${what}: ${error instanceof Error ? error.message : String(error)}`;
    this.o.output.error(`Team feed: ${message}`);
    void vscode.window.showErrorMessage(`Assay Feed: ${message}`);
  }

  private async askToSignIn(error: SignInAgain): Promise<void> {
    this.o.output.warn(`Team feed: ${error.message}`);
    const choice = await vscode.window.showWarningMessage(`Assay Feed: ${error.message}.`, 'Sign In…');
    if (choice) await this.signIn(false);
  }

  dispose(): void {
    this.stop();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A document's shared path: workspace-relative when it is in the workspace, so a teammate's workspace resolves it. */
function sharedPath(path: string, uris: Record<string, string> | undefined): string {
  const known = uris?.[path];
  const uri = known ? vscode.Uri.parse(known) : /^[a-zA-Z][\w+.-]+:/.test(path) ? vscode.Uri.parse(path) : vscode.Uri.file(path);
  if (uri.scheme !== 'file') return path;
  return vscode.workspace.asRelativePath(uri, false);
}

/** Where a shared path may be in this workspace (absolute paths as they are). */
function localUris(path: string): vscode.Uri[] {
  if (path.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(path)) return [vscode.Uri.file(path)];
  if (/^[a-zA-Z][\w+.-]+:/.test(path)) return [];
  return (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, path));
}

/** The read-only document of a shared model text. */
function documentUri(postId: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: FEED_SCHEME, path: `/${postId}/${path.replace(/^\/+/, '')}` });
}
