// `assay … --engine all` as a user runs it: `node dist/cli.js` as a child process, asking fixture engines
// (real processes) and the bundled engine that agree, disagree with and without a witness the host
// replays, differ in values, and fail. The table, the one JSON object and the exit codes (5: unresolved).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEntry } from '../../src/host';
import { PidTracker, fixtureEntry } from '../host/fixture-engines';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const RACE = join(ROOT, 'test', 'fixtures', 'models', 'behavior', 'race.sysml');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[]): Promise<CliRun> & { child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ASSAY_CANCEL_GRACE_MS: '300' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return Object.assign(new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))), { child });
}

function oneJson(run: CliRun): any {
  const lines = run.stdout.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `stdout must be one JSON line:\n${run.stdout}\nstderr: ${run.stderr}`);
  return JSON.parse(lines[0]!);
}

/** The witness the bundled engine finds for `x != 3` on Race::Race (dbl, then inc): the host replays it. */
const REPLAYS = { schedules: ['step 1: t2@dbl first of t1@inc, t2@dbl\nstep 2: t1@inc first of t1@inc'], at: 2 };
/** A schedule that is well formed but reaches x = 4, not 3: the replay does not reproduce the violation. */
const DOES_NOT_REPLAY = { schedules: ['step 1: t1@inc first of t1@inc, t2@dbl\nstep 2: t2@dbl first of t2@dbl'], at: 2 };

describe('cli: --engine all asks every covering engine and compares', function () {
  this.timeout(60_000);
  let dir: string;
  let pids: PidTracker;

  before(() => buildIfMissing('cli.js', 'engine.js'));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-all-'));
    pids = new PidTracker();
  });
  afterEach(async () => {
    await pids.assertNoneRunning();
  });

  function manifest(entries: EngineEntry[]): string {
    const file = join(dir, 'engines.json');
    writeFileSync(file, JSON.stringify(entries));
    return file;
  }
  const fx = (name: string, config: unknown = {}) => fixtureEntry('well-behaved.js', pids, { name, config });
  const answering = (name: string, result: unknown) => fx(name, { result });
  const reference: EngineEntry = { name: 'assay-reference', command: process.execPath, args: [join(ROOT, 'dist', 'engine.js')] };
  const holds = (condition: string, engines: string, ...more: string[]) =>
    ['holds', 'Race::Race', '--model', RACE, '--condition', `ok=${condition}`, '-schedule', 'all', '--free', 'schedule', '--engines', engines, '--engine', 'all', ...more];

  it('engines that agree: one table, the verdict "agree", exit 0; an engine that does not answer the kind is listed with its reason', async () => {
    const engines = manifest([reference, answering('prover', { claim: 'holds', strength: 'proved' }), fx('evalonly', { describe: { answers: ['evaluate'] } })]);
    const run = await runCli(holds('x >= 1', engines));
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.equal(lines[0], 'holds Race::Race on 3 engines: holds (agreed)');
    assert.match(lines[1]!, /^ {2}engine\s+claim\s+strength\s+time\s+reason$/);
    assert.match(run.stdout, /\n {2}assay-reference\s+holds\s+proved\s+\d+ (ms|s)\s+ok holds after every move/);
    assert.match(run.stdout, /\n {2}prover\s+holds\s+proved\s+\d/);
    assert.match(run.stdout, /\n {2}evalonly\s+\(not covered\)\s+does not answer holds questions \(answers evaluate\)/);
    assert.match(run.stdout, /\nverdict: holds: assay-reference, prover agree\n/);

    const json = oneJson(await runCli(holds('x >= 1', engines, '--json')));
    assert.equal(json.verdict.status, 'agree');
    assert.deepEqual(json.verdict.engines, ['assay-reference', 'prover']);
    assert.deepEqual(json.engines.map((e: any) => [e.engine, e.status, e.result?.claim, e.standing?.strength]), [
      ['assay-reference', 'answered', 'holds', 'proved'],
      ['prover', 'answered', 'holds', 'proved'],
      ['evalonly', 'not covered', undefined, undefined],
    ]);
    assert.equal(json.engines[2].reason, 'does not answer holds questions (answers evaluate)');
  });

  it('holds against a violation whose witness replays: the violation wins, the holds stands at not covered, exit 0', async () => {
    // The bundled engine finds the violation itself; the fixture claims a proof.
    const engines = manifest([answering('prover', { claim: 'holds', strength: 'proved' }), reference]);
    const run = await runCli(holds('x != 3', engines));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^holds Race::Race on 2 engines: violated \(disagreement decided by a replayed witness\)\n/);
    assert.match(run.stdout, /\n {2}prover\s+holds\s+proved → not covered\s+\d+ (ms|s)\s+contradicted by assay-reference's replayed witness\n/);
    assert.match(run.stdout, /\nverdict: violated, decided by assay-reference's replayed witness; prover's holds does not stand\n/);
    // The winning answer follows in full, with its witness.
    assert.match(run.stdout, /witness:\n {6}step 1: t2@dbl first of t1@inc, t2@dbl\n {6}step 2: t1@inc first of t1@inc\n {4}violated at move 2/);

    const json = oneJson(await runCli(holds('x != 3', engines, '--json')));
    assert.deepEqual(json.verdict, {
      status: 'decided', claim: 'violated', by: ['assay-reference'], contradicted: ['prover'],
      message: "violated, decided by assay-reference's replayed witness; prover's holds does not stand",
    });
    const prover = json.engines.find((e: any) => e.engine === 'prover');
    assert.deepEqual(prover.standing, { claimed: 'proved', strength: 'not covered', reasons: ["contradicted by assay-reference's replayed witness"] });
    assert.equal(json.engines.find((e: any) => e.engine === 'assay-reference').standing.witnessCheck, 'reproduced');
  });

  it('two fixture engines: the one whose violation replays decides, whatever it claims', async () => {
    const engines = manifest([
      answering('prover', { claim: 'holds', strength: 'proved' }),
      answering('finder', { claim: 'violated', strength: 'witnessed', witness: REPLAYS }),
    ]);
    const json = oneJson(await runCli(holds('x != 3', engines, '--json')));
    assert.equal(json.verdict.status, 'decided');
    assert.deepEqual(json.verdict.by, ['finder']);
    assert.equal(json.engines.find((e: any) => e.engine === 'prover').standing.strength, 'not covered');
  });

  it('holds against a violation whose witness the host cannot check: an unresolved disagreement, shown, exit 5', async () => {
    // Demo::S has no behaviour to replay: the violation stands at observed, unchecked; nothing decides.
    const model = join(dir, 'demo.sysml');
    writeFileSync(model, 'package Demo { part def S; }\n');
    const engines = manifest([
      answering('prover', { claim: 'holds', strength: 'proved' }),
      answering('finder', { claim: 'violated', strength: 'proved', witness: { schedules: ['step 1: t1@go first of t1@go'], at: 1 } }),
    ]);
    const args = ['holds', 'Demo::S', '--model', model, '--engines', engines, '--engine', 'all'];
    const run = await runCli(args);
    assert.equal(run.code, 5, run.stdout + run.stderr);
    assert.match(run.stdout, /^holds Demo::S on 2 engines: UNRESOLVED DISAGREEMENT\n/);
    assert.match(run.stdout, /\n {2}finder\s+violated\s+proved → observed\s+\d+ (ms|s)\s+the host could not check the witness/);
    assert.match(run.stdout, /\nverdict: unresolved disagreement: claim: prover holds, finder violated; no witness the host reproduced decides it\n/);

    const jsonRun = await runCli([...args, '--json']);
    assert.equal(jsonRun.code, 5);
    const json = oneJson(jsonRun);
    assert.equal(json.verdict.status, 'unresolved');
    assert.deepEqual(json.verdict.differences, [{ what: 'claim', by: [{ engine: 'prover', text: 'holds' }, { engine: 'finder', text: 'violated' }] }]);
    assert.equal(json.engines.find((e: any) => e.engine === 'prover').standing.strength, 'proved', 'an undecided disagreement lowers no one');
  });

  it('a violation whose witness does not replay stands at not covered and is set aside: the holds stands, exit 0', async () => {
    const engines = manifest([
      answering('prover', { claim: 'holds', strength: 'proved' }),
      answering('finder', { claim: 'violated', strength: 'proved', witness: DOES_NOT_REPLAY }),
    ]);
    const run = await runCli(holds('x != 3', engines, '--json'));
    assert.equal(run.code, 0, run.stderr);
    const json = oneJson(run);
    const finder = json.engines.find((e: any) => e.engine === 'finder');
    assert.equal(finder.standing.strength, 'not covered');
    assert.equal(finder.standing.witnessCheck, 'not reproduced');
    assert.match(finder.standing.reasons[0], /^the host's replay of the witness does not reproduce the claim/);
    assert.deepEqual([json.verdict.status, json.verdict.claim, json.verdict.engines], ['agree', 'holds', ['prover']]);
  });

  it('two different values: flagged per value, unresolved, exit 5; the same values (within rounding) agree', async () => {
    const model = join(dir, 'demo.sysml');
    writeFileSync(model, 'package Demo { part def S { attribute m = 3; } }\n');
    const value = (name: string, values: unknown[]) => answering(name, { claim: 'value', strength: 'proved', values });
    const evaluate = (engines: string, ...more: string[]) => ['evaluate', 'Demo::S', '--model', model, '--engines', engines, '--engine', 'all', ...more];

    const differ = manifest([value('a', [{ name: 'm', value: 3, unit: 'kg' }, { name: 'n', value: 1 }]), value('b', [{ name: 'm', value: 4, unit: 'kg' }, { name: 'n', value: 1 }])]);
    const run = await runCli(evaluate(differ));
    assert.equal(run.code, 5, run.stdout + run.stderr);
    assert.match(run.stdout, /\nverdict: unresolved disagreement: m: a = 3 \[kg\], b = 4 \[kg\]; no witness the host reproduced decides it\n {2}m: a = 3 \[kg\], b = 4 \[kg\]\n$/);

    const same = manifest([value('a', [{ name: 'm', value: 0.3 }]), value('b', [{ name: 'm', value: 0.1 + 0.2 }])]);
    const agreed = await runCli(evaluate(same, '--json'));
    assert.equal(agreed.code, 0, agreed.stderr);
    assert.equal(oneJson(agreed).verdict.status, 'agree');

    const otherUnit = manifest([value('a', [{ name: 'm', value: 3, unit: 'kg' }]), value('b', [{ name: 'm', value: 3, unit: 'g' }])]);
    const units = await runCli(evaluate(otherUnit, '--json'));
    assert.equal(units.code, 5);
    assert.deepEqual(oneJson(units).verdict.differences, [{ what: 'm', by: [{ engine: 'a', text: '3 [kg]' }, { engine: 'b', text: '3 [g]' }] }]);
  });

  it('outcomes: the same set numbered in another order agrees; a set missing an outcome is an unresolved disagreement (exit 5)', async () => {
    const outcomes = ['outcomes', 'Race::Race', '--model', RACE, '-schedule', 'all', '--free', 'schedule'];
    // The bundled engine's two outcomes of Race::Race: x = 4 (inc, then dbl) and x = 3 (dbl, then inc).
    const incFirst = { schedules: ['step 1: t1@inc first of t1@inc, t2@dbl\nstep 2: t2@dbl first of t2@dbl\nstep 3: t1@j first of t1@j'] };
    const dblFirst = { schedules: ['step 1: t2@dbl first of t1@inc, t2@dbl\nstep 2: t1@inc first of t1@inc\nstep 3: t1@j first of t1@j'] };
    const swapped = answering('swapped', {
      claim: 'outcomes', strength: 'proved', executions: [dblFirst, incFirst],
      values: [{ name: 'end@1', value: 'done' }, { name: 'x@1', value: 3 }, { name: 'end@2', value: 'done' }, { name: 'x@2', value: 4 }],
    });
    const agreed = oneJson(await runCli([...outcomes, '--engines', manifest([reference, swapped]), '--engine', 'all', '--json']));
    assert.deepEqual([agreed.verdict.status, agreed.verdict.claim], ['agree', 'outcomes'], JSON.stringify(agreed.verdict));

    const missing = answering('missing', {
      claim: 'outcomes', strength: 'proved', executions: [incFirst],
      values: [{ name: 'end@1', value: 'done' }, { name: 'x@1', value: 4 }],
    });
    const run = await runCli([...outcomes, '--engines', manifest([reference, missing]), '--engine', 'all']);
    assert.equal(run.code, 5, run.stdout + run.stderr);
    assert.match(run.stdout, /^outcomes Race::Race on 2 engines: UNRESOLVED DISAGREEMENT\n/);
    assert.match(run.stdout, /outcomes: assay-reference \{\(end = "done", x = 3\), \(end = "done", x = 4\)\}, missing \{\(end = "done", x = 4\)\}/);
  });

  it('engines that fail: each failure is a row; with one answer standing exit 0, with none exit 1', async () => {
    const failing = fx('crasher', { error: { code: 'internal', message: 'out of ideas' } });
    const oneFails = manifest([failing, answering('prover', { claim: 'holds', strength: 'proved' })]);
    const run = await runCli(holds('x >= 1', oneFails));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\n {2}crasher\s+\(failed\)\s+\d+ (ms|s)\s+engine "crasher" failed \(internal\): out of ideas\n/);
    assert.match(run.stdout, /\nverdict: holds, answered by prover alone\n/);

    const allFail = await runCli(holds('x >= 1', manifest([failing, fixtureEntry('crash-mid-run.js', pids, { name: 'crash-mid-run' })]), '--json'));
    assert.equal(allFail.code, 1, allFail.stdout);
    const json = oneJson(allFail);
    assert.equal(json.verdict.status, 'no answer');
    assert.deepEqual(json.engines.map((e: any) => [e.engine, e.status]), [['crasher', 'error'], ['crash-mid-run', 'error']]);

    const noneCovers = await runCli(holds('x >= 1', manifest([fx('evalonly', { describe: { answers: ['evaluate'] } })])));
    assert.equal(noneCovers.code, 3);
    assert.match(noneCovers.stdout, /^holds Race::Race on 1 engine: no answer stands\n/);
  });

  it('--engine all runs the engines side by side: two engines that each answer only once both have their run request', async () => {
    // A barrier, not a clock: each engine answers only when both run requests have arrived. Asked one
    // after the other, the first would wait for the second until the deadline (exit 4).
    const barrier = join(dir, 'barrier');
    const peer = (name: string) => fixtureEntry('waits-for-peers.js', pids, { name, env: { FIXTURE_BARRIER: barrier, FIXTURE_PEERS: '2' } });
    const run = await runCli(holds('x >= 1', manifest([peer('a'), peer('b')]), '--deadline', '20', '--json'));
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const json = oneJson(run);
    assert.deepEqual(json.engines.map((e: any) => [e.engine, e.status, e.result?.claim]), [['a', 'answered', 'holds'], ['b', 'answered', 'holds']]);
    assert.equal(json.verdict.status, 'agree');
  });

  it('Ctrl-C cancels every engine through the protocol: each row cancelled, no answer, exit 4', async () => {
    const events = join(dir, 'events');
    const slow = (name: string) => fixtureEntry('well-behaved.js', pids, { name, config: { delayMs: 30000 }, env: { FIXTURE_EVENTS: events } });
    const running = runCli(holds('x >= 1', manifest([slow('a'), slow('b')]), '--json'));
    const until = Date.now() + 20000;
    const runs = () => (existsSync(events) ? readFileSync(events, 'utf8').match(/^run /gm)?.length ?? 0 : 0);
    while (runs() < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    running.child.kill('SIGINT');
    const run = await running;
    assert.equal(run.code, 4, run.stdout + run.stderr);
    const json = oneJson(run);
    assert.deepEqual(json.engines.map((e: any) => [e.engine, e.status, e.message]), [
      ['a', 'cancelled', 'engine "a": cancelled by the host'],
      ['b', 'cancelled', 'engine "b": cancelled by the host'],
    ]);
    assert.equal(json.verdict.status, 'no answer');
    assert.equal(readFileSync(events, 'utf8').match(/^cancel /gm)?.length, 2, 'each engine got the protocol cancel');
  });
});
