// The explorer's visited set is exact: a state is found only when every byte of its key matches,
// whatever the hashes do, across table growth and long keys.
import assert from 'node:assert/strict';
import { StateKey, StateSet } from '../../../src/sysml/behavior/state-store';

/** A key of one text. */
function k(t: string): StateKey {
  const key = new StateKey();
  key.text(t);
  return key;
}

describe('behaviour: the visited set', () => {
  it('finds what was added and nothing that differs in one character', () => {
    const set = new StateSet();
    const keys: string[] = [];
    for (let i = 0; i < 5000; i++) keys.push(`|1:-;2:-;|${i};${i % 7};_;`);
    for (const key of keys) {
      assert.equal(set.has(k(key)), false, key);
      assert.equal(set.add(k(key)), true, key);
    }
    assert.equal(set.size, 5000);
    for (const key of keys) assert.equal(set.has(k(key)), true, key);
    // One character changed, appended or dropped: a different state.
    for (const key of keys.slice(0, 500)) {
      assert.equal(set.has(k(`${key.slice(0, -2)}9;`)), keys.includes(`${key.slice(0, -2)}9;`), key);
      assert.equal(set.has(k(`${key}_;`)), false);
      assert.equal(set.has(k(key.slice(0, -1))), false);
    }
    assert.equal(set.add(k(keys[42]!)), false, 'adding a state again');
    assert.equal(set.size, 5000);
  });

  it('names a state found again by the entry it was added as, recent or not', () => {
    // 100000 states: the early ones are no longer among the recent entries, the last ones are.
    const set = new StateSet();
    const ids: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      assert.equal(set.add(k(`s${i}`)), true);
      ids.push(set.addedId);
    }
    assert.equal(new Set(ids).size, ids.length, 'each entry has its own id');
    for (const i of [0, 1, 777, 50_000, 99_998, 99_999, 12_345, 0]) {
      assert.equal(set.has(k(`s${i}`)), true, `s${i}`);
      assert.equal(set.foundId, ids[i], `s${i}`);
      assert.equal(set.add(k(`s${i}`)), false, `s${i} again`);
    }
    assert.equal(set.has(k('s100000')), false);
    assert.equal(set.foundId, -1);
    assert.equal(set.size, 100_000);
  });

  it('keeps encodings longer than 255 bytes and characters above 0xff exactly', () => {
    const set = new StateSet();
    const long = (c: string) => `|${'7:-;'.repeat(100)}|${c};`;
    assert.equal(set.add(k(long('a'))), true);
    assert.equal(set.has(k(long('a'))), true);
    assert.equal(set.has(k(long('b'))), false);
    assert.equal(set.add(k(long('b'))), true);
    assert.equal(set.add(k('x\u0100y')), true);
    assert.equal(set.has(k('x\u0101y')), false);
    assert.equal(set.has(k('x\u0100y')), true);
    assert.equal(set.has(k('x\u00ff\u0001\u0000y')), false, 'a wide character is not its escape bytes');
    assert.equal(set.size, 3);
  });
});

describe('behaviour: state keys', () => {
  it('tell numbers, texts and their boundaries apart', () => {
    const bytes = (write: (key: StateKey) => void): string => {
      const key = new StateKey();
      write(key);
      return Buffer.from(key.bytes.subarray(0, key.length)).toString('hex');
    };
    const numbers = [0, 1, 127, 128, 255, 256, 16383, 16384, 2 ** 31, 2 ** 32, 2 ** 53 - 1];
    assert.equal(new Set(numbers.map((n) => bytes((key) => key.uint(n)))).size, numbers.length);
    // A number then a text, split differently, is a different key.
    assert.notEqual(bytes((key) => { key.text('ab'); key.text('c'); }), bytes((key) => { key.text('a'); key.text('bc'); }));
    assert.notEqual(bytes((key) => { key.uint(1); key.uint(2); }), bytes((key) => { key.uint(12); }));
    // A reset key is rewritten from the start; a set that looked it up before does not reuse that look-up.
    const set = new StateSet();
    const key = new StateKey();
    key.text('a');
    assert.equal(set.has(key), false);
    key.reset();
    key.text('b');
    assert.equal(set.add(key), true);
    assert.equal(set.has(k('b')), true);
    assert.equal(set.has(k('a')), false);
  });
});
