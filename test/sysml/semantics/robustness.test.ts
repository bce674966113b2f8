import { strict as assert } from 'node:assert';
import type { BinaryOperator, Expression } from '../../../src/sysml/ast';
import { evaluate, type Environment } from '../../../src/sysml/semantics/evaluate';
import { Random } from '../../../src/sysml/semantics/random';
import { format, q, int, str, enumLiteral, type Value } from './shorthands';
import { arg, arrow, bin, body, call, cond, idx, lit, name, neg, not, nul, qty, realLit, seq } from './ast-builders';

// Random expression trees over every operator, unit and library function: the evaluator must answer
// each with a value or an error value — never throw — and give the same answer twice.
const OPERATORS: BinaryOperator[] = ['??', 'implies', 'or', 'xor', 'and', '|', '&', '==', '!=', '===', '!==', '<', '>', '<=', '>=', '..', '+', '-', '*', '/', '%', '**', '^'];
const UNITS = ['kg', 'm', 's', 'km', 'h', 'N', 'J', "°C", 'K', 'rad', 'deg', 'kWh'];
const FUNCTIONS = ['sum', 'size', 'min', 'max', 'abs', 'sqrt', 'floor', 'round', 'sin', 'ln', 'first', 'isEmpty', 'uniform', 'normal', 'triangular', 'nope'];
const VALUES: Record<string, Value> = {
  a: int(3), b: q(2.5, 'm/s'), c: str('hi'), d: enumLiteral('Colour', 'red'), e: { kind: 'sequence', items: [int(1), int(2)] }, n: { kind: 'sequence', items: [] },
};
const env: Environment = { lookup: (n) => VALUES[n.segments.join('::')] };

function randomExpression(r: Random, depth: number): Expression {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r.next() * xs.length)]!;
  if (depth <= 0 || r.next() < 0.25) {
    switch (Math.floor(r.next() * 6)) {
      case 0: return lit(Math.floor(r.next() * 20) - 5);
      case 1: return realLit(Math.round((r.next() * 20 - 5) * 100) / 100 + 0.5);
      case 2: return lit(r.next() < 0.5);
      case 3: return name(pick(Object.keys(VALUES)));
      case 4: return qty(lit(Math.floor(r.next() * 100)), name(pick(UNITS)));
      default: return pick([nul, lit('s'), name('zzz')]);
    }
  }
  const sub = () => randomExpression(r, depth - 1);
  switch (Math.floor(r.next() * 9)) {
    case 0: case 1: case 2: return bin(pick(OPERATORS), sub(), sub());
    case 3: return r.next() < 0.5 ? neg(sub()) : not(sub());
    case 4: return cond(sub(), sub(), sub());
    case 5: return call(pick(FUNCTIONS), ...Array.from({ length: Math.floor(r.next() * 4) }, () => arg(sub())));
    case 6: return seq(sub(), sub());
    case 7: return idx(sub(), sub());
    default: return arrow(sub(), pick(['select', 'collect', 'forAll', 'exists']), arg(body('x', bin(pick(OPERATORS), name('x'), sub()))));
  }
}

describe('semantics/evaluate robustness', () => {
  it('answers 3000 random expressions with a value or an error, deterministically', () => {
    const r = new Random(20261122);
    let errors = 0;
    for (let i = 0; i < 3000; i++) {
      const e = randomExpression(r, 5);
      let first: string;
      let second: string;
      try {
        first = format(evaluate(e, env, { draws: { policy: 'average' } }));
        second = format(evaluate(e, env, { draws: { policy: 'average' } }));
      } catch (thrown) {
        assert.fail(`expression ${i} threw: ${(thrown as Error).stack}\n${JSON.stringify(e)}`);
      }
      assert.equal(second, first);
      if (first.startsWith('error: ')) errors++;
    }
    // Random trees are mostly ill-typed; both outcomes must occur for the test to mean something.
    assert.ok(errors > 100 && errors < 2900, `errors: ${errors}`);
  });
});
