import { strict as assert } from 'node:assert';
import { parse, tokenize, walk, lineStartsOf, lineAt, type Definition, type Package, type Usage } from '../../src/sysml';

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

  it('names control characters and bytes that are not UTF-8 by code point, not as raw characters', () => {
    const text = Buffer.from([0x70, 0x20, 0x00, 0x20, 0x01, 0x20, 0xff, 0x0a]).toString('utf8');
    assert.deepEqual(parse(text).errors.map((e) => `${at(e.range)} ${e.message}`).filter((m) => m.includes('character')), [
      '1:3-1:4 unexpected character U+0000', '1:5-1:6 unexpected character U+0001',
      '1:7-1:8 unexpected character U+FFFD (the file is not UTF-8 text here)',
    ]);
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

describe('sysml parser: compact nodes read like plain ones', () => {
  it('reads prefix flags, a negated assert and an end cross feature through the interface, and gives them in JSON', () => {
    const r = parse('part def P {\n  abstract in ref part x : T[1] ordered;\n  assert not constraint c;\n  end e[1] item cart : Cart;\n}');
    assert.deepEqual(r.errors, []);
    const [x, c, e] = (r.document.members[0] as Definition).body! as Usage[];
    assert.deepEqual([x!.isAbstract, x!.isRef, x!.isOrdered, x!.isEnd, x!.isKeywordImplicit, x!.direction], [true, true, true, false, false, 'in']);
    assert.deepEqual([c!.role, c!.isNegated], ['assert', true]);
    assert.deepEqual([e!.isEnd, e!.name, e!.crossFeature?.name, e!.crossFeature?.isEnd], [true, 'cart', 'e', false]);
    const json = JSON.parse(JSON.stringify(x)) as Record<string, unknown>;
    assert.deepEqual([json.kind, json.isAbstract, json.isOrdered, json.isNonunique, json.isKeywordImplicit], ['Usage', true, true, false, false]);
    assert.deepEqual((json.range as { line: number }).line, 2);
  });

  it('gives a name’s segment starts whether or not it has one segment', () => {
    const text = 'part a : T;\npart b : A::B;\npart c : $::C;';
    const [a, b, c] = parse(text).document.members as Usage[];
    const target = (u: Usage) => u.relations[0]!.target as { segmentStarts: number[] };
    assert.deepEqual(target(a!).segmentStarts, [text.indexOf('T')]);
    assert.deepEqual(target(b!).segmentStarts, [text.indexOf('A::B'), text.indexOf('B;')]);
    assert.deepEqual(target(c!).segmentStarts, [text.indexOf('C;')]);
  });

  it('walks children held by compact nodes', () => {
    const r = parse('action def A { first start; then b; action b; }\nflow of F from a.x to b.y;');
    const kinds: string[] = [];
    walk(r.document, (n) => { kinds.push(n.kind); });
    assert.ok(kinds.includes('Succession') && kinds.includes('ConnectorEnd') && kinds.includes('FeatureChain'), kinds.join(' '));
  });
});
