// Cancel settle time through the host: from `run.cancel()` (protocol `cancel` notification) to the run's
// settled event, for a cooperative engine (goal < 200 ms) and one that ignores cancel (goal: grace +
// 100 ms, the host kills it). Run: `npm run bench -- cancel`. The script is also its own engines.
import { Host, type EngineEntry, type RunOutcome } from '../src/host';
import { EngineError, serveEngine } from '../src/protocol';

const GRACE_MS = Number(process.env.BENCH_GRACE_MS ?? 500);
const COOPERATIVE_RUNS = Number(process.env.BENCH_COOPERATIVE ?? 20);
const IGNORING_RUNS = Number(process.env.BENCH_IGNORING ?? 5);

const mode = process.argv.find((a) => a === '--cooperative' || a === '--ignoring');
if (mode) {
  serveEngine({
    describe: () => ({ name: mode.slice(2), version: '1', protocol: 1, answers: ['holds'], concurrent: true }),
    covers: () => ({ covers: true }),
    run: (_params, request) =>
      new Promise((_, reject) => {
        // The cooperative engine stops at once; the other one never looks at its token.
        if (mode === '--cooperative') request.token.onCancellationRequested(() => reject(new EngineError('budget', 'cancelled by the host')));
      }),
  });
} else {
  void main();
}

function entry(name: string): EngineEntry {
  return { name, command: process.execPath, args: ['--import', 'tsx', __filename, `--${name}`] };
}

async function settleTimes(host: Host, engine: string, runs: number, expected: RunOutcome['status']): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = host.ask({ question: { kind: 'holds', subject: 'S', schedule: 'fifo', free: [] }, documents: [], engine });
    await new Promise<void>((resolve) => {
      const off = host.onEvent((e) => {
        if (e.type === 'started' && e.run === run.id) {
          off();
          resolve();
        }
      });
    });
    await new Promise((r) => setTimeout(r, 20)); // the engine has read the run
    const cancelledAt = performance.now();
    run.cancel();
    const outcome = await run.settled;
    times.push(performance.now() - cancelledAt);
    if (outcome.status !== expected) throw new Error(`expected ${expected}, got ${JSON.stringify(outcome)}`);
  }
  return times;
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms (${times.length} runs)`;
}

async function main(): Promise<void> {
  const host = new Host({ entries: [entry('cooperative'), entry('ignoring')], cancelGraceMs: GRACE_MS });
  try {
    const cooperative = await settleTimes(host, 'cooperative', COOPERATIVE_RUNS, 'cancelled');
    const ignoring = await settleTimes(host, 'ignoring', IGNORING_RUNS, 'cancelled');
    console.log(`cooperative engine: cancel → settled ${summary(cooperative)}   (goal < 200 ms)`);
    console.log(`engine ignoring cancel: cancel → settled ${summary(ignoring)}   (grace ${GRACE_MS} ms; goal ≤ grace + 100 ms)`);
  } finally {
    await host.shutdown();
  }
}
