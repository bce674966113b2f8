// Units and quantity kinds through the real engine process (#15 item 2): units of the library's text
// (US customary), units a model defines, %, ISQ quantity kinds of features that subset ISQ
// quantities in the evaluator and the z3 path, and dimension errors refused with their place.
// Every expected value is worked out by hand from the factors in the comments.
import assert from 'node:assert/strict';
import { modelText, question, suiteEngine } from './engine-process';

const MODEL = `package U {
  private import ISQ::*;
  private import SI::*;
  private import USCustomaryUnits::*;
  attribute engineKw = 150 [hp] [kW];
  attribute trip = 26.2 [mi] [km];
  attribute bore = 61 ['in³'] [L];
  attribute bodyTemp = 98.6 ['°F'] ['°C'];
  attribute fHeat = 212 ['°F'] [K];
  attribute fDiff = 212 ['°F'] - 32 ['°F'];
  attribute discount = 80 [kg] * 25 ['%'];
  attribute asShare = 25 [percent] [one];
  attribute gallon : VolumeUnit = 231.0 * 'in' ** 3;
  attribute mpg : DerivedUnit = 'mi' / gallon;
  attribute <kpl> kmPerLitre : DerivedUnit = km / L;
  attribute economy = 30 [mpg] [kpl];
  attribute economyDirect = 30 [mi/gallon] [km/L];
  attribute better = 30 [mpg] > 12 [kpl];
  attribute wrongUnit : LengthUnit = 3 [kg];
  attribute usesWrong = 2 [wrongUnit];
  attribute addKgM = 1 [kg] + 2 [m];
  attribute compareKgM = 1 [kg] < 2 [m];
  calc def Twice { in x : LengthValue; return : MassValue = 2 * x; }
  attribute twiceOf = Twice(3 [ft]);
  part def Car {
    attribute m :> ISQ::mass;
    attribute p :> ISQ::power;
    attribute specific = p / m;
    constraint heavy { m > 3000 [lb] and m < 1.5 [t] }
    constraint strong { p >= 150 [hp] and p <= 112 [kW] }
    constraint tooStrong { p >= 151 [hp] and p <= 112 [kW] }
  }
  attribute <USD> dollar : MeasurementUnit;
  attribute <EUR> euro : MeasurementUnit;
  attribute <CHF> franc : MeasurementUnit = 1.25 * USD;
  attribute budget = 100 [USD] + 40 [CHF];
  attribute pricePerKg = 30 [USD] / 4 [kg];
  attribute inDollars = 8 [CHF] [USD];
  attribute mixedCurrencies = 100 [USD] + 5 [EUR];
}`;

describe('units and quantity kinds through the engine', function () {
  this.timeout(60000);
  const engine = suiteEngine();

  async function ask(kind: string, subject: string, extra: Record<string, unknown> = {}) {
    return engine.run(question(kind, `U::${subject}`, extra), modelText('units.sysml', MODEL));
  }
  async function value(name: string, extra: Record<string, unknown> = {}): Promise<{ value: unknown; unit?: string }> {
    const r = await ask('evaluate', name, extra);
    assert.equal(r.error, undefined, `${name}: ${JSON.stringify(r.error)}`);
    const values = (r.result!.values ?? []) as { name: string; value: unknown; unit?: string }[];
    const v = values.find((x) => x.name === name.split('::').at(-1)) ?? values[0]!;
    return { value: v.value, unit: v.unit };
  }
  async function refusal(name: string): Promise<string> {
    const r = await ask('evaluate', name);
    assert.equal(r.result, undefined, `${name} answered ${JSON.stringify(r.result)}`);
    return String(r.error?.message);
  }
  const near = (a: unknown, b: number): void => assert.ok(typeof a === 'number' && Math.abs(a - b) <= 1e-9 * Math.abs(b), `${String(a)} ≉ ${b}`);

  it("converts the library's US customary units: hp, mi, in³ by their declared factors", async () => {
    // hp = 7.456999E+02 W (USCustomaryUnits): 150 hp = 111854.985 W
    const p = await value('engineKw');
    near(p.value, 111.854985);
    assert.equal(p.unit, 'kW');
    // mi = 1609.344 m exactly
    near((await value('trip')).value, 42.1648128);
    // in³ = 'in'^3 = 0.0254^3 m³: 61 in³ = 0.999609... L
    near((await value('bore')).value, 61 * 0.016387064);
  });

  it('treats °F as an affine scale for points and a 5/9 K step for differences (the difference of two points is in K)', async () => {
    near((await value('bodyTemp')).value, 37);
    near((await value('fHeat')).value, 373.15);
    // The difference of two points is an interval: 180 °F steps are 100 K.
    const d = await value('fDiff');
    near(d.value, 100);
    assert.equal(d.unit, 'K');
  });

  it('reads % (and percent) as the dimensionless 1/100', async () => {
    const d = await value('discount');
    assert.equal(d.value, 20);
    assert.equal(d.unit, 'kg');
    near((await value('asShare')).value, 0.25);
  });

  it('uses units the model defines (gallon as 231 in³, mpg = mi/gallon, kpl = km/L)', async () => {
    // 30 mi/gal = 30 · 1609.344 m / 3.785411784 L = 12.7543112... km/L
    const e = await value('economy');
    near(e.value, (30 * 1609.344) / 3785.411784);
    assert.equal(e.unit, 'kpl');
    near((await value('economyDirect')).value, (30 * 1609.344) / 3785.411784);
    assert.equal((await value('better')).value, true);
  });

  it('refuses a unit whose value has another dimension than its unit type, and dimension errors, with their place', async () => {
    assert.match(await refusal('usesWrong'), /units\.sysml:\d+:\d+: 'wrongUnit' is declared LengthUnit .* 3 \[kg\] is of another dimension/);
    assert.match(await refusal('addKgM'), /units\.sysml:21:22: cannot add \[m\] to \[kg\]/);
    assert.match(await refusal('compareKgM'), /units\.sysml:22:\d+: cannot compare \[kg\] with \[m\]/);
    assert.match(await refusal('twiceOf'), /the result of Twice is declared MassValue .* but its value .* is another quantity/);
  });

  it('gives a unit the model declares without a conversion (a currency) a dimension of its own', async () => {
    // CHF is declared as 1.25 USD: 100 USD + 40 CHF = 150 USD; 8 CHF = 10 USD
    const b = await value('budget');
    assert.equal(b.value, 150);
    assert.equal(b.unit, 'USD');
    assert.deepEqual(await value('inDollars'), { value: 10, unit: 'USD' });
    assert.deepEqual(await value('pricePerKg'), { value: 7.5, unit: 'USD/kg' });
    // no factor between USD and EUR: refused, never converted
    assert.match(await refusal('mixedCurrencies'), /units\.sysml:\d+:\d+: cannot add \[EUR\] to \[USD\]/);
  });

  it('binds features that subset ISQ quantities in US customary units', async () => {
    // 200 hp / 3000 lb, kept in the bound units
    const s = await value('Car::specific', { bindings: [{ name: 'm', value: 3000, unit: 'lb' }, { name: 'p', value: 200, unit: 'hp' }] });
    near(s.value, 200 / 3000);
    assert.equal(s.unit, 'hp/lb');
    // 3000 lb = 1360.77711 kg: heavy needs more than that and less than 1500 kg
    const h = await value('Car::heavy', { bindings: [{ name: 'm', value: 3100, unit: 'lb' }] });
    assert.equal(h.value, true);
    const light = await value('Car::heavy', { bindings: [{ name: 'm', value: 1000, unit: 'kg' }] });
    assert.equal(light.value, false);
  });

  it('solves ISQ-subsetting features against US customary bounds on the z3 path', async () => {
    const r = await ask('satisfiable', 'Car::heavy');
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.equal(r.result!.claim, 'satisfiable');
    const m = (r.result!.witness as { inputs: { name: string; value: number; unit?: string }[] }).inputs.find((i) => i.name === 'm')!;
    assert.equal(m.unit, 'kg');
    assert.ok(m.value > 3000 * 0.45359237 && m.value < 1500, `m = ${m.value}`);
    // 150 hp = 111.854985 kW ≤ 112 kW: a narrow window; 151 hp = 112.600685 kW > 112 kW: none
    const s = await ask('satisfiable', 'Car::strong');
    assert.equal(s.result!.claim, 'satisfiable');
    const p = (s.result!.witness as { inputs: { name: string; value: number }[] }).inputs.find((i) => i.name === 'p')!;
    assert.ok(p.value >= 111854.985 && p.value <= 112000, `p = ${p.value}`);
    const none = await ask('satisfiable', 'Car::tooStrong');
    assert.equal(none.result!.claim, 'unsatisfiable');
  });
});
