// The model files of the workspace folders on disk, parsed once per modification time, for
// workspace-wide features (workspace symbols) that must also see files no editor has open.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { SymbolInformation } from 'vscode-languageserver/node';
import { parse } from '../sysml';
import { declarationsOf } from './navigation';
import { symbolsOf } from './outline';

export interface ModelFile {
  uri: string;
  declarations: SymbolInformation[];
}

/** Walking stops here: a workspace with more model files than this is indexed in part. */
const maxFiles = 5000;
const skipped = new Set(['node_modules', 'dist', 'out']);

export class WorkspaceModels {
  private readonly cache = new Map<string, { mtimeMs: number; file: ModelFile }>();

  constructor(private readonly rootUris: string[]) {}

  /** The parsed model files, except those whose URI is in `exclude` (open documents). */
  *files(exclude: ReadonlySet<string>): Generator<ModelFile> {
    const excludedPaths = new Set([...exclude].flatMap((uri) => (uri.startsWith('file:') ? [fileURLToPath(uri)] : [])));
    for (const path of this.paths()) {
      if (excludedPaths.has(path)) continue;
      const file = this.load(path);
      if (file) yield file;
    }
  }

  private *paths(): Generator<string> {
    let count = 0;
    const stack = this.rootUris.filter((uri) => uri.startsWith('file:')).map((uri) => fileURLToPath(uri));
    while (stack.length > 0 && count < maxFiles) {
      const dir = stack.pop()!;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue; // unreadable or gone
      }
      for (const entry of entries) {
        if (entry.name.startsWith('.') || skipped.has(entry.name)) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) stack.push(path);
        else if (entry.isFile() && /\.(sysml|kerml)$/i.test(entry.name) && count++ < maxFiles) yield path;
      }
    }
  }

  private load(path: string): ModelFile | null {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      this.cache.delete(path);
      return null;
    }
    const cached = this.cache.get(path);
    if (cached && cached.mtimeMs === mtimeMs) return cached.file;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return null;
    }
    const uri = pathToFileURL(path).href;
    const language = path.toLowerCase().endsWith('.kerml') ? 'kerml' : 'sysml';
    const document = TextDocument.create(uri, language, 0, text);
    const symbols = symbolsOf(document, parse(text, { language }).document.members, language);
    const file = { uri, declarations: declarationsOf(uri, symbols) };
    this.cache.set(path, { mtimeMs, file });
    return file;
  }
}
