// Fuzzes the language server (dist/server.js, a real process over stdio) with the parser fuzzer's
// hostile texts: long operator chains, deep nesting, and mutated corpus files, each sent as an edit of
// open documents, then document symbols, folding, hover, definition and code lenses asked at random
// places. Every request must be answered (not an error) within 10 s and the server must stay alive.
//
//   npm run fuzz -- server                       (2000 cases, seed 1)
//   FUZZ_CASES=20000 FUZZ_SEED=7 npm run fuzz -- server
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { LanguageClient } from '../server/lspClient';
import { hostileText, prng, type Sample } from './hostile-text';

const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'sysml-release-2026-04');
const CASES = Number(process.env.FUZZ_CASES ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const REQUEST_LIMIT_MS = 10_000;

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

function within<T>(what: string, p: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${REQUEST_LIMIT_MS} ms`)), REQUEST_LIMIT_MS);
    p.then((v) => { clearTimeout(timer); resolve(v); }, (e: unknown) => { clearTimeout(timer); reject(e instanceof Error ? e : new Error(String(e))); });
  });
}

async function main(): Promise<void> {
  const samples = corpusFiles(CORPUS);
  if (samples.length === 0) throw new Error(`no corpus files under ${CORPUS}`);
  const rnd = prng(SEED);
  const workspace = mkdtempSync(join(tmpdir(), 'assay-server-fuzz-'));
  let client = await LanguageClient.start({ workspace });
  // A few documents stay open, so edits of one re-check the others that use its names.
  const uris = [0, 1, 2].map((i) => pathToFileURL(join(workspace, `doc${i}.sysml`)).href);
  for (const uri of uris) await client.open(uri, 'package Empty;\n');
  const started = performance.now();
  const failures: string[] = [];
  for (let c = 0; c < CASES && failures.length < 5; c++) {
    const { text, kind } = hostileText(c, samples, rnd);
    const uri = uris[Math.floor(rnd() * uris.length)]!;
    const lines = text.split('\n');
    const position = (): { line: number; character: number } => {
      const line = Math.floor(rnd() * lines.length);
      return { line, character: Math.floor(rnd() * (lines[line]!.length + 1)) };
    };
    try {
      await client.change(uri, text);
      const doc = { textDocument: { uri } };
      await within('documentSymbol', client.request('textDocument/documentSymbol', doc));
      await within('foldingRange', client.request('textDocument/foldingRange', doc));
      await within('hover', client.request('textDocument/hover', { ...doc, position: position() }));
      await within('definition', client.request('textDocument/definition', { ...doc, position: position() }));
      await within('codeLens', client.request('textDocument/codeLens', doc));
      if (client.child.exitCode !== null || client.child.signalCode !== null) throw new Error(`server exited (${client.child.exitCode ?? client.child.signalCode})`);
    } catch (error) {
      const file = join(tmpdir(), `assay-server-fuzz-${SEED}-${c}.sysml`);
      writeFileSync(file, text);
      failures.push(`case ${c} (${kind}): ${error instanceof Error ? error.message : String(error)}\n  input saved to ${file}`);
      await client.stop().catch(() => undefined);
      client = await LanguageClient.start({ workspace });
      for (const u of uris) await client.open(u, 'package Empty;\n');
    }
  }
  await client.stop();
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`server fuzz: ${CASES} cases (seed ${SEED}) in ${seconds.toFixed(1)} s; ${failures.length} failures\n`);
  if (failures.length > 0) {
    process.stdout.write(`FAILED:\n${failures.join('\n')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`server fuzz: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
