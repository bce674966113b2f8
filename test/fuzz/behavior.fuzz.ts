// Differential fuzzing of the behaviour explorer (`npm run fuzz -- behavior`): partial-order reduction
// must never change an answer. On random actions — forks of branches that read and write shared
// features through assignments, ifs, bounded loops and guarded successions, joined — `outcomes`,
// `holds` and `sensitive` under `-schedule all` are asked with reduction (as the engine runs) and
// without it (every interleaving), and must give the same outcomes, the same verdict and the same
// sensitivity. Refusals are allowed, on both sides alike.
// FUZZ_CASES=<n> (default 300), FUZZ_SEED=<n> (default 1) replay a run; each disagreement is printed
// with its model, and the exit code is 1 when there is one.
import { parse } from '../../src/sysml';
import { answerBehavior, BehaviorError, type BehaviorAnswer } from '../../src/sysml/behavior';
import { prng } from './hostile-text';

const CASES = Number(process.env.FUZZ_CASES ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 1);

const FEATURES = ['x', 'y', 'z'];

class Generator {
  constructor(private readonly rnd: () => number) {}
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)]!;
  }
  private small(): number {
    return Math.floor(this.rnd() * 4);
  }
  value(): string {
    const f = this.pick(FEATURES);
    return this.pick([`${f} + 1`, `${f} * 2`, `${this.small()}`, `${f} - ${this.pick(FEATURES)}`, `${this.pick(FEATURES)} + ${this.pick(FEATURES)}`, `if ${f} > 1 ? 0 else ${f} + 1`]);
  }
  condition(): string {
    return `${this.pick(FEATURES)} ${this.pick(['<', '>', '==', '!=', '<=', '>='])} ${this.rnd() < 0.5 ? this.small() : this.pick(FEATURES)}`;
  }
  /** One statement of a branch's flow, with its `;` when it takes one (a block does not). */
  statement(depth: number): string {
    const r = this.rnd();
    if (depth > 0 && r < 0.15) return `if ${this.condition()} { ${this.assign()} } else { ${this.assign()} }`;
    if (depth > 0 && r < 0.25) {
      const f = this.pick(FEATURES);
      return `while ${f} < ${1 + this.small()} { assign ${f} := ${f} + 1; }`;
    }
    return this.assign();
  }
  assign(): string {
    return `assign ${this.pick(FEATURES)} := ${this.value()};`;
  }
  /** A branch: a flow of one to three statements, or a decision between two actions (guards may overlap). */
  branch(name: string): string {
    if (this.rnd() < 0.25) {
      const second = this.rnd() < 0.5 ? 'else' : `if ${this.condition()} then`;
      return `action ${name} { first start; then decide; if ${this.condition()} then ${name}a; ${second} ${name}b;
    action ${name}a { first start; then ${this.statement(1)} then done; } then done;
    action ${name}b { first start; then ${this.statement(1)} then done; } then done; }`;
    }
    const n = 1 + Math.floor(this.rnd() * 3);
    const steps = Array.from({ length: n }, () => `then ${this.statement(1)}`).join(' ');
    return `action ${name} { first start; ${steps} then done; }`;
  }
  model(): string {
    const k = 2 + Math.floor(this.rnd() * 2);
    const names = Array.from({ length: k }, (_, i) => `b${i + 1}`);
    return `package B { action def A {
  ${FEATURES.map((f) => `attribute ${f} : ScalarValues::Integer := ${this.small()};`).join(' ')}
  first start; then fork; ${names.map((b) => `then ${b};`).join(' ')}
  ${names.map((b) => `${this.branch(b)} then j;`).join('\n  ')}
  join j; then done;
} }`;
  }
}

/** What an answer says, without what reduction may change (states counted, witnesses chosen). */
function said(a: BehaviorAnswer | BehaviorError): string {
  if (a instanceof BehaviorError) return `refused: ${a.message}`;
  const values = (a.values ?? []).map((v) => `${v.name}=${JSON.stringify(v.value)}`).sort();
  return `${a.claim}/${a.strength} ${values.join(' ')}`;
}

async function main(): Promise<void> {
  const rnd = prng(SEED);
  const g = new Generator(rnd);
  const disagreements: string[] = [];
  let answered = 0;
  let refused = 0;
  for (let n = 0; n < CASES; n++) {
    const text = g.model();
    const { document, errors } = parse(text);
    if (errors.length > 0) {
      disagreements.push(`the generator wrote a syntax error (${errors[0]!.message}):\n${text}`);
      continue;
    }
    const docs = [{ path: 'b.sysml', document }];
    const condition = `${g.pick(FEATURES)} + ${g.pick(FEATURES)} <= ${2 + Math.floor(rnd() * 6)}`;
    for (const kind of ['outcomes', 'holds', 'sensitive'] as const) {
      const q = { kind, subject: 'B::A', schedule: 'all', free: ['schedule' as const], ...(kind === 'holds' ? { condition: { name: 'c', text: condition } } : {}) };
      const reduced = said(await answerBehavior(docs, q));
      const full = said(await answerBehavior(docs, q, { reduction: false }));
      if (!reduced.startsWith('refused') && !full.startsWith('refused')) answered++;
      else refused++;
      // A refusal on one side only is allowed (reduction may meet a construct the full search does not);
      // two answers must be the same answer.
      if (reduced !== full && !reduced.startsWith('refused') && !full.startsWith('refused')) {
        disagreements.push(`${kind}${kind === 'holds' ? ` ${condition}` : ''}: with reduction ${reduced}\nwithout ${full}\n${text}`);
      }
    }
    if ((n + 1) % 100 === 0) process.stdout.write(`${n + 1} models, ${disagreements.length} disagreements\n`);
  }
  console.log(`seed ${SEED}: ${CASES} models, ${answered} questions answered both ways, ${refused} refused on one side or both, ${disagreements.length} disagreements`);
  for (const d of disagreements.slice(0, 20)) console.log(`\n---\n${d}`);
  process.exitCode = disagreements.length === 0 ? 0 : 1;
}

void main();
