// The benches' control for two workers: a pure compute loop on this thread, then split over this thread
// and a worker. On a machine whose second core is free it is ~2x faster split; what it gets says what
// two workers can get on this shared machine at that moment.
import { Worker } from 'node:worker_threads';

const LOOP = 'function work(n) { let x = 0; for (let i = 0; i < n; i++) x += Math.sqrt(i) * (i & 7); return x; }';
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const work = new Function('n', `${LOOP}; return work(n);`) as (n: number) => number;

export async function controlSpeedUp(): Promise<number> {
  const n = 4e7;
  const worker = new Worker(`${LOOP}; require('node:worker_threads').parentPort.on('message', (n) => require('node:worker_threads').parentPort.postMessage(work(n)));`, { eval: true });
  const ask = (k: number) => new Promise<unknown>((resolve) => { worker.once('message', resolve); worker.postMessage(k); });
  await ask(1e6);
  work(1e6);
  let t = performance.now();
  work(n);
  const one = performance.now() - t;
  t = performance.now();
  const other = ask(n / 2);
  work(n / 2);
  await other;
  const two = performance.now() - t;
  await worker.terminate();
  return one / two;
}
