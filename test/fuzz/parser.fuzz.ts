// Fuzzes the SysML/KerML parser with mutated corpus files: deleted, duplicated, swapped and replaced
// tokens, truncations, spliced fragments of other files, and random token soup. Every input must give
// a result (diagnostics, never an exception) whose ranges (of its diagnostics and of every node) lie
// inside the text, within 2 s, and whose names resolve without an exception. One case in five is a long
// operator chain or deep nesting (see longChain).
// Parsing runs in a worker so a hang is caught by a timer and reported with the input that caused it.
//
//   npm run fuzz -- parser                       (5000 cases, seed 1)
//   FUZZ_CASES=20000 FUZZ_SEED=7 npm run fuzz -- parser
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Language } from '../../src/sysml/ast';
import { hostileText, prng, type Sample } from './hostile-text';

const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'sysml-release-2026-04');
const CASES = Number(process.env.FUZZ_CASES ?? 5000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const TIME_LIMIT_MS = 2000;

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

// The worker parses and checks one input per message; its stack is about the size of a main thread's,
// so that what overflows the CLI, engine or language server overflows here too.
const WORKER = `
require('tsx/cjs');
const { parentPort } = require('node:worker_threads');
const { parse, walk } = require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'sysml', 'index.ts'))});
const { resolveDocuments } = require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'sysml', 'names', 'index.ts'))});
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
    // Names resolve over the tree (a recursive walk of every expression).
    if (!problem) resolveDocuments([{ uri: 'fuzz.' + language, document: r.document }]);
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
  const newWorker = (): Worker => new Worker(WORKER, { eval: true, resourceLimits: { stackSizeMb: 1 } });
  let worker = newWorker();
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
    const { text, language, kind } = hostileText(c, samples, rnd);
    const verdict = await ask(text, language);
    let problem: string | null = null;
    if (verdict === 'timeout') {
      problem = `no answer within ${TIME_LIMIT_MS} ms (hang)`;
      await worker.terminate();
      worker = newWorker();
    } else {
      if (verdict.ms > slowest) slowest = verdict.ms;
      if (verdict.errors > 0) withErrors++;
      if (verdict.problem) problem = verdict.problem;
      else if (verdict.ms > TIME_LIMIT_MS) problem = `took ${verdict.ms.toFixed(0)} ms`;
    }
    if (problem !== null) {
      const file = join(tmpdir(), `assay-parser-fuzz-${SEED}-${c}.${language}`);
      writeFileSync(file, text);
      failures.push(`case ${c} (${kind}): ${problem}\n  input saved to ${file}`);
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
