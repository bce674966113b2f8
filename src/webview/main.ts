/// <reference lib="dom" />
// Entry of the witness panel's webview (dist/webview.js, a browser bundle). It draws what the extension
// posts (`show`), and after a reload draws what it saved with setState before the extension says anything.
import type { FromWebview, PanelState, ToWebview } from './messages';
import { WitnessPanelView } from './panel';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): PanelState | undefined;
  setState(state: PanelState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root')!;
const panel = new WitnessPanelView(root, { postMessage: (m) => vscode.postMessage(m), setState: (s) => vscode.setState(s) });

// The webview tests read the chart on screen through the page.
(window as unknown as { assayWitness: { chart(): unknown } }).assayWitness = { chart: () => panel.currentChart };

const saved = vscode.getState();

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message?.type === 'modelChanged') {
    panel.modelChanged(message.changed);
    return;
  }
  if (message?.type !== 'show') return;
  // A hidden panel's webview is reloaded when shown again, and the extension sends its view again:
  // the same view keeps the user's place (step, sort, plot).
  const current = vscode.getState();
  const same = current?.view !== undefined && JSON.stringify(current.view) === JSON.stringify(message.view);
  panel.show(message.view, same ? current!.ui : undefined, message.model);
});

if (saved?.view) panel.show(saved.view, saved.ui, saved.model);
vscode.postMessage({ type: 'ready' });
