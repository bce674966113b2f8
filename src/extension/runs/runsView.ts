import * as vscode from 'vscode';
import { durationText, hasWitness, questionText, runsEntry, Throttle } from '../ask/askText';
import type { RunHistory, RunRecord } from './runRecord';
import { groupRecords, runsRoots } from '../compare/compareModel';
import { groupTreeItem } from '../compare/compareTree';

/** A row of the Runs view: a run, or one detail line under it. Commands on rows receive this. */
export interface RunNode {
  run: number;
  detail?: number;
  /** Set on the row of one ask of all covering engines (run is then the group's first run). */
  group?: number;
}

/** The tree item context values the menus in package.json select on. */
export function contextValueOf(record: RunRecord): 'assay.run.running' | 'assay.run.settled' | 'assay.run.witnessed' {
  if (record.state !== 'settled') return 'assay.run.running';
  return hasWitness(record.outcome) ? 'assay.run.witnessed' : 'assay.run.settled';
}

function iconOf(record: RunRecord): vscode.ThemeIcon {
  if (record.state === 'queued') return new vscode.ThemeIcon('clock');
  if (record.state === 'running') return new vscode.ThemeIcon('sync~spin');
  const o = record.outcome;
  if (o?.status === 'answered') {
    const claim = o.result.claim;
    if (claim === 'violated' || claim === 'unsatisfiable') return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    if (claim === 'sensitive' || claim === 'unbounded' || claim === 'none') return new vscode.ThemeIcon('warning');
    return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
  }
  if (o?.status === 'cancelled' || o?.status === 'not covered') return new vscode.ThemeIcon('circle-slash');
  if (o?.status === 'budget') return new vscode.ThemeIcon('watch');
  return new vscode.ThemeIcon('error');
}

/**
 * The Runs view: every run of this window from the shared history, newest first, with its engine,
 * claim, standing strength and duration; the reasons and details one level down. While there are no
 * runs the view shows the welcome text contributed in package.json (`viewsWelcome`).
 */
export class RunsTree implements vscode.TreeDataProvider<RunNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RunNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly throttle = new Throttle<void>(250, () => this.changed.fire(undefined));
  private readonly subscription: vscode.Disposable;

  constructor(private readonly history: RunHistory) {
    this.subscription = history.onDidChange((record) => {
      if (record.state === 'running' && record.progress) this.throttle.push();
      else {
        this.throttle.dispose();
        this.changed.fire(undefined);
      }
    });
  }

  /** The row of run `id` (the newest run's without one); a run of a group is nested under the group's row. */
  nodeOf(id?: number): RunNode | undefined {
    const record = id === undefined ? this.history.all()[0] : this.history.get(id);
    return record ? { run: record.id } : undefined;
  }

  get size(): number {
    return this.history.all().length;
  }

  getTreeItem(node: RunNode): vscode.TreeItem {
    if (node.group !== undefined) return groupTreeItem(node.group, this.history.all());
    const record = this.history.get(node.run);
    if (!record) return new vscode.TreeItem(`run ${node.run} (gone)`);
    const entry = runsEntry(record);
    if (node.detail !== undefined) {
      const item = new vscode.TreeItem(entry.details[node.detail] ?? '', vscode.TreeItemCollapsibleState.None);
      item.tooltip = entry.details[node.detail];
      return item;
    }
    const item = new vscode.TreeItem(entry.label, entry.details.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `run-${record.id}`;
    // Which run and when, after what it says: runs of the same question tell apart at a glance.
    const at = new Date(record.askedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    item.description = `${entry.description} · #${record.id} ${at}`;
    item.iconPath = iconOf(record);
    item.contextValue = contextValueOf(record);
    const tooltip = new vscode.MarkdownString([
      `**${questionText(record.question)}** (run ${record.id})`, '',
      entry.description, '',
      ...entry.details,
      `asked ${new Date(record.askedAt).toLocaleTimeString()}${record.elapsedMs !== undefined ? `, took ${durationText(record.elapsedMs)}` : ''}`,
    ].join('  \n'));
    item.tooltip = tooltip;
    return item;
  }

  getChildren(node?: RunNode): RunNode[] {
    if (!node) return runsRoots(this.history.all()).map((root) => ('group' in root ? { run: root.group, group: root.group } : root));
    if (node.group !== undefined) return groupRecords(this.history.all(), node.group).map((record) => ({ run: record.id }));
    if (node.detail !== undefined) return [];
    const record = this.history.get(node.run);
    return record ? runsEntry(record).details.map((_, detail) => ({ run: node.run, detail })) : [];
  }

  getParent(node: RunNode): RunNode | undefined {
    if (node.detail !== undefined) return { run: node.run };
    const group = node.group === undefined ? this.history.get(node.run)?.group : undefined;
    return group !== undefined ? { run: group, group } : undefined;
  }

  dispose(): void {
    this.throttle.dispose();
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** Shows the Runs view with run `id` selected (the newest run without one); returns the node revealed. */
export async function revealRun(view: vscode.TreeView<RunNode>, tree: RunsTree, id?: number): Promise<RunNode | undefined> {
  const node = tree.nodeOf(id);
  if (!node) {
    await vscode.commands.executeCommand('assay.runs.focus');
    return undefined;
  }
  await view.reveal(node, { select: true, focus: true, expand: false });
  return node;
}
