// Language server figures: dist/server.js over stdio, driven like an editor. For a corpus model and a
// large synthetic one: time from the last keystroke (an incremental didChange) to the diagnostics of
// that version, less the debounce pause; go to definition and hover round trips.
// `npm run bench -- language-server`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from '../src/sysml';
import { Workspace } from '../src/sysml/names';
import { LanguageClient, repoRoot, type Location } from '../test/server/lspClient';
import { apolloModel } from './apollo-model';
import { writeFileSync } from 'node:fs';

/** The server's pause after the last keystroke (src/server/main.ts). */
const debounceMs = 150;
const corpus = join(repoRoot, '..', 'shared', 'corpus', 'sysml-release-2026-04');
const annexA = join(corpus, 'examples', 'Vehicle Example', 'SysML v2 Spec Annex A SimpleVehicleModel.sysml');
const library = join(corpus, 'library');

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = (ms: number): string => ms.toFixed(0);

interface Case {
  title: string;
  workspace: string;
  uri: string;
  text: string;
  library?: string;
}

async function measure(c: Case): Promise<void> {
  const client = await LanguageClient.start({
    workspace: c.workspace,
    settings: (section) => (section === 'assay.standardLibraryPath' ? c.library ?? '' : null),
  });
  try {
    const lines = c.text.split('\n').length;
    let started = performance.now();
    await client.open(c.uri, c.text);
    const opened = await client.diagnostics(c.uri, () => true, 60_000);
    const openMs = performance.now() - started;
    let version = 2; // the client numbers versions from 1; open took 1
    let end = c.text.split('\n');
    let line = end.length - 1;
    let character = end[line]!.length;
    // Keystrokes at the end of the text, each an incremental change as VS Code sends them.
    const keystroke = async (insert: string): Promise<number> => {
      const v = version++;
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: c.uri, version: v },
        contentChanges: [{ range: { start: { line, character }, end: { line, character } }, text: insert }],
      });
      const parts = insert.split('\n');
      if (parts.length > 1) { line += parts.length - 1; character = parts[parts.length - 1]!.length; } else character += insert.length;
      return v;
    };
    // A large document gets its syntax errors first and the complete set once its names are resolved:
    // both are timed (the second publish of a version, when one comes within a second).
    const first: number[] = [];
    const complete: number[] = [];
    for (let i = 0; i < 8; i++) {
      const v = await keystroke(i === 0 ? '\n// edit ' : 'x');
      const sent = performance.now();
      const ofVersion = () => client.published.filter((p) => p.uri === c.uri && p.version === v);
      await client.until(`diagnostics of version ${v}`, () => ofVersion().length > 0, 30_000);
      await client.until('a second publish', () => ofVersion().length > 1, 1000).catch(() => undefined);
      const times = ofVersion().map((p) => p.at - sent - debounceMs);
      first.push(times[0]!);
      complete.push(times[times.length - 1]!);
    }
    // A burst of typing: one check after the last keystroke, not one per keystroke.
    const before = client.published.length;
    let last = 0;
    for (let i = 0; i < 6; i++) {
      last = await keystroke('y');
      started = performance.now();
      await new Promise((r) => setTimeout(r, 40));
    }
    await client.until('diagnostics after the burst', () => client.published.some((p) => p.version === last), 30_000);
    await client.until('a second publish', () => client.published.filter((p) => p.version === last).length > 1, 1000).catch(() => undefined);
    const burst = client.published.filter((p) => p.version === last).pop()!.at - started - debounceMs;
    const burstPublishes = client.published.slice(before).filter((p) => p.uri === c.uri).length;
    // Go to definition and hover on references (`: Type`), spread over the file.
    const current = c.text + '\n// edit ' + 'x'.repeat(7) + 'y'.repeat(6);
    end = current.split('\n');
    const positions: { line: number; character: number }[] = [];
    end.forEach((text, l) => {
      const m = /:\s*([A-Z]\w+)/.exec(text);
      if (m) positions.push({ line: l, character: m.index + m[0].length - 1 });
    });
    const step = Math.max(1, Math.floor(positions.length / 25));
    const sample = positions.filter((_, i) => i % step === 0).slice(0, 25);
    const definition: number[] = [];
    const hover: number[] = [];
    let found = 0;
    for (const position of sample) {
      let t = performance.now();
      const locations = await client.request<Location[] | null>('textDocument/definition', { textDocument: { uri: c.uri }, position });
      definition.push(performance.now() - t);
      if (locations && locations.length > 0) found++;
      t = performance.now();
      await client.request('textDocument/hover', { textDocument: { uri: c.uri }, position });
      hover.push(performance.now() - t);
    }
    console.log(`${c.title}: ${lines} lines, ${c.library ? 'library folder' : 'built-in library names'}`);
    console.log(`  open → first diagnostics: ${f(openMs)} ms (${opened.length} diagnostics)`);
    console.log(`  keystroke → first diagnostics, less the ${debounceMs} ms pause: median ${f(median(first))} ms, max ${f(Math.max(...first))} ms (8 edits)`);
    console.log(`  keystroke → complete diagnostics (names resolved), less the pause: median ${f(median(complete))} ms, max ${f(Math.max(...complete))} ms`);
    console.log(`  6 keystrokes 40 ms apart → ${burstPublishes} publish(es), complete ${f(burst)} ms after the last keystroke less the pause`);
    if (!c.library) console.log(`  in-process work per keystroke (built-in names): ${workPerKeystroke(c.text)}`);
    console.log(`  go to definition: median ${median(definition).toFixed(1)} ms, max ${f(Math.max(...definition))} ms (${found}/${sample.length} found); hover: median ${median(hover).toFixed(1)} ms`);
  } finally {
    await client.stop();
  }
}

/** The server's work per keystroke, in this process and in CPU time (steadier than wall-clock time on
 * a busy machine): parse, re-declare the document, resolve its names. */
function workPerKeystroke(text: string): string {
  const index = new Workspace();
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const parseMs: number[] = [];
  const declareMs: number[] = [];
  const resolveMs: number[] = [];
  for (let i = 0; i < 6; i++) {
    let t = cpu();
    const { document } = parse(`${text}\n// edit ${i}`);
    parseMs.push(cpu() - t);
    t = cpu();
    index.update('file:///bench.sysml', document);
    declareMs.push(cpu() - t);
    t = cpu();
    index.diagnostics('file:///bench.sysml');
    resolveMs.push(cpu() - t);
  }
  // The first round warms the code up.
  const m = (xs: number[]) => f(median(xs.slice(1)));
  return `parse ${m(parseMs)} ms + declare ${m(declareMs)} ms + resolve names ${m(resolveMs)} ms (CPU, median of 5)`;
}

/** The Apollo-sized model (bench/apollo-model.ts: 28 files, ~7k lines) as a workspace folder: a
 * fresh server, one of its files opened, time to its first and to its complete diagnostics (names
 * resolved against the other 27 files and the built-in library names). Goal: complete <= 150 ms. */
async function apolloOpen(): Promise<void> {
  const files = apolloModel();
  const dir = mkdtempSync(join(tmpdir(), 'assay-ls-apollo-'));
  try {
    for (const f of files) writeFileSync(join(dir, f.path), f.text);
    const opened = files[files.length - 1]!;
    const uri = pathToFileURL(join(dir, opened.path)).href;
    const first: number[] = [];
    const complete: number[] = [];
    for (let i = 0; i < 5; i++) {
      const client = await LanguageClient.start({ workspace: dir, settings: () => null });
      try {
        const started = performance.now();
        await client.open(uri, opened.text);
        const ofFile = () => client.published.filter((p) => p.uri === uri);
        await client.until('diagnostics', () => ofFile().length > 0, 30_000);
        await client.until('a second publish', () => ofFile().length > 1, 1000).catch(() => undefined);
        const times = ofFile().map((p) => p.at - started);
        first.push(times[0]!);
        complete.push(times[times.length - 1]!);
      } finally {
        await client.stop();
      }
    }
    const lines = files.reduce((n, f) => n + f.text.split('\n').length, 0);
    console.log(`Apollo-sized workspace (${files.length} files, ${lines} lines, built-in library names), fresh server, open one file: ` +
      `first diagnostics median ${f(median(first))} ms, complete diagnostics median ${f(median(complete))} ms (goal <= 150 ms; 5 servers; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // Wall-clock figures: on a shared machine they say little unless the machine was idle.
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  // `LS_BENCH=apollo npm run bench -- language-server`: only the Apollo-sized workspace.
  if (process.env.LS_BENCH === 'apollo') return apolloOpen();
  const annexText = readFileSync(annexA, 'utf8');
  const folder = dirname(annexA);
  await measure({ title: 'Annex A vehicle model (corpus)', workspace: folder, uri: pathToFileURL(annexA).href, text: annexText });
  await measure({ title: 'Annex A vehicle model (corpus)', workspace: folder, uri: pathToFileURL(annexA).href, text: annexText, library });
  // Seven renamed copies of the Annex A model in one file.
  const synthetic = Array.from({ length: 7 }, (_, i) => annexText.replace('package SimpleVehicleModel', `package SimpleVehicleModel${i}`)).join('\n');
  // 250 renamed copies of the small vehicle model of the real-editor tests: 10k lines of simple parts.
  const vehicle = readFileSync(join(repoRoot, 'test', 'e2e', 'workspace', 'vehicle.sysml'), 'utf8');
  const simple = Array.from({ length: 250 }, (_, i) => vehicle.replace('package VehicleModel', `package VehicleModel${i}`)).join('\n');
  const empty = mkdtempSync(join(tmpdir(), 'assay-ls-bench-'));
  try {
    await measure({ title: 'synthetic (7 × Annex A)', workspace: empty, uri: pathToFileURL(join(empty, 'big.sysml')).href, text: synthetic });
    await measure({ title: 'synthetic (250 × the e2e vehicle model)', workspace: empty, uri: pathToFileURL(join(empty, 'simple.sysml')).href, text: simple });
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  await apolloOpen();
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
