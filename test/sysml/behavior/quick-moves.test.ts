// The explorer fires the common moves (an assignment, a one-assignment action, a loop, if or until
// whose token comes to rest at one node) without the general machinery (Runtime.quickStep). Both
// paths must give the same runs: the same states in the same order, the same ends, the same counts
// and the same refusals. Checked on every behaviour of the fixtures and on models written to go
// through the quick path, against a runtime whose every move goes through the general path.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../../../src/sysml';
import { BehaviorError, explore, prepareBehavior, Runtime, type BehaviorState, type Move } from '../../../src/sysml/behavior';
import { StateKey } from '../../../src/sysml/behavior/state-store';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'models', 'behavior');

/** Everything a search shows of its runs, or the refusal that stopped it. */
async function runs(rt: Runtime, initial: () => BehaviorState, breadthFirst: boolean, reduction: boolean): Promise<unknown> {
  const states: string[] = [];
  const ends: string[] = [];
  try {
    const report = await explore(rt, initial(), { policy: { kind: 'all' }, exhaustive: true, breadthFirst, reduction, detectCycles: !breadthFirst, limits: { steps: 20_000 } }, {
      state(s, path) {
        states.push(`${path.map((p) => p.move.label).join(' ')} => ${rt.encode(s)}`);
      },
      end(s, status, path) {
        ends.push(`${status} ${path.length} ${rt.encode(s)}`);
      },
    });
    const { elapsedMs: _elapsed, ...counts } = report;
    return { counts, states, ends };
  } catch (e) {
    if (e instanceof BehaviorError) return { refused: e.text, states, ends };
    throw e;
  }
}

/** Compares the two paths on every behaviour of a model text; how many moves went the quick way. */
async function compare(path: string, text: string, subjects: readonly string[]): Promise<{ compared: number; quick: number }> {
  const { document, errors } = parse(text);
  assert.equal(errors.length, 0, `${path}: ${JSON.stringify(errors)}`);
  let compared = 0;
  let quick = 0;
  for (const subject of subjects) {
    const p = prepareBehavior([{ path, document }], { kind: 'outcomes', subject, schedule: 'all', free: ['schedule'] });
    if (p instanceof BehaviorError) continue;
    const fast = p.runtime;
    const general = new Runtime(p.model, { ...fast.options, quickMoves: false });
    // Count the moves the quick path took (quickPlan answers false for those it leaves to `step`).
    const spied = fast as unknown as { quickPlan: (s: BehaviorState, m: Move) => boolean };
    const own = spied.quickPlan.bind(fast);
    spied.quickPlan = (s, m) => {
      const r = own(s, m);
      if (r) quick++;
      return r;
    };
    for (const given of p.assignments) {
      for (const breadthFirst of [false, true]) {
        for (const reduction of [false, true]) {
          const a = await runs(fast, () => fast.initial(given), breadthFirst, reduction);
          const b = await runs(general, () => general.initial(given), breadthFirst, reduction);
          assert.deepEqual(a, b, `${path} ${subject} (${breadthFirst ? 'breadth' : 'depth'}-first, reduction ${reduction})`);
          compared++;
        }
      }
    }
  }
  return { compared, quick };
}

/** The marks of the key the runtime wrote last (Runtime.copyKeyMarks). */
function marksOf(rt: Runtime): Int32Array {
  const out = new Int32Array(rt.keyMarkCount);
  rt.copyKeyMarks(out, 0);
  return out;
}

/**
 * Every quick move of every state a search reaches (at most `cap` states): the successor's key
 * patched from its parent's (Runtime.quickKey) must be the key writeKey writes of the successor
 * quickBuild builds, byte for byte, with the same marks. How many keys were patched.
 */
function patchedKeys(rt: Runtime, initial: BehaviorState, cap = 3000): number {
  const parent = new StateKey();
  const patched = new StateKey();
  const written = new StateKey();
  const seen = new Set<string>([rt.encode(initial)]);
  const queue: BehaviorState[] = [initial];
  let count = 0;
  for (let head = 0; head < queue.length && head < cap; head++) {
    const s = queue[head]!;
    let moves: readonly Move[];
    try {
      moves = rt.enabled(s);
    } catch (e) {
      if (e instanceof BehaviorError) continue;
      throw e;
    }
    rt.writeKey(s, parent);
    const marks = marksOf(rt);
    for (const m of moves) {
      let next: BehaviorState;
      try {
        if (rt.quickPlan(s, m)) {
          if (rt.quickKey(s, parent.bytes, 0, parent.length, marks, 0, patched)) {
            const patchedMarks = Array.from(marksOf(rt));
            next = rt.quickBuild(s);
            rt.writeKey(next, written);
            assert.deepEqual(patched.bytes.subarray(0, patched.length), written.bytes.subarray(0, written.length), `${m.label} from ${rt.encode(s)}`);
            assert.deepEqual(patchedMarks, Array.from(marksOf(rt)), `marks: ${m.label} from ${rt.encode(s)}`);
            count++;
          } else next = rt.quickBuild(s);
          // The enabled moves quickBuild gives the successor (from its parent's) are the ones computed afresh.
          const fresh = rt.step(s, m);
          delete (fresh as { enabledMoves?: unknown }).enabledMoves;
          assert.deepEqual(rt.enabled(next), rt.enabled(fresh), `enabled after ${m.label} from ${rt.encode(s)}`);
        } else next = rt.step(s, m);
      } catch (e) {
        if (e instanceof BehaviorError) continue;
        throw e;
      }
      const text = rt.encode(next);
      if (!seen.has(text)) {
        seen.add(text);
        queue.push(next);
      }
    }
  }
  return count;
}

function subjectsOf(text: string): string[] {
  const pkg = /package\s+(\w+)/.exec(text)?.[1] ?? '';
  return [...text.matchAll(/(?:action|state|part)\s+def\s+(\w+)/g)].map((m) => `${pkg}::${m[1]}`);
}

/** Models written to go through the quick path. */
const MODELS: [string, string][] = [
  ['counters', `package C { action def Count {
    attribute c1 : ScalarValues::Integer := 0; attribute c2 : ScalarValues::Integer := 0; attribute c3 : ScalarValues::Integer := 0;
    first start; then fork; then c1Loop; then c2Loop; then c3Loop;
    action c1Loop { first start; then while c1 < 3 { assign c1 := c1 + 1; } then done; } then j;
    action c2Loop { first start; then while c2 < 2 { assign c2 := c2 + 1; } then done; } then j;
    action c3Loop { first start; then while c3 < 2 { assign c3 := c3 + 1; } then done; } then j;
    join j; then done; } }`],
  ['branches', `package B { action def Branch {
    attribute x : ScalarValues::Integer := 0; attribute y : ScalarValues::Integer := 0;
    first start; then fork; then left; then right;
    action left { first start; then loop { assign x := x + 1; if x > 1 { assign y := y + x; } else { assign y := y - 1; } } until x >= 3; then done; } then j;
    action right { first start; then while y < 4 { assign y := y + 2; } then done; } then j;
    join j; then finish;
    action finish { assign x := x * 2; } then done; } }`],
  ['nested', `package N { action def Outer {
    attribute n : ScalarValues::Integer := 0; attribute ok : ScalarValues::Boolean := false;
    first start; then a;
    action a { first start; then b; action b { first start; then while n < 2 { assign n := n + 1; } then done; } then done; }
    then merge m; then decide d; if n > 1 then fin; if n <= 1 then again;
    action again { assign n := n + 1; } then m;
    action fin { assign ok := true; } then done; } }`],
  ['signs', `package S { action def Signs {
    attribute x : ScalarValues::Integer := 0; attribute big : ScalarValues::Integer := 3; attribute on : ScalarValues::Boolean := false;
    first start; then fork; then down; then up; then flip;
    action down { first start; then while x > -140 { assign x := x - 70; } then done; } then done;
    action up { first start; then while big < 1000000000000000000000 { assign big := big * 100000000; } then done; } then j;
    action flip { first start; then while not on { assign on := true; } then done; } then j;
    join j; then done; } }`],
  ['shared', `package H { action def Shared {
    attribute x : ScalarValues::Integer := 0; attribute y : ScalarValues::Integer := 0; attribute z : ScalarValues::Integer := 0;
    first start; then fork; then p; then q;
    action p { assign x := x + 1; } then m;
    action q { assign y := y + 1; } then m;
    merge m; then r;
    action r { assign z := z + 1; } then s;
    action s { assign z := z + 10; } then done; } }`],
  ['waits', `package W { action def Waits {
    attribute x : ScalarValues::Integer := 0; attribute y : ScalarValues::Integer := 0;
    first start; then fork; then inc; then d;
    action inc { first start; then while x < 2 { assign x := x + 1; } then done; } then done;
    decide d; if x > 1 then fin;
    action fin { assign y := 1; } then done; } }`],
  ['refused', `package R { action def Bad {
    attribute n : ScalarValues::Integer := 0; attribute b : ScalarValues::Boolean := true;
    first start; then fork; then p; then q;
    action p { assign n := n + 1; } then done;
    action q { first start; then while n { assign b := false; } then done; } then done; } }`],
];

describe('behaviour: quick moves', () => {
  it('give the same runs as the general path on the fixtures', async function () {
    this.timeout(120_000);
    let compared = 0;
    let quick = 0;
    for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.sysml'))) {
      const text = readFileSync(join(FIXTURES, file), 'utf8');
      const r = await compare(file, text, subjectsOf(text));
      compared += r.compared;
      quick += r.quick;
    }
    assert.ok(compared >= 40, `${compared} searches compared`);
    assert.ok(quick > 0, 'no move of the fixtures went the quick way');
  });

  it('give the same runs on loops, ifs, untils, joins and nested actions', async function () {
    this.timeout(120_000);
    let quick = 0;
    for (const [name, text] of MODELS) {
      const r = await compare(`${name}.sysml`, text, subjectsOf(text));
      assert.equal(r.compared, 4, `${name}: not prepared`);
      quick += r.quick;
    }
    assert.ok(quick > 100, `${quick} quick moves`);
  });

  it('patch a parent key into exactly the key of the successor', function () {
    this.timeout(120_000);
    const texts: [string, string][] = readdirSync(FIXTURES).filter((f) => f.endsWith('.sysml')).map((f): [string, string] => [f, readFileSync(join(FIXTURES, f), 'utf8')]);
    texts.push(...MODELS.map(([name, text]): [string, string] => [`${name}.sysml`, text]));
    let patched = 0;
    for (const [path, text] of texts) {
      const { document } = parse(text);
      for (const subject of subjectsOf(text)) {
        const p = prepareBehavior([{ path, document }], { kind: 'outcomes', subject, schedule: 'all', free: ['schedule'] });
        if (p instanceof BehaviorError) continue;
        for (const given of p.assignments) {
          let initial: BehaviorState;
          try {
            initial = p.runtime.initial(given);
          } catch (e) {
            if (e instanceof BehaviorError) continue;
            throw e;
          }
          patched += patchedKeys(p.runtime, initial);
        }
      }
    }
    assert.ok(patched > 100, `${patched} keys patched`);
  });
});
