// The CLI as a user runs it: `node dist/cli.js …` as a child process, with fixture engines from a
// manifest; stdout, exit codes, Ctrl-C, and no engine process left behind.
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

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<CliRun> & { child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { env: { ...process.env, ASSAY_CANCEL_GRACE_MS: '300', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return Object.assign(done, { child });
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 10000;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** stdout must be exactly one JSON object on one line. */
function oneJson(run: CliRun): any {
  const lines = run.stdout.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  const value = JSON.parse(lines[0]!);
  assert.equal(typeof value, 'object');
  return value;
}

describe('cli: assay as a child process', function () {
  this.timeout(20000);
  let dir: string;
  let pids: PidTracker;
  let model: string;

  before(() => buildIfMissing('cli.js'));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-cli-'));
    pids = new PidTracker();
    model = join(dir, 'demo.sysml');
    // S has no behaviour the host could replay: the engine's witness is shown as given, and the claim
    // stands at most observed because the host could not check it.
    writeFileSync(model, 'package Demo { part def S; }\n');
  });
  afterEach(async () => {
    await pids.assertNoneRunning();
  });

  function manifest(entries: (EngineEntry | Record<string, unknown>)[]): string {
    const file = join(dir, 'engines.json');
    writeFileSync(file, JSON.stringify(entries));
    return file;
  }
  const good = (name: string, config: unknown = {}, env: Record<string, string> = {}) => fixtureEntry('well-behaved.js', pids, { name, config, env });
  const holds = (engines: string, ...more: string[]) => ['holds', 'Demo::S', '--model', model, '--engines', engines, ...more];

  it('--version and -V print the version in package.json and exit 0; --help lists them', async () => {
    const pkgVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-V']) {
      const run = await runCli([flag]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `assay ${pkgVersion}\n`);
      assert.equal(run.stderr, '');
    }
    const help = await runCli(['--help']);
    assert.match(help.stdout, /assay --version \| -V/);
  });

  it('a reader that leaves early (`assay parse … | head`) ends the CLI quietly with 141, not an EPIPE stack trace', async () => {
    // Enough diagnostics that the output outlasts the pipe's buffer after the reader is gone.
    writeFileSync(model, 'part def A {\n' + '  part p : Missing;\n'.repeat(20000) + '}\n');
    const run = runCli(['parse', model]);
    run.child.stdout!.once('data', () => run.child.stdout!.destroy());
    const r = await run;
    assert.equal(r.code, 141, r.stderr);
    assert.equal(r.stderr, '');
  });

  it('assay parse usage errors: exit 2 naming the path or option; with --json also one JSON object', async () => {
    const missing = await runCli(['parse', join(dir, 'nope.sysml'), '--json']);
    assert.equal(missing.code, 2);
    assert.deepEqual(oneJson(missing), { error: { message: `no such file or folder: ${join(dir, 'nope.sysml')}`, status: 'usage' } });
    assert.match(missing.stderr, /^assay parse: no such file or folder: .*nope\.sysml\n$/);
    const option = await runCli(['parse', model, '--frobnicate', '--json']);
    assert.equal(option.code, 2);
    assert.deepEqual(oneJson(option), { error: { message: 'unknown option --frobnicate', status: 'usage' } });
    const text = await runCli(['parse', join(dir, 'nope.sysml')]);
    assert.deepEqual([text.code, text.stdout], [2, '']);
  });

  it('--json: exactly one object with the question as sent (subjectKind added), engine, result and standing; exit 0', async () => {
    const witness = { schedules: ['step 1: t1@go first of t1@go'], at: 1 };
    const run = await runCli(holds(manifest([good('fx', { result: { claim: 'violated', strength: 'proved', witness, bounds: [{ name: 'depth', limit: 4, reached: true }] } })]), '--depth', '4', '--json'));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(oneJson(run), {
      question: { kind: 'holds', subject: 'Demo::S', schedule: 'fifo', free: [], subjectKind: 'part' },
      engine: 'fx',
      result: { claim: 'violated', strength: 'proved', witness, bounds: [{ name: 'depth', limit: 4, reached: true }] },
      standing: {
        strength: 'observed',
        reasons: [
          'the run reached its bound depth (limit 4)',
          `the host could not check the witness: the host's semantics cannot execute the model: ${model}:1:25: Demo::S performs and exhibits no behaviour`,
        ],
      },
    });
  });

  it('text output: claim, standing strength and why, witness steps', async () => {
    const witness = { schedules: ['step 1: t1@go first of t1@go, t2@stop\nstep 2: t2@stop first of t2@stop'], at: 2 };
    const run = await runCli(holds(manifest([good('fx', { result: { claim: 'violated', strength: 'proved', witness } }, )]).replace(/$/, ''), '--engine', 'fx'));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^holds Demo::S: violated\n/);
    assert.match(run.stdout, /engine: {3}fx/);
    assert.match(run.stdout, /strength: observed \(the engine claimed proved\)\n {4}because the host could not check the witness: the host's semantics cannot execute the model: .*Demo::S performs and exhibits no behaviour\n/);
    assert.match(run.stdout, /witness:\n {6}step 1: t1@go first of t1@go, t2@stop\n {6}step 2: t2@stop first of t2@stop\n {4}violated at move 2/);
  });

  it('a witness that does not replay on the model stands as not covered, with the reason; exit 3', async () => {
    const traffic = join(ROOT, 'test', 'fixtures', 'models', 'behavior', 'traffic-light.sysml');
    const witness = { schedules: ['step 1: t1@go first of t1@go'], at: 1 };
    const engines = manifest([good('fx', { result: { claim: 'violated', strength: 'proved', witness } })]);
    const run = await runCli(['holds', 'TrafficLight::TimedCrossing', '--model', traffic, '--engines', engines, '--json']);
    assert.equal(run.code, 3, run.stderr);
    const out = oneJson(run) as { result: { claim: string }; standing: { strength: string; reasons: string[] } };
    assert.equal(out.result.claim, 'violated');
    assert.equal(out.standing.strength, 'not covered');
    assert.match(out.standing.reasons.join('\n'), /does not reproduce the claim: the witness does not replay: step 1: the schedule lists t1@go as enabled, the model enables t1@ns\.nsLight\.red->green/);
  });

  it('a witness whose replay stops on what the host cannot evaluate stands at most observed, with the reason; exit 0', async () => {
    writeFileSync(model, [
      'package B {',
      '\tprivate import ScalarValues::*;',
      '\tpart def V;',
      '\taction def A {',
      '\t\tattribute n : Integer := 0;',
      '\t\tfirst start;',
      '\t\tthen assign n := size(all V);',
      '\t\tthen done;',
      '\t}',
      '}',
      '',
    ].join('\n'));
    const witness = { schedules: ['step 1: t1@assign1 first of t1@assign1'], at: 1 };
    const engines = manifest([good('fx', { result: { claim: 'violated', strength: 'proved', witness } })]);
    const run = await runCli(['holds', 'B::A', '--model', model, '--condition', 'c=n < 2', '--engines', engines, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = oneJson(run) as { standing: { strength: string; reasons: string[] } };
    assert.deepEqual(out.standing, {
      strength: 'observed',
      reasons: [`the host could not check the witness: the host's replay stopped: step 1: ${model}:7:25: 'all V' (the extent of a type) is not supported`],
    });
  });

  it('text output: a table of values and the strength the engine claimed when it does not stand', async () => {
    const values = [
      { name: 'v@1', value: 1 }, { name: 'y@1', value: 2.5, unit: 'm' }, { name: 'v@2', value: 2 }, { name: 'y@2', value: 5, unit: 'm' },
      { name: 'max(y)', value: 5, unit: 'm' },
    ];
    const file = manifest([{ ...good('fx', { result: { claim: 'table', strength: 'proved', values } }), authority: 'observed' }]);
    // The entry declares authority observed; the fixture's describe must agree.
    const entries = JSON.parse(readFileSync(file, 'utf8'));
    entries[0].env.FIXTURE_CONFIG = JSON.stringify({ describe: { authority: 'observed' }, result: { claim: 'table', strength: 'proved', values } });
    writeFileSync(file, JSON.stringify(entries));
    const run = await runCli(['sweep', 'Demo::S', '--model', model, '--engines', file, '--range', 'v:Integer:1:2']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /strength: observed \(the engine claimed proved\)\n {4}because engine "fx" has authority observed/);
    assert.match(run.stdout, /table:\n {4}# {2}v {2}y\n {4}1 {2}1 {2}2\.5 \[m\]\n {4}2 {2}2 {2}5 \[m\]/);
    assert.match(run.stdout, /summary:\n {4}max\(y\) = 5 \[m\]/);
  });

  it('not covered: exit 3 with every engine and its reason', async () => {
    const run = await runCli(holds(manifest([good('a', { covers: { covers: false, reason: 'no states' } }), { name: 'b', command: 'x', answers: ['evaluate'] }]), '--json'));
    assert.equal(run.code, 3);
    assert.deepEqual(oneJson(run).error.reasons, [
      { engine: 'a', reason: 'does not cover it: no states' },
      { engine: 'b', reason: 'does not answer holds questions (answers evaluate)' },
    ]);
  });

  it('a syntax error where the subject is declared is a model error at file:line:col: exit 6, no engine asked', async () => {
    writeFileSync(model, 'package Demo {\n  part def S {\n    attribute a = 1 +;\n  }\n}\n');
    const run = await runCli(holds(manifest([good('fx')]), '--json'));
    assert.equal(run.code, 6, run.stderr);
    assert.deepEqual(oneJson(run).error, {
      message: `${model}:3:22: expected an expression, found ';'`, status: 'model error', file: model, line: 3, column: 22, endLine: 3, endColumn: 23,
    });
    const text = await runCli(holds(manifest([good('fx')])));
    assert.equal(text.code, 6);
    assert.match(text.stderr, new RegExp(`assay: model error: ${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:22: expected an expression`));
  });

  it('a typed condition that cannot be read is a condition error at its column: exit 6', async () => {
    const run = await runCli(holds(manifest([good('fx')]), '--condition', 'safe=a and (b or', '--json'));
    assert.equal(run.code, 6, run.stderr);
    assert.deepEqual(oneJson(run).error, { message: 'condition safe, column 12: expected an expression, found the end of the condition', status: 'condition error', column: 12 });
  });

  it('an engine that cannot start is an engine error naming it, not "not covered": exit 1', async () => {
    const run = await runCli(holds(manifest([{ name: 'ghost', command: join(dir, 'no-such-engine') }])));
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /holds Demo::S: engine error — engine "ghost" failed\n {2}ghost: engine "ghost" cannot start: command ".*no-such-engine" was not found/);
  });

  it('engine failure: exit 1 with the error message', async () => {
    const run = await runCli(holds(manifest([fixtureEntry('crash-mid-run.js', pids, { name: 'crashy' })]), '--json'));
    assert.equal(run.code, 1);
    const out = oneJson(run);
    assert.equal(out.error.status, 'error');
    assert.match(out.error.message, /engine "crashy" exited with code 1 before answering run[\s\S]*segment table corrupted/);
  });

  it('deadline: exit 4; an engine that never answers is killed after the grace period', async () => {
    const run = await runCli(holds(manifest([fixtureEntry('never-answers.js', pids, { name: 'stuck' })]), '--deadline', '1.5', '--json'));
    assert.equal(run.code, 4);
    assert.match(oneJson(run).error.message, /did not answer the cancel sent at the deadline of 1\.5 s within 0\.3 s and was stopped/);
  });

  it('Ctrl-C cancels the run through the protocol, then exits 4', async () => {
    const events = join(dir, 'events');
    const running = runCli(holds(manifest([good('slow', { delayMs: 20000 }, { FIXTURE_EVENTS: events })]), '--json'));
    const until = Date.now() + 10000;
    while (!(existsSync(events) && readFileSync(events, 'utf8').includes('run')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    running.child.kill('SIGINT');
    const run = await running;
    assert.equal(run.code, 4, run.stderr);
    assert.deepEqual(oneJson(run), { error: { message: 'engine "slow": cancelled by the host', status: 'cancelled', engine: 'slow' } });
    assert.match(readFileSync(events, 'utf8'), /^run 3\ncancel 3\n$/);
  });

  it('Ctrl-C with an engine that ignores cancel: stopped after the grace period, exit 4', async () => {
    const running = runCli(holds(manifest([fixtureEntry('ignores-cancel.js', pids, { name: 'deaf' })])));
    const until = Date.now() + 10000;
    while (pids.pids().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    running.child.kill('SIGINT');
    const run = await running;
    assert.equal(run.code, 4);
    assert.match(run.stdout, /holds Demo::S: cancelled — engine "deaf" did not answer the cancel within 0\.3 s and was stopped/);
  });

  it('Ctrl-C while the CLI reads the model, before the run exists: exit 4, cancelled, no engine left', async () => {
    // A preload raises SIGINT inside the CLI's own read of the model file, the deterministic stand-in for
    // a Ctrl-C in the tens of milliseconds of reading and routing the model before the run exists. The
    // CLI used to listen only from then on, so Node's default action killed it by SIGINT instead.
    const preload = join(dir, 'sigint-on-model-read.js');
    writeFileSync(
      preload,
      `const fs = require('node:fs'); const read = fs.readFileSync; let sent = false;
fs.readFileSync = function (path, ...rest) {
  if (!sent && String(path) === ${JSON.stringify(model)}) {
    sent = true;
    process.stderr.write('[preload: SIGINT raised while reading the model]\\n');
    process.kill(process.pid, 'SIGINT');
  }
  return read.call(this, path, ...rest);
};\n`,
    );
    const run = await runCli(holds(manifest([good('slow', { delayMs: 60000 })]), '--json'), {}, ['--require', preload]);
    assert.match(run.stderr, /\[preload: SIGINT raised while reading the model\]/);
    assert.deepEqual([run.code, run.signal], [4, null], run.stderr);
    assert.deepEqual(oneJson(run), { error: { message: 'cancelled while the host read the model (1 file, 29 B), before an engine started the run', status: 'cancelled' } });
  });

  it('Ctrl-C at any moment of a run ends the CLI, exit 4 once it listens, and leaves no engine', async function () {
    // A Ctrl-C that is lost lets the engine run on to its 60 s answer: the test then fails by timeout.
    this.timeout(40000);
    const slow = () => manifest([good('slow', { delayMs: 60000 }), { name: 'broken', command: 'x', witness: 'video' }]);

    // At once: Node has not run a line of the CLI yet and its default action ends the process.
    const atOnce = runCli(holds(slow(), '--json'));
    atOnce.child.kill('SIGINT');
    const first = await atOnce;
    assert.ok(first.code === 4 || (first.signal === 'SIGINT' && first.stdout === ''), `code ${first.code}, signal ${first.signal}\n${first.stderr}`);

    // After the first byte on stderr (the ignored manifest entry, written just before the CLI listens).
    const afterByte = runCli(holds(slow(), '--json'));
    afterByte.child.stderr!.once('data', () => afterByte.child.kill('SIGINT'));
    const second = await afterByte;
    assert.ok(second.code === 4 || (second.signal === 'SIGINT' && second.stdout === ''), `code ${second.code}, signal ${second.signal}\n${second.stderr}`);
    if (second.code === 4) assert.equal(oneJson(second).error.status, 'cancelled');

    // While the engine starts (it has its pid written and spends 3 s before reading describe).
    const spawned = pids.pids().length;
    const starting = runCli(holds(manifest([fixtureEntry('slow-start.js', pids, { name: 'late', env: { FIXTURE_START_MS: '3000' } })]), '--json'));
    await waitFor(() => pids.pids().length > spawned, 'the engine to be spawned');
    starting.child.kill('SIGINT');
    const third = await starting;
    assert.deepEqual([third.code, third.signal], [4, null], third.stderr);
    // The engine starts while the host reads the model: the cancel finds the host in either phase.
    assert.equal(oneJson(third).error.status, 'cancelled');
    assert.match(oneJson(third).error.message, /^cancelled while (the host read the model \(1 file, \d+ B\)|the engines were started and asked whether they cover it), before an engine started the run$/);
    // (After the run reached the engine: 'Ctrl-C cancels the run through the protocol' above.)
  });

  it('a second Ctrl-C while the engine shuts down stops it at once; the outcome is still printed, exit 4', async () => {
    // The engine answers the cancel at once but takes 15 s to exit once its input closes, and the
    // shutdown grace is longer still: only the second Ctrl-C can end the wait. The CLI used to stop
    // listening when the run settled, so that Ctrl-C killed it by SIGINT with nothing printed and left
    // the engine running.
    const events = join(dir, 'events');
    const running = runCli(holds(manifest([good('lingers', { delayMs: 60000, lingerMs: 15000 }, { FIXTURE_EVENTS: events })]), '--json'), { ASSAY_CANCEL_GRACE_MS: '60000' });
    const noted = () => (existsSync(events) ? readFileSync(events, 'utf8') : '');
    await waitFor(() => noted().includes('run 3'), 'the run to reach the engine');
    running.child.kill('SIGINT');
    await waitFor(() => noted().includes('input closed'), 'the shutdown to close the engine input');
    running.child.kill('SIGINT');
    const run = await running;
    assert.deepEqual([run.code, run.signal], [4, null], run.stderr);
    assert.deepEqual(oneJson(run), { error: { message: 'engine "lingers": cancelled by the host', status: 'cancelled', engine: 'lingers' } });
    assert.equal(noted(), 'run 3\ncancel 3\ninput closed\n');
  });

  it('usage errors: exit 2, naming the flag; with --json one JSON object', async () => {
    const bad = await runCli(['holds', 'Demo::S', '--model', model, '-draws', 'median', '--json']);
    assert.equal(bad.code, 2);
    assert.deepEqual(oneJson(bad), { error: { message: '-draws median: expected min, max or average', status: 'usage' } });
    const missing = await runCli(['holds', 'Demo::S', '--model', join(dir, 'nope.sysml')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--model .*nope\.sysml: cannot read the model file \(no such file\)/);
    assert.equal(missing.stdout, '');
    const folder = await runCli(['holds', 'Demo::S', '--model', dir, '--json']);
    assert.equal(folder.code, 2);
    assert.deepEqual(oneJson(folder), { error: { message: `--model ${dir}: cannot read the model file (it is a folder)`, status: 'usage' } });
    const engine = await runCli(holds(manifest([good('a')]), '--engine', 'zz'));
    assert.equal(engine.code, 2);
    assert.match(engine.stderr, /--engine zz: no such engine; configured: a/);
    const manifestBad = await runCli(['holds', 'Demo::S', '--model', model, '--engines', join(dir, 'none.json')]);
    assert.equal(manifestBad.code, 2);
    assert.match(manifestBad.stderr, /--engines .*none\.json: cannot read the manifest \(no such file\)/);
  });

  it('assay engines: each engine with its describe check; a bad entry by index and field; exit 1 when any fails', async () => {
    const file = manifest([good('fine'), fixtureEntry('wrong-describe.js', pids, { name: 'liar' }), { name: 'broken', command: 'x', witness: 'video' }]);
    const text = await runCli(['engines', '--engines', file]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^fine 1\.0\.0: ok\n/);
    assert.match(text.stdout, /liar: not usable\n[\s\S]*problem: {4}engine "liar" is not used: its describe answer differs from its entry in one field: name: entry says "liar", engine says "impostor"/);
    assert.match(text.stderr, /engines\.json entry 2, field witness: Invalid option/);
    const json = oneJson(await runCli(['engines', '--engines', file, '--json']));
    assert.deepEqual(json.engines.map((e: { name: string; ok: boolean }) => [e.name, e.ok]), [['fine', true], ['liar', false]]);
    assert.equal(json.problems[0].index, 2);
    assert.equal(json.problems[0].field, 'witness');
    const ok = await runCli(['engines', '--engines', manifest([good('fine')])]);
    assert.equal(ok.code, 0);
  });

  it('the built-in list has the bundled reference engine', async () => {
    const run = await runCli(['engines', '--json']);
    const json = oneJson(run);
    assert.equal(json.engines[0].name, 'assay-reference');
    assert.equal(json.engines[0].args[0], join(ROOT, 'dist', 'engine.js'));
    if (existsSync(join(ROOT, 'dist', 'engine.js'))) assert.equal(json.engines[0].ok, true, json.engines[0].problem);
  });
});
