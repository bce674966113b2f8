import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

import { MODEL_NODE_FLAGS } from '../../host/node-flags';

/** Languages the Assay language server serves. */
export const modelLanguages = ['sysml', 'kerml'] as const;

/** Starts dist/server.js over Node IPC; the client is stopped when the extension deactivates. */
export function createLanguageClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const modelFileWatcher = vscode.workspace.createFileSystemWatcher('**/*.{sysml,kerml}');
  context.subscriptions.push(modelFileWatcher);
  // The server parses whole model files: started with the V8 flags chosen for that (src/host/node-flags.ts).
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...MODEL_NODE_FLAGS] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...MODEL_NODE_FLAGS, '--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: modelLanguages.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    synchronize: {
      // The server reads `assay.standardLibraryPath` through workspace/configuration; this makes the
      // client tell it when any `assay.*` setting changes.
      configurationSection: 'assay',
      // Model files created, changed or deleted outside the editor change what names resolve to.
      fileEvents: modelFileWatcher,
    },
    outputChannel: output,
    // The server's own errors are already in the Assay channel; do not pop it up on every restart.
    revealOutputChannelOn: 4 /* RevealOutputChannelOn.Never */,
  };
  return new LanguageClient('assay', 'Assay Language Server', serverOptions, clientOptions);
}
