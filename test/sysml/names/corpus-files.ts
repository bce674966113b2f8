// The SysML v2 release corpus as the names and lowering tests read it (never copied into the project).
import * as fs from 'fs';
import * as path from 'path';
import { languageOfPath, parse } from '../../../src/sysml';
import type { NamedDocument } from '../../../src/sysml/names';

export const CORPUS = path.resolve(__dirname, '../../../../shared/corpus/sysml-release-2026-04');
export const LIBRARY = path.join(CORPUS, 'library');

export function sysmlFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sysmlFiles(p, out);
    else if (/\.(sysml|kerml)$/.test(e.name)) out.push(p);
  }
  return out;
}

export function load(file: string): NamedDocument {
  return { uri: file, document: parse(fs.readFileSync(file, 'utf8'), { language: languageOfPath(file) }).document };
}

let library: NamedDocument[] | null = null;
export function libraryDocuments(): NamedDocument[] {
  library ??= sysmlFiles(LIBRARY).map(load);
  return library;
}
