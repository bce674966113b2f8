import {
  createConnection, DiagnosticSeverity, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type Diagnostic,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parse, type ParseResult } from '../sysml';
import { foldingRangesOf, symbolsOf } from './outline';

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

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    documentSymbolProvider: { label: 'SysML' },
    foldingRangeProvider: true,
  },
  serverInfo: { name: 'assay-language-server' },
}));

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

documents.listen(connection);
connection.listen();
