import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

// The Assay language server: started by the extension over Node IPC (or `--stdio` by other clients).
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
  },
  serverInfo: { name: 'assay-language-server' },
}));

documents.listen(connection);
connection.listen();
