import { strict as assert } from 'node:assert';
import type { Member, QualifiedName } from '../../../src/sysml/ast';
import { Evaluator, LocalScope, evaluate, type Environment } from '../../../src/sysml/semantics/evaluate';
import { Random } from '../../../src/sysml/semantics/random';
import { enumLiteral, format, int, q, type Instance, type Outcome, type Value } from './shorthands';
import {
  arg, arrow, at, bin, body, call, castAs, cond, idx, istype, lit, local, member, name, neg, not, nul, param, qty,
  realLit, result, seq, usage, valued,
} from './ast-builders';

/** A flat in-memory model: names to values or lazily evaluated expressions, calcs by name. */
function environment(values: Record<string, Value>, calcs: Record<string, Member[]> = {}): Environment {
  const env: Environment = {
    lookup: (n: QualifiedName) => values[n.segments.join('::')],
    invoke: (callee, args, evaluator, where) => {
      const key = callee.kind === 'QualifiedName' ? callee.segments.join('::') : '';
      const members = calcs[key];
      return members ? evaluator.callBody(key, members, args, env, where) : undefined;
    },
  };
  return env;
}

const empty = environment({});
const show = (v: Outcome) => format(v);

describe('semantics/evaluate', () => {
  it('evaluates arithmetic with units and converts in brackets', () => {
    // 2 [kg] * 9.81 [m/s^2]
    const force = bin('*', qty(lit(2), name('kg')), qty(realLit(9.81), bin('/', name('m'), bin('^', name('s'), lit(2)))));
    assert.equal(show(evaluate(force, empty)), '19.62 [N]');
    // 90 [km/h] [m/s]
    assert.equal(show(evaluate(qty(qty(lit(90), bin('/', name('km'), name('h'))), bin('/', name('m'), name('s'))), empty)), '25 [m/s]');
    // 1 [h] + 30 [min]
    assert.equal(show(evaluate(bin('+', qty(lit(1), name('h')), qty(lit(30), name('min'))), empty)), '1.5 [h]');
    // [1/s] and SI::'m/s'
    assert.equal(show(evaluate(qty(lit(5), bin('/', lit(1), name('s'))), empty)), '5 [1/s]');
    assert.equal(show(evaluate(qty(lit(5), name('SI', 'm/s')), empty)), '5 [m/s]');
  });

  it('reads units inside brackets even where a feature has the same name (the language server warns there)', () => {
    const env = environment({ m: q(3, 'kg') });
    assert.equal(show(evaluate(qty(lit(2), name('m')), env)), '2 [m]');
    assert.equal(show(evaluate(bin('*', name('m'), lit(2)), env)), '6 [kg]');
  });

  it('reports a dimension mismatch with the range of the operator', () => {
    const where = at(7, 12);
    const e = evaluate(bin('+', qty(lit(1), name('kg')), qty(lit(1), name('m')), where), empty);
    assert.equal(e.kind, 'error');
    assert.equal((e as { message: string }).message, 'cannot add [m] to [kg]');
    assert.equal((e as { range: { line: number; column: number } }).range.line, 7);
    assert.equal((e as { range: { line: number; column: number } }).range.column, 12);
  });

  it('looks names up in the environment, with enum literals and comparisons', () => {
    const env = environment({ speed: q(100, 'km/h'), limit: q(25, 'm/s'), colour: enumLiteral('Colour', 'red'), 'Colour::red': enumLiteral('Colour', 'red') });
    assert.equal(show(evaluate(bin('>', name('speed'), name('limit')), env)), 'true');
    assert.equal(show(evaluate(bin('==', name('colour'), name('Colour', 'red')), env)), 'true');
    assert.equal(show(evaluate(name('nothing'), env)), "error: unknown name 'nothing'");
  });

  it('short-circuits and, or, implies and ??', () => {
    const boom = name('undefinedName');
    assert.equal(show(evaluate(bin('and', lit(false), boom), empty)), 'false');
    assert.equal(show(evaluate(bin('or', lit(true), boom), empty)), 'true');
    assert.equal(show(evaluate(bin('implies', lit(false), boom), empty)), 'true');
    assert.equal(show(evaluate(bin('??', lit(1), boom), empty)), '1');
    assert.equal(show(evaluate(bin('??', nul, lit(2)), empty)), '2');
    assert.equal(show(evaluate(bin('and', lit(true), boom), empty)), "error: unknown name 'undefinedName'");
    assert.equal(show(evaluate(not(bin('xor', lit(true), lit(true))), empty)), 'true');
  });

  it('evaluates conditionals and refuses a non-Boolean condition', () => {
    assert.equal(show(evaluate(cond(bin('<', lit(1), lit(2)), lit('yes'), lit('no')), empty)), '"yes"');
    assert.equal(show(evaluate(cond(lit(3), lit(1), lit(2)), empty)), 'error: the condition of if needs a Boolean, got Integer');
  });

  it('builds sequences, ranges and indexes them', () => {
    assert.equal(show(evaluate(seq(lit(1), seq(lit(2), lit(3))), empty)), '(1, 2, 3)');
    assert.equal(show(evaluate(call('sum', arg(bin('..', lit(1), lit(100)))), empty)), '5050');
    assert.equal(show(evaluate(idx(seq(lit(10), lit(20), lit(30)), lit(3)), empty)), '30');
    assert.equal(show(evaluate(call('size', arg(nul)), empty)), '0');
  });

  it('calls library functions, also through ->', () => {
    const masses = seq(qty(lit(1000), name('kg')), qty(lit(100), name('kg')), qty(lit(50), name('kg')));
    assert.equal(show(evaluate(call('NumericalFunctions::sum', arg(masses)), empty)), '1150 [kg]');
    assert.equal(show(evaluate(arrow(masses, 'size'), empty)), '3');
    assert.equal(show(evaluate(call('max', arg(lit(3)), arg(realLit(4.5))), empty)), '4.5');
    assert.equal(show(evaluate(call('sqrt', arg(qty(lit(16), bin('^', name('m'), lit(2))))), empty)), '4 [m]');
    assert.equal(show(evaluate(call('frobnicate', arg(lit(1))), empty)), "error: unknown calc or function 'frobnicate'");
  });

  it('applies bodies with select, collect, forAll and exists', () => {
    const xs = seq(lit(1), lit(2), lit(3), lit(4));
    const isEven = body('x', bin('==', bin('%', name('x'), lit(2)), lit(0)));
    assert.equal(show(evaluate({ kind: 'Select', target: xs, body: isEven, range: at(1, 1) }, empty)), '(2, 4)');
    assert.equal(show(evaluate({ kind: 'Collect', target: xs, body: body('x', bin('*', name('x'), name('x'))), range: at(1, 1) }, empty)), '(1, 4, 9, 16)');
    assert.equal(show(evaluate(arrow(xs, 'forAll', arg(body('x', bin('>', name('x'), lit(0))))), empty)), 'true');
    assert.equal(show(evaluate(arrow(xs, 'exists', arg(body('x', bin('>', name('x'), lit(3))))), empty)), 'true');
    assert.equal(show(evaluate(arrow(xs, 'reject', arg(isEven)), empty)), '(1, 3)');
    // A body local: { in x; attribute y = x * 10; y }
    assert.equal(show(evaluate(arrow(xs, 'collect', arg(body('x', name('y'), local('y', bin('*', name('x'), lit(10)))))), empty)), '(10, 20, 30, 40)');
    assert.equal(show(evaluate(arrow(xs, 'reduce', arg(name('+'))), empty)), '10');
  });

  it('reads features of instances along a chain, flattening over sequences', () => {
    const part = (label: string, mass: Value): Instance => ({ kind: 'instance', label, identity: label, member: (n) => (n === 'mass' ? mass : undefined) });
    const env = environment({ parts: { kind: 'sequence', items: [part('engine', q(100, 'kg')), part('gearbox', q(50, 'kg'))] }, engine: part('engine', q(100, 'kg')) });
    assert.equal(show(evaluate(member(name('engine'), 'mass'), env)), '100 [kg]');
    assert.equal(show(evaluate(call('sum', arg(member(name('parts'), 'mass'))), env)), '150 [kg]');
    assert.equal(show(evaluate(member(name('engine'), 'colour'), env)), "error: engine has no feature 'colour'");
    assert.equal(show(evaluate(member(lit(1), 'x'), env)), "error: cannot read feature 'x' of Integer");
  });

  it('invokes calcs with positional and named arguments, defaults and locals', () => {
    // calc def Power { in whlpwr; in Cd; in Cf; in tm; in v; attribute drag = Cd * v; attribute friction = Cf * tm * v;
    //   return : PowerValue = whlpwr - drag - friction; }
    const power: Member[] = [
      param('whlpwr'), param('Cd'), param('Cf'), param('tm'), param('v'),
      local('drag', bin('*', name('Cd'), name('v'))),
      local('friction', bin('*', bin('*', name('Cf'), name('tm')), name('v'))),
      usage({ name: null, role: 'return', value: valued(bin('-', bin('-', name('whlpwr'), name('drag')), name('friction'))) }),
    ];
    // calc def Scale { in x; in factor default 2; x * factor }
    const scale: Member[] = [param('x'), usage({ name: 'factor', direction: 'in', value: { ...valued(lit(2)), isDefault: true } }), result(bin('*', name('x'), name('factor')))];
    // calc def Bound { in x; in factor = 2; x * factor }: `=` binds the parameter, an argument must agree.
    const boundScale: Member[] = [param('x'), param('factor', lit(2)), result(bin('*', name('x'), name('factor')))];
    const env = environment({}, { Power: power, Scale: scale, Bound: boundScale });
    const p = call('Power', arg(lit(100)), arg(realLit(0.5)), arg(realLit(0.25)), arg(lit(4)), arg(lit(10)));
    assert.equal(show(evaluate(p, env)), '85.0'); // 100 − 0.5·10 − 0.25·4·10
    assert.equal(show(evaluate(call('Scale', arg(lit(21))), env)), '42');
    assert.equal(show(evaluate(call('Scale', arg(lit(3), 'factor'), arg(lit(5), 'x')), env)), '15');
    assert.equal(show(evaluate(call('Bound', arg(lit(21))), env)), '42');
    assert.equal(show(evaluate(call('Bound', arg(lit(5)), arg(lit(2))), env)), '10');
    assert.match(show(evaluate(call('Bound', arg(lit(3), 'factor'), arg(lit(5), 'x')), env)), /^error: Bound: parameter 'factor' is bound with '=' to 2 .* but the call gives 3/);
    assert.equal(show(evaluate(call('Scale', arg(lit(1)), arg(lit(2)), arg(lit(3))), env)), 'error: Scale takes 2 arguments, got 3');
    assert.equal(show(evaluate(call('Scale', arg(lit(1), 'y')), env)), "error: Scale has no parameter 'y'");
    assert.equal(show(evaluate(call('Power', arg(lit(1))), env)), "error: Power: no value for parameter 'Cd'");
  });

  it('returns a structured value from a return usage with a body', () => {
    // calc def Update { in v0; return attribute s { :>> v = v0 * 2; :>> x = v + 1; } }
    const update: Member[] = [
      param('v0'),
      usage({ name: 's', role: 'return', body: [local('v', bin('*', name('v0'), lit(2))), local('x', bin('+', name('v'), lit(1)))] }),
    ];
    const env = environment({}, { Update: update });
    assert.equal(show(evaluate(member(call('Update', arg(lit(5))), 'x'), env)), '11');
  });

  it('detects a local that depends on itself and runaway recursion', () => {
    const loop: Member[] = [param('x'), local('a', bin('+', name('b'), lit(1))), local('b', bin('+', name('a'), lit(1))), result(name('a'))];
    const recurse: Member[] = [param('n'), result(call('Recurse', arg(name('n'))))];
    const env = environment({}, { Loop: loop, Recurse: recurse });
    assert.equal(show(evaluate(call('Loop', arg(lit(1))), env)), "error: 'a' depends on itself");
    const deep = evaluate(call('Recurse', arg(lit(1))), env, { maxDepth: 50 });
    assert.equal(deep.kind, 'error');
    assert.match(show(deep), /nested deeper than 50 levels/);
    assert.equal((deep as { code?: string }).code, undefined, 'a mistake in the model, not a budget stop');
  });

  it('classifies scalars and quantities against ScalarValues and ISQ types', () => {
    assert.equal(show(evaluate(istype(lit(3), 'ScalarValues', 'Integer'), empty)), 'true');
    assert.equal(show(evaluate(istype(realLit(3.5), 'Integer'), empty)), 'false');
    assert.equal(show(evaluate(istype(qty(lit(3), name('kg')), 'ISQ', 'MassValue'), empty)), 'true');
    assert.equal(show(evaluate(istype(qty(lit(3), name('kg')), 'ISQ', 'LengthValue'), empty)), 'false');
    assert.equal(show(evaluate(castAs(seq(lit(1), realLit(2.5), lit(3)), 'Integer'), empty)), '(1, 3)');
  });

  it('resolves random functions by the draws policy and reproducibly from a seed', () => {
    const draw = call('uniform', arg(qty(lit(10), name('kg'))), arg(qty(lit(20), name('kg'))));
    assert.equal(show(evaluate(draw, empty, { draws: { policy: 'max' } })), '20 [kg]');
    assert.equal(show(evaluate(call('normal', arg(lit(100)), arg(lit(5))), empty, { draws: { policy: 'min' } })), '85.0');
    const sample = (seed: number) => {
      const ev = new Evaluator({ draws: { random: new Random(seed) } });
      return [1, 2, 3].map(() => show(ev.evaluate(draw, empty)));
    };
    assert.deepEqual(sample(99), sample(99));
    assert.notDeepEqual(sample(99), sample(100));
  });

  it('keeps Integer literals and arithmetic exact past 2^64', () => {
    const env: Environment = { lookup: () => undefined, sourceText: () => '36893488147419103232' };
    const big = { kind: 'Literal', literal: 'integer', value: 36893488147419103232, range: at(1, 1) } as const;
    assert.equal(show(evaluate(bin('+', big, lit(1)), env)), '36893488147419103233');
    assert.equal(show(evaluate(bin('*', bin('**', lit(2), lit(64)), lit(3)), empty)), (3n * 2n ** 64n).toString());
  });

  it('stops with a budget error when interrupted', () => {
    let polls = 0;
    const huge = call('sum', arg(arrow(bin('..', lit(1), lit(100000)), 'collect', arg(body('x', bin('+', name('x'), lit(1)))))));
    const r = evaluate(huge, empty, { interrupt: () => (++polls > 2 ? 'cancelled by the host' : undefined) });
    assert.equal(show(r), 'error: cancelled by the host');
    assert.equal((r as { code?: string }).code, 'budget');
  });

  it('reports unsupported constructs as unsupported', () => {
    const r = evaluate({ kind: 'Extent', type: { kind: 'QualifiedName', segments: ['Part'], segmentStarts: [0], isGlobal: false, range: at(2, 3) }, range: at(2, 3) }, empty);
    assert.equal((r as { code?: string }).code, 'unsupported');
    assert.equal(show(r), "error: 'all Part' (the extent of a type) is not supported");
  });

  it('evaluates unary minus on quantities and locals through LocalScope', () => {
    const scope = new LocalScope(empty).define('v', q(3, 'm/s'));
    assert.equal(show(evaluate(neg(name('v')), scope)), '-3 [m/s]');
    assert.equal(show(new LocalScope(empty).define('n', int(2)).lookup({ kind: 'QualifiedName', segments: ['n'], segmentStarts: [0], isGlobal: false, range: at(1, 1) })!), '2');
  });

  describe('constraints and requirements', () => {
    const ev = new Evaluator();
    // constraint def MassConstraint { in partMasses; in massLimit; sum(partMasses) <= massLimit }
    const massConstraint: Member[] = [param('partMasses'), param('massLimit'),
      result(bin('<=', call('sum', arg(name('partMasses'))), name('massLimit'), at(4, 3)))];
    const masses = (...kg: number[]) => ({ kind: 'sequence', items: kg.map((m) => q(m, 'kg')) }) as Value;

    it('checks a constraint body with arguments', () => {
      const ok = ev.checkConstraint('MassConstraint', massConstraint, [{ name: null, value: masses(1000, 800, 400) }, { name: null, value: q(2500, 'kg') }], empty);
      assert.deepEqual(ok, { value: true });
      const bad = ev.checkConstraint('MassConstraint', massConstraint, [{ name: 'partMasses', value: masses(2000, 800) }, { name: 'massLimit', value: q(2.5, 't') }], empty);
      assert.equal((bad as { value: boolean }).value, false);
      assert.equal((bad as { failing: { label: string } }).failing.label, 'MassConstraint at 4:3');
    });

    it('names the first false conjunct, by source text when available', () => {
      const text: Environment = { lookup: () => undefined, sourceText: (r) => (r.line === 2 ? 'x < 10' : undefined) };
      const body: Member[] = [param('x'), result(bin('and', bin('>', name('x'), lit(0), at(1, 1)), bin('<', name('x'), lit(10), at(2, 1))))];
      const v = ev.checkConstraint('Bounds', body, [{ name: null, value: int(12) }], text);
      assert.deepEqual((v as { failing: { label: string } }).failing.label, 'x < 10');
      assert.deepEqual(ev.checkConstraint('Bounds', body, [{ name: null, value: int(5) }], text), { value: true });
    });

    it('checks a requirement: require under assume, naming the failing requirement', () => {
      // requirement { subject vehicle; attribute massActual = vehicle.mass; attribute massReqd = 2000 [kg];
      //   assume constraint { vehicle.mass > 0 [kg] } require constraint withinLimit { massActual <= massReqd } }
      const vehicle = (kg: number): Instance => ({ kind: 'instance', label: 'vehicle', identity: kg, member: (n) => (n === 'mass' ? q(kg, 'kg') : undefined) });
      const req: Member[] = [
        usage({ name: 'vehicle', role: 'subject' }),
        local('massActual', member(name('vehicle'), 'mass')),
        local('massReqd', qty(lit(2000), name('kg'))),
        usage({ name: null, keyword: 'constraint', role: 'assume', body: [result(bin('>', member(name('vehicle'), 'mass'), qty(lit(0), name('kg'))))] }),
        usage({ name: 'withinLimit', keyword: 'constraint', role: 'require', body: [result(bin('<=', name('massActual'), name('massReqd')))] }),
      ];
      assert.deepEqual(ev.checkRequirement('fullVehicleMassLimit', req, [{ name: null, value: vehicle(1800) }], empty), { value: true });
      const over = ev.checkRequirement('fullVehicleMassLimit', req, [{ name: null, value: vehicle(2100) }], empty);
      assert.equal((over as { value: boolean }).value, false);
      assert.equal((over as { failing: { label: string } }).failing.label, 'withinLimit');
      const vacuous = ev.checkRequirement('fullVehicleMassLimit', req, [{ name: null, value: vehicle(0) }], empty);
      assert.equal((vacuous as { value: boolean }).value, true);
      assert.ok((vacuous as { vacuous?: unknown }).vacuous);
    });

    it('reports a constraint that is not Boolean', () => {
      const body: Member[] = [result(lit(3))];
      const e = ev.checkConstraint('Odd', body, [], empty);
      assert.equal(show(e as Outcome), 'error: Odd must be true or false, got Integer');
    });
  });
});
