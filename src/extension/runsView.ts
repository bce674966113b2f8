import * as vscode from 'vscode';

/** A settled or running question as the Runs view lists it. */
export interface RunEntry {
  label: string;
  description: string;
  tooltip: string;
}

/**
 * The Runs view. Runs are added by the question flow; while there are none the view shows the
 * welcome text contributed in package.json (`viewsWelcome`).
 */
export class RunsTree implements vscode.TreeDataProvider<RunEntry> {
  private readonly entries: RunEntry[] = [];
  private readonly changed = new vscode.EventEmitter<RunEntry | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  add(entry: RunEntry): void {
    this.entries.unshift(entry);
    this.changed.fire(undefined);
  }

  get size(): number {
    return this.entries.length;
  }

  getTreeItem(entry: RunEntry): vscode.TreeItem {
    const item = new vscode.TreeItem(entry.label, vscode.TreeItemCollapsibleState.None);
    item.description = entry.description;
    item.tooltip = entry.tooltip;
    return item;
  }

  getChildren(entry?: RunEntry): RunEntry[] {
    return entry ? [] : [...this.entries];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
