// Startup-to-output time of `node dist/adapter.js capabilities` against the local test service:
// from spawning the process to its envelope on stdout, and to its exit. `npm run bench -- adapter`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTaskService } from '../test/fixtures/task-service/service';

const adapter = join(__dirname, '..', 'dist', 'adapter.js');
const runs = Number(process.env['ADAPTER_BENCH_RUNS'] ?? 30);

function once(env: NodeJS.ProcessEnv): Promise<{ output: number; exit: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let output = 0;
    let text = '';
    const child = spawn(process.execPath, [adapter, 'capabilities'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', (chunk: Buffer) => {
      if (output === 0) output = Number(process.hrtime.bigint() - started) / 1e6;
      text += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const exit = Number(process.hrtime.bigint() - started) / 1e6;
      const envelope = JSON.parse(text) as { ok: boolean };
      if (code !== 0 || !envelope.ok) reject(new Error(`capabilities failed (exit ${code}): ${text}`));
      else resolve({ output, exit });
    });
  });
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const service = await startTaskService();
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], SERVICE_URL: service.url };
    await once(env); // warm the file cache
    const outputs: number[] = [];
    const exits: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await once(env);
      outputs.push(r.output);
      exits.push(r.exit);
    }
    outputs.sort((a, b) => a - b);
    exits.sort((a, b) => a - b);
    const f = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`adapter capabilities, ${runs} runs (node ${process.version}):`);
    console.log(`  spawn → envelope on stdout: median ${f(quantile(outputs, 0.5))}, p95 ${f(quantile(outputs, 0.95))}`);
    console.log(`  spawn → process exit:       median ${f(quantile(exits, 0.5))}, p95 ${f(quantile(exits, 0.95))}`);
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
