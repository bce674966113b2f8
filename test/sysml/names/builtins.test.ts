import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import { parse } from '../../../src/sysml';
import { BUILTIN_LIBRARY_VERSION, resolveDocuments } from '../../../src/sysml/names';
import * as path from 'path';
import { BuiltinTable, BUILTIN_TABLE } from '../../../src/sysml/names/builtin-layer';
import { CORPUS, libraryDocuments, load, sysmlFiles } from './corpus-files';
import { TABLE_MODULE, generateBuiltinTable, tableModule } from './generate-builtins';

const model = `package Drone {
  private import ISQ::*;
  private import SI::*;
  private import ScalarValues::*;
  part def Battery { attribute capacity : EnergyValue; attribute cells : Natural; }
  part def Drone {
    attribute mass : MassValue = 1.2 [kg];
    attribute speed : SpeedValue = 10 [m/s];
    attribute name : String;
    part battery : Battery;
    action fly { first start then done; }
  }
  attribute bad : NoSuchValue;
}`;

describe('sysml names: built-in library table', () => {
  it('is generated from the library of its version and is up to date', function () {
    this.timeout(60_000);
    assert.equal(BUILTIN_LIBRARY_VERSION, '2026-04');
    const expected = tableModule(generateBuiltinTable(libraryDocuments()));
    assert.ok(fs.readFileSync(TABLE_MODULE, 'utf8') === expected,
      'src/sysml/names/builtin-table.ts is stale: run npx tsx test/sysml/names/generate-builtins.ts');
  });

  it('resolves ISQ, SI, ScalarValues and inherited library features with no library documents', () => {
    const { diagnostics } = resolveDocuments([{ uri: 'drone.sysml', document: parse(model).document }]);
    assert.deepEqual(diagnostics.get('drone.sysml')!.map((d) => d.message), ["unresolved reference 'NoSuchValue'"]);
  });

  it('gives way to library documents when they are given', function () {
    this.timeout(60_000);
    const withLibrary = resolveDocuments([{ uri: 'drone.sysml', document: parse(model).document }], { library: libraryDocuments() });
    assert.deepEqual(withLibrary.diagnostics.get('drone.sysml')!.map((d) => d.message), ["unresolved reference 'NoSuchValue'"]);
    const mass = withLibrary.index.declarationsOf('ISQ::MassValue');
    assert.ok(mass.length > 0 && mass.every((d) => d.document !== null && d.document.endsWith('.sysml')));
    const builtin = resolveDocuments([]).index.declarationsOf('ISQ::MassValue');
    assert.ok(builtin.length > 0 && builtin.every((d) => d.document === null));
    assert.deepEqual(builtin.map((d) => d.kind), mass.map((d) => d.kind));
  });

  it('read lazily, resolves every reference of every corpus model as the table read whole does', function () {
    this.timeout(120_000);
    const models = ['examples', 'training', 'validation'].flatMap((d) => sysmlFiles(path.join(CORPUS, d))).map(load);
    // Each reference as its position and the qualified names (and kinds) of what it resolves to.
    const answers = (builtins: BuiltinTable): string[] => {
      const { index } = resolveDocuments(models, { builtins });
      return models.flatMap((m) => index.references(m.uri).map((r) =>
        `${m.uri}@${r.range.start}: ${r.targets.map((t) => `${t.kind} ${t.qualifiedName}`).join(' | ')}`));
    };
    const lazy = answers(new BuiltinTable(BUILTIN_TABLE));
    const whole = new BuiltinTable(BUILTIN_TABLE);
    whole.materializeAll();
    const eager = answers(whole);
    assert.ok(lazy.length > 5_000, `${lazy.length} references`);
    assert.ok(lazy.filter((a) => / (part|attribute|calc|action|state|package|item|port) \w/.test(a)).length > 1000);
    const differ = lazy.filter((a, i) => a !== eager[i]);
    assert.equal(lazy.length, eager.length);
    assert.deepEqual(differ.slice(0, 5), []);
  });
});

