// The explorer's visited set is exact: a state is found only when every character of its encoding
// matches, whatever the hashes do, across table growth and long encodings.
import assert from 'node:assert/strict';
import { StateSet } from '../../../src/sysml/behavior/state-store';

describe('behaviour: the visited set', () => {
  it('finds what was added and nothing that differs in one character', () => {
    const set = new StateSet();
    const keys: string[] = [];
    for (let i = 0; i < 5000; i++) keys.push(`|1:-;2:-;|${i};${i % 7};_;`);
    for (const k of keys) {
      assert.equal(set.has(k), false, k);
      assert.equal(set.add(k), true, k);
    }
    assert.equal(set.size, 5000);
    for (const k of keys) assert.equal(set.has(k), true, k);
    // One character changed, appended or dropped: a different state.
    for (const k of keys.slice(0, 500)) {
      assert.equal(set.has(`${k.slice(0, -2)}9;`), keys.includes(`${k.slice(0, -2)}9;`), k);
      assert.equal(set.has(`${k}_;`), false);
      assert.equal(set.has(k.slice(0, -1)), false);
    }
    assert.equal(set.add(keys[42]!), false, 'adding a state again');
    assert.equal(set.size, 5000);
  });

  it('keeps encodings longer than 255 bytes and characters above 0xff exactly', () => {
    const set = new StateSet();
    const long = (c: string) => `|${'7:-;'.repeat(100)}|${c};`;
    assert.equal(set.add(long('a')), true);
    assert.equal(set.has(long('a')), true);
    assert.equal(set.has(long('b')), false);
    assert.equal(set.add(long('b')), true);
    assert.equal(set.add('x\u0100y'), true);
    assert.equal(set.has('x\u0101y'), false);
    assert.equal(set.has('x\u0100y'), true);
    assert.equal(set.has('x\u00ff\u0001\u0000y'), false, 'a wide character is not its escape bytes');
    assert.equal(set.size, 3);
  });
});
