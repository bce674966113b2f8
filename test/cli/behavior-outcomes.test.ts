// Behaviour questions as a user asks `assay outcomes` with the bundled engine. Parameters get values: the
// subject's `in` parameters from --bind or as free inputs over their type's domain, a perform's
// binding (`in vehicle = car;`), and the out parameters of a body-less action as free inputs of the
// run — refused when that action may run again (one input cannot stand for a value per run).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const MODEL = join('test', 'fixtures', 'models', 'behavior', 'parameters.sysml');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'sysml-release-2026-04');

interface Value { name: string; value: unknown }
interface Json {
  result?: { claim: string; strength: string; values?: Value[] };
  standing?: { strength: string };
  error?: { message: string };
}

export function outcomes(subject: string, model: string, ...args: string[]): Json {
  const run = spawnSync(process.execPath, [CLI, 'outcomes', subject, '--model', model, '--schedule', 'all', ...args, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(run.stdout.trim()) as Json;
}

/** The end values of each outcome, `name=value` sorted, one string per outcome. */
export function ends(j: Json): string[] {
  const by = new Map<string, string[]>();
  for (const v of j.result?.values ?? []) {
    const [name, k] = v.name.split('@');
    by.set(k!, [...(by.get(k!) ?? []), `${name}=${String(v.value)}`]);
  }
  return [...by.values()].map((x) => x.sort().join(' ')).sort();
}

describe('cli: behaviour parameters take values from the question and the model', function () {
  this.timeout(60_000);

  it('free inputs range over the in parameters’ domains (an enumeration and a Boolean)', () => {
    const j = outcomes('Params::Gear', MODEL, '--free', 'schedule,inputs');
    assert.equal(j.standing?.strength, 'proved');
    // Only sport and fast take the high gear (g = 5); the out parameter gear is a result, never an input.
    assert.deepEqual(ends(j), [
      'end=done fast=false g=3 mode=Mode::eco',
      'end=done fast=false g=3 mode=Mode::sport',
      'end=done fast=true g=3 mode=Mode::eco',
      'end=done fast=true g=5 mode=Mode::sport',
    ]);
  });

  it('--bind gives an in parameter its value, an enumeration literal however qualified', () => {
    for (const mode of ['sport', 'Mode::sport', 'Params::Mode::sport']) {
      const j = outcomes('Params::Gear', MODEL, '--bind', `mode=${mode}`, '--bind', 'fast=true');
      assert.equal(j.standing?.strength, 'proved', mode);
      assert.deepEqual(ends(j), ['end=done fast=true g=5 mode=Mode::sport'], mode);
    }
    assert.match(outcomes('Params::Gear', MODEL, '--bind', 'mode=Mode::turbo', '--bind', 'fast=true').error!.message, /binding mode: "Mode::turbo" is not one of Mode::eco, Mode::sport/);
  });

  it('an unbound in parameter is refused where it is read', () => {
    assert.match(outcomes('Params::Gear', MODEL).error!.message, /parameters\.sysml:13:10: 'mode' has no value \(give it one, bind it, or make it a free input\)/);
  });

  it('a perform binding (in vehicle = car) reads the performing part', () => {
    const j = outcomes('Params::car', MODEL, '--bind', 'braking=true');
    assert.equal(j.standing?.strength, 'proved');
    assert.deepEqual(ends(j), ['braking=true check.vehicle=Params::car checked=true end=done']);
  });

  it('the out parameter of a body-less action is a free input of the run', () => {
    const j = outcomes('Params::sense', MODEL, '--free', 'schedule,inputs');
    assert.equal(j.standing?.strength, 'proved');
    assert.deepEqual(ends(j), ['end=done probe.level=false seen=false', 'end=done probe.level=true seen=true']);
  });

  it('…but not when the action may run again: reading its out parameter is refused', () => {
    assert.match(outcomes('Params::poll', MODEL, '--free', 'schedule,inputs').error!.message, /parameters\.sysml:48:41: 'probe\.level' is computed outside the model: an out parameter of 'probe', a body-less action that may run more than once/);
  });

  it('a state machine’s in parameter typed by a part: its attributes are inputs (training/25 Transition Actions)', () => {
    const model = join(CORPUS, 'training', '25. Transitions', 'Transition Actions.sysml');
    // With the brake released, the guard of starting -> on is false: nobody sends the signals, the machine rests in off.
    const j = outcomes("'Transition Actions'::vehicleStates", model, '--bind', 'operatingVehicle.brakePedalDepressed=false');
    assert.equal(j.standing?.strength, 'proved');
    assert.deepEqual(ends(j), ['end=deadlock operatingVehicle.brakePedalDepressed=false state=off']);
  });
});

describe('cli: outcomes of a state machine report its active state configuration', function () {
  this.timeout(60_000);
  const model = join('test', 'fixtures', 'models', 'behavior', 'configurations.sysml');

  it('a nested state by its path (state@k = Active.Cruising)', () => {
    const j = outcomes('Cruise::drive', model);
    assert.equal(j.standing?.strength, 'proved');
    assert.deepEqual(ends(j), ['end=deadlock state=Active.Cruising']);
  });

  it('a parallel state’s regions joined, and each machine of a part by its name', () => {
    assert.deepEqual(ends(outcomes('Cruise::lamps', model)), ['end=deadlock state=On.back.off, On.front.bright']);
    const j = outcomes('Cruise::car', model);
    assert.equal(j.standing?.strength, 'proved');
    assert.deepEqual(ends(j), ['drive.state=Active.Cruising end=deadlock lamps.state=On.back.off, On.front.bright']);
  });
});

describe('cli: signals through ports', function () {
  this.timeout(60_000);
  const model = join('test', 'fixtures', 'models', 'behavior', 'ports.sysml');

  it('accept via a port takes what is sent to that port; a send via an unconnected port leaves the model', () => {
    // Go sent to server.inbox is accepted (served = 1, busy); Done goes out through client.out1, which
    // nothing connects, so the server stays busy.
    const j = outcomes('Ports::sys', model);
    assert.equal(j.standing?.strength, 'proved');
    assert.deepEqual(ends(j), ['end=deadlock served=1 state=busy']);
  });

  it('a send via a port that a connection links is refused with its place', () => {
    assert.match(outcomes('Ports::wired', model).error!.message, /ports\.sysml:29:80: send … via 'p', a port something in the model connects: delivery over connections and interfaces is not modeled/);
  });
});
