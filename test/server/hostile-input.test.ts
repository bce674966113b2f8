// Hostile models against the language server (dist/server.js over stdio): a 6 KB file of a 3,000-term
// chain sitting unopened in the workspace, and the same chains opened, must give diagnostics while
// every language feature keeps answering.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LanguageClient } from './lspClient';

describe('language server: hostile input', function () {
  this.timeout(60_000);
  const workspace = mkdtempSync(join(tmpdir(), 'assay-hostile-'));
  const plus = `package P { attribute x : Integer = ${Array(3000).fill('1').join('+')}; }\n`;
  writeFileSync(join(workspace, 'plus.sysml'), plus);
  const okText = 'package Ok {\n  part def Car;\n  part car : Car;\n}\n';
  writeFileSync(join(workspace, 'ok.sysml'), okText);
  const plusUri = pathToFileURL(join(workspace, 'plus.sysml')).href;
  const okUri = pathToFileURL(join(workspace, 'ok.sysml')).href;
  let client: LanguageClient;

  before(async function () {
    client = await LanguageClient.start({ workspace });
  });
  after(async function () {
    await client?.stop();
  });

  it('an unopened workspace file with a 3,000-term chain gets a diagnostic; the server lives on', async function () {
    const diagnostics = await client.diagnostics(plusUri, (d) => d.some((x) => /nested too deeply/.test(x.message)));
    const deep = diagnostics.find((x) => /nested too deeply/.test(x.message))!;
    assert.equal(deep.message, 'expression nested too deeply (3000 levels; at most 999 here): split it into named parts');
    assert.deepEqual(deep.range.start, { line: 0, character: 36 });
    await client.open(okUri, okText);
    const symbols = await client.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri: okUri } });
    assert.deepEqual(symbols.map((s) => s.name), ['Ok']);
    assert.equal(client.child.exitCode, null);
  });

  it('opened chains of every kind (+, ., [ ], **, calls, unary) get diagnostics, and symbols, hover, definition, folding still answer', async function () {
    const texts = [
      `package A { part a { part a; } attribute y = ${Array(3000).fill('a').join('.')}; }\n`,
      `package B { attribute z = a${'[1]'.repeat(3000)}; }\n`,
      `package C { attribute v = ${Array(3000).fill('2').join('**')}; }\n`,
      `package D { attribute w = ${'f('.repeat(3000)}1${')'.repeat(3000)}; }\n`,
      `package E { attribute u = ${'-'.repeat(3000)}1; }\n`,
      `package F { attribute t = ${Array(3000).fill('true').join(' and ')}; }\n`,
    ];
    for (const [i, text] of texts.entries()) {
      const uri = pathToFileURL(join(workspace, `open${i}.sysml`)).href;
      await client.open(uri, text);
      await client.diagnostics(uri, (d) => d.some((x) => /too deep/.test(x.message)));
      const symbols = await client.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.equal(symbols[0]!.name, 'ABCDEF'[i]);
      await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 40 } });
      await client.request('textDocument/definition', { textDocument: { uri }, position: { line: 0, character: 40 } });
      await client.request('textDocument/foldingRange', { textDocument: { uri } });
      await client.request('textDocument/codeLens', { textDocument: { uri } });
    }
    assert.equal(client.child.exitCode, null);
  });

  it('after shutdown, requests are answered InvalidRequest (LSP), and exit ends the server', async function () {
    const late = await LanguageClient.start({ workspace });
    await late.open(okUri, okText);
    await late.request('shutdown', null);
    await assert.rejects(
      late.request('textDocument/documentSymbol', { textDocument: { uri: okUri } }),
      (error: { code?: number; message?: string }) => error.code === -32600 && /shut down/.test(error.message ?? ''),
    );
    await late.stop();
    assert.equal(late.child.exitCode, 0);
  });
});
