// Breadth of semantics: constructs real models use, answered through the CLI of the bundled engine on
// small models written here. Each expected value is worked out by hand beside it.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface Answer {
  result?: { claim: string; values?: { name: string; value: unknown; unit?: string }[]; reason?: string };
  standing?: { strength: string };
  error?: { message: string; status: string; reasons?: { reason: string }[] };
}

describe('breadth of semantics (CLI)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    buildIfMissing('cli.js', 'engine.js');
    dir = mkdtempSync(join(tmpdir(), 'assay-breadth-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function ask(text: string, ...args: string[]): { code: number | null; answer: Answer } {
    const model = join(dir, `m${Math.random().toString(36).slice(2)}.sysml`);
    writeFileSync(model, text);
    const run = spawnSync(process.execPath, [CLI, ...args, '--model', model, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
    return { code: run.status, answer: JSON.parse(run.stdout.trim()) as Answer };
  }
  function values(a: { code: number | null; answer: Answer }): Record<string, string> {
    assert.equal(a.code, 0, JSON.stringify(a.answer));
    assert.equal(a.answer.standing?.strength, 'proved');
    return Object.fromEntries((a.answer.result?.values ?? []).map((v) => [v.name, v.unit ? `${String(v.value)} [${v.unit}]` : String(v.value)]));
  }
  function refusal(a: { code: number | null; answer: Answer }): string {
    assert.equal(a.code, 3, JSON.stringify(a.answer));
    return [a.answer.error?.message ?? '', ...(a.answer.error?.reasons ?? []).map((r) => r.reason)].join('; ');
  }

  describe('a redefinition keeps the subsetting of the feature it redefines', () => {
    // The mass roll-up pattern: `engine :> carParts` in car; c :> car redefines engine and transmission.
    const rollup = `package P {
      private import SI::kg;
      private import NumericalFunctions::*;
      part def Massed { attribute simpleMass :> ISQ::mass; attribute totalMass :> ISQ::mass; }
      part composite : Massed {
        part subs : Massed[*];
        attribute :>> totalMass = simpleMass + sum(subs.totalMass);
      }
      part simple : Massed { attribute :>> totalMass = simpleMass; }
      part car : Massed :> composite {
        part carParts : Massed[*] :>> subs;
        part engine :> simple, carParts;
        part transmission :> simple, carParts;
      }
      part c :> car {
        attribute :>> simpleMass = 1000[kg];
        part :>> engine { attribute :>> simpleMass = 100[kg]; }
        part redefines transmission { attribute :>> simpleMass = 50[kg]; }
      }
    }`;
    it('counts the redefined parts among the subsetted feature’s values', () => {
      // c.carParts is c's engine and transmission (each redefines a part that subsets carParts): 2 parts
      assert.equal(values(ask(rollup, 'evaluate', 'P::c::carParts')).count, '2');
      // and carParts redefines subs, so subs is the same two parts
      assert.equal(values(ask(rollup, 'evaluate', 'P::c::subs')).count, '2');
    });
    it('rolls the redefined parts’ values up: 1000 + 100 + 50 = 1150 kg', () => {
      assert.deepEqual(values(ask(rollup, 'evaluate', 'P::c::totalMass')), { totalMass: '1150 [kg]' });
    });
    it('reads each part once: a part redefined twice down a chain is one value', () => {
      const chain = rollup.replace(/\n    }$/, `
      part d :> c { part :>> engine { attribute :>> simpleMass = 7[kg]; } }
    }`);
      // d: 1000 + 7 (engine, redefined again) + 50 (c's transmission) = 1057 kg, with 2 carParts
      assert.deepEqual(values(ask(chain, 'evaluate', 'P::d::totalMass')), { totalMass: '1057 [kg]' });
      assert.equal(values(ask(chain, 'evaluate', 'P::d::carParts')).count, '2');
    });
  });

  describe('a constraint named by reference with its parameters bound in the body', () => {
    // `assert c { in x = …; }` (SysML AssertConstraintUsage referencing c): the constraint c with those
    // arguments, its parameters redefined by position (as `:> c { … }` does).
    const model = `package R {
      private import ScalarValues::*;
      constraint def Lim { in x : Integer; in y : Integer; x < y }
      constraint lim : Lim { in x : Integer = 3; in y : Integer = 10; }
      requirement within { require lim { in x = 5; } }
      requirement over { require lim { in x = 50; } }
      requirement both { require lim { in x = 5; in y = 4; } }
      part heavy { assert lim { in x = 50; } }
      part light { attribute v : Integer = 7; assert lim { in x = v; } }
      part negated { assert not lim { in x = 50; } }
      part misplaced { assert lim { in y = 2; } }
      part mixed { assert lim { in x = 5; x > 2 } }
    }`;
    it('evaluates a requirement that requires it: 5 < 10 holds, 50 < 10 and 5 < 4 do not', () => {
      assert.deepEqual(values(ask(model, 'evaluate', 'R::within')), { within: 'true' });
      assert.deepEqual(values(ask(model, 'evaluate', 'R::over')), { over: 'false' });
      assert.deepEqual(values(ask(model, 'evaluate', 'R::both')), { both: 'false' });
    });
    it('checks a part that asserts it, with its own features as arguments, and `assert not`', () => {
      assert.deepEqual(values(ask(model, 'evaluate', 'R::heavy')), { lim: 'false' });
      assert.deepEqual(values(ask(model, 'evaluate', 'R::light')), { lim: 'true' }); // 7 < 10
      assert.deepEqual(values(ask(model, 'evaluate', 'R::negated')), { 'not lim': 'true' }); // not (50 < 10)
    });
    it('solves with it: v < 10 from the asserted constraint, so v > 20 cannot hold', () => {
      const solver = `package S {
        constraint def Lim { in x : ScalarValues::Real; in y : ScalarValues::Real; x < y }
        constraint lim : Lim { in x : ScalarValues::Real = 3.0; in y : ScalarValues::Real = 10.0; }
        part p { attribute v : ScalarValues::Real; assert lim { in x = v; } }
      }`;
      const big = ask(solver, 'satisfiable', 'S::p', '--input', 'v:Real:0..100', '--condition', 'big=v > 20.0');
      assert.equal(big.code, 0, JSON.stringify(big.answer));
      assert.equal(big.answer.result?.claim, 'unsatisfiable');
      const small = ask(solver, 'satisfiable', 'S::p', '--input', 'v:Real:0..100', '--condition', 'small=v > 2.0');
      assert.equal(small.code, 0, JSON.stringify(small.answer));
      assert.equal(small.answer.result?.claim, 'satisfiable');
    });
    it('binds features redefined by name (`:>> mass = …`) as well: not (20 < 10) holds, not (10 < 20) does not', () => {
      const byName = `package M {
        private import ISQ::MassValue;
        private import SI::kg;
        part a { attribute mass : MassValue = 10 [kg]; }
        part b { attribute mass : MassValue = 20 [kg]; }
        constraint massLimitation { attribute mass : MassValue; attribute massLimit : MassValue; mass < massLimit }
        part heavier { assert not massLimitation { :>> mass = b.mass; :>> massLimit = a.mass; } }
        part lighter { assert not massLimitation { :>> mass = a.mass; :>> massLimit = b.mass; } }
      }`;
      assert.deepEqual(values(ask(byName, 'evaluate', 'M::heavier')), { 'not massLimitation': 'true' });
      assert.deepEqual(values(ask(byName, 'evaluate', 'M::lighter')), { 'not massLimitation': 'false' });
    });
    it('refuses a parameter out of its place and an expression of its own beside the reference', () => {
      assert.match(refusal(ask(model, 'evaluate', 'R::misplaced')), /parameter 'y' .* 1st, and lim's 1st is 'x'/);
      assert.match(refusal(ask(model, 'evaluate', 'R::mixed')), /names a constraint and states an expression of its own/);
    });
  });

  describe('an unnamed constraint of a requirement that specializes a constraint and binds its parameters', () => {
    // `require constraint : Lim { in x = … }`: the member itself, read with its bindings (no name reaches it).
    const model = `package N {
      private import ScalarValues::*;
      constraint def Lim { in x : Integer; x < 10 }
      constraint lim : Lim;
      requirement over { require constraint : Lim { in x = 50; } }
      requirement within { require constraint : Lim { in x = 5; } }
      requirement assumed { assume constraint : Lim { in x = 50; } require constraint { false } }
      requirement subsetting { require constraint :> lim { in x = 50; } }
      requirement def RD { attribute v : Integer; require constraint : Lim { in x = v; } }
      requirement far : RD { attribute :>> v = 30; }
      requirement near : RD { attribute :>> v = 1; }
      requirement unbound { require constraint : Lim; }
    }`;
    it('is true or false by its own arguments: 5 < 10 holds, 50 < 10 does not', () => {
      assert.deepEqual(values(ask(model, 'evaluate', 'N::within')), { within: 'true' });
      const over = ask(model, 'evaluate', 'N::over');
      assert.deepEqual(values(over), { over: 'false' });
      assert.match(over.answer.result?.reason ?? '', /require at 5:\d+ is false/);
      assert.deepEqual(values(ask(model, 'evaluate', 'N::subsetting')), { subsetting: 'false' });
    });
    it('as an assumption: a false one makes the requirement hold vacuously', () => {
      const a = ask(model, 'evaluate', 'N::assumed');
      assert.deepEqual(values(a), { assumed: 'true' });
      assert.match(a.answer.result?.reason ?? '', /holds only because its assumption/);
    });
    it('reads its arguments on the requirement usage that inherits it: v = 30 fails, v = 1 holds', () => {
      assert.deepEqual(values(ask(model, 'evaluate', 'N::far')), { far: 'false' });
      assert.deepEqual(values(ask(model, 'evaluate', 'N::near')), { near: 'true' });
    });
    it('refuses one whose parameter nothing binds', () => {
      assert.match(refusal(ask(model, 'evaluate', 'N::unbound')), /no value for parameter 'x'/);
    });
  });
});
