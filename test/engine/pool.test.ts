import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runPool, TaskError, type PoolOutcome } from '../../src/engine/pool';
import { testTasks } from './pool-worker';

const workerFile = join(__dirname, 'pool-worker.ts');
const pool = (jobs: number, memoryMiB?: number) => ({ jobs, tasks: testTasks, workerFile, ...(memoryMiB ? { memoryMiB } : {}) });

type Row = { row: number; x: number };

describe('engine worker pool', function () {
  this.timeout(20000);

  it('gives the same rows in row order for jobs = 1, 2 and 3', async () => {
    const spec = { seed: 42 };
    const one = (await runPool<typeof spec, Row>(pool(1), { task: 'seeded', spec, count: 1000 })) as PoolOutcome<Row>;
    const two = await runPool<typeof spec, Row>(pool(2), { task: 'seeded', spec, count: 1000, chunkSize: 7 });
    const three = await runPool<typeof spec, Row>(pool(3), { task: 'seeded', spec, count: 1000 });
    assert.equal(one.status, 'done');
    assert.equal(one.rows.length, 1000);
    assert.deepEqual(one.rows.map((r) => r.row).slice(0, 3), [1, 2, 3]);
    assert.deepEqual(two, one);
    assert.deepEqual(three, one);
    const other = await runPool<{ seed: number }, Row>(pool(2), { task: 'seeded', spec: { seed: 43 }, count: 1000 });
    assert.notDeepEqual(other.rows, one.rows);
  });

  it('computes rows on the main thread and on jobs - 1 workers, handing every chunk to onRows once', async () => {
    const seen = new Map<number, number>();
    const out = await runPool<{ spinMs: number }, { row: number; main: boolean }>(pool(2), {
      task: 'where',
      spec: { spinMs: 20 },
      count: 60,
      chunkSize: 2,
      onRows: (start, rows) => rows.forEach((r, k) => seen.set(start + k, (seen.get(start + k) ?? 0) + 1)),
    });
    assert.equal(out.status, 'done');
    out.rows.forEach((r, i) => assert.equal(r.row, i + 1));
    assert.ok(out.rows.some((r) => r.main), 'the main thread computed rows');
    assert.ok(out.rows.some((r) => !r.main), 'the worker computed rows');
    assert.deepEqual([...seen.keys()].sort((a, b) => a - b), Array.from({ length: 60 }, (_, i) => i));
    assert.ok([...seen.values()].every((n) => n === 1));
    const alone = await runPool<{ spinMs: number }, { row: number; main: boolean }>(pool(1), { task: 'where', spec: { spinMs: 0 }, count: 10 });
    assert.ok(alone.rows.every((r) => r.main), 'jobs=1 starts no worker');
  });

  it('reports progress up to the row count', async () => {
    const seen: number[] = [];
    const out = await runPool(pool(2), { task: 'seeded', spec: { seed: 1 }, count: 300, chunkSize: 50, onProgress: (d) => seen.push(d) });
    assert.equal(out.status, 'done');
    assert.equal(seen.at(-1), 300);
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
    assert.equal(seen.length, 6);
  });

  for (const jobs of [1, 2]) {
    it(`stops promptly on cancel with the finished prefix (jobs=${jobs})`, async () => {
      const ac = new AbortController();
      const running = runPool<{ seed: number; spinMs: number }, Row>(pool(jobs), {
        task: 'seeded',
        spec: { seed: 5, spinMs: 10 },
        count: 2000, // 20 s of work per thread
        chunkSize: 4,
        signal: ac.signal,
      });
      setTimeout(() => ac.abort(), 500);
      const out = await running;
      assert.equal(out.status, 'cancelled');
      assert.ok(out.rows.length < 2000);
      out.rows.forEach((r, i) => assert.equal(r.row, i + 1));
    });
  }

  for (const jobs of [1, 2]) {
    it(`fails with the row and the task's message when a row throws (jobs=${jobs})`, async () => {
      await assert.rejects(runPool(pool(jobs), { task: 'failAt', spec: { at: 37 }, count: 100 }), (e: unknown) => {
        assert.ok(e instanceof TaskError);
        assert.equal(e.row, 37);
        assert.equal(e.errorName, 'RangeError');
        assert.equal(e.message, 'row 38 divides by zero');
        return true;
      });
      await assert.rejects(runPool(pool(jobs), { task: 'failPrepare', spec: {}, count: 10 }), (e: unknown) => {
        assert.ok(e instanceof TaskError);
        assert.equal(e.row, -1);
        assert.equal(e.errorName, 'SyntaxError');
        return true;
      });
    });
  }

  it('runs again after a cancelled and a failed run (workers are reused only after a clean finish)', async () => {
    const ac = new AbortController();
    const cancelled = runPool(pool(2), { task: 'seeded', spec: { seed: 1, spinMs: 5 }, count: 1000, chunkSize: 2, signal: ac.signal });
    setTimeout(() => ac.abort(), 200);
    assert.equal((await cancelled).status, 'cancelled');
    await assert.rejects(runPool(pool(2), { task: 'failAt', spec: { at: 3 }, count: 100 }), TaskError);
    for (let k = 0; k < 3; k++) {
      const out = await runPool<{ seed: number }, Row>(pool(2), { task: 'seeded', spec: { seed: 8 }, count: 300 });
      assert.equal(out.status, 'done');
      out.rows.forEach((r, i) => assert.equal(r.row, i + 1));
    }
  });

  it('refuses an unknown task', async () => {
    await assert.rejects(runPool(pool(2), { task: 'nope', spec: {}, count: 1 }), /unknown task nope/);
  });

  it('stops at the memory budget with the finished prefix', async () => {
    const budget = Math.ceil(process.memoryUsage.rss() / (1024 * 1024)) + 96;
    for (const jobs of [1, 2]) {
      const out = await runPool(pool(jobs, budget), { task: 'hog', spec: {}, count: 400, chunkSize: 1 });
      assert.equal(out.status, 'memory', `jobs=${jobs}`);
      assert.match((out as { reason: string }).reason, new RegExp(`memory budget of ${budget} MiB reached`));
      assert.ok(out.rows.length < 400);
    }
  });
});
