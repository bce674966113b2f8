// Fuzzes the host's reading of engine output (`npm run fuzz -- reader`): random and mutated lines go
// through the line framing, the line classifier, and whole host connections. Nothing may throw, hang or
// leave an unhandled rejection. FUZZ_SEED=<n> replays a run; FUZZ_LINES=<n> sets the count (default 1,000,000).
import { PassThrough } from 'node:stream';
import { LineSplitter, classifyEngineLine, connectToEngine, type EngineLineVerdict, type Method } from '../../src/protocol';

const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const total = Number(process.env.FUZZ_LINES ?? 1_000_000);
let state = seed || 1;
/** xorshift32: reproducible from the seed. */
function rand(): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
}
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

let failures = 0;
process.on('unhandledRejection', (reason) => {
  failures++;
  console.error('unhandled rejection:', reason);
});

// ---- line generation ------------------------------------------------------------------------------

const witness = { schedules: ['step 1: t1@a first of t1@a, t2@b'], at: 1, feature: 'x', inputs: [{ name: 'x', value: 1, unit: 'kg' }] };
const seeds: object[] = [
  { jsonrpc: '2.0', id: 1, result: { name: 'e', version: '1', protocol: 1, answers: ['holds'], model: ['sources', 'graphs:1'], authority: 'proved', concurrent: true } },
  { jsonrpc: '2.0', id: 2, result: { covers: false, reason: 'no' } },
  { jsonrpc: '2.0', id: 3, result: { claim: 'violated', strength: 'witnessed', witness, bounds: [{ name: 'depth', limit: 3, reached: true }], elapsed: 5 } },
  { jsonrpc: '2.0', id: 3, result: { claim: 'table', strength: 'proved', values: [{ name: 'v@1', value: 2 }], inputs: [{ name: 'x', free: true }], executions: [witness] } },
  { jsonrpc: '2.0', id: 4, error: { code: 'budget', message: 'cancelled' } },
  { jsonrpc: '2.0', method: 'progress', params: { id: 3, runs: 1, depth: 2, steps: 3, text: 'going' } },
  { jsonrpc: '2.0', method: 'progress', params: { id: 99 } },
];
const weird = [null, true, false, 0, -1, 1.5, 1e308, '', 'x', [], {}, [[[]]], { a: 1 }, '\u0000', '\ud800', 'é', 2 ** 53 + 1];
const keys = ['jsonrpc', 'id', 'result', 'error', 'method', 'params', 'claim', 'strength', 'covers', 'code', 'message', '__proto__', 'constructor'];

function mutateValue(value: unknown, depth = 0): unknown {
  if (depth > 6 || rand() < 0.15) return pick(weird);
  if (Array.isArray(value)) {
    const copy = value.map((v) => (rand() < 0.3 ? mutateValue(v, depth + 1) : v));
    if (rand() < 0.2) copy.push(pick(weird));
    if (rand() < 0.2) copy.pop();
    return copy;
  }
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of Object.keys(copy)) {
      const roll = rand();
      if (roll < 0.1) delete copy[key];
      else if (roll < 0.35) copy[key] = mutateValue(copy[key], depth + 1);
    }
    if (rand() < 0.15) copy[pick(keys)] = pick(weird);
    return copy;
  }
  return rand() < 0.5 ? pick(weird) : value;
}

function mutateText(text: string): string {
  const chars = [...text];
  const edits = 1 + int(4);
  for (let i = 0; i < edits && chars.length > 0; i++) {
    const at = int(chars.length);
    const roll = rand();
    if (roll < 0.3) chars.splice(at, 1);
    else if (roll < 0.6) chars.splice(at, 0, pick(['{', '}', '"', ',', ':', '[', ']', '\\', '\u0000', '\r', 'é', '😀', ' ', '0']));
    else if (roll < 0.8) chars[at] = String.fromCharCode(int(0x3000));
    else chars.length = at; // truncated
  }
  return chars.join('');
}

function randomBytesLine(): string {
  const length = int(200);
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(int(256));
  return s;
}

function nextLine(): string {
  const roll = rand();
  if (roll < 0.2) return JSON.stringify(pick(seeds));
  if (roll < 0.55) return JSON.stringify(mutateValue(pick(seeds)));
  if (roll < 0.8) return mutateText(JSON.stringify(pick(seeds)));
  if (roll < 0.9) return randomBytesLine();
  if (roll < 0.905) return '['.repeat(int(5000)) + ']'.repeat(int(5000)); // deep nesting
  if (roll < 0.91) return JSON.stringify({ jsonrpc: '2.0', id: 3, result: { claim: 'holds', strength: 'proved', reason: 'x'.repeat(int(200_000)) } });
  return JSON.stringify(pick(seeds)) + JSON.stringify(pick(seeds)); // two objects on one line
}

// ---- 1 and 2. every line through the host's framing (random chunk boundaries) and classifier --------

const methods: Record<number, Method> = { 1: 'describe', 2: 'covers', 3: 'run' };
const methodOf = (id: number) => methods[id];
const verdicts = new Map<EngineLineVerdict['kind'] | 'overlong', number>();
const count = (kind: EngineLineVerdict['kind'] | 'overlong') => verdicts.set(kind, (verdicts.get(kind) ?? 0) + 1);
let framedCount = 0;
const splitter = new LineSplitter(
  {
    line: (line) => {
      framedCount++;
      try {
        count(classifyEngineLine(line, methodOf, 5).kind);
      } catch (error) {
        failures++;
        if (failures < 5) console.error(`classifier threw on ${JSON.stringify(line.slice(0, 200))}:`, error);
      }
    },
    overlong: () => {
      framedCount++;
      count('overlong');
    },
  },
  150_000,
);
const started = Date.now();
let pendingText: string[] = [];
let pendingLength = 0;
const flush = () => {
  const bytes = Buffer.from(pendingText.join(''));
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + int(rand() < 0.1 ? 100_000 : 2000);
    splitter.push(bytes.subarray(at, at + size)); // cuts through lines and through UTF-8 sequences
    at += size;
  }
  pendingText = [];
  pendingLength = 0;
};
for (let i = 0; i < total; i++) {
  const line = nextLine().replace(/\n/g, ' ') + (rand() < 0.01 ? '\r\n' : '\n');
  pendingText.push(line);
  pendingLength += line.length;
  if (pendingLength > 1_000_000) flush();
}
flush();
if (framedCount !== total) {
  failures++;
  console.error(`the framing produced ${framedCount} lines from ${total}`);
}
const classifiedIn = Date.now() - started;

// ---- 3. whole host connections fed mutated output in random chunks --------------------------------

async function session(lines: string[]): Promise<void> {
  const toHost = new PassThrough();
  const toEngine = new PassThrough();
  toEngine.resume(); // discard what the host writes
  const host = connectToEngine(toHost, toEngine, { maxLineBytes: 100_000 });
  host.onFault(() => {});
  host.onWarning(() => {});
  const requests = [
    host.request('describe', { protocols: [1] }),
    host.request('covers', { question: { kind: 'holds', subject: 'S', schedule: 'fifo', free: [] }, model: {} }),
    host.request('run', { question: { kind: 'holds', subject: 'S', schedule: 'fifo', free: [] }, model: {}, bounds: [], budget: {} }, () => {}),
  ];
  const data = Buffer.from(lines.join('\n') + (rand() < 0.5 ? '\n' : ''));
  for (let at = 0; at < data.length; ) {
    const size = 1 + int(400);
    toHost.write(data.subarray(at, at + size));
    at += size;
    if (rand() < 0.05) requests[int(3)]!.cancel();
  }
  toHost.end();
  const settled = await Promise.race([
    Promise.allSettled(requests.map((r) => r.result)).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
  ]);
  if (!settled) {
    failures++;
    console.error('a request never settled after the engine output ended');
  }
  host.dispose();
}

async function sessions(): Promise<number> {
  let fed = 0;
  for (let s = 0; s < 500; s++) {
    const lines = Array.from({ length: 1 + int(40) }, () => nextLine().replace(/\n/g, ' '));
    fed += lines.length;
    await session(lines);
  }
  return fed;
}

void sessions().then((fed) => {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const kinds = [...verdicts].map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`reader fuzz (seed ${seed}): ${framedCount} of ${total} lines framed from random chunks and classified in ${(classifiedIn / 1000).toFixed(1)} s (${kinds}); ${fed} more lines through 500 live host connections; ${seconds} s in all`);
  if (failures > 0) {
    console.error(`${failures} failures`);
    process.exitCode = 1;
  }
});
