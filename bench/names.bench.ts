// Name resolution figures: indexing the standard library plus every corpus model, and the cost of
// re-resolving after one changed document (what the language server pays per keystroke).
// `npm run bench -- names`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { languageOfPath, parse } from '../src/sysml';
import { Workspace } from '../src/sysml/names';
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
