import { existsSync } from 'node:fs';
import * as vscode from 'vscode';

import { referenceEngineEntry, type EngineEntry } from '../../host/manifest';
import { resolveEngineSettings, type ConfiguredEngine, type EngineLevel, type EngineSettings } from '../ask/askSettings';

export type { ConfiguredEngine, EngineSettings } from '../ask/askSettings';

/** The bundled reference engine's entry. In desktop VS Code the extension host runs on Electron,
 * which acts as Node only when told to (harmless under Node itself). */
export function bundledEngineEntry(distDir: string): EngineEntry {
  const entry = referenceEngineEntry(distDir);
  return { ...entry, env: { ...entry.env, ELECTRON_RUN_AS_NODE: '1' } };
}

/**
 * The engines Assay would offer questions to, read from the settings of every level. In an untrusted
 * workspace VS Code hides restricted workspace values even from `inspect()`, so the entries are read
 * from the workspace's settings files instead, to be listed as ignored with the reason.
 */
export async function readEngineSettings(distDir: string): Promise<EngineSettings> {
  const config = vscode.workspace.getConfiguration('assay');
  const trusted = vscode.workspace.isTrusted;
  const inspected = config.inspect<unknown[]>('engines');
  const levels: EngineLevel[] = [{ origin: 'user', entries: inspected?.globalValue }];
  if (trusted) {
    levels.push({ origin: 'workspace', entries: inspected?.workspaceValue }, { origin: 'workspace folder', entries: inspected?.workspaceFolderValue });
  } else {
    levels.push(...(await untrustedWorkspaceEntries()).map(([origin, entries]) => ({ origin: origin as EngineLevel['origin'], entries })));
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const input: Parameters<typeof resolveEngineSettings>[0] = { levels, trusted };
  if (folder?.scheme === 'file') input.folder = folder.fsPath;
  if (config.get<boolean>('useBundledEngine', true)) {
    const bundled = bundledEngineEntry(distDir);
    input.bundled = bundled;
    const program = bundled.args?.[0] ?? '';
    if (!existsSync(program)) input.bundledMissing = `${program} is not in this build`;
  }
  return resolveEngineSettings(input);
}

/** The configured engines as Show Engines lists them. */
export async function configuredEngines(distDir: string): Promise<ConfiguredEngine[]> {
  return (await readEngineSettings(distDir)).listing;
}

/** `assay.engines` as written in the workspace file and in each folder's .vscode/settings.json. */
async function untrustedWorkspaceEntries(): Promise<[ConfiguredEngine['origin'], unknown[] | undefined][]> {
  const found: [ConfiguredEngine['origin'], unknown[] | undefined][] = [];
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile && workspaceFile.scheme !== 'untitled') {
    const settings = (await readJsonc(workspaceFile) as { settings?: Record<string, unknown> } | undefined)?.settings;
    found.push(['workspace', enginesIn(settings)]);
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    const settings = await readJsonc(vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json')) as Record<string, unknown> | undefined;
    // A single-folder window reads the folder's settings as workspace settings.
    found.push([folders.length === 1 && !workspaceFile ? 'workspace' : 'workspace folder', enginesIn(settings)]);
  }
  return found;
}

function enginesIn(settings: Record<string, unknown> | undefined): unknown[] | undefined {
  const value = settings?.['assay.engines'];
  return Array.isArray(value) ? value : undefined;
}

async function readJsonc(uri: vscode.Uri): Promise<unknown> {
  try {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    return JSON.parse(stripJsonComments(text));
  } catch {
    return undefined; // absent or unreadable: nothing to list
  }
}

/** Settings files are JSON with comments and trailing commas; plain JSON.parse needs neither. */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}
