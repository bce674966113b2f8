// Prints what every reference of the corpus resolves to and every declaration's supertypes, with the
// built-in library names and with the library's documents: run before and after a change to the
// resolver or the built-in table and compare (`diff`); any difference is a change of results.
// `npx tsx scripts/resolution-dump.ts [corpus] > out.txt`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageOfPath, parse } from '../src/sysml';
import { Workspace } from '../src/sysml/names';
import { apolloModel } from '../bench/apollo-model';

const corpus = process.argv[2] ?? '/work/shared/corpus/sysml-release-2026-04';
const filesUnder = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
  const p = path.join(dir, e.name);
  return e.isDirectory() ? filesUnder(p) : /\.(sysml|kerml)$/.test(e.name) ? [p] : [];
}).sort();
const read = (f: string) => ({ uri: f, text: fs.readFileSync(f, 'utf8') });
const doc = (f: { uri: string; text: string }) => ({ uri: f.uri, document: parse(f.text, { language: languageOfPath(f.uri) }).document });
const library = filesUnder(path.join(corpus, 'library')).map(read).map(doc);
const sets: [string, { uri: string; text: string }[]][] = [
  ...['examples', 'training', 'validation', 'library'].map((d) => [d, filesUnder(path.join(corpus, d)).map(read)] as [string, { uri: string; text: string }[]]),
  ['apollo', apolloModel().map((f) => ({ uri: f.path, text: f.text }))],
];
const names = (ds: readonly { qualifiedName: string; layer: string }[]): string => ds.map((d) => `${d.layer}:${d.qualifiedName}`).join(' | ');
for (const [label, files] of sets) {
  for (const withLibrary of [false, true]) {
    const ws = new Workspace();
    if (withLibrary) ws.setLibrary(library);
    const docs = files.map(doc);
    for (const d of docs) ws.update(d.uri, d.document);
    process.stdout.write(`== ${label}${withLibrary ? ' (library documents)' : ''}\n`);
    for (const d of docs) {
      const rel = path.relative(corpus, d.uri);
      for (const r of ws.references(d.uri)) process.stdout.write(`${rel}@${r.range.start} ${r.text} -> ${names(r.targets)}\n`);
      for (const n of ws.diagnostics(d.uri)) process.stdout.write(`${rel}@${n.range.start} ${n.severity ?? ''} ${n.message}\n`);
      for (const decl of ws.declarationsIn(d.uri)) process.stdout.write(`${rel} ${decl.qualifiedName} :> ${names(ws.supertypes(decl))}\n`);
    }
  }
}
