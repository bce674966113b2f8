// The Runs view's row for one ask of all covering engines: the question, the verdict (or how many
// engines have answered), its runs one level down. The view itself stays in runs/runsView.ts.
import * as vscode from 'vscode';
import type { RunRecord } from '../runs/runRecord';
import { comparisonView, groupDescription, groupLabel } from './compareModel';

export function groupTreeItem(group: number, records: readonly RunRecord[]): vscode.TreeItem {
  const view = comparisonView(group, records);
  if (!view) return new vscode.TreeItem(`comparison ${group} (gone)`);
  const item = new vscode.TreeItem(groupLabel(view.question), vscode.TreeItemCollapsibleState.Expanded);
  item.id = `group-${group}`;
  item.description = groupDescription(view);
  item.contextValue = 'assay.runs.group';
  const v = view.verdict;
  item.iconPath = !v
    ? new vscode.ThemeIcon('sync~spin')
    : v.status === 'unresolved'
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground'))
      : v.status === 'no answer'
        ? new vscode.ThemeIcon('circle-slash')
        : v.claim === 'violated' || v.claim === 'unsatisfiable'
          ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
          : new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
  item.tooltip = `${groupLabel(view.question)} (${view.rows.length} engines)\n${groupDescription(view)}`;
  item.command = { command: 'assay.showComparison', title: 'Show Engine Comparison', arguments: [group] };
  return item;
}
