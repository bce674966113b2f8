// The behaviour questions asked of a real engine process over stdio: the engine's own server and
// dispatcher with the behaviour handlers added (bundled here as the dispatcher will hold them), so
// progress, cancel and the wire format are the engine's. Every witness that comes back is replayed.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { parse } from '../../../src/sysml';
import { prepareBehavior, replay, BehaviorError, type BehaviorQuestion } from '../../../src/sysml/behavior';

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'models', 'behavior');

interface Wire {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: { claim: string; strength: string; witness?: { schedules?: string[]; at?: number; feature?: string }; executions?: { schedules?: string[] }[] };
  error?: { code: string; message: string };
}

class Engine {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: Wire[] = [];
  private buffer = '';
  private waiters: { id: number; resolve: (m: Wire) => void }[] = [];
  constructor(path: string) {
    this.child = spawn(process.execPath, [path], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const m = JSON.parse(this.buffer.slice(0, nl)) as Wire;
        this.buffer = this.buffer.slice(nl + 1);
        this.received.push(m);
        this.waiters = this.waiters.filter((w) => (m.id === w.id ? (w.resolve(m), false) : true));
      }
    });
  }
  request(id: number, method: string, params: unknown): Promise<Wire> {
    const answer = new Promise<Wire>((resolve) => this.waiters.push({ id, resolve }));
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answer;
  }
  notify(method: string, params: unknown): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }
  close(): void {
    this.child.kill();
  }
}

describe('behaviour questions through an engine process', function () {
  this.timeout(60000);
  let dir: string;
  let engine: Engine;
  let id = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-behavior-engine-'));
    const entry = join(dir, 'main.ts');
    const src = join(ROOT, 'src', 'engine');
    writeFileSync(entry, [
      `import { ENGINE_QUESTIONS } from ${JSON.stringify(join(src, 'questions'))};`,
      `import { BEHAVIOR_QUESTIONS } from ${JSON.stringify(join(src, 'behavior-questions'))};`,
      `import { startEngineServer } from ${JSON.stringify(join(src, 'server'))};`,
      'startEngineServer({ ...ENGINE_QUESTIONS, ...BEHAVIOR_QUESTIONS });',
    ].join('\n'));
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: join(dir, 'engine.js'), external: ['z3-solver'], logLevel: 'warning' });
    engine = new Engine(join(dir, 'engine.js'));
  });
  after(() => {
    engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const model = (file: string, text = readFileSync(join(FIXTURES, file), 'utf8')) => ({ sources: { library: '2026-04', documents: [{ path: file, text }] } });
  const ask = (q: Partial<BehaviorQuestion> & { kind: string; subject: string }, file: string, text?: string) =>
    engine.request(++id, 'run', { question: { schedule: 'all', free: ['schedule'], ...q }, model: model(file, text), bounds: [{ name: 'depth', limit: 0 }, { name: 'memory', limit: 0 }], budget: {} });

  function replays(file: string, q: BehaviorQuestion, schedule: string) {
    const p = prepareBehavior([{ path: file, document: parse(readFileSync(join(FIXTURES, file), 'utf8')).document }], q);
    if (p instanceof BehaviorError) assert.fail(p.text);
    const r = replay(p.runtime, schedule);
    assert.ok(r.ok, r.ok ? '' : r.error);
    return r;
  }

  it('answers holds, outcomes and sensitive, with witnesses that replay', async () => {
    const holds = await ask({ kind: 'holds', subject: 'TrafficLight::TimedCrossing' }, 'traffic-light.sysml');
    assert.equal(holds.result?.claim, 'violated');
    const r = replays('traffic-light.sysml', { kind: 'holds', subject: 'TrafficLight::TimedCrossing', schedule: 'all', free: ['schedule'] }, holds.result!.witness!.schedules![0]!);
    assert.equal(r.steps.length, holds.result!.witness!.at);
    const outcomes = await ask({ kind: 'outcomes', subject: 'Race::Race' }, 'race.sysml');
    assert.equal(outcomes.result?.claim, 'outcomes');
    for (const e of outcomes.result!.executions!) replays('race.sysml', { kind: 'outcomes', subject: 'Race::Race', schedule: 'all', free: ['schedule'] }, e.schedules![0]!);
    const sensitive = await ask({ kind: 'sensitive', subject: 'Race::Race' }, 'race.sysml');
    assert.equal(sensitive.result?.claim, 'sensitive');
    assert.equal(sensitive.result?.witness?.feature, 'x');
  });

  it('refuses with unsupported and the place', async () => {
    const r = await ask({ kind: 'outcomes', subject: 'Decide::Dispatch' }, 'decide.sysml');
    assert.equal(r.error?.code, 'unsupported');
    assert.match(r.error!.message, /^decide\.sysml:\d+:\d+: 'sensorOk' has no value/);
  });

  it('reports progress and answers cancel with a budget error', async () => {
    // Two counters that also add to a shared sum: no reduction applies, tens of millions of states
    // (at 300 each, 360,000 states: the explorer could finish those before the cancel is sent).
    const text = `package C { action def Count {
      attribute c1 : ScalarValues::Integer := 0; attribute c2 : ScalarValues::Integer := 0; attribute s : ScalarValues::Integer := 0;
      first start; then fork; then l1; then l2;
      action l1 { first start; then while c1 < 3000 { assign c1 := c1 + 1; assign s := s + 1; } then done; } then j;
      action l2 { first start; then while c2 < 3000 { assign c2 := c2 + 1; assign s := s + 1; } then done; } then j;
      join j; then done; } }`;
    const myId = id + 1;
    const answer = ask({ kind: 'outcomes', subject: 'C::Count' }, 'c.sysml', text);
    await new Promise((r) => setTimeout(r, 1200));
    const progress = engine.received.filter((m) => m.method === 'progress' && m.params?.id === myId);
    assert.ok(progress.length >= 2, 'progress while exploring');
    assert.match(String(progress.at(-1)!.params!.text), /^[\d,]+ states$/);
    // (How fast it answers is measured by the engine's cancel bench, not asserted here.)
    engine.notify('cancel', { id: myId });
    const r = await answer;
    assert.equal(r.error?.code, 'budget');
    assert.match(r.error!.message, /^cancelled/);
  });
});
