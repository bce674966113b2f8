// The explorer evaluates plain expressions (features, literals, operators) through functions compiled
// once (Runtime.direct), not through the evaluator. Both must agree on every expression and every
// state: the same value, or the same refusal. Checked on random expressions over features of several
// kinds, valued at random (no value, small and huge integers, reals, Booleans), against a runtime
// whose every evaluation goes through the evaluator.
import assert from 'node:assert/strict';
import { parse } from '../../../src/sysml';
import { BehaviorError, prepareBehavior, Runtime } from '../../../src/sysml/behavior';
import type { Expression } from '../../../src/sysml/ast';
import { format, type Value } from '../../../src/sysml/semantics/values';
import { prng } from '../../fuzz/hostile-text';

const LEAVES = ['a', 'b', 'p', 'q', 'r', 's', '0', '1', '-3', '7', '300', '9007199254740993', 'true', 'false', '1.5', '0.0', 'nope'];
const UNARY = ['-', 'not ', '+', '~'];
const BINARY = ['+', '-', '*', '/', '%', '**', '^', '<', '<=', '>', '>=', '==', '!=', '===', '!==', 'and', 'or', 'xor', 'implies', '&', '|', '??', '..'];

function expression(rnd: () => number, depth: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  if (depth <= 0 || rnd() < 0.25) return pick(LEAVES);
  if (rnd() < 0.2) return `${pick(UNARY)}(${expression(rnd, depth - 1)})`;
  return `(${expression(rnd, depth - 1)} ${pick(BINARY)} ${expression(rnd, depth - 1)})`;
}

function value(rnd: () => number): Value | undefined {
  switch (Math.floor(rnd() * 7)) {
    case 0: return undefined;
    case 1: return { kind: 'integer', value: BigInt(Math.floor(rnd() * 21) - 10) };
    case 2: return { kind: 'integer', value: 2n ** 60n + BigInt(Math.floor(rnd() * 3)) };
    case 3: return { kind: 'real', value: Math.floor(rnd() * 9) / 2 - 2 };
    case 4: return { kind: 'boolean', value: rnd() < 0.5 };
    case 5: return { kind: 'integer', value: 0n };
    default: return { kind: 'string', value: rnd() < 0.5 ? 'x' : '' };
  }
}

type Seen = { value: string } | { refused: string };
function outcome(rt: Runtime, expr: Expression, values: readonly (Value | undefined)[], scope: readonly string[]): Seen {
  try {
    const v = rt.evaluate(expr, values, scope, { path: 'e.sysml' });
    return { value: `${v.kind} ${format(v)}` };
  } catch (e) {
    if (e instanceof BehaviorError) return { refused: e.text };
    throw e;
  }
}

describe('behaviour: expressions compiled for the explorer', () => {
  it('agree with the evaluator on random expressions and states', () => {
    const rnd = prng(20261127);
    let compared = 0;
    let values = 0;
    for (let m = 0; m < 80; m++) {
      // 25 expressions a model (preparing a model is what takes the time), of depths 1 to 4.
      const texts = Array.from({ length: 25 }, (_, i) => expression(rnd, 1 + ((m + i) % 4)));
      const model = `package E { action def A {
        attribute a : ScalarValues::Integer := 0; attribute b := 1; attribute p := true; attribute q := false; attribute r := 0.5; attribute s = a + b;
        attribute res;
        first start; ${texts.map((t) => `then assign res := ${t};`).join(' ')} then done; } }`;
      const { document, errors } = parse(model);
      assert.equal(errors.length, 0, `${texts.join(' ; ')}: ${JSON.stringify(errors)}`);
      const p = prepareBehavior([{ path: 'e.sysml', document }], { kind: 'outcomes', subject: 'E::A', schedule: 'all', free: ['schedule'] });
      assert.ok(!(p instanceof BehaviorError), p instanceof BehaviorError ? p.text : '');
      const plain = new Runtime(p.runtime.model, { ...p.runtime.options, directExpressions: false });
      for (const node of p.runtime.model.nodes.filter((n) => n.kind === 'assign')) {
        for (let k = 0; k < 12; k++) {
          const state: (Value | undefined)[] = p.runtime.model.features.map(() => value(rnd));
          const direct = outcome(p.runtime, node.expr!, state, node.scope);
          const evaluated = outcome(plain, node.expr!, state, node.scope);
          assert.deepEqual(direct, evaluated, `${model.slice(node.range.start, node.range.end)} with ${state.map((v: Value | undefined) => (v ? format(v) : '_')).join(', ')}`);
          compared++;
          if ('value' in direct) values++;
        }
      }
    }
    // Not only refusals: the compiled path answered many of them.
    assert.ok(values > compared / 10, `${values} values of ${compared}`);
  });
});
