import * as vscode from 'vscode';
import type { RunOutcome } from '../../host';
import type { ProgressParams, Question, SourceDocument } from '../../protocol';

/** One question asked in this window: what was asked, of which model, and how it went. */
export interface RunRecord {
  /** The host's run id (unique within the window's host). */
  id: number;
  question: Question;
  /**
   * The model exactly as it was sent (open documents' unsaved text included); witness replay re-uses it.
   * A document's `path` is the file system path for files, the URI string for other documents.
   */
  documents: SourceDocument[];
  /** The URI (as a string) of each document, by its path in `documents`. */
  documentUris?: Record<string, string>;
  /** The outcome as the host decided it, when the comparison of its group has lowered `outcome` since. */
  beforeComparison?: RunOutcome;
  /** Set on each run of one ask of all covering engines: the first run's id (the Runs view nests them, the comparison panel reads them). */
  group?: number;
  /** The engine asked for (absent: the host chose, "auto"). */
  engineChoice?: string;
  /** While queued: the engine the run waits for (it runs one question at a time). */
  waitingFor?: string;
  state: 'queued' | 'running' | 'settled';
  /** The engine answering (known once started). */
  engine?: string;
  /** The last progress the engine reported. */
  progress?: Omit<ProgressParams, 'id'>;
  /** Set when state is 'settled'. */
  outcome?: RunOutcome;
  /** Date.now() when asked. */
  askedAt: number;
  elapsedMs?: number;
}

/** The runs of this window, newest first; the ask flow writes it, the Runs view and the panels read it. */
export class RunHistory implements vscode.Disposable {
  private readonly records: RunRecord[] = [];
  private readonly changed = new vscode.EventEmitter<RunRecord>();
  /** Fires with the record that was added or changed. */
  readonly onDidChange = this.changed.event;

  add(record: RunRecord): void {
    this.records.unshift(record);
    this.changed.fire(record);
  }

  update(id: number, change: Partial<Omit<RunRecord, 'id'>>): RunRecord | undefined {
    const record = this.get(id);
    if (!record) return undefined;
    Object.assign(record, change);
    this.changed.fire(record);
    return record;
  }

  get(id: number): RunRecord | undefined {
    return this.records.find((record) => record.id === id);
  }

  all(): readonly RunRecord[] {
    return this.records;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
