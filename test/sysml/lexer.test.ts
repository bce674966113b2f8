import { strict as assert } from 'node:assert';
import { parse, tokenize, lineStartsOf, lineAt, type Definition, type Package } from '../../src/sysml';

/** `line:column-endLine:endColumn` of a range, as an editor shows it. */
function at(r: { line: number; column: number; endLine: number; endColumn: number }): string {
  return `${r.line}:${r.column}-${r.endLine}:${r.endColumn}`;
}

describe('sysml lexer: lines, columns and ranges', () => {
  it('counts \\n, \\r\\n and a lone \\r as one line break each', () => {
    const text = 'a\nb\r\nc\rd';
    assert.deepEqual([...lineStartsOf(text)], [0, 2, 5, 7]);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 7].map((o) => lineAt(lineStartsOf(text), o)), [1, 1, 2, 2, 2, 3, 4]);
    const ts = tokenize(text, 'sysml');
    assert.deepEqual([...ts.lines.slice(0, 4)], [1, 2, 3, 4]);
    assert.deepEqual([...ts.columns.slice(0, 4)], [1, 1, 1, 1]);
    assert.equal(ts.lineCount, 4);
  });

  it('counts lines as wc -l does, plus an unterminated last line', () => {
    assert.equal(tokenize('', 'sysml').lineCount, 0);
    assert.equal(tokenize('part x;', 'sysml').lineCount, 1);
    assert.equal(tokenize('part x;\n', 'sysml').lineCount, 1);
    assert.equal(tokenize('part x;\r\n\r\n', 'sysml').lineCount, 2);
  });

  it('places nodes of a CRLF text on the same lines and columns as of an LF text', () => {
    const lf = 'package P {\n  /* note\n   * more */\n  part def V {\n    attribute m = 1;\n  }\n}\n';
    const crlf = lf.replace(/\n/g, '\r\n');
    for (const text of [lf, crlf]) {
      const pkg = parse(text).document.members[0] as Package;
      assert.equal(at(pkg.range), '1:1-7:2');
      const [comment, def] = pkg.members!;
      assert.equal(at(comment!.range), '2:3-3:13');
      assert.equal(at((def as Definition).nameRange!), '4:12-4:13');
      assert.equal(at((def as Definition).body![0]!.range), '5:5-5:21');
    }
  });

  it('places an error after a multi-line comment on the line after it', () => {
    const r = parse('/* a\n b */ §');
    assert.deepEqual(r.errors.map((e) => `${at(e.range)} ${e.message}`), ["2:7-2:8 unexpected character '§'"]);
  });

  it('gives all six fields of a range in JSON', () => {
    const d = parse('part def A;\npart def B;').document.members[1]!;
    assert.deepEqual(JSON.parse(JSON.stringify(d.range)), { start: 12, end: 23, line: 2, column: 1, endLine: 2, endColumn: 12 });
    assert.deepEqual(Object.keys(d.range), ['start', 'end'], 'ranges hold only offsets');
  });

  it('keeps an unterminated string that ends the text inside the text', () => {
    const text = 'attribute s = "abc\\';
    const r = parse(text);
    for (const e of r.errors) assert.ok(e.range.end <= text.length, `${e.message} ends at ${e.range.end}`);
    assert.match(r.errors[0]!.message, /unterminated string/);
  });
});
