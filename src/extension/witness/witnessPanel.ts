import * as vscode from 'vscode';
import { lazy } from '../loadLazy';
import type { Question, RunResult, SourceDocument } from '../../protocol';
import type { Standing } from '../../host';
import type { PanelState } from '../../webview/messages';
import type { SharedRunView } from '../../host/witness-view-types';
import type { RunHistory, RunRecord } from '../runs/runRecord';
import type { WitnessPanel } from './witnessWebview';

/** A result to show without a run record (what `assay.openWitness` accepts besides a run id). */
export interface WitnessSource {
  runId?: number;
  question: Question;
  result: RunResult;
  documents: SourceDocument[];
  engine?: string;
  standing?: Standing;
  /** Document path as sent → the editor's URI (RunRecord.documentUris); paths not listed are file paths or URIs themselves. */
  documentUris?: Record<string, string>;
  /** A run shared on the team feed (opened from a post): who shared it, and whether the local model differs. */
  shared?: SharedRunView;
}

/** What `assay.openWitness` returns: the panel's view model (the in-editor tests read it). */
export type OpenWitnessResult = import('../../host/witness-view-types').WitnessView | undefined;

/** What the rest of the extension may ask of the open witness panels. */
export interface WitnessPanels {
  /** The run id of the witness panel that is active now (the panel's title-bar actions act on it). */
  activeRun(): number | undefined;
}

// The replay (the SysML front end and semantics) and the panel code are in the bundle loaded on first use.

/**
 * `Assay: Open Witness` (with a run id from the result notification, the Runs view or a quick fix; or
 * with none: a quick pick of this window's runs), and the panels restored after a reload.
 */
export function registerWitnessPanels(context: vscode.ExtensionContext, output: vscode.LogOutputChannel, history: RunHistory): WitnessPanels {
  // By run id, or by `post:<id>` for a shared run.
  const open = new Map<number | string, WitnessPanel>();

  const show = async (source: WitnessSource): Promise<OpenWitnessResult> => {
    const { witnessView } = await lazy();
    const view = { ...witnessView(source), ...(source.shared ? { shared: source.shared } : {}) };
    const key = source.shared ? `post:${source.shared.postId}` : source.runId;
    const existing = key !== undefined ? open.get(key) : undefined;
    if (existing) {
      existing.show(view, source.documentUris, source.documents);
      existing.panel.reveal(undefined, false);
      return view;
    }
    const { WitnessPanel, WITNESS_VIEW_TYPE } = await lazy();
    // One column for Assay's panels: a new one opens as a tab beside the open ones, not in a new group.
    const column = assayPanelColumn() ?? vscode.ViewColumn.Beside;
    const panel = vscode.window.createWebviewPanel(WITNESS_VIEW_TYPE, 'Witness', { viewColumn: column, preserveFocus: false }, { enableScripts: true });
    const witness = new WitnessPanel(panel, context.extensionUri, output);
    if (key !== undefined) {
      const id = key;
      open.set(id, witness);
      witness.onDidDispose(() => open.get(id) === witness && open.delete(id));
    }
    context.subscriptions.push(witness);
    witness.show(view, source.documentUris, source.documents);
    return view;
  };

  const fromRecord = (record: RunRecord): WitnessSource | string => {
    if (record.state !== 'settled' || !record.outcome) return `Assay: run ${record.id} (${record.question.kind} ${record.question.subject}) has not finished yet.`;
    const o = record.outcome;
    if (o.status !== 'answered') return `Assay: run ${record.id} (${record.question.kind} ${record.question.subject}) has no result to show: ${o.status === 'not covered' ? `not covered (${o.reasons.map((r) => `${r.engine}: ${r.reason}`).join('; ')})` : `${o.status}: ${o.message}`}.`;
    return {
      runId: record.id, question: record.question, result: o.result, documents: record.documents, engine: o.engine, standing: o.standing,
      ...(record.documentUris ? { documentUris: record.documentUris } : {}),
    };
  };

  const pick = async (): Promise<RunRecord | undefined> => {
    const { hasWitnessView } = await lazy();
    const candidates = history.all().filter((r) => r.outcome?.status === 'answered' && hasWitnessView(r.outcome.result));
    if (candidates.length === 0) {
      void vscode.window.showInformationMessage('Assay: no run in this window has a witness or result to show yet. Ask a question first (Assay: Ask a Question…).');
      return undefined;
    }
    const items = candidates.map((record) => {
      const o = record.outcome as Extract<RunRecord['outcome'], { status: 'answered' }>;
      const lowered = o.standing.strength !== o.standing.claimed;
      return {
        label: `$(eye) ${record.question.kind} ${record.question.subject}`,
        description: `run ${record.id} · ${o.result.claim} · ${lowered ? `${o.standing.claimed} → ${o.standing.strength}` : o.standing.strength}`,
        detail: o.result.reason,
        record,
      };
    });
    const chosen = await vscode.window.showQuickPick(items, { title: 'Assay: Open Witness', placeHolder: 'Which run?', matchOnDescription: true, matchOnDetail: true });
    return chosen?.record;
  };

  const openWitness = async (argument?: unknown): Promise<OpenWitnessResult> => {
    try {
      let record: RunRecord | undefined;
      if (argument === undefined || argument === null) {
        record = await pick();
        if (!record) return undefined;
      } else if (typeof argument === 'number') {
        record = history.get(argument);
        if (!record) {
          void vscode.window.showWarningMessage(`Assay: run ${argument} is not among this window's runs.`);
          return undefined;
        }
      } else if (isWitnessSource(argument)) {
        return await show(argument);
      } else {
        void vscode.window.showErrorMessage('Assay: Open Witness takes a run id (a number).');
        return undefined;
      }
      const source = fromRecord(record);
      if (typeof source === 'string') {
        void vscode.window.showInformationMessage(source);
        return undefined;
      }
      return await show(source);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      output.error(`Open Witness: ${message}`);
      void vscode.window.showErrorMessage(`Assay: cannot open the witness: ${message}`);
      return undefined;
    }
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('assay.openWitness', openWitness),
    vscode.window.registerWebviewPanelSerializer('assay.witness', {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        const saved = state as PanelState | undefined;
        if (!saved?.view) {
          // Nothing to redraw (the panel closed before it drew anything).
          panel.dispose();
          return;
        }
        const { WitnessPanel } = await lazy();
        const witness = new WitnessPanel(panel, context.extensionUri, output);
        witness.restored(saved);
        context.subscriptions.push(witness);
      },
    }),
  );

  return {
    activeRun: () => [...open.entries()].find(([key, w]) => typeof key === 'number' && w.panel.active)?.[0] as number | undefined,
  };
}

/** The editor column of an open Assay panel (restored ones included), if any. */
function assayPanelColumn(): vscode.ViewColumn | undefined {
  for (const group of vscode.window.tabGroups.all) {
    // VS Code prefixes an extension's view type in the tab input (`mainThreadWebview-assay.witness`).
    if (group.tabs.some((t) => t.input instanceof vscode.TabInputWebview && ASSAY_PANELS.some((type) => (t.input as vscode.TabInputWebview).viewType.endsWith(type)))) return group.viewColumn;
  }
  return undefined;
}

/** The witness panel's and the engine comparison's view types. */
const ASSAY_PANELS = ['assay.witness', 'assay.compare'];

function isWitnessSource(x: unknown): x is WitnessSource {
  const o = x as Partial<WitnessSource> | null;
  return typeof o === 'object' && o !== null && typeof o.question === 'object' && typeof o.result === 'object' && Array.isArray(o.documents);
}
