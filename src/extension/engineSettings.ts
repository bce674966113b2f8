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
 * The engines Assay would offer questions to, read from the settings of every level. VS Code already
 * hides restricted workspace values from `get()` in an untrusted workspace; `inspect()` still shows them,
 * which is what lets the Engines list say why an entry is ignored.
 */
export function configuredEngines(bundledEnginePath: string, bundledEngineExists: boolean): ConfiguredEngine[] {
  const config = vscode.workspace.getConfiguration('assay');
  const trusted = vscode.workspace.isTrusted;
  const engines: ConfiguredEngine[] = [];
  if (config.get<boolean>('useBundledEngine', true)) {
    const bundled: ConfiguredEngine = { name: 'assay-reference', command: bundledEnginePath, origin: 'bundled' };
    if (!bundledEngineExists) bundled.ignoredBecause = `missing: ${bundledEnginePath} is not in this build`;
    engines.push(bundled);
  }
  const inspected = config.inspect<unknown[]>('engines');
  const levels: [ConfiguredEngine['origin'], unknown[] | undefined][] = [
    ['user', inspected?.globalValue],
    ['workspace', inspected?.workspaceValue],
    ['workspace folder', inspected?.workspaceFolderValue],
  ];
  for (const [origin, entries] of levels) {
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => engines.push(describeEntry(entry, origin, index, trusted)));
  }
  return engines;
}
