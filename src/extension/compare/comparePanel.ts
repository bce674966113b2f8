// The comparison panel: opens when the user asks "All covering engines", follows the engines' runs as
// they settle, and shows the verdict. `Assay: Show Engine Comparison` (and the Runs view's group row)
// opens it again. Its webview only asks to open a run's witness; that message is checked before use.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { lazy } from '../loadLazy';
import type { RunHistory } from '../runs/runRecord';
import { compareHtml } from './compareHtml';
import { comparisonView, loweredByComparison, type ComparisonView } from './compareModel';

export const COMPARE_VIEW_TYPE = 'assay.compare';


/** What `assay.showComparison` returns: the view the panel shows (the in-editor tests read it). */
export type ShowComparisonResult = ComparisonView | undefined;

export function registerComparePanels(context: vscode.ExtensionContext, output: vscode.LogOutputChannel, history: RunHistory): void {
  const panels = new Map<number, vscode.WebviewPanel>();
  const drawn = new Map<number, string>();

  const draw = (group: number): ComparisonView | undefined => {
    const panel = panels.get(group);
    const view = comparisonView(group, history.all());
    if (!panel || !view) return view;
    const key = JSON.stringify(view);
    if (drawn.get(group) === key) return view; // unchanged: progress of a run does not redraw the table
    drawn.set(group, key);
    panel.title = `Compare: ${view.question.kind} ${view.question.subject.split('::').pop()}`;
    panel.webview.html = compareHtml(view, { cspSource: panel.webview.cspSource, nonce: randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '') });
    return view;
  };

  const open = (group: number, preserveFocus: boolean): ComparisonView | undefined => {
    const existing = panels.get(group);
    if (existing) {
      existing.reveal(undefined, preserveFocus);
      return draw(group);
    }
    if (!comparisonView(group, history.all())) return undefined;
    const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, 'Compare engines', { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, { enableScripts: true, localResourceRoots: [] });
    panels.set(group, panel);
    panel.onDidDispose(() => {
      panels.delete(group);
      drawn.delete(group);
    }, undefined, context.subscriptions);
    panel.webview.onDidReceiveMessage(async (message: unknown) => {
      // The check (zod) is in the bundle loaded on first use: the activation bundle stays small.
      const checked = (await lazy()).checkCompareMessage(message);
      if (!checked) {
        output.warn(`Comparison panel: ignored a message that is not {type: "openWitness", run}: ${JSON.stringify(message)?.slice(0, 200)}`);
        return;
      }
      void vscode.commands.executeCommand('assay.openWitness', checked.run);
    }, undefined, context.subscriptions);
    return draw(group);
  };

  context.subscriptions.push(
    history.onDidChange((record) => {
      if (record.group === undefined) return;
      // The group has settled: what the comparison lowered stands in the runs' records too (once: the
      // lowered outcome compares equal the next time).
      if (record.state === 'settled') for (const change of loweredByComparison(record.group, history.all())) history.update(change.run, { outcome: change.outcome, beforeComparison: change.beforeComparison });
      // A new group opens its panel beside the editor (without taking the focus); later changes redraw it.
      if (!panels.has(record.group) && record.id === record.group && record.state !== 'settled' && !drawn.has(-record.group)) {
        drawn.set(-record.group, 'opened once'); // closed by the user: it stays closed until asked for
        open(record.group, true);
      } else if (panels.has(record.group)) draw(record.group);
    }),
    vscode.commands.registerCommand('assay.showComparison', (target?: unknown): ShowComparisonResult => {
      const group = groupOf(target) ?? history.all().find((r) => r.group !== undefined)?.group;
      if (group === undefined) {
        void vscode.window.showInformationMessage('Assay: no question has been asked of all covering engines in this window yet (Assay: Ask a Question…, engine "All covering engines").');
        return undefined;
      }
      const view = open(group, false);
      if (!view) void vscode.window.showWarningMessage(`Assay: ${group} is not an ask of all covering engines in this window.`);
      return view;
    }),
  );
}

/** A group id from a number or a Runs view node ({run, group}). */
function groupOf(target: unknown): number | undefined {
  if (typeof target === 'number') return target;
  if (typeof target === 'object' && target !== null && typeof (target as { group?: unknown }).group === 'number') return (target as { group: number }).group;
  return undefined;
}
