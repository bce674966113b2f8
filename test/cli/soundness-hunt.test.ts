// Soundness hunt (areas not hunted before: names and keywords, redefinition and multiplicity, collections,
// requirements, expressions): questions on which assay answered wrongly at `proved`, asked through the CLI
// of the bundled engine. Each answer is now the correct one, or a refusal naming the construct and its
// place. The models are small ones written here, each reducing a pattern real models use.
import { strict as assert } from 'node:assert';
import { buildIfMissing } from './built';
import { askJson, modelFolder } from './ask-json';

const ask = askJson;

/** Asks `question` of `model`: answered at proved, the value `name` being `want`. */
function proves(model: string, question: readonly string[], name: string, want: string): void {
  const { code, answer } = ask(...question, '--model', model);
  assert.equal(code, 0, JSON.stringify(answer));
  assert.equal(answer.standing?.strength, 'proved');
  const v = answer.result?.values?.find((x) => x.name === name);
  assert.ok(v, `no value ${name} in ${JSON.stringify(answer)}`);
  assert.equal(v.unit ? `${String(v.value)} [${v.unit}]` : String(v.value), want, question.join(' '));
}

/** Asks `question` of `model`: refused (exit 3), the message naming the place and what. */
function refuses(model: string, question: readonly string[], placeAt: RegExp, what: RegExp): void {
  const { code, answer } = ask(...question, '--model', model);
  assert.equal(code, 3, JSON.stringify(answer));
  assert.match(answer.error?.message ?? '', placeAt);
  assert.match(answer.error?.message ?? '', what);
}

describe('cli: soundness hunt — names, redefinition, collections, requirements, expressions', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));
  const { model } = modelFolder('assay-hunt-');

  it('a user keyword (`#heavy part x : Thing;`, semantic metadata with a baseType) makes x specialize its base: its redefined values are read', () => {
    const m = model('keyword.sysml', `package K {
  import ScalarValues::*;
  import Metaobjects::SemanticMetadata;
  part def Thing { attribute mass : Real = 1.0; }
  part heavyThing : Thing { attribute :>> mass = 1000.0; }
  metadata def heavy :> SemanticMetadata { :>> baseType = heavyThing meta SysML::PartUsage; }
  #heavy part x : Thing;
  part def Box { attribute mass : Real = 2.0; }
  #heavy part y : Box;
}
`);
    // Once: x.mass = 1.0 at proved (the keyword's subsetting of heavyThing was not read), y.mass = 2.0.
    proves(m, ['evaluate', 'K::x::mass'], 'mass', '1000');
    refuses(m, ['evaluate', 'K::y::mass'], /keyword\.sysml:5:29/, /y inherits two different features named 'mass', Box::mass .* and heavyThing::mass/);
  });
  it('a redefinition keeps the multiplicity of the feature it redefines: a value count or a multiplicity outside it is a model error', () => {
    const m = model('redefined-multiplicity.sysml', `package RM {
  import ScalarValues::*;
  part def Wheel { attribute mass = 10.0; }
  part def Vehicle { part wheels : Wheel[4]; attribute n = size(wheels); attribute load = sum(wheels.mass); }
  part bike : Vehicle { part :>> wheels[2]; }
  part def Car { part wheels : Wheel[2..4]; attribute n = size(wheels); }
  part car : Car { part :>> wheels[4]; }
  part def H { attribute m : Real[1]; attribute k = size(m); }
  part h : H { attribute :>> m[2] = (1.0, 2.0); }
}
`);
    // Once: bike.n = 2 and bike.load = 20 and h.k = 2, at proved (KerML 7.3.4.6: a redefinition and the
    // feature it redefines have the same values, so wheels holds 4 values and 2).
    refuses(m, ['evaluate', 'RM::bike::n'], /redefined-multiplicity\.sysml:5:40/, /'bike\.wheels' is declared \[2\] but redefines RM::Vehicle::wheels, declared \[4\]/);
    refuses(m, ['evaluate', 'RM::bike::load'], /redefined-multiplicity\.sysml:5:40/, /declared \[2\] but redefines/);
    refuses(m, ['evaluate', 'RM::h::k'], /redefined-multiplicity\.sysml:9:/, /'h\.m' holds 2 values, outside the multiplicity \[1\] of RM::H::m/);
    // A redefinition that narrows the multiplicity is read as before.
    proves(m, ['evaluate', 'RM::car::n'], 'n', '4');
  });
  it("a subject named through an alias (`truck::m`, `alias m for mass;` in Vehicle) is the instance's feature: truck's redefinition", () => {
    const m = model('alias.sysml', `package AL {
  import ScalarValues::*;
  part def Vehicle { attribute mass : Real = 1000.0; alias m for mass; }
  part truck : Vehicle { attribute :>> mass = 5000.0; }
}
`);
    // Once: 1000 at proved (Vehicle's own mass, which truck redefines).
    proves(m, ['evaluate', 'AL::truck::m'], 'mass', '5000');
    proves(m, ['evaluate', 'AL::truck::mass'], 'mass', '5000');
  });
  it('`==` of a quantity and a plain number other than zero is an error, as ordering makes it (it was false at proved)', () => {
    const m = model('quantity-number.sysml', `package QN {
  import ISQ::*;
  import SI::*;
  attribute x : LengthValue = 2 [m];
  attribute same = x == 2.0;
  attribute differ = x != 2;
  attribute zero = x == 0;
  attribute ratio = x / 1 [m] == 2;
}
`);
    // Once: same = false and differ = true at proved (the solver refused the same condition).
    refuses(m, ['evaluate', 'QN::same'], /quantity-number\.sysml:5:20/, /cannot compare \[m\] with Real: give the number a unit/);
    refuses(m, ['evaluate', 'QN::differ'], /quantity-number\.sysml:6:22/, /cannot compare \[m\] with Integer/);
    // Zero is zero in any unit without a shifted scale; a dimensionless ratio is a number.
    proves(m, ['evaluate', 'QN::zero'], 'zero', 'false');
    proves(m, ['evaluate', 'QN::ratio'], 'ratio', 'true');
  });
  it('a subject path through a feature holding several values (`s::a::dx` with `a : A[2]` and `a1 :> a`) is refused: it names none of them', () => {
    const m = model('several.sysml', `package SV {
  import ScalarValues::*;
  part def A { attribute x : Real = 1.0; attribute dx = x * 10; }
  part s { part a : A[2]; part a1 :> a { attribute :>> x = 3.0; } attribute total = sum(a.dx); }
  part u { part a : A; attribute k = a.dx; }
}
`);
    // Once: s::a::dx = 10 at proved, though a1, one of a's two values, has dx = 30.
    refuses(m, ['evaluate', 'SV::s::a::dx'], /several\.sysml:4:17/, /the subject SV::s::a::dx is read through 'a', which holds several values/);
    // What reads all of them, and a path through a feature of one value, are answered.
    proves(m, ['evaluate', 'SV::s::total'], 'total', '40');
    proves(m, ['evaluate', 'SV::u::a::dx'], 'dx', '10');
  });
  it("a subsetting feature's value must be among the subsetted feature's own value also when it is read alone", () => {
    const m = model('subset-value.sysml', `package SU {
  import ScalarValues::*;
  part q {
    attribute total : Real = 10.0;
    attribute share :> total = 4.0;
    attribute r = share * 2;
  }
  part w {
    attribute levels : Real[3] = (1.0, 2.0, 3.0);
    attribute chosen :> levels = 2.0;
    attribute r = chosen * 2;
  }
}
`);
    // Once: q::r = 8.0 at proved (reading q::total was refused: 4.0 is not among 10.0).
    refuses(m, ['evaluate', 'SU::q::r'], /subset-value\.sysml:5:15/, /'q\.share' subsets 'total' but its value 4\.0 is not among 10\.0/);
    proves(m, ['evaluate', 'SU::w::r'], 'r', '4');
  });
  it("a feature subsetting one that a subtype's usage redefines is refused where read (its instance lacked the redefinition: eng.power read 1.0, not 7.0)", () => {
    const m = model('subset-redefined.sysml', `package SR {
  import ScalarValues::*;
  part def Engine { attribute power : Real = 1.0; }
  part def Sys { part eng : Engine; ref part e : Engine :> eng; attribute p = e.power; attribute q = eng.power; }
  part s : Sys { part :>> eng { attribute :>> power = 7.0; } }
  part t { part eng : Engine { attribute :>> power = 7.0; } ref part e :> eng; attribute q = eng.power; }
}
`);
    // Once: s::q = 1.0 and s::p = 1.0 at proved, though s redefines eng's power as 7.0.
    refuses(m, ['evaluate', 'SR::s::q'], /subset-redefined\.sysml:4:46/, /'e' subsets SR::Sys::eng, which s redefines at .*subset-redefined\.sysml:5:/);
    refuses(m, ['evaluate', 'SR::s::p'], /subset-redefined\.sysml:4:46/, /'e' subsets SR::Sys::eng/);
    // A subsetter declared beside the feature it subsets takes its features, as before.
    proves(m, ['evaluate', 'SR::t::q'], 'q', '7');
  });
  it("a redefinition of a model feature named like an ISQ quantity has that feature's type (`:>> length` of a `length : TimeValue`), not ISQ's", () => {
    const m = model('kind-name.sysml', `package KN {
  import ScalarValues::*;
  import ISQ::*;
  import SI::*;
  part def Vehicle { attribute length : TimeValue = 2 [s]; attribute mass : MassValue = 1 [kg]; }
  part wrong : Vehicle { attribute :>> length = 3 [m]; }
  part right : Vehicle { attribute :>> length = 3 [s]; }
  part heavy : Vehicle { attribute :>> mass = 2 [t]; }
}
`);
    // Once: wrong::length = 3 m at proved, and right::length refused as "declared length".
    refuses(m, ['evaluate', 'KN::wrong::length'], /kind-name\.sysml:6:26/, /'wrong\.length' is declared TimeValue .* but its value 3 \[m\] is another quantity/);
    proves(m, ['evaluate', 'KN::right::length'], 'length', '3 [s]');
    proves(m, ['evaluate', 'KN::right::length', '--bind', 'length=4[s]'], 'length', '4 [s]');
    proves(m, ['evaluate', 'KN::heavy::mass'], 'mass', '2 [t]');
  });
  it('an abstract part has no instances of its own: its values are the parts that subset it, and a shortfall is a model error', () => {
    const m = model('abstract.sysml', `package AB {
  import ScalarValues::*;
  part def Wheel { attribute mass : Real = 10.0; }
  part car {
    abstract part wheels : Wheel[4];
    part fl :> wheels { attribute :>> mass = 1.0; }
    part fr :> wheels { attribute :>> mass = 1.0; }
    attribute n = size(wheels);
  }
  part bare { abstract part wheels : Wheel[2]; attribute m = sum(wheels.mass); }
  part some { abstract part wheels : Wheel[0..*]; part fl :> wheels; attribute n = size(wheels); }
  part full { abstract part wheels : Wheel[2]; part a :> wheels; part b :> wheels; attribute m = sum(wheels.mass); }
}
`);
    // Once: car::n = 4 and bare::m = 20 at proved (two and two anonymous wheels of an abstract feature).
    refuses(m, ['evaluate', 'AB::car::n'], /abstract\.sysml:5:/, /'car\.wheels' holds 2 values, outside its multiplicity \[4\]/);
    refuses(m, ['evaluate', 'AB::bare::m'], /abstract\.sysml:10:/, /'bare\.wheels' is abstract and no feature subsets it here/);
    proves(m, ['evaluate', 'AB::some::n'], 'n', '1');
    proves(m, ['evaluate', 'AB::full::m'], 'm', '20');
  });
  it("a name found through an import whose filter reads a metadata feature's value is refused: whether the filter admits it is not decided", () => {
    const m = model('filter.sysml', `package FI {
  metadata def Safety { attribute level : ScalarValues::Integer; }
  package Parts {
    attribute p = 4 { @Safety { level = 2; } }
    attribute q = 7;
  }
  attribute p = 20;
  package High {
    import Parts::*[@Safety and Safety::level > 5];
    attribute r = p;
  }
  package Marked {
    import Parts::*[@Safety];
    attribute r = p;
    attribute s = q;
  }
}
`);
    // Once: High::r = 4 at proved (Parts::p, level 2, admitted by a filter asking for level > 5; FI::p is 20).
    refuses(m, ['evaluate', 'FI::High::r'], /filter\.sysml:10:/, /'p' is found through the filtered import at .*filter\.sysml:9:5, whose condition is not decided here/);
    // A filter on metadata alone is decided: Parts::p is imported, Parts::q is not.
    proves(m, ['evaluate', 'FI::Marked::r'], 'r', '4');
    refuses(m, ['evaluate', 'FI::Marked::s'], /filter\.sysml:15:/, /unknown name 'q'/);
  });
});
