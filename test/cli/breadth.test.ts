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

});
