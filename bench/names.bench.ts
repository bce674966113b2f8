// Name resolution figures: indexing the standard library plus every corpus model, and the cost of
// re-resolving after one changed document (what the language server pays per keystroke).
// `npm run bench -- names`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { languageOfPath, parse } from '../src/sysml';
import { resolveDocuments, Workspace } from '../src/sysml/names';
import { SysmlModel } from '../src/host/sysml-model';
import { apolloModel } from './apollo-model';
import { builtinRoots } from '../src/sysml/names/builtin-layer';
import { CORPUS, sysmlFiles } from '../test/sysml/names/corpus-files';

const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const read = (f: string) => ({ uri: f, text: fs.readFileSync(f, 'utf8') });
const libraryFiles = sysmlFiles(path.join(CORPUS, 'library')).map(read);
const modelFiles = ['examples', 'training', 'validation'].flatMap((d) => sysmlFiles(path.join(CORPUS, d))).map(read);
const lines = (fs: { text: string }[]): number => fs.reduce((n, f) => n + f.text.split('\n').length, 0);

let t = process.hrtime.bigint();
const library = libraryFiles.map((f) => ({ uri: f.uri, document: parse(f.text, { language: languageOfPath(f.uri) }).document }));
const models = modelFiles.map((f) => ({ uri: f.uri, document: parse(f.text, { language: languageOfPath(f.uri) }).document }));
const parseMs = ms(t);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
gc();
const heapBefore = process.memoryUsage().heapUsed;
t = process.hrtime.bigint();
const ws = new Workspace();
ws.setLibrary(library);
for (const m of models) ws.update(m.uri, m.document);
let unresolved = 0;
for (const m of models) unresolved += ws.diagnostics(m.uri).length;
const fullMs = ms(t);
gc();
// Declarations, scopes and resolution caches of the whole index (the trees were held before).
const indexMiB = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;

// Re-index one changed document (a large one) and re-resolve it; the library layer stays as is.
const big = models.reduce((a, b) => (a.document.range.end > b.document.range.end ? a : b));
const text = modelFiles.find((f) => f.uri === big.uri)!.text;
const edits: number[] = [];
const editsAll: number[] = [];
for (let i = 0; i < 15; i++) {
  const changed = parse(text + `\n// edit ${i}\n`, { language: languageOfPath(big.uri) }).document;
  let s = process.hrtime.bigint();
  ws.update(big.uri, changed);
  ws.diagnostics(big.uri);
  edits.push(ms(s));
  s = process.hrtime.bigint();
  for (const m of models) ws.diagnostics(m.uri);
  editsAll.push(ms(s));
}

t = process.hrtime.bigint();
const builtins = builtinRoots().size;
const builtinMs = ms(t);

console.log(`corpus: ${libraryFiles.length} library files (${lines(libraryFiles)} lines), ${modelFiles.length} models (${lines(modelFiles)} lines); parse ${parseMs.toFixed(0)} ms`);
console.log(`index + resolve library and all models: ${fullMs.toFixed(0)} ms (${unresolved} unresolved references); heap held by the index ${indexMiB.toFixed(1)} MiB`);
console.log(`re-index one changed document (${path.basename(big.uri)}, ${text.split('\n').length} lines) and resolve it: median ${median(edits).toFixed(1)} ms`);
console.log(`  … and then re-resolve every model: median ${median(editsAll).toFixed(0)} ms`);
console.log(`built-in table read (${builtins} top-level packages): ${builtinMs.toFixed(0)} ms`);

// An Apollo-sized model (28 files, ~7k lines, imports and specialization chains, ISQ/SI), generated
// (bench/apollo-model.ts): resolution in this process, `assay parse` end to end, and the host's
// work before it asks an engine (parse, index, the subject's kind).
{
  const apollo = apolloModel();
  const apolloLines = lines(apollo);
  const cpu = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const resolveMs: number[] = [];
  const resolveCpu: number[] = [];
  const hostMs: number[] = [];
  const hostCpu: number[] = [];
  for (let i = 0; i < 7; i++) {
    const s = process.hrtime.bigint();
    const c = cpu();
    const docs = apollo.map((f) => ({ uri: f.path, document: parse(f.text, { language: languageOfPath(f.path) }).document }));
    const { diagnostics } = resolveDocuments(docs);
    resolveMs.push(ms(s));
    resolveCpu.push(cpu() - c);
    if ([...diagnostics.values()].some((d) => d.length > 0)) throw new Error('the generated model has unresolved references');
    // What the host does before routing a question (src/host/sysml-model.ts): a fresh model each time.
    const h = process.hrtime.bigint();
    const hc = cpu();
    new SysmlModel().subjectKindOf('Timeline::timelineSystem', apollo.map((f) => ({ path: f.path, text: f.text })));
    hostMs.push(ms(h));
    hostCpu.push(cpu() - hc);
  }
  console.log(`Apollo-sized model (${apollo.length} files, ${apolloLines} lines), in process, built-in library names: ` +
    `parse + resolve median ${median(resolveMs).toFixed(0)} ms (CPU ${median(resolveCpu).toFixed(0)} ms); ` +
    `host work before asking an engine (parse, index, subject kind) median ${median(hostMs).toFixed(0)} ms (CPU ${median(hostCpu).toFixed(0)} ms; goal <= 50 ms)`);

  // End to end, as a user runs it: a fresh `node dist/cli.js parse` (build first: `npm run build`).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-apollo-'));
  try {
    for (const f of apollo) fs.writeFileSync(path.join(dir, f.path), f.text);
    const cli = path.join(__dirname, '..', 'dist', 'cli.js');
    // The process's own CPU time too (user + system, printed at exit by a preloaded line): on a shared
    // machine the wall clock mostly measures the other processes.
    const cpuReport = path.join(dir, 'cpu.cjs');
    fs.writeFileSync(cpuReport, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\ncpu-ms ${(u.user + u.system) / 1000}\\n`); });\n");
    const run = (args: string[], program = cli, env: NodeJS.ProcessEnv = process.env): { wall: number; cpu: number } => {
      const s = process.hrtime.bigint();
      const r = spawnSync(process.execPath, ['--require', cpuReport, program, 'parse', dir, ...args], { encoding: 'utf8', env });
      if (r.status !== 0) throw new Error(`assay parse failed: ${r.stdout}${r.stderr}`);
      return { wall: ms(s), cpu: Number(/cpu-ms ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN) };
    };
    // ASSAY_REF_DIST=<a copy of another build's dist/>: its cli.js runs too, alternating with this
    // build's, and both are printed side by side (a speed change measured against the build before).
    const reference = process.env.ASSAY_REF_DIST ? path.resolve(process.env.ASSAY_REF_DIST, 'cli.js') : null;
    type Run = { wall: number; cpu: number };
    const builtinRuns: Run[] = [];
    const libraryRuns: Run[] = [];
    const refBuiltinRuns: Run[] = [];
    const refLibraryRuns: Run[] = [];
    const runs = Number(process.env.ASSAY_E2E_RUNS ?? 7);
    for (let i = 0; i < runs; i++) {
      if (reference) refBuiltinRuns.push(run([], reference));
      builtinRuns.push(run([]));
      if (reference) refLibraryRuns.push(run(['--library', path.join(CORPUS, 'library')], reference));
      libraryRuns.push(run(['--library', path.join(CORPUS, 'library')]));
    }
    const fig = (rs: Run[]) => {
      const walls = rs.map((r) => r.wall);
      const cpus = rs.map((r) => r.cpu);
      return `median ${median(walls).toFixed(0)} ms (best ${Math.min(...walls).toFixed(0)}; CPU median ${median(cpus).toFixed(0)}, best ${Math.min(...cpus).toFixed(0)} ms)`;
    };
    console.log(`  assay parse end to end (node dist/cli.js parse <28 files>, ${runs} runs): built-in library names ${fig(builtinRuns)} (goal <= 200 ms); ` +
      `--library <corpus library> (also parses its ${libraryFiles.length} files) ${fig(libraryRuns)}; ` +
      `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    if (reference) {
      console.log(`  reference build ${reference}, alternating: built-in library names ${fig(refBuiltinRuns)}; --library ${fig(refLibraryRuns)}`);
    }
    // Node's own start, before any of our code: an empty program. NODE_EXTRA_CA_CERTS (set on some
    // machines, this one included) makes Node read a certificate bundle at start, which costs tens of
    // milliseconds the CLI cannot avoid; the same runs without it show what a machine without it gets.
    const floor = (env: NodeJS.ProcessEnv): number => {
      const walls: number[] = [];
      for (let i = 0; i < runs; i++) {
        const s = process.hrtime.bigint();
        spawnSync(process.execPath, ['-e', '0'], { env });
        walls.push(ms(s));
      }
      return median(walls);
    };
    const noCerts = { ...process.env };
    delete noCerts.NODE_EXTRA_CA_CERTS;
    const withoutCerts: Run[] = [];
    for (let i = 0; i < runs; i++) withoutCerts.push(run([], cli, noCerts));
    console.log(`  node's own start (node -e 0): median ${floor(process.env).toFixed(0)} ms` +
      (process.env.NODE_EXTRA_CA_CERTS ? ` with NODE_EXTRA_CA_CERTS as set here, ${floor(noCerts).toFixed(0)} ms without it; ` +
        `assay parse without it: built-in library names ${fig(withoutCerts)}` : ''));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
