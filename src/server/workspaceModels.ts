// Model files on disk (.sysml/.kerml under a set of folders), read and parsed once per modification
// time: the workspace's files no editor has open, and the standard library folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { SymbolInformation } from 'vscode-languageserver/node';
import { parse, type ParseResult } from '../sysml';
import { declarationsOf } from './navigation';
import { symbolsOf } from './outline';

export interface ModelFile {
  readonly uri: string;
  readonly path: string;
  readonly language: 'sysml' | 'kerml';
  readonly mtimeMs: number;
  readonly text: string;
  readonly parsed: ParseResult;
  /** The text with its line offsets, for positions (built on first use). */
  lines(): TextDocument;
  /** Named declarations for workspace symbols (computed on first use). */
  declarations(): SymbolInformation[];
}

/** Walking stops here: a folder with more model files than this is indexed in part. */
const maxFiles = 5000;
const skipped = new Set(['node_modules', 'dist', 'out']);

/** `file:` URIs compare by the path they name, so VS Code's and Node's spellings of one file agree. */
export function canonicalUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return pathToFileURL(fileURLToPath(uri)).href;
  } catch {
    return uri;
  }
}

export function isModelPath(path: string): boolean {
  return /\.(sysml|kerml)$/i.test(path);
}

/** Walking also stops after this many folders, so a setting such as `/` cannot walk the whole disk. */
export const maxFolders = 10_000;

/** How a walk went: `cut` when it stopped at maxFolders with folders left unread. */
export interface WalkStats { folders: number; cut: boolean }

/** Every model file below `folder` (depth first, dot folders and build output skipped). */
export function* modelPaths(folder: string, skip: (path: string) => boolean = () => false, stats: WalkStats = { folders: 0, cut: false }): Generator<string> {
  let count = 0;
  const stack = [folder];
  while (stack.length > 0 && count < maxFiles) {
    if (stats.folders >= maxFolders) {
      stats.cut = true;
      return;
    }
    const dir = stack.pop()!;
    if (skip(dir)) continue;
    stats.folders++;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone
    }
    // Sorted so that files come in the same order on every machine.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || skipped.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile() && isModelPath(entry.name) && count++ < maxFiles && !skip(path)) yield path;
    }
  }
}

/** Reads model files, re-reading one only when its modification time changed. */
export class ModelFiles {
  private readonly cache = new Map<string, ModelFile>();

  /** The file at `path`, or null when it cannot be read. */
  load(path: string): ModelFile | null {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      this.cache.delete(path);
      return null;
    }
    const cached = this.cache.get(path);
    if (cached && cached.mtimeMs === mtimeMs) return cached;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      this.cache.delete(path);
      return null;
    }
    const uri = pathToFileURL(path).href;
    const language = path.toLowerCase().endsWith('.kerml') ? 'kerml' : 'sysml';
    const parsed = parse(text, { language });
    let declarations: SymbolInformation[] | null = null;
    let lines: TextDocument | null = null;
    const file: ModelFile = {
      uri, path, language, mtimeMs, text, parsed,
      lines: () => (lines ??= TextDocument.create(uri, language, 0, text)),
      declarations: () => (declarations ??= declarationsOf(uri, symbolsOf(file.lines(), parsed.document.members, language))),
    };
    this.cache.set(path, file);
    return file;
  }

  forget(path: string): void {
    this.cache.delete(path);
  }
}
