import {
  createConnection, DiagnosticSeverity, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type Diagnostic,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parse, type ParseResult } from '../sysml';
import { declarationsOf, hoverAt, matchesQuery } from './navigation';
import { foldingRangesOf, symbolsOf } from './outline';
import { WorkspaceModels } from './workspaceModels';

// The Assay language server: started by the extension over Node IPC (or `--stdio` by other clients).
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

/** Milliseconds to wait after the last keystroke before re-checking a document. */
const diagnosticsDelayMs = 200;

function languageOf(document: TextDocument): 'sysml' | 'kerml' {
  return document.languageId === 'kerml' || document.uri.toLowerCase().endsWith('.kerml') ? 'kerml' : 'sysml';
}

// One parse per document version, shared by diagnostics, outline and folding.
const parsed = new Map<string, { version: number; result: ParseResult }>();

function parseOf(document: TextDocument): ParseResult {
  const cached = parsed.get(document.uri);
  if (cached && cached.version === document.version) return cached.result;
  const result = parse(document.getText(), { language: languageOf(document) });
  parsed.set(document.uri, { version: document.version, result });
  return result;
}

function publishDiagnostics(document: TextDocument): void {
  const diagnostics: Diagnostic[] = parseOf(document).errors.map((error) => ({
    range: { start: document.positionAt(error.range.start), end: document.positionAt(error.range.end) },
    message: error.message,
    severity: DiagnosticSeverity.Error,
    source: languageOf(document) === 'kerml' ? 'kerml' : 'sysml',
  }));
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
}

const pending = new Map<string, NodeJS.Timeout>();

function scheduleDiagnostics(document: TextDocument, delayMs: number): void {
  clearTimeout(pending.get(document.uri));
  pending.set(document.uri, setTimeout(() => {
    pending.delete(document.uri);
    // The document may have closed or changed again meanwhile; check the current version.
    const current = documents.get(document.uri);
    if (current) publishDiagnostics(current);
  }, delayMs));
}

let models = new WorkspaceModels([]);

connection.onInitialize((params) => {
  const roots = (params.workspaceFolders ?? []).map((folder) => folder.uri);
  if (roots.length === 0 && params.rootUri) roots.push(params.rootUri);
  models = new WorkspaceModels(roots);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      documentSymbolProvider: { label: 'SysML' },
      foldingRangeProvider: true,
      hoverProvider: true,
      workspaceSymbolProvider: true,
    },
    serverInfo: { name: 'assay-language-server' },
  };
});

documents.onDidOpen(({ document }) => scheduleDiagnostics(document, 0));
documents.onDidChangeContent(({ document }) => scheduleDiagnostics(document, diagnosticsDelayMs));
documents.onDidClose(({ document }) => {
  clearTimeout(pending.get(document.uri));
  pending.delete(document.uri);
  parsed.delete(document.uri);
  void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});

connection.onDocumentSymbol(({ textDocument }) => {
  const document = documents.get(textDocument.uri);
  return document ? symbolsOf(document, parseOf(document).document.members, languageOf(document)) : [];
});

connection.onFoldingRanges(({ textDocument }) => {
  const document = documents.get(textDocument.uri);
  return document ? foldingRangesOf(document, parseOf(document).document.members) : [];
});

connection.onHover(({ textDocument, position }) => {
  const document = documents.get(textDocument.uri);
  if (!document) return null;
  return hoverAt(document, parseOf(document).document.members, document.offsetAt(position), languageOf(document));
});

/** At most this many workspace symbols per answer; VS Code filters further as the user types. */
const workspaceSymbolLimit = 2000;

connection.onWorkspaceSymbol(({ query }) => {
  const results = [];
  // Open documents with their unsaved text first, then the model files on disk.
  for (const document of documents.all()) {
    const symbols = symbolsOf(document, parseOf(document).document.members, languageOf(document));
    results.push(...declarationsOf(document.uri, symbols).filter((s) => matchesQuery(s.name, query)));
  }
  const open = new Set(documents.all().map((document) => document.uri));
  for (const file of models.files(open)) {
    if (results.length >= workspaceSymbolLimit) break;
    results.push(...file.declarations.filter((s) => matchesQuery(s.name, query)));
  }
  return results.slice(0, workspaceSymbolLimit);
});

documents.listen(connection);
connection.listen();
