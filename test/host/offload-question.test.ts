// offloadQuestion as the editor uses it: a Question and in-memory documents, N shards on the test task
// service whose `shell` tasks are real `node dist/cli.js … --shard k/N` processes; the merged outcome
// must be the answer of a local run of the same question.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../../src/adapter/config';
import { offloadQuestion, questionFlags, workerWords, type OffloadQuestionProgress } from '../../src/host/offload-question';
import type { Question } from '../../src/protocol/schema';
import { startTaskService, type TaskService } from '../fixtures/task-service/service';
import { buildIfMissing } from '../cli/built';

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const MODEL = join(ROOT, 'test', 'fixtures', 'models', 'engine', 'vehicle.sysml');

function untimed(result: any): any {
  const { elapsed: _elapsed, ...rest } = result;
  return rest;
}

describe('host: offloadQuestion (an editor question as shards on the task service)', function () {
  this.timeout(120_000);
  let service: TaskService;
  before(() => buildIfMissing('cli.js'));
  beforeEach(async () => (service = await startTaskService()));
  afterEach(() => service.close());

  const grid: Question = {
    kind: 'sweep', subject: 'VehicleModel::Kinetic', schedule: 'fifo', free: [],
    sweep: { ranges: [
      { parameter: 'm', type: 'MassValue', from: 1, to: 4, step: 1, unit: 'kg' },
      { parameter: 'v', type: 'SpeedValue', from: 1, to: 3, step: 0.5, unit: 'm/s' },
    ] },
  };

  it('says a question as the CLI flags a worker runs', () => {
    assert.deepEqual(questionFlags(grid), ['--schedule', 'fifo', '--range', 'm:MassValue:1[kg]:4[kg]:1[kg]', '--range', 'v:SpeedValue:1[m/s]:3[m/s]:0.5[m/s]']);
    assert.match(String(questionFlags({ ...grid, kind: 'holds' })), /only sweep and compute/);
    assert.deepEqual(workerWords('', '/x/dist'), ['node', '/x/dist/cli.js']);
    assert.deepEqual(workerWords(' node  /y/cli.js ', '/x/dist'), ['node', '/y/cli.js']);
  });

  it('merges a 2-shard sweep into the answer of a local run, with shard progress', async () => {
    const local = spawnSync(process.execPath, [join(DIST, 'cli.js'), 'sweep', grid.subject, '--model', MODEL, ...(questionFlags(grid) as string[]), '--json'], { encoding: 'utf8' });
    assert.equal(local.status, 0, local.stderr);
    const expected = JSON.parse(local.stdout);
    const seen: OffloadQuestionProgress[] = [];
    const ran = await offloadQuestion({
      config: readConfig({ SERVICE_URL: service.url }),
      question: grid,
      documents: [{ path: 'models/vehicle.sysml', text: readFileSync(MODEL, 'utf8') }],
      shards: 2,
      worker: workerWords(undefined, DIST),
      pollMs: 50,
      onProgress: (p) => seen.push(p),
    });
    assert.equal(ran.outcome.status, 'answered', JSON.stringify(ran.outcome));
    if (ran.outcome.status !== 'answered') return;
    assert.deepEqual(untimed(ran.outcome.result), untimed(expected.result));
    assert.equal(ran.outcome.engine, expected.engine);
    assert.equal(service.tasks.size, 2, 'one task per shard');
    const last = seen.at(-1)!;
    assert.deepEqual(last, { done: 2, failed: 0, total: 2, rows: 20 });
  });

  it('cancels the shards when the signal aborts', async () => {
    const stop = new AbortController();
    const ran = offloadQuestion({
      config: readConfig({ SERVICE_URL: service.url }),
      question: { ...grid, sweep: { ranges: [], runs: 50, seed: 1 }, subject: 'VehicleModel::noisy' },
      documents: [{ path: 'vehicle.sysml', text: readFileSync(MODEL, 'utf8') }],
      shards: 2,
      // A worker that never answers: the shards can only end by the cancel.
      worker: [process.execPath, '-e', 'setInterval(() => {}, 1000)', '--'],
      pollMs: 50,
      onProgress: (p) => { if (p.done === 0) setTimeout(() => stop.abort(), 200); },
      signal: stop.signal,
    });
    const result = await ran;
    assert.equal(result.outcome.status, 'cancelled');
    assert.match((result.outcome as { message: string }).message, /2 shards were (cancelled|deleted)/);
  });
});
