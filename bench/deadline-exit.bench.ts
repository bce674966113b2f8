// Time from the deadline to exit (issue #19, item 5): `assay` as a real process on a 13 MB model, on a
// 1.3M-step witness (a fixture engine answering with it), and on a wrapper engine that ignores cancel.
// Each case also runs with `--deadline 0.01` (settles at once): its time is the fixed cost of starting
// Node, reading the files and shutting down, so (time − deadline − fixed cost) ≈ deadline → exit.
// Run: `npm run bench -- deadline-exit`. BENCH_WITNESS_STEPS (default 1299999) sizes the witness.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'engines');
const STEPS = Number(process.env.BENCH_WITNESS_STEPS ?? 1_299_999);
const dir = mkdtempSync(join(tmpdir(), 'assay-deadline-bench-'));

function timed(args: string[]): Promise<{ seconds: number; code: number | null; said: string }> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out.length < 400 ? (out += c) : undefined));
  child.stderr.resume();
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ seconds: Number(process.hrtime.bigint() - start) / 1e9, code, said: out.split('\n')[0]!.slice(0, 160) })),
  );
}

async function report(name: string, args: string[], deadline: number): Promise<void> {
  const fixed = await timed([...args, '--deadline', '0.01']);
  const r = await timed([...args, '--deadline', String(deadline)]);
  const overrun = r.seconds - deadline - fixed.seconds;
  process.stdout.write(
    `${name}: --deadline ${deadline}: exit ${r.code} after ${r.seconds.toFixed(2)} s; fixed cost ${fixed.seconds.toFixed(2)} s; ` +
      `deadline → exit ≈ ${overrun.toFixed(2)} s\n  ${r.said}\n`,
  );
}

async function main(): Promise<void> {
  // 13 MB model.
  const lines = ['package Big {', '  private import ScalarValues::*;', '  part def S { attribute x : Integer = 1; }'];
  for (let i = 0, size = 0; size < 13e6; i++) {
    const line = `  part def P${i} { attribute a${i} : Integer = ${i} + 1; attribute b${i} : Real = a${i} * 2.5; }`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push('}');
  const big = join(dir, 'big.sysml');
  writeFileSync(big, lines.join('\n') + '\n');
  await report('13 MB model, bundled engine', ['evaluate', 'Big::S', '--model', big], 5);

  // Long witness: a counter model whose violation is STEPS steps away, and an engine answering with it.
  const counter = join(dir, 'counter.sysml');
  writeFileSync(counter, `package Counter {
	private import ScalarValues::*;
	part def Loop {
		attribute n : Integer := 0;
		assert constraint small { n < ${(STEPS + 1) / 2} }
		exhibit state s { entry; then a; state a; transition first a do assign n := n + 1 then b; state b; transition first b then a; }
	}
}
`);
  const steps: string[] = [];
  for (let i = 1; i <= STEPS; i++) steps.push(i % 2 ? `step ${i}: t1@s.a->b first of t1@s.a->b` : `step ${i}: t1@s.b->a first of t1@s.b->a`);
  const resultFile = join(dir, 'result.json');
  writeFileSync(resultFile, JSON.stringify({ claim: 'violated', strength: 'proved', witness: { schedules: [steps.join('\n')], at: STEPS } }));
  const witnessEngines = join(dir, 'witness.json');
  writeFileSync(witnessEngines, JSON.stringify([{ name: 'long', command: process.execPath, args: [join(FIXTURES, 'well-behaved.js')], env: { FIXTURE_NAME: 'long', FIXTURE_CONFIG: JSON.stringify({ resultFile }) } }]));
  await report(`${STEPS}-step witness, text output`, ['holds', 'Counter::Loop', '--model', counter, '--engines', witnessEngines], 20);
  await report(`${STEPS}-step witness, --json (prints all of it)`, ['holds', 'Counter::Loop', '--model', counter, '--engines', witnessEngines, '--json'], 20);

  // Wrapper engine: a shell script that starts node without exec; the node ignores cancel.
  const demo = join(dir, 'demo.sysml');
  writeFileSync(demo, 'package Demo { part def S; }\n');
  const wrapped = join(dir, 'wrapped.json');
  writeFileSync(wrapped, JSON.stringify([{ name: 'wrapped', command: join(FIXTURES, 'wrapper-deaf.sh'), args: [], env: { FIXTURE_NAME: 'wrapped', FIXTURE_NODE: process.execPath } }]));
  await report('wrapper engine ignoring cancel (2 s cancel grace)', ['holds', 'Demo::S', '--model', demo, '--engines', wrapped], 3);
}

void main();
