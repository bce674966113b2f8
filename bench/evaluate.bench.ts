// Expression evaluations per second over a mix a model meets: arithmetic with units and conversion,
// comparisons, calls of library functions, sequences with bodies, and a calc invocation.
// Run: `npm run bench -- evaluate` (or `npx tsx bench/evaluate.bench.ts`).

import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Argument, BinaryOperator, Expression, Member, QualifiedName, SourceRange, Usage } from '../src/sysml/ast';
import type * as EvaluateModule from '../src/sysml/semantics/evaluate';
import type { Environment } from '../src/sysml/semantics/evaluate';
import type { Value } from '../src/sysml/semantics/values';

// Measure the code as the engine runs it: bundled by esbuild like dist/engine.js (tsx's per-call
// export getters and name helpers would otherwise cost a third of the time).
type Semantics = typeof EvaluateModule & typeof import('../src/sysml/semantics/units') & typeof import('../src/sysml/semantics/values');
function bundledSemantics(): Semantics {
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-'));
  try {
    const entry = join(dir, 'entry.ts');
    const src = join(__dirname, '..', 'src', 'sysml', 'semantics');
    writeFileSync(entry, ['evaluate', 'units', 'values'].map((m) => `export * from ${JSON.stringify(join(src, m))};`).join('\n'));
    const out = join(dir, 'semantics.js');
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'warning' });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(out) as Semantics;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const { Evaluator, parseUnit, quantity } = bundledSemantics();

const R: SourceRange = { start: 0, end: 1, line: 1, column: 1, endLine: 1, endColumn: 2 };
const qn = (...segments: string[]): QualifiedName => ({ kind: 'QualifiedName', segments, segmentStarts: segments.map(() => 0), isGlobal: false, range: R });
const lit = (value: number): Expression => ({ kind: 'Literal', literal: Number.isInteger(value) ? 'integer' : 'real', value, range: R });
const name = (...s: string[]): Expression => ({ kind: 'Name', name: qn(...s), range: R });
const bin = (operator: BinaryOperator, left: Expression, right: Expression): Expression => ({ kind: 'Binary', operator, left, right, range: R });
const qty = (value: Expression, unit: Expression): Expression => ({ kind: 'Quantity', value, unit, range: R });
const arg = (value: Expression): Argument => ({ kind: 'Argument', name: null, value, range: R });
const call = (callee: string, ...args: Argument[]): Expression => ({ kind: 'Invocation', callee: qn(callee), args, range: R });
const seq = (...items: Expression[]): Expression => ({ kind: 'Sequence', items, range: R });
const usage = (n: string, direction: 'in' | null, value: Expression | null, role: Usage['role'] = null): Usage => ({
  kind: 'Usage', keyword: 'attribute', isKeywordImplicit: false, role, isParallel: false, isNegated: false, isSufficient: false,
  ends: null, payload: null, satisfiedBy: null, about: [], body: null, direction, isAbstract: false, isVariation: false,
  isConstant: false, isDerived: false, isEnd: false, isRef: false, isComposite: false, isVar: false, isIndividual: false,
  portionKind: null, isOrdered: false, isNonunique: false, relations: [], multiplicity: null,
  value: value ? { kind: 'FeatureValue', isInitial: false, isDefault: false, expression: value, range: R } : null,
  range: R, visibility: null, prefixMetadata: [], name: n, shortName: null, nameRange: null,
});

// calc def Velocity { in dt; in v0; in a; return = v0 + a * dt; }
const velocity: Member[] = [usage('dt', 'in', null), usage('v0', 'in', null), usage('a', 'in', null),
  usage('result', null, bin('+', name('v0'), bin('*', name('a'), name('dt'))), 'return')];

const values: Record<string, Value> = {
  mass: quantity(1200, parseUnit('kg')),
  speed: quantity(90, parseUnit('km/h')),
  limit: quantity(30, parseUnit('m/s')),
  dt: quantity(2, parseUnit('s')),
};
const env: Environment = {
  lookup: (n) => values[n.segments.join('::')],
  invoke: (callee, args, evaluator, at) =>
    callee.kind === 'QualifiedName' && callee.segments[0] === 'Velocity' ? evaluator.callBody('Velocity', velocity, args, env, at) : undefined,
};

const kmh = bin('/', name('km'), name('h'));
const mix: Array<[string, Expression]> = [
  ['force = mass * 9.81 [m/s^2]', bin('*', name('mass'), qty(lit(9.81), bin('/', name('m'), bin('^', name('s'), lit(2)))))],
  ['speed < limit', bin('<', name('speed'), name('limit'))],
  ['1 [h] + 30 [min] > 80 [min]', bin('>', bin('+', qty(lit(1), name('h')), qty(lit(30), name('min'))), qty(lit(80), name('min')))],
  ['sum((1000 [kg], 100 [kg], 50 [kg])) <= 2500 [kg]',
    bin('<=', call('sum', arg(seq(qty(lit(1000), name('kg')), qty(lit(100), name('kg')), qty(lit(50), name('kg'))))), qty(lit(2500), name('kg')))],
  ['sqrt(abs(-16)) + max(3, 4.5) * 2', bin('+', call('sqrt', arg(call('abs', arg(lit(-16))))), bin('*', call('max', arg(lit(3)), arg(lit(4.5))), lit(2)))],
  ['Velocity(dt, speed, 2 [m/s^2]) [km/h]',
    qty(call('Velocity', arg(name('dt')), arg(name('speed')), arg(qty(lit(2), bin('/', name('m'), bin('^', name('s'), lit(2)))))), kmh)],
  ['if speed > 50 [km/h] ? 1 else 0', { kind: 'Conditional', condition: bin('>', name('speed'), qty(lit(50), kmh)), then: lit(1), else: lit(0), range: R }],
  ['(1..20)->select{in x; x % 2 == 0}->size()', { kind: 'ArrowInvocation', callee: qn('size'), args: [], range: R,
    target: { kind: 'Select', range: R, target: bin('..', lit(1), lit(20)), body: { kind: 'Body', range: R, members: [usage('x', 'in', null)],
      result: bin('==', bin('%', name('x'), lit(2)), lit(0)) } } }],
];

function run(seconds: number): { evaluations: number; elapsed: number } {
  const evaluator = new Evaluator();
  let evaluations = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  for (;;) {
    for (let k = 0; k < 200; k++) {
      for (const [, e] of mix) {
        const v = evaluator.evaluate(e, env);
        if (v.kind === 'error') throw new Error(v.message);
      }
      evaluations += mix.length;
    }
    const elapsed = process.hrtime.bigint() - start;
    if (elapsed >= budget) return { evaluations, elapsed: Number(elapsed) / 1e9 };
  }
}

run(0.3); // warm-up
const { evaluations, elapsed } = run(2);
const perSecond = evaluations / elapsed;
console.log(`expressions in the mix: ${mix.length}`);
for (const [text] of mix) console.log(`  ${text}`);
console.log(`evaluate: ${Math.round(perSecond).toLocaleString('en-US')} expression evaluations/s (${evaluations} in ${elapsed.toFixed(2)} s)`);

// Per-expression figures, to see which kind dominates.
for (const [text, e] of mix) {
  const evaluator = new Evaluator();
  const n = 20000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) evaluator.evaluate(e, env);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`  ${Math.round(n / s).toString().padStart(9)} /s  ${text}`);
}
