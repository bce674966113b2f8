import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { SourceLocation, WitnessView } from '../../host/witness-view-types';
import type { FromWebview, ModelFingerprint, PanelState, ToWebview } from '../../webview/messages';
import { witnessHtml } from './witnessHtml';

export const WITNESS_VIEW_TYPE = 'assay.witness';

/** A document path as the host sent it: an absolute file path, or a URI for unsaved and virtual documents. */
export function documentUri(path: string): vscode.Uri {
  return /^[a-zA-Z][\w+.-]+:/.test(path) ? vscode.Uri.parse(path) : vscode.Uri.file(path);
}

export function toRange(l: SourceLocation): vscode.Range {
  return new vscode.Range(l.line - 1, l.column - 1, l.endLine - 1, l.endColumn - 1);
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/**
 * One witness / result panel: draws a WitnessView in its webview, reveals and highlights the node of
 * the selected step in the editor (cleared when the panel closes), saves exports, and asks `evaluate`
 * to confirm an assignment.
 */
export class WitnessPanel implements vscode.Disposable {
  private view: WitnessView | undefined;
  private ready = false;
  private readonly highlight: vscode.TextEditorDecorationType;
  private highlighted: { editor: vscode.TextEditor; ranges: vscode.Range[] } | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;

  constructor(readonly panel: vscode.WebviewPanel, extensionUri: vscode.Uri, private readonly output: vscode.LogOutputChannel) {
    this.highlight = vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
      isWholeLine: true,
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.rangeHighlightForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Center,
    });
    const webview = panel.webview;
    webview.options = webviewOptions(extensionUri);
    const asset = (...segments: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
    webview.html = witnessHtml({
      cspSource: webview.cspSource,
      script: asset('dist', 'webview.js'),
      styles: [asset('dist', 'codicons', 'codicon.css'), asset('media', 'witness.css')],
    });
    this.disposables.push(
      webview.onDidReceiveMessage((m: FromWebview) => void this.onMessage(m).catch((error: unknown) => this.fail(error))),
      panel.onDidDispose(() => this.dispose()),
      // A local run's panel marks when its model's text no longer is the text the run was asked of.
      // Each edit compares only the edited document (a keystroke must not re-read every model file).
      vscode.workspace.onDidChangeTextDocument((e) => {
        const sent = this.sent.find((d) => d.uri === e.document.uri.toString());
        if (sent) void this.postChanged([sent]);
      }),
      // The highlight belongs to the editor; when that editor is closed and reopened it is gone, so re-apply it.
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        const h = this.highlighted;
        if (!h) return;
        const again = editors.find((e) => e.document.uri.toString() === h.editor.document.uri.toString());
        if (again && again !== h.editor) {
          again.setDecorations(this.highlight, h.ranges);
          this.highlighted = { editor: again, ranges: h.ranges };
        }
      }),
    );
  }

  private uris: Record<string, string> = {};
  /**
   * The model's documents as the run read them (by editor URI, with the text's hash), to notice when the
   * user edits them. The webview keeps them in its saved state, so a panel restored after a reload has them too.
   */
  private sent: ModelFingerprint[] = [];
  /** Those of them the editor (or the disk, for a closed one) now holds with other text. */
  private readonly edited = new Set<string>();
  private lastChanged: string | undefined;

  show(view: WitnessView, documentUris: Record<string, string> = {}, documents: readonly { path: string; text: string }[] = []): void {
    this.view = view;
    this.uris = documentUris;
    // A shared run's panel says itself whether the local model differs (SharedRunView.changed).
    this.sent = view.shared ? [] : documents.map((d) => ({ uri: this.uriOf(d.path).toString(), name: d.path.split(/[\\/]/).at(-1) ?? d.path, sha256: sha256(d.text) }));
    this.edited.clear();
    this.lastChanged = undefined;
    this.panel.title = panelTitle(view);
    if (this.ready) void this.post({ type: 'show', view, model: this.sent }).then(() => this.postChanged());
  }

  /**
   * Re-compares `documents` (all of the run's by default) with the editor's text, or the file's for one
   * no editor holds, and posts the mark when it changes.
   */
  private async postChanged(documents: readonly ModelFingerprint[] = this.sent): Promise<void> {
    const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    for (const d of documents) {
      const now = open.get(d.uri)?.getText() ?? (await readText(d.uri));
      if (now !== undefined && sha256(now) !== d.sha256) this.edited.add(d.uri);
      else this.edited.delete(d.uri);
    }
    const names = this.sent.filter((d) => this.edited.has(d.uri)).map((d) => d.name);
    const changed = names.length > 0 ? `${names.join(', ')} ${names.length === 1 ? 'was' : 'were'} edited` : undefined;
    if (changed === this.lastChanged) return;
    this.lastChanged = changed;
    await this.post({ type: 'modelChanged', ...(changed ? { changed } : {}) });
  }

  /** A panel restored after a reload draws from its own saved state; the title comes back from it. */
  restored(state: PanelState): void {
    this.panel.title = panelTitle(state.view);
    // Its `ready` compares them with the editor's text, as an open panel's does on each edit.
    this.sent = state.view.shared ? [] : (state.model ?? []);
  }

  private async post(message: ToWebview): Promise<void> {
    await this.panel.webview.postMessage(message);
  }

  private async onMessage(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.lastChanged = undefined;
        if (this.view) await this.post({ type: 'show', view: this.view, model: this.sent });
        await this.postChanged();
        return;
      case 'reveal':
        await this.reveal(m.location, m.also);
        return;
      case 'confirmAssignment': {
        const uri = m.path ? this.uriOf(m.path) : vscode.window.activeTextEditor?.document.uri;
        this.output.info(`Witness: confirming ${m.bindings.map((b) => `${b.name}=${b.value}${b.unit ? `[${b.unit}]` : ''}`).join(', ')} with evaluate ${m.subject}`);
        // `uri` as a string, as the Ask code lens passes it; `bindings` are protocol values ({ name, value, unit }).
        await vscode.commands.executeCommand('assay.ask', { uri: uri?.toString(), subject: m.subject, kind: 'evaluate', bindings: m.bindings });
        return;
      }
      case 'askAgainHere':
        await vscode.commands.executeCommand('assay.feed.askAgainHere', m.postId);
        return;
      case 'export':
        await this.save(m);
        return;
    }
  }

  /**
   * Shows the declaration beside the panel, puts the cursor on it and highlights its range (and the
   * ranges of `also` in the same document: the other schedule's node of a sensitive step).
   */
  async reveal(location: SourceLocation | undefined, also: readonly SourceLocation[] = []): Promise<vscode.TextEditor | undefined> {
    if (!location) {
      this.clearHighlight();
      return undefined;
    }
    const uri = this.uriOf(location.path);
    const range = toRange(location);
    const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const column = open?.viewColumn ?? (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    let editor: vscode.TextEditor;
    try {
      const document = open?.document ?? (await vscode.workspace.openTextDocument(uri));
      editor = await vscode.window.showTextDocument(document, { viewColumn: column, preserveFocus: true, preview: true });
    } catch (error) {
      this.output.warn(`Witness: cannot open ${location.path}:${location.line}:${location.column}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    editor.selection = new vscode.Selection(range.start, range.start);
    // Reveal the line from its start: revealing the whole range scrolls a long line sideways.
    const lineStart = new vscode.Position(range.start.line, 0);
    editor.revealRange(new vscode.Range(lineStart, lineStart), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.clearHighlight();
    const ranges = [range, ...also.filter((l) => this.uriOf(l.path).toString() === uri.toString()).map(toRange)];
    editor.setDecorations(this.highlight, ranges);
    this.highlighted = { editor, ranges };
    return editor;
  }

  private uriOf(path: string): vscode.Uri {
    const known = this.uris[path];
    return known ? vscode.Uri.parse(known) : documentUri(path);
  }

  private clearHighlight(): void {
    this.highlighted?.editor.setDecorations(this.highlight, []);
    this.highlighted = undefined;
  }

  private async save(m: Extract<FromWebview, { type: 'export' }>): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: `Export ${m.format.toUpperCase()}`,
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, m.fileName) } : {}),
      filters: m.format === 'csv' ? { 'CSV': ['csv'] } : { 'PNG image': ['png'] },
    });
    if (!target) return;
    const bytes = m.format === 'csv' ? new TextEncoder().encode(m.text) : Buffer.from(m.dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
    await vscode.workspace.fs.writeFile(target, bytes);
    this.output.info(`Witness: exported ${target.fsPath}`);
    void vscode.window.showInformationMessage(`Assay: exported ${vscode.workspace.asRelativePath(target)}`);
  }

  private fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.output.error(`Witness panel: ${message}`);
    void vscode.window.showErrorMessage(`Assay: ${message}`);
  }

  private isDisposed = false;

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.clearHighlight();
    this.highlight.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }
}

function panelTitle(view: WitnessView): string {
  const subject = view.question.subject.split('::').at(-1) ?? view.question.subject;
  if (view.shared) return `Shared: ${view.question.kind} ${subject}`;
  return `${view.runId !== undefined ? `Run ${view.runId}: ` : ''}${view.question.kind} ${subject}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A closed document's text on disk; undefined when it cannot be read (not a file any more, or virtual). */
async function readText(uri: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri)));
  } catch {
    return undefined;
  }
}
