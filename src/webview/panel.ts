/// <reference lib="dom" />
// The witness / result panel inside the webview: draws the host's view model (witness-view-types.ts),
// keeps the user's place (step, sort, plot) in the webview state, and posts what the extension must do
// (reveal a node, confirm an assignment, save an export).
import type { Chart } from 'chart.js';
import type { OutcomeCard, PlotSpec, ReplayView, SharedRunView, StepView, TableView, ValueRow, WitnessContent, WitnessView } from '../host/witness-view-types';
import { sortedOrder, tableCsv } from './table';
import { chip, h, icon } from './dom';
import type { FromWebview, ModelFingerprint, PanelState, UiState } from './messages';
import { drawPlot } from './plots';

export interface Host {
  postMessage(message: FromWebview): void;
  setState(state: PanelState): void;
}

const PLAY_INTERVAL_MS = 900;
/** Rows drawn at most (a Monte Carlo table can have many thousands); sorting and CSV cover them all. */
const MAX_TABLE_ROWS = 1000;

export class WitnessPanelView {
  private state: PanelState | undefined;
  private chart: Chart | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastRevealed: string | undefined;
  private changed: string | undefined;

  constructor(private readonly root: HTMLElement, private readonly host: Host) {
    document.addEventListener('keydown', (e) => this.onKey(e));
    // A canvas keeps the colours it was drawn with: when the theme changes (VS Code sets the body's
    // class and the page's --vscode-* variables), draw the plot again in the new theme's colours.
    const redraw = new MutationObserver(() => {
      if (this.chart) this.render();
    });
    redraw.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    redraw.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  }

  /** The chart on screen (read by the webview tests through the page). */
  get currentChart(): Chart | undefined {
    return this.chart;
  }

  show(view: WitnessView, ui?: UiState, model?: ModelFingerprint[]): void {
    this.stop();
    const fresh: UiState = { step: initialStep(view.content), execution: -1, plot: 0 };
    this.state = { view, ui: ui ?? fresh, ...(model ? { model } : {}) };
    this.lastRevealed = undefined;
    // The extension says again after each `show` whether the model changed since this run.
    this.changed = undefined;
    this.render();
  }

  // ---- navigation ------------------------------------------------------------------------------

  /** The step list the controls move through (undefined when the content has no steps). */
  private steps(): number | undefined {
    const s = this.state;
    if (!s) return undefined;
    const c = s.view.content;
    if (c.kind === 'schedule') return c.replay.steps.length;
    if (c.kind === 'sensitive') return Math.max(c.left.steps.length, c.right.steps.length);
    if (c.kind === 'outcomes' && s.ui.execution >= 0) return c.executions[s.ui.execution]?.steps.length;
    return undefined;
  }

  select(step: number): void {
    const n = this.steps();
    if (!this.state || n === undefined || n === 0) return;
    this.state.ui.step = Math.max(0, Math.min(n - 1, step));
    this.render();
  }

  private move(delta: number | 'first' | 'last'): void {
    const n = this.steps();
    if (!this.state || n === undefined) return;
    if (delta === 'first') this.select(0);
    else if (delta === 'last') this.select(n - 1);
    else this.select(this.state.ui.step + delta);
  }

  private togglePlay(): void {
    if (this.timer) {
      this.stop();
      this.render();
      return;
    }
    const n = this.steps();
    if (!this.state || n === undefined) return;
    if (this.state.ui.step >= n - 1) this.state.ui.step = 0;
    this.timer = setInterval(() => {
      const count = this.steps() ?? 0;
      if (!this.state || this.state.ui.step >= count - 1) {
        this.stop();
        this.render();
        return;
      }
      this.select(this.state.ui.step + 1);
    }, PLAY_INTERVAL_MS);
    this.render();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === 'SELECT' || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) return;
    if (this.steps() === undefined) return;
    const action: Record<string, () => void> = {
      ArrowDown: () => this.move(1), ArrowRight: () => this.move(1), ArrowUp: () => this.move(-1), ArrowLeft: () => this.move(-1),
      Home: () => this.move('first'), End: () => this.move('last'),
    };
    const run = action[e.key];
    if (run) {
      e.preventDefault();
      run();
    }
  }

  // ---- rendering -------------------------------------------------------------------------------

  private render(): void {
    const s = this.state;
    if (!s) return;
    this.host.setState(s);
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.focus;
    this.chart?.destroy();
    this.chart = undefined;
    const plotCanvas: { canvas?: HTMLCanvasElement; plot?: PlotSpec } = {};
    const changed = !s.view.shared && this.changed
      ? [h('p', { class: 'banner warning model-changed' }, icon('warning'), ` Your model has changed since this run: ${this.changed}. The steps below replay the text as it was asked; ask again for the current one.`)]
      : [];
    this.root.replaceChildren(...(s.view.shared ? [sharedHeader(s.view.shared, (postId) => this.host.postMessage({ type: 'askAgainHere', postId }))] : []), ...changed, header(s.view), ...this.content(s.view.content, s.ui, plotCanvas));
    if (plotCanvas.canvas && plotCanvas.plot) this.chart = drawPlot(plotCanvas.canvas, plotCanvas.plot);
    // Keep the keyboard where it was, but only when the panel has it: a redraw in the background (a
    // theme change, a new answer) must not take focus from the editor or an open quick input.
    if (focused && document.hasFocus()) this.root.querySelector<HTMLElement>(`[data-focus="${focused}"]`)?.focus();
    this.root.querySelector('.steps .selected, .aligned .selected')?.scrollIntoView({ block: 'nearest' });
    this.revealSelected();
  }

  /** Tells the extension which declaration to highlight (only when it changes). */
  private revealSelected(): void {
    const step = this.selectedStep();
    // Two schedules side by side: the other schedule's node is highlighted as well.
    const c = this.state?.view.content;
    const other = c?.kind === 'sensitive' ? [c.left.steps[this.state!.ui.step], c.right.steps[this.state!.ui.step]].find((s) => s && s !== step)?.location : undefined;
    const also = other && JSON.stringify(other) !== JSON.stringify(step?.location) ? [other] : [];
    const key = step?.location ? JSON.stringify([step.location, also]) : '';
    if (key === this.lastRevealed) return;
    this.lastRevealed = key;
    this.host.postMessage(step?.location ? { type: 'reveal', location: step.location, ...(also.length > 0 ? { also } : {}) } : { type: 'reveal' });
  }

  /** The extension says whether the model's documents now differ from the text this run was asked of. */
  modelChanged(changed: string | undefined): void {
    if (this.changed === changed) return;
    this.changed = changed;
    this.render();
  }

  private selectedStep(): StepView | undefined {
    const s = this.state;
    if (!s) return undefined;
    const c = s.view.content;
    if (c.kind === 'schedule') return c.replay.steps[s.ui.step];
    if (c.kind === 'sensitive') return c.left.steps[s.ui.step]?.location ? c.left.steps[s.ui.step] : c.right.steps[s.ui.step];
    if (c.kind === 'outcomes' && s.ui.execution >= 0) return c.executions[s.ui.execution]?.steps[s.ui.step];
    return undefined;
  }

  private content(c: WitnessContent, ui: UiState, plot: { canvas?: HTMLCanvasElement; plot?: PlotSpec }): Node[] {
    switch (c.kind) {
      case 'schedule':
        return [this.controls(), this.replay(c.replay, ui.step)];
      case 'sensitive':
        return [this.controls(), this.sensitive(c, ui.step)];
      case 'outcomes': {
        const e = ui.execution >= 0 ? c.executions[ui.execution] : undefined;
        if (e) {
          const back = h('button', { class: 'link', 'data-focus': 'back', onclick: () => { ui.execution = -1; ui.step = 0; this.stop(); this.render(); } }, icon('arrow-left'), ' All outcomes');
          return [h('div', { class: 'toolbar' }, back), this.controls(), this.replay(e, ui.step)];
        }
        return [this.outcomes(c.outcomes, ui)];
      }
      case 'assignment':
        return [this.assignment(c)];
      case 'values':
        return [h('section', {}, h('h2', {}, 'Values'), valuesTable(c.values))];
      case 'table':
        return this.table(c.table, ui, plot);
      case 'message':
        return [h('p', { class: 'message' }, c.text)];
    }
  }

  private controls(): HTMLElement {
    const n = this.steps() ?? 0;
    const at = this.state?.ui.step ?? 0;
    const button = (name: string, codicon: string, title: string, onclick: () => void, disabled = false) =>
      h('button', { class: 'icon-button', 'data-focus': name, 'data-action': name, title, 'aria-label': title, disabled, onclick }, icon(codicon));
    return h('div', { class: 'controls', role: 'toolbar', 'aria-label': 'Step controls' },
      button('first', 'debug-step-back', 'First step (Home)', () => this.move('first'), at === 0),
      button('previous', 'chevron-left', 'Previous step (←)', () => this.move(-1), at === 0),
      this.timer ? button('pause', 'debug-pause', 'Pause', () => this.togglePlay()) : button('play', 'play', 'Play', () => this.togglePlay(), n <= 1),
      button('next', 'chevron-right', 'Next step (→)', () => this.move(1), at >= n - 1),
      button('last', 'debug-step-over', 'Last step (End)', () => this.move('last'), at >= n - 1),
      h('span', { class: 'position' }, `step ${at} of ${Math.max(0, n - 1)}`));
  }

  private stepRow(step: StepView, selected: boolean, timed: boolean, onclick: () => void): HTMLElement {
    const alternatives = step.enabled.filter((m) => m !== step.move);
    // The host replays only the schedule's own branch, so an alternative is a fact about the step, not a link.
    const altTitle = (m: string) => (m === step.move ? `${m}: the move this schedule takes` : `${m}: also enabled here; this schedule takes ${step.move}. Ask with another schedule to follow it.`);
    return h('li', { class: `step${selected ? ' selected' : ''}${step.violating ? ' violating' : ''}`, role: 'option', 'aria-selected': String(selected), 'data-step': step.n, onclick },
      h('span', { class: 'n' }, step.n),
      step.move ? moveChip(step) : h('span', { class: 'initial' }, 'initial state'),
      step.move && timed ? h('span', { class: 'time' }, `at ${seconds(step.clock)} s`) : null,
      alternatives.length > 0 ? h('span', { class: 'first-of' }, 'first of', ...step.enabled.map((m, i) => chip(step.enabledLabels[i] ?? m, m === step.move ? 'alt chosen' : 'alt', altTitle(m)))) : null,
      step.violating ? h('span', { class: 'violation' }, icon('error'), ' violation') : null);
  }

  private replay(r: ReplayView, selected: number): HTMLElement {
    const isTimed = timed(r); // once per replay, not once per step row
    const list = h('ol', { class: 'steps', role: 'listbox', 'aria-label': `${r.label} steps`, tabindex: 0, 'data-focus': 'steps' },
      ...r.steps.map((step, i) => this.stepRow(step, i === selected, isTimed, () => this.select(i))));
    const step = r.steps[selected];
    return h('section', { class: 'replay' },
      r.inputs.length > 0 ? h('p', { class: 'inputs' }, 'Inputs: ', ...r.inputs.map((v) => chip(`${v.name} = ${v.text}`, 'input'))) : null,
      r.error ? h('p', { class: 'banner warning' }, icon('warning'), ` The replay stops: ${r.error}`) : null,
      h('div', { class: 'split' },
        h('div', { class: 'pane' }, h('h2', {}, r.label), list),
        h('div', { class: 'pane' }, !r.replayed
          ? h('p', { class: 'banner unchecked' }, icon('info'), ' The host did not replay this schedule, so the states after its steps are not known.')
          : step ? stateDetail(r, step, r.steps[selected - 1]) : h('p', {}, 'No state.'))));
  }

  private sensitive(c: Extract<WitnessContent, { kind: 'sensitive' }>, selected: number): HTMLElement {
    const n = Math.max(c.left.steps.length, c.right.steps.length);
    const cell = (s: StepView | undefined, t: boolean) => (s ? (s.move ? [moveChip(s), t ? h('span', { class: 'time' }, ` at ${seconds(s.clock)} s`) : null] : h('span', { class: 'initial' }, 'initial state')) : h('span', { class: 'ended' }, '—'));
    const [lt, rt] = [timed(c.left), timed(c.right)];
    const rows = Array.from({ length: n }, (_, i) => {
      const diverges = i === c.divergence;
      return h('tr', { class: `${i === selected ? 'selected' : ''}${diverges ? ' diverges' : ''}`, 'data-step': i, 'aria-selected': String(i === selected), onclick: () => this.select(i) },
        h('td', { class: 'n' }, i),
        h('td', {}, cell(c.left.steps[i], lt)),
        h('td', {}, cell(c.right.steps[i], rt)),
        h('td', { class: 'mark' }, diverges ? h('span', { class: 'divergence' }, icon('git-compare'), ' first divergence') : ''));
    });
    const aligned = h('table', { class: 'aligned', tabindex: 0, 'data-focus': 'steps' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Step'), h('th', {}, c.left.label), h('th', {}, c.right.label), h('th', {}, ''))),
      h('tbody', {}, ...rows));
    const ends = h('table', { class: 'ends' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Feature'), h('th', {}, `End of ${c.left.label}`), h('th', {}, `End of ${c.right.label}`))),
      h('tbody', {}, ...c.ends.map((d) => h('tr', { class: d.named ? 'named' : '' }, h('td', {}, d.feature, d.named ? chip('diverges', 'tag') : null), h('td', { class: 'value' }, d.left), h('td', { class: 'value' }, d.right)))));
    const l = c.left.steps[selected];
    const r = c.right.steps[selected];
    const other = (mine: StepView | undefined, theirs: StepView | undefined, view: ReplayView, theirView: ReplayView) =>
      mine ? stateDetail(view, mine, view.steps[selected - 1], theirs ? new Set(view.features.filter((f, i) => theirs.values[theirView.features.indexOf(f)] !== mine.values[i])) : undefined) : h('p', { class: 'ended' }, `${view.label} has ended.`);
    return h('section', { class: 'sensitive' },
      c.differIn ? h('p', { class: 'differ-in' }, `The schedules end ${c.differIn}.`) : null,
      c.ends.length > 0 ? ends : h('p', { class: 'banner warning' }, icon('warning'), ' The replayed schedules end with the same values.'),
      aligned,
      h('div', { class: 'split' },
        h('div', { class: 'pane' }, h('h2', {}, c.left.label), other(l, r, c.left, c.right)),
        h('div', { class: 'pane' }, h('h2', {}, c.right.label), other(r, l, c.right, c.left))));
  }

  private outcomes(cards: OutcomeCard[], ui: UiState): HTMLElement {
    return h('section', { class: 'outcomes' },
      h('h2', {}, `${cards.length} outcome${cards.length === 1 ? '' : 's'}`),
      h('div', { class: 'cards' }, ...cards.map((card) => h('article', { class: `card${card.mismatch ? ' mismatch' : ''}`, 'data-outcome': card.index },
        h('h3', {}, `Outcome ${card.index}`, card.end ? chip(card.end, `end ${card.end}`) : null),
        valuesTable(card.values),
        card.mismatch ? h('p', { class: 'banner warning' }, icon('warning'), ` ${card.mismatch}`) : null,
        card.execution !== undefined
          ? h('button', { class: 'link', 'data-focus': `replay-${card.index}`, onclick: () => { ui.execution = card.execution!; ui.step = 0; this.render(); } }, icon('debug-start'), ' Replay this execution')
          : null))));
  }

  private assignment(c: Extract<WitnessContent, { kind: 'assignment' }>): HTMLElement {
    const view = this.state!.view;
    const rows = c.inputs.map((v) => h('tr', {}, h('td', {}, v.name), h('td', { class: 'value' }, typeof v.value === 'number' ? String(v.value) : v.text), h('td', {}, v.unit ?? ''), h('td', {}, v.type ?? ''), h('td', {}, v.free === undefined ? '' : v.free ? 'chosen' : 'pinned')));
    const bindings = c.bindings;
    const confirm = bindings && (() => this.host.postMessage({ type: 'confirmAssignment', subject: view.question.subject, ...(view.modelPath ? { path: view.modelPath } : {}), bindings }));
    return h('section', { class: 'assignment' },
      h('h2', {}, c.heading),
      h('table', { class: 'data' }, h('thead', {}, h('tr', {}, h('th', {}, 'Input'), h('th', {}, 'Value'), h('th', {}, 'Unit'), h('th', {}, 'Type'), h('th', {}, ''))), h('tbody', {}, ...rows)),
      c.values.length > 0 ? h('div', {}, h('h2', {}, 'Values'), valuesTable(c.values)) : null,
      confirm ? h('button', { class: 'primary', 'data-action': 'confirm', 'data-focus': 'confirm', title: `Ask evaluate of ${view.question.subject} with these values bound`, onclick: confirm }, icon('check'), ' Confirm with evaluate') : null);
  }

  private table(t: TableView, ui: UiState, out: { canvas?: HTMLCanvasElement; plot?: PlotSpec }): Node[] {
    const order = sortedOrder(t, ui.sort);
    const headerCell = (col: TableView['columns'][number], i: number) => {
      const sorted = ui.sort?.column === i ? (ui.sort.descending ? 'descending' : 'ascending') : 'none';
      return h('th', { 'aria-sort': sorted, class: col.parameter ? 'parameter' : '' },
        h('button', { class: 'sort', 'data-column': i, 'data-focus': `sort-${i}`, onclick: () => { ui.sort = { column: i, descending: ui.sort?.column === i ? !ui.sort.descending : false }; this.render(); } },
          col.unit ? `${col.name} [${col.unit}]` : col.name, ' ', icon(sorted === 'ascending' ? 'arrow-up' : sorted === 'descending' ? 'arrow-down' : 'list-ordered')));
    };
    const table = h('table', { class: 'data sortable' },
      h('thead', {}, h('tr', {}, h('th', { class: 'n' }, '#'), ...t.columns.map(headerCell))),
      h('tbody', {}, ...order.slice(0, MAX_TABLE_ROWS).map((r) => h('tr', { 'data-row': r + 1 }, h('td', { class: 'n' }, r + 1), ...t.rows[r]!.map((cell) => h('td', { class: 'value' }, cell.text))))));
    const fileBase = `${this.state!.view.question.subject.split('::').at(-1) ?? 'result'}-${this.state!.view.question.kind}`;
    const exportCsv = () => this.host.postMessage({ type: 'export', format: 'csv', fileName: `${fileBase}.csv`, text: tableCsv(t, order) });
    const nodes: Node[] = [];
    if (t.plots.length > 0) {
      const index = Math.min(ui.plot, t.plots.length - 1);
      const plot = t.plots[index]!;
      const canvas = h('canvas', { 'aria-label': plot.title, role: 'img' });
      out.canvas = canvas;
      out.plot = plot;
      const exportPng = () => {
        if (this.chart) this.host.postMessage({ type: 'export', format: 'png', fileName: `${fileBase}.png`, dataUrl: this.chart.toBase64Image('image/png', 1) });
      };
      const chooser = t.plots.length > 1
        ? h('select', { 'aria-label': 'Plot', onchange: (e: Event) => { ui.plot = Number((e.target as HTMLSelectElement).value); this.render(); } },
          ...t.plots.map((p, i) => h('option', { value: i, selected: i === index }, p.title)))
        : null;
      nodes.push(h('section', { class: 'plot' },
        h('div', { class: 'toolbar' }, chooser, h('button', { 'data-action': 'export-png', 'data-focus': 'export-png', onclick: exportPng }, icon('export'), ' Export PNG')),
        h('div', { class: 'canvas-box', 'data-kind': plot.kind }, canvas)));
    }
    nodes.push(h('section', { class: 'table' },
      h('div', { class: 'toolbar' }, h('span', {}, t.rows.length > MAX_TABLE_ROWS ? `showing ${MAX_TABLE_ROWS} of ${t.rows.length} rows (the CSV export has them all)` : `${t.rows.length} row${t.rows.length === 1 ? '' : 's'}`), h('button', { 'data-action': 'export-csv', 'data-focus': 'export-csv', onclick: exportCsv }, icon('export'), ' Export CSV')),
      table,
      t.summary.length > 0 ? summaryTable(t) : null));
    return nodes;
  }
}

/** Whether the model has a clock that moves (a timed model): only then does a step say when it happened. */
function timed(r: ReplayView): boolean {
  return r.steps.some((s) => s.clock > 0);
}

function seconds(t: number): string {
  return String(Number(t.toPrecision(10)));
}

/** A move in plain words; the schedule's token text (`t1@ns.nsLight.red->green`) on hover. */
function moveChip(step: StepView): HTMLElement {
  const where = step.location ? ` (${step.location.path.split(/[\\/]/).at(-1)}:${step.location.line})` : '';
  return h('span', { class: 'chip move', title: `${step.move ?? ''}${where}`, 'data-token': step.move }, step.label ?? step.move ?? '');
}

function initialStep(c: WitnessContent): number {
  // A violation opens at the violating step; everything else at the start.
  if (c.kind === 'schedule') return Math.max(0, c.replay.steps.findIndex((s) => s.violating));
  return 0;
}

/** Who shared the run and when, their note, and a mark when the local model is not the one it was asked of. */
function sharedHeader(shared: SharedRunView, askAgainHere: (postId: string) => void): HTMLElement {
  return h('section', { class: 'shared', 'aria-label': 'Shared run' },
    h('p', { class: 'shared-by' }, icon('broadcast'), ' ', h('strong', {}, shared.title), ` — shared by ${shared.author}, ${new Date(shared.postedAt).toLocaleString()}`),
    shared.note ? h('p', { class: 'note' }, shared.note) : null,
    shared.changed
      ? h('p', { class: 'banner warning model-changed' }, icon('warning'), ` Your model has changed since this run: ${shared.changed}. The steps below replay the shared text.`)
      : h('p', { class: 'banner confirmed model-same' }, icon('pass'), ' Your model is the one this run was asked of.'),
    h('div', { class: 'toolbar' },
      h('button', { class: 'link', 'data-action': 'askAgainHere', 'data-focus': 'askAgainHere', onclick: () => askAgainHere(shared.postId) }, icon('refresh'), ' Ask Again Here')));
}

function header(v: WitnessView): HTMLElement {
  const lowered = v.strength.claimed !== v.strength.standing;
  const checkIcon = v.check ? ({ confirmed: 'pass', refuted: 'warning', unchecked: 'info' } as const)[v.check.verdict] : undefined;
  return h('header', {},
    h('h1', {}, v.title),
    h('div', { class: 'overview' },
      chip(v.claim, `claim ${v.claim}`),
      lowered
        ? h('span', { class: 'strength lowered', title: 'claimed by the engine → what stands after the host\'s checks' }, `claimed ${v.strength.claimed} → stands ${v.strength.standing}`)
        : h('span', { class: 'strength' }, v.strength.standing),
      v.engine ? h('span', { class: 'engine' }, icon('server-process'), ` ${v.engine}`) : null,
      ['holds', 'outcomes', 'sensitive'].includes(v.question.kind) ? h('span', { class: 'schedule' }, `schedule ${v.question.schedule}`) : null),
    v.question.condition ? h('p', { class: 'condition' }, 'Condition: ', h('code', {}, v.question.condition)) : null,
    v.question.bindings.length > 0 ? h('p', { class: 'bindings' }, 'Bound: ', ...v.question.bindings.map((b) => chip(`${b.name} = ${b.text}`, 'input'))) : null,
    v.reason ? h('p', { class: 'reason' }, v.reason) : null,
    lowered && v.strength.reasons.length > 0 ? h('ul', { class: 'reasons' }, ...v.strength.reasons.map((r) => h('li', {}, r))) : null,
    v.check ? h('p', { class: `banner check ${v.check.verdict}` }, icon(checkIcon!), ` ${v.check.text}`) : null);
}

function stateDetail(r: ReplayView, step: StepView, previous: StepView | undefined, differs?: Set<string>): HTMLElement {
  const rows = r.features.map((name, i) => {
    const changed = step.changed.includes(name);
    const cls = [changed ? 'changed' : '', differs?.has(name) ? 'differs' : ''].filter(Boolean).join(' ');
    return h('tr', { class: cls, 'data-feature': name },
      h('td', {}, name),
      h('td', { class: 'value' }, step.values[i] ?? ''),
      h('td', { class: 'was' }, changed && previous ? `was ${previous.values[i]}` : ''));
  });
  return h('div', { class: 'state' },
    h('p', { class: 'meta' }, step.n === 0 ? 'initial state' : `after step ${step.n}`, ' · ', `clock ${seconds(step.clock)} s`, ' · ', step.status),
    step.machines.length > 0 ? h('p', { class: 'machines' }, 'State: ', ...step.machines.map((m) => chip(m.name === 'state' ? m.state : `${m.name.replace(/\.state$/, '')}: ${m.state}`, 'state'))) : null,
    r.conditions.length > 0 ? h('p', { class: 'conditions' }, ...step.conditions.map((c) => chip(`${c.name}: ${c.value}`, `condition ${c.value === 'true' ? 'true' : 'false'}`))) : null,
    r.features.length > 0 ? h('table', { class: 'data values' }, h('thead', {}, h('tr', {}, h('th', {}, 'Feature'), h('th', {}, 'Value'), h('th', {}, ''))), h('tbody', {}, ...rows)) : null,
    step.positions.length > 0 ? h('p', { class: 'positions' }, 'Tokens: ', ...step.positions.map((p) => chip(p, 'token'))) : null,
    step.pending.length > 0 ? h('p', { class: 'pending' }, 'Pending signals: ', step.pending.join('; ')) : null);
}

function valuesTable(values: ValueRow[]): HTMLElement {
  return h('table', { class: 'data values' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Value'), h('th', {}, 'Unit'))),
    h('tbody', {}, ...values.map((v) => h('tr', {}, h('td', {}, v.name), h('td', { class: 'value' }, typeof v.value === 'number' ? String(v.value) : v.text), h('td', {}, v.unit ?? '')))));
}

function summaryTable(t: TableView): HTMLElement {
  const stats = [...new Set(t.summary.map((s) => s.stat))];
  const columns = [...new Set(t.summary.map((s) => s.column))];
  return h('table', { class: 'data summary' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), ...stats.map((s) => h('th', {}, s)))),
    h('tbody', {}, ...columns.map((c) => h('tr', {}, h('td', {}, c), ...stats.map((s) => h('td', { class: 'value' }, t.summary.find((x) => x.stat === s && x.column === c)?.text ?? ''))))));
}
