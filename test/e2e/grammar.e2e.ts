// The TextMate grammars tokenized by the same engine VS Code uses (vscode-textmate + oniguruma, taken
// from code-server's own node_modules), one scope check per construct.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, toolsRoot } from './harness';

interface Token { text: string; scopes: string[] }
interface Grammar { tokenizeLine(line: string, state: unknown): { tokens: { startIndex: number; endIndex: number; scopes: string[] }[]; ruleStack: unknown } }

const vscodeModules = join(toolsRoot, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules');

async function loadGrammar(scopeName: 'source.sysml' | 'source.kerml'): Promise<Grammar> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const textmate = require(join(vscodeModules, 'vscode-textmate')) as {
    Registry: new (options: unknown) => { loadGrammar(scope: string): Promise<Grammar> };
    parseRawGrammar(text: string, path: string): unknown;
    INITIAL: unknown;
  };
  const oniguruma = require(join(vscodeModules, 'vscode-oniguruma')) as {
    loadWASM(data: ArrayBuffer): Promise<void>;
    OnigScanner: new (patterns: string[]) => unknown;
    OnigString: new (text: string) => unknown;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const wasm = readFileSync(join(vscodeModules, 'vscode-oniguruma', 'release', 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scope: string) => {
      const file = join(repoRoot, 'syntaxes', `${scope.split('.')[1]}.tmLanguage.json`);
      return textmate.parseRawGrammar(readFileSync(file, 'utf8'), file);
    },
  });
  const grammar = await registry.loadGrammar(scopeName);
  (grammar as Grammar & { initial?: unknown }).initial = textmate.INITIAL;
  return grammar;
}

function tokenize(grammar: Grammar, text: string): Token[] {
  let state = (grammar as Grammar & { initial: unknown }).initial;
  const tokens: Token[] = [];
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    for (const token of result.tokens) tokens.push({ text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes });
  }
  return tokens;
}

function scopeOf(tokens: Token[], text: string): string {
  const token = tokens.find((t) => t.text === text);
  assert.ok(token, `no token "${text}" in ${JSON.stringify(tokens.map((t) => t.text))}`);
  return token.scopes.slice(1).join(' ');
}

describe('TextMate grammars (syntaxes/*.tmLanguage.json)', function () {
  it('scopes SysML keywords, names, comments, strings, numbers, units and operators', async function () {
    const grammar = await loadGrammar('source.sysml');
    const tokens = tokenize(grammar, [
      "package 'Vehicle Model' {",
      '    private import ISQ::*;',
      '    doc /* A vehicle. */',
      '    // a note',
      '    /* block',
      '       comment */',
      '    #Safety part def Vehicle :> Base {',
      "        attribute 'max load' = 1.5e3 [kg];",
      '        attribute name = "a \\"b\\"";',
      '        constraint { speed <= 120 [km/h] and not false }',
      '    }',
      '}',
    ].join('\n'));
    assert.match(scopeOf(tokens, 'package'), /^keyword\.other\.declaration\.sysml$/);
    assert.match(scopeOf(tokens, "'Vehicle Model'"), /entity\.name\.namespace\.sysml/);
    assert.match(scopeOf(tokens, 'private'), /storage\.modifier\.sysml/);
    assert.match(scopeOf(tokens, 'import'), /keyword\.other\.relationship\.sysml/);
    assert.match(scopeOf(tokens, 'doc'), /comment\.block\.documentation\.sysml/);
    assert.match(scopeOf(tokens, ' A vehicle. '), /comment\.block\.documentation/);
    assert.match(scopeOf(tokens, ' a note'), /comment\.line\.double-slash\.sysml/);
    assert.match(scopeOf(tokens, '       comment '), /comment\.block\.sysml/);
    assert.match(scopeOf(tokens, 'Safety'), /entity\.name\.tag\.metadata\.sysml/);
    assert.match(scopeOf(tokens, 'Vehicle'), /entity\.name\.type\.sysml/);
    assert.match(scopeOf(tokens, ':>'), /keyword\.operator\.relationship\.sysml/);
    assert.match(scopeOf(tokens, "'max load'"), /variable\.other\.unrestricted\.sysml/);
    assert.match(scopeOf(tokens, '1.5e3'), /constant\.numeric\.sysml/);
    assert.match(scopeOf(tokens, 'kg'), /keyword\.other\.unit\.sysml/);
    assert.match(scopeOf(tokens, 'km/h'), /keyword\.other\.unit\.sysml/);
    assert.match(scopeOf(tokens, '\\"'), /constant\.character\.escape\.sysml/);
    assert.match(scopeOf(tokens, '<='), /keyword\.operator\.comparison\.sysml/);
    assert.match(scopeOf(tokens, 'and'), /keyword\.operator\.word\.sysml/);
    assert.match(scopeOf(tokens, 'false'), /constant\.language\.sysml/);
  });

  it('does not take a multiplicity for a unit', async function () {
    const grammar = await loadGrammar('source.sysml');
    const tokens = tokenize(grammar, 'part wheels : Wheel[4]; part seats[0..*];');
    assert.ok(!tokens.some((t) => t.scopes.some((s) => s.startsWith('keyword.other.unit'))), JSON.stringify(tokens));
  });

  it('scopes KerML keywords with its own list', async function () {
    const grammar = await loadGrammar('source.kerml');
    const tokens = tokenize(grammar, 'classifier Shape; class Circle specializes Shape { feature radius : Real; }');
    assert.match(scopeOf(tokens, 'classifier'), /keyword\.other\.declaration\.kerml/);
    assert.match(scopeOf(tokens, 'specializes'), /keyword\.other\.relationship\.kerml/);
    assert.match(scopeOf(tokens, 'feature'), /keyword\.other\.declaration\.kerml/);
    // `part` is a SysML keyword, not a KerML one.
    const kerml = tokenize(grammar, 'part x;');
    assert.ok(!kerml.some((t) => t.text === 'part' && t.scopes.some((s) => s.startsWith('keyword'))), JSON.stringify(kerml));
  });
});
