// Differential fuzzing of the value questions (`npm run fuzz -- values`): the evaluator and the solver
// path (z3) are two implementations of the same semantics, so on random constraints they must agree.
// Through the real engine process (dist/engine.js), as a host asks:
// - all features valued: `evaluate k` is true exactly when `satisfiable k` is satisfiable;
// - one free Integer `c`: a witness `satisfiable` gives makes `evaluate` true with c bound to it, and
//   when it says unsatisfiable no c in -12..12 makes `evaluate` true.
// Refusals and model errors (a division by zero) are allowed on either side; a wrong value is not.
// FUZZ_CASES=<n> (default 300), FUZZ_SEED=<n> (default 1) replay a run; each disagreement is printed
// with its model, and the exit code is 1 when there is one.
import { EngineProcess, modelText, question, runParams, type WireMessage } from '../engine/engine-process';
import { prng } from './hostile-text';

const CASES = Number(process.env.FUZZ_CASES ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 1);

class Generator {
  constructor(private readonly rnd: () => number, private readonly ints: readonly string[], private readonly reals: readonly string[] = ['x', 'y'], private readonly masses = true) {}
  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)]!;
  }
  private int(): string {
    return String(Math.floor(this.rnd() * 19) - 9);
  }
  integer(d: number): string {
    if (d <= 0 || this.rnd() < 0.3) return this.rnd() < 0.6 ? this.pick(this.ints) : this.int();
    const r = this.rnd();
    if (r < 0.1) return `(if ${this.boolean(d - 1)} ? ${this.integer(d - 1)} else ${this.integer(d - 1)})`;
    if (r < 0.15) return `-${this.integer(d - 1)}`;
    if (r < 0.2) return `(${this.integer(d - 1)} ** ${Math.floor(this.rnd() * 3)})`;
    return `(${this.integer(d - 1)} ${this.pick(['+', '-', '*', '%'])} ${this.integer(d - 1)})`;
  }
  real(d: number): string {
    if (d <= 0 || this.rnd() < 0.3) return this.pick([...this.reals, `${this.int()}.5`, '0.25', this.integer(0)]);
    const r = this.rnd();
    if (r < 0.15) return this.integer(d - 1);
    if (r < 0.25) return `${this.pick(['abs', 'floor', 'round', 'RealFunctions::sqrt'])}(${this.real(d - 1)})`;
    if (r < 0.32) return `${this.pick(['max', 'min'])}(${this.real(d - 1)}, ${this.real(d - 1)})`;
    if (r < 0.37) return `(${this.integer(d - 1)} / ${this.integer(d - 1)})`;
    return `(${this.real(d - 1)} ${this.pick(['+', '-', '*', '/'])} ${this.real(d - 1)})`;
  }
  mass(d: number): string {
    if (d <= 0 || this.rnd() < 0.35) return this.pick(['m', 'n', `${this.int()} [kg]`, `${this.int()}00 [g]`, `${this.int()}.5 [t]`]);
    const r = this.rnd();
    if (r < 0.3) return `(${this.mass(d - 1)} * ${this.real(d - 1)})`;
    if (r < 0.4) return `(${this.mass(d - 1)} / ${this.real(d - 1)})`;
    return `(${this.mass(d - 1)} ${this.pick(['+', '-'])} ${this.mass(d - 1)})`;
  }
  /** Lengths across units whose factors are exact fractions (cm, km, ft, in): compared exactly both ways. */
  length(d: number): string {
    if (d <= 0 || this.rnd() < 0.35) {
      return this.pick(['l', 'w', `${this.int()} [SI::m]`, `${this.int()}.5 [SI::cm]`, `${this.int()} [USCustomaryUnits::ft]`, `${this.int()}.25 [USCustomaryUnits::'in']`, `0.3048 [SI::m]`, `${this.int()}.001 [SI::km]`]);
    }
    const r = this.rnd();
    if (r < 0.3) return `(${this.length(d - 1)} * ${this.real(d - 1)})`;
    if (r < 0.4) return `(${this.length(d - 1)} / ${this.real(d - 1)})`;
    return `(${this.length(d - 1)} ${this.pick(['+', '-'])} ${this.length(d - 1)})`;
  }
  boolean(d: number): string {
    if (d <= 0 || this.rnd() < 0.15) return this.pick(['p', 'true', 'false', `${this.integer(0)} < ${this.integer(0)}`]);
    const r = this.rnd();
    if (r < 0.3) return `(${this.integer(d - 1)} ${this.pick(['<', '<=', '>', '>=', '==', '!='])} ${this.integer(d - 1)})`;
    if (r < 0.5) return `(${this.real(d - 1)} ${this.pick(['<', '<=', '>', '>=', '==', '!='])} ${this.real(d - 1)})`;
    if (r < 0.55 && this.masses) return `(${this.mass(d - 1)} ${this.pick(['<', '<=', '>', '>=', '==', '!='])} ${this.mass(d - 1)})`;
    if (r < 0.58 && this.masses) return `(${this.length(d - 1)} ${this.pick(['<', '<=', '>', '>=', '==', '!='])} ${this.length(d - 1)})`;
    if (r < 0.6) return `not ${this.boolean(d - 1)}`;
    if (r < 0.65) return `(if ${this.boolean(d - 1)} ? ${this.boolean(d - 1)} else ${this.boolean(d - 1)})`;
    return `(${this.boolean(d - 1)} ${this.pick(['and', 'or', 'xor', 'implies'])} ${this.boolean(d - 1)})`;
  }
}

type Verdict = { value: boolean } | { claim: string; witness?: Record<string, unknown> } | { refused: string };

function verdictOf(m: WireMessage): Verdict {
  if (m.error) return { refused: `${m.error.code}: ${m.error.message}` };
  const r = m.result as { claim: string; strength: string; values?: { name: string; value: unknown }[]; witness?: { inputs?: { name: string; value: unknown }[] } };
  if (r.claim === 'value') {
    const v = r.values?.[0]?.value;
    return typeof v === 'boolean' ? { value: v } : { refused: `value ${JSON.stringify(v)}` };
  }
  const witness: Record<string, unknown> = {};
  for (const i of r.witness?.inputs ?? []) witness[i.name] = i.value;
  return { claim: `${r.claim}/${r.strength}`, witness };
}

async function main(): Promise<void> {
  const rnd = prng(SEED);
  const engine = new EngineProcess();
  let id = 0;
  const askEngine = async (kind: string, subject: string, text: string): Promise<Verdict> =>
    verdictOf(await engine.request(++id, 'run', runParams(question(kind, subject), modelText('f.sysml', text))));
  const disagreements: string[] = [];
  const counts = { closed: 0, closedAnswered: 0, free: 0, freeAnswered: 0 };
  const values = () => ({ a: Math.floor(rnd() * 15) - 7, b: Math.floor(rnd() * 15) - 7, x: (Math.floor(rnd() * 13) - 6) / 2, y: (Math.floor(rnd() * 13) - 6) / 4, p: rnd() < 0.5 });
  const header = (v: ReturnType<typeof values>) => `  private import ScalarValues::*;
  attribute a : Integer = ${v.a}; attribute b : Integer = ${v.b};
  attribute x : Real = ${v.x.toFixed(2)}; attribute y : Real = ${v.y.toFixed(2)}; attribute p : Boolean = ${v.p};
  attribute m : ISQ::MassValue = ${v.x.toFixed(2)} [SI::kg]; attribute n : ISQ::MassValue = ${Math.round(v.y * 1000)} [SI::g];
  attribute l : ISQ::LengthValue = ${v.x.toFixed(2)} [USCustomaryUnits::ft]; attribute w : ISQ::LengthValue = ${(v.y * 30.48).toFixed(4)} [SI::cm];`;

  const only = process.env.FUZZ_ONLY === undefined ? undefined : new Set(process.env.FUZZ_ONLY.split(',').map(Number));
  const one = async (n: number): Promise<void> => {
    const v = values();
    // FUZZ_ONLY=<n>[,<m>…]: the same random sequence, but only those cases asked (replays them);
    // FUZZ_FROM=<n>: only the cases from n on.
    const from = Number(process.env.FUZZ_FROM ?? 0);
    const asking = (only === undefined || only.has(n)) && n >= from;
    const ask = async (kind: string, subject: string, text: string): Promise<Verdict> => (asking ? askEngine(kind, subject, text) : { refused: 'not asked' });
    if (n % 3 === 2) {
      // One free Real z: a witness must make the constraint true.
      const expr = new Generator(rnd, ['a', 'b'], ['x', 'y', 'z', 'z'], false).boolean(3);
      const model = (z?: number) => `package F {\n${header(v)}\n  part def H { attribute z : Real; constraint q { ${expr} } }\n  part h : H${z === undefined ? ';' : ` { attribute :>> z = ${z}; }`}\n}\n`;
      counts.free++;
      const s = await ask('satisfiable', 'F::h', model());
      if (!('claim' in s) || !s.claim.endsWith('/proved') || !s.claim.startsWith('satisfiable')) return;
      counts.freeAnswered++;
      const z = s.witness?.z;
      // A witness exact only as a fraction or an algebraic number cannot be written back as a literal.
      if (typeof z !== 'number' || !Number.isFinite(z) || String(z).includes('e')) return;
      // A witness of many digits is a double near an exact value no short decimal writes (5/9, a
      // root): evaluate reads the decimal sent, which misses that value by rounding. Only witnesses
      // whose decimal is exact (few digits) are checked.
      if (String(z).replace(/^-/, '').replace('.', '').replace(/^0+/, '').length > 12) return;
      const e = await ask('evaluate', 'F::h::q', model(z));
      if ('value' in e && !e.value) disagreements.push(`case ${n}: satisfiable gave z = ${z}, where evaluate says false:\n${model(z)}`);
    } else if (n % 3 === 0) {
      // Everything valued: the evaluator's value decides satisfiability.
      const expr = new Generator(rnd, ['a', 'b']).boolean(3);
      const text = `package F {\n${header(v)}\n  constraint k { ${expr} }\n}\n`;
      counts.closed++;
      const e = await ask('evaluate', 'F::k', text);
      const s = await ask('satisfiable', 'F::k', text);
      if (process.env.FUZZ_SHOW) console.log(expr, '=>', JSON.stringify(e), JSON.stringify(s));
      if (!('value' in e) || !('claim' in s) || !s.claim.endsWith('/proved')) return;
      counts.closedAnswered++;
      const sat = s.claim.startsWith('satisfiable');
      if (sat !== e.value) disagreements.push(`case ${n}: evaluate says ${e.value}, satisfiable says ${s.claim}:\n${text}`);
    } else {
      // One free Integer c: a witness must make the constraint true; unsatisfiable must leave no c that does.
      const expr = new Generator(rnd, ['a', 'b', 'c', 'c']).boolean(3);
      const model = (c?: number) => `package F {\n${header(v)}\n  part def H { attribute c : Integer; constraint q { ${expr} } }\n  part h : H${c === undefined ? ';' : ` { attribute :>> c = ${c}; }`}\n}\n`;
      counts.free++;
      const s = await ask('satisfiable', 'F::h', model());
      if (!('claim' in s) || !s.claim.endsWith('/proved')) return;
      counts.freeAnswered++;
      if (s.claim.startsWith('satisfiable')) {
        const c = s.witness?.c;
        if (typeof c !== 'number') {
          if (c !== undefined) disagreements.push(`case ${n}: satisfiable gave c = ${JSON.stringify(c)}:\n${model()}`);
          return;
        }
        const e = await ask('evaluate', 'F::h::q', model(c));
        if ('value' in e && !e.value) disagreements.push(`case ${n}: satisfiable gave c = ${c}, where evaluate says false:\n${model(c)}`);
      } else {
        for (let c = -12; c <= 12; c++) {
          const e = await ask('evaluate', 'F::h::q', model(c));
          if ('value' in e && e.value) {
            disagreements.push(`case ${n}: satisfiable says ${s.claim}, but evaluate is true at c = ${c}:\n${model(c)}`);
            break;
          }
        }
      }
    }
  };
  for (let n = 0; n < CASES; n++) {
    await one(n);
    if ((n + 1) % 100 === 0) process.stdout.write(`${n + 1} cases, ${disagreements.length} disagreements\n`);
  }
  await engine.close();
  console.log(`seed ${SEED}: ${counts.closed} closed constraints (${counts.closedAnswered} answered by both), ${counts.free} with a free c (${counts.freeAnswered} answered by satisfiable), ${disagreements.length} disagreements`);
  for (const d of disagreements) console.log(`\n---\n${d}`);
  process.exitCode = disagreements.length === 0 ? 0 : 1;
}

void main();
