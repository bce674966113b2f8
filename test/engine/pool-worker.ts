// Worker script for the pool tests: the same registry the tests use inline.
import { isMainThread } from 'node:worker_threads';
import { isPoolWorker, serveWorker, type TaskRegistry } from '../../src/engine/pool';

function spin(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

/** A row that depends on its index alone: a small seeded generator (mulberry32). */
function seeded(seed: number, index: number): number {
  let t = (seed + Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export const testTasks: TaskRegistry = {
  seeded: (spec: { seed: number; spinMs?: number }) => (i) => {
    if (spec.spinMs) spin(spec.spinMs);
    return { row: i + 1, x: seeded(spec.seed, i) };
  },
  /** Which kind of thread computed the row. */
  where: (spec: { spinMs: number }) => (i) => {
    spin(spec.spinMs);
    return { row: i + 1, main: isMainThread };
  },
  failAt: (spec: { at: number }) => (i) => {
    if (i === spec.at) throw new RangeError(`row ${i + 1} divides by zero`);
    return i;
  },
  failPrepare: () => {
    throw new SyntaxError('model.sysml:3:7: expected ;');
  },
  hog: () => {
    const retained: number[][] = []; // freed with the run
    return (i) => {
      retained.push(new Array<number>(1 << 20).fill(i)); // ~8 MiB per row, kept
      return retained.length;
    };
  },
};

if (isPoolWorker()) serveWorker(testTasks);
