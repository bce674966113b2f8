// Messages between the extension (language client) and the Assay language server beyond LSP.
// Both sides import this file; it must stay free of `vscode` and of server-only modules.

/**
 * Client → server notification: what the configured engines can answer, from their manifest entries
 * (`answers`, `subjects`), sent at start and whenever `assay.engines` / `assay.useBundledEngine` change.
 * The server shows an `Ask:` code lens above each declaration whose kind some engine lists in `subjects`.
 */
export const ENGINE_ANSWERS_NOTIFICATION = 'assay/engineAnswers';

export interface EngineAnswersParams {
  engines: { name: string; answers: string[]; subjects: string[] }[];
}

/** The arguments a code lens passes to the `assay.ask` command (the kind preselected). */
export interface AskLensArguments {
  /** The document the lens is in (a URI string). */
  uri: string;
  /** The subject's qualified name, e.g. `TrafficLight::TimedCrossing`. */
  subject: string;
  /** The question kind; absent for the `Ask…` lens, which offers the kinds that fit. */
  kind?: string;
}
