// A small constraint language of the engine's own, solved with z3 (z3-solver, WASM).
//
// z3-solver is kept out of the bundle (PITFALLS.md): it is required lazily on the first problem, so an
// engine that never answers a `satisfiable` question never pays its ~0.2 s start and ~100 MB.
// z3-solver serialises every check() behind one global mutex, so problems are queued here as well: a
// problem cancelled while it waits never reaches z3, and the one running is stopped with interrupt().
import type { Arith, Bool, Context, Expr, Model, Optimize, Solver, Z3HighLevel, Z3LowLevel } from 'z3-solver';

export type Sort = 'Bool' | 'Int' | 'Real';

/**
 * An exact number as z3 reads it: an integer (`-12`), a decimal (`1.5`) or a fraction (`3/2`).
 * Numbers travel as text so that large integers and decimals stay exact.
 */
export type Numeral = string;

export type Term =
  | { op: 'bool'; value: boolean }
  | { op: 'num'; value: Numeral }
  | { op: 'var'; name: string }
  /** `isint`: the number is whole (an Integer-typed feature whose value the solver computes as a Real). */
  | { op: 'neg' | 'not' | 'abs' | 'sqrt' | 'isint'; arg: Term }
  | { op: 'add' | 'mul' | 'min' | 'max'; args: Term[] }
  /**
   * `and`/`or` evaluate an operand only while the ones before it leave the result open, as the notation's
   * `and`/`or` do; `strict` ones evaluate every operand (`&`, `|`, an element-wise comparison).
   */
  | { op: 'and' | 'or'; args: Term[]; strict?: boolean }
  | {
      op: 'sub' | 'div' | 'mod' | 'pow' | 'implies' | 'xor' | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';
      left: Term;
      right: Term;
    }
  | { op: 'ite'; cond: Term; then: Term; else: Term };

export interface Variable {
  name: string;
  sort: Sort;
  /** Inclusive bounds unless the matching `…Strict` flag is set. */
  lower?: Numeral;
  upper?: Numeral;
  lowerStrict?: boolean;
  upperStrict?: boolean;
  /** A finite domain: the variable takes one of these values (numerals, or `true`/`false`). */
  domain?: string[];
}

export interface Assertion {
  /** Named so that an unsatisfiable answer can say which assertions conflict. */
  name: string;
  term: Term;
}

export interface Problem {
  variables: Variable[];
  assertions: Assertion[];
  objective?: { direction: 'minimize' | 'maximize'; term: Term };
  /** Always set: z3 gives up with `unknown (timeout)` after this many milliseconds. */
  timeoutMs: number;
  /** When set (epoch ms), z3's timeout is cut to end by then, counted once z3 is loaded and the problem's turn has come. */
  endBy?: number;
}

export type SolverValue =
  | { sort: 'Bool'; value: boolean }
  | { sort: 'Int'; value: bigint }
  /** `exact` is `p/q` or an integer; an irrational (algebraic) value gives its decimal expansion and `algebraic`. */
  | { sort: 'Real'; exact: string; approx: number; algebraic: boolean };

export type Outcome =
  | { status: 'sat'; model: Map<string, SolverValue>; optimum?: SolverValue }
  | { status: 'unsat'; core: string[] }
  | { status: 'unknown'; reason: string; nonlinear: boolean }
  | { status: 'unbounded'; direction: 'minimize' | 'maximize'; reason: string; model: Map<string, SolverValue> }
  | { status: 'cancelled' };

/** A problem the solver cannot even state (unknown variable, Bool used as a number …): a modelling error. */
export class ProblemError extends Error {}

type Z3 = Z3HighLevel & Z3LowLevel;
type Ctx = Context<'assay'>;
type AnyExpr = Expr<'assay'>;
type ArithExpr = Arith<'assay'>;
type BoolExpr = Bool<'assay'>;

let z3Loading: Promise<{ api: Z3; ctx: Ctx }> | undefined;

/** Loads z3 once; later calls share the same instance. */
export function loadZ3(): Promise<{ api: Z3; ctx: Ctx }> {
  if (!z3Loading) {
    z3Loading = (async () => {
      // A plain require keeps z3-solver external to the esbuild bundle and resolves it from node_modules.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const z3 = require('z3-solver') as typeof import('z3-solver');
      const api = (await z3.init()) as Z3;
      const ctx = api.Context('assay') as Ctx;
      return { api, ctx };
    })();
    z3Loading.catch(() => {
      z3Loading = undefined; // let a later problem retry instead of failing forever
    });
  }
  return z3Loading;
}

/** Stops z3's worker threads so the process can exit. */
export async function unloadZ3(): Promise<void> {
  if (!z3Loading) return;
  const { api } = await z3Loading;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const z3 = require('z3-solver') as typeof import('z3-solver');
  await z3.killThreads(api.em).catch(() => undefined);
  z3Loading = undefined;
}

let queue: Promise<unknown> = Promise.resolve();

/** Solves a problem. Resolves `cancelled` promptly (well under 100 ms) once `signal` aborts. */
export function solve(problem: Problem, signal?: AbortSignal): Promise<Outcome> {
  const turn = queue.then(() => solveNow(problem, signal));
  queue = turn.catch(() => undefined);
  if (!signal) return turn;
  // A problem still waiting for its turn answers `cancelled` at once; its turn then returns immediately.
  return new Promise<Outcome>((resolve, reject) => {
    const onAbort = () => resolve({ status: 'cancelled' });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    turn.then(
      (o) => {
        signal.removeEventListener('abort', onAbort);
        resolve(o);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

async function solveNow(problem: Problem, signal?: AbortSignal): Promise<Outcome> {
  if (signal?.aborted) return { status: 'cancelled' };
  const { api, ctx } = await loadZ3();
  if (signal?.aborted) return { status: 'cancelled' };
  const stated = new Statement(ctx, problem);
  if (problem.objective && stated.nonlinear) {
    // z3 does not support optimization over non-linear arithmetic (its maintainers: "never tested/supported",
    // Z3Prover/z3#7493, #2247): it answers wrong optima and "unbounded" objectives that have a maximum.
    throw new ProblemError('an objective (maximize/minimize) over non-linear constraints is not solved: z3 optimizes linear arithmetic only');
  }
  const timeoutMs = Math.max(1, Math.floor(problem.endBy === undefined ? problem.timeoutMs : Math.min(problem.timeoutMs, problem.endBy - Date.now())));
  const endBy = Date.now() + timeoutMs;

  // Tracking assertions (for an unsatisfiable answer's core) keeps z3 off its non-linear real solver
  // (nlsat), which is several times faster on non-linear problems. So a non-linear problem is first
  // solved untracked: a model that doubles carry exactly is the answer; anything else (unsat: the core
  // is needed; unknown; a model only rounding can carry, which the host could not check exactly) is
  // solved again tracked, as every problem was before, in the time that is left.
  if (!problem.objective && stated.nonlinear) {
    const untracked = new ctx.Solver();
    for (const c of stated.constraints) untracked.add(c);
    for (const a of stated.assertions) untracked.add(a.term);
    const first = await check(ctx, untracked, timeoutMs, signal);
    if (signal?.aborted) return { status: 'cancelled' };
    if (first.status === 'sat') {
      const model = untracked.model();
      // A model that breaks what it was asked to satisfy is no answer: solved again, tracked, below.
      if (violated(ctx, stated, model) === undefined) {
        const values = stated.read(api, ctx, model);
        if ([...values.values()].every(exactInDoubles)) return { status: 'sat', model: values };
      }
    }
    if (first.status === 'unknown' && first.timedOut) return { status: 'unknown', reason: `timeout after ${timeoutMs} ms`, nonlinear: true };
  }

  const backend: Solver<'assay'> | Optimize<'assay'> = problem.objective ? new ctx.Optimize() : new ctx.Solver();
  for (const c of stated.constraints) backend.add(c);
  stated.assertions.forEach((a, i) => backend.addAndTrack(a.term, `assertion!${i}`));
  let objectiveIndex = -1;
  if (problem.objective && stated.objective && 'maximize' in backend) {
    const term = stated.objective;
    objectiveIndex = problem.objective.direction === 'maximize' ? backend.maximize(term) : backend.minimize(term);
  }
  const left = Math.max(1, endBy - Date.now());
  const { status, timedOut } = await check(ctx, backend, left, signal);
  if (signal?.aborted) return { status: 'cancelled' };

  if (status === 'unknown') {
    let reason = backend.reasonUnknown();
    if (timedOut) reason = `timeout after ${timeoutMs} ms`;
    return { status: 'unknown', reason, nonlinear: stated.nonlinear };
  }
  if (status === 'unsat') {
    const core: string[] = [];
    const vector = backend.unsatCore();
    for (let i = 0; i < vector.length(); i++) {
      const m = /^assertion!(\d+)$/.exec(vector.get(i).toString());
      if (m) core.push(stated.assertions[Number(m[1])]!.name);
    }
    return { status: 'unsat', core: [...new Set(core)] };
  }
  const model = backend.model();
  const broken = violated(ctx, stated, model);
  if (broken !== undefined) return { status: 'unknown', reason: `z3 answered with values that break ${broken}: no answer is drawn from them`, nonlinear: stated.nonlinear };
  const values = stated.read(api, ctx, model);
  if (problem.objective && stated.objective && objectiveIndex >= 0 && 'getUpper' in backend) {
    const { direction } = problem.objective;
    const bound = (direction === 'maximize' ? backend.getUpper(objectiveIndex) : backend.getLower(objectiveIndex)).toString();
    if (/\boo\b/.test(bound)) {
      return { status: 'unbounded', direction, reason: `the objective has no ${direction === 'maximize' ? 'maximum' : 'minimum'}: it grows without bound`, model: values };
    }
    if (/\bepsilon\b/.test(bound)) {
      const limit = bound.replace(/\s+/g, ' ');
      return {
        status: 'unbounded',
        direction,
        reason: `the objective has no ${direction === 'maximize' ? 'maximum' : 'minimum'}: its ${direction === 'maximize' ? 'supremum' : 'infimum'} (${limit}) is not attained`,
        model: values,
      };
    }
    const optimum = readValue(api, ctx, model.eval(stated.objective, true), stated.sortOf(problem.objective.term));
    return { status: 'sat', model: values, optimum };
  }
  return { status: 'sat', model: values };
}

/** One check() within `timeoutMs`, stopped by `signal`; `timedOut` when the time, not z3, ended it. */
async function check(ctx: Ctx, backend: Solver<'assay'> | Optimize<'assay'>, timeoutMs: number, signal?: AbortSignal): Promise<{ status: 'sat' | 'unsat' | 'unknown'; timedOut: boolean }> {
  backend.set('timeout', timeoutMs);
  // z3's own timeout is the primary limit; this timer is a backstop in case the WASM build misses it.
  let backstopFired = false;
  const backstop = setTimeout(() => {
    backstopFired = true;
    ctx.interrupt();
  }, timeoutMs + 250);
  const onAbort = () => ctx.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  const started = Date.now();
  let status: 'sat' | 'unsat' | 'unknown';
  try {
    status = await backend.check();
  } finally {
    clearTimeout(backstop);
    signal?.removeEventListener('abort', onAbort);
  }
  const timedOut = status === 'unknown' && (backstopFired || Date.now() - started >= timeoutMs || /timeout|canceled/.test(backend.reasonUnknown()));
  return { status, timedOut };
}

/** Whether a value reaches the host as exactly itself (a double is exact for it). */
/**
 * What a model z3 answered breaks: an assertion (by name) or a side condition (a square root's, a
 * division's) that does not evaluate to true under it, or undefined when it satisfies them all. z3's
 * non-linear solver was seen to answer such a model in a long-lived engine (a square root's side
 * condition false, so a constraint seemed to hold at a value where it does not): checked before any
 * value is read from a model.
 */
function violated(ctx: Ctx, stated: Statement, model: Model<'assay'>): string | undefined {
  for (const c of stated.constraints) if (!ctx.isTrue(model.eval(c, true))) return 'a side condition of the problem (a domain of a square root, a division or a variable)';
  for (const a of stated.assertions) if (!ctx.isTrue(model.eval(a.term, true))) return `the assertion ${a.name}`;
  return undefined;
}

function exactInDoubles(v: SolverValue): boolean {
  if (v.sort !== 'Real') return true;
  if (v.algebraic) return false;
  const m = /^(-?\d+)(?:\/(\d+))?$/.exec(v.exact);
  if (!m) return false;
  // p/q is a double exactly when q is a power of two and p fits the 53-bit mantissa (after scaling).
  const q = m[2] === undefined ? 1n : BigInt(m[2]);
  if ((q & (q - 1n)) !== 0n) return false;
  const p = BigInt(m[1]!);
  const abs = p < 0n ? -p : p;
  return abs <= 2n ** 53n && Number.isFinite(v.approx);
}

/**
 * A path condition: what must hold for an expression to be evaluated at all (undefined: it always is).
 * The notation evaluates `and`, `or`, `implies` and `if` lazily, so `y == 0.0 or 10.0 / y < 0.0` never
 * divides by zero: a side condition (`y != 0`) holds only under the path condition of its expression.
 */
type Guard = BoolExpr | undefined;

/** Whether a term is a numeral other than zero (no side condition is needed to divide by it). */
function nonzeroNumeral(t: Term): boolean {
  return t.op === 'num' && /[1-9]/.test(t.value.split('/')[0]!);
}

/** The problem stated as z3 terms; also records whether anything non-linear was stated. */
class Statement {
  /** Side conditions (a divisor is not zero, a square root's argument is not negative), each under its path condition. */
  readonly constraints: BoolExpr[] = [];
  readonly assertions: { name: string; term: BoolExpr }[] = [];
  /** Stated with the assertions, so that its side conditions are among `constraints`. */
  readonly objective: ArithExpr | undefined;
  nonlinear = false;
  private readonly vars = new Map<string, { sort: Sort; expr: AnyExpr }>();
  private readonly sorts = new Map<Term, Sort>();
  private fresh = 0;

  constructor(
    private readonly ctx: Ctx,
    problem: Problem,
  ) {
    for (const v of problem.variables) {
      if (this.vars.has(v.name)) throw new ProblemError(`variable ${v.name} is declared twice`);
      const expr = v.sort === 'Bool' ? ctx.Bool.const(v.name) : v.sort === 'Int' ? ctx.Int.const(v.name) : ctx.Real.const(v.name);
      this.vars.set(v.name, { sort: v.sort, expr });
    }
    for (const v of problem.variables) this.constrainVariable(v);
    for (const a of problem.assertions) {
      this.assertions.push({ name: a.name, term: this.bool(a.term, a.name) });
    }
    this.objective = problem.objective ? this.arith(problem.objective.term, 'objective') : undefined;
  }

  /** States `conditions` where an expression is evaluated: under its path condition. */
  private side(guard: Guard, ...conditions: BoolExpr[]): void {
    const c = conditions.length === 1 ? conditions[0]! : this.ctx.And(...conditions);
    this.constraints.push(guard ? this.ctx.Implies(guard, c) : c);
  }

  private within(guard: Guard, c: BoolExpr): BoolExpr {
    return guard ? this.ctx.And(guard, c) : c;
  }

  private constrainVariable(v: Variable): void {
    const x = this.vars.get(v.name)!.expr;
    if (v.sort !== 'Bool') {
      const a = x as ArithExpr;
      if (v.lower !== undefined) this.constraints.push(v.lowerStrict ? a.gt(this.numeral(v.lower, v.sort)) : a.ge(this.numeral(v.lower, v.sort)));
      if (v.upper !== undefined) this.constraints.push(v.upperStrict ? a.lt(this.numeral(v.upper, v.sort)) : a.le(this.numeral(v.upper, v.sort)));
    }
    if (v.domain) {
      if (v.domain.length === 0) throw new ProblemError(`variable ${v.name} has an empty domain`);
      const options = v.domain.map((d) => {
        if (v.sort === 'Bool') {
          if (d !== 'true' && d !== 'false') throw new ProblemError(`domain value ${d} of ${v.name} is not a Boolean`);
          return this.ctx.Eq(x, this.ctx.Bool.val(d === 'true'));
        }
        return this.ctx.Eq(x, this.numeral(d, v.sort));
      });
      this.constraints.push(this.ctx.Or(...options));
    }
  }

  private numeral(text: string, sort: Sort): ArithExpr {
    if (!/^-?(\d+(\.\d+)?|\d+\/\d+)$/.test(text)) throw new ProblemError(`${text} is not a number`);
    if (sort === 'Int') {
      if (!/^-?\d+$/.test(text)) throw new ProblemError(`${text} is not an integer`);
      return this.ctx.Int.val(BigInt(text));
    }
    if (/^-?\d+\/0+$/.test(text)) throw new ProblemError(`${text} divides by zero`);
    return this.ctx.Real.val(text);
  }

  /** The sort a term has: Int when every number in it is whole and no real division is involved. */
  sortOf(t: Term): Sort {
    const known = this.sorts.get(t);
    if (known) return known;
    let s: Sort;
    switch (t.op) {
      case 'bool':
      case 'not':
      case 'isint':
      case 'and':
      case 'or':
      case 'implies':
      case 'xor':
      case 'eq':
      case 'ne':
      case 'lt':
      case 'le':
      case 'gt':
      case 'ge':
        s = 'Bool';
        break;
      case 'num':
        s = /^-?\d+$/.test(t.value) ? 'Int' : 'Real';
        break;
      case 'var': {
        const v = this.vars.get(t.name);
        if (!v) throw new ProblemError(`${t.name} is not a declared variable`);
        s = v.sort;
        break;
      }
      case 'neg':
      case 'abs':
        s = this.sortOf(t.arg);
        break;
      case 'sqrt':
      case 'div':
        s = 'Real';
        break;
      case 'add':
      case 'mul':
      case 'min':
      case 'max':
        s = t.args.every((a) => this.sortOf(a) === 'Int') ? 'Int' : 'Real';
        break;
      case 'sub':
      case 'mod':
        s = this.sortOf(t.left) === 'Int' && this.sortOf(t.right) === 'Int' ? 'Int' : 'Real';
        break;
      case 'pow':
        s = this.sortOf(t.left) === 'Int' && t.right.op === 'num' && /^\d+$/.test(t.right.value) ? 'Int' : 'Real';
        break;
      case 'ite': {
        const a = this.sortOf(t.then);
        const b = this.sortOf(t.else);
        s = a === b ? a : a === 'Bool' || b === 'Bool' ? 'Bool' : 'Real';
        if ((a === 'Bool') !== (b === 'Bool')) throw new ProblemError('the branches of a conditional mix Boolean and number');
        break;
      }
    }
    this.sorts.set(t, s);
    return s;
  }

  bool(t: Term, where: string, guard?: Guard): BoolExpr {
    if (this.sortOf(t) !== 'Bool') throw new ProblemError(`${where}: expected a Boolean, found a number`);
    const ctx = this.ctx;
    switch (t.op) {
      case 'bool':
        return ctx.Bool.val(t.value);
      case 'var':
        return this.vars.get(t.name)!.expr as BoolExpr;
      case 'not':
        return ctx.Not(this.bool(t.arg, where, guard));
      case 'isint':
        return ctx.IsInt(this.arith(t.arg, where, true, guard));
      case 'and':
      case 'or': {
        if (t.args.length === 0) return ctx.Bool.val(t.op === 'and');
        // Each operand is evaluated only while the ones before it leave the result open (unless strict).
        const operands: BoolExpr[] = [];
        let open = guard;
        for (const a of t.args) {
          const x = this.bool(a, where, t.strict ? guard : open);
          operands.push(x);
          open = this.within(open, t.op === 'and' ? x : ctx.Not(x));
        }
        return t.op === 'and' ? ctx.And(...operands) : ctx.Or(...operands);
      }
      case 'implies': {
        const l = this.bool(t.left, where, guard);
        return ctx.Implies(l, this.bool(t.right, where, this.within(guard, l)));
      }
      case 'xor':
        return ctx.Xor(this.bool(t.left, where, guard), this.bool(t.right, where, guard));
      case 'eq':
      case 'ne': {
        const ls = this.sortOf(t.left);
        const rs = this.sortOf(t.right);
        if ((ls === 'Bool') !== (rs === 'Bool')) throw new ProblemError(`${where}: compares a Boolean with a number`);
        const eq =
          ls === 'Bool'
            ? ctx.Eq(this.bool(t.left, where, guard), this.bool(t.right, where, guard))
            : ctx.Eq(...this.arithPair(t.left, t.right, where, guard));
        return t.op === 'eq' ? eq : ctx.Not(eq);
      }
      case 'lt':
      case 'le':
      case 'gt':
      case 'ge': {
        const [l, r] = this.arithPair(t.left, t.right, where, guard);
        return t.op === 'lt' ? l.lt(r) : t.op === 'le' ? l.le(r) : t.op === 'gt' ? l.gt(r) : l.ge(r);
      }
      case 'ite': {
        const c = this.bool(t.cond, where, guard);
        return ctx.If(c, this.bool(t.then, where, this.within(guard, c)), this.bool(t.else, where, this.within(guard, ctx.Not(c)))) as BoolExpr;
      }
      default:
        throw new ProblemError(`${where}: ${t.op} does not give a Boolean`);
    }
  }

  /** Both sides as numbers of one sort (an Int side is widened to Real when the other is Real). */
  private arithPair(a: Term, b: Term, where: string, guard: Guard): [ArithExpr, ArithExpr] {
    const real = this.sortOf(a) === 'Real' || this.sortOf(b) === 'Real';
    return [this.arith(a, where, real, guard), this.arith(b, where, real, guard)];
  }

  arith(t: Term, where: string, asReal = false, guard?: Guard): ArithExpr {
    const s = this.sortOf(t);
    if (s === 'Bool') throw new ProblemError(`${where}: expected a number, found a Boolean`);
    const e = this.arithOfSort(t, where, guard);
    return asReal && s === 'Int' ? this.ctx.ToReal(e) : e;
  }

  private isConstant(t: Term): boolean {
    switch (t.op) {
      case 'num':
      case 'bool':
        return true;
      case 'var':
        return false;
      case 'neg':
      case 'abs':
      case 'not':
      case 'isint':
      case 'sqrt':
        return this.isConstant(t.arg);
      case 'add':
      case 'mul':
      case 'and':
      case 'or':
      case 'min':
      case 'max':
        return t.args.every((a) => this.isConstant(a));
      case 'ite':
        return this.isConstant(t.cond) && this.isConstant(t.then) && this.isConstant(t.else);
      default:
        return this.isConstant(t.left) && this.isConstant(t.right);
    }
  }

  private arithOfSort(t: Term, where: string, guard: Guard): ArithExpr {
    const ctx = this.ctx;
    const real = this.sortOf(t) === 'Real';
    const sub = (x: Term) => this.arith(x, where, real, guard);
    switch (t.op) {
      case 'num':
        return this.numeral(t.value, real ? 'Real' : 'Int');
      case 'var':
        return this.vars.get(t.name)!.expr as ArithExpr;
      case 'neg':
        return sub(t.arg).neg();
      case 'abs': {
        const x = sub(t.arg);
        return ctx.If(x.ge(0), x, x.neg()) as ArithExpr;
      }
      case 'add':
        return t.args.length === 0 ? this.numeral('0', real ? 'Real' : 'Int') : ctx.Sum(sub(t.args[0]!), ...t.args.slice(1).map(sub));
      case 'mul':
        if (t.args.filter((a) => !this.isConstant(a)).length > 1) this.nonlinear = true;
        return t.args.length === 0 ? this.numeral('1', real ? 'Real' : 'Int') : ctx.Product(sub(t.args[0]!), ...t.args.slice(1).map(sub));
      case 'min':
      case 'max': {
        if (t.args.length === 0) throw new ProblemError(`${where}: ${t.op} of nothing`);
        let acc = sub(t.args[0]!);
        for (const a of t.args.slice(1)) {
          const x = sub(a);
          acc = ctx.If(t.op === 'min' ? x.lt(acc) : x.gt(acc), x, acc) as ArithExpr;
        }
        return acc;
      }
      case 'sub':
        return sub(t.left).sub(sub(t.right));
      case 'div': {
        const num = this.arith(t.left, where, true, guard);
        const den = this.arith(t.right, where, true, guard);
        if (!this.isConstant(t.right)) this.nonlinear = true;
        // z3 leaves x/0 unspecified; the notation makes it an error, so a witness must avoid it where it is evaluated.
        if (!nonzeroNumeral(t.right)) this.side(guard, ctx.Not(ctx.Eq(den, 0)));
        return ctx.Div(num, den);
      }
      case 'mod': {
        if (real) throw new ProblemError(`${where}: the remainder (%) needs whole numbers`);
        const a = sub(t.left);
        const b = sub(t.right);
        if (!this.isConstant(t.right)) this.nonlinear = true;
        if (!nonzeroNumeral(t.right)) this.side(guard, ctx.Not(ctx.Eq(b, 0)));
        // The notation's remainder is truncated (it takes the dividend's sign: -7 % 3 = -1, docs/semantics.md);
        // z3's mod is Euclidean (never negative): a % b = mod(a, b) for a >= 0, else -mod(-a, b).
        return ctx.If(a.ge(0), ctx.Mod(a, b), ctx.Mod(a.neg(), b).neg()) as ArithExpr;
      }
      case 'pow': {
        const base = sub(t.left);
        // Small whole exponents become products, which z3's non-linear arithmetic handles best.
        if (t.right.op === 'num' && /^\d+$/.test(t.right.value) && Number(t.right.value) <= 16) {
          const n = Number(t.right.value);
          if (n === 0) return this.numeral('1', real ? 'Real' : 'Int');
          if (n > 1 && !this.isConstant(t.left)) this.nonlinear = true;
          return n === 1 ? base : ctx.Product(base, ...Array.from({ length: n - 1 }, () => base));
        }
        this.nonlinear = true;
        // An Int power has a whole exponent (sortOf): z3 will not take a Real one for an Int base.
        return base.pow(this.arith(t.right, where, real, guard));
      }
      case 'sqrt': {
        // sqrt(x) is the r with r >= 0 and r*r = x; x must not be negative where it is evaluated.
        this.nonlinear = true;
        const x = this.arith(t.arg, where, true, guard);
        const r = ctx.Real.const(`sqrt!${this.fresh++}`);
        this.side(guard, x.ge(0), r.ge(0), ctx.Eq(r.mul(r), x));
        return r;
      }
      case 'ite': {
        const c = this.bool(t.cond, where, guard);
        const then = this.arith(t.then, where, real, this.within(guard, c));
        return ctx.If(c, then, this.arith(t.else, where, real, this.within(guard, ctx.Not(c)))) as ArithExpr;
      }
      default:
        throw new ProblemError(`${where}: ${t.op} does not give a number`);
    }
  }

  read(api: Z3, ctx: Ctx, model: Model<'assay'>): Map<string, SolverValue> {
    const out = new Map<string, SolverValue>();
    for (const [name, v] of this.vars) out.set(name, readValue(api, ctx, model.eval(v.expr, true), v.sort));
    return out;
  }
}

function readValue(api: Z3, ctx: Ctx, e: AnyExpr, sort: Sort): SolverValue {
  if (sort === 'Bool') return { sort, value: ctx.isTrue(e) };
  if (sort === 'Int' && ctx.isIntVal(e)) return { sort, value: e.value() };
  if (api.Z3.is_algebraic_number(ctx.ptr, e.ast)) {
    const decimal = api.Z3.get_numeral_decimal_string(ctx.ptr, e.ast, 20).replace(/\?$/, '');
    return { sort: 'Real', exact: decimal, approx: Number(decimal), algebraic: true };
  }
  if (ctx.isRealVal(e) || ctx.isIntVal(e)) {
    const exact = api.Z3.get_numeral_string(ctx.ptr, e.ast);
    return { sort: 'Real', exact, approx: rationalToNumber(exact), algebraic: false };
  }
  throw new Error(`z3 returned a value that is not a number: ${e.toString()}`);
}

/** `p/q` or an integer as the nearest double. */
export function rationalToNumber(text: string): number {
  const m = /^(-?\d+)(?:\/(\d+))?$/.exec(text);
  if (!m) return Number(text);
  if (!m[2]) return Number(m[1]);
  const p = BigInt(m[1]!);
  const q = BigInt(m[2]);
  const whole = p / q;
  return Number(whole) + Number(p - whole * q) / Number(q);
}

/** A solver value spelled as notation (a witness `value`). */
export function valueText(v: SolverValue): string {
  if (v.sort === 'Bool') return String(v.value);
  if (v.sort === 'Int') return v.value.toString();
  return v.algebraic || v.exact.includes('/') ? String(v.approx) : v.exact;
}
