// The comparison panel's HTML: one table (engine, claim, claimed → standing strength, time, reason),
// the verdict above it, and a button per run with a result to open in the witness panel. Drawn here,
// every value escaped; a strict Content Security Policy as the witness panel's (nothing but our own
// style and script, each by nonce). No vscode import: the unit tests render it.
import { differenceText } from '../../host/compare';
import type { ComparisonView } from './compareModel';

export interface CompareHtmlResources {
  /** The webview's `cspSource`. */
  cspSource: string;
  nonce: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Differences not listed: past the first 50 shown, plus those the verdict only counted. */
const more = (listed: number, counted = 0) => Math.max(0, listed - 50) + counted;

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
}

const STATE_TEXT: Record<string, string> = {
  queued: 'queued…', running: 'running…', 'not covered': 'not covered', cancelled: 'cancelled', budget: 'out of budget', error: 'failed',
};

export function compareHtml(view: ComparisonView, r: CompareHtmlResources): string {
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${r.nonce}'`,
    `script-src 'nonce-${r.nonce}'`,
  ].join('; ');
  const v = view.verdict;
  const verdictClass = !v ? 'going' : v.status === 'unresolved' ? 'unresolved' : v.status === 'no answer' ? 'none' : 'stands';
  const title = !v ? view.progress : v.status === 'unresolved' ? 'Unresolved disagreement' : v.status === 'decided' ? 'Disagreement decided by a replayed witness' : v.status === 'agree' ? (v.engines.length === 1 ? 'One answer' : 'The engines agree') : 'No answer stands';
  const differences = v?.status === 'unresolved'
    ? `<ul class="differences">${v.differences.slice(0, 50).map((d) => `<li>${escape(differenceText(d))}</li>`).join('')}${more(v.differences.length, v.moreDifferences) > 0 ? `<li>… ${more(v.differences.length, v.moreDifferences)} more</li>` : ''}</ul>`
    : '';
  const rows = view.rows.map((row) => {
    const strength = row.strength === undefined ? '' : row.strength === row.claimed ? row.strength : `${row.claimed} → ${row.strength}`;
    const lowered = row.strength !== undefined && row.strength !== row.claimed;
    return `<tr data-engine="${escape(row.engine)}" data-state="${escape(row.state)}">
<td class="engine">${escape(row.engine)}</td>
<td class="claim">${escape(row.claim ?? STATE_TEXT[row.state] ?? row.state)}</td>
<td class="strength${lowered ? ' lowered' : ''}">${escape(strength)}</td>
<td class="time">${row.elapsedMs !== undefined ? escape(seconds(row.elapsedMs)) : ''}</td>
<td class="reason">${escape(row.reason)}</td>
<td>${row.hasResult ? `<button data-run="${row.run}" title="Open run ${row.run} in the witness panel">Show</button>` : ''}</td>
</tr>`;
  }).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escape(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${r.nonce}">
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px; }
h1 { font-size: 1.2em; font-weight: 600; margin: 12px 0 4px; }
.verdict { padding: 8px 12px; margin: 8px 0 12px; border-left: 4px solid var(--vscode-charts-blue); background: var(--vscode-textBlockQuote-background); }
.verdict.stands { border-left-color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.verdict.unresolved { border-left-color: var(--vscode-editorWarning-foreground, var(--vscode-charts-yellow)); }
.verdict.none { border-left-color: var(--vscode-disabledForeground); }
.verdict strong { display: block; margin-bottom: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--vscode-panel-border, rgba(128,128,128,.3)); vertical-align: top; }
th { font-weight: 600; }
td.engine, td.claim, td.strength, td.time { white-space: nowrap; }
td.strength.lowered { color: var(--vscode-editorWarning-foreground); }
td.reason { white-space: pre-wrap; word-break: break-word; }
button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 2px 10px; cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
.differences { margin: 4px 0 0; padding-left: 20px; }
</style>
<title>Assay: compare engines</title>
</head>
<body>
<h1>${escape(`${view.question.kind} ${view.question.subject}`)}${view.question.condition ? ` <small>— ${escape(view.question.condition.name)}${view.question.condition.text ? `: ${escape(view.question.condition.text)}` : ''}</small>` : ''}</h1>
<div class="verdict ${verdictClass}" role="status"><strong>${escape(title)}</strong>${v ? escape(v.message) : ''}${differences}</div>
<table>
<thead><tr><th>engine</th><th>claim</th><th>strength</th><th>time</th><th>reason</th><th></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<script nonce="${r.nonce}">
const vscode = acquireVsCodeApi();
for (const button of document.querySelectorAll('button[data-run]')) {
  button.addEventListener('click', () => vscode.postMessage({ type: 'openWitness', run: Number(button.dataset.run) }));
}
</script>
</body>
</html>
`;
}
