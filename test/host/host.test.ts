// The host on well-behaved fixture engines: manifest, describe check, routing, bounds and budget,
// progress, cancel, queueing, standing.
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Host, formatManifestProblem, parseManifest, referenceEngineEntry,
  type EngineEntry, type HostOptions, type ModelIndex, type RunEvent, type RunOutcome,
} from '../../src/host';
import type { Question, RunParams } from '../../src/protocol';
import { PidTracker, fixtureEntry } from './fixture-engines';

const question: Question = { kind: 'holds', subject: 'Demo::S', schedule: 'fifo', free: [] };
const documents = [{ path: 'models/demo.sysml', text: 'package Demo { state def S; }' }];

describe('host: manifest', () => {
  it('reports a bad entry by index and field, and keeps the good ones', () => {
    const manifest = parseManifest([
      { name: 'good', command: 'node' },
      { name: 'bad', command: 'node', answers: ['prove'] },
      { name: 'typo', command: 'node', concurent: true },
      { command: 'node' },
      { name: 'good', command: 'other' },
      { name: 'forms', command: 'x', model: ['graphs:01'] },
    ]);
    assert.deepEqual(manifest.entries.map((e) => e.name), ['good']);
    const text = manifest.problems.map((p) => formatManifestProblem(p, 'engines.json'));
    assert.match(text[0]!, /^engines\.json entry 1, field answers\.0: Invalid option/);
    assert.match(text[1]!, /^engines\.json entry 2, field concurent: Unrecognized key/);
    assert.match(text[2]!, /^engines\.json entry 3, field name: /);
    assert.equal(text[3], 'engines.json entry 4, field name: the name "good" is already used by entry 0');
    assert.match(text[4]!, /^engines\.json entry 5, field model\.0: a model form is sources, rdf or graphs/);
  });

  it('accepts {"engines": [...]} and rejects other shapes', () => {
    assert.equal(parseManifest({ engines: [{ name: 'a', command: 'b' }] }).entries.length, 1);
    assert.match(parseManifest({ name: 'a' }).problems[0]!.message, /JSON array of engine entries/);
  });

  it('the built-in entry comes from the reference engine identity and package.json, and says when dist/engine.js is missing', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'assay-dist-'));
    const entry = referenceEngineEntry(dist);
    assert.equal(entry.name, 'assay-reference');
    assert.equal(entry.command, process.execPath);
    assert.deepEqual(entry.args, [join(dist, 'engine.js')]);
    assert.equal(entry.version, require('../../package.json').version);
    const host = new Host({ entries: [entry] });
    const [check] = await host.checkEngines();
    assert.equal(check!.ok, false);
    assert.equal(check!.problem, `engine "assay-reference" cannot start: the bundled engine is missing: ${join(dist, 'engine.js')} does not exist (run \`npm run build\`)`);
  });
});

describe('host: routing and runs', function () {
  this.timeout(15000);
  let pids: PidTracker;
  let hosts: Host[] = [];

  beforeEach(() => {
    pids = new PidTracker();
  });
  afterEach(async () => {
    await Promise.all(hosts.map((h) => h.shutdown()));
    hosts = [];
    await pids.assertNoneRunning();
  });

  function make(entries: EngineEntry[], options: Partial<HostOptions> = {}): Host {
    const host = new Host({ entries, cancelGraceMs: 300, shutdownGraceMs: 300, ...options });
    hosts.push(host);
    return host;
  }
  const good = (name: string, config: unknown = {}, entry: Partial<EngineEntry> = {}) =>
    fixtureEntry('well-behaved.js', pids, { name, config, entry });

  /** The run params the engine received (the fixture echoes them as the reason). */
  const echoed = (outcome: RunOutcome): RunParams => {
    assert.equal(outcome.status, 'answered', JSON.stringify(outcome));
    return JSON.parse((outcome as { result: { reason: string } }).result.reason);
  };

  it('sends sources with the embedded library, bounds from the declared bounds and the budget, and an absolute deadline', async () => {
    const h = make([good('echo', { echo: true })]);
    const before = Date.now();
    const params = echoed(await h.ask({ question, documents, budget: { deadline: 10, depth: 5, memory: 256, jobs: 2 } }).settled);
    assert.deepEqual(params.model, { sources: { library: '2026-04', documents } });
    assert.deepEqual(params.bounds, [{ name: 'depth', limit: 5 }, { name: 'steps', limit: 0 }]);
    assert.equal(params.budget.memory, 256);
    assert.equal(params.budget.jobs, 2);
    assert.equal(params.budget.steps, undefined);
    const deadline = Date.parse(params.budget.deadline!);
    assert.ok(deadline >= before + 10000 && deadline <= Date.now() + 10000, params.budget.deadline);
    assert.match(params.budget.deadline!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(params.question.subjectKind, undefined, 'no subject kind without a model index');
  });

  it('fills subjectKind from the injected model index and routes by subjects', async () => {
    const index: ModelIndex = { subjectKindOf: (subject) => (subject === 'Demo::S' ? 'state' : undefined) };
    const h = make([good('actions-only', {}, { subjects: ['action'] }), good('states', { echo: true, describe: { subjects: ['state'] } })], { modelIndex: index });
    const outcome = await h.ask({ question, documents }).settled;
    assert.equal(outcome.status === 'answered' && outcome.engine, 'states');
    assert.equal(echoed(outcome).question.subjectKind, 'state');
  });

  it('filters on declared answers without starting the engine', async () => {
    const h = make([good('evaluator', {}, { answers: ['evaluate'] })]);
    const outcome = await h.ask({ question, documents }).settled;
    assert.deepEqual(outcome, { status: 'not covered', reasons: [{ engine: 'evaluator', reason: 'does not answer holds questions (answers evaluate)' }] });
    assert.deepEqual(pids.pids(), []);
  });

  it('never sends rdf; graphs:1 only with a lowering', async () => {
    const lowered = { version: 1, subject: 'Demo::S', states: [{ name: 'S', kind: 'state', successors: [] }] };
    const h = make(
      [good('rdf', {}, { model: ['rdf'] }), good('graphs', { echo: true, describe: { model: ['graphs:1'] } })],
      { modelIndex: { subjectKindOf: () => undefined, lowerToGraphs: () => lowered } },
    );
    const outcome = await h.ask({ question, documents }).settled;
    assert.equal(outcome.status === 'answered' && outcome.engine, 'graphs');
    assert.deepEqual(echoed(outcome).model, { graphs: lowered });

    const plain = make([good('rdf', {}, { model: ['rdf'] }), good('graphs', {}, { model: ['graphs:1'] })]);
    const none = await plain.ask({ question, documents }).settled;
    assert.deepEqual(none, {
      status: 'not covered',
      reasons: [
        { engine: 'rdf', reason: 'reads rdf; this host serves sources and never rdf' },
        { engine: 'graphs', reason: 'reads graphs:1; this host serves sources' },
      ],
    });
  });

  it('a lowering that fails is the graphs engine\'s reason', async () => {
    const h = make([good('graphs', { describe: { model: ['graphs:1'] } }, { model: ['graphs:1'] })], {
      modelIndex: { subjectKindOf: () => undefined, lowerToGraphs: () => ({ error: 'demo.sysml:1:9: S performs an unknown action' }) },
    });
    assert.deepEqual(await h.ask({ question, documents }).settled, {
      status: 'not covered',
      reasons: [{ engine: 'graphs', reason: 'reads graphs:1, but lowering Demo::S failed: demo.sysml:1:9: S performs an unknown action' }],
    });
  });

  it('shutdown during a run cancels it and stops the engine', async () => {
    const h = make([fixtureEntry('ignores-cancel.js', pids, { name: 'deaf' })]);
    const run = h.ask({ question, documents });
    await new Promise<void>((resolve) => h.onEvent((e) => e.type === 'started' && resolve()));
    await h.shutdown();
    const outcome = await run.settled;
    assert.equal(outcome.status, 'cancelled', JSON.stringify(outcome));
  });

  it('not covered lists every engine with its reason; a covering engine later in the list answers', async () => {
    const h = make([good('a', { covers: { covers: false, reason: 'no state machines' } }), good('b', { covers: { covers: false } })]);
    assert.deepEqual(await h.ask({ question, documents }).settled, {
      status: 'not covered',
      reasons: [
        { engine: 'a', reason: 'does not cover it: no state machines' },
        { engine: 'b', reason: 'does not cover it: no reason given' },
      ],
    });
    const h2 = make([good('a', { covers: { covers: false, reason: 'no' } }), good('b')]);
    const outcome = await h2.ask({ question, documents }).settled;
    assert.equal(outcome.status === 'answered' && outcome.engine, 'b');
  });

  it('--engine picks one engine; an unknown name is an error listing the engines', async () => {
    const h = make([good('a'), good('b')]);
    const outcome = await h.ask({ question, documents, engine: 'b' }).settled;
    assert.equal(outcome.status === 'answered' && outcome.engine, 'b');
    assert.deepEqual(await h.ask({ question, documents, engine: 'c' }).settled, { status: 'error', message: 'no engine is named "c"; configured: a, b' });
  });

  it('emits queued, started, progress and settled in order', async () => {
    const h = make([good('p', { progress: 2 })]);
    const events: RunEvent[] = [];
    h.onEvent((e) => events.push(e));
    await h.ask({ question, documents }).settled;
    assert.deepEqual(events.map((e) => e.type), ['queued', 'started', 'progress', 'progress', 'settled']);
    assert.deepEqual(events.filter((e) => e.type === 'progress').map((e) => (e as { progress: unknown }).progress), [
      { steps: 1, text: 'step 1' },
      { steps: 2, text: 'step 2' },
    ]);
    const started = events[1] as Extract<RunEvent, { type: 'started' }>;
    assert.equal(started.engine, 'p');
    assert.equal(started.modelForm, 'sources');
    assert.ok(started.requestId >= 1);
  });

  it('cooperative cancel settles as cancelled with the engine message', async () => {
    const h = make([good('slow', { delayMs: 5000 })]);
    const run = h.ask({ question, documents });
    h.onEvent((e) => e.type === 'started' && run.cancel());
    assert.deepEqual(await run.settled, { status: 'cancelled', engine: 'slow', message: 'engine "slow": cancelled by the host' });
    assert.equal(h.engines[0]!.status, 'ready', 'a cooperative engine is not killed');
  });

  it('with stopEngineAfterCancel, a cancelled run leaves no engine process, and the next question starts a fresh one', async () => {
    const h = make([good('slow', { delayMs: 400 })], { stopEngineAfterCancel: true });
    const run = h.ask({ question, documents });
    h.onEvent((e) => e.type === 'started' && e.run === run.id && run.cancel());
    assert.equal((await run.settled).status, 'cancelled');
    // Asked at once after the cancel: the engine on its way out is replaced, not used.
    const next = h.ask({ question, documents });
    assert.equal((await next.settled).status, 'answered', JSON.stringify(next.outcome));
    const [first, second] = pids.pids();
    assert.equal(pids.pids().length, 2);
    assert.notEqual(first, second);
    const last = h.ask({ question, documents });
    h.onEvent((e) => e.type === 'started' && e.run === last.id && last.cancel());
    assert.equal((await last.settled).status, 'cancelled');
    await pids.assertNoneRunning();
  });

  it('without it, or while another run is going, a cancel leaves the engine running', async () => {
    const h = make([good('slow', { delayMs: 800 })], { stopEngineAfterCancel: true });
    const other = h.ask({ question, documents });
    const run = h.ask({ question, documents });
    h.onEvent((e) => e.type === 'started' && e.run === run.id && run.cancel());
    assert.equal((await run.settled).status, 'cancelled');
    assert.equal(h.engines[0]!.status, 'ready');
    assert.equal((await other.settled).status, 'answered');
  });

  it('a cancel before the engine starts the run settles at once', async () => {
    const h = make([good('a')]);
    const run = h.ask({ question, documents });
    run.cancel();
    assert.deepEqual(await run.settled, { status: 'cancelled', message: 'cancelled while the engines were started and asked whether they cover it, before an engine started the run' });
  });

  it('error budget from the engine is a budget outcome; unsupported is not covered; internal is an error', async () => {
    const h = make([
      good('b', { error: { code: 'budget', message: 'step limit 10 reached' } }),
    ]);
    assert.deepEqual(await h.ask({ question, documents }).settled, { status: 'budget', engine: 'b', message: 'engine "b": step limit 10 reached' });
    const h2 = make([good('u', { error: { code: 'unsupported', message: 'no clocks' } })]);
    assert.deepEqual(await h2.ask({ question, documents }).settled, { status: 'not covered', reasons: [{ engine: 'u', reason: 'run unsupported: no clocks' }] });
    const h3 = make([good('i', { error: { code: 'internal', message: 'oops' } })]);
    assert.deepEqual(await h3.ask({ question, documents }).settled, { status: 'error', engine: 'i', message: 'engine "i" failed (internal): oops' });
  });

  it('an engine with concurrent false runs one question at a time; the second is queued visibly', async () => {
    const h = make([good('serial', { delayMs: 150, describe: { concurrent: false } })]);
    const events: RunEvent[] = [];
    h.onEvent((e) => events.push(e));
    const first = h.ask({ question, documents });
    const second = h.ask({ question, documents });
    await Promise.all([first.settled, second.settled]);
    const order = events.map((e) => `${e.type}:${e.run}${e.type === 'queued' && e.waitingFor ? `:waiting for ${e.waitingFor}` : ''}`);
    assert.ok(order.includes(`queued:${second.id}:waiting for serial`), order.join(' '));
    assert.ok(order.indexOf(`settled:${first.id}`) < order.indexOf(`started:${second.id}`), order.join(' '));
  });

  it('concurrent engines run questions side by side', async () => {
    const h = make([good('parallel', { delayMs: 150 })]);
    const events: string[] = [];
    h.onEvent((e) => events.push(`${e.type}:${e.run}`));
    const a = h.ask({ question, documents });
    const b = h.ask({ question, documents });
    await Promise.all([a.settled, b.settled]);
    assert.ok(events.indexOf(`started:${b.id}`) < events.indexOf(`settled:${a.id}`), events.join(' '));
  });

  it('standing: the authority cap, reached bounds and a missing witness lower the claim, with reasons', async () => {
    const h = make([
      good('capped', {
        describe: { authority: 'witnessed' },
        result: { claim: 'holds', strength: 'proved', bounds: [{ name: 'depth', limit: 5, reached: true }] },
      }, { authority: 'witnessed' }),
    ]);
    const outcome = await h.ask({ question, documents }).settled;
    assert.equal(outcome.status, 'answered');
    assert.deepEqual(outcome.status === 'answered' && outcome.standing, {
      claimed: 'proved',
      strength: 'witnessed',
      reasons: ['engine "capped" has authority witnessed'],
    });
    const h2 = make([good('b', { result: { claim: 'violated', strength: 'proved', bounds: [{ name: 'steps', limit: 9, reached: true }] } })]);
    const o2 = await h2.ask({ question, documents }).settled;
    assert.deepEqual(o2.status === 'answered' && o2.standing, {
      claimed: 'proved',
      strength: 'observed',
      reasons: ['the run reached its bound steps (limit 9)', 'claim violated needs a witness, but none was returned'],
    });
  });

  it('standing: a claim that does not fit the question kind is an error', async () => {
    const h = make([good('odd', { result: { claim: 'table', strength: 'proved' } })]);
    assert.deepEqual(await h.ask({ question, documents }).settled, {
      status: 'error',
      engine: 'odd',
      message: 'engine "odd" answered a holds question with claim "table", which does not fit it (expected holds, violated, none)',
    });
  });

  it('standing: a failed witness check makes the answer not covered, with the reason', async () => {
    const witness = { schedules: ['step 1: t1@start first of t1@start'], at: 1 };
    const h = make([good('w', { result: { claim: 'violated', strength: 'witnessed', witness } })], {
      witnessChecker: { check: async () => ({ ok: false, reason: 'step 1 is not enabled' }) },
    });
    const outcome = await h.ask({ question, documents }).settled;
    assert.deepEqual(outcome.status === 'answered' && outcome.standing, {
      claimed: 'witnessed',
      strength: 'not covered',
      reasons: ["the host's replay of the witness does not reproduce the claim: step 1 is not enabled"],
      witnessCheck: 'not reproduced',
    });
  });

  it('checkEngines reports each engine with its describe check', async () => {
    const h = make([good('fine'), fixtureEntry('wrong-describe.js', pids, { name: 'liar' })]);
    const checks = await h.checkEngines();
    assert.equal(checks[0]!.ok, true);
    assert.equal(checks[0]!.capabilities!.version, '1.0.0');
    assert.equal(checks[1]!.ok, false);
    assert.match(checks[1]!.problem!, /name: entry says "liar", engine says "impostor"/);
  });

  it('an invalid question is an error naming the field', async () => {
    const h = make([good('a')]);
    const outcome = await h.ask({ question: { ...question, schedule: 5 } as unknown as Question, documents }).settled;
    assert.deepEqual(outcome, { status: 'error', message: 'invalid question: question.schedule: Invalid input: expected string, received number' });
  });
});
