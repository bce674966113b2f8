// The index of a `--library` folder that lets `assay parse` leave most of the library unparsed: for
// each file its path under the folder, its whole text, its line count and the top-level names it
// declares. With it the library's files are parsed only when a lookup reaches one of their top-level
// names (`LazyLibraryDocument`); the answer is the same as with every file parsed.
//
// Made by a run that parsed the whole library (when no file had a syntax error or warning: those
// must be reported, so such a library is always parsed), kept in the user's cache folder (the code
// cache's: `ASSAY_CODE_CACHE_DIR`, `off` for none), and by the build for the standard library when
// the SysML release is at hand (dist/library-index.json). Never trusted: it is taken only when it
// was made by this very build (the bundle's key), lists the same files in the same order, and each
// text is the file's text now, character for character; anything else (stale, truncated, corrupt,
// another build's) is ignored and the library parsed as without it.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';

const FORMAT = 'assay-library-index-1';

export interface LibraryIndexEntry {
  /** Path under the library folder, with '/'. */
  readonly path: string;
  readonly text: string;
  readonly lineCount: number;
  readonly rootNames: readonly string[];
}

interface IndexData {
  readonly format: string;
  readonly build: string;
  readonly files: readonly LibraryIndexEntry[];
}

/** The key of the running build (set by src/launcher/loader.ts); null from the sources. */
export function buildKey(): string | null {
  const key = (globalThis as Record<symbol, unknown>)[Symbol.for('assay.buildKey')];
  return typeof key === 'string' ? key : null;
}

/** A file's path under the library folder, as the index keeps it. */
export function underLibrary(folder: string, file: string): string {
  return relative(folder, file).split('\\').join('/');
}

/** The user's cache file of the index of the library folder `folder` (an absolute path), or null. */
export function userIndexFile(folder: string, build: string): string | null {
  const setting = process.env.ASSAY_CODE_CACHE_DIR;
  if (setting === 'off') return null;
  const base = setting || (process.platform === 'win32' ? process.env.LOCALAPPDATA : process.env.XDG_CACHE_HOME) || (homedir() ? join(homedir(), '.cache') : '');
  if (!base) return null;
  let h = 0x811c9dc5;
  for (let i = 0; i < folder.length; i++) h = Math.imul(h ^ folder.charCodeAt(i), 0x01000193);
  return join(setting ? base : join(base, 'assay', 'code-cache'), `library-index-${build.slice(0, 12)}-${(h >>> 0).toString(16)}.json`);
}

/**
 * The index in `file` when it holds exactly `files` (paths under the folder, in order) with exactly
 * `texts`, made by the build `build`; else null.
 */
export function readLibraryIndex(file: string, build: string, files: readonly string[], texts: readonly string[]): LibraryIndexEntry[] | null {
  let data: IndexData;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as IndexData;
  } catch {
    return null; // missing or not JSON
  }
  if (data === null || typeof data !== 'object' || data.format !== FORMAT || data.build !== build || !Array.isArray(data.files)) return null;
  if (data.files.length !== files.length) return null;
  for (let i = 0; i < files.length; i++) {
    const e = data.files[i] as LibraryIndexEntry | null;
    if (e === null || typeof e !== 'object' || e.path !== files[i] || e.text !== texts[i]) return null;
    if (!Number.isInteger(e.lineCount) || !Array.isArray(e.rootNames) || !e.rootNames.every((n) => typeof n === 'string')) return null;
  }
  return data.files as LibraryIndexEntry[];
}

/** Writes the index (`shared`: readable by all, the build's; aside, then renamed: a reader sees a whole file or none). A cache only: a
 * folder that cannot be written means none. */
export function writeLibraryIndex(file: string, build: string, files: readonly LibraryIndexEntry[], shared = false): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const part = `${file}.${process.pid}.part`;
    // The user's own cache is theirs alone; the build's (dist/) is read by every user of the install.
    writeFileSync(part, JSON.stringify({ format: FORMAT, build, files } satisfies IndexData), { mode: shared ? 0o644 : 0o600 });
    renameSync(part, file);
  } catch {
    // no index
  }
}
