// The witness panel's content as the host computes it, on real models: behaviour answers come from the
// shared semantics (the reference engine's answers), tables and assignments from results the real CLI
// printed (test/fixtures/webview/README.md). Each test asserts what a user would see in the panel.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Question, RunResult, SourceDocument } from '../../src/protocol';
import { parse } from '../../src/sysml';
import { answerBehavior, BehaviorError, type BehaviorQuestion } from '../../src/sysml/behavior';
import { decideStanding } from '../../src/host/standing';
import { SysmlModel } from '../../src/host/sysml-model';
import { histogram, tableView, witnessView, type WitnessView } from '../../src/host/witness-view';
import { sortedOrder, tableCsv } from '../../src/webview/table';

const BEHAVIOR = join(__dirname, '..', 'fixtures', 'models', 'behavior');
const CAPTURED = join(__dirname, '..', 'fixtures', 'webview');

function sources(...files: string[]): SourceDocument[] {
  return files.map((f) => ({ path: join(BEHAVIOR, f), text: readFileSync(join(BEHAVIOR, f), 'utf8') }));
}

/** Asks the shared semantics (what the reference engine answers), then lets the host decide the standing. */
async function ask(documents: SourceDocument[], question: Question, tamper?: (r: RunResult) => void): Promise<WitnessView> {
  const parsed = documents.map((d) => ({ path: d.path, document: parse(d.text).document }));
  const answer = await answerBehavior(parsed, question as BehaviorQuestion);
  if (answer instanceof BehaviorError) throw answer;
  const result = JSON.parse(JSON.stringify(answer)) as RunResult;
  tamper?.(result);
  const standing = await decideStanding({
    engine: 'assay-reference', authority: 'proved', question, result, model: { sources: { library: '2026-04', documents } }, witnessChecker: new SysmlModel(),
  });
  return witnessView({ runId: 7, question, result, documents, engine: 'assay-reference', standing });
}

function captured(name: string): WitnessView {
  const c = JSON.parse(readFileSync(join(CAPTURED, `${name}.json`), 'utf8')) as { question: Question; engine: string; result: RunResult };
  return witnessView({ question: c.question, result: c.result, documents: [], engine: c.engine });
}

const holds = (subject: string, extra: Partial<Question> = {}): Question => ({ kind: 'holds', subject, schedule: 'all', free: [], ...extra });

describe('witness view (host)', () => {
  it('a violated holds: each step with its move, alternatives, state after it, changes, the condition and the node to reveal', async () => {
    const docs = sources('traffic-light.sysml');
    const view = await ask(docs, holds('TrafficLight::TimedCrossing'));
    assert.equal(view.title, 'holds TrafficLight::TimedCrossing');
    assert.equal(view.claim, 'violated');
    assert.deepEqual(view.strength, { claimed: 'proved', standing: 'proved', reasons: [] });
    assert.equal(view.check?.verdict, 'confirmed');
    assert.match(view.check!.text, /fails at step 2, as claimed/);
    assert.equal(view.content.kind, 'schedule');
    if (view.content.kind !== 'schedule') return;
    const r = view.content.replay;
    assert.deepEqual(r.features, ['nsGreen', 'ewGreen']);
    assert.deepEqual(r.conditions, ['safety']);
    assert.equal(r.at, 2);
    assert.equal(r.error, undefined);
    assert.equal(r.replayed, true);
    assert.equal(r.steps.length, 3); // the initial state and two moves
    const [s0, s1, s2] = r.steps;
    assert.deepEqual(s0!.values, ['false', 'false']);
    assert.deepEqual(s0!.conditions, [{ name: 'safety', value: 'true' }]);
    assert.equal(s1!.move, 't1@ns.nsLight.red->green');
    assert.equal(s1!.token, 't1');
    assert.equal(s1!.node, 'ns.nsLight.red->green');
    assert.deepEqual(s1!.enabled, ['t1@ns.nsLight.red->green']);
    assert.deepEqual(s1!.values, ['true', 'false']);
    assert.deepEqual(s1!.changed, ['nsGreen']);
    // The time of each step, not the next due time (a settled state's clock has run on to the next timer).
    assert.equal(s0!.clock, 0);
    assert.equal(s1!.clock, 1);
    assert.equal(s2!.clock, 2);
    // Plain words for the moves: the machine, its source and target state.
    assert.equal(s1!.label, 'ns.nsLight: red → green');
    assert.deepEqual(s1!.enabledLabels, ['ns.nsLight: red → green']);
    assert.equal(s2!.label, 'ew.ewLight: red → green');
    // Each machine's state after each step.
    assert.deepEqual(r.steps.map((s) => s.machines.map((m) => `${m.name}=${m.state}`).join(' ')), [
      'ns.nsLight.state=red ew.ewLight.state=red', 'ns.nsLight.state=green ew.ewLight.state=red', 'ns.nsLight.state=green ew.ewLight.state=green',
    ]);
    assert.equal(s1!.violating, false);
    assert.deepEqual(s1!.conditions, [{ name: 'safety', value: 'true' }]);
    assert.equal(s2!.move, 't2@ew.ewLight.red->green');
    assert.deepEqual(s2!.values, ['true', 'true']);
    assert.deepEqual(s2!.changed, ['ewGreen']);
    assert.equal(s2!.violating, true);
    assert.deepEqual(s2!.conditions, [{ name: 'safety', value: 'false' }]);
    // The move's declaration: the `accept after 1 [SI::s] do assign nsGreen := true then green` transition of ns.
    const text = docs[0]!.text.split('\n');
    assert.equal(s1!.location?.path, docs[0]!.path);
    assert.match(text[s1!.location!.line - 1]!, /accept after 1 \[SI::s\] do assign nsGreen := true then green/);
    assert.match(text[s2!.location!.line - 1]!, /accept after 2 \[SI::s\] do assign ewGreen := true then green/);
  });

  it('a four-step violation: step 3 is the join, revealed at its declaration', async () => {
    const docs = sources('fork-join.sysml');
    const view = await ask(docs, holds('ForkJoin::Assemble', { schedule: 'fifo', condition: { name: 'small', text: 'total < 3' } }));
    assert.equal(view.question.condition, 'small: total < 3');
    assert.equal(view.content.kind, 'schedule');
    if (view.content.kind !== 'schedule') return;
    const steps = view.content.replay.steps;
    assert.deepEqual(steps.map((s) => s.move ?? '(initial)'), ['(initial)', 't1@makeA', 't2@makeB', 't1@j', 't1@sum']);
    assert.deepEqual(steps[1]!.enabled, ['t1@makeA', 't2@makeB']);
    // Actions by their path, without the token; untimed: every step at 0 s.
    assert.deepEqual(steps.map((s) => s.label ?? '(initial)'), ['(initial)', 'makeA', 'makeB', 'j', 'sum']);
    assert.deepEqual(steps[1]!.enabledLabels, ['makeA', 'makeB']);
    assert.deepEqual(steps.map((s) => s.clock), [0, 0, 0, 0, 0]);
    assert.deepEqual(steps.map((s) => s.changed), [[], ['a'], ['b'], [], ['total']]);
    assert.deepEqual(steps.map((s) => s.conditions[0]!.value), ['true', 'true', 'true', 'true', 'false']);
    assert.deepEqual(steps.map((s) => s.violating), [false, false, false, false, true]);
    assert.equal(steps[4]!.status, 'done');
    const line = docs[0]!.text.split('\n')[steps[3]!.location!.line - 1]!;
    assert.match(line, /join j;/);
  });

  it('a witness that does not replay to the claimed violation: says so, with the lowered standing and its reason', async () => {
    const view = await ask(sources('traffic-light.sysml'), holds('TrafficLight::TimedCrossing'), (r) => {
      // The engine claims the violation after the first move only.
      r.witness!.schedules = [r.witness!.schedules![0]!.split('\n')[0]!];
      r.witness!.at = 1;
    });
    assert.equal(view.check?.verdict, 'refuted');
    assert.match(view.check!.text, /does not reproduce the claim: every condition holds after step 1/);
    assert.match(view.check!.text, /lowered from proved to not covered/);
    assert.equal(view.strength.standing, 'not covered');
    assert.match(view.strength.reasons[0]!, /host's replay of the witness does not reproduce the claim/);
    if (view.content.kind !== 'schedule') assert.fail('expected a schedule');
    assert.deepEqual(view.content.replay.steps.at(-1)!.conditions, [{ name: 'safety', value: 'true' }]);
  });

  it('a schedule the model does not allow: the replay stops at the step that does not fit', async () => {
    const view = await ask(sources('traffic-light.sysml'), holds('TrafficLight::TimedCrossing'), (r) => {
      r.witness!.schedules = ['step 1: t2@ew.ewLight.red->green first of t2@ew.ewLight.red->green'];
      r.witness!.at = 1;
    });
    assert.equal(view.check?.verdict, 'refuted');
    if (view.content.kind !== 'schedule') assert.fail('expected a schedule');
    assert.match(view.content.replay.error!, /^step 1: the schedule lists t2@ew\.ewLight\.red->green as enabled, the model enables t1@ns\.nsLight\.red->green/);
    assert.equal(view.content.replay.steps.length, 1); // only the initial state
  });

  it('sensitive: two schedules aligned by step, the first divergence, and the feature that ends different', async () => {
    const view = await ask(sources('race.sysml'), { kind: 'sensitive', subject: 'Race::Race', schedule: 'all', free: [] });
    assert.equal(view.check?.verdict, 'confirmed');
    if (view.content.kind !== 'sensitive') assert.fail('expected sensitive');
    const c = view.content;
    assert.equal(c.feature, 'x');
    assert.deepEqual(c.left.steps.map((s) => s.move ?? ''), ['', 't1@inc', 't2@dbl', 't1@j']);
    assert.deepEqual(c.right.steps.map((s) => s.move ?? ''), ['', 't2@dbl', 't1@inc', 't1@j']);
    assert.equal(c.divergence, 1);
    assert.deepEqual(c.ends, [{ feature: 'x', left: '4', right: '3', named: true }]);
    assert.equal(c.differIn, 'with different values of x');
    assert.equal(view.check?.text, 'The host replayed both schedules: they end with different values of x, as claimed.');
    assert.deepEqual(c.left.steps.map((s) => s.values[0]), ['1', '2', '4', '4']);
    assert.deepEqual(c.right.steps.map((s) => s.values[0]), ['1', '2', '3', '3']);
  });

  it('sensitive on what is not a feature: the configuration and the end each show as an end that differs', async () => {
    const model: SourceDocument = { path: 'ends.sysml', text: `package E {
    item def A;
    item def B;
    state def Pick { entry; then idle; state idle; transition first idle then left; transition first idle then right; state left; state right; }
    action def Places {
        attribute ready : ScalarValues::Boolean := false;
        action setReady { assign ready := true; }
        action check { first start; then decide d; if ready then waitA; else waitB; action waitA { accept A; } action waitB { accept B; } }
    }
}` };
    const pick = await ask([model], { kind: 'sensitive', subject: 'E::Pick', schedule: 'all', free: [] });
    assert.equal(pick.check?.verdict, 'confirmed');
    if (pick.content.kind !== 'sensitive') assert.fail('expected sensitive');
    // The machine's token rests in the state it ends in: the end's resting place differs with it.
    assert.deepEqual([pick.content.feature, pick.content.ends], ['state', [
      { feature: 'state', left: 'left', right: 'right', named: true },
      { feature: 'end', left: 'deadlock (left)', right: 'deadlock (right)', named: false },
    ]]);
    // Worded as what it is, not as a feature's values.
    assert.equal(pick.content.differIn, 'in different states');
    assert.equal(pick.check?.text, 'The host replayed both schedules: they end in different states, as claimed.');
    const places = await ask([model], { kind: 'sensitive', subject: 'E::Places', schedule: 'all', free: [] });
    assert.equal(places.check?.verdict, 'confirmed');
    if (places.content.kind !== 'sensitive') assert.fail('expected sensitive');
    assert.deepEqual([places.content.feature, places.content.ends], ['end', [{ feature: 'end', left: 'deadlock (check.waitA.accept1)', right: 'deadlock (check.waitB.accept2)', named: true }]]);
    assert.equal(places.content.differIn, 'differently (how each run ends: done, terminated, or deadlocked and where)');
  });

  it('outcomes: one card per outcome with its end values, each linked to its replayed execution', async () => {
    const view = await ask(sources('race.sysml'), { kind: 'outcomes', subject: 'Race::Race', schedule: 'all', free: [] });
    if (view.content.kind !== 'outcomes') assert.fail('expected outcomes');
    const c = view.content;
    assert.deepEqual(c.outcomes.map((o) => ({ index: o.index, end: o.end, values: o.values.map((v) => `${v.name} = ${v.text}`), execution: o.execution, mismatch: o.mismatch })), [
      { index: 1, end: 'done', values: ['x = 4'], execution: 0, mismatch: undefined },
      { index: 2, end: 'done', values: ['x = 3'], execution: 1, mismatch: undefined },
    ]);
    assert.deepEqual(c.executions.map((e) => e.label), ['Outcome 1', 'Outcome 2']);
    assert.deepEqual(c.executions.map((e) => e.steps.at(-1)!.values[0]), ['4', '3']);
  });

  it('an outcome whose reported end the replay does not reach is marked', async () => {
    const view = await ask(sources('race.sysml'), { kind: 'outcomes', subject: 'Race::Race', schedule: 'all', free: [] }, (r) => {
      r.values = r.values!.map((v) => (v.name === 'x@2' ? { ...v, value: 5 } : v));
    });
    if (view.content.kind !== 'outcomes') assert.fail('expected outcomes');
    assert.equal(view.content.outcomes[1]!.mismatch, "the host's replay ends with x = 3, not 5");
    assert.equal(view.check?.verdict, 'refuted');
    assert.equal(view.strength.standing, 'not covered');
  });

  it('outcomes of a state machine: each end’s active state, and every machine’s state per step', async () => {
    const view = await ask(sources('configurations.sysml'), { kind: 'outcomes', subject: 'Cruise::car', schedule: 'all', free: [] });
    if (view.content.kind !== 'outcomes') assert.fail('expected outcomes');
    const c = view.content;
    assert.equal(view.check?.verdict, 'confirmed');
    assert.deepEqual(c.outcomes[0]!.values.map((v) => `${v.name} = ${v.text}`), ['drive.state = Active.Cruising', 'lamps.state = On.back.off, On.front.bright']);
    const steps = c.executions[0]!.steps;
    // Initially drive rests in Off and lamps in On (front dim, back off); at the end in the cards' states.
    assert.deepEqual(steps[0]!.machines, [{ name: 'drive.state', state: 'Off' }, { name: 'lamps.state', state: 'On.back.off, On.front.dim' }]);
    assert.deepEqual(steps.at(-1)!.machines, [{ name: 'drive.state', state: 'Active.Cruising' }, { name: 'lamps.state', state: 'On.back.off, On.front.bright' }]);
  });

  it('an outcome whose reported state the replay does not reach is refuted', async () => {
    const view = await ask(sources('configurations.sysml'), { kind: 'outcomes', subject: 'Cruise::drive', schedule: 'all', free: [] }, (r) => {
      r.values = r.values!.map((v) => (v.name === 'state@1' ? { ...v, value: 'Active.Accelerating' } : v));
    });
    if (view.content.kind !== 'outcomes') assert.fail('expected outcomes');
    assert.equal(view.content.outcomes[0]!.mismatch, "the host's replay ends with state = Active.Cruising, not Active.Accelerating");
    assert.equal(view.check?.verdict, 'refuted');
    assert.equal(view.strength.standing, 'not covered');
  });

  it('a table with one swept parameter: columns with units, rows, summaries, a line chart of every point', () => {
    const view = captured('compute-one-range');
    if (view.content.kind !== 'table') assert.fail('expected a table');
    const t = view.content.table;
    assert.deepEqual(t.columns, [{ name: 'v', unit: 'm/s', parameter: true }, { name: 'Kinetic', unit: 'J', parameter: false }]);
    assert.deepEqual(t.rows.map((r) => r.map((c) => c.text)), [['0', '0'], ['10', '50000'], ['20', '200000'], ['30', '450000']]);
    assert.ok(t.summary.some((s) => s.stat === 'max' && s.column === 'Kinetic' && s.text === '450000 [J]'));
    assert.equal(t.plots.length, 1);
    const plot = t.plots[0]!;
    assert.equal(plot.kind, 'line');
    if (plot.kind !== 'line') return;
    assert.equal(plot.x, 'v');
    assert.deepEqual(plot.series.map((s) => s.points), [[[0, 0], [10, 50000], [20, 200000], [30, 450000]]]);
  });

  it('a table over two parameters plots a heat map with one cell per row', () => {
    const view = captured('sweep-two-ranges');
    if (view.content.kind !== 'table') assert.fail('expected a table');
    const t = view.content.table;
    assert.equal(t.rows.length, 9);
    const plot = t.plots[0]!;
    assert.equal(plot.kind, 'heatmap');
    if (plot.kind !== 'heatmap') return;
    assert.deepEqual(plot.xs, [500, 1000, 1500]);
    assert.deepEqual(plot.ys, [0, 10, 20]);
    assert.equal(plot.cells.length, 9);
    assert.deepEqual(plot.cells.find((c) => c.x === 1500 && c.y === 20), { x: 1500, y: 20, v: 0.5 * 1500 * 20 * 20 });
  });

  it('a Monte Carlo table plots a histogram holding every run', () => {
    const view = captured('monte-carlo');
    if (view.content.kind !== 'table') assert.fail('expected a table');
    const plot = view.content.table.plots[0]!;
    assert.equal(plot.kind, 'histogram');
    if (plot.kind !== 'histogram') return;
    assert.equal(plot.bins.reduce((n, b) => n + b.count, 0), 40);
    assert.equal(plot.bins.length, 7); // ⌈√40⌉
    assert.deepEqual(histogram([1, 1, 1]), [{ from: 1, to: 1, count: 3 }]);
  });

  it('satisfiable: the chosen inputs with units and types, and the bindings a confirm-by-evaluate sends', () => {
    const view = captured('satisfiable');
    if (view.content.kind !== 'assignment') assert.fail('expected an assignment');
    assert.deepEqual(view.content.inputs, [{ name: 'fuelMass', text: '0 [kg]', value: 0, unit: 'kg', type: 'MassValue', free: true }]);
    assert.equal(view.content.heading, 'Inputs the engine chose');
    assert.deepEqual(view.content.bindings, [{ name: 'fuelMass', value: 0, unit: 'kg' }]);
  });

  it('a holds violated by inputs alone: the inputs, and nothing to confirm by evaluate', () => {
    const result: RunResult = { claim: 'violated', strength: 'witnessed', witness: { inputs: [{ name: 'speed', value: 30, unit: 'm/s' }] } };
    const view = witnessView({ question: holds('Car::Brake'), result, documents: [] });
    if (view.content.kind !== 'assignment') assert.fail('expected an assignment');
    assert.equal(view.content.heading, 'Inputs under which Car::Brake is violated');
    assert.deepEqual(view.content.inputs.map((i) => i.text), ['30 [m/s]']);
    assert.equal(view.content.bindings, undefined);
  });

  it('evaluate: the values with units', () => {
    const view = captured('evaluate');
    assert.deepEqual(view.content, { kind: 'values', values: [{ name: 'totalMass', text: '1780 [kg]', value: 1780, unit: 'kg' }] });
  });

  it('a model the host cannot execute: the witness as sent, marked unchecked', () => {
    const documents: SourceDocument[] = [{ path: '/nowhere.sysml', text: 'package P { }' }];
    const result: RunResult = { claim: 'violated', strength: 'proved', witness: { schedules: ['step 1: t1@a first of t1@a, t2@b'], at: 1 } };
    const view = witnessView({ question: holds('P::Missing'), result, documents });
    assert.equal(view.check?.verdict, 'unchecked');
    assert.match(view.check!.text, /cannot replay this model/);
    if (view.content.kind !== 'schedule') assert.fail('expected a schedule');
    assert.equal(view.content.replay.replayed, false);
    assert.deepEqual(view.content.replay.steps.map((s) => [s.move, s.enabled, s.violating]), [['t1@a', ['t1@a', 't2@b'], true]]);
  });
});

describe('result tables in the panel (sort order, CSV)', () => {
  const table = tableView({ sweep: { ranges: [{ parameter: 'name', type: 'String', from: 0, to: 0 }] } }, [
    { name: 'name@1', value: 'b, "quoted"' }, { name: 'mass@1', value: 2, unit: 'kg' },
    { name: 'name@2', value: 'a' }, { name: 'mass@2', value: 10, unit: 'kg' },
    { name: 'name@3', value: 'c' },
  ]);

  it('sorts numbers numerically and text by locale, empty cells last in both directions', () => {
    assert.deepEqual(sortedOrder(table, { column: 1, descending: false }), [0, 1, 2]);
    assert.deepEqual(sortedOrder(table, { column: 1, descending: true }), [1, 0, 2]);
    assert.deepEqual(sortedOrder(table, { column: 0, descending: false }), [1, 0, 2]);
    assert.deepEqual(sortedOrder(table, undefined), [0, 1, 2]);
  });

  it('exports CSV with units in the headers, quoted fields and raw values, in the order shown', () => {
    assert.equal(tableCsv(table, [1, 0, 2]), 'name,mass [kg]\r\na,10\r\n"b, ""quoted""",2\r\nc,\r\n');
  });
});
