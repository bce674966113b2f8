// The `assay.standardLibraryPath` setting: a folder holding the SysML v2 standard library, read
// into model files for the name index. A bad value is a message naming the setting, never a throw.
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { homedir } from 'node:os';
import { maxFolders, modelPaths, type ModelFile, type ModelFiles, type WalkStats } from './workspaceModels';

export const LIBRARY_SETTING = 'assay.standardLibraryPath';

export type LibraryLoad =
  | { ok: true; folder: string; files: ModelFile[] }
  | { ok: false; message: string };

/** Where the setting points: `~` expanded, a relative path taken from the first workspace folder. */
export function libraryFolderOf(setting: string, workspaceFolder: string | null): string {
  let path = setting.trim();
  if (path === '~' || path.startsWith('~/')) path = homedir() + path.slice(1);
  return isAbsolute(path) || !workspaceFolder ? resolve(path) : resolve(workspaceFolder, path);
}

export function loadLibrary(setting: string, workspaceFolder: string | null, files: ModelFiles): LibraryLoad {
  const folder = libraryFolderOf(setting, workspaceFolder);
  const fallback = 'standard library names resolve against the built-in table instead';
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    return { ok: false, message: `${LIBRARY_SETTING}: '${setting}' does not exist (${folder}); ${fallback}.` };
  }
  if (!isFolder) return { ok: false, message: `${LIBRARY_SETTING}: '${setting}' is not a folder; ${fallback}.` };
  const loaded: ModelFile[] = [];
  const walk: WalkStats = { folders: 0, cut: false };
  for (const path of modelPaths(folder, undefined, walk)) {
    const file = files.load(path);
    if (file) loaded.push(file);
  }
  if (walk.cut) {
    return { ok: false, message: `${LIBRARY_SETTING}: '${setting}' holds more than ${maxFolders} folders, too many for the library folder (point it at the folder holding the library's .sysml/.kerml files); ${fallback}.` };
  }
  if (loaded.length === 0) {
    return { ok: false, message: `${LIBRARY_SETTING}: '${setting}' holds no .sysml or .kerml files; ${fallback}.` };
  }
  return { ok: true, folder, files: loaded };
}
