// The deadline and Ctrl-C bound the whole question, the host's own work included (issue #19, item 5):
// the CLI parses the model and replays a witness on a worker thread, so a 13 MB model or a witness of
// hundreds of thousands of steps cannot keep it past the deadline. Real processes; no timing asserted
// beyond "it ends at all" well before the work it skipped would have.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PidTracker, fixtureEntry } from '../host/fixture-engines';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface CliRun { code: number | null; stdout: string; stderr: string }

function runCli(args: string[], onStderr?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ASSAY_CANCEL_GRACE_MS: '300' } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => {
    stderr += c;
    onStderr?.(stderr, child);
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A model whose counter `n` rises by one every second step, violating `n < limit` after 2·limit − 1 steps. */
function counterModel(limit: number): string {
  return `package Counter {
	private import ScalarValues::*;
	part def Loop {
		attribute n : Integer := 0;
		assert constraint small { n < ${limit} }
		exhibit state s {
			entry; then a;
			state a;
			transition first a do assign n := n + 1 then b;
			state b;
			transition first b then a;
		}
	}
}
`;
}

/** The violation's witness: a schedule every step of which the host's replay must take. */
function longWitness(steps: number): unknown {
  const lines: string[] = [];
  for (let i = 1; i <= steps; i++) lines.push(i % 2 ? `step ${i}: t1@s.a->b first of t1@s.a->b` : `step ${i}: t1@s.b->a first of t1@s.b->a`);
  return { claim: 'violated', strength: 'proved', witness: { schedules: [lines.join('\n')], at: steps }, reason: 'small fails' };
}

describe('cli: the deadline and Ctrl-C bound the host\'s own parsing and replay', function () {
  this.timeout(120_000);
  let dir: string;
  let pids: PidTracker;

  before(() => buildIfMissing('cli.js', 'model-worker.js'));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-whole-'));
    pids = new PidTracker();
  });
  afterEach(async () => {
    await pids.assertNoneRunning();
  });

  /** An engine that answers at once with the long witness. */
  function witnessEngine(steps: number): { engines: string; model: string } {
    const resultFile = join(dir, 'result.json');
    writeFileSync(resultFile, JSON.stringify(longWitness(steps)));
    const engines = join(dir, 'engines.json');
    writeFileSync(engines, JSON.stringify([fixtureEntry('well-behaved.js', pids, { name: 'long', config: { resultFile } })]));
    const model = join(dir, 'counter.sysml');
    writeFileSync(model, counterModel((steps + 1) / 2));
    return { engines, model };
  }

  it('Ctrl-C during the replay of a 400,000-step witness ends the replay: the answer stands unchecked (observed), naming the cancel; exit 0', async () => {
    const { engines, model } = witnessEngine(399_999);
    let sent = false;
    const r = await runCli(['holds', 'Counter::Loop', '--model', model, '--engines', engines, '--json', '--deadline', '600'], (stderr, child) => {
      if (!sent && stderr.includes('the host replays its witness (399999 steps)')) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    assert.ok(sent, `the CLI never said it replays the witness: ${r.stderr}`);
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout);
    assert.equal(answer.result.claim, 'violated');
    assert.equal(answer.standing.strength, 'observed');
    assert.match(answer.standing.reasons.join('\n'), /could not check the witness: the check was stopped before it finished: the user cancelled it/);
  });

  it('--deadline 4 with an 800,000-step witness: whichever phase the deadline finds the CLI in, the answer says so', async () => {
    // The phase depends on the machine's speed, never asserted: the engine still answering (budget),
    // the host's replay stopped by the deadline (observed, naming it), or a fast machine's finished
    // replay (proved). Each must be reported as what it is.
    const { engines, model } = witnessEngine(799_999);
    const r = await runCli(['holds', 'Counter::Loop', '--model', model, '--engines', engines, '--json', '--deadline', '4']);
    const answer = JSON.parse(r.stdout);
    if (r.stderr.includes('the host replays its witness')) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(answer.result.claim, 'violated');
      if (answer.standing.strength === 'observed') {
        // The engine answered in time; the host's replay is what the deadline stopped.
        assert.match(answer.standing.reasons.join('\n'), /the check was stopped before it finished: the deadline of 4 s passed/);
      } else {
        // The replay finished within the deadline: the witness reproduced, so the claim stands.
        assert.equal(answer.standing.strength, 'proved', JSON.stringify(answer.standing));
      }
    } else {
      // A slow machine: the engine was still answering.
      assert.equal(r.code, 4, r.stderr);
      assert.equal(answer.error.status, 'budget');
      assert.match(answer.error.message, /deadline of 4 s/);
    }
  });

  it('--deadline 3 on a 13 MB model: exit 4, budget, naming the deadline and what the host was doing', async () => {
    const lines = ['package Big {', '  private import ScalarValues::*;', '  part def S { attribute x : Integer = 1; }'];
    let size = 0;
    for (let i = 0; size < 13e6; i++) {
      const line = `  part def P${i} { attribute a${i} : Integer = ${i} + 1; attribute b${i} : Real = a${i} * 2.5; }`;
      lines.push(line);
      size += line.length + 1;
    }
    lines.push('}');
    const model = join(dir, 'big.sysml');
    writeFileSync(model, lines.join('\n') + '\n');
    const r = await runCli(['evaluate', 'Big::S', '--model', model, '--json', '--deadline', '3']);
    assert.equal(r.code, 4, r.stderr);
    const answer = JSON.parse(r.stdout);
    assert.equal(answer.error.status, 'budget');
    // The host's own parse (a worker thread) or, had it finished, the engine's read for covers.
    assert.match(answer.error.message, /the deadline of 3 s passed while (the host read the model \(1 file, 13\.0 MB\)|the engines were started and asked whether they cover it)/);
  });
});
