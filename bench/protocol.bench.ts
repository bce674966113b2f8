// Validated host↔engine round trips per second (covers requests, both sides validating every message),
// pipelined and sequential, beside a raw NDJSON pipe echo (the child frames lines and writes each back;
// the host frames and JSON.parses them; no JSON-RPC, no validation) measured in the same run. Goal: host ≥ 50% of raw when pipelined. Run: `npm run bench -- protocol`.
// The script is also its own child processes: `--engine` (serveEngine) and `--echo` (raw line echo).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { loadavg } from 'node:os';
import type { Readable, Writable } from 'node:stream';

type Child = ChildProcessByStdio<Writable, Readable, Readable>;
import { EMBEDDED_LIBRARY_VERSION, connectToEngine, serveEngine, type CoversParams } from '../src/protocol';

const PIPELINED = Number(process.env.BENCH_PIPELINED ?? 10000);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WINDOW = 500;

const params: CoversParams = {
  question: { kind: 'holds', subject: 'Demo::Controller', schedule: 'fifo', free: ['schedule'], condition: { name: 'safe', text: 'speed < 10' } },
  model: { sources: { library: EMBEDDED_LIBRARY_VERSION, documents: [{ path: 'demo.sysml', text: 'package Demo { state def Controller; }' }] } },
};

/** Children report the CPU time they spent from their first input line to the end of their input. */
function reportCpuOnEnd(): void {
  let start: NodeJS.CpuUsage | undefined;
  process.stdin.once('data', () => (start = process.cpuUsage()));
  process.stdin.once('end', () => {
    const used = process.cpuUsage(start);
    process.stderr.write(`cpu ${used.user + used.system}\n`);
  });
}

if (process.argv.includes('--engine')) {
  reportCpuOnEnd();
  serveEngine({
    describe: () => ({ name: 'bench', version: '1', protocol: 1, answers: ['holds'] }),
    covers: () => ({ covers: true }),
    run: () => ({ claim: 'none', strength: 'not covered' }),
  });
} else if (process.argv.includes('--echo')) {
  reportCpuOnEnd();
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
  return spawn(process.execPath, [...extra, '--import', 'tsx', __filename, mode], { stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Waits for the child to exit; gives the CPU time (µs) it reported, passing its other stderr through. */
async function childCpu(proc: Child): Promise<number> {
  let text = '';
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (chunk: string) => (text += chunk));
  await new Promise((resolve) => proc.once('exit', resolve));
  const match = /^cpu (\d+)$/m.exec(text);
  const rest = text.replace(/^cpu \d+\n?/m, '');
  if (rest.length > 0) process.stderr.write(rest);
  return match ? Number(match[1]) : NaN;
}

/** One measurement: round trips per second, and CPU µs per round trip in the host and in the child. */
interface Figure {
  rate: number;
  hostCpu: number;
  childCpu: number;
}

/** The raw baseline: the host writes a request line, the echo sends it back, the host frames and parses it. */
async function rawEcho(count: number, pipelined: boolean): Promise<Figure> {
  const proc = child('--echo');
  const exited = childCpu(proc);
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
  const cpu = process.cpuUsage();
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
  const hostCpu = cpuMicros(cpu);
  proc.stdin.end();
  return { rate: count / seconds, hostCpu: hostCpu / count, childCpu: (await exited) / count };
}

function cpuMicros(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

/** The host connection to a serveEngine child, every message validated on both sides. */
async function validated(count: number, pipelined: boolean): Promise<Figure> {
  const proc = child('--engine');
  const exited = childCpu(proc);
  const host = connectToEngine(proc.stdout, proc.stdin);
  await host.request('describe', { protocols: [1] }).result;
  for (let i = 0; i < 200; i++) await host.request('covers', params).result; // warm-up
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  if (pipelined) {
    // Paced exactly like the raw echo: batches of WINDOW, the next one once all but WINDOW have come back.
    let done = 0;
    let wake: (() => void) | undefined;
    const settled = () => {
      done++;
      wake?.();
    };
    const until = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (done >= n ? resolve() : (wake = check));
        check();
      });
    for (let sent = 0; sent < count; ) {
      const batch = Math.min(WINDOW, count - sent);
      for (let i = 0; i < batch; i++) host.request('covers', params).result.then(settled, settled);
      sent += batch;
      await until(sent - WINDOW);
    }
    await until(count);
  } else {
    for (let i = 0; i < count; i++) await host.request('covers', params).result;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const hostCpu = cpuMicros(cpu);
  host.dispose();
  return { rate: count / seconds, hostCpu: hostCpu / count, childCpu: (await exited) / count };
}

async function main(): Promise<void> {
  // The machine is shared: interleave the measurements and keep each one's best of ROUNDS (and the
  // least CPU per round trip, which load disturbs less than the rate).
  const none: Figure = { rate: 0, hostCpu: Infinity, childCpu: Infinity };
  const best = { rawPipelined: none, hostPipelined: none, rawSequential: none, hostSequential: none };
  const keep = (a: Figure, b: Figure): Figure => ({ rate: Math.max(a.rate, b.rate), hostCpu: Math.min(a.hostCpu, b.hostCpu), childCpu: Math.min(a.childCpu, b.childCpu) });
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const raw = await rawEcho(PIPELINED, true);
    const host = await validated(PIPELINED, true);
    rates.push(host.rate / raw.rate);
    best.rawPipelined = keep(best.rawPipelined, raw);
    best.hostPipelined = keep(best.hostPipelined, host);
    best.rawSequential = keep(best.rawSequential, await rawEcho(SEQUENTIAL, false));
    best.hostSequential = keep(best.hostSequential, await validated(SEQUENTIAL, false));
  }
  const row = (name: string, raw: Figure, host: Figure) =>
    `${name.padEnd(11)} raw echo ${Math.round(raw.rate).toString().padStart(7)}/s   validated host↔engine ${Math.round(host.rate).toString().padStart(7)}/s   ${((100 * host.rate) / raw.rate).toFixed(0)}% of raw`;
  const cpu = (name: string, raw: Figure, host: Figure) =>
    `${name.padEnd(11)} CPU µs per round trip: raw host ${raw.hostCpu.toFixed(1)} + echo ${raw.childCpu.toFixed(1)}; validated host ${host.hostCpu.toFixed(1)} + engine ${host.childCpu.toFixed(1)}`;
  const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
  console.log(`round trips (covers request + response, ${JSON.stringify(params).length}-byte params), best of ${ROUNDS} rounds; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(row('pipelined', best.rawPipelined, best.hostPipelined) + `   (goal ≥ 50%; ${PIPELINED} requests, window ${WINDOW}; median ratio of a round ${(100 * median).toFixed(0)}%)`);
  console.log(row('sequential', best.rawSequential, best.hostSequential) + `   (${SEQUENTIAL} requests)`);
  console.log(cpu('pipelined', best.rawPipelined, best.hostPipelined));
  console.log(cpu('sequential', best.rawSequential, best.hostSequential));
}
