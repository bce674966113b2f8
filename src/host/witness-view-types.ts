// What a witness / result panel shows, as plain data: the host computes it (witness-view.ts), the
// webview draws it (src/webview). Nothing here may import node or vscode: the webview bundle reads it.

/** A place in a model document; lines and columns are 1-based, as the front end counts them. */
export interface SourceLocation {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface ValueRow {
  name: string;
  /** The value as notation (`1780 [kg]`, `true`, `Colour::red`). */
  text: string;
  value: number | boolean | string;
  unit?: string;
}

export interface ConditionValue {
  name: string;
  /** `true`, `false`, or `error: …` when the condition cannot be evaluated in that state. */
  value: string;
}

/** Step 0 is the initial state (no move); step N is the state after move N. */
export interface StepView {
  n: number;
  /** `t1@ns.nsLight.red->green` (the schedule's token text, shown on hover); absent for step 0. */
  move?: string;
  /** The move in plain words: `ns.nsLight: red → green` (a machine's transition), `makeA` (an action by its path). */
  label?: string;
  token?: string;
  node?: string;
  /** Every move enabled before this step, in canonical order (the schedule's `first of …`). */
  enabled: string[];
  /** `enabled` in plain words, in the same order. */
  enabledLabels: string[];
  /** The move at which the claimed violation is evaluated. */
  violating: boolean;
  /** Seconds on the model's clock when the step happened (0 for the initial state). */
  clock: number;
  /** `running`, or how the run ended after this step (`done`, `terminated`, `deadlock`). */
  status: string;
  /** Token positions after the step (`t1@red`). */
  positions: string[];
  /** Each state machine's active state after the step (`state: Active.Cruising`; regions joined by `, `). */
  machines: { name: string; state: string }[];
  /** One per `ReplayView.features`, in that order; `no value` when the feature has none. */
  values: string[];
  /** Names of the features whose value differs from the previous step's. */
  changed: string[];
  /** One per `ReplayView.conditions`. */
  conditions: ConditionValue[];
  pending: string[];
  /** Declaration of the node (or transition) the move fires, to reveal in the editor. */
  location?: SourceLocation;
}

/** One schedule replayed by the host through the shared semantics. */
export interface ReplayView {
  label: string;
  schedule: string;
  features: string[];
  conditions: string[];
  /** Inputs the replay starts from (the question's bindings and the witness's chosen inputs). */
  inputs: ValueRow[];
  steps: StepView[];
  /** The step the witness says the violation is at (holds). */
  at?: number;
  /** Why the replay stopped before the schedule's end. */
  error?: string;
  /** False when the host could not replay the schedule: the steps are the moves as sent, without states. */
  replayed: boolean;
}

/** The host's own re-check of the witness by replay. */
export interface ReplayCheck {
  /** `confirmed`: the replay shows the claim; `refuted`: it does not; `unchecked`: the host cannot replay this model. */
  verdict: 'confirmed' | 'refuted' | 'unchecked';
  text: string;
}

export interface OutcomeCard {
  index: number;
  /** `done`, `terminated`, `deadlock`. */
  end: string;
  values: ValueRow[];
  /** Index into `OutcomesContent.executions`, when the outcome has a schedule to replay. */
  execution?: number;
  /** Set when the host's replay of this execution ends differently from what the engine reported. */
  mismatch?: string;
}

export interface EndDifference {
  feature: string;
  left: string;
  right: string;
  /** The feature the witness names. */
  named: boolean;
}

export interface TableColumn {
  name: string;
  unit?: string;
  /** A swept parameter (an input of the table), not a computed column. */
  parameter: boolean;
}

export interface TableCell {
  text: string;
  value: number | boolean | string | null;
}

export interface SummaryValue {
  stat: string;
  column: string;
  text: string;
}

export type PlotSpec =
  | { kind: 'line'; title: string; x: string; xUnit?: string; series: { name: string; unit?: string; points: [number, number][] }[] }
  | { kind: 'heatmap'; title: string; x: string; y: string; value: string; unit?: string; xs: number[]; ys: number[]; cells: { x: number; y: number; v: number }[] }
  | { kind: 'histogram'; title: string; column: string; unit?: string; bins: { from: number; to: number; count: number }[] };

export interface TableView {
  columns: TableColumn[];
  rows: TableCell[][];
  summary: SummaryValue[];
  plots: PlotSpec[];
}

export type WitnessContent =
  | { kind: 'schedule'; replay: ReplayView }
  | {
    kind: 'sensitive';
    feature?: string;
    /** What the two ends differ in, worded for the feature the witness names: `different values of x`,
     * `in different states (the configuration of m)`, `differently (how each run ends …)`. */
    differIn?: string;
    left: ReplayView;
    right: ReplayView;
    divergence?: number;
    ends: EndDifference[];
  }
  | { kind: 'outcomes'; outcomes: OutcomeCard[]; executions: ReplayView[] }
  | {
    kind: 'assignment';
    /** What the inputs are: chosen to satisfy (satisfiable) or found to violate (holds). */
    heading: string;
    inputs: (ValueRow & { type?: string; free?: boolean })[];
    values: ValueRow[];
    /** The question's bindings and the chosen inputs, for confirming by `evaluate` (satisfiable only). */
    bindings?: { name: string; value: number | boolean | string; unit?: string }[];
  }
  | { kind: 'values'; values: ValueRow[] }
  | { kind: 'table'; table: TableView }
  | { kind: 'message'; text: string };

/** A run shared on the team feed, opened from a post (src/extension/feed/). */
export interface SharedRunView {
  postId: string;
  title: string;
  note: string;
  author: string;
  /** ISO time of the post. */
  postedAt: string;
  /** The shared model's content hash. */
  hash: string;
  /** Set when the local model differs from the shared one: what differs, for the mark. */
  changed?: string;
}

export interface WitnessView {
  runId?: number;
  /** Present when the view is of a shared run (a team feed post). */
  shared?: SharedRunView;
  /** `holds TrafficLight::TimedCrossing`. */
  title: string;
  question: { kind: string; subject: string; schedule: string; condition?: string; bindings: ValueRow[] };
  /** A document of the model as sent, for the confirm-by-evaluate request (`assay.ask`). */
  modelPath?: string;
  engine?: string;
  claim: string;
  strength: { claimed: string; standing: string; reasons: string[] };
  reason?: string;
  check?: ReplayCheck;
  content: WitnessContent;
}
