// The reference engine process: expression evaluations per second (one question per request, and
// inside one run), and how fast a running sweep or solve answers `cancel` (goal: within 100 ms).
import { cpus, loadavg } from 'node:os';
import { EngineProcess, modelOf, question, runParams } from '../test/engine/engine-process';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} CPUs`);
  const engine = new EngineProcess();
  let id = 0;
  try {
    const vehicle = modelOf('vehicle.sysml');
    const ask = () => engine.request(++id, 'run', runParams(question('evaluate', 'VehicleModel::Vehicle::totalMass', { bindings: [{ name: 'engine.mass', value: id, unit: 'kg' }] }), vehicle));
    for (let i = 0; i < 50; i++) await ask(); // warm-up

    // One question at a time: round trip of a run request (JSON, validation, lookup, evaluation).
    const n = 500;
    let t = performance.now();
    for (let i = 0; i < n; i++) await ask();
    let ms = performance.now() - t;
    console.log(`evaluate, one at a time: ${Math.round((n / ms) * 1000)} questions/s (${(ms / n).toFixed(2)} ms each)`);

    // Many in flight: the engine's throughput when the host pipelines questions.
    t = performance.now();
    await Promise.all(Array.from({ length: n }, () => ask()));
    ms = performance.now() - t;
    console.log(`evaluate, ${n} in flight: ${Math.round((n / ms) * 1000)} questions/s`);

    // Inside one run: a sweep of y = x * x + 1 evaluates the expression once per row.
    const rows = 200_000;
    const sweep = question('sweep', 'Long::y', { sweep: { ranges: [{ parameter: 'x', type: 'Real', from: 1, to: rows, step: 1 }] } });
    t = performance.now();
    const r = await engine.request(++id, 'run', runParams(sweep, modelOf('long.sysml'), { jobs: 1 }));
    ms = performance.now() - t;
    if (!r.result) throw new Error(JSON.stringify(r.error));
    console.log(`expression x * x + 1 in a sweep (jobs=1, table included): ${Math.round((rows / ms) * 1000)} evaluations/s`);

    // Cancel latency: from writing `cancel` to reading the answer.
    const longSweep = question('sweep', 'Long::y', { sweep: { ranges: [{ parameter: 'x', type: 'Real', from: 0, to: 499999, step: 1 }] } });
    for (const jobs of [1, 2]) {
      const latencies: number[] = [];
      for (let k = 0; k < 5; k++) {
        const rid = ++id;
        const answer = engine.request(rid, 'run', runParams(longSweep, modelOf('long.sysml'), { jobs }));
        await engine.next((m) => m.method === 'progress' && m.params?.id === rid);
        await new Promise((res) => setTimeout(res, 200));
        const sent = performance.now();
        engine.cancel(rid);
        const a = await answer;
        latencies.push(performance.now() - sent);
        if (a.error?.code !== 'budget') throw new Error(`expected budget, got ${JSON.stringify(a).slice(0, 200)}`);
      }
      console.log(`cancel mid-sweep (jobs=${jobs}): median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (goal <= 100 ms)`);
    }
    const solveLatencies: number[] = [];
    for (let k = 0; k < 5; k++) {
      const rid = ++id;
      const answer = engine.request(rid, 'run', runParams(question('satisfiable', 'Long::Fermat'), modelOf('long.sysml')));
      await new Promise((res) => setTimeout(res, k === 0 ? 1000 : 300)); // the first solve loads z3
      const sent = performance.now();
      engine.cancel(rid);
      await answer;
      solveLatencies.push(performance.now() - sent);
    }
    console.log(`cancel mid-solve: median ${median(solveLatencies).toFixed(1)} ms, max ${Math.max(...solveLatencies).toFixed(1)} ms (goal <= 100 ms)`);
  } finally {
    await engine.close();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
