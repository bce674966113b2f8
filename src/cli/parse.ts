// `assay parse <files or folders…> [--library <folder>] [--json]`: parse SysML v2 / KerML files and
// report every diagnostic as `file:line:col: message`, then one summary line (or one JSON object).
// Exit code: 0 without diagnostics, 1 with diagnostics, 2 on a usage error.

import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, languageOfPath } from '../sysml';
import { resolveDocuments, type LazyLibraryDocument, type NamedDocument } from '../sysml/names';
import { terminalSafe } from './format';
import { buildKey, readLibraryIndex, underLibrary, userIndexFile, writeLibraryIndex, type LibraryIndexEntry } from './library-index';

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

const PROCESS_OUTPUT: CommandOutput = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

const USAGE = 'usage: assay parse <files or folders…> [--library <folder>] [--json]\n';

export interface ParseDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly kind: 'syntax' | 'name' | 'file' | 'warning';
  readonly message: string;
}

export interface ParseReport {
  readonly files: number;
  readonly libraryFiles: number;
  readonly lines: number;
  readonly syntaxErrors: number;
  readonly unresolvedReferences: number;
  /** What references were resolved against: the `--library` documents, or the built-in table of
   * standard library names. */
  readonly names: 'library' | 'built-in';
  readonly seconds: number;
  readonly diagnostics: ParseDiagnostic[];
}

interface Arguments {
  readonly paths: string[];
  readonly library: string | null;
  readonly json: boolean;
}

function parseArguments(argv: string[]): Arguments | string {
  const paths: string[] = [];
  let library: string | null = null;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--library') {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) return '--library needs a folder';
      library = v;
    } else if (a.startsWith('--library=')) library = a.slice('--library='.length);
    else if (a === '--') paths.push(...argv.slice(i + 1)), (i = argv.length);
    else if (a.startsWith('-') && a !== '-') return `unknown option ${a}`;
    else paths.push(a);
  }
  if (paths.length === 0) return 'no files or folders given';
  return { paths, library, json };
}

/** Model files under a path: the file itself, or every .sysml/.kerml file below a folder (sorted).
 * Only regular files are read (a FIFO named `x.sysml` would block the read forever), and each folder
 * and file is taken once by its real path, so symbolic links that loop or repeat add nothing. */
function modelFiles(path: string, out: string[], seen: Set<string> = new Set()): string | null {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return `no such file or folder: ${path}`;
  }
  const once = (p: string): boolean => {
    let real: string;
    try {
      // The system's realpath(3): fs.realpathSync walks the path in JavaScript, an lstat and a path
      // resolve per component, ~10 ms for a folder of 100 files.
      real = realpathSync.native(p);
    } catch {
      return false;
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  };
  if (!stat.isDirectory()) {
    if (!stat.isFile()) return `not a regular file or folder: ${path}`;
    if (once(path)) out.push(path);
    return null;
  }
  const walk = (dir: string): void => {
    if (!once(dir)) return;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(dir, name);
      let s;
      try {
        s = statSync(p);
      } catch {
        continue;
      }
      if (s.isDirectory()) walk(p);
      else if (s.isFile() && (name.endsWith('.sysml') || name.endsWith('.kerml')) && once(p)) out.push(p);
    }
  };
  walk(path);
  return null;
}

interface LibraryIndexUse {
  /** The files' texts (byte-order mark dropped), read once. */
  readonly texts: string[];
  /** Their paths under the library folder. */
  readonly paths: string[];
  readonly build: string;
  /** The index's entries, when a valid index was found. */
  readonly entries: LibraryIndexEntry[] | null;
  /** Where to write the index when none was valid (null: nowhere); `shared`: the build's (scripts/build.mjs). */
  readonly write: string | null;
  readonly shared: boolean;
}

/** The library's texts and its index (null from the sources, or when a file cannot be read: the
 * library is then parsed as given, its problems reported). */
function libraryIndex(folder: string, files: readonly string[]): LibraryIndexUse | null {
  const build = buildKey();
  if (build === null) return null;
  const texts: string[] = [];
  for (const file of files) {
    try {
      let text = readFileSync(file, 'utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      texts.push(text);
    } catch {
      return null;
    }
  }
  const root = resolve(folder);
  const paths = files.map((f) => underLibrary(root, resolve(f)));
  // The build's index of the standard library, then the user's of this folder.
  const own = userIndexFile(root, build);
  for (const candidate of [join(__dirname, 'library-index.json'), own]) {
    const entries = candidate === null ? null : readLibraryIndex(candidate, build, paths, texts);
    if (entries !== null) return { texts, paths, build, entries, write: null, shared: false };
  }
  const forBuild = process.env.ASSAY_WRITE_LIBRARY_INDEX || null;
  return { texts, paths, build, entries: null, write: forBuild ?? own, shared: forBuild !== null };
}

export async function runParseCommand(argv: string[], io: CommandOutput = PROCESS_OUTPUT): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  // A usage error is said on stderr, and with --json also as the one JSON object an agent reads.
  const usage = (message: string, json: boolean, withUsage = false): number => {
    io.err(`assay parse: ${message}\n${withUsage ? USAGE : ''}`);
    if (json) io.out(JSON.stringify({ error: { message, status: 'usage' } }) + '\n');
    return 2;
  };
  const args = parseArguments(argv);
  if (typeof args === 'string') return usage(args, argv.includes('--json'), true);
  const files: string[] = [];
  const seen = new Set<string>();
  for (const p of args.paths) {
    const problem = modelFiles(p, files, seen);
    if (problem !== null) return usage(problem, args.json);
  }
  const libraryFiles: string[] = [];
  if (args.library !== null) {
    const problem = modelFiles(args.library, libraryFiles);
    if (problem !== null) return usage(`--library: ${problem}`, args.json);
  }

  const started = performance.now();
  const diagnostics: ParseDiagnostic[] = [];
  let lines = 0;
  let syntaxErrors = 0;
  const lineCounts = new Map<string, number>();
  // Whether every file parsed so far had neither a syntax error nor a warning.
  let clean = true;
  const parsed = (list: string[], given: readonly string[] | null = null): NamedDocument[] => {
    const out: NamedDocument[] = [];
    for (let i = 0; i < list.length; i++) {
      const file = list[i]!;
      let text: string;
      if (given !== null) text = given[i]!;
      else {
        try {
          text = readFileSync(file, 'utf8');
        } catch (error) {
          diagnostics.push({ file, line: 1, column: 1, endLine: 1, endColumn: 1, kind: 'file', message: `cannot read: ${(error as Error).message}` });
          continue;
        }
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      const result = parse(text, { language: languageOfPath(file) });
      if (result.errors.length > 0 || result.warnings.length > 0) clean = false;
      lineCounts.set(file, result.lineCount);
      lines += result.lineCount;
      syntaxErrors += result.errors.length;
      for (const e of result.errors) {
        diagnostics.push({
          file, line: e.range.line, column: e.range.column, endLine: e.range.endLine, endColumn: e.range.endColumn,
          kind: 'syntax', message: e.message,
        });
      }
      for (const w of result.warnings) {
        diagnostics.push({
          file, line: w.range.line, column: w.range.column, endLine: w.range.endLine, endColumn: w.range.endColumn,
          kind: 'warning', message: w.message,
        });
      }
      out.push({ uri: file, document: result.document });
    }
    return out;
  };
  // The library through its index when there is a valid one (./library-index.ts): parsed only where
  // a lookup reaches it. Else parsed whole, and the index made for the next run.
  const index = libraryFiles.length > 0 ? libraryIndex(args.library!, libraryFiles) : null;
  let library: NamedDocument[] = [];
  let lazyLibrary: LazyLibraryDocument[] = [];
  if (index?.entries) {
    lazyLibrary = index.entries.map((e, i) => {
      const file = libraryFiles[i]!;
      lines += e.lineCount;
      return { uri: file, rootNames: e.rootNames, load: () => parse(index.texts[i]!, { language: languageOfPath(file) }).document };
    });
  } else {
    library = parsed(libraryFiles, index?.texts ?? null);
  }
  const libraryClean = clean;
  const models = parsed(files);
  const resolved = resolveDocuments(models, { library, lazyLibrary });
  if (index && !index.entries && index.write !== null && libraryClean) {
    writeLibraryIndex(index.write, index.build, index.paths.map((path, i) => ({
      path, text: index.texts[i]!, lineCount: lineCounts.get(libraryFiles[i]!)!, rootNames: resolved.index.libraryRootNames(libraryFiles[i]!),
    })), index.shared);
  }
  let unresolvedReferences = 0;
  for (const [file, list] of resolved.diagnostics) {
    for (const d of list) {
      if (d.severity !== 'warning') unresolvedReferences++;
      diagnostics.push({
        file, line: d.range.line, column: d.range.column, endLine: d.range.endLine, endColumn: d.range.endColumn,
        kind: d.severity === 'warning' ? 'warning' : 'name', message: d.message,
      });
    }
  }
  // Per file in the order given, by position within a file.
  const order = new Map([...libraryFiles, ...files].map((f, i) => [f, i]));
  diagnostics.sort((a, b) => (order.get(a.file)! - order.get(b.file)!) || a.line - b.line || a.column - b.column);
  const seconds = (performance.now() - started) / 1000;
  const report: ParseReport = {
    files: files.length, libraryFiles: libraryFiles.length, lines, syntaxErrors, unresolvedReferences,
    names: library.length + lazyLibrary.length > 0 ? 'library' : 'built-in', seconds: Math.round(seconds * 1000) / 1000, diagnostics,
  };
  if (args.json) {
    io.out(JSON.stringify(report) + '\n');
  } else {
    let text = '';
    // Names and strings of a model reach the terminal in messages: control characters are escaped.
    for (const d of diagnostics) text += terminalSafe(`${d.file}:${d.line}:${d.column}: ${d.kind === 'warning' ? 'warning: ' : ''}${d.message}`) + '\n';
    const libraryNote = libraryFiles.length > 0 ? ` (+${libraryFiles.length} library)` : '';
    text += `${files.length} files${libraryNote}, ${lines} lines, ${syntaxErrors} syntax errors, ` +
      `${unresolvedReferences} unresolved references, ${seconds.toFixed(2)} s\n`;
    io.out(text);
  }
  // Warnings alone do not fail the parse.
  return diagnostics.some((d) => d.kind !== 'warning') ? 1 : 0;
}
