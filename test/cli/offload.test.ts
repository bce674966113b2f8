// `assay … --offload N` as a user runs it: `node dist/cli.js` against the test task service, whose
// `shell` tasks are real processes running `node dist/cli.js … --shard k/N`. The merged answer must be
// the answer of a local run (grids, sampled sweeps, Monte Carlo); a shard that keeps failing leaves its
// rows missing, said; a flaky one is retried; Ctrl-C cancels the shards and their processes end.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTaskService, type TaskService } from '../fixtures/task-service/service';
import { buildIfMissing } from './built';
import { alive, waitFor } from '../fixtures/processes';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const MODEL = join(ROOT, 'test', 'fixtures', 'models', 'engine', 'vehicle.sysml');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> & { child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ASSAY_OFFLOAD_POLL_MS: '50', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return Object.assign(done, { child });
}

function oneJson(run: CliRun): any {
  const lines = run.stdout.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return JSON.parse(lines[0]!);
}

/** The answer without its timing (the one field a merged answer cannot share with a local run). */
function untimed(answer: any): any {
  const { elapsed: _elapsed, ...result } = answer.result;
  return { ...answer, result };
}

describe('cli: --offload N on the task service (real worker processes)', function () {
  this.timeout(120_000);
  let service: TaskService;
  let dir: string;
  before(() => buildIfMissing('cli.js'));
  beforeEach(async () => {
    service = await startTaskService();
    dir = mkdtempSync(join(tmpdir(), 'assay-offload-cli-'));
  });
  afterEach(() => service.close());
  const env = () => ({ SERVICE_URL: service.url });

  const questions: [string, string[]][] = [
    ['a grid of two ranges', ['sweep', 'VehicleModel::Kinetic', '--model', MODEL, '--range', 'm:MassValue:1[kg]:5[kg]:1', '--range', 'v:SpeedValue:1[m/s]:9[m/s]:0.5']],
    ['a sampled sweep', ['sweep', 'VehicleModel::Vehicle::totalMass', '--model', MODEL, '--range', 'engine.mass:MassValue:100[kg]:300[kg]', '--samples', '97', '--seed', '5']],
    ['a Monte Carlo sweep', ['sweep', 'VehicleModel::noisy', '--model', MODEL, '--runs', '61', '--seed', '9']],
    ['a Monte Carlo sweep with fewer rows than shards (empty shards)', ['sweep', 'VehicleModel::noisy', '--model', MODEL, '--runs', '3', '--seed', '1']],
    ['compute over a range at the runs bound', ['compute', 'VehicleModel::Kinetic', '--model', MODEL, '--range', 'm:MassValue:1[kg]:40[kg]:1', '--bind', 'v=2[m/s]', '--runs-limit', '23']],
  ];
  for (const [what, args] of questions) {
    it(`merges ${what} into the answer of a local run`, async () => {
      const local = await runCli([...args, '--json']);
      const offloaded = await runCli([...args, '--json', '--offload', '4'], env());
      assert.equal(local.code, 0, local.stderr);
      assert.equal(offloaded.code, 0, offloaded.stderr);
      assert.deepEqual(untimed(oneJson(offloaded)), untimed(oneJson(local)));
      assert.match(offloaded.stderr, /4\/4 shards done, \d+ rows so far/);
      const tasks = [...service.tasks.values()];
      assert.equal(tasks.length, 4, 'one task per shard');
      assert.equal(service.requests.filter((r) => r.method === 'POST' && r.path === '/tasks').length, 1, 'one task graph');
    });
  }

  it('prints the same table as a local run without --json', async () => {
    const args = ['sweep', 'VehicleModel::Kinetic', '--model', MODEL, '--range', 'm:MassValue:1[kg]:3[kg]:1', '--range', 'v:SpeedValue:1[m/s]:2[m/s]:1'];
    const local = await runCli(args);
    const offloaded = await runCli([...args, '--offload', '2'], env());
    assert.equal(offloaded.code, 0, offloaded.stderr);
    const withoutTime = (text: string) => text.replace(/\d+(\.\d+)? ?(ms|s)\b/g, '<time>');
    assert.equal(withoutTime(offloaded.stdout), withoutTime(local.stdout));
  });

  it('a shard answers the rows of its window, named by their row in the whole table', async () => {
    const args = ['sweep', 'VehicleModel::noisy', '--model', MODEL, '--runs', '10', '--seed', '2', '--json'];
    const local = oneJson(await runCli(args)).result.values as { name: string }[];
    const shard = oneJson(await runCli([...args, '--shard', '2/3'])).result.values as { name: string; value: number }[];
    const names = shard.map((v) => v.name);
    assert.deepEqual(names, ['noisy@4', 'noisy@5', 'noisy@6', 'shard.from', 'shard.to', 'shard.rows']);
    assert.deepEqual(shard.slice(0, 3), local.slice(3, 6));
    assert.deepEqual(shard.slice(3).map((v) => v.value), [4, 6, 10]);
  });

  function wrapper(name: string, body: string): string {
    const file = join(dir, name);
    writeFileSync(file, `const { spawnSync } = require('child_process');\nconst fs = require('fs');\nconst args = process.argv.slice(2);\nconst shard = args[args.indexOf('--shard') + 1];\n${body}\nconst r = spawnSync(process.execPath, [${JSON.stringify(CLI)}, ...args], { stdio: 'inherit' });\nprocess.exit(r.status ?? 1);\n`);
    return `${process.execPath} ${file}`;
  }

  it('retries a shard that fails once: the answer is whole', async () => {
    const marker = join(dir, 'failed-once');
    const command = wrapper('flaky.js', `if (shard === '2/3' && !fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${JSON.stringify(marker)}, '1'); console.error('lost the worker'); process.exit(9); }`);
    const args = ['sweep', 'VehicleModel::noisy', '--model', MODEL, '--runs', '30', '--seed', '4', '--json'];
    const local = oneJson(await runCli(args));
    const run = await runCli([...args, '--offload', '3', '--worker-command', command], env());
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(untimed(oneJson(run)), untimed(local));
    assert.equal(service.requests.filter((r) => r.method === 'POST' && r.path === '/tasks').length, 2, 'the graph, then the retry');
  });

  it('a shard that fails twice leaves its rows missing, said with the reason; exit 1; the other rows are there', async () => {
    const command = wrapper('broken.js', `if (shard === '2/3') { console.error('this worker has no model'); process.exit(7); }`);
    const args = ['sweep', 'VehicleModel::noisy', '--model', MODEL, '--runs', '30', '--seed', '4', '--json'];
    const local = oneJson(await runCli(args)).result.values as { name: string }[];
    const run = await runCli([...args, '--offload', '3', '--worker-command', command], env());
    assert.equal(run.code, 1, run.stderr);
    const answer = oneJson(run);
    assert.equal(answer.missing.length, 1);
    assert.deepEqual([answer.missing[0].shard, answer.missing[0].from, answer.missing[0].to], [2, 11, 20]);
    assert.match(answer.missing[0].reason, /exited with status 7.*this worker has no model/);
    const cells = (answer.result.values as { name: string }[]).filter((v) => /@\d+$/.test(v.name));
    assert.deepEqual(cells, [...local.slice(0, 10), ...local.slice(20, 30)]);
    assert.match(run.stderr, /shard 2: rows 11-20 missing: .*exited with status 7/);
    // Its summaries (min, max, …) are over 20 of the 30 rows: it cannot stand as proved.
    assert.equal(answer.standing.strength, 'observed');
    assert.match(answer.standing.reasons.join('\n'), /shard 2: rows 11-20 missing: .*the table and its summaries are over the rows present only/);
    assert.equal([...service.tasks.values()].filter((t) => t.name === 'assay shard 2/3').length, 2, 'tried twice');
  });

  it('Ctrl-C cancels the shards on the service: exit 4, and the worker processes end', async () => {
    const pids = join(dir, 'pids');
    const command = wrapper('slow.js', `fs.mkdirSync(${JSON.stringify(pids)}, { recursive: true }); fs.writeFileSync(require('path').join(${JSON.stringify(pids)}, String(process.pid)), ''); setInterval(() => {}, 1000); return;`);
    const run = runCli(['sweep', 'VehicleModel::noisy', '--model', MODEL, '--runs', '30', '--json', '--offload', '2', '--worker-command', command], env());
    await waitFor(() => existsSync(pids) && readdirSync(pids).length === 2, 'both shards to start');
    const workers = readdirSync(pids).map(Number);
    run.child.kill('SIGINT');
    const done = await run;
    assert.equal(done.code, 4, done.stderr);
    assert.equal(oneJson(done).error.status, 'cancelled');
    assert.match(done.stderr, /cancelling the shards/);
    await waitFor(() => workers.every((pid) => !alive(pid)), 'the worker processes to end');
    assert.ok(service.requests.some((r) => r.method === 'POST' && /\/tasks\/[^/]+\/cancel$/.test(r.path)), 'the contract\'s cancel');
  });

  it('refuses --offload for a question that is not a table, and --shard with another engine', async () => {
    const a = await runCli(['evaluate', 'VehicleModel::carEnergy', '--model', MODEL, '--offload', '2', '--json'], env());
    assert.equal(a.code, 2);
    assert.match(oneJson(a).error.message, /--offload splits the rows of a table/);
    const b = await runCli(['sweep', 'VehicleModel::noisy', '--model', MODEL, '--runs', '3', '--shard', '1/2', '--engines', join(dir, 'x.json')]);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /--shard works with the bundled engine only/);
  });

  it('says which service failed when there is none at SERVICE_URL', async () => {
    const url = service.url;
    await service.close();
    const run = await runCli(['sweep', 'VehicleModel::noisy', '--model', MODEL, '--runs', '3', '--offload', '2', '--json'], { SERVICE_URL: url, SERVICE_REQUEST_TIMEOUT: '2s' });
    assert.equal(run.code, 1);
    assert.match(oneJson(run).error.message, /the task service failed/);
    service = await startTaskService();
  });
});
