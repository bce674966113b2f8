// The explorer identifies states by Runtime.writeKey (bytes); Runtime.encode (text) is the canonical
// form it replaced. Both must make the same distinctions: two states are one for the explorer exactly
// when their encodings are equal. Checked on every successor of every state of the fixtures' behaviours
// (a merge of two different states would hide one of them, so successors are compared, not only the
// states the explorer kept), and on states that differ in one feature's value only.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../../../src/sysml';
import { BehaviorError, explore, prepareBehavior, type BehaviorDocument, type BehaviorState, type Runtime } from '../../../src/sysml/behavior';
import { StateKey } from '../../../src/sysml/behavior/state-store';
import type { Value } from '../../../src/sysml/semantics/values';
import { behaviorSubjects } from '../../../scripts/behavior-corpus';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'models', 'behavior');

function keyOf(rt: Runtime, s: BehaviorState): string {
  const key = new StateKey();
  rt.writeKey(s, key);
  return Buffer.from(key.bytes.subarray(0, key.length)).toString('hex');
}

function prepared(d: BehaviorDocument[], subject: string) {
  const p = prepareBehavior(d, { kind: 'outcomes', subject, schedule: 'all', free: ['schedule'] });
  return p instanceof BehaviorError ? undefined : p;
}

describe('behaviour: state keys make the distinctions of the canonical encoding', () => {
  it('on every successor of every state of the fixtures\' behaviours', async () => {
    let subjects = 0;
    let compared = 0;
    const texts = readdirSync(FIXTURES).filter((x) => x.endsWith('.sysml')).sort().map((f) => ({ f, text: readFileSync(join(FIXTURES, f), 'utf8') }));
    // Interleavings that revisit states by many paths: three counters (with a Boolean and a Real each), a fork of six.
    texts.push({ f: 'counters', text: `package C { action def Count {
      ${[1, 2, 3].map((i) => `attribute c${i} : ScalarValues::Integer := 0; attribute b${i} := false; attribute r${i} := 0.5;`).join('\n')}
      first start; then fork; then l1; then l2; then l3;
      ${[1, 2, 3].map((i) => `action l${i} { first start; then while c${i} < 4 { assign c${i} := c${i} + 1; assign b${i} := not b${i}; assign r${i} := r${i} * 2.0; } then done; } then j;`).join('\n')}
      join j; then done; } }` });
    texts.push({ f: 'fork', text: `package F { action def Fan { ${[1, 2, 3, 4, 5, 6].map((i) => `attribute x${i} := -1;`).join(' ')}
      first start; then fork; ${[1, 2, 3, 4, 5, 6].map((i) => `then b${i};`).join(' ')}
      ${[1, 2, 3, 4, 5, 6].map((i) => `action b${i} { assign x${i} := x${i} + ${i}; } then j;`).join('\n')}
      join j; then done; } }` });
    for (const { f, text } of texts) {
      const doc: BehaviorDocument = { path: f, document: parse(text).document };
      for (const subject of behaviorSubjects(doc.document.members)) {
        const p = prepared([doc], subject);
        if (!p) continue;
        const rt = p.runtime;
        let initial: BehaviorState;
        try {
          initial = rt.initial();
        } catch {
          continue;
        }
        subjects++;
        const byEncoding = new Map<string, string>();
        const byKey = new Map<string, string>();
        const see = (s: BehaviorState): void => {
          const e = rt.encode(s);
          const k = keyOf(rt, s);
          assert.equal(byEncoding.get(e) ?? k, k, `${f} ${subject}: one encoding, two keys (${e})`);
          assert.equal(byKey.get(k) ?? e, e, `${f} ${subject}: one key for ${byKey.get(k)} and ${e}`);
          byEncoding.set(e, k);
          byKey.set(k, e);
          compared++;
        };
        see(initial);
        await explore(rt, initial, { policy: { kind: 'all' }, exhaustive: true, reduction: false, limits: { steps: 20_000 } }, {
          state: (s) => {
            see(s);
            try {
              for (const m of rt.enabled(s)) see(rt.fire(s, m));
            } catch {
              // A refusal is the explorer's to report; the states before it were compared.
            }
          },
        }).catch(() => undefined);
      }
    }
    assert.ok(subjects >= 20, `only ${subjects} behaviours explored`);
    assert.ok(compared >= 500, `only ${compared} states compared`);
  });

  it('on states that differ in one feature\'s value only', () => {
    const doc: BehaviorDocument = {
      path: 'k.sysml',
      document: parse(`package K { action def A { attribute x := 0; attribute y := 0; first start; then done; } }`).document,
    };
    const p = prepared([doc], 'K::A');
    assert.ok(p, 'the model prepares');
    const rt = p.runtime;
    const s0 = rt.initial();
    const x = rt.model.featureIndex.get('x')!;
    const int = (n: bigint): Value => ({ kind: 'integer', value: n });
    const values: (Value | undefined)[] = [
      undefined, int(0n), int(1n), int(-1n), int(127n), int(128n), int(-128n), int(2n ** 31n), int(2n ** 53n - 1n), int(2n ** 53n), int(2n ** 53n + 1n), int(-(2n ** 53n)),
      { kind: 'real', value: 1 }, { kind: 'real', value: 0 }, { kind: 'boolean', value: true }, { kind: 'boolean', value: false }, { kind: 'string', value: '1' }, { kind: 'string', value: '' },
    ];
    const keys = new Map<string, number>();
    values.forEach((v, i) => {
      const vs = [...s0.values];
      vs[x] = v;
      const s = { ...s0, values: vs } as BehaviorState;
      const k = keyOf(rt, s);
      assert.equal(keys.get(k), undefined, `value ${i} has the key of value ${keys.get(k)}`);
      keys.set(k, i);
      // The same value in a fresh object: the same state.
      assert.equal(keyOf(rt, { ...s0, values: [...vs] } as BehaviorState), k);
    });
    assert.equal(keys.size, values.length);
  });
});
