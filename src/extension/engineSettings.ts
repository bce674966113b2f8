import * as vscode from 'vscode';

/** One engine as the settings declare it, with where it came from and whether it may start. */
export interface ConfiguredEngine {
  name: string;
  command: string;
  origin: 'bundled' | 'user' | 'workspace' | 'workspace folder';
  /** Why this entry will not be used; absent when it may start. */
  ignoredBecause?: string;
}

interface EntryShape {
  name?: unknown;
  command?: unknown;
}

function describeEntry(entry: unknown, origin: ConfiguredEngine['origin'], index: number, trusted: boolean): ConfiguredEngine {
  const shape: EntryShape = typeof entry === 'object' && entry !== null ? (entry as EntryShape) : {};
  const name = typeof shape.name === 'string' && shape.name.length > 0 ? shape.name : `assay.engines[${index}]`;
  const command = typeof shape.command === 'string' ? shape.command : '';
  const engine: ConfiguredEngine = { name, command, origin };
  if (origin !== 'user' && !trusted) {
    engine.ignoredBecause =
      `ignored: the workspace is not trusted, and engine entries from ${origin} settings start programs ` +
      `(set it in user settings, or trust the workspace)`;
  } else if (command === '') {
    engine.ignoredBecause = `ignored: assay.engines[${index}] (${origin} settings) has no "command"`;
  }
  return engine;
}

/**
 * The engines Assay would offer questions to, read from the settings of every level. In an untrusted
 * workspace VS Code hides restricted workspace values even from `inspect()`, so the entries are read
 * from the workspace's settings files instead, to be listed as ignored with the reason.
 */
export async function configuredEngines(bundledEnginePath: string, bundledEngineExists: boolean): Promise<ConfiguredEngine[]> {
  const config = vscode.workspace.getConfiguration('assay');
  const trusted = vscode.workspace.isTrusted;
  const engines: ConfiguredEngine[] = [];
  if (config.get<boolean>('useBundledEngine', true)) {
    const bundled: ConfiguredEngine = { name: 'assay-reference', command: bundledEnginePath, origin: 'bundled' };
    if (!bundledEngineExists) bundled.ignoredBecause = `missing: ${bundledEnginePath} is not in this build`;
    engines.push(bundled);
  }
  const inspected = config.inspect<unknown[]>('engines');
  const levels: [ConfiguredEngine['origin'], unknown[] | undefined][] = [['user', inspected?.globalValue]];
  if (trusted) {
    levels.push(['workspace', inspected?.workspaceValue], ['workspace folder', inspected?.workspaceFolderValue]);
  } else {
    levels.push(...(await untrustedWorkspaceEntries()));
  }
  for (const [origin, entries] of levels) {
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => engines.push(describeEntry(entry, origin, index, trusted)));
  }
  return engines;
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
