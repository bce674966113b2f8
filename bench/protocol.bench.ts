// Validated host↔engine round trips per second (covers requests, both sides validating every message),
// pipelined and sequential, beside a raw NDJSON pipe echo (the child frames lines and writes each back;
// the host frames and JSON.parses them; no JSON-RPC, no validation) measured in the same run. Goal: host ≥ 50% of raw when pipelined. Run: `npm run bench -- protocol`.
// The script is also its own child processes: `--engine` (serveEngine) and `--echo` (raw line echo).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

type Child = ChildProcessByStdio<Writable, Readable, null>;
import { EMBEDDED_LIBRARY_VERSION, connectToEngine, serveEngine, type CoversParams } from '../src/protocol';

const PIPELINED = Number(process.env.BENCH_PIPELINED ?? 10000);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WINDOW = 500;

const params: CoversParams = {
  question: { kind: 'holds', subject: 'Demo::Controller', schedule: 'fifo', free: ['schedule'], condition: { name: 'safe', text: 'speed < 10' } },
  model: { sources: { library: EMBEDDED_LIBRARY_VERSION, documents: [{ path: 'demo.sysml', text: 'package Demo { state def Controller; }' }] } },
};

if (process.argv.includes('--engine')) {
  serveEngine({
    describe: () => ({ name: 'bench', version: '1', protocol: 1, answers: ['holds'] }),
    covers: () => ({ covers: true }),
    run: () => ({ claim: 'none', strength: 'not covered' }),
  });
} else if (process.argv.includes('--echo')) {
  // Raw NDJSON echo: frames lines and writes each one back, no JSON-RPC, no validation.
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      process.stdout.write(buffered.slice(0, newline + 1));
      buffered = buffered.slice(newline + 1);
    }
  });
} else {
  void main();
}

function child(mode: string): Child {
  // BENCH_CHILD_ARGS: extra node flags for the children (e.g. --cpu-prof).
  const extra = process.env.BENCH_CHILD_ARGS ? process.env.BENCH_CHILD_ARGS.split(' ') : [];
  return spawn(process.execPath, [...extra, '--import', 'tsx', __filename, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
}

async function stop(proc: Child): Promise<void> {
  proc.stdin.end();
  await new Promise((resolve) => proc.once('exit', resolve));
}

/** The raw baseline: the host writes a request line, the echo sends it back, the host frames and parses it. */
async function rawEcho(count: number, pipelined: boolean): Promise<number> {
  const proc = child('--echo');
  const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'covers', params }) + '\n';
  let received = 0;
  let buffered = '';
  let wake: (() => void) | undefined;
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      received++;
    }
    wake?.();
  });
  const until = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (received >= n ? resolve() : (wake = check));
      check();
    });
  // Warm up the pipe.
  proc.stdin.write(line);
  await until(1);
  received = 0;
  const started = process.hrtime.bigint();
  if (pipelined) {
    for (let sent = 0; sent < count; ) {
      const batch = Math.min(WINDOW, count - sent);
      for (let i = 0; i < batch; i++) proc.stdin.write(line);
      sent += batch;
      await until(sent - WINDOW);
    }
    await until(count);
  } else {
    for (let i = 1; i <= count; i++) {
      proc.stdin.write(line);
      await until(i);
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await stop(proc);
  return count / seconds;
}

/** The host connection to a serveEngine child, every message validated on both sides. */
async function validated(count: number, pipelined: boolean): Promise<number> {
  const proc = child('--engine');
  const host = connectToEngine(proc.stdout, proc.stdin);
  await host.request('describe', { protocols: [1] }).result;
  for (let i = 0; i < 200; i++) await host.request('covers', params).result; // warm-up
  const started = process.hrtime.bigint();
  if (pipelined) {
    // At most WINDOW requests in flight, like the raw echo.
    let inFlight = 0;
    let done = 0;
    let wake: (() => void) | undefined;
    const settled = () => {
      inFlight--;
      done++;
      wake?.();
    };
    for (let i = 0; i < count; i++) {
      if (inFlight >= WINDOW) await new Promise<void>((resolve) => (wake = resolve));
      inFlight++;
      host.request('covers', params).result.then(settled, settled);
    }
    while (done < count) await new Promise<void>((resolve) => (wake = resolve));
  } else {
    for (let i = 0; i < count; i++) await host.request('covers', params).result;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  host.dispose();
  await new Promise((resolve) => proc.once('exit', resolve));
  return count / seconds;
}

async function main(): Promise<void> {
  // The machine is shared: interleave the measurements and keep each one's best of ROUNDS.
  const best = { rawPipelined: 0, hostPipelined: 0, rawSequential: 0, hostSequential: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    best.rawPipelined = Math.max(best.rawPipelined, await rawEcho(PIPELINED, true));
    best.hostPipelined = Math.max(best.hostPipelined, await validated(PIPELINED, true));
    best.rawSequential = Math.max(best.rawSequential, await rawEcho(SEQUENTIAL, false));
    best.hostSequential = Math.max(best.hostSequential, await validated(SEQUENTIAL, false));
  }
  const row = (name: string, raw: number, host: number) =>
    `${name.padEnd(11)} raw echo ${Math.round(raw).toString().padStart(7)}/s   validated host↔engine ${Math.round(host).toString().padStart(7)}/s   ${((100 * host) / raw).toFixed(0)}% of raw`;
  console.log(`round trips (covers request + response, ${JSON.stringify(params).length}-byte params), best of ${ROUNDS} rounds`);
  console.log(row('pipelined', best.rawPipelined, best.hostPipelined) + `   (goal ≥ 50%; ${PIPELINED} requests, window ${WINDOW})`);
  console.log(row('sequential', best.rawSequential, best.hostSequential) + `   (${SEQUENTIAL} requests)`);
}
