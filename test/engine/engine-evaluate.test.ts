// `evaluate` through the real engine process, on a fixture written for it and on the corpus's
// calculation, constraint and requirement examples. Every expected value is worked out by hand in the
// comment beside it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelOf, modelText, question, ROOT, suiteEngine, valuesOf } from './engine-process';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'sysml-release-2026-04', 'training');
function corpus(...files: string[]) {
  return { sources: { library: '2026-04', documents: files.map((f) => ({ path: f.split('/').at(-1)!, text: readFileSync(join(CORPUS, f), 'utf8') })) } };
}
const kg = (name: string, value: number) => ({ name, value, unit: 'kg' });

describe('reference engine process: evaluate', function () {
  this.timeout(30000);
  const engine = suiteEngine();

  async function ask(subject: string, extra: Record<string, unknown> = {}, model: unknown = modelOf('vehicle.sysml')) {
    const r = await engine.run(question('evaluate', subject, extra), model);
    return r;
  }
  async function value(subject: string, extra: Record<string, unknown> = {}, model?: unknown) {
    const r = await ask(subject, extra, model);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.equal(r.result?.claim, 'value');
    return r.result!;
  }

  it('evaluates derived attributes through parts, redefinitions and units', async () => {
    // 1200 kg chassis + 180 kg engine + 400 kg trailer (its mass redefined) = 1780 kg
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::totalMass')), { totalMass: '1780 [kg]' });
    // smallCar redefines chassisMass = 800 kg: 800 + 180 + 400 = 1380 kg (the inherited totalMass read on smallCar)
    assert.deepEqual(valuesOf(await value('VehicleModel::smallCar::totalMass')), { totalMass: '1380 [kg]' });
    // 90 kW / 1780 kg = 0.050561797... kW/kg
    const p = (await value('VehicleModel::Vehicle::powerToWeight')).values as { value: number; unit: string }[];
    assert.equal(p[0]!.unit, 'kW/kg');
    assert.ok(Math.abs(p[0]!.value - 90 / 1780) < 1e-12);
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::heavy')), { heavy: true });
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::colour')), { colour: 'Colour::red' });
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::fastest')), { fastest: '30 [km/h]' });
  });

  it('reads a calc usage as a feature, and its named result through a feature chain', async () => {
    // Trip: energy = Kinetic(m = 1200 kg, v = 25 m/s) = 0.5 * 1200 * 625 = 375000 J; doubled = 2 * energy.e
    assert.deepEqual(valuesOf(await value('VehicleModel::Trip::energy')), { energy: '375000 [J]' });
    assert.deepEqual(valuesOf(await value('VehicleModel::Trip::doubled')), { doubled: '750000 [J]' });
    // speed bound to 10 m/s: 0.5 * 1200 * 100 = 60000 J
    assert.deepEqual(valuesOf(await value('VehicleModel::Trip::energy', { bindings: [{ name: 'speed', value: 10, unit: 'm/s' }] })), { energy: '60000 [J]' });
  });

  it('keeps Integers exact past 2^53', async () => {
    // 123456789012345678901234567890 * 2
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::bigNumber')), { bigNumber: '246913578024691357802469135780' });
  });

  it('invokes a calc and reports the result in the unit of its declared quantity kind', async () => {
    // 0.5 * 1000 kg * (72 km/h = 20 m/s)^2 = 200000 J
    assert.deepEqual(valuesOf(await value('VehicleModel::carEnergy')), { carEnergy: '200000 [J]' });
  });

  it('lets bindings override model values, and converts their units', async () => {
    // engine.mass bound to 200 kg: 1200 + 200 + 400 = 1800 kg
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::totalMass', { bindings: [kg('engine.mass', 200)] })), { totalMass: '1800 [kg]' });
  });

  it('keeps a unit as the model wrote it (km/h), converting only arithmetic leftovers', async () => {
    const r = await value('Design::Scooter::topSpeed', { bindings: [{ name: 'mode', value: 'normal' }] }, modelOf('design.sysml'));
    assert.deepEqual(valuesOf(r), { topSpeed: '25 [km/h]' });
  });

  it('reads enumeration literals and sequences in bindings', async () => {
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::colour', { bindings: [{ name: 'colour', value: 'Colour::green' }] })), { colour: 'Colour::green' });
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::colour', { bindings: [{ name: 'colour', value: 'blue' }] })), { colour: 'Colour::blue' });
    const wrong = await ask('VehicleModel::Vehicle::colour', { bindings: [{ name: 'colour', value: 'purple' }] });
    assert.deepEqual(wrong.error, { code: 'unsupported', message: 'binding colour: purple is not a literal of Colour' });
    // fastest = max(speeds) with speeds bound to (1, 5, 3)
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::fastest', { bindings: [{ name: 'speeds', value: '(1, 5, 3)' }] })), { fastest: 5 });
  });

  it('evaluates a constraint to true or false, naming the failing conjunct', async () => {
    // fuelMass 60 kg: loaded = 1780 + 60 = 1840 <= 1850 → true
    assert.deepEqual(valuesOf(await value('VehicleModel::Vehicle::massLimit', { bindings: [kg('fuelMass', 60)] })), { massLimit: true });
    // fuelMass 0.2 t = 200 kg: loaded = 1980 > 1850 → false on the third conjunct
    const r = await value('VehicleModel::Vehicle::massLimit', { bindings: [{ name: 'fuelMass', value: 0.2, unit: 't' }] });
    assert.deepEqual(valuesOf(r), { massLimit: false });
    assert.equal(r.reason, 'massLimit: loaded <= 1850 [kg] is false (vehicle.sysml:32:54)');
  });

  it('evaluates a requirement: assumptions, requirement, and a vacuous pass', async () => {
    // fuelMass 100 kg: loaded 1880 > limit 1850 → false
    const failed = await value('VehicleModel::lightVehicle', { bindings: [kg('vehicle.fuelMass', 100)] });
    assert.deepEqual(valuesOf(failed), { lightVehicle: false });
    assert.match(String(failed.reason), /vehicle\.loaded <= limit is false \(vehicle\.sysml:53:/);
    // fuelMass 10 kg: loaded 1790 <= 1850 → true
    assert.deepEqual(valuesOf(await value('VehicleModel::lightVehicle', { bindings: [kg('vehicle.fuelMass', 10)] })), { lightVehicle: true });
    // fuelMass -1 kg breaks the assumption: true, but only vacuously
    const vacuous = await value('VehicleModel::lightVehicle', { bindings: [kg('vehicle.fuelMass', -1)] });
    assert.deepEqual(valuesOf(vacuous), { lightVehicle: true });
    assert.deepEqual(vacuous.assumptions, ['vehicle.fuelMass >= 0 [kg] is false']);
  });

  it('resolves random functions by draws, or observes one seeded draw', async () => {
    assert.deepEqual(valuesOf(await value('VehicleModel::noisy', { draws: 'max' })), { noisy: 20 });
    assert.deepEqual(valuesOf(await value('VehicleModel::noisy', { draws: 'average' })), { noisy: 15 });
    const a = await value('VehicleModel::noisy', { modelSeed: 7 });
    const b = await value('VehicleModel::noisy', { modelSeed: 7 });
    assert.equal(a.strength, 'observed');
    assert.deepEqual(a.values, b.values);
    const x = (a.values as { value: number }[])[0]!.value;
    assert.ok(x >= 10 && x < 20);
  });

  it('reads a redefinition without a value as the feature it redefines, in evaluate and in the solver', async () => {
    const model = modelOf('redefinition.sysml');
    // grossMass :>> mass, Vehicle's mass = 1000.0: both names read 1000; the default payload passes on too.
    assert.deepEqual(valuesOf(await value('Redefinition::truck::grossMass', {}, model)), { grossMass: 1000 });
    assert.deepEqual(valuesOf(await value('Redefinition::truck::mass', {}, model)), { grossMass: 1000 });
    assert.deepEqual(valuesOf(await value('Redefinition::truck::payload', {}, model)), { payload: 250 });
    // ringCost, bandCost and deluxeCost are one feature: the 500.0 written as ringCost reads under all.
    assert.deepEqual(valuesOf(await value('Redefinition::viaBand', {}, model)), { viaBand: 500 });
    assert.deepEqual(valuesOf(await value('Redefinition::viaDeluxe', {}, model)), { viaDeluxe: 500 });
    // The solver may not choose grossMass: it is bound to 1000, so `heavy` cannot hold.
    const r = await engine.run(question('satisfiable', 'Redefinition::Truck'), model);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.deepEqual([r.result?.claim, r.result?.strength], ['unsatisfiable', 'proved']);
    // A feature subsetting a model feature is not free either: the solver refuses it, naming both.
    const subset = await engine.run(question('satisfiable', 'Redefinition::Cargo'), model);
    assert.equal(subset.error?.code, 'unsupported', JSON.stringify(subset));
    assert.match(String(subset.error?.message), /redefinition\.sysml:\d+:\d+: 'share' subsets 'total', a feature of the model/);
  });

  it('reads the outputs of a calc usage through the usage', async () => {
    const model = modelOf('calc-usages.sysml');
    // split: total 1200, ratio 0.25 → low 300, high 900, spread 600.
    assert.deepEqual(valuesOf(await value('CalcUsages::budget::low', {}, model)), { low: 300 });
    assert.deepEqual(valuesOf(await value('CalcUsages::budget::high', {}, model)), { high: 900 });
    assert.deepEqual(valuesOf(await value('CalcUsages::budget::spread', {}, model)), { spread: 600 });
  });

  it('answers unsupported with the place when the model cannot give a value', async () => {
    const missing = await ask('VehicleModel::Vehicle::loaded');
    assert.equal(missing.error?.code, 'unsupported');
    assert.equal(missing.error?.message, "vehicle.sysml:16:13: 'fuelMass' has no value: give it one in the model or bind it in the question");
    const dimension = await ask('VehicleModel::Vehicle::totalMass', { bindings: [{ name: 'engine.mass', value: 2, unit: 'm' }] });
    assert.equal(dimension.error?.message, 'binding engine.mass: [m] is not a MassValue (give it in a unit like [kg])');
    const text = await ask('VehicleModel::Vehicle::totalMass', { bindings: [{ name: 'engine.mass', value: 'heavy' }] });
    assert.equal(text.error?.message, 'binding engine.mass: "heavy" (text, not a number) is not a MassValue (give it in a unit like [kg])');
    const noSeed = await ask('VehicleModel::noisy');
    assert.match(String(noSeed.error?.message), /^vehicle\.sysml:47:20: uniform\(\) needs a draws policy or a seed/);
    const unknown = await ask('VehicleModel::Nope');
    assert.equal(unknown.error?.message, "the subject VehicleModel::Nope is not declared in the model: VehicleModel has no member 'Nope' (its members: Colour, Engine, Vehicle, smallCar, Kinetic, carEnergy, noisy, MassRequirement, and 2 more)");
  });

  it("reads a binding's unit with the model's own units, and a feature of the model's own quantity type as a quantity", async () => {
    const model = modelOf('model-units.sysml');
    // 1 mi / 4 in^3 = 1609.344 m / 6.5548e-5 m^3: 21 [mpj] is above 20 [mpj], 19 below.
    assert.deepEqual(valuesOf(await value('Economy::cityEconomy', { bindings: [{ name: 'actual', value: 21, unit: 'mpj' }] }, model)), { cityEconomy: true });
    assert.deepEqual(valuesOf(await value('Economy::cityEconomy', { bindings: [{ name: 'actual', value: 19, unit: 'mpj' }] }, model)), { cityEconomy: false });
    // A quotient of library and model units: 20 mi per 4 in^3 is 20 [mpj]; 19.9 mi is less.
    assert.deepEqual(valuesOf(await value('Economy::cityEconomy', { bindings: [{ name: 'actual', value: 20, unit: 'mi/jug' }] }, model)), { cityEconomy: true });
    assert.deepEqual(valuesOf(await value('Economy::cityEconomy', { bindings: [{ name: 'actual', value: 19.9, unit: 'mi/jug' }] }, model)), { cityEconomy: false });
    // Without a value the model's quantity type has none, rather than being a structure of num and mRef.
    const open = await ask('Economy::cityEconomy', {}, model);
    assert.equal(open.error?.message, "model-units.sysml:22:19: 'cityEconomy.actual' has no value: give it one in the model or bind it in the question");
    // A result declared Real whose value is a quantity with a dimension is a model error; a ratio is a number.
    const cube = await ask('Economy::Cube', { bindings: [{ name: 'side', value: 2, unit: 'm' }] }, model);
    assert.match(String(cube.error?.message), /^model-units\.sysml:39:44: the result of Cube is declared Real \(a number\) but its value 8 \[m\^3\] is a quantity in \[m\^3\]$/);
    assert.deepEqual(valuesOf(await value('Economy::Ratio', { bindings: [{ name: 'a', value: 6, unit: 'm' }, { name: 'b', value: 2, unit: 'm' }] }, model)), { Ratio: 3 });
    // A name that is no unit of the library or the model is still an unknown unit.
    const unknown = await ask('Economy::cityEconomy', { bindings: [{ name: 'actual', value: 20, unit: 'required' }] }, model);
    assert.equal(unknown.error?.message, "binding actual: unknown unit 'required'");
  });

  it("binds a feature of a quantity kind the model declares (:> rangePerVolume = length / volume) only in a unit of that kind", async () => {
    const model = modelOf('model-units.sysml');
    // 21 [mpj] against 20 [mpj], and 1 mi/l (1609.344 m / 0.001 m^3 = 1.609e6 m^-2) against 2e6 [1/m^2].
    const kind = (actual: { value: number; unit: string }, required: { value: number; unit: string }) =>
      value('Economy::KindRequirement', { bindings: [{ name: 'actual', ...actual }, { name: 'required', ...required }] }, model);
    assert.deepEqual(valuesOf(await kind({ value: 21, unit: 'mpj' }, { value: 20, unit: 'mpj' })), { KindRequirement: true });
    assert.deepEqual(valuesOf(await kind({ value: 1, unit: 'mi/l' }, { value: 2e6, unit: '1/m^2' })), { KindRequirement: false });
    // A mass is no range per volume: refused at the binding, where a comparison of two masses would have answered.
    const wrong = await ask('Economy::KindRequirement', { bindings: [{ name: 'actual', value: 1, unit: 'kg' }, { name: 'required', value: 2, unit: 'kg' }] }, model);
    assert.equal(wrong.error?.message, 'binding actual: [kg] is not a rangePerVolume (L^-2) (give it in a unit like [1/m^2])');
  });

  it('answers an analysis without a result of its own with the values of its analyses, their objectives and the subject they share', async () => {
    const model = modelOf('analysis-plan.sysml');
    const rover = (mass: number) => [{ name: 'rover.mass', value: mass, unit: 'kg' }, { name: 'rover.power', value: 120, unit: 'W' }];
    const light = await value('Plans::Plan', { bindings: rover(20) }, model);
    // 20 kg * 2 = 40 kg <= 50 kg: the objective is met; 120 W / 20 kg = 6 W/kg.
    assert.deepEqual(valuesOf(light), { massCheck: '40 [kg]', 'massCheck.objective': true, powerCheck: '6 [W/kg]' });
    assert.match(String(light.reason), /^Plan has no result of its own .*the values are those of its analyses massCheck, powerCheck$/);
    assert.equal((light.assumptions as string[]).length, 2);
    assert.match((light.assumptions as string[])[0]!, /^the subject rover of massCheck is Plan's subject rover/);
    const heavy = await value('Plans::Plan', { bindings: rover(30) }, model);
    assert.deepEqual(valuesOf(heavy), { massCheck: '60 [kg]', 'massCheck.objective': false, powerCheck: '4 [W/kg]' });
    assert.match(String(heavy.reason), /massCheck's objective is not met/);
    const stated = await ask('Plans::Stated', { bindings: rover(40) }, model);
    assert.match(String(stated.error?.message), /Stated has no result to evaluate/);
  });

  it('checks the constraints of a part under bindings (what confirms a satisfiable assignment), naming a false one', async () => {
    const tank = {
      sources: {
        library: '2026-04',
        documents: [{
          path: 'tank.sysml',
          text: [
            'package Sizing {',
            '    private import ISQ::*;',
            '    part def Tank {',
            '        attribute fuelMass : MassValue;',
            '        attribute capacity : MassValue = 50 [kg];',
            '        assert constraint fits { fuelMass <= capacity and fuelMass >= 10 [kg] }',
            '        assert constraint light { fuelMass < 45 [kg] }',
            '        constraint unchecked { fuelMass > 1000 [kg] }',
            '    }',
            '    part tank : Tank;',
            '}',
          ].join('\n'),
        }],
      },
    };
    // 20 kg: 20 <= 50 and 20 >= 10 → fits; 20 < 45 → light; the unasserted constraint is not checked.
    const ok = await value('Sizing::Tank', { bindings: [kg('fuelMass', 20)] }, tank);
    assert.deepEqual(valuesOf(ok), { fits: true, light: true });
    assert.equal(ok.reason, 'Tank: all 2 constraints hold');
    // 48 kg on the usage (constraints inherited from Tank): fits (48 <= 50), not light (48 >= 45).
    const heavy = await value('Sizing::tank', { bindings: [kg('fuelMass', 48)] }, tank);
    assert.deepEqual(valuesOf(heavy), { fits: true, light: false });
    assert.equal(heavy.reason, 'tank violates a constraint: light: fuelMass < 45 [kg] is false (tank.sysml:7:35)');
    // A part without constraints: the values of its attributes and its parts' attributes, and which have none.
    const plain = { sources: { library: '2026-04', documents: [{ path: 'e.sysml', text: 'package Sizing { part def Cap { attribute m = 2; } part def Empty { attribute a = 1; attribute b; attribute c = a + b; part cap : Cap; } }' }] } };
    const listed = await value('Sizing::Empty', {}, plain);
    assert.deepEqual(valuesOf(listed), { a: 1, 'cap.m': 2 });
    assert.equal(listed.reason, 'Empty: 2 values; no value in the model for b, c (bind them in the question)');
    // Binding the missing one completes the list.
    assert.deepEqual(valuesOf(await value('Sizing::Empty', { bindings: [{ name: 'b', value: 5 }] }, plain)), { a: 1, b: 5, c: 6, 'cap.m': 2 });
    // A part usage holding several parts, or none: how many (`count`), then each part's values under its
    // index; the parts that subset it come first, instances of its own declaration make up a `[n]`.
    const many = { sources: { library: '2026-04', documents: [{ path: 'm.sysml', text: [
      'package Sizing {',
      '  part def Cap { attribute m = 2; }',
      '  part def Box { part caps : Cap[*]; part pair : Cap[2]; part trio : Cap[3]; part both : Cap[0..*] = (lead, spare);',
      '    part lead : Cap :> trio { attribute :>> m = 7; } part spare : Cap { attribute :>> m = 5; }',
      '    part holder : Holder { part inner : Cap :> held { attribute :>> m = 9; } } }',
      '  part def Holder { part held : Cap[*]; }',
      '}',
    ].join('\n') }] } };
    const none = await value('Sizing::Box::caps', {}, many);
    assert.deepEqual(valuesOf(none), { count: 0 });
    assert.equal(none.reason, 'caps: 0 parts; 1 value');
    const two = await value('Sizing::Box::pair', {}, many);
    assert.deepEqual(valuesOf(two), { count: 2, '#(1).m': 2, '#(2).m': 2 });
    assert.equal(two.reason, 'pair: 2 parts (pair#1, pair#2); 3 values');
    // `lead` subsets trio: it is the first of three, two Caps of trio's own declaration follow.
    const three = await value('Sizing::Box::trio', {}, many);
    assert.deepEqual(valuesOf(three), { count: 3, '#(1).m': 7, '#(2).m': 2, '#(3).m': 2 });
    assert.equal(three.reason, 'trio: 3 parts (lead, trio#2, trio#3); 4 values');
    // Parts given as its value are listed as parts too, not as their names.
    assert.deepEqual(valuesOf(await value('Sizing::Box::both', {}, many)), { count: 2, '#(1).m': 7, '#(2).m': 5 });
    // A nested feature that one part subsets holds that part: its values are the subsetting part's.
    assert.deepEqual(valuesOf(await value('Sizing::Box::holder', {}, many)), { 'held.m': 9, 'inner.m': 9 });
    // An action is not a structure: not covered, with the reason.
    const covers = await engine.process.request(engine.nextId(), 'covers', { question: question('evaluate', 'Sizing::act'), model: {
      sources: { library: '2026-04', documents: [{ path: 'e.sysml', text: 'package Sizing { action act; }' }] },
    } });
    assert.equal(covers.result?.covers, false);
    assert.match(String(covers.result?.reason), /Sizing::act is an action usage/);
  });

  it('checks `satisfy spec by car` where spec is declared in the same part, and reads `require massLimit;` as the package-level requirement it names', async () => {
    const model = { sources: { library: '2026-04', documents: [{ path: 'r.sysml', text: [
      'package Req {',
      '  part def Vehicle { attribute mass : Real; }',
      '  part car : Vehicle { attribute :>> mass = 1500.0; }',
      '  part truck : Vehicle { attribute :>> mass = 2500.0; }',
      '  requirement carLimit { subject vehicle : Vehicle = car; require constraint { vehicle.mass <= 2000.0 } }',
      '  requirement truckLimit { subject vehicle : Vehicle = truck; require constraint { vehicle.mass <= 2000.0 } }',
      '  requirement open { subject vehicle : Vehicle; require constraint { vehicle.mass <= 2000.0 } }',
      '  requirement both { require carLimit; require truckLimit; }',
      '  requirement onlyCar { require carLimit; }',
      '  requirement grouped { subject v : Vehicle = car; require open; }',
      '  part carContext {',
      '    requirement spec { subject vehicle : Vehicle; require constraint { vehicle.mass <= 2000.0 } }',
      '    satisfy spec by car;',
      '  }',
      '  part truckContext {',
      '    requirement spec { subject vehicle : Vehicle; require constraint { vehicle.mass <= 2000.0 } }',
      '    satisfy spec by truck;',
      '  }',
      '}',
    ].join('\n') }] } };
    // The requirement is the context's own feature: read on the context checked (it was refused: which
    // instance it is read on was not modeled).
    const carContext = await value('Req::carContext', {}, model);
    assert.deepEqual(valuesOf(carContext), { 'satisfy spec by car': true });
    const truckContext = await value('Req::truckContext', {}, model);
    assert.deepEqual(valuesOf(truckContext), { 'satisfy spec by truck': false });
    // `require carLimit;` is named carLimit where it is written: the requirement it names is the
    // package's (it depended on itself). Two such members are two verdicts, not one remembered twice.
    assert.deepEqual(valuesOf(await value('Req::onlyCar', {}, model)), { onlyCar: true });
    const both = await value('Req::both', {}, model);
    assert.deepEqual(valuesOf(both), { both: false });
    assert.match(String(both.reason), /truckLimit is false/);
    // A grouped requirement whose subject the model does not bind has no verdict here (whether the
    // group's subject is its subject is not modeled).
    assert.match(String((await ask('Req::grouped', {}, model)).error?.message), /open: no value for parameter 'vehicle'/);
  });

  it('classifies a part by the types its declaration has (`vehicle istype VehiclePart`, `parts as VehiclePart`), and refuses what the declaration does not decide', async () => {
    const model = { sources: { library: '2026-04', documents: [{ path: 'c.sysml', text: [
      'package Cls {',
      '  part def VehiclePart { attribute m : Real = 1.0; }',
      '  part def Vehicle :> VehiclePart;',
      '  part def Other;',
      '  part vehicle : Vehicle;',
      '  part wheel :> vehicle;',
      '  part other : Other;',
      '  part both[*] = (vehicle, other);',
      '  attribute isPart = vehicle istype VehiclePart;',
      '  attribute atV = wheel @ Vehicle;',
      '  attribute kept = size(vehicle as VehiclePart);',
      '  attribute notVehicle = other istype Vehicle;',
      '  attribute mixed = (both as VehiclePart).m;',
      '  attribute has = vehicle hastype VehiclePart;',
      '}',
    ].join('\n') }] } };
    // A Vehicle is a VehiclePart (Vehicle specializes it), and a feature that subsets `vehicle` holds Vehicles.
    assert.deepEqual(valuesOf(await value('Cls::isPart', {}, model)), { isPart: true });
    assert.deepEqual(valuesOf(await value('Cls::atV', {}, model)), { atV: true });
    assert.deepEqual(valuesOf(await value('Cls::kept', {}, model)), { kept: 1 });
    // That `other` is no Vehicle its declaration does not say (an instance may have more types); `hastype`
    // (T itself, not a subtype) is not told apart.
    assert.match(String((await ask('Cls::notVehicle', {}, model)).error?.message), /cannot tell whether other is a 'Vehicle'/);
    assert.match(String((await ask('Cls::mixed', {}, model)).error?.message), /cannot tell whether other is a 'VehiclePart'/);
    assert.match(String((await ask('Cls::has', {}, model)).error?.message), /'hastype VehiclePart' of vehicle/);
  });

  it('reads the features of a part made by `new T(…)`: arguments in the order T declares its own features, or by name', async () => {
    const model = { sources: { library: '2026-04', documents: [{ path: 'n.sysml', text: [
      'package Make {',
      '  part def V { attribute m default = 10; attribute n = 20; }',
      '  part def W :> V { attribute :>> m default = n; }',
      '  part w = new W();',
      '  attribute wm = w.m;',
      '  part def Plate { attribute w : Real; attribute h : Real default = 2.0; private attribute k = 1; attribute area = w * h; }',
      '  attribute one = new Plate(3.0).area;',
      '  attribute two = new Plate(3.0, 4.0).area;',
      '  attribute named = new Plate(h = 5.0, w = 1.0).area;',
      '  calc def Square { in s : Real; return : Real = new Plate(s, s).area; }',
      '  attribute sq = Square(3.0);',
      '  attribute distinct = new Plate(1.0) == new Plate(1.0);',
      '  attribute def Pt { attribute x : Real; }',
      '  attribute data = new Pt(1.0) == new Pt(1.0);',
      '  attribute bound = new Plate(1.0, 2.0, 3.0).area;',
      '  part def Checked { attribute x : Real; assert constraint { x > 0 } }',
      '  attribute checked = new Checked(-1.0).x;',
      '  part def Holder { attribute q : Real; part c : Checked; }',
      '  attribute held = new Holder(1.0).q;',
      '  abstract part def Abs { attribute x : Real; }',
      '  attribute abs = new Abs(1.0).x;',
      '  attribute lib = new Unknown(1.0).x;',
      '  constraint def Big { in s : Real; new Plate(s).area > 4.0 }',
      '  part def Many { attribute xs : Real[*]; attribute x1 :> xs = 5.0; }',
      '  attribute many = new Many(xs = (1.0, 2.0)).x1;',
      '}',
    ].join('\n') }] } };
    // W's own `m` defaults to n (KerML: the arguments, none here, give the features; the rest are as T declares).
    assert.deepEqual(valuesOf(await value('Make::wm', {}, model)), { wm: 20 });
    assert.deepEqual(valuesOf(await value('Make::one', {}, model)), { one: 6 });
    assert.deepEqual(valuesOf(await value('Make::two', {}, model)), { two: 12 });
    assert.deepEqual(valuesOf(await value('Make::named', {}, model)), { named: 5 });
    assert.deepEqual(valuesOf(await value('Make::sq', {}, model)), { sq: 9 });
    assert.deepEqual(valuesOf(await value('Make::Big', { bindings: [{ name: 's', value: 3 }] }, model)), { Big: true });
    // Two parts made by two `new`s are two parts.
    assert.deepEqual(valuesOf(await value('Make::distinct', {}, model)), { distinct: false });
    // Refused: a data value (equal to any other with equal features, which equality here does not
    // compare), an argument for a feature T binds, a type with a constraint to check (in it or a part it
    // holds), an abstract type, a type the model does not declare, and the solver.
    assert.match(String((await ask('Make::data', {}, model)).error?.message), /constructing an instance of an attribute definition is not modeled/);
    assert.match(String((await ask('Make::bound', {}, model)).error?.message), /gives 'area', which Plate binds to a value/);
    assert.match(String((await ask('Make::checked', {}, model)).error?.message), /Checked holds the constraint at 16:42/);
    assert.match(String((await ask('Make::held', {}, model)).error?.message), /Holder holds the constraint at 16:42/);
    assert.match(String((await ask('Make::abs', {}, model)).error?.message), /Abs is abstract/);
    assert.match(String((await ask('Make::many', {}, model)).error?.message), /gives 'xs', which other features of Many subset/);
    assert.match(String((await ask('Make::lib', {}, model)).error?.message), /Unknown names no definition of the model/);
    const solved = await engine.run(question('satisfiable', 'Make::Big'), model);
    assert.match(String(solved.error?.message ?? JSON.stringify(solved.result)), /'new' is not supported by the solver/);
  });

  it('reads a part that subsets a feature and is bound to one of its values by index (`part left :> wheel = wheel#(1)`) as that value', async () => {
    const model = { sources: { library: '2026-04', documents: [{ path: 'w.sysml', text: [
      'package Axles {',
      '  part def Wheel { attribute mass : Real = 10.0; }',
      '  part def Axle {',
      '    part wheel : Wheel[2] ordered;',
      '    part left subsets wheel = wheel#(1);',
      '    part right subsets wheel = wheel#(2);',
      '    attribute total = sum(wheel.mass);',
      '    attribute distinct = left != right;',
      '    attribute isFirst = left == wheel#(1);',
      '    assert constraint { total == 20.0 }',
      '  }',
      '  part axle : Axle;',
      '  part beyond { part wheel : Wheel[2]; part third :> wheel = wheel#(3); }',
      '  part open { part wheel : Wheel[2..4]; part left :> wheel = wheel#(1); attribute n = size(wheel); }',
      '  part mixed { part wheel : Wheel[2]; part spare : Wheel :> wheel; part left :> wheel = wheel#(1); attribute n = size(wheel); }',
      '  part bodied { part wheel : Wheel[2]; part left :> wheel = wheel#(1) { attribute :>> mass = 3.0; } attribute n = size(wheel); attribute total = sum(wheel.mass); }',
      '  part valued { attribute ys : Real[2] = (1.0, 2.0); attribute y2 :> ys = ys#(2); attribute total = sum(ys); }',
      '}',
    ].join('\n') }] } };
    // `left` and `right` name the two wheels the multiplicity gives, adding none (they were read as
    // values of `wheel`, whose values were theirs: "depends on itself").
    assert.deepEqual(valuesOf(await value('Axles::axle::total', {}, model)), { total: 20 });
    assert.deepEqual(valuesOf(await value('Axles::axle::distinct', {}, model)), { distinct: true });
    assert.deepEqual(valuesOf(await value('Axles::axle::isFirst', {}, model)), { isFirst: true });
    assert.equal((await value('Axles::axle', {}, model)).reason, 'axle: its constraint holds');
    // Of a feature with a value of its own: among its values by construction (it depended on itself too).
    assert.deepEqual(valuesOf(await value('Axles::valued::y2', {}, model)), { y2: 2 });
    assert.deepEqual(valuesOf(await value('Axles::valued::total', {}, model)), { total: 3 });
    // With a body of its own it says more of that value: wheel#(1) is made from left's declaration
    // (mass 3.0), wheel#(2) from wheel's (10.0).
    assert.deepEqual(valuesOf(await value('Axles::bodied::n', {}, model)), { n: 2 });
    assert.deepEqual(valuesOf(await value('Axles::bodied::total', {}, model)), { total: 13 });
    // An index past the count, a count the model leaves open, another subsetter (which value is first is
    // not modeled): refused.
    const beyond = await ask('Axles::beyond', {}, model);
    assert.match(String(beyond.error?.message), /'third' subsets 'beyond.wheel' and is bound to one of its values by index/);
    const open = await ask('Axles::open::n', {}, model);
    assert.match(String(open.error?.message), /'left' subsets 'open.wheel' and is bound to one of its values by index/);
    const mixed = await ask('Axles::mixed::n', {}, model);
    assert.match(String(mixed.error?.message), /no other feature subsets it/);
  });

  it("checks an analysis's objective against its result and reports its verdict beside it", async () => {
    const cases = { sources: { library: '2026-04', documents: [{ path: 'cases.sysml', text: [
      'package Cases {',
      '  private import ISQ::*;',
      '  private import SI::*;',
      '  part def Rover { attribute mass : MassValue; attribute payload : MassValue; }',
      '  requirement def Light { subject m : MassValue; attribute limit : MassValue = 100 [kg]; require constraint { m <= limit } }',
      '  requirement def Told { doc /* the total should be known */ }',
      '  analysis def Total {',
      '    subject r : Rover;',
      '    objective light : Light { subject = result; }',
      '    r.mass + r.payload',
      '  }',
      '  analysis def Checked {',
      '    subject r : Rover;',
      '    objective { assume constraint { r.payload > 0 [kg] } require constraint { result >= 10 [kg] } }',
      '    return total : MassValue = r.mass + r.payload;',
      '  }',
      '  analysis def Noted { subject r : Rover; objective told : Told; r.mass }',
      '  analysis def Elsewhere { subject r : Rover; objective : Light { subject = r.payload; } r.mass }',
      '}',
    ].join('\n') }] } };
    const rover = (mass: number, payload: number) => ({ bindings: [kg('r.mass', mass), kg('r.payload', payload)] });
    // 60 + 30 = 90 kg <= 100 kg: the result, and the objective met.
    const met = await value('Cases::Total', rover(60, 30), cases);
    assert.deepEqual(valuesOf(met), { Total: '90 [kg]', light: true });
    // 80 + 30 = 110 kg > 100 kg: the same result is reported; the objective is not met, and the reason says where.
    const missed = await value('Cases::Total', rover(80, 30), cases);
    assert.deepEqual(valuesOf(missed), { Total: '110 [kg]', light: false });
    assert.match(String(missed.reason), /^Total: its objective light is not met: m <= limit is false \(cases\.sysml:5:\d+\)$/);
    // An unnamed objective reads `result`: 5 + 2 = 7 kg < 10 kg, not met; with no payload its assumption is false.
    assert.deepEqual(valuesOf(await value('Cases::Checked', rover(5, 2), cases)), { Checked: '7 [kg]', objective: false });
    assert.deepEqual(valuesOf(await value('Cases::Checked', rover(15, 2), cases)), { Checked: '17 [kg]', objective: true });
    const vacuous = await value('Cases::Checked', rover(15, 0), cases);
    assert.match(String(vacuous.reason), /^Checked: its objective holds only because its assumption r\.payload > 0 \[kg\] is false$/);
    // An objective of text only holds with nothing checked, and says so.
    const noted = await value('Cases::Noted', rover(15, 0), cases);
    assert.deepEqual(valuesOf(noted), { Noted: '15 [kg]', told: true });
    assert.equal(noted.reason, 'Noted: its objective told states no constraint (text only), so it holds with nothing checked');
    // An objective about something else than the result is refused, not read as about the result.
    const elsewhere = await ask('Cases::Elsewhere', rover(15, 0), cases);
    assert.match(String(elsewhere.error?.message), /a subject other than the case's result is not modeled/);
    // The solver does not state objectives: satisfiable refuses the analysis, naming the objective.
    const solved = await engine.run(question('satisfiable', 'Cases::Total'), cases);
    assert.match(String(solved.error?.message ?? solved.result?.reason), /an objective is not modeled by the solver|an objective/);
  });

  it('answers `x @@ T` by the element\'s metaclass and the metadata it owns, and refuses it where the two disagree', async () => {
    const meta = modelText('meta.sysml', `package M {
    metadata def Safety;
    metadata def Audited;
    part def Wheel;
    #Safety part def Belt;
    part wheel : Wheel;
    attribute def Speed;
    part def Car {
        part belt : Belt { @Audited; }
        attribute top : Speed;
        perform action drive;
    }
    action def Drive;
    constraint partUsage { wheel @@ SysML::PartUsage }
    constraint itemUsage { wheel @@ SysML::ItemUsage }
    constraint asDefinition { wheel @@ SysML::PartDefinition }
    constraint definition { Wheel @@ SysML::PartDefinition }
    constraint definitionAsUsage { Wheel @@ SysML::Usage }
    constraint attributeUsage { Car::top @@ SysML::AttributeUsage }
    constraint actionDefinition { Drive @@ SysML::ActionDefinition }
    constraint notAnnotated { wheel @@ Safety }
    constraint everyOne { Belt @@ Metaobjects::Metaobject }
    constraint noneOf { Belt @@ Audited }
    constraint mixed { Belt @@ Safety }
    constraint performed { Car::drive @@ SysML::ActionUsage }
    metadata def Comfort;
    part radio;
    metadata comfort : Comfort about radio;
    constraint aboutElsewhere { radio @@ SysML::PartUsage }
}`);
    // A part usage is a PartUsage, so an ItemUsage (PartUsage specializes ItemUsage), not a PartDefinition.
    const expected: Record<string, boolean> = {
      partUsage: true, itemUsage: true, asDefinition: false, definition: true, definitionAsUsage: false, attributeUsage: true, actionDefinition: true,
      // wheel owns no metadata; Belt's metadata (its metaclass and its #Safety) are all Metaobjects, none an Audited.
      notAnnotated: false, everyOne: true, noneOf: false,
    };
    for (const [name, v] of Object.entries(expected)) assert.deepEqual(valuesOf(await value(`M::${name}`, {}, meta)), { [name]: v }, name);
    // Belt's metaclass is no Safety and its #Safety is: whether @@ asks all or any of them is not decided here.
    const mixed = await ask('M::mixed', {}, meta);
    assert.equal(mixed.error?.code, 'unsupported');
    assert.equal(mixed.error?.message, "meta.sysml:24:24: Belt @@ Safety: the metadata of 'Belt' is its metaclass SysML::PartDefinition, not a Safety; its metadata Safety (meta.sysml:5:6), a Safety: whether '@@' asks that each of them is one or that one of them is, is not modeled");
    // A performed action is a PerformActionUsage: its metaclass is not read from the keyword, so refused.
    const performed = await ask('M::performed', {}, meta);
    assert.equal(performed.error?.code, 'unsupported');
    assert.match(String(performed.error?.message), /^meta\.sysml:25:\d+: Car::drive @@ SysML::ActionUsage: the metaclass of 'Car::drive' \(an action with the role perform\) is not read by the engine$/);
    // Metadata declared about radio from outside it: whether radio's metadata includes it is not decided here.
    const about = await ask('M::aboutElsewhere', {}, meta);
    assert.equal(about.error?.code, 'unsupported');
    assert.equal(about.error?.message, "meta.sysml:29:33: radio @@ SysML::PartUsage: 'radio' is annotated by the metadata M::comfort (meta.sysml:28:38), declared about it outside it: whether its metadata access reads metadata it does not own is not modeled");
  });

  it('refuses a definition or package named in an expression: a name there refers to a feature, and they are none', async () => {
    const named = modelText('named.sysml', `package N {
    metadata def Safety;
    #Safety part def Belt;
    part belt : Belt;
    package Lib { attribute n = 2; }
    constraint onDefinition { Belt @ Safety }
    attribute onAttribute = Lib::n;
    attribute onPackage = Lib;
}`);
    // Lib::n is a feature: its value.
    assert.deepEqual(valuesOf(await value('N::onAttribute', {}, named)), { onAttribute: 2 });
    // KerML: a name in an expression is a FeatureReference (its referent a Feature); Belt and Lib are none.
    const onDefinition = await ask('N::onDefinition', {}, named);
    assert.equal(onDefinition.error?.message, "named.sysml:6:31: 'Belt' names a part definition (N::Belt), not a feature: a name in an expression refers to a feature (KerML FeatureReferenceExpression), so it has no value");
    const onPackage = await ask('N::onPackage', {}, named);
    assert.equal(onPackage.error?.message, "named.sysml:8:27: 'Lib' names a package (N::Lib), not a feature: a name in an expression refers to a feature (KerML FeatureReferenceExpression), so it has no value");
  });

  describe('on the corpus examples', () => {
    it('31 Constraints: MassConstraint over a vehicle (in-parameters and redefinitions)', async () => {
      const bindings = [kg('chassisMass', 1000), kg('engine.mass', 800), kg('transmission.mass', 500)];
      // 1000 + 800 + 500 = 2300 <= 2500 → true
      assert.deepEqual(valuesOf(await value("'Constraints Example-1'::Vehicle::massConstraint", { bindings }, corpus('31. Constraints/Constraints Example-1.sysml'))), {
        massConstraint: true,
      });
      // transmission 800: 2600 > 2500 → false
      const heavy = [kg('chassisMass', 1000), kg('engine.mass', 800), kg('transmission.mass', 800)];
      const r = await value("'Constraints Example-2'::Vehicle::massConstraint", { bindings: heavy }, corpus('31. Constraints/Constraints Example-2.sysml'));
      assert.deepEqual(valuesOf(r), { massConstraint: false });
      assert.equal(r.reason, 'massConstraint: sum(partMasses) <= massLimit is false (Constraints Example-2.sysml:13:3)');
    });

    it('30 Calculations: a calc usage returning a structured state', async () => {
      const model = corpus('30. Calculations/Calculation Definitions.sysml', '30. Calculations/Calculation Usages-2.sysml');
      // newState.x = Position(delta_t, currState.x, currState.v) = 100 m + 10 m/s * 2 s = 120 m
      const bindings = [{ name: 'delta_t', value: 2, unit: 's' }, { name: 'currState.x', value: 100, unit: 'm' }, { name: 'currState.v', value: 10, unit: 'm/s' }];
      assert.deepEqual(valuesOf(await value("'Calculation Usages-2'::VehicleDynamics::updateState::newState::x", { bindings }, model)), { x: '120 [m]' });
    });

    it('31 Constraints: a derived total mass across two documents', async () => {
      const model = corpus('31. Constraints/Constraints Example-1.sysml', '31. Constraints/Derivation Constraints.sysml');
      // 1000 + 300 + 200 = 1500 kg
      const bindings = [kg('chassisMass', 1000), kg('engine.mass', 300), kg('transmission.mass', 200)];
      assert.deepEqual(valuesOf(await value("'Derivation Constraints'::vehicle2::totalMass", { bindings }, model)), { totalMass: '1500 [kg]' });
    });

    it('32 Requirements: mass limitation requirements with subjects and assumptions', async () => {
      const model = corpus('32. Requirements/Requirement Definitions.sysml', '32. Requirements/Requirement Usages.sysml');
      const vehicle = (dry: number, fuel: number, full: number) => [kg('vehicle.dryMass', dry), kg('vehicle.fuelMass', fuel), kg('vehicle.fuelFullMass', full)];
      // full tank: 1500 + 400 = 1900 <= 2000 → true
      assert.deepEqual(valuesOf(await value("'Requirement Usages'::fullVehicleMassLimit", { bindings: vehicle(1500, 400, 400) }, model)), { fullVehicleMassLimit: true });
      // 1700 + 400 = 2100 > 2000 → false, failing the inherited require constraint
      const r = await value("'Requirement Usages'::fullVehicleMassLimit", { bindings: vehicle(1700, 400, 400) }, model);
      assert.deepEqual(valuesOf(r), { fullVehicleMassLimit: false });
      assert.equal(r.reason, 'fullVehicleMassLimit: massActual <= massReqd is false (Requirement Definitions.sysml:11:24)');
      // the empty-tank requirement assumes fuelMass == 0 kg: with 400 kg it holds only vacuously
      const v = await value("'Requirement Usages'::emptyVehicleMassLimit", { bindings: vehicle(1700, 400, 400) }, model);
      assert.deepEqual(valuesOf(v), { emptyVehicleMassLimit: true });
      assert.match(String(v.reason), /holds only because its assumption vehicle\.fuelMass == 0\[kg\] is false/);
      // an empty tank (0 kg) breaks the definition's own assumption fuelMass > 0 kg: it holds vacuously
      const empty = await value("'Requirement Usages'::emptyVehicleMassLimit", { bindings: vehicle(1400, 0, 400) }, model);
      assert.deepEqual(valuesOf(empty), { emptyVehicleMassLimit: true });
      assert.match(String(empty.reason), /assumption vehicle\.fuelMass > 0\[kg\] is false/);
    });
  });
});
