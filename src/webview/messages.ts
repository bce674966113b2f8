// Messages between the witness panel (extension side, src/extension/witness/) and its webview.
import type { SourceLocation, WitnessView } from '../host/witness-view-types';

/** What the webview keeps with vscode.setState (restored when VS Code reloads the panel). */
export interface PanelState {
  view: WitnessView;
  ui: UiState;
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
  | { type: 'show'; view: WitnessView }
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
