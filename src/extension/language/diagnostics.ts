import * as vscode from 'vscode';
import { ModelOutline } from '../ask/askModel';
import { strengthText } from '../ask/askText';
import type { RunRecord } from '../runs/runRecord';

const SOURCE = 'assay';

interface Violation {
  subject: string;
  runId: number;
  diagnostic: vscode.Diagnostic;
}

/**
 * A violated `holds` as a problem on the subject's declaration (source `assay`), with the quick fix
 * "Show witness". A later `holds` answer for the same subject clears it; a later violation replaces it.
 */
export class ViolationDiagnostics implements vscode.Disposable, vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];
  private readonly collection = vscode.languages.createDiagnosticCollection(SOURCE);
  private readonly violations = new Map<string, Violation[]>();
  private readonly registration = vscode.languages.registerCodeActionsProvider(
    [{ language: 'sysml' }, { language: 'kerml' }], this, { providedCodeActionKinds: ViolationDiagnostics.providedCodeActionKinds });

  /** Updates the problems for a settled run; returns the URIs of the subject's declarations it marked. */
  settled(record: RunRecord): string[] {
    const o = record.outcome;
    if (record.question.kind !== 'holds' || o?.status !== 'answered') return [];
    const subject = record.question.subject;
    if (o.result.claim === 'holds') {
      this.clear(subject);
      return [];
    }
    if (o.result.claim !== 'violated') return [];
    this.clear(subject);
    const marked: string[] = [];
    for (const place of new ModelOutline(record.documents).locate(subject)) {
      const uriText = record.documentUris?.[place.path];
      if (!uriText) continue;
      const n = place.nameRange;
      const range = new vscode.Range(n.line - 1, n.column - 1, n.endLine - 1, n.endColumn - 1);
      const reason = o.result.reason ? `: ${o.result.reason}` : '';
      const diagnostic = new vscode.Diagnostic(range,
        `${subject} violates holds (${strengthText(o)}, run ${record.id} by ${o.engine})${reason}`, vscode.DiagnosticSeverity.Warning);
      diagnostic.source = SOURCE;
      diagnostic.code = `run ${record.id}`;
      const list = this.violations.get(uriText) ?? [];
      list.push({ subject, runId: record.id, diagnostic });
      this.violations.set(uriText, list);
      marked.push(uriText);
    }
    this.publish();
    return marked;
  }

  private clear(subject: string): void {
    for (const [uri, list] of this.violations) {
      const kept = list.filter((v) => v.subject !== subject);
      if (kept.length === 0) this.violations.delete(uri);
      else this.violations.set(uri, kept);
    }
    this.publish();
  }

  private publish(): void {
    this.collection.clear();
    for (const [uri, list] of this.violations) this.collection.set(vscode.Uri.parse(uri), list.map((v) => v.diagnostic));
  }

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const list = this.violations.get(document.uri.toString()) ?? [];
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== SOURCE) continue;
      // The context carries copies: match on what a copy keeps.
      const violation = list.find((v) => v.diagnostic.message === diagnostic.message && v.diagnostic.range.isEqual(diagnostic.range));
      if (!violation) continue;
      const action = new vscode.CodeAction('Show witness', vscode.CodeActionKind.QuickFix);
      action.command = { command: 'assay.openWitness', title: 'Show witness', arguments: [violation.runId] };
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      actions.push(action);
    }
    return actions;
  }

  dispose(): void {
    this.registration.dispose();
    this.collection.dispose();
  }
}
