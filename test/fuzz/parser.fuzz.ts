// Fuzzes the SysML/KerML parser with mutated corpus files: deleted, duplicated, swapped and replaced
// tokens, truncations, spliced fragments of other files, and random token soup. Every input must give
// a result (diagnostics, never an exception) whose ranges (of its diagnostics and of every node) lie
// inside the text, within 2 s.
// Parsing runs in a worker so a hang is caught by a timer and reported with the input that caused it.
//
//   npm run fuzz -- parser                       (5000 cases, seed 1)
//   FUZZ_CASES=20000 FUZZ_SEED=7 npm run fuzz -- parser
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { tokenize, KEYWORDS } from '../../src/sysml/lexer';
import type { Language } from '../../src/sysml/ast';

const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'sysml-release-2026-04');
const CASES = Number(process.env.FUZZ_CASES ?? 5000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const TIME_LIMIT_MS = 2000;

interface Sample { readonly path: string; readonly text: string; readonly language: Language }

function corpusFiles(dir: string, out: Sample[] = []): Sample[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) corpusFiles(path, out);
    else if (name.endsWith('.sysml') || name.endsWith('.kerml')) {
      out.push({ path, text: readFileSync(path, 'utf8'), language: name.endsWith('.kerml') ? 'kerml' : 'sysml' });
    }
  }
  return out;
}

// Small deterministic PRNG (mulberry32) so a failing case can be replayed from its seed.
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYMBOLS = ['{', '}', '(', ')', '[', ']', ';', ',', ':', '::', ':>', ':>>', '::>', ':=', '=', '==', '.', '..',
  '.?', '->', '#', '@', '@@', '*', '**', '~', '?', '??', '<', '>', '$', '/*', '*/', '"', "'", '//', '\n'];

function mutate(sample: Sample, all: Sample[], rnd: () => number): string {
  let text = sample.text;
  const steps = 1 + Math.floor(rnd() * 4);
  for (let s = 0; s < steps; s++) {
    const ts = tokenize(text, sample.language);
    const n = ts.count - 1; // without EOF
    const pick = (): number => Math.floor(rnd() * Math.max(1, n));
    const tok = (i: number): string => text.slice(ts.starts[i]!, ts.ends[i]!);
    const op = Math.floor(rnd() * 9);
    if (n === 0 || op === 0) {
      // truncate anywhere
      text = text.slice(0, Math.floor(rnd() * text.length));
      continue;
    }
    const i = pick();
    const a = ts.starts[i]!;
    const b = ts.ends[i]!;
    switch (op) {
      case 1: text = text.slice(0, a) + text.slice(b); break; // delete a token
      case 2: text = text.slice(0, b) + ' ' + tok(i) + text.slice(b); break; // duplicate a token
      case 3: { // swap with the next token
        if (i + 1 >= n) break;
        const c = ts.starts[i + 1]!;
        const d = ts.ends[i + 1]!;
        text = text.slice(0, a) + tok(i + 1) + text.slice(b, c) + tok(i) + text.slice(d);
        break;
      }
      case 4: text = text.slice(0, a) + KEYWORDS[Math.floor(rnd() * KEYWORDS.length)] + text.slice(b); break; // replace with a keyword
      case 5: text = text.slice(0, a) + SYMBOLS[Math.floor(rnd() * SYMBOLS.length)] + text.slice(b); break; // replace with a symbol
      case 6: { // delete a run of tokens
        const j = Math.min(n - 1, i + 1 + Math.floor(rnd() * 20));
        text = text.slice(0, a) + text.slice(ts.ends[j]!);
        break;
      }
      case 7: { // splice a fragment of another file
        const other = all[Math.floor(rnd() * all.length)]!.text;
        const from = Math.floor(rnd() * other.length);
        text = text.slice(0, a) + other.slice(from, from + Math.floor(rnd() * 400)) + text.slice(a);
        break;
      }
      case 8: { // move a block of text elsewhere
        const len = Math.floor(rnd() * 300);
        const chunk = text.slice(a, a + len);
        const rest = text.slice(0, a) + text.slice(a + len);
        const at = Math.floor(rnd() * rest.length);
        text = rest.slice(0, at) + chunk + rest.slice(at);
        break;
      }
    }
  }
  return text;
}

function tokenSoup(rnd: () => number): string {
  const parts: string[] = [];
  const len = Math.floor(rnd() * 400);
  for (let i = 0; i < len; i++) {
    const r = rnd();
    if (r < 0.4) parts.push(KEYWORDS[Math.floor(rnd() * KEYWORDS.length)]!);
    else if (r < 0.75) parts.push(SYMBOLS[Math.floor(rnd() * SYMBOLS.length)]!);
    else if (r < 0.9) parts.push(`n${Math.floor(rnd() * 5)}`);
    else parts.push(String(Math.floor(rnd() * 100)));
  }
  return parts.join(rnd() < 0.5 ? ' ' : '');
}

// The worker parses and checks one input per message.
const WORKER = `
require('tsx/cjs');
const { parentPort } = require('node:worker_threads');
const { parse, walk } = require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'sysml', 'index.ts'))});
parentPort.on('message', ({ text, language }) => {
  const t0 = performance.now();
  try {
    const r = parse(text, { language });
    const ms = performance.now() - t0;
    let problem = null;
    if (!r.document || r.document.kind !== 'Document' || !Array.isArray(r.errors)) problem = 'malformed result';
    for (const e of r.errors) {
      const g = e.range;
      if (typeof e.message !== 'string' || e.message === '') problem = 'empty message';
      else if (!(g.start >= 0 && g.start <= g.end && g.end <= text.length)) problem = 'range outside the text: ' + JSON.stringify(g);
      else if (!(g.line >= 1 && g.column >= 1 && g.endLine >= g.line)) problem = 'bad line/column: ' + JSON.stringify(g);
      if (problem) break;
    }
    // Every node's range and name range (made when read) lies inside the text, and the tree
    // writes out as JSON.
    if (!problem) walk(r.document, (node) => {
      for (const g of [node.range, node.nameRange]) {
        if (g === undefined || g === null) continue;
        if (!(g.start >= 0 && g.start <= g.end && g.end <= text.length && g.line >= 1 && g.column >= 1)) {
          problem = node.kind + ' range outside the text: ' + JSON.stringify(g);
          return false;
        }
      }
    });
    if (!problem) JSON.stringify(r.document);
    parentPort.postMessage({ ms, errors: r.errors.length, problem });
  } catch (error) {
    parentPort.postMessage({ ms: performance.now() - t0, errors: 0, problem: 'threw: ' + (error && error.stack || String(error)) });
  }
});
`;

interface Verdict { ms: number; errors: number; problem: string | null }

async function main(): Promise<void> {
  const samples = corpusFiles(CORPUS);
  if (samples.length === 0) throw new Error(`no corpus files under ${CORPUS}`);
  const rnd = prng(SEED);
  let worker = new Worker(WORKER, { eval: true });
  const ask = (text: string, language: Language): Promise<Verdict | 'timeout'> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.removeAllListeners('message');
        resolve('timeout');
      }, TIME_LIMIT_MS + 3000);
      worker.once('message', (v: Verdict) => {
        clearTimeout(timer);
        worker.off('error', onError);
        resolve(v);
      });
      const onError = (error: Error): void => {
        clearTimeout(timer);
        reject(error);
      };
      worker.once('error', onError);
      worker.postMessage({ text, language });
    });

  const started = performance.now();
  let withErrors = 0;
  let slowest = 0;
  const failures: string[] = [];
  for (let c = 0; c < CASES && failures.length < 5; c++) {
    const soup = c % 10 === 9;
    const sample = samples[Math.floor(rnd() * samples.length)]!;
    const language: Language = soup ? (rnd() < 0.5 ? 'sysml' : 'kerml') : sample.language;
    const text = soup ? tokenSoup(rnd) : mutate(sample, samples, rnd);
    const verdict = await ask(text, language);
    let problem: string | null = null;
    if (verdict === 'timeout') {
      problem = `no answer within ${TIME_LIMIT_MS} ms (hang)`;
      await worker.terminate();
      worker = new Worker(WORKER, { eval: true });
    } else {
      if (verdict.ms > slowest) slowest = verdict.ms;
      if (verdict.errors > 0) withErrors++;
      if (verdict.problem) problem = verdict.problem;
      else if (verdict.ms > TIME_LIMIT_MS) problem = `took ${verdict.ms.toFixed(0)} ms`;
    }
    if (problem !== null) {
      const file = join(tmpdir(), `assay-parser-fuzz-${SEED}-${c}.${language}`);
      writeFileSync(file, text);
      failures.push(`case ${c} (${soup ? 'token soup' : sample.path}): ${problem}\n  input saved to ${file}`);
    }
  }
  await worker.terminate();
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `parser fuzz: ${CASES} cases (seed ${SEED}) over ${samples.length} corpus files in ${seconds.toFixed(1)} s; ` +
    `${withErrors} gave diagnostics; slowest parse ${slowest.toFixed(1)} ms\n`,
  );
  if (failures.length > 0) {
    process.stdout.write(`FAILED:\n${failures.join('\n')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`parser fuzz: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
