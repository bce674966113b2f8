import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../../../src/sysml';
import { resolveDocuments, subjectKindOf, Workspace, type NamedDocument } from '../../../src/sysml/names';

const doc = (uri: string, text: string): NamedDocument => ({ uri, document: parse(text).document });

/** Unresolved references of a one-document model, as `line:col name`. */
function unresolved(text: string, library?: NamedDocument[]): string[] {
  const { diagnostics } = resolveDocuments([doc('m.sysml', text)], library ? { library } : {});
  return diagnostics.get('m.sysml')!.map((d) => `${d.range.line}:${d.range.column} ${d.message}`);
}

/** Qualified names a reference written at `marker` (first occurrence of the text) resolves to. */
function targetOf(text: string, marker: string, occurrence = 1): string[] {
  const { index } = resolveDocuments([doc('m.sysml', text)]);
  let at = -1;
  for (let i = 0; i < occurrence; i++) at = text.indexOf(marker, at + 1);
  assert.ok(at >= 0, `marker ${marker} not in text`);
  return index.lookupAt('m.sysml', at).map((d) => d.qualifiedName);
}

describe('sysml names: resolution rules', () => {
  it('reports a name the parser found missing as the syntax error only, not also as an unresolved name', () => {
    const text = 'part def A;\npart def B :> ~A;\npart c : ;';
    assert.deepEqual(parse(text).errors.length, 2);
    assert.deepEqual(unresolved(text), []);
  });

  it('reports an unresolved name with its message and range, and never throws', () => {
    const text = 'package P {\n  part def A;\n  part a : Missing;\n}';
    const { diagnostics } = resolveDocuments([doc('m.sysml', text)]);
    const [d, ...rest] = diagnostics.get('m.sysml')!;
    assert.equal(rest.length, 0);
    assert.equal(d!.message, "unresolved reference 'Missing'");
    assert.deepEqual([d!.range.line, d!.range.column, text.slice(d!.range.start, d!.range.end)], [3, 12, 'Missing']);
  });

  it('resolves owned members and qualified names, quoted names included', () => {
    const text = "package P { package Q { part def 'big engine'; } part e : Q::'big engine'; }";
    assert.deepEqual(unresolved(text), []);
    assert.deepEqual(targetOf(text, "Q::'big"), ["P::Q::'big engine'"]);
  });

  it('namespace import brings in members; membership import only the one named', () => {
    const text = 'package Lib { part def A; part def B; } package M { import Lib::*; part a : A; part b : B; }';
    assert.deepEqual(unresolved(text), []);
    const only = 'package Lib { part def A; part def B; } package M { import Lib::A; part a : A; part b : B; }';
    assert.deepEqual(unresolved(only).map((s) => s.split(' ').slice(1).join(' ')), ["unresolved reference 'B'"]);
  });

  it('recursive import reaches nested members; a plain namespace import does not', () => {
    const text = 'package Lib { package Inner { part def Deep; } } package M { import Lib::**; part d : Deep; }';
    assert.deepEqual(unresolved(text), []);
    const flat = 'package Lib { package Inner { part def Deep; } } package M { import Lib::*; part d : Deep; }';
    assert.equal(unresolved(flat).length, 1);
  });

  it('alias stands for its target, also through an import', () => {
    const text = 'package Lib { part def Engine; alias Motor for Engine; } package M { import Lib::Motor; part m : Motor; }';
    assert.deepEqual(unresolved(text), []);
    assert.deepEqual(targetOf(text, 'Motor;', 2), ['Lib::Engine']);
  });

  it('a private import is not re-exported; a public one is', () => {
    const base = 'package Lib { part def A; } package Mid { IMPORT Lib::*; } package M { import Mid::*; part a : A; }';
    assert.deepEqual(unresolved(base.replace('IMPORT', 'public import')), []);
    assert.equal(unresolved(base.replace('IMPORT', 'private import')).length, 1);
  });

  it('private members are visible inside their namespace but not through a qualified name outside', () => {
    const text = 'package P { private part def Hidden; part h : Hidden; } package M { part x : P::Hidden; }';
    assert.deepEqual(unresolved(text).map((s) => s.split(' ')[0]), ['1:78']);
  });

  it('import filters keep only elements carrying the metadata', () => {
    const text = `package P {
      metadata def Safety;
      package Parts { part def Airbag { @Safety; } part def Radio; }
      package Safe { import Parts::*[@Safety]; }
      part a : Safe::Airbag;
      part r : Safe::Radio;
    }`;
    assert.deepEqual(unresolved(text).map((s) => s.split(' ').slice(1).join(' ')), ["unresolved reference 'Safe::Radio'"]);
  });

  it('import filters on a SysML metaclass keep the elements whose metaclass specializes it', () => {
    const text = `package P {
      package Parts { part def Frame; part frame : Frame; item bolt; attribute mass; calc def Area; }
      package ByPart { public import Parts::*[@SysML::PartUsage]; }
      package ByItem { public import Parts::*[@SysML::ItemUsage]; }
      package ByCalc { public import Parts::*[@SysML::CalculationDefinition]; }
      part a :> ByPart::frame;
      part b :> ByPart::bolt;
      part c :> ByItem::frame;
      item d :> ByItem::bolt;
      attribute e :> ByItem::mass;
      calc f : ByCalc::Area;
    }`;
    // A part usage is a PartUsage and so an ItemUsage; an item usage is no PartUsage; an attribute neither.
    assert.deepEqual(unresolved(text).map((s) => s.split(' ').slice(1).join(' ')), ["unresolved reference 'ByPart::bolt'", "unresolved reference 'ByItem::mass'"]);
  });

  it('members are inherited through specialization and typing', () => {
    const text = `package P {
      part def Vehicle { attribute mass; part engine : Engine; }
      part def Engine { attribute power; }
      part def Car :> Vehicle;
      part car : Car { attribute m = mass; attribute p = engine.power; }
    }`;
    assert.deepEqual(unresolved(text), []);
    assert.deepEqual(targetOf(text, 'mass;', 2), ['P::Vehicle::mass']);
  });

  it('a redefinition finds the inherited feature, not itself', () => {
    const text = 'package P { part def V { attribute mass; } part v : V { attribute :>> mass = 5; attribute mass2 :>> mass; } }';
    assert.deepEqual(unresolved(text), []);
    assert.deepEqual(targetOf(text, 'mass = 5'), ['P::V::mass']);
    // Inside v, its own (redefining) mass now shadows the inherited one.
    assert.deepEqual(targetOf(text, 'mass;', 2), ['P::v::mass']);
  });

  it('an unnamed redefinition is known by the redefined name in chains', () => {
    const text = `package P {
      part def Engine { attribute cylinders; }
      part def V { part engine : Engine; }
      part v : V { part :>> engine { attribute :>> cylinders = 6; } }
      attribute c = v.engine.cylinders;
    }`;
    assert.deepEqual(unresolved(text), []);
    assert.deepEqual(targetOf(text, 'engine.cylinders'), ['P::v::engine']);
  });

  it('feature chains look each link up in the type of the previous one', () => {
    const text = `package P {
      part def Wheel { attribute pressure; }
      part def Axle { part left : Wheel; }
      part def Car { part front : Axle; }
      part car : Car;
      attribute p = car.front.left.pressure;
      part w :> car.front.left;
      attribute bad = car.front.nothing;
    }`;
    assert.deepEqual(unresolved(text).map((s) => s.split(' ').slice(1).join(' ')), ["unresolved reference 'nothing'"]);
    assert.deepEqual(targetOf(text, 'left;'), ['P::Axle::left']);
    assert.deepEqual(targetOf(text, 'pressure;', 2), ['P::Wheel::pressure']);
  });

  it('members of an invocation result are looked up in the calculation result or the invoked type', () => {
    const text = `package P {
      attribute def Pair { attribute a; attribute b; }
      calc def MakePair { in x; return p : Pair; }
      calc def Other { in x; return : Pair; }
      attribute ok1 = MakePair(1).a;
      attribute ok2 = Other(1).b;
      attribute ok3 = Pair(1, 2).a;
      attribute bad = MakePair(1).c;
      attribute named = MakePair(x = 1);
      attribute badNamed = new Pair(a = 1, z = 2);
    }`;
    assert.deepEqual(unresolved(text).map((s) => s.split(' ').slice(1).join(' ')), ["unresolved reference 'c'", "unresolved reference 'z'"]);
    const z = unresolved(text)[1]!.split(' ')[0];
    assert.equal(z, `10:${text.split('\n')[9]!.indexOf('z = 2') + 1}`);
  });

  it('succession and transition ends resolve in the enclosing behaviour', () => {
    const text = `package P {
      action def Run { action a; action b; first a then b; }
      state def S { state off; state on; transition t first off then on; transition first on then nowhere; }
    }`;
    assert.deepEqual(unresolved(text).map((s) => s.split(' ').slice(1).join(' ')), ["unresolved reference 'nowhere'"]);
  });

  it('a top-level package of another document is visible; removing that document breaks the reference', () => {
    const ws = new Workspace();
    ws.update('a.sysml', parse('package A { part def Engine; }').document);
    ws.update('b.sysml', parse('package B { import A::*; part e : Engine; }').document);
    assert.deepEqual(ws.diagnostics('b.sysml'), []);
    ws.remove('a.sysml');
    assert.deepEqual(ws.diagnostics('b.sysml').map((d) => d.message), ["unresolved reference 'A'", "unresolved reference 'Engine'"]);
    ws.update('a.sysml', parse('package A { part def Engine; }').document);
    assert.deepEqual(ws.diagnostics('b.sysml'), []);
  });

  it('a user keyword declared by semantic metadata makes its usages specialize the base type', () => {
    const text = `package P {
      metadata def <kw> KeywordMeta :> Metaobjects::SemanticMetadata { :>> baseType = bases meta SysML::PartUsage; }
      part def Base { attribute z; }
      part bases : Base[*];
      #kw part x { attribute y = z; }
      part plain { attribute y = z; }
    }`;
    assert.deepEqual(unresolved(text).map((s) => s.split(' ')[0]), ['6:34']);
  });

  it('cyclic specializations and imports end with an answer', () => {
    const text = 'package P { import Q::*; part p1 :> p2; part p2 :> p3; part p3 :> p1; part p4 :> p4; attribute x = p1.zz; } package Q { import P::*; }';
    assert.deepEqual(unresolved(text).map((s) => s.split(' ').slice(1).join(' ')), ["unresolved reference 'zz'"]);
  });
});

describe('sysml names: declarationsOf', () => {
  const text = `package Demo {
    action def Drive;
    state def Modes;
    calc def Range;
    part def Car { action drive : Drive; }
    part car : Car;
    action twice; action twice;
  }`;
  const { index } = resolveDocuments([doc('m.sysml', text)]);

  it('gives the kind as a manifest spells it', () => {
    assert.deepEqual(index.declarationsOf('Demo::Drive').map((d) => [d.kind, d.isDefinition]), [['action', true]]);
    assert.deepEqual(index.declarationsOf('Demo::Modes').map((d) => d.kind), ['state']);
    assert.deepEqual(index.declarationsOf('Demo::Range').map((d) => d.kind), ['calc']);
    assert.deepEqual(index.declarationsOf('Demo::car').map((d) => [d.kind, d.isDefinition]), [['part', false]]);
  });

  it('gives the subject kind only for a subject declared exactly once', () => {
    assert.equal(subjectKindOf(index, 'Demo::Modes'), 'state');
    assert.equal(subjectKindOf(index, 'Demo::twice'), undefined);
    assert.equal(subjectKindOf(index, 'Demo::Nope'), undefined);
  });

  it('finds inherited features through the usage and counts duplicates', () => {
    assert.deepEqual(index.declarationsOf('Demo::car::drive').map((d) => d.qualifiedName), ['Demo::Car::drive']);
    assert.equal(index.declarationsOf('Demo::twice').length, 2);
    assert.deepEqual(index.declarationsOf('Demo::Nope'), []);
    assert.deepEqual(index.declarationsOf('not a name'), []);
  });
});

describe('sysml names: the project fixtures resolve as the engine reads them (#18 item 10)', () => {
  it("knows Assay's random functions by name, as the evaluator does, unless the model declares one", () => {
    assert.deepEqual(unresolved('package P { attribute a = uniform(10, 20); attribute b = normal(1, 2); attribute c = triangular(1, 2, 6); }'), []);
    // Only those: a misspelt one, or one under a qualified name, is still reported.
    assert.deepEqual(unresolved('package P { attribute a = uniforme(10, 20); attribute b = Q::normal(1, 2); }'), [
      "1:27 unresolved reference 'uniforme'",
      "1:59 unresolved reference 'Q::normal'",
    ]);
    const own = 'package P { calc def uniform { in a; in b; return r = a; } attribute x = uniform(1, 2); }';
    assert.deepEqual(targetOf(own, 'uniform(1'), ['P::uniform']);
  });

  it('a payload name names the accepted payload, not the accept action (SysML v2 AcceptNodeDeclaration)', () => {
    const payloadOnly = 'package P { attribute def Go; action def H { first start; then waitGo; accept waitGo : Go; } }';
    assert.deepEqual(unresolved(payloadOnly), ["1:64 unresolved reference 'waitGo'"]);
    const named = 'package P { attribute def Go; action def H { first start; then waitGo; action waitGo accept go : Go; } }';
    assert.deepEqual(unresolved(named), []);
    assert.deepEqual(targetOf(named, 'waitGo;'), ['P::H::waitGo']);
  });

  it('vehicle.sysml and deadlock.sysml have no unresolved references', () => {
    for (const f of ['engine/vehicle.sysml', 'behavior/deadlock.sysml']) {
      const text = readFileSync(join(__dirname, '../../fixtures/models', f), 'utf8');
      assert.deepEqual(unresolved(text), [], f);
    }
  });
});
