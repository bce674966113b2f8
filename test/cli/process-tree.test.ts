// Engines that are more than one process, as `assay` meets them (real processes): a wrapper script that
// starts the engine without `exec`, and an engine that leaves a child holding its stdout. The CLI must
// end on its own (deadline, Ctrl-C, SIGTERM, a plain answer) and leave no engine process behind.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEntry } from '../../src/host';
import { FIXTURES, PidTracker, fixtureEntry } from '../host/fixture-engines';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface CliRun { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

function runCli(args: string[]): Promise<CliRun> & { child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ASSAY_CANCEL_GRACE_MS: '300' } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return Object.assign(done, { child });
}

describe('cli: engines that are a tree of processes', function () {
  this.timeout(30_000);
  let dir: string;
  let pids: PidTracker;
  let model: string;

  before(() => buildIfMissing('cli.js'));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-tree-'));
    pids = new PidTracker();
    model = join(dir, 'demo.sysml');
    writeFileSync(model, 'package Demo { part def S; }\n');
  });
  afterEach(async () => {
    await pids.assertNoneRunning();
  });

  function manifest(entries: EngineEntry[]): string {
    const file = join(dir, 'engines.json');
    writeFileSync(file, JSON.stringify(entries));
    return file;
  }
  /** A shell script starting node (which ignores cancel) without exec. */
  const wrapper = (): EngineEntry => ({
    ...fixtureEntry('deaf.js', pids, { name: 'wrapped', env: { FIXTURE_NODE: process.execPath } }),
    command: join(FIXTURES, 'wrapper-deaf.sh'),
    args: [],
  });
  const holds = (engines: string, ...more: string[]) => ['holds', 'Demo::S', '--model', model, '--engines', engines, ...more];
  const engineStarted = async (): Promise<void> => {
    const until = Date.now() + 10_000;
    while (pids.pids().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
  };

  it('a wrapper engine that ignores cancel: at the deadline the whole engine is stopped and assay exits 4', async () => {
    const run = await runCli(holds(manifest([wrapper()]), '--deadline', '5', '--json'));
    assert.equal(run.code, 4, run.stderr);
    assert.match(JSON.parse(run.stdout).error.message, /did not answer the cancel sent at the deadline of 5 s within 0\.3 s and was stopped/);
  });

  it('a wrapper engine that ignores cancel: Ctrl-C ends assay with 4 and the engine', async () => {
    const running = runCli(holds(manifest([wrapper()])));
    await engineStarted();
    running.child.kill('SIGINT');
    const run = await running;
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stdout, /cancelled — engine "wrapped" did not answer the cancel within 0\.3 s and was stopped/);
  });

  it('a wrapper engine that ignores cancel: SIGTERM ends assay and the engine', async () => {
    const running = runCli(holds(manifest([wrapper()])));
    await engineStarted();
    running.child.kill('SIGTERM');
    const run = await running;
    assert.equal(run.code, 4, run.stderr);
  });

  it('an engine that answers and exits while its child holds stdout: the answer is printed and assay exits 0', async () => {
    const entry = fixtureEntry('grandchild-holds-stdout.js', pids, { name: 'parent' });
    const run = await runCli(holds(manifest([entry]), '--json'));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result.claim, 'holds');
    assert.equal(pids.pids().length, 2, 'the engine and its child both started');
  });
});
