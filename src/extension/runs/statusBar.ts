import * as vscode from 'vscode';
import { durationText, outcomeReason, progressCounts, questionText, statusText, Throttle } from '../ask/askText';
import type { RunHistory, RunRecord } from './runRecord';

/** Status bar updates per second at most (progress arrives faster from busy engines). */
const STATUS_INTERVAL_MS = 250;

/**
 * One status bar item for the newest run: `$(sync~spin) holds Pkg::Subject · 41,200 steps · depth 18`
 * while it runs, `$(error) violated — witnessed` once it settles. Clicking it shows that run in the Runs view.
 */
export class RunStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('assay.run', vscode.StatusBarAlignment.Left, 10);
  private readonly throttle = new Throttle<void>(STATUS_INTERVAL_MS, () => this.render());
  private readonly subscription: vscode.Disposable;
  /** What the item shows now (for tests and the figures script). */
  text = '';
  /** The run the item shows, which a click reveals. */
  shownRun: number | undefined;

  constructor(private readonly history: RunHistory) {
    this.item.name = 'Assay Run';
    this.item.command = 'assay.runs.reveal';
    this.subscription = history.onDidChange((record) => {
      // A run starting or settling shows at once; progress in between is throttled.
      if (record.state === 'running' && record.progress) this.throttle.push();
      else {
        this.throttle.flush();
        this.render();
      }
    });
  }

  private render(): void {
    const records = this.history.all();
    const active = records.filter((r) => r.state !== 'settled');
    const shown: RunRecord | undefined = active[0] ?? records[0];
    if (!shown) {
      this.item.hide();
      return;
    }
    const more = active.length > 1 ? ` (+${active.length - 1})` : '';
    this.text = statusText(shown) + more;
    this.item.text = this.text;
    this.item.tooltip = tooltipOf(shown);
    this.item.command = { title: 'Show Run', command: 'assay.runs.reveal', arguments: [shown.id] };
    this.shownRun = shown.id;
    this.item.backgroundColor = shown.outcome?.status === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.throttle.dispose();
    this.subscription.dispose();
    this.item.dispose();
  }
}

function tooltipOf(record: RunRecord): vscode.MarkdownString {
  const lines = [`**Assay** — ${questionText(record.question)}`, ''];
  if (record.engine) lines.push(`engine: ${record.engine}`);
  if (record.state !== 'settled') {
    lines.push(record.state === 'queued' ? 'queued' : `running${record.progress ? `: ${progressCounts(record.progress)}` : ''}`);
    lines.push('', 'Cancel with **Assay: Cancel Run**.');
  } else if (record.outcome) {
    lines.push(`${record.outcome.status}${record.elapsedMs !== undefined ? ` after ${durationText(record.elapsedMs)}` : ''}`);
    const reason = outcomeReason(record.outcome);
    if (reason) lines.push('', reason);
  }
  const markdown = new vscode.MarkdownString(lines.join('  \n'));
  return markdown;
}
