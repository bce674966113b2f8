// `assay sweep … --offload N` on the test task service (real worker processes), two figures:
//
// 1. A 10⁶-row sweep (OFFLOAD_BENCH_ROWS) in OFFLOAD_BENCH_SHARDS shards (default 4) with one worker
//    vs two workers (goal: two ≥ 1.7×). A "worker" is a slot: the worker command is a small wrapper
//    that takes one of W slot files before it runs `node dist/cli.js … --shard k/N` (the test service
//    starts every task at once; the slots stand for W worker machines, here this machine's 2 cores).
//    Each shard runs with --jobs 1. Pairs alternate which goes first; each pair gets the load average.
// 2. The cost per shard of submitting, polling, starting a worker and merging: a 64-row sweep in 1
//    and in 16 shards (enough slots for all), (t16 - t1) / 15.
//
// `npx tsx bench/offload.bench.ts` (after `npm run -s build`); OFFLOAD_BENCH_PAIRS (default 2).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTaskService } from '../test/fixtures/task-service/service';
import { controlSpeedUp } from './control';


const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const ROWS = Number(process.env.OFFLOAD_BENCH_ROWS ?? 1_000_000);
const SHARDS = Number(process.env.OFFLOAD_BENCH_SHARDS ?? 4);
const PAIRS = Number(process.env.OFFLOAD_BENCH_PAIRS ?? 2);

// The calc of bench/sweep.bench.ts.
const MODEL = `package SweepBench {
	private import ISQ::*;
	calc def Range {
		in v : SpeedValue;
		in m : MassValue;
		in p : PowerValue;
		attribute drag : ForceValue = 0.5 * 1.2 [kg/m^3] * 0.3 * 2.2 [m^2] * v ** 2;
		attribute rolling : ForceValue = 0.01 * m * 9.81 [m/s^2];
		attribute climb : ForceValue = m * 9.81 [m/s^2] * 0.02;
		attribute force : ForceValue = drag + rolling + climb;
		attribute hours : TimeValue = 50 [kW*h] / (force * v);
		return : LengthValue = if force * v > p ? 0 [m] else v * hours;
	}
}`;

/** Takes one of `slots` slot files (waiting while all are taken), runs the CLI, frees the slot. */
const SLOT_WRAPPER = `const fs = require('fs'); const { spawnSync } = require('child_process');
const [slots, dir, cli, ...args] = process.argv.slice(2);
let held;
for (;;) {
  for (let i = 0; i < Number(slots) && held === undefined; i++) {
    try { fs.closeSync(fs.openSync(dir + '/slot-' + i, 'wx')); held = dir + '/slot-' + i; } catch {}
  }
  if (held !== undefined) break;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}
const r = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
fs.unlinkSync(held);
process.exit(r.status ?? 1);
`;

interface Run {
  ms: number;
  timing: string;
  bytes: number;
}

function offload(serviceUrl: string, dir: string, rows: number, shards: number, slots: number): Promise<Run> {
  const out = join(dir, 'answer.json');
  const slotDir = mkdtempSync(join(dir, 'slots-'));
  const args = [
    CLI, 'sweep', 'SweepBench::Range', '--model', join(dir, 'bench.sysml'),
    '--bind', 'm=1500[kg]', '--bind', 'p=60[kW]', '--range', `v:SpeedValue:1[m/s]:${1 + (rows - 1) * 0.001}[m/s]:0.001`,
    '--jobs', '1', '--deadline', '3600', '--json', '--output', out,
    '--offload', String(shards), '--worker-command', `${process.execPath} ${join(dir, 'slot.js')} ${slots} ${slotDir} ${CLI}`,
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, SERVICE_URL: serviceUrl, ASSAY_OFFLOAD_TIMING: '1', ASSAY_OFFLOAD_POLL_MS: '50' } });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.resume();
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`offload exited ${code}: ${stderr.slice(-1000)}`));
      const bytes = statSync(out).size;
      rmSync(out);
      resolve({ ms, timing: /offload timing: (.*)/.exec(stderr)?.[1] ?? '?', bytes });
    }),
  );
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'assay-offload-bench-'));
  writeFileSync(join(dir, 'bench.sysml'), MODEL);
  writeFileSync(join(dir, 'slot.js'), SLOT_WRAPPER);
  const service = await startTaskService();
  try {
    // The per-shard cost first (small, so warm-up and load matter less): 1 vs 16 shards of 64 rows.
    await offload(service.url, dir, 64, 1, 16);
    const small: { one: number; many: number; load: number }[] = [];
    for (let k = 0; k < 3; k++) {
      const load = loadavg()[0]!;
      const one = (await offload(service.url, dir, 64, 1, 16)).ms;
      const many = (await offload(service.url, dir, 64, 16, 16)).ms;
      small.push({ one, many, load });
    }
    for (const s of small) console.log(`64 rows: 1 shard ${s.one.toFixed(0)} ms, 16 shards ${s.many.toFixed(0)} ms → ${((s.many - s.one) / 15).toFixed(0)} ms per extra shard (load ${s.load.toFixed(2)})`);
    console.log(`per extra shard (median): ${median(small.map((s) => (s.many - s.one) / 15)).toFixed(0)} ms`);

    const pairs: { one: Run; two: Run; load: number; control: number }[] = [];
    for (let k = 0; k < PAIRS; k++) {
      const load = loadavg()[0]!;
      const control = await controlSpeedUp();
      const first = k % 2 === 0 ? 1 : 2;
      const a = await offload(service.url, dir, ROWS, SHARDS, first);
      const b = await offload(service.url, dir, ROWS, SHARDS, 3 - first);
      const pair = { load, control, one: first === 1 ? a : b, two: first === 1 ? b : a };
      pairs.push(pair);
      console.log(`pair ${k + 1} (load ${load.toFixed(2)}, control ${control.toFixed(2)}×): 1 worker ${(pair.one.ms / 1000).toFixed(1)} s [${pair.one.timing}], 2 workers ${(pair.two.ms / 1000).toFixed(1)} s [${pair.two.timing}] → ${(pair.one.ms / pair.two.ms).toFixed(2)}×`);
    }
    console.log(
      `${ROWS} rows in ${SHARDS} shards (answer ${(pairs[0]!.one.bytes / 1e6).toFixed(0)} MB of JSON), ${PAIRS} pairs on ${cpus().length} CPUs: ` +
        `1 worker median ${(median(pairs.map((p) => p.one.ms)) / 1000).toFixed(1)} s, 2 workers median ${(median(pairs.map((p) => p.two.ms)) / 1000).toFixed(1)} s, ` +
        `speed-up median ${median(pairs.map((p) => p.one.ms / p.two.ms)).toFixed(2)}×, control median ${median(pairs.map((p) => p.control)).toFixed(2)}× (load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} at the end)`,
    );
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
