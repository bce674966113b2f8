// Messages between the witness panel (extension side, src/extension/witness/) and its webview.
import type { SourceLocation, WitnessView } from '../host/witness-view-types';

/** What the webview keeps with vscode.setState (restored when VS Code reloads the panel). */
export interface PanelState {
  view: WitnessView;
  ui: UiState;
  /** The model's documents as the run read them, kept so that a panel restored after a reload can still mark an edit. */
  model?: ModelFingerprint[];
}

/** One document of a run's model: its editor URI, file name and the SHA-256 of the text the run was asked of. */
export interface ModelFingerprint {
  uri: string;
  name: string;
  sha256: string;
}

export interface UiState {
  /** Selected step (schedule, sensitive: aligned row; outcome replays: within the execution). */
  step: number;
  /** Outcomes: the execution being replayed, or -1 for the cards. */
  execution: number;
  sort?: { column: number; descending: boolean };
  plot: number;
}

export type ToWebview =
  | { type: 'show'; view: WitnessView; model?: ModelFingerprint[] }
  /** Whether the model's documents now differ from the text the run was asked of (what differs), or not. */
  | { type: 'modelChanged'; changed?: string };

export type FromWebview =
  | { type: 'ready' }
  /** A step was selected: reveal and highlight the node's declaration (none: clear the highlight). */
  | { type: 'reveal'; location?: SourceLocation; also?: SourceLocation[] }
  | { type: 'confirmAssignment'; subject: string; path?: string; bindings: { name: string; value: number | boolean | string; unit?: string }[] }
  /** A shared run: ask its question again of the local model. */
  | { type: 'askAgainHere'; postId: string }
  | { type: 'export'; format: 'csv'; fileName: string; text: string }
  | { type: 'export'; format: 'png'; fileName: string; dataUrl: string };
