import * as vscode from 'vscode';
import type { RememberedTask, TaskCommand } from '../../adapter/editor-commands';
import type { Envelope } from '../../adapter/outcome';

export const taskResultScheme = 'assay-task';

/**
 * The adapter's answers as read-only JSON documents (`assay-task:/submit-3.json`): a content provider
 * has no save, so the editor opens them read-only. The newest few are kept; older ones say so.
 */
export class TaskResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private count = 0;

  constructor(private readonly keep = 100) {}

  add(command: TaskCommand, envelope: Envelope): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: taskResultScheme, path: `/${command}-${++this.count}.json` });
    this.texts.set(uri.toString(), JSON.stringify(envelope, null, 2) + '\n');
    for (const key of this.texts.keys()) {
      if (this.texts.size <= this.keep) break;
      this.texts.delete(key);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ??
      JSON.stringify({ note: `${uri.path.slice(1)} is no longer kept; run the command again to see a fresh answer` }, null, 2) + '\n';
  }
}

const memoryKey = 'assay.tasks.rememberedTasks';

/** The task ids submitted from this workspace, newest first, kept in workspaceState across sessions. */
export class TaskMemory {
  constructor(private readonly state: vscode.Memento) {}

  get(): RememberedTask[] {
    const stored = this.state.get<unknown>(memoryKey);
    if (!Array.isArray(stored)) return [];
    // Written by an older or newer build perhaps: keep only entries of the known shape.
    return stored.filter((t): t is RememberedTask =>
      typeof t === 'object' && t !== null && ['id', 'via', 'source', 'at'].every((k) => typeof (t as Record<string, unknown>)[k] === 'string'));
  }

  set(tasks: RememberedTask[]): Thenable<void> {
    return this.state.update(memoryKey, tasks);
  }
}
