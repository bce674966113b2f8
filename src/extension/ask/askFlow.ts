// The question flow in the editor: picks, the model from the workspace, the host core (the same one the
// CLI uses) with the engines from the settings, progress in the status bar and a cancellable
// notification, settled answers as notifications, Runs entries and problems. Loaded on first use.
import * as vscode from 'vscode';
import { Host, type EngineCheck, type EngineEntry, type Run, type RunEvent } from '../../host';
import { SysmlModel } from '../../host/sysml-model';
import { conditionSyntaxError, engineFailed, questionProblem, type QuestionProblem } from '../../host/question-check';
import { QUESTION_KINDS, Sweep, Value, type Condition, type Question, type QuestionKind, type SourceDocument } from '../../protocol';
import type { AskLensArguments } from '../../server/requests';
import {
  BEHAVIOUR_KINDS, CONDITION_KINDS, KIND_DESCRIPTIONS, ModelOutline, SCHEDULE_DESCRIPTIONS, enginesFor, isModelPath, kindsFor, startableEngines,
  modelDocuments, subjectKinds, type SubjectChoice,
} from './askModel';
import { SCHEDULE_PATTERN, budgetFromSetting, questionOptions, type ConfiguredEngine, type EngineSettings } from './askSettings';
import {
  parameterText, parseInputValue, parseRangeText, parseSamples, rangeInputText, sweepOf, valueInputText, type Parameter, type ParsedRange,
} from './askInputs';
import {
  hasValues, hasWitness, outcomeReason, progressCounts, questionText, resultJson, runsEntry, settledMessage, Throttle,
} from './askText';
import { ViolationDiagnostics } from '../language/diagnostics';
import { readEngineSettings } from '../engines/engineSettings';
import type { RunHistory, RunRecord } from '../runs/runRecord';
import type { RunNode } from '../runs/runsView';
import { ALL_COVERING_ENGINES, groupRecords, groupRuns } from '../compare/compareModel';
import { readConfig, redactCredentials, type AdapterConfig } from '../../adapter/config';
import { adapterEnvironment } from '../../adapter/process';
import { offloadQuestion, questionFlags, workerWords } from '../../host/offload-question';

/** What `assay.ask` accepts: a code lens passes uri, subject and kind; tests and keybindings may pass the rest. */
export interface AskArguments extends Partial<AskLensArguments> {
  /** The condition; null asks about the subject's asserted constraints. */
  condition?: Condition | null;
  schedule?: string;
  /** `auto` (the host routes), `all` (every engine that fits, one run each) or an engine's name. */
  engine?: string;
  /** Values that override the model's (protocol values: name, value, unit); the witness panel's Confirm passes them. */
  bindings?: unknown;
  /** A sweep's ranges (the protocol's sweep object); without it a sweep asks for them. */
  sweep?: unknown;
  /**
   * Sweep and compute with `assay.tasks.serviceUrl` set: a number runs the question as that many shards
   * on the task service, `false` runs it here; absent, the user picks.
   */
  offload?: number | false;
}

/** The inputs last given for a subject (remembered per workspace, offered again). */
interface RememberedInputs {
  bindings?: Value[];
  ranges?: ParsedRange['range'][];
  samples?: number;
}

const INPUTS_KEY = 'assay.inputs';

/** One engine as Show Engines reports it. */
export interface EngineListing extends ConfiguredEngine {
  status: 'ready' | 'refused' | 'failed' | 'ignored';
  problem?: string;
  answers?: string[];
  version?: string;
}

interface Plan {
  question: Question;
  engine?: string;
}

interface Collected {
  documents: SourceDocument[];
  uris: Record<string, string>;
}

const RUN_SCHEME = 'assay-run';
const TRACE_LIMIT = 4000;

export class QuestionFlow implements vscode.Disposable {
  private host: Host | undefined;
  private settings: EngineSettings | undefined;
  private stale = true;
  /** Counts settings changes, so that a read that a change overtook is not used. */
  private settingsGeneration = 0;
  private nextId = 1;
  /** Host run id → record id, for the current host's events. */
  private readonly recordOf = new Map<Host, Map<number, number>>();
  private readonly active = new Map<number, Run>();
  /** Runs on the task service (record id → their stop). */
  private readonly offloads = new Map<number, AbortController>();
  private pendingRecord: number | undefined;
  private lastPlans: Plan[] | undefined;
  private shownSettingsProblems = '';
  private readonly notifiedEngineProblems = new Set<string>();
  private readonly shownOptionProblems = new Set<string>();
  private traceEnabled = false;
  private readonly diagnostics = new ViolationDiagnostics();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly details = new vscode.EventEmitter<vscode.Uri>();
  /** Every notification message shown, in order (the in-editor tests read it). */
  readonly shown: string[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
    private readonly history: RunHistory,
  ) {
    this.readTrace();
    this.disposables.push(this.diagnostics, this.details, vscode.workspace.registerTextDocumentContentProvider(RUN_SCHEME, {
      onDidChange: this.details.event,
      provideTextDocumentContent: (uri) => this.detailsText(Number(/run-(\d+)/.exec(uri.path)?.[1])),
    }));
  }

  private get distDir(): string {
    return this.context.asAbsolutePath('dist');
  }

  /** Follows `assay.trace` (read on every protocol message, so no engine restarts for it). */
  readTrace(): void {
    this.traceEnabled = vscode.workspace.getConfiguration('assay').get<boolean>('trace', false) === true;
  }

  // ---------------------------------------------------------------------------------------------
  // Settings and the host

  /** Re-reads the engine settings (after a change); reports bad entries once; the next question uses a new host. */
  async settingsChanged(): Promise<EngineSettings> {
    this.stale = true;
    this.settingsGeneration++;
    const settings = await readEngineSettings(this.distDir);
    this.reportSettingsProblems(settings.problems);
    return settings;
  }

  /** The engine settings as they are now (for the language server's code lenses); reports bad entries. */
  async engineSettings(): Promise<EngineSettings> {
    const settings = await readEngineSettings(this.distDir);
    this.reportSettingsProblems(settings.problems);
    return settings;
  }

  /** Reads `assay.schedule`, `assay.draws` and `assay.clockStep` (when asking, and when they change);
   * a bad value is a warning notification, once per distinct problem, and a line in the output. */
  checkQuestionOptions(): ReturnType<typeof questionOptions> {
    const config = vscode.workspace.getConfiguration('assay');
    const options = questionOptions({ schedule: config.get('schedule'), draws: config.get('draws'), clockStep: config.get('clockStep') });
    for (const problem of options.problems) {
      this.output.warn(`Settings: ${problem}`);
      // Once per distinct problem, as a notification too: the output channel alone goes unseen.
      if (this.shownOptionProblems.has(problem)) continue;
      this.shownOptionProblems.add(problem);
      this.notify('warning', `Assay: ${problem}`, [['Open Settings', () => vscode.commands.executeCommand('workbench.action.openSettings', problem.split(':')[0])]]);
    }
    return options;
  }

  private reportSettingsProblems(problems: readonly string[]): void {
    const key = problems.join('\n');
    if (key === this.shownSettingsProblems) return;
    this.shownSettingsProblems = key;
    if (problems.length === 0) return;
    for (const problem of problems) this.output.error(`Settings: ${problem}`);
    const message = problems.length === 1
      ? `Assay: an engine entry in settings cannot be used: ${problems[0]}`
      : `Assay: ${problems.length} engine entries in settings cannot be used: ${problems.join('; ')}`;
    this.notify('error', message, [
      ['Open Settings', () => vscode.commands.executeCommand('workbench.action.openSettings', 'assay.engines')],
      ['Show Output', () => this.output.show(true)],
    ]);
  }

  private async currentHost(): Promise<{ host: Host; settings: EngineSettings }> {
    if (this.host && this.settings && !this.stale) return { host: this.host, settings: this.settings };
    const generation = this.settingsGeneration;
    const settings = await readEngineSettings(this.distDir);
    // Settings that changed during the read (VS Code may deliver the user's settings after activation)
    // must not be overwritten by the older read: read them again.
    if (generation !== this.settingsGeneration) return this.currentHost();
    if (this.host && this.settings && !this.stale) return { host: this.host, settings: this.settings }; // built meanwhile
    this.reportSettingsProblems(settings.problems);
    if (this.host) this.retire(this.host);
    const model = new SysmlModel();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const host = new Host({
      entries: settings.entries,
      modelIndex: model,
      witnessChecker: model,
      stopEngineAfterCancel: true,
      ...(folder?.scheme === 'file' ? { cwd: folder.fsPath } : {}),
      trace: (engine, direction, line) => {
        if (!this.traceEnabled) return;
        const shown = line.length > TRACE_LIMIT ? `${line.slice(0, TRACE_LIMIT)}… (${line.length - TRACE_LIMIT} more characters)` : line;
        this.output.info(`[trace] ${engine} ${direction === 'send' ? '→' : '←'} ${shown}`);
      },
    });
    host.onLog(({ engine, text }) => this.output.warn(`engine "${engine}": ${text}`));
    host.onEvent((event) => this.onEvent(host, event));
    this.recordOf.set(host, new Map());
    this.host = host;
    this.settings = settings;
    this.stale = false;
    this.output.info(`Engines: ${settings.entries.map((e) => e.name).join(', ') || 'none'}`);
    return { host, settings };
  }

  /** A host whose settings are out of date stops its engines once its runs have settled. */
  private retire(host: Host): void {
    void Promise.all(host.runs.map((run) => run.settled)).then(() => host.shutdown()).then(() => this.recordOf.delete(host));
  }

  /** Engine process ids of the current host (the in-editor tests check none is left running). */
  enginePids(): number[] {
    return (this.host?.engines ?? []).map((e) => e.pid).filter((pid): pid is number => pid !== undefined);
  }

  // ---------------------------------------------------------------------------------------------
  // Asking

  async ask(args: AskArguments = {}): Promise<number[] | undefined> {
    // Callers (keybindings, other extensions, the witness panel) may pass anything: bindings are checked first.
    let bindings: Question['bindings'];
    if (args.bindings !== undefined) {
      const parsed = Value.array().safeParse(args.bindings);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        this.notify('error', `Assay: bindings${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`, []);
        return undefined;
      }
      if (parsed.data.length > 0) bindings = parsed.data;
    }
    let sweep: Question['sweep'];
    if (args.sweep !== undefined) {
      const parsed = Sweep.safeParse(args.sweep);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        this.notify('error', `Assay: sweep${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`, []);
        return undefined;
      }
      sweep = parsed.data;
    }
    const { host, settings } = await this.currentHost();
    if (settings.entries.length === 0) {
      this.notify('error', 'Assay: no engine can answer questions: assay.useBundledEngine is off and assay.engines has no usable entry.',
        [['Show Engines', () => vscode.commands.executeCommand('assay.showEngines')]]);
      return undefined;
    }
    // Start the engines while the user picks: the answer then comes without a start-up wait, and the
    // engine pick leaves out an engine that cannot start.
    const checking = host.checkEngines().catch((): EngineCheck[] => []);
    const collected = await this.collectDocuments();
    const outline = new ModelOutline(collected.documents);
    const entries = settings.entries;

    let subject: string;
    let subjectKind: string | undefined;
    if (args.subject) {
      subject = args.subject;
      const places = outline.locate(subject);
      subjectKind = places.length === 1 ? places[0]!.kind : undefined;
    } else {
      const picked = await this.pickSubject(outline, collected, entries);
      if (!picked) return undefined;
      subject = picked.qualifiedName;
      subjectKind = picked.kind;
    }

    let kind: QuestionKind;
    if (args.kind !== undefined) {
      if (!(QUESTION_KINDS as readonly string[]).includes(args.kind)) {
        this.notify('error', `Assay: "${args.kind}" is not a question kind (${QUESTION_KINDS.join(', ')}).`, []);
        return undefined;
      }
      kind = args.kind as QuestionKind;
    } else {
      // The kinds the engines answer about this kind of subject, those that fit this declaration first; ones that cannot apply left out.
      const answered = kindsFor(entries, subjectKind);
      const fit = outline.kindsThatFit(subject);
      const offered = fit ? fit.filter((k): k is QuestionKind => (answered as string[]).includes(k)) : answered;
      const picked = await this.pickKind(subject, offered);
      if (!picked) return undefined;
      kind = picked;
    }

    const options = this.checkQuestionOptions();

    let condition: Condition | undefined;
    if (CONDITION_KINDS.includes(kind)) {
      if (args.condition !== undefined) condition = args.condition ?? undefined;
      else {
        const picked = await this.pickCondition(subject, outline.constraintsOf(subject));
        if (picked === 'cancelled') return undefined;
        condition = picked;
      }
    }

    let schedule = options.schedule;
    if (BEHAVIOUR_KINDS.includes(kind)) {
      if (args.schedule !== undefined) {
        if (!SCHEDULE_PATTERN.test(args.schedule)) {
          this.notify('error', `Assay: schedule "${args.schedule}" is not fifo, lifo, all or seed:<n>.`, []);
          return undefined;
        }
        schedule = args.schedule;
      } else {
        const picked = await this.pickSchedule(options.schedule);
        if (!picked) return undefined;
        schedule = picked;
      }
    }

    if ((kind === 'compute' || kind === 'sweep') && bindings === undefined && sweep === undefined) {
      const inputs = await this.askInputs(kind, subject, outline.parametersOf(subject), this.remembered(subject));
      if (!inputs) return undefined;
      bindings = inputs.bindings;
      sweep = inputs.sweep;
    }

    const candidates = enginesFor(entries, kind, subjectKind);
    let engine = args.engine;
    if (engine === undefined) {
      if (candidates.length > 1) {
        // An engine that cannot start is not offered by name; All covering engines still lists it in the
        // comparison, as not covered with why.
        const { offered, cannotStart } = startableEngines(candidates, await checking);
        for (const c of cannotStart) this.output.warn(`Engine pick: "${c.name}" is not offered: it cannot start: ${c.problem}`);
        engine = await this.pickEngine(candidates, offered, cannotStart);
        if (!engine) return undefined;
      } else engine = 'auto';
    }

    const question: Question = { kind, subject, schedule, free: [] };
    if (options.draws) question.draws = options.draws;
    if (options.clockStep !== undefined) question.clockStep = options.clockStep;
    if (condition) question.condition = condition;
    if (bindings) question.bindings = bindings;
    if (sweep) question.sweep = sweep;
    const plans: Plan[] = engine === 'all'
      ? candidates.map((entry) => ({ question, engine: entry.name }))
      : [{ question, ...(engine !== 'auto' ? { engine } : {}) }];
    if (plans.length === 0) {
      this.notify('warning', `Assay: no configured engine answers ${kind} questions about ${subject}.`, [['Show Engines', () => vscode.commands.executeCommand('assay.showEngines')]]);
      return undefined;
    }
    this.lastPlans = plans;
    if ((kind === 'sweep' || kind === 'compute') && engine !== 'all') {
      const offload = await this.offloadChoice(args.offload, question);
      if (offload === undefined) return undefined;
      if (offload) {
        const id = this.startOffloaded(host, plans[0]!, collected, offload);
        return id === undefined ? undefined : [id];
      }
    }
    const ids = this.startAll(host, plans, collected);
    if (ids && engine === 'all') groupRuns(this.history, ids); // one comparison: the Runs view nests them, the panel opens
    return ids;
  }

  private startAll(host: Host, plans: Plan[], collected: Collected): number[] | undefined {
    const ids = plans.map((plan) => this.start(host, plan, collected)).filter((id): id is number => id !== undefined);
    return ids.length > 0 ? ids : undefined;
  }

  /** A model error (a syntax error where the subject is declared) or a condition that cannot be read, as what it is. */
  private reportQuestionProblem(question: Question, problem: QuestionProblem, collected: Collected): void {
    const asked = questionText(question);
    this.output.error(`${asked}: ${problem.status}: ${problem.message}`);
    if (problem.status === 'condition error') {
      this.notify('error', `Assay: ${asked} — condition error: ${problem.message}`, [['Ask Again…', () => vscode.commands.executeCommand('assay.ask', { subject: question.subject, kind: question.kind })]]);
      return;
    }
    const uriText = collected.uris[problem.file];
    const shown = uriText ? vscode.workspace.asRelativePath(vscode.Uri.parse(uriText)) : problem.file;
    this.notify('error', `Assay: ${asked} — model error at ${shown}:${problem.line}:${problem.column}: ${problem.message.slice(problem.message.indexOf(': ') + 2)}`, [
      ['Go to Error', async () => {
        if (!uriText) return;
        const editor = await vscode.window.showTextDocument(vscode.Uri.parse(uriText));
        const at = new vscode.Position(problem.line - 1, problem.column - 1);
        editor.selection = new vscode.Selection(at, new vscode.Position(problem.endLine - 1, problem.endColumn - 1));
        editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }],
      ['Show Problems', () => vscode.commands.executeCommand('workbench.actions.view.problems')],
    ]);
  }

  /** Asks a run's question again, with the model as it is now; without a run (the palette), the
   * latest run's — however it was asked — and with all its engines when it asked all covering ones. */
  async askAgain(target?: RunNode | number): Promise<number[] | undefined> {
    const planOf = (r: RunRecord): Plan => ({ question: stripSubjectKind(r.question), ...(r.engineChoice ? { engine: r.engineChoice } : {}) });
    const latest = target === undefined ? this.history.all()[0] : undefined;
    const group = latest?.group !== undefined ? groupRecords(this.history.all(), latest.group) : [];
    const record = this.recordFor(target) ?? (group.length > 0 ? undefined : latest);
    const plans = record ? [planOf(record)] : group.length > 0 ? group.map(planOf) : this.lastPlans;
    if (!plans) {
      this.notify('info', 'Assay: no question has been asked yet in this window.', []);
      return undefined;
    }
    const { host } = await this.currentHost();
    const collected = await this.collectDocuments();
    const ids = this.startAll(host, plans, collected);
    if (ids && group.length > 0) groupRuns(this.history, ids);
    return ids;
  }

  /** Asks a compute or sweep again with inputs the user edits (the run's, or the last question's). */
  async askAgainWithInputs(target?: RunNode | number): Promise<number[] | undefined> {
    const record = this.recordFor(target) ?? this.history.all().find((r) => r.question.kind === 'compute' || r.question.kind === 'sweep');
    const question = record ? stripSubjectKind(record.question) : this.lastPlans?.[0]?.question;
    if (!question || (question.kind !== 'compute' && question.kind !== 'sweep')) {
      this.notify('info', 'Assay: no compute or sweep question has been asked yet in this window.', []);
      return undefined;
    }
    const { host } = await this.currentHost();
    const collected = await this.collectDocuments();
    const outline = new ModelOutline(collected.documents);
    const given: RememberedInputs = {
      ...(question.bindings ? { bindings: question.bindings } : {}),
      ...(question.sweep ? { ranges: question.sweep.ranges, ...(question.sweep.samples !== undefined ? { samples: question.sweep.samples } : {}) } : {}),
    };
    const inputs = await this.askInputs(question.kind, question.subject, outline.parametersOf(question.subject), given);
    if (!inputs) return undefined;
    const { bindings: _b, sweep: _s, ...rest } = question;
    const edited: Question = { ...rest, ...(inputs.bindings ? { bindings: inputs.bindings } : {}), ...(inputs.sweep ? { sweep: inputs.sweep } : {}) };
    const plan: Plan = { question: edited, ...(record?.engineChoice ? { engine: record.engineChoice } : {}) };
    this.lastPlans = [plan];
    return this.startAll(host, [plan], collected);
  }

  private remembered(subject: string): RememberedInputs | undefined {
    return this.context.workspaceState.get<Record<string, RememberedInputs>>(INPUTS_KEY)?.[subject];
  }

  private async remember(subject: string, inputs: RememberedInputs): Promise<void> {
    const all = { ...(this.context.workspaceState.get<Record<string, RememberedInputs>>(INPUTS_KEY) ?? {}) };
    all[subject] = inputs;
    await this.context.workspaceState.update(INPUTS_KEY, all);
  }

  /**
   * The inputs of a compute (a value per parameter) or a sweep (which parameters to sweep, a range for
   * each, samples when a range has no step, then values for the rest), each checked as it is typed,
   * offered with what was given last for the subject, else the model's default.
   */
  private async askInputs(kind: 'compute' | 'sweep', subject: string, parameters: Parameter[], last: RememberedInputs | undefined):
    Promise<{ bindings?: Value[]; sweep?: NonNullable<Question['sweep']> } | undefined> {
    const lastValue = (name: string) => last?.bindings?.find((b) => b.name === name);
    const lastRange = (name: string) => last?.ranges?.find((r) => r?.parameter === name);
    let swept: Parameter[] = [];
    const ranges: ParsedRange[] = [];
    let samples = last?.samples ?? 20;
    if (kind === 'sweep') {
      if (parameters.length === 0) {
        this.notify('warning', `Assay: ${subject} has no input parameters (in …) to sweep over.`, []);
        return undefined;
      }
      type Item = vscode.QuickPickItem & { parameter: Parameter };
      const items: Item[] = parameters.map((p) => ({ label: p.name, description: parameterText(p).slice(p.name.length).replace(/^ : /, ''), parameter: p, picked: Boolean(lastRange(p.name)) }));
      // Nothing remembered: the parameters the model gives no default are the ones to sweep.
      if (!items.some((i) => i.picked)) for (const i of items) i.picked = i.parameter.defaultText === undefined;
      if (!items.some((i) => i.picked)) items[0]!.picked = true;
      const picked = await vscode.window.showQuickPick(items, {
        title: `Assay: sweep ${subject} — parameters to sweep`, placeHolder: 'Check the parameters the table goes over', canPickMany: true,
      });
      if (!picked || picked.length === 0) return undefined;
      swept = picked.map((i) => i.parameter);
      // The typed steps stay up when focus moves (ignoreFocusOut): a modeler clicks into the model to look
      // a value up and comes back to the step, instead of losing the question half asked.
      for (const [i, p] of swept.entries()) {
        const previous = lastRange(p.name);
        const text = await vscode.window.showInputBox({
          ignoreFocusOut: true,
          title: `Assay: sweep ${subject} — range of ${p.name} (${i + 1}/${swept.length})`,
          prompt: `${parameterText(p)}: <from> .. <to> step <step> (leave out "step …" to draw samples)`,
          value: previous ? rangeInputText(previous) : `0 .. 10 step 1`,
          validateInput: (value) => parseRangeText(p, value).error,
        });
        if (text === undefined) return undefined;
        ranges.push(parseRangeText(p, text));
      }
      if (ranges.some((r) => r.sampled)) {
        const text = await vscode.window.showInputBox({
          ignoreFocusOut: true,
          title: `Assay: sweep ${subject} — samples`, prompt: 'How many samples to draw over the ranges without a step', value: String(samples),
          validateInput: (value) => { const n = parseSamples(value); return typeof n === 'string' ? n : undefined; },
        });
        if (text === undefined) return undefined;
        samples = parseSamples(text) as number;
      }
    }
    const rest = parameters.filter((p) => !swept.includes(p));
    const bindings: Value[] = [];
    for (const [i, p] of rest.entries()) {
      const previous = lastValue(p.name);
      const text = await vscode.window.showInputBox({
        ignoreFocusOut: true,
        title: `Assay: ${kind} ${subject} — input ${p.name} (${i + 1}/${rest.length})`,
        prompt: parameterText(p),
        placeHolder: p.defaultText !== undefined ? `empty: the model's default, ${p.defaultText}` : `a value${p.unit ? `, e.g. 10 [${p.unit}]` : ''}`,
        value: previous ? valueInputText(previous) : '',
        validateInput: (value) => parseInputValue(p, value).error,
      });
      if (text === undefined) return undefined;
      const value = parseInputValue(p, text).value;
      if (value) bindings.push(value);
    }
    const sweep = kind === 'sweep' ? sweepOf(ranges, samples) : undefined;
    await this.remember(subject, {
      bindings, ...(sweep ? { ranges: sweep.ranges } : {}), ...(sweep?.samples !== undefined ? { samples: sweep.samples } : {}),
    });
    return { ...(bindings.length > 0 ? { bindings } : {}), ...(sweep ? { sweep } : {}) };
  }

  private start(host: Host, plan: Plan, collected: Collected): number | undefined {
    // The user's own mistakes are said as what they are, before any engine is asked.
    const problem = questionProblem(plan.question, collected.documents);
    if (problem) {
      this.reportQuestionProblem(plan.question, problem, collected);
      return undefined;
    }
    const id = this.nextId++;
    const record: RunRecord = {
      id, question: plan.question, documents: collected.documents, documentUris: collected.uris, state: 'queued', askedAt: Date.now(),
      ...(plan.engine ? { engineChoice: plan.engine } : {}),
    };
    this.history.add(record);
    const config = vscode.workspace.getConfiguration('assay');
    const budget = budgetFromSetting(config.get('budget'));
    for (const problem of budget.problems) this.output.warn(`Settings: ${problem}`);
    this.output.info(`Run ${id}: ${questionText(plan.question)} (schedule ${plan.question.schedule}${plan.question.condition ? `, condition ${plan.question.condition.name}` : ''}) ` +
      `on ${plan.engine ?? 'the first engine that covers it'}, ${collected.documents.length} documents, budget ${JSON.stringify(budget.budget)}`);
    this.pendingRecord = id;
    let run: Run;
    try {
      run = host.ask({ question: plan.question, documents: collected.documents, budget: budget.budget, ...(plan.engine ? { engine: plan.engine } : {}) });
    } finally {
      this.pendingRecord = undefined;
    }
    this.recordOf.get(host)?.set(run.id, id);
    this.active.set(id, run);
    this.runningChanged();
    this.showProgress(id, run);
    return id;
  }

  /** `assay.running` says whether something runs (the Runs view's Cancel shows only then). */
  private runningChanged(): void {
    void vscode.commands.executeCommand('setContext', 'assay.running', this.active.size + this.offloads.size > 0);
  }

  // ---------------------------------------------------------------------------------------------
  // On the task service (issue #20): a sweep or compute as N shards, merged into a local run's answer

  /**
   * Whether to run a sweep/compute on the task service, and how: 0 here, the shard count there, undefined
   * when the user dismissed the pick. Offered only when `assay.tasks.serviceUrl` is set.
   */
  private async offloadChoice(asked: number | false | undefined, question: Question):
    Promise<{ shards: number; config: AdapterConfig; worker: [string, ...string[]]; url: string } | 0 | undefined> {
    const tasks = vscode.workspace.getConfiguration('assay.tasks');
    const url = (tasks.get<string>('serviceUrl') ?? '').trim();
    if (url === '' || asked === false) return 0;
    const flags = questionFlags(question);
    if (typeof flags === 'string') {
      this.output.info(`Task service: not offered for ${questionText(question)}: ${flags}`);
      return 0;
    }
    let config: AdapterConfig;
    try {
      config = readConfig(adapterEnvironment(process.env, { serviceUrl: url, runtimeUrl: (tasks.get<string>('runtimeUrl') ?? '').trim() }));
    } catch (error) {
      this.notify('error', `Assay: assay.tasks.serviceUrl: ${(error as Error).message}`, [['Open Settings', () => vscode.commands.executeCommand('workbench.action.openSettings', 'assay.tasks.serviceUrl')]]);
      return undefined;
    }
    const setting = tasks.get<number>('shards', 4);
    const configured = Number.isInteger(setting) && setting >= 1 && setting <= 1000 ? setting : 4;
    if (setting !== configured) this.output.warn(`Settings: assay.tasks.shards: expected a whole number from 1 to 1000, got ${JSON.stringify(setting)}; using 4`);
    const worker = workerWords(tasks.get<string>('workerCommand'), this.distDir);
    let shards = typeof asked === 'number' ? asked : configured;
    if (!Number.isInteger(shards) || shards < 1) {
      this.notify('error', `Assay: offload: expected a whole number of shards of at least 1, got ${JSON.stringify(asked)}`, []);
      return undefined;
    }
    if (asked === undefined) {
      const here = { label: '$(play) Run here', description: 'the engine in this window', shards: 0 };
      const there = { label: `$(cloud-upload) Run on task service (${configured} shards)`, description: redactCredentials(url), shards: configured };
      const picked = await vscode.window.showQuickPick([here, there], { title: `Assay: ${questionText(question)}`, placeHolder: 'Where to run the table' });
      if (!picked) return undefined;
      if (picked.shards === 0) return 0;
      shards = picked.shards;
    }
    return { shards, config, worker, url };
  }

  /** Runs a question as shards on the task service: a Runs entry, progress in the notification and the status bar, Cancel cancels the shards. */
  private startOffloaded(host: Host, plan: Plan, collected: Collected, offload: { shards: number; config: AdapterConfig; worker: [string, ...string[]]; url: string }): number | undefined {
    const problem = questionProblem(plan.question, collected.documents);
    if (problem) {
      this.reportQuestionProblem(plan.question, problem, collected);
      return undefined;
    }
    const n = offload.shards;
    const id = this.nextId++;
    const startedAt = Date.now();
    const record: RunRecord = {
      id, question: plan.question, documents: collected.documents, documentUris: collected.uris, state: 'running', askedAt: startedAt,
      engine: `task service (${n} shards)`, progress: { text: `shards 0/${n}, submitting` },
    };
    this.history.add(record);
    this.output.info(`Run ${id}: ${questionText(plan.question)} as ${n} shards on the task service ${redactCredentials(offload.url)} (worker: ${offload.worker.join(' ')})`);
    const stop = new AbortController();
    this.offloads.set(id, stop);
    this.runningChanged();
    const settled = offloadQuestion({
      config: offload.config, question: plan.question, documents: collected.documents, shards: n, worker: offload.worker, signal: stop.signal,
      onProgress: (p) => this.history.update(id, {
        progress: { text: `shards ${p.done}/${p.total}, ${p.rows.toLocaleString('en-US')} rows${p.failed ? `, ${p.failed} failed` : ''}` },
      }),
      onNote: (text) => this.output.warn(`Run ${id}: ${text}`),
    }).then((ran) => ran.outcome, (error: unknown) => ({
      status: 'error' as const, message: `the task service failed: ${redactCredentials(error instanceof Error ? error.message : String(error))}`,
    })).then((outcome) => {
      this.offloads.delete(id);
      this.runningChanged();
      if (outcome.status === 'cancelled') this.notify('info', `Assay: ${questionText(plan.question)} — ${outcome.message}`, []);
      const updated = this.history.update(id, {
        state: 'settled', outcome, elapsedMs: Date.now() - startedAt, progress: undefined,
        ...(outcome.status === 'answered' ? { engine: outcome.engine } : {}),
      });
      if (updated) this.settled(host, updated);
    });
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Assay: ${questionText(plan.question)} on the task service`, cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => {
          this.output.info(`Run ${id}: cancel requested from the notification: cancelling the shards`);
          stop.abort();
        });
        progress.report({ message: `shards 0/${n}` });
        const report = new Throttle<string>(250, (message) => progress.report({ message }));
        const subscription = this.history.onDidChange((changed) => {
          if (changed.id === id && changed.state !== 'settled' && changed.progress?.text) report.push(changed.progress.text);
        });
        return settled.finally(() => {
          report.dispose();
          subscription.dispose();
        });
      },
    );
    return id;
  }

  private onEvent(host: Host, event: RunEvent): void {
    const ids = this.recordOf.get(host);
    if (!ids) return;
    let id = ids.get(event.run);
    if (id === undefined && event.type === 'queued' && this.pendingRecord !== undefined) {
      id = this.pendingRecord;
      ids.set(event.run, id);
    }
    if (id === undefined) return;
    switch (event.type) {
      case 'queued':
        if (event.waitingFor) this.history.update(id, { state: 'queued', waitingFor: event.waitingFor });
        break;
      case 'started':
        this.history.update(id, { state: 'running', engine: event.engine, question: event.question, waitingFor: undefined });
        this.output.info(`Run ${id}: started on ${event.engine} (${event.modelForm}; bounds ${event.bounds.map((b) => `${b.name} ${b.limit || 'open'}`).join(', ') || 'none'})`);
        break;
      case 'progress':
        this.history.update(id, { progress: event.progress });
        break;
      case 'settled': {
        this.active.delete(id);
        this.runningChanged();
        ids.delete(event.run);
        const outcome = event.outcome;
        const record = this.history.update(id, {
          state: 'settled', outcome, elapsedMs: event.elapsedMs, waitingFor: undefined,
          ...(outcome.status !== 'not covered' && outcome.engine ? { engine: outcome.engine } : {}),
        });
        if (record) this.settled(host, record);
        break;
      }
    }
  }

  /** A cancellable progress notification for one run; its Cancel sends the protocol's cancel. */
  private showProgress(id: number, run: Run): void {
    const record = this.history.get(id)!;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Assay: ${questionText(record.question)}`, cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => {
          this.output.info(`Run ${id}: cancel requested from the notification`);
          run.cancel();
        });
        const report = new Throttle<string>(250, (message) => progress.report({ message }));
        const subscription = this.history.onDidChange((changed) => {
          if (changed.id !== id || changed.state === 'settled') return;
          const counts = progressCounts(changed.progress, Date.now() - changed.askedAt);
          report.push(changed.state === 'queued' ? (changed.waitingFor ? `queued for ${changed.waitingFor}` : 'starting') : `${changed.engine ?? ''}${counts ? ` · ${counts}` : ''}`);
        });
        return run.settled.finally(() => {
          report.dispose();
          subscription.dispose();
        });
      },
    );
  }

  private settled(host: Host, record: RunRecord): void {
    const o = record.outcome!;
    const entry = runsEntry(record);
    this.output.info(`Run ${record.id}: ${entry.description}${outcomeReason(o) ? ` — ${outcomeReason(o)}` : ''}`);
    this.diagnostics.settled(record);
    this.details.fire(vscode.Uri.from({ scheme: RUN_SCHEME, path: `/run-${record.id}.md` }));
    const message = `Assay: ${settledMessage(record)}`;
    const details: [string, () => unknown] = ['Details', () => this.openDetails(record.id)];
    switch (o.status) {
      case 'answered': {
        const actions: [string, () => unknown][] = [];
        if (hasWitness(o)) actions.push(['Show Witness', () => vscode.commands.executeCommand('assay.openWitness', record.id)]);
        else if (hasValues(o)) actions.push(['Show', () => vscode.commands.executeCommand('assay.openWitness', record.id)]);
        if (vscode.workspace.getConfiguration('assay.feed').get<string>('url')) actions.push(['Share to Team Feed…', () => vscode.commands.executeCommand('assay.feed.share', record.id)]);
        actions.push(details);
        const bad = o.result.claim === 'violated' || o.result.claim === 'unsatisfiable' || o.standing.strength === 'not covered';
        this.notify(bad ? 'warning' : 'info', message, actions);
        break;
      }
      case 'not covered':
        for (const reason of o.reasons) this.notifiedEngineProblems.add(reason.reason);
        this.notify(engineFailed(o) ? 'error' : 'warning', message, [['Show Output', () => this.output.show(true)], ['Show Engines', () => vscode.commands.executeCommand('assay.showEngines')]]);
        break;
      case 'budget':
        this.notify('warning', message, [details]);
        break;
      case 'error':
        this.output.error(`Run ${record.id}: ${o.message}`);
        this.notifiedEngineProblems.add(o.message);
        this.notify('error', message, [['Show Output', () => this.output.show(true)], details]);
        break;
      case 'cancelled':
        break; // the status bar and the Runs view say so; the user asked for it
    }
    this.reportEngineProblems(host, record);
  }

  /** An engine that could not be used for this question (crashed, refused, timed out) is reported once. */
  private reportEngineProblems(host: Host, record: RunRecord): void {
    const consulted = record.engineChoice ? [record.engineChoice] : host.engines.map((e) => e.name);
    for (const name of consulted) {
      const engine = host.engine(name);
      const problem = engine?.problem;
      if (!engine || !problem || (engine.status !== 'failed' && engine.status !== 'refused')) continue;
      if (this.notifiedEngineProblems.has(problem)) continue;
      this.notifiedEngineProblems.add(problem);
      this.output.error(problem);
      const tail = engine.stderrTail(1500).trim();
      if (tail) this.output.error(`engine "${name}" stderr:\n${tail}`);
      this.notify('error', `Assay: ${headline(problem)}`, [['Show Output', () => this.output.show(true)], ['Show Engines', () => vscode.commands.executeCommand('assay.showEngines')]]);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Other commands

  /** Cancels a run (the given one, the only one, or one the user picks). */
  async cancelRun(target?: RunNode | number): Promise<number[]> {
    let ids: number[];
    const record = this.recordFor(target);
    if (record) ids = [record.id];
    else {
      const running = [...this.active.keys(), ...this.offloads.keys()];
      if (running.length === 0) {
        this.notify('info', 'Assay: no run is in progress.', []);
        return [];
      }
      if (running.length === 1) ids = running;
      else {
        const items = [
          { label: '$(debug-stop) All runs', ids: running },
          ...running.map((id) => ({ label: questionText(this.history.get(id)!.question), description: `run ${id}`, ids: [id] })),
        ];
        const picked = await vscode.window.showQuickPick(items, { title: 'Assay: Cancel Run', placeHolder: 'Which run to cancel' });
        if (!picked) return [];
        ids = picked.ids;
      }
    }
    for (const id of ids) {
      this.output.info(`Run ${id}: cancel requested`);
      this.active.get(id)?.cancel();
      this.offloads.get(id)?.abort();
    }
    return ids;
  }

  /** Stops every engine process; the next question starts them afresh (re-reading the settings). */
  async restartEngines(): Promise<number> {
    const host = this.host;
    this.host = undefined;
    this.stale = true;
    this.notifiedEngineProblems.clear();
    if (!host) {
      this.notify('info', 'Assay: no engine is running; engines start with the next question.', []);
      return 0;
    }
    const pids = host.engines.filter((e) => e.pid !== undefined).length;
    await host.shutdown();
    this.recordOf.delete(host);
    this.output.info(`Engines stopped (${pids} process${pids === 1 ? '' : 'es'}); they start again with the next question.`);
    this.notify('info', `Assay: engines stopped (${pids} process${pids === 1 ? '' : 'es'}); they start again with the next question.`, []);
    return pids;
  }

  /** Lists the configured engines with their describe status (each usable one is started and checked). */
  async showEngines(): Promise<EngineListing[]> {
    const picker = vscode.window.createQuickPick<vscode.QuickPickItem>();
    picker.title = 'Assay Engines';
    picker.placeholder = 'Configured engines and their describe check';
    picker.busy = true;
    const { host, settings } = await this.currentHost();
    const listed = (checks: EngineCheck[] | undefined): EngineListing[] => settings.listing.map((engine) => {
      if (engine.ignoredBecause) return { ...engine, status: 'ignored' as const };
      const check = checks?.find((c) => c.name === engine.name);
      const process = host.engine(engine.name);
      const listing: EngineListing = { ...engine, status: !check ? 'failed' : check.ok ? 'ready' : process?.status === 'refused' ? 'refused' : 'failed' };
      if (check?.problem) listing.problem = check.problem;
      if (check?.capabilities) {
        listing.answers = [...check.capabilities.answers];
        listing.version = check.capabilities.version;
      }
      return listing;
    });
    const itemsOf = (engines: EngineListing[], checking: boolean): vscode.QuickPickItem[] => {
      if (engines.length === 0) return [{ label: 'No engines', detail: 'assay.useBundledEngine is off and assay.engines is empty.' }];
      return engines.map((engine) => ({
        label: `${engine.status === 'ignored' ? '$(circle-slash)' : checking ? '$(loading~spin)' : engine.status === 'ready' ? '$(pass)' : '$(error)'} ${engine.name}`,
        description: engine.origin === 'bundled' ? 'bundled' : `${engine.origin} settings`,
        detail: engine.ignoredBecause ?? (checking ? `${engine.command} — checking…`
          : engine.status === 'ready' ? `ready: version ${engine.version}, answers ${engine.answers?.join(', ')} — ${engine.command}`
            : `${engine.status}: ${engine.problem ?? 'unknown problem'}`),
      }));
    };
    picker.items = itemsOf(listed(undefined), true);
    picker.onDidHide(() => picker.dispose());
    picker.show();
    const checks = await host.checkEngines();
    const engines = listed(checks);
    // assay.engines is machine-specific (it names programs): in a remote window VS Code drops it from the
    // local User settings without a word (the Settings UI greys it out). Say so where engines are listed.
    const remote = vscode.env.remoteName
      ? `This window runs on a remote (${vscode.env.remoteName}): engine entries in your local User settings are not applied here (assay.engines is machine-specific); put them in Remote settings (Preferences: Open Remote Settings) or the workspace's settings.`
      : undefined;
    picker.items = [...itemsOf(engines, false), ...(remote ? [{ label: '$(info) Local User settings are not applied in a remote window', detail: remote }] : [])];
    picker.busy = false;
    if (remote) this.output.info(remote);
    this.output.info(`Engines (${engines.length}):`);
    for (const engine of engines) {
      this.output.info(`  ${engine.name} [${engine.origin}] ${engine.status}${engine.ignoredBecause ? ` — ${engine.ignoredBecause}` : engine.problem ? ` — ${engine.problem}` : ''}`);
    }
    return engines;
  }

  async openWitnessOf(target?: RunNode | number): Promise<void> {
    const record = this.recordFor(target);
    if (record) await vscode.commands.executeCommand('assay.openWitness', record.id);
  }

  async copyResult(target?: RunNode | number): Promise<string | undefined> {
    const record = this.recordFor(target) ?? this.history.all()[0];
    if (!record) return undefined;
    const json = resultJson(record);
    await vscode.env.clipboard.writeText(json);
    vscode.window.setStatusBarMessage(`Assay: result of run ${record.id} copied`, 3000);
    return json;
  }

  private async openDetails(id: number): Promise<void> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: RUN_SCHEME, path: `/run-${id}.md` }));
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(document, { preview: true });
  }

  private detailsText(id: number): string {
    const record = this.history.get(id);
    if (!record) return `Run ${id} is not in this window's history.\n`;
    const entry = runsEntry(record);
    return [
      `# ${entry.label}`, '', `Run ${record.id}: ${entry.description}`, '',
      ...entry.details.map((line) => `- ${line}`), '',
      `Model: ${record.documents.map((d) => vscode.workspace.asRelativePath(d.path)).join(', ')}`, '',
      '```json', resultJson(record), '```', '',
    ].join('\n');
  }

  private recordFor(target: RunNode | number | undefined): RunRecord | undefined {
    if (typeof target === 'number') return this.history.get(target);
    if (target && typeof target === 'object' && typeof target.run === 'number') return this.history.get(target.run);
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // The model and the picks

  /** The workspace's model files, with the open documents' current text (unsaved edits included). */
  private async collectDocuments(): Promise<Collected> {
    const pathOf = (uri: vscode.Uri) => (uri.scheme === 'file' ? uri.fsPath : uri.toString());
    const uris: Record<string, string> = {};
    const open: SourceDocument[] = [];
    for (const document of vscode.workspace.textDocuments) {
      const uri = document.uri;
      if (uri.scheme !== 'file' && uri.scheme !== 'untitled') continue;
      if (!['sysml', 'kerml'].includes(document.languageId) && !isModelPath(uri.path)) continue;
      uris[pathOf(uri)] = uri.toString();
      open.push({ path: pathOf(uri), text: document.getText() });
    }
    const files = await vscode.workspace.findFiles('**/*.{sysml,kerml}', '**/{node_modules,.git}/**', 5000);
    for (const uri of files) uris[pathOf(uri)] ??= uri.toString();
    const documents = await modelDocuments(open, files.map(pathOf), async (path) => {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uris[path]!)));
      } catch (error) {
        this.output.warn(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}; left out of the model`);
        return undefined;
      }
    });
    return { documents, uris };
  }

  private async pickSubject(outline: ModelOutline, collected: Collected, entries: readonly EngineEntry[]): Promise<SubjectChoice | undefined> {
    const kinds = subjectKinds(entries);
    const all = outline.subjects(kinds);
    if (all.length === 0) {
      this.notify('warning', 'Assay: the workspace declares nothing an engine can answer about (no .sysml or .kerml declarations).', []);
      return undefined;
    }
    const editor = vscode.window.activeTextEditor;
    let here: SubjectChoice | undefined;
    if (editor) {
      const uri = editor.document.uri;
      const path = uri.scheme === 'file' ? uri.fsPath : uri.toString();
      if (collected.uris[path]) here = outline.subjectAt(path, editor.document.offsetAt(editor.selection.active), kinds);
    }
    type Item = vscode.QuickPickItem & { choice?: SubjectChoice };
    const itemOf = (choice: SubjectChoice, note?: string): Item => ({
      label: choice.qualifiedName,
      description: `${choice.kind}${choice.isDefinition ? ' def' : ''}${note ? ` — ${note}` : ''}`,
      detail: `${vscode.workspace.asRelativePath(choice.path)}:${choice.range.line}`,
      choice,
    });
    const items: Item[] = [];
    if (here) items.push(itemOf(here, 'at the cursor'), { label: 'all declarations', kind: vscode.QuickPickItemKind.Separator });
    for (const choice of all) if (choice !== here && !(here && choice.qualifiedName === here.qualifiedName && choice.path === here.path && choice.range.start === here.range.start)) items.push(itemOf(choice));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Assay: Ask a Question (1/5): subject', placeHolder: 'The declaration to ask about', matchOnDescription: true, matchOnDetail: true,
    });
    return picked?.choice;
  }

  private async pickKind(subject: string, kinds: QuestionKind[]): Promise<QuestionKind | undefined> {
    if (kinds.length === 0) {
      this.notify('warning', `Assay: no configured engine answers questions about ${subject}.`, [['Show Engines', () => vscode.commands.executeCommand('assay.showEngines')]]);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(kinds.map((kind) => ({ label: kind, description: KIND_DESCRIPTIONS[kind], kind: undefined })), {
      title: `Assay: Ask a Question (2/5): what to ask of ${subject}`, placeHolder: 'Question kind',
    });
    return picked?.label as QuestionKind | undefined;
  }

  private async pickCondition(subject: string, constraints: string[]): Promise<Condition | undefined | 'cancelled'> {
    type Item = vscode.QuickPickItem & { condition?: Condition | null };
    const items: Item[] = [
      {
        label: 'Asserted constraints',
        description: constraints.length > 0 ? `the constraints ${subject} asserts` : 'none declared here; the engine looks for asserted constraints',
        condition: null,
      },
      ...constraints.map((name): Item => ({ label: name, description: 'constraint', condition: { name } })),
      { label: '$(edit) Type a condition…', description: 'a SysML expression over the subject\'s features' },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: `Assay: Ask a Question (3/5): condition that must hold`, placeHolder: 'Condition' });
    if (!picked) return 'cancelled';
    if (picked.condition !== undefined) return picked.condition ?? undefined;
    const text = await vscode.window.showInputBox({
      ignoreFocusOut: true,
      title: 'Assay: condition', prompt: `A SysML expression over the features of ${subject}, e.g. not (a and b)`,
      // Read as it is typed, with the column in the user's own text.
      validateInput: (value) => {
        const error = conditionSyntaxError(value);
        return error ? `column ${error.column}: ${error.message}` : undefined;
      },
    });
    if (text === undefined) return 'cancelled';
    return { name: text.trim().length <= 40 ? text.trim() : 'condition', text: text.trim() };
  }

  private async pickSchedule(preferred: string): Promise<string | undefined> {
    type Item = vscode.QuickPickItem & { seed?: boolean };
    const names = [preferred, ...['fifo', 'lifo', 'all'].filter((s) => s !== preferred)];
    const items: Item[] = names.map((name) => ({
      label: name,
      description: `${SCHEDULE_DESCRIPTIONS[name] ?? 'seeded random choice'}${name === preferred ? ' (assay.schedule)' : ''}`,
    }));
    items.push({ label: 'seed:<n>…', description: 'seeded random choice', seed: true });
    const picked = await vscode.window.showQuickPick(items, { title: 'Assay: Ask a Question (4/5): schedule policy', placeHolder: 'Which moves run first' });
    if (!picked) return undefined;
    if (!picked.seed) return picked.label;
    const seed = await vscode.window.showInputBox({
      ignoreFocusOut: true,
      title: 'Assay: schedule seed', prompt: 'A non-negative integer', value: '1',
      validateInput: (value) => (/^(0|[1-9][0-9]*)$/.test(value.trim()) ? undefined : 'A non-negative integer without leading zeros'),
    });
    return seed === undefined ? undefined : `seed:${seed.trim()}`;
  }

  private async pickEngine(candidates: readonly EngineEntry[], offered: readonly EngineEntry[], cannotStart: readonly { name: string; problem: string }[]): Promise<string | undefined> {
    const items: vscode.QuickPickItem[] = [
      { label: 'auto', description: 'the first engine that covers the question' },
      { label: ALL_COVERING_ENGINES, description: `every engine that covers it (${candidates.map((e) => e.name).join(', ')}), side by side, compared` },
      ...offered.map((entry) => ({ label: entry.name, description: entry.builtIn ? 'bundled' : entry.command })),
    ];
    // An engine that cannot start is not offered; the placeholder says which were left out and why is in the output.
    const left = cannotStart.length ? ` (not offered, cannot start: ${cannotStart.map((c) => c.name).join(', ')}; see Show Engines)` : '';
    const picked = await vscode.window.showQuickPick(items, { title: 'Assay: Ask a Question (5/5): engine', placeHolder: `Which engine answers${left}` });
    return picked?.label === ALL_COVERING_ENGINES ? 'all' : picked?.label;
  }

  private notify(severity: 'info' | 'warning' | 'error', message: string, actions: [string, () => unknown][]): void {
    this.shown.push(message);
    const show = severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    // Not awaited: a command's result must not wait for a click.
    void show(message, ...actions.map(([label]) => label)).then((choice) => {
      const action = actions.find(([label]) => label === choice);
      if (action) void Promise.resolve(action[1]()).catch((error: unknown) => this.output.error(String(error)));
    });
  }

  async dispose(): Promise<void> {
    for (const run of this.active.values()) run.cancel();
    for (const d of this.disposables) d.dispose();
    await this.host?.shutdown();
  }
}

/** A multi-line engine problem in one line: the first line, and the error line of the stderr it quotes. */
function headline(problem: string): string {
  const [first = '', ...rest] = problem.split('\n');
  if (rest.length === 0) return first;
  const error = rest.find((line) => /\b(Error|error|ENOENT|EACCES)\b/.test(line)) ?? rest.find((line) => line.trim() !== '');
  return `${first.replace(/;? its stderr ends with:$/, '')}${error ? ` — ${error.trim()}` : ''}`;
}

/** The question as the user asked it (the host adds subjectKind itself, from the model as it is then). */
function stripSubjectKind(question: Question): Question {
  const { subjectKind: _kind, ...rest } = question;
  return rest;
}
