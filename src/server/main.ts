import {
  ErrorCodes, IPCMessageReader, IPCMessageWriter, Message, StreamMessageReader, StreamMessageWriter,
  type MessageReader, type MessageWriter, type ResponseMessage,
  CodeLensRefreshRequest, createConnection, DiagnosticSeverity, DidChangeConfigurationNotification, MessageType, ProposedFeatures,
  ShowMessageNotification, TextDocuments, TextDocumentSyncKind, type Diagnostic, type Location, type SymbolInformation,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { declarationsOf, hoverAt, matchesQuery, referenceHover } from './navigation';
import { foldingRangesOf, symbolsOf } from './outline';
import { askLenses, questionKindsBySubject } from './lenses';
import { carryDiagnostics, type OffsetDiagnostic } from './carriedDiagnostics';
import { LIBRARY_SETTING } from './library';
import { canonicalUri } from './workspaceModels';
import { languageOf, ModelSet, rangeIn } from './modelSet';
import { ENGINE_ANSWERS_NOTIFICATION, type EngineAnswersParams } from './requests';
import { BUILTIN_LIBRARY_VERSION, type Declaration } from '../sysml/names';
import { endStartupTierUp } from '../launcher/tier-up';

// The Assay language server: started by the extension over Node IPC (or `--stdio` by other clients).
const connection = connectRefusingAfterShutdown();

/**
 * The connection, with requests after `shutdown` answered InvalidRequest as the LSP specification
 * asks (only `exit` is expected then); the library itself would go on answering them.
 */
function connectRefusingAfterShutdown(): ReturnType<typeof createConnection> {
  const stdio = process.argv.includes('--stdio');
  const ipc = process.argv.includes('--node-ipc') && typeof process.send === 'function';
  if (!stdio && !ipc) return createConnection(ProposedFeatures.all);
  const inner: MessageReader = stdio ? new StreamMessageReader(process.stdin) : new IPCMessageReader(process);
  const writer: MessageWriter = stdio ? new StreamMessageWriter(process.stdout) : new IPCMessageWriter(process);
  let shutDown = false;
  const reader: MessageReader = {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    listen: (callback) => inner.listen((message) => {
      if (Message.isRequest(message)) {
        if (shutDown) {
          void writer.write({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCodes.InvalidRequest, message: `the server is shut down: ${message.method} is not answered (only exit is expected)` } } as ResponseMessage);
          return;
        }
        if (message.method === 'shutdown') shutDown = true;
      }
      callback(message);
    }),
    dispose: () => inner.dispose(),
  };
  return createConnection(ProposedFeatures.all, reader, writer);
}
const documents = new TextDocuments(TextDocument);
const models = new ModelSet();

/** Milliseconds to wait after the last keystroke before re-checking a document. */
const diagnosticsDelayMs = 150;

const client = { configuration: false, codeLensRefresh: false, definitionLinks: false };
/** Settles once the settings were read: checks wait for it so that the first diagnostics already
 * use the configured library. */
let ready: Promise<void> = Promise.resolve();
/** What the configured engines answer; null until the extension says (no lenses before). */
let questionKinds: Map<string, string[]> | null = null;

function log(message: string): void {
  connection.console.log(message);
}

/** Open documents whose text entered the index since their diagnostics were last published. */
const unchecked = new Set<string>();

function sync(document: TextDocument): void {
  if (models.sync(document)) unchecked.add(document.uri);
}

/** Parses the document's current version into the index if it is not there yet. */
function current(uri: string): TextDocument | null {
  const document = documents.get(uri);
  if (!document) return null;
  sync(document);
  return document;
}

/** What a document's last complete check found, to carry its name diagnostics over the next edit. */
interface Checked {
  readonly text: string;
  readonly names: OffsetDiagnostic[];
  /** How long resolving its names took (decays, so one slow check is not held against it forever). */
  readonly resolveMs: number;
}
const checked = new Map<string, Checked>();

/** A document whose names took longer than this to resolve gets its syntax errors published first,
 * with its earlier name diagnostics carried over the edit, and the complete set once resolved. */
const slowResolveMs = 50;

function publish(document: TextDocument, names: readonly OffsetDiagnostic[]): void {
  const source = languageOf(document.uri, document.languageId);
  const parsed = models.parsedOf(document.uri)!;
  const diagnostics: Diagnostic[] = parsed.errors.map((error) => ({
    range: rangeIn(document, error.range), message: error.message, severity: DiagnosticSeverity.Error, source,
  }));
  // OpenSysML's notation is read, never silently: a warning naming the standard spelling.
  for (const w of parsed.warnings) {
    diagnostics.push({ range: rangeIn(document, w.range), message: w.message, severity: DiagnosticSeverity.Warning, source, code: w.code });
  }
  for (const name of names) {
    diagnostics.push({ range: rangeIn(document, name), message: name.message, severity: name.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error, source });
  }
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
}

/** Resolves the document's names and publishes every diagnostic. */
function publishComplete(document: TextDocument): void {
  const started = performance.now();
  const names = models.nameDiagnostics(document.uri).map((d) => ({ start: d.range.start, end: d.range.end, message: d.message, ...(d.severity ? { severity: d.severity } : {}) }));
  const resolveMs = Math.max(performance.now() - started, (checked.get(document.uri)?.resolveMs ?? 0) / 2);
  checked.set(document.uri, { text: document.getText(), names, resolveMs });
  publish(document, names);
  // The start is over once a document has its diagnostics: from now on the same code runs on every
  // edit, and V8 may optimize it as soon as it likes (src/launcher/tier-up.ts).
  endStartupTierUp();
}

const pending = new Map<string, NodeJS.Timeout>();

function scheduleCheck(uri: string, delayMs: number): void {
  clearTimeout(pending.get(uri));
  pending.set(uri, setTimeout(() => {
    pending.delete(uri);
    void ready.then(() => check(uri));
  }, delayMs));
}

/** Re-checks one open document; when its text changed, then the documents that depend on it. */
function check(uri: string): void {
  const document = documents.get(uri);
  if (!document) return;
  const previous = checked.get(uri);
  const text = document.getText();
  if (!previous || previous.resolveMs < slowResolveMs || previous.text === text) {
    sync(document);
    const changed = unchecked.delete(uri);
    publishComplete(document);
    if (changed) recheck(models.dependentsOf([uri]));
    return;
  }
  // Slow to resolve: syntax errors (and the earlier name diagnostics, carried over the edit) now;
  // declarations and names on the next turn, after they went out. A newer version has its own check.
  models.parseOnly(document);
  publish(document, carryDiagnostics(previous.names, previous.text, text));
  const version = document.version;
  setImmediate(() => {
    const now = documents.get(uri);
    if (!now || now.version !== version || pending.has(uri)) return;
    sync(now);
    unchecked.delete(uri);
    publishComplete(now);
    recheck(models.dependentsOf([uri]));
  });
}

/** Re-checks documents that may depend on a change: open ones one per event-loop turn, so that
 * requests in between are answered; closed workspace files in the background, once edits pause. */
function recheck(dependents: { open: readonly string[]; closed: readonly string[] }): void {
  for (const uri of dependents.open) if (!pending.has(uri)) scheduleCheck(uri, 0);
  if (dependents.closed.length > 0) queueFileChecks(dependents.closed, closedFilesDelayMs);
}

/** Closed workspace files are re-checked this long after the last change that may affect them. */
const closedFilesDelayMs = 500;
/** Closed workspace files waiting for a check (URIs), in order. */
const fileQueue = new Set<string>();
let fileTimer: NodeJS.Timeout | undefined;

function queueFileChecks(uris: readonly string[], delayMs: number): void {
  for (const uri of uris) fileQueue.add(uri);
  clearTimeout(fileTimer);
  fileTimer = setTimeout(() => void ready.then(checkQueuedFiles), delayMs);
}

/** Checks queued files for a few milliseconds per turn, then lets requests through. */
function checkQueuedFiles(): void {
  fileTimer = undefined;
  const started = performance.now();
  for (const uri of fileQueue) {
    if (performance.now() - started > 20) break;
    fileQueue.delete(uri);
    const found = models.fileDiagnostics(uri);
    if (!found) continue; // opened or gone meanwhile: its own check publishes
    const source = languageOf(uri);
    const diagnostics: Diagnostic[] = [...found.syntax, ...found.names].map((d) => ({
      range: rangeIn(found.text, d.range), message: d.message, severity: 'severity' in d && d.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error, source,
    }));
    void connection.sendDiagnostics({ uri, diagnostics });
  }
  if (fileQueue.size > 0 && fileTimer === undefined) fileTimer = setTimeout(checkQueuedFiles, 0);
  else if (fileQueue.size === 0) endStartupTierUp();
}

/** After files entered, changed or left the index outside an editor: check them, clear the
 * problems of those gone, and re-check what depends on them. */
function filesChanged(changed: readonly string[], removed: readonly string[]): void {
  for (const uri of removed) void connection.sendDiagnostics({ uri, diagnostics: [] });
  if (changed.length > 0) queueFileChecks(changed, 0);
  if (changed.length + removed.length > 0) recheck(models.dependentsOf([...changed, ...removed]));
}

async function readLibrarySetting(pushed?: unknown): Promise<string> {
  if (client.configuration) {
    const value: unknown = await connection.workspace.getConfiguration({ section: LIBRARY_SETTING });
    return typeof value === 'string' ? value : '';
  }
  const assay = (pushed as { assay?: { standardLibraryPath?: unknown } } | undefined)?.assay;
  return typeof assay?.standardLibraryPath === 'string' ? assay.standardLibraryPath : '';
}

/** Reads `assay.standardLibraryPath` and loads that library; a value that cannot be used is shown
 * once as an error naming the setting. */
async function configure(pushed?: unknown): Promise<void> {
  let setting = '';
  try {
    setting = await readLibrarySetting(pushed);
  } catch (error) {
    log(`could not read the settings: ${error instanceof Error ? error.message : String(error)}`);
  }
  const started = performance.now();
  const { changed, error } = models.configureLibrary(setting);
  if (error !== reported) {
    reported = error;
    if (error) {
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message: error });
      log(error);
    }
  }
  if (changed) {
    const folder = models.libraryFolder;
    log(folder ? `standard library loaded from ${folder} in ${Math.round(performance.now() - started)} ms`
      : `standard library: built-in names (${BUILTIN_LIBRARY_VERSION})`);
    recheck({ open: models.openUris(), closed: models.closedFiles() });
  }
}
/** The library setting's problem last shown, so that one problem is shown once. */
let reported: string | null = null;

connection.onInitialize((params) => {
  const roots = (params.workspaceFolders ?? []).map((folder) => folder.uri);
  if (roots.length === 0 && params.rootUri) roots.push(params.rootUri);
  models.setRoots(roots);
  client.configuration = params.capabilities.workspace?.configuration === true;
  client.codeLensRefresh = params.capabilities.workspace?.codeLens?.refreshSupport === true;
  client.definitionLinks = params.capabilities.textDocument?.definition?.linkSupport === true;
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      documentSymbolProvider: { label: 'SysML' },
      foldingRangeProvider: true,
      hoverProvider: true,
      definitionProvider: true,
      workspaceSymbolProvider: true,
      codeLensProvider: { resolveProvider: false },
    },
    serverInfo: { name: 'assay-language-server' },
  };
});

connection.onInitialized(() => {
  ready = (async () => {
    if (client.configuration) {
      // Without registering, a client that pulls settings may not tell us they changed.
      await connection.client.register(DidChangeConfigurationNotification.type, { section: 'assay' }).catch(() => undefined);
    }
    await configure();
    models.rescan();
    // Every workspace file is checked, in the background: problems of closed files show too.
    queueFileChecks(models.closedFiles(), 0);
  })().catch(logFailure);
});

connection.onDidChangeConfiguration((change) => {
  ready = ready.then(() => configure(change.settings)).catch(logFailure);
});

function logFailure(error: unknown): void {
  log(`settings not applied: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
}

connection.onDidChangeWatchedFiles(({ changes }) => {
  const touched = changes.map((c) => c.uri).filter((uri) => models.diskChanged(uri));
  filesChanged(touched.filter((uri) => models.isClosedFile(uri)).map(canonicalUri),
    touched.filter((uri) => !models.isClosedFile(uri)).map(canonicalUri));
});

connection.onNotification(ENGINE_ANSWERS_NOTIFICATION, (params: EngineAnswersParams) => {
  questionKinds = questionKindsBySubject(Array.isArray(params?.engines) ? params.engines : []);
  if (client.codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
});

// Fired on open too: a document not parsed yet is checked at once, an edited one after a pause.
documents.onDidChangeContent(({ document }) => scheduleCheck(document.uri, models.parsedOf(document.uri) ? diagnosticsDelayMs : 0));
documents.onDidClose(({ document }) => {
  clearTimeout(pending.get(document.uri));
  pending.delete(document.uri);
  unchecked.delete(document.uri);
  checked.delete(document.uri);
  const dependents = models.dependentsOf([document.uri]);
  models.close(document.uri);
  // A workspace file shows the problems of its text on disk again; any other document none.
  if (models.isClosedFile(document.uri)) queueFileChecks([canonicalUri(document.uri)], 0);
  else void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  recheck(dependents);
});

connection.onDocumentSymbol(({ textDocument }) => {
  const document = current(textDocument.uri);
  return document ? symbolsOf(document, models.parsedOf(document.uri)!.document.members, languageOf(document.uri, document.languageId)) : [];
});

connection.onFoldingRanges(({ textDocument }) => {
  const document = current(textDocument.uri);
  return document ? foldingRangesOf(document, models.parsedOf(document.uri)!.document.members) : [];
});

function originOf(d: Declaration): string | null {
  if (d.layer === 'builtin') return `Standard library (built-in names, ${BUILTIN_LIBRARY_VERSION})`;
  if (d.layer === 'library' && d.document) {
    try {
      return `Standard library: \`${basename(fileURLToPath(d.document))}\``;
    } catch {
      return 'Standard library';
    }
  }
  return null;
}

connection.onHover(async ({ textDocument, position }) => {
  await ready;
  const document = current(textDocument.uri);
  if (!document) return null;
  const offset = document.offsetAt(position);
  const language = languageOf(document.uri, document.languageId);
  const declared = hoverAt(document, models.parsedOf(document.uri)!.document.members, offset, language);
  if (declared) return declared;
  const reference = models.referenceAt(document.uri, offset);
  if (!reference || reference.targets.length === 0) return null;
  const value = referenceHover(reference.targets, (d) => languageOf(d.document ?? ''), originOf,
    (d) => (d.document ? models.textOf(d.document)?.getText() ?? null : null));
  return { contents: { kind: 'markdown', value }, range: rangeIn(document, reference.range) };
});

connection.onDefinition(async ({ textDocument, position }) => {
  await ready;
  const document = current(textDocument.uri);
  if (!document) return null;
  const offset = document.offsetAt(position);
  const targets = models.declarationsAt(document.uri, offset);
  if (client.definitionLinks) {
    // A link underlines the whole reference (`ScalarValues::Real`) and previews the whole declaration.
    const reference = models.referenceAt(document.uri, offset);
    const origin = reference ? rangeIn(document, reference.range) : undefined;
    return targets.flatMap((d) => models.linkTo(d, origin) ?? []);
  }
  return targets.flatMap((d): Location[] => { const location = models.locationOf(d); return location ? [location] : []; });
});

connection.onCodeLens(({ textDocument }) => {
  if (!questionKinds) return [];
  const document = current(textDocument.uri);
  return document ? askLenses(document.uri, document, models.declarationsIn(document.uri), questionKinds) : [];
});

/** At most this many workspace symbols per answer; VS Code filters further as the user types. */
const workspaceSymbolLimit = 2000;

connection.onWorkspaceSymbol(async ({ query }) => {
  await ready;
  const results: SymbolInformation[] = [];
  // Open documents with their unsaved text first, then the model files on disk.
  for (const document of documents.all()) {
    sync(document);
    const symbols = symbolsOf(document, models.parsedOf(document.uri)!.document.members, languageOf(document.uri, document.languageId));
    results.push(...declarationsOf(document.uri, symbols).filter((s) => matchesQuery(s.name, query)));
  }
  // Files created or deleted since the last look count too (a client may not report file events).
  const { changed, removed } = models.rescan();
  filesChanged(changed, removed);
  for (const file of models.diskFiles()) {
    if (results.length >= workspaceSymbolLimit) break;
    results.push(...file.declarations().filter((s) => matchesQuery(s.name, query)));
  }
  return results.slice(0, workspaceSymbolLimit);
});

documents.listen(connection);
connection.listen();
