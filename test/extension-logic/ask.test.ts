// The pure parts of the editor's question flow: settings into engine entries (with trust and a message
// naming each bad entry and the setting key), the model documents sent, subject and kind choices,
// status texts, and the progress throttle.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEntry, RunOutcome } from '../../src/host';
import { enginesFor, kindsFor, modelDocuments, ModelOutline, startableEngines, subjectKinds } from '../../src/extension/ask/askModel';
import { Host, referenceEngineEntry } from '../../src/host';
import { budgetFromSetting, engineAnswers, questionOptions, resolveEngineSettings } from '../../src/extension/ask/askSettings';
import { durationText, resultJson, runsEntry, settledMessage, statusText, Throttle, type RunView } from '../../src/extension/ask/askText';

const bundled: EngineEntry = {
  name: 'assay-reference', command: '/usr/bin/node', args: ['/x/dist/engine.js'], builtIn: true,
  answers: ['holds', 'outcomes', 'evaluate'], subjects: ['part', 'action', 'state'],
};
const trafficLight = readFileSync(join(__dirname, '..', 'fixtures', 'models', 'behavior', 'traffic-light.sysml'), 'utf8');

describe('editor ask flow: engine settings', () => {
  it('puts the bundled engine first, then user and workspace entries, with the folder as working directory', () => {
    const s = resolveEngineSettings({
      bundled, trusted: true, folder: '/ws',
      levels: [
        { origin: 'user', entries: [{ name: 'mine', command: 'mine-engine', cwd: 'tools' }] },
        { origin: 'workspace', entries: [{ name: 'theirs', command: 'node', args: ['e.js'] }] },
      ],
    });
    assert.deepEqual(s.entries.map((e) => [e.name, e.cwd]), [['assay-reference', undefined], ['mine', '/ws/tools'], ['theirs', '/ws']]);
    assert.deepEqual(s.listing.map((e) => [e.name, e.origin, e.ignoredBecause]), [
      ['assay-reference', 'bundled', undefined], ['mine', 'user', undefined], ['theirs', 'workspace', undefined]]);
    assert.deepEqual(s.problems, []);
  });

  it('ignores workspace entries in an untrusted workspace, saying why, without calling it a settings problem', () => {
    const s = resolveEngineSettings({ bundled, trusted: false, levels: [{ origin: 'workspace', entries: [{ name: 'theirs', command: 'rm' }] }] });
    assert.deepEqual(s.entries.map((e) => e.name), ['assay-reference']);
    assert.match(s.listing[1]!.ignoredBecause!, /workspace is not trusted/);
    assert.deepEqual(s.problems, []);
  });

  it('names a bad entry with the setting key, its index, its field and its name; the good ones stay', () => {
    const s = resolveEngineSettings({
      trusted: true,
      levels: [{ origin: 'user', entries: [{ name: 'ok', command: 'a' }, { name: 'typo', command: 'b', answers: ['hold'] }, { name: 'half' }] }],
    });
    assert.deepEqual(s.entries.map((e) => e.name), ['ok']);
    assert.equal(s.problems.length, 2);
    assert.match(s.problems[0]!, /^assay\.engines \(user settings\) entry 1, field answers\.0: .*engine "typo" is not used$/);
    assert.match(s.problems[1]!, /^assay\.engines\[2\] \(user settings\) has no "command" — engine "half" is not used$/);
    assert.match(s.listing[2]!.ignoredBecause!, /^ignored: assay\.engines\[2\] \(user settings\) has no "command"$/);
  });

  it('refuses a second entry with a name already taken, across levels and by the bundled engine', () => {
    const s = resolveEngineSettings({
      bundled, trusted: true,
      levels: [
        { origin: 'user', entries: [{ name: 'x', command: 'a' }, { name: 'assay-reference', command: 'b' }] },
        { origin: 'workspace', entries: [{ name: 'x', command: 'c' }] },
      ],
    });
    assert.deepEqual(s.entries.map((e) => e.command), ['/usr/bin/node', 'a']);
    assert.match(s.problems[0]!, /entry 1, field name: the name "assay-reference" is already used by the bundled engine/);
    assert.match(s.problems[1]!, /^assay\.engines \(workspace settings\) entry 0, field name: the name "x" is already used by assay\.engines \(user settings\) entry 0$/);
  });

  it('lists a missing bundled engine as not usable', () => {
    const s = resolveEngineSettings({ bundled, bundledMissing: '/x/dist/engine.js is not in this build', trusted: true, levels: [] });
    assert.deepEqual(s.entries, []);
    assert.match(s.listing[0]!.ignoredBecause!, /^missing: /);
  });

  it('tells the language server what each usable engine answers', () => {
    assert.deepEqual(engineAnswers([bundled, { name: 'bare', command: 'b' }]).engines, [
      { name: 'assay-reference', answers: ['holds', 'outcomes', 'evaluate'], subjects: ['part', 'action', 'state'] },
      { name: 'bare', answers: ['evaluate', 'outcomes', 'holds', 'sensitive', 'satisfiable', 'sweep', 'compute'], subjects: [] },
    ]);
  });

  it('reads the budget and question options, naming values of the wrong shape', () => {
    assert.deepEqual(budgetFromSetting({ deadline: 5, steps: 1000 }), { budget: { deadline: 5, steps: 1000 }, problems: [] });
    const bad = budgetFromSetting({ deadline: -1, depth: 2.5, speed: 3 });
    assert.deepEqual(bad.budget, {});
    assert.deepEqual(bad.problems.map((p) => p.split(':')[0]), ['assay.budget.speed', 'assay.budget.deadline', 'assay.budget.depth']);
    assert.deepEqual(questionOptions({ schedule: 'seed:4', draws: 'max', clockStep: 0.5 }), { schedule: 'seed:4', draws: 'max', clockStep: 0.5, problems: [] });
    const wrong = questionOptions({ schedule: 'random', draws: 'random', clockStep: null });
    assert.equal(wrong.schedule, 'fifo');
    assert.equal(wrong.draws, undefined);
    assert.match(wrong.problems[0]!, /^assay\.schedule: "random"/);
  });
});

describe('editor ask flow: the model and the choices', () => {
  it('sends every workspace model file, open documents with their unsaved text, and open documents outside the workspace', async () => {
    const read: string[] = [];
    const docs = await modelDocuments(
      [{ path: '/ws/b.sysml', text: 'edited' }, { path: 'untitled:Untitled-1', text: 'scratch' }],
      ['/ws/b.sysml', '/ws/a.kerml', '/ws/notes.txt', '/ws/gone.sysml'],
      async (path) => {
        read.push(path);
        return path === '/ws/gone.sysml' ? undefined : `disk ${path}`;
      },
    );
    assert.deepEqual(docs, [
      { path: '/ws/a.kerml', text: 'disk /ws/a.kerml' },
      { path: '/ws/b.sysml', text: 'edited' },
      { path: 'untitled:Untitled-1', text: 'scratch' },
    ]);
    assert.deepEqual(read.sort(), ['/ws/a.kerml', '/ws/gone.sysml'], 'an open document is never read from disk');
  });

  it('lists subjects, finds the one at the cursor, and the constraints it asserts', () => {
    const outline = new ModelOutline([{ path: '/ws/tl.sysml', text: trafficLight }]);
    const kinds = subjectKinds([bundled]);
    const names = outline.subjects(kinds).map((s) => s.qualifiedName);
    assert.ok(names.includes('TrafficLight::TimedCrossing'), names.join(', '));
    assert.ok(names.includes('TrafficLight::TimedCrossing::ns::nsLight'), names.join(', '));
    assert.ok(!names.includes('TrafficLight'), 'a package is not a subject');
    const offset = trafficLight.indexOf('attribute ewGreen');
    assert.equal(outline.subjectAt('/ws/tl.sysml', offset, kinds)?.qualifiedName, 'TrafficLight::TimedCrossing');
    const inLight = trafficLight.indexOf('accept after 1');
    assert.equal(outline.subjectAt('/ws/tl.sysml', inLight, kinds)?.qualifiedName, 'TrafficLight::TimedCrossing::ns::nsLight');
    assert.deepEqual(outline.constraintsOf('TrafficLight::TimedCrossing'), ['safety']);
    const [place] = outline.locate('TrafficLight::InterlockedCrossing');
    assert.equal(trafficLight.slice(place!.nameRange.start, place!.nameRange.end), 'InterlockedCrossing');
    assert.equal(place!.nameRange.line, trafficLight.slice(0, place!.nameRange.start).split('\n').length);
  });

  it('offers only the kinds and engines that answer about the subject kind', () => {
    const holdsOnly: EngineEntry = { name: 'h', command: 'h', answers: ['holds', 'sensitive'], subjects: ['action'] };
    assert.deepEqual(kindsFor([bundled, holdsOnly], 'action'), ['holds', 'outcomes', 'evaluate', 'sensitive']);
    assert.deepEqual(kindsFor([bundled, holdsOnly], 'part'), ['holds', 'outcomes', 'evaluate']);
    assert.deepEqual(kindsFor([holdsOnly], 'part'), []);
    assert.deepEqual(enginesFor([bundled, holdsOnly], 'holds', 'action').map((e) => e.name), ['assay-reference', 'h']);
    assert.deepEqual(enginesFor([bundled, holdsOnly], 'sensitive', 'action').map((e) => e.name), ['h']);
    assert.deepEqual(enginesFor([{ name: 'rdf', command: 'r', model: ['rdf'] }], 'holds', undefined), []);
  });

  it('leaves an engine that cannot start out of the engine pick, with why (real processes)', async function () {
    this.timeout(60_000);
    const reference = referenceEngineEntry(join(__dirname, '..', '..', 'dist'));
    const gone: EngineEntry = { name: 'gone', command: join(__dirname, 'no-such-engine'), answers: ['holds'] };
    const host = new Host({ entries: [reference, gone] });
    try {
      const checks = await host.checkEngines();
      const { offered, cannotStart } = startableEngines(enginesFor([reference, gone], 'holds', 'part'), checks);
      assert.deepEqual(offered.map((e) => e.name), ['assay-reference']);
      assert.deepEqual(cannotStart.map((c) => c.name), ['gone']);
      assert.match(cannotStart[0]!.problem, /gone/);
      // Not checked yet (no start tried): offered, the run says if it fails.
      assert.deepEqual(startableEngines([reference, gone], []).offered.map((e) => e.name), ['assay-reference', 'gone']);
    } finally {
      await host.shutdown();
    }
  });
});

describe('editor ask flow: what the editor shows', () => {
  const question = { kind: 'holds' as const, subject: 'Pkg::Subject', schedule: 'all', free: [] };
  const answered = (claim: 'holds' | 'violated', claimed: 'proved' | 'witnessed', strength: 'proved' | 'witnessed' | 'observed'): RunOutcome => ({
    status: 'answered', engine: 'assay-reference',
    result: { claim, strength: claimed, reason: claim === 'violated' ? 'safety fails after step 2: safety' : 'safety holds', ...(claim === 'violated' ? { witness: { schedules: ['step 1: t1@a first of t1@a'] } } : {}) },
    standing: { claimed, strength, reasons: claimed === strength ? [] : ['the engine may claim at most observed'] },
  });

  it('shows progress counts in the status bar while running, and the claim and standing once settled', () => {
    const running: RunView = { id: 1, question, state: 'running', engine: 'e', progress: { steps: 41200, depth: 18 } };
    assert.equal(statusText(running), '$(sync~spin) holds Pkg::Subject · 41,200 steps · depth 18');
    assert.equal(statusText({ ...running, progress: undefined }), '$(sync~spin) holds Pkg::Subject · running on e');
    assert.equal(statusText({ id: 1, question, state: 'queued' }), '$(sync~spin) holds Pkg::Subject · starting');
    assert.equal(statusText({ id: 1, question, state: 'queued', waitingFor: 'slow' }), '$(clock) holds Pkg::Subject · queued for slow');
    assert.equal(statusText({ id: 1, question, state: 'settled', outcome: answered('holds', 'proved', 'proved') }), '$(pass) holds — proved');
    assert.equal(statusText({ id: 1, question, state: 'settled', outcome: answered('violated', 'witnessed', 'witnessed') }), '$(error) violated — witnessed');
    assert.equal(statusText({ id: 1, question, state: 'settled', outcome: answered('violated', 'proved', 'observed') }), '$(error) violated — observed (claimed proved)');
    assert.equal(statusText({ id: 1, question, state: 'settled', outcome: { status: 'cancelled', message: 'cancelled' } }), '$(circle-slash) cancelled — holds Pkg::Subject');
  });

  it('describes a settled run for the notification, the Runs view and the copied JSON', () => {
    const run: RunView = { id: 3, question, state: 'settled', engine: 'assay-reference', elapsedMs: 1234, outcome: answered('violated', 'proved', 'observed') };
    assert.equal(settledMessage(run),
      'holds Pkg::Subject — violated (observed (claimed proved)) by assay-reference in 1.2 s: safety fails after step 2: safety; the engine may claim at most observed');
    const entry = runsEntry(run);
    assert.equal(entry.label, 'holds Pkg::Subject');
    assert.equal(entry.description, 'violated · observed (claimed proved) · assay-reference · 1.2 s');
    assert.ok(entry.details.includes('lowered: the engine may claim at most observed'), entry.details.join('\n'));
    assert.ok(entry.details.includes('standing: observed'));
    const json = JSON.parse(resultJson(run)) as { run: number; result: { claim: string }; standing: { strength: string } };
    assert.equal(json.run, 3);
    assert.equal(json.result.claim, 'violated');
    assert.equal(json.standing.strength, 'observed');
    assert.equal(durationText(65_400), '1 min 5 s');
  });

  it('shows the condition a holds run checks in its Runs entry and in the copied JSON', () => {
    const typed: RunView = { id: 5, question: { ...question, condition: { name: 'quick', text: 'not (a and b)' } }, state: 'settled', engine: 'e', outcome: answered('holds', 'proved', 'proved') };
    assert.ok(runsEntry(typed).details.includes('condition: quick = not (a and b)'), runsEntry(typed).details.join('\n'));
    const json = JSON.parse(resultJson(typed)) as { condition: string; question: { condition: { name: string; text: string } } };
    assert.equal(json.condition, 'quick = not (a and b)');
    assert.deepEqual(json.question.condition, { name: 'quick', text: 'not (a and b)' });
    // Without one, a holds run checks the subject's asserted constraints, and says so.
    const asserted: RunView = { ...typed, question };
    assert.ok(runsEntry(asserted).details.includes('condition: the asserted constraints of Pkg::Subject'), runsEntry(asserted).details.join('\n'));
    assert.equal((JSON.parse(resultJson(asserted)) as { condition: string }).condition, 'the asserted constraints of Pkg::Subject');
    const evaluate: RunView = { ...typed, question: { kind: 'evaluate', subject: 'Pkg::x', schedule: 'fifo', free: [] } };
    assert.ok(!runsEntry(evaluate).details.some((d) => d.startsWith('condition:')));
    assert.equal('condition' in (JSON.parse(resultJson(evaluate)) as object), false);
  });

  it('lists the values a run was asked with (a witness confirmed with evaluate) in its Runs entry', () => {
    const confirming: RunView = {
      id: 4, state: 'running', engine: 'assay-reference',
      question: { kind: 'evaluate', subject: 'Pkg::ok', schedule: 'fifo', free: [], bindings: [{ name: 'v', value: 3.5, unit: 'm/s' }, { name: 'on', value: true }] },
    };
    assert.ok(runsEntry(confirming).details.includes('bound: v = 3.5 [m/s], on = true'), runsEntry(confirming).details.join('\n'));
    assert.ok(!runsEntry({ ...confirming, question: { ...confirming.question, bindings: [] } }).details.some((d) => d.startsWith('bound:')));
  });

  it('throttles progress to one delivery per interval, the newest value winning and none lost', () => {
    let now = 0;
    const timers: { at: number; run: () => void }[] = [];
    const delivered: number[] = [];
    const throttle = new Throttle<number>(250, (v) => delivered.push(v), {
      now: () => now,
      setTimeout: (run, ms) => timers.push({ at: now + ms, run }),
      clearTimeout: (handle) => {
        const at = timers.indexOf(handle as (typeof timers)[number]);
        if (at >= 0) timers.splice(at, 1);
      },
    });
    const advance = (ms: number) => {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.run();
      }
    };
    throttle.push(1);
    throttle.push(2);
    throttle.push(3);
    assert.deepEqual(delivered, [1]);
    advance(100);
    throttle.push(4);
    assert.deepEqual(delivered, [1]);
    advance(150);
    assert.deepEqual(delivered, [1, 4]);
    for (let i = 5; i < 45; i++) {
      throttle.push(i);
      advance(25);
    }
    // 40 pushes over 1 s: at most 4 deliveries (one per 250 ms) plus the pending one at the end.
    assert.ok(delivered.length - 2 <= 5, `delivered ${delivered.length - 2} of 40 in 1 s`);
    advance(250);
    assert.equal(delivered.at(-1), 44);
  });
});
