// Name diagnostics carried over an edit while a large document is resolved again.
import assert from 'node:assert/strict';
import { carryDiagnostics, changedSpan } from '../../src/server/carriedDiagnostics';

describe('carried diagnostics', function () {
  const before = 'part a : Foo;\npart b : Bar;\npart c : Baz;\n';
  const at = (name: string, text = before) => ({ start: text.indexOf(name), end: text.indexOf(name) + name.length, message: `unresolved reference '${name}'` });
  const all = [at('Foo'), at('Bar'), at('Baz')];

  it('finds the one changed span between two texts', function () {
    assert.deepEqual(changedSpan('abcXYdef', 'abcZdef'), { start: 3, oldEnd: 5, newEnd: 4 });
    assert.deepEqual(changedSpan('aaa', 'aaaa'), { start: 3, oldEnd: 3, newEnd: 4 });
    assert.deepEqual(changedSpan('same', 'same'), { start: 4, oldEnd: 4, newEnd: 4 });
  });

  it('keeps diagnostics before the edit, moves those after it, and drops those it touches', function () {
    const after = before.replace('Bar', 'Barre');
    const carried = carryDiagnostics(all, before, after);
    assert.deepEqual(carried, [at('Foo', after), at('Baz', after)]);
    for (const d of carried) assert.equal(after.slice(d.start, d.end), d.message.slice(22, -1));
  });

  it('drops a diagnostic the edit adjoins: typing at either end of a name changes the name', function () {
    const appended = before.replace('Foo;', 'Foox;');
    assert.deepEqual(carryDiagnostics(all, before, appended).map((d) => d.message), ["unresolved reference 'Bar'", "unresolved reference 'Baz'"]);
    const prepended = before.replace(': Baz', ': xBaz');
    assert.deepEqual(carryDiagnostics(all, before, prepended).map((d) => d.message), ["unresolved reference 'Foo'", "unresolved reference 'Bar'"]);
  });

  it('moves every diagnostic after a new line inserted at the top', function () {
    const after = 'package P;\n' + before;
    assert.deepEqual(carryDiagnostics(all, before, after), [at('Foo', after), at('Bar', after), at('Baz', after)]);
  });
});
