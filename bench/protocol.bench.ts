// Validated host↔engine round trips per second (covers requests, both sides validating every message),
// pipelined and sequential, beside a raw NDJSON pipe echo (the child frames lines and writes each back;
// the host frames and JSON.parses them; no JSON-RPC, no validation) measured in the same run, paced
// the same way. Goal: host ≥ 50% of raw when pipelined. Run: `npm run bench -- protocol`.
// The script is also its own child processes: `--engine` (serveEngine) and `--echo` (raw line echo).
//
// Both sides are warmed up (pipelined) before the timed phase, so the figure is the steady state and not
// the JIT's first thousands of calls. Besides the rates, the CPU time per round trip of the host and of
// the child (from /proc, Linux) is reported: on a shared machine it is steadier than the rates.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { EMBEDDED_LIBRARY_VERSION, connectToEngine, serveEngine, type CoversParams } from '../src/protocol';

type Child = ChildProcessByStdio<Writable, Readable, null>;

const PIPELINED = Number(process.env.BENCH_PIPELINED ?? 30000);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 2000);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 10000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
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

/** CPU µs a process has used so far (utime + stime, 10 ms ticks); NaN where /proc is missing. */
function processCpu(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** One side of a measurement: sends a request, counts the answers. */
interface Link {
  readonly pid: number;
  send(): void;
  /** Answers received so far. */
  readonly received: number;
  /** Resolves once `n` answers have been received. */
  until(n: number): Promise<void>;
  close(): Promise<void>;
}

/** The raw baseline: the host writes a request line, the echo sends it back, the host frames and parses it. */
function rawLink(): Link {
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
  return {
    pid: proc.pid!,
    send: () => void proc.stdin.write(line),
    get received() {
      return received;
    },
    until: (n) =>
      new Promise<void>((resolve) => {
        const check = () => (received >= n ? resolve() : (wake = check));
        check();
      }),
    close: async () => {
      proc.stdin.end();
      await new Promise((resolve) => proc.once('exit', resolve));
    },
  };
}

/** The host connection to a serveEngine child, every message validated on both sides. */
function validatedLink(): Link {
  const proc = child('--engine');
  const host = connectToEngine(proc.stdout, proc.stdin);
  let received = 0;
  let wake: (() => void) | undefined;
  const settled = () => {
    received++;
    wake?.();
  };
  return {
    pid: proc.pid!,
    send: () => void host.request('covers', params).result.then(settled, settled),
    get received() {
      return received;
    },
    until: (n) =>
      new Promise<void>((resolve) => {
        const check = () => (received >= n ? resolve() : (wake = check));
        check();
      }),
    close: async () => {
      host.dispose();
      await new Promise((resolve) => proc.once('exit', resolve));
    },
  };
}

/** `count` round trips: pipelined in batches of WINDOW (the next once all but WINDOW are back), or one at a time. */
async function drive(link: Link, count: number, pipelined: boolean): Promise<void> {
  const base = link.received;
  if (pipelined) {
    for (let sent = 0; sent < count; ) {
      const batch = Math.min(WINDOW, count - sent);
      for (let i = 0; i < batch; i++) link.send();
      sent += batch;
      await link.until(base + sent - WINDOW);
    }
    await link.until(base + count);
  } else {
    for (let i = 1; i <= count; i++) {
      link.send();
      await link.until(base + i);
    }
  }
}

/** One measurement: round trips per second, and CPU µs per round trip in the host and in the child. */
interface Figure {
  rate: number;
  hostCpu: number;
  childCpu: number;
}

async function measure(open: () => Link, count: number, pipelined: boolean): Promise<Figure> {
  const link = open();
  await drive(link, 1, false);
  await drive(link, WARM_UP, true);
  const started = process.hrtime.bigint();
  const host0 = process.cpuUsage();
  const child0 = processCpu(link.pid);
  await drive(link, count, pipelined);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const childCpu = processCpu(link.pid) - child0;
  const host = process.cpuUsage(host0);
  await link.close();
  return { rate: count / seconds, hostCpu: (host.user + host.system) / count, childCpu: childCpu / count };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  // The machine may be shared: interleave the measurements, keep every round, report best and median.
  const rounds: Record<'rawPipelined' | 'hostPipelined' | 'rawSequential' | 'hostSequential', Figure[]> = {
    rawPipelined: [],
    hostPipelined: [],
    rawSequential: [],
    hostSequential: [],
  };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.rawPipelined.push(await measure(rawLink, PIPELINED, true));
    rounds.hostPipelined.push(await measure(validatedLink, PIPELINED, true));
    rounds.rawSequential.push(await measure(rawLink, SEQUENTIAL, false));
    rounds.hostSequential.push(await measure(validatedLink, SEQUENTIAL, false));
  }
  const best = (fs: Figure[]) => Math.max(...fs.map((f) => f.rate));
  const ratios = (raw: Figure[], host: Figure[]) => raw.map((r, k) => host[k]!.rate / r.rate);
  const row = (name: string, raw: Figure[], host: Figure[], note: string) => {
    const r = ratios(raw, host);
    return (
      `${name.padEnd(11)} raw echo ${Math.round(best(raw)).toString().padStart(7)}/s   validated host↔engine ${Math.round(best(host)).toString().padStart(7)}/s (best)   ` +
      `${((100 * best(host)) / best(raw)).toFixed(0)}% of raw best/best, ${(100 * median(r)).toFixed(0)}% median of rounds (${r.map((x) => (100 * x).toFixed(0)).join(' ')})   ${note}`
    );
  };
  const cpu = (name: string, raw: Figure[], host: Figure[]) => {
    const m = (fs: Figure[], k: 'hostCpu' | 'childCpu') => median(fs.map((f) => f[k])).toFixed(1);
    return `${name.padEnd(11)} CPU µs per round trip (median): raw host ${m(raw, 'hostCpu')} + echo ${m(raw, 'childCpu')}; validated host ${m(host, 'hostCpu')} + engine ${m(host, 'childCpu')}`;
  };
  console.log(
    `round trips (covers request + response, ${JSON.stringify(params).length}-byte params), ${ROUNDS} rounds after ${WARM_UP} warm-up round trips; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
  console.log(row('pipelined', rounds.rawPipelined, rounds.hostPipelined, `(goal ≥ 50%; ${PIPELINED} requests, window ${WINDOW})`));
  console.log(row('sequential', rounds.rawSequential, rounds.hostSequential, `(${SEQUENTIAL} requests)`));
  console.log(cpu('pipelined', rounds.rawPipelined, rounds.hostPipelined));
  console.log(cpu('sequential', rounds.rawSequential, rounds.hostSequential));
}
