// A minimal LSP client for tests and benchmarks: dist/server.js spawned over stdio, with what a
// client observes (published diagnostics, messages shown, refresh requests) recorded.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MODEL_NODE_FLAGS } from '../../src/host/node-flags';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

export const repoRoot = join(__dirname, '..', '..');
export const serverPath = join(repoRoot, 'dist', 'server.js');

export interface Position { line: number; character: number }
export interface Range { start: Position; end: Position }
export interface Diagnostic { range: Range; message: string; severity?: number; source?: string }
export interface PublishDiagnostics { uri: string; version?: number; diagnostics: Diagnostic[] }
export interface Location { uri: string; range: Range }
export interface LocationLink { targetUri: string; targetRange: Range; targetSelectionRange: Range; originSelectionRange?: Range }
export interface Hover { contents: { kind: string; value: string }; range?: Range }
export interface CodeLens { range: Range; command?: { title: string; command: string; arguments?: unknown[] } }

export interface ClientOptions {
  /** Workspace folder (a path). */
  workspace: string;
  /** Answers workspace/configuration for `section`; when absent the client does not offer it. */
  settings?: (section: string) => unknown;
  codeLensRefresh?: boolean;
  /** Whether the client takes LocationLinks for go to definition (VS Code does). */
  definitionLinks?: boolean;
  /** The server to start (default: dist/server.js). */
  server?: string;
}

export class LanguageClient {
  readonly published: (PublishDiagnostics & { at: number })[] = [];
  readonly messages: { type: number; message: string }[] = [];
  codeLensRefreshes = 0;
  private version = 1;

  private constructor(readonly child: ChildProcess, readonly connection: MessageConnection) {}

  static async start(options: ClientOptions): Promise<LanguageClient> {
    // Started as the editor starts it: with the model programs' V8 flags (and so with its code cache).
    const child = spawn(process.execPath, [...MODEL_NODE_FLAGS, options.server ?? serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LanguageClient(child, connection);
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnostics) => {
      client.published.push({ ...params, at: performance.now() });
    });
    connection.onNotification('window/showMessage', (params: { type: number; message: string }) => { client.messages.push(params); });
    connection.onNotification('window/logMessage', () => undefined);
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map((item) => options.settings?.(item.section ?? '') ?? null));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => {
      client.codeLensRefreshes++;
      return null;
    });
    connection.listen();
    await connection.sendRequest('initialize', {
      processId: process.pid, rootUri: null,
      capabilities: {
        workspace: {
          configuration: options.settings !== undefined,
          didChangeConfiguration: { dynamicRegistration: true },
          codeLens: { refreshSupport: options.codeLensRefresh ?? false },
        },
        textDocument: { definition: { linkSupport: options.definitionLinks ?? false } },
      },
      workspaceFolders: [{ uri: pathToFileURL(options.workspace).href, name: 'workspace' }],
    });
    await connection.sendNotification('initialized', {});
    return client;
  }

  async open(uri: string, text: string, languageId = uri.endsWith('.kerml') ? 'kerml' : 'sysml'): Promise<void> {
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: this.version++, text } });
  }

  /** Replaces the whole text, as an editor sends a change. */
  async change(uri: string, text: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: this.version++ }, contentChanges: [{ text }],
    });
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest<T>(method, params);
  }

  /** The latest diagnostics published for `uri` once they satisfy `predicate`. */
  async diagnostics(uri: string, predicate: (d: Diagnostic[]) => boolean, ms = 10_000): Promise<Diagnostic[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const latest = [...this.published].reverse().find((p) => p.uri === uri);
      if (latest && predicate(latest.diagnostics)) return latest.diagnostics;
      if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${uri}; last: ${JSON.stringify(latest?.diagnostics)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async until(what: string, predicate: () => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async stop(): Promise<void> {
    await this.connection.sendRequest('shutdown').catch(() => undefined);
    await this.connection.sendNotification('exit').catch(() => undefined);
    this.connection.dispose();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => { this.child.kill('SIGKILL'); resolve(); }, 2000);
        this.child.once('exit', () => { clearTimeout(timer); resolve(); });
      });
    }
    assert.notEqual(this.child.exitCode ?? this.child.signalCode, null, 'server still running');
  }
}

/** 0-based position of the `nth` occurrence of `needle` in `text` (plus `shift` characters). */
export function positionOf(text: string, needle: string, shift = 0, nth = 1): Position {
  let at = -1;
  for (let i = 0; i < nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' occurs fewer than ${nth} times`);
  }
  const before = text.slice(0, at + shift).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}
