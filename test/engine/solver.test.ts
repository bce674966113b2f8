import assert from 'node:assert/strict';
import { ProblemError, solve, unloadZ3, type Outcome, type Problem, type SolverValue, type Term } from '../../src/engine/solver';

const v = (name: string): Term => ({ op: 'var', name });
const n = (value: string): Term => ({ op: 'num', value });
const bin = (op: 'sub' | 'div' | 'mod' | 'pow' | 'implies' | 'xor' | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge', left: Term, right: Term): Term => ({
  op,
  left,
  right,
});
const add = (...args: Term[]): Term => ({ op: 'add', args });
const mul = (...args: Term[]): Term => ({ op: 'mul', args });

function problem(p: Partial<Problem> & Pick<Problem, 'variables' | 'assertions'>): Problem {
  return { timeoutMs: 5000, ...p };
}

function sat(o: Outcome): Map<string, SolverValue> {
  assert.equal(o.status, 'sat', JSON.stringify(o, (_, x: unknown) => (typeof x === 'bigint' ? String(x) : x)));
  return (o as Extract<Outcome, { status: 'sat' }>).model;
}

// The Diophantine x^3 + y^3 = z^3 over positive integers has no solution (Fermat), and z3 cannot prove it:
// it searches until its time runs out, which makes it a reliable long solve.
const fermat: Problem = problem({
  variables: ['a', 'b', 'c'].map((name) => ({ name, sort: 'Int' as const, lower: '1' })),
  assertions: [{ name: 'cubes', term: bin('eq', add(bin('pow', v('a'), n('3')), bin('pow', v('b'), n('3'))), bin('pow', v('c'), n('3'))) }],
});

describe('engine solver (z3)', function () {
  this.timeout(20000);
  // z3's worker threads would keep mocha alive.
  after(() => unloadZ3());

  it('solves a linear integer system exactly', async () => {
    const m = sat(
      await solve(
        problem({
          variables: [
            { name: 'x', sort: 'Int' },
            { name: 'y', sort: 'Int' },
          ],
          assertions: [
            { name: 'sum', term: bin('eq', add(v('x'), v('y')), n('10')) },
            { name: 'difference', term: bin('eq', bin('sub', v('x'), v('y')), n('2')) },
          ],
        }),
      ),
    );
    assert.deepEqual(m.get('x'), { sort: 'Int', value: 6n });
    assert.deepEqual(m.get('y'), { sort: 'Int', value: 4n });
  });

  it('keeps reals exact: 2x = 1 gives 1/2', async () => {
    const m = sat(await solve(problem({ variables: [{ name: 'x', sort: 'Real' }], assertions: [{ name: 'half', term: bin('eq', mul(n('2'), v('x')), n('1')) }] })));
    assert.deepEqual(m.get('x'), { sort: 'Real', exact: '1/2', approx: 0.5, algebraic: false });
  });

  it('names the conflicting assertions of an unsatisfiable problem', async () => {
    const o = await solve(
      problem({
        variables: [{ name: 'x', sort: 'Real' }],
        assertions: [
          { name: 'big', term: bin('gt', v('x'), n('2')) },
          { name: 'irrelevant', term: bin('ne', v('x'), n('7')) },
          { name: 'small', term: bin('lt', v('x'), n('1')) },
        ],
      }),
    );
    assert.equal(o.status, 'unsat');
    assert.deepEqual([...(o as { core: string[] }).core].sort(), ['big', 'small']);
  });

  it('names the unsat core of a non-linear problem too (asked untracked first, then tracked for the core)', async () => {
    const o = await solve(
      problem({
        variables: [{ name: 'x', sort: 'Real' }, { name: 'y', sort: 'Real' }],
        assertions: [
          { name: 'square', term: bin('eq', mul(v('x'), v('x')), n('4')) },
          { name: 'irrelevant', term: bin('ne', v('y'), n('7')) },
          { name: 'between', term: bin('lt', mul(v('x'), v('x')), n('3')) },
        ],
      }),
    );
    assert.equal(o.status, 'unsat');
    assert.deepEqual([...(o as { core: string[] }).core].sort(), ['between', 'square']);
  });

  it('respects bounds and finite domains', async () => {
    const m = sat(
      await solve(
        problem({
          variables: [{ name: 'gear', sort: 'Int', domain: ['1', '3', '5'], lower: '2', upper: '4' }],
          assertions: [],
        }),
      ),
    );
    assert.deepEqual(m.get('gear'), { sort: 'Int', value: 3n });
    const strict = await solve(
      problem({ variables: [{ name: 'x', sort: 'Int', lower: '0', upper: '1', lowerStrict: true, upperStrict: true }], assertions: [] }),
    );
    assert.equal(strict.status, 'unsat');
  });

  it('solves non-linear real equations with algebraic witnesses', async () => {
    const m = sat(
      await solve(
        problem({
          variables: [{ name: 'x', sort: 'Real', lower: '0' }],
          assertions: [{ name: 'square', term: bin('eq', mul(v('x'), v('x')), n('2')) }],
        }),
      ),
    );
    const x = m.get('x');
    assert.ok(x && x.sort === 'Real' && x.algebraic);
    assert.ok(Math.abs(x.approx - Math.SQRT2) < 1e-12);
  });

  it('states sqrt as the non-negative root', async () => {
    const m = sat(
      await solve(problem({ variables: [{ name: 'x', sort: 'Real' }], assertions: [{ name: 'root', term: bin('eq', { op: 'sqrt', arg: v('x') }, n('3')) }] })),
    );
    assert.deepEqual(m.get('x'), { sort: 'Real', exact: '9', approx: 9, algebraic: false });
  });

  it('never divides by zero to find a witness', async () => {
    const o = await solve(
      problem({
        variables: [
          { name: 'x', sort: 'Real' },
          { name: 'y', sort: 'Real', domain: ['0'] },
        ],
        assertions: [{ name: 'ratio', term: bin('eq', bin('div', v('x'), v('y')), n('2')) }],
      }),
    );
    assert.equal(o.status, 'unsat');
  });

  it("takes the remainder as the notation does: truncated, with the dividend's sign (-7 % 3 = -1)", async () => {
    const x = { name: 'x', sort: 'Int' as const };
    const m = sat(await solve(problem({ variables: [{ ...x, upper: '0' }], assertions: [{ name: 'minus one', term: bin('eq', bin('mod', v('x'), n('3')), n('-1')) }] })));
    const value = (m.get('x') as { value: bigint }).value;
    assert.ok(value < 0n && value % 3n === -1n, String(value));
    const divisor = sat(
      await solve(problem({ variables: [x, { name: 'y', sort: 'Int', domain: ['-3'] }], assertions: [{ name: 'r', term: bin('eq', bin('mod', v('x'), v('y')), n('1')) }, { name: 'x', term: bin('eq', v('x'), n('7')) }] })),
    );
    assert.deepEqual(divisor.get('x'), { sort: 'Int', value: 7n }); // 7 % -3 = 1
    const none = await solve(problem({ variables: [x], assertions: [{ name: 'negative', term: bin('lt', v('x'), n('0')) }, { name: 'one', term: bin('eq', bin('mod', v('x'), n('3')), n('1')) }] }));
    assert.equal(none.status, 'unsat');
  });

  it('asks a divisor to be non-zero, and a root non-negative, only where its expression is evaluated', async () => {
    const y = { name: 'y', sort: 'Real' as const, domain: ['0'] };
    const ratio = bin('lt', bin('div', n('10'), v('y')), n('0'));
    const root = bin('gt', { op: 'sqrt', arg: { op: 'neg', arg: n('1') } }, v('y'));
    // y == 0 decides `or` and `implies` before the division; `if` takes the other branch.
    for (const term of [
      { op: 'or', args: [bin('eq', v('y'), n('0')), ratio] },
      bin('implies', bin('ne', v('y'), n('0')), ratio),
      { op: 'not', arg: { op: 'and', args: [bin('ne', v('y'), n('0')), ratio, root] } },
      bin('eq', { op: 'ite', cond: bin('eq', v('y'), n('0')), then: n('1'), else: bin('div', n('1'), v('y')) }, n('1')),
      { op: 'ite', cond: bin('gt', v('y'), n('0')), then: bin('gt', { op: 'sqrt', arg: { op: 'neg', arg: v('y') } }, n('0')), else: { op: 'bool', value: true } },
    ] as Term[]) {
      sat(await solve(problem({ variables: [y], assertions: [{ name: 'guarded', term }] })));
    }
    // A strict or (`|`) evaluates both sides; so does an unguarded division.
    const strict = await solve(problem({ variables: [y], assertions: [{ name: 'both', term: { op: 'or', args: [bin('eq', v('y'), n('0')), ratio], strict: true } }] }));
    assert.equal(strict.status, 'unsat');
  });

  it('refuses an objective over non-linear arithmetic (z3 optimizes linear arithmetic only)', async () => {
    const x = { name: 'x', sort: 'Real' as const, lower: '0', upper: '4' };
    await assert.rejects(
      solve(problem({ variables: [x], assertions: [], objective: { direction: 'maximize', term: { op: 'sqrt', arg: v('x') } } })),
      (e: unknown) => e instanceof ProblemError && /objective .* over non-linear constraints/.test(e.message),
    );
  });

  it('states a large whole power of an Integer', async () => {
    const m = sat(await solve(problem({ variables: [{ name: 'x', sort: 'Int', domain: ['2'] }], assertions: [{ name: 'big', term: bin('eq', bin('pow', v('x'), n('20')), n('1048576')) }] })));
    assert.deepEqual(m.get('x'), { sort: 'Int', value: 2n });
  });

  it('handles Boolean connectives and conditionals', async () => {
    const m = sat(
      await solve(
        problem({
          variables: [
            { name: 'p', sort: 'Bool' },
            { name: 'q', sort: 'Bool' },
            { name: 'x', sort: 'Int' },
          ],
          assertions: [
            { name: 'one of', term: bin('xor', v('p'), v('q')) },
            { name: 'not q', term: { op: 'not', arg: v('q') } },
            { name: 'x by p', term: bin('eq', v('x'), { op: 'ite', cond: v('p'), then: n('5'), else: n('-5') }) },
          ],
        }),
      ),
    );
    assert.deepEqual(m.get('p'), { sort: 'Bool', value: true });
    assert.deepEqual(m.get('x'), { sort: 'Int', value: 5n });
  });

  it('finds an optimum, and says when there is none', async () => {
    const vars = [
      { name: 'x', sort: 'Int' as const, lower: '0' },
      { name: 'y', sort: 'Int' as const, lower: '0' },
    ];
    const o = await solve(
      problem({
        variables: vars,
        assertions: [
          { name: 'budget', term: bin('le', add(mul(n('2'), v('x')), v('y')), n('10')) },
          { name: 'cap', term: bin('le', v('y'), n('4')) },
        ],
        objective: { direction: 'maximize', term: add(v('x'), v('y')) },
      }),
    );
    assert.equal(o.status, 'sat');
    assert.deepEqual((o as { optimum?: SolverValue }).optimum, { sort: 'Int', value: 7n }); // x = 3, y = 4

    const open = await solve(
      problem({ variables: [{ name: 'x', sort: 'Real' }], assertions: [{ name: 'positive', term: bin('gt', v('x'), n('0')) }], objective: { direction: 'maximize', term: v('x') } }),
    );
    assert.equal(open.status, 'unbounded');
    assert.match((open as { reason: string }).reason, /no maximum/);

    const notAttained = await solve(
      problem({ variables: [{ name: 'x', sort: 'Real' }], assertions: [{ name: 'below one', term: bin('lt', v('x'), n('1')) }], objective: { direction: 'maximize', term: v('x') } }),
    );
    assert.equal(notAttained.status, 'unbounded');
    assert.match((notAttained as { reason: string }).reason, /not attained/);
  });

  it('gives up with unknown and the reason when its time runs out', async () => {
    const o = await solve({ ...fermat, timeoutMs: 300 });
    assert.equal(o.status, 'unknown');
    assert.match((o as { reason: string }).reason, /timeout after 300 ms/);
    assert.equal((o as { nonlinear: boolean }).nonlinear, true);
  });

  it('stops a running solve promptly on cancel (bench measures the 100 ms goal), and a queued one at once', async () => {
    const running = new AbortController();
    const queued = new AbortController();
    const first = solve({ ...fermat, timeoutMs: 15000 }, running.signal);
    const second = solve({ ...fermat, timeoutMs: 15000 }, queued.signal);
    await new Promise((r) => setTimeout(r, 400));
    queued.abort();
    assert.deepEqual(await second, { status: 'cancelled' });
    running.abort();
    assert.deepEqual(await first, { status: 'cancelled' });
    // The solver is usable afterwards.
    sat(await solve(problem({ variables: [{ name: 'x', sort: 'Int' }], assertions: [{ name: 'x', term: bin('eq', v('x'), n('1')) }] })));
  });

  it('rejects a problem it cannot state with a ProblemError', async () => {
    await assert.rejects(solve(problem({ variables: [], assertions: [{ name: 'a', term: bin('gt', v('nowhere'), n('1')) }] })), (e: unknown) => {
      return e instanceof ProblemError && /nowhere is not a declared variable/.test(e.message);
    });
    await assert.rejects(solve(problem({ variables: [{ name: 'p', sort: 'Bool' }], assertions: [{ name: 'a', term: bin('gt', v('p'), n('1')) }] })), ProblemError);
  });
});
