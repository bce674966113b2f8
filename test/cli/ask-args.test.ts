import { strict as assert } from 'node:assert';
import { UsageError, parseAskArgs, parseScalarWithUnit, shardArgv } from '../../src/cli/ask-args';

const base = ['holds', 'Demo::S', '--model', 'a.sysml'];
const usage = (argv: string[], pattern: RegExp) =>
  assert.throws(() => parseAskArgs(argv), (e: unknown) => e instanceof UsageError && pattern.test(e.message), argv.join(' '));

describe('cli: ask arguments', () => {
  it('builds the question with defaults', () => {
    const args = parseAskArgs(base);
    assert.equal(args.command, 'ask');
    if (args.command !== 'ask') return;
    assert.deepEqual(args.question, { kind: 'holds', subject: 'Demo::S', schedule: 'fifo', free: [] });
    assert.deepEqual(args.modelFiles, ['a.sysml']);
    assert.deepEqual(args.budget, { deadline: 60 });
    assert.equal(args.json, false);
  });

  it('reads every option into the question, the budget and the host choices', () => {
    const args = parseAskArgs([
      'sweep', 'Demo::Calc', '--model', 'a.sysml', 'b.kerml', '-schedule', 'seed:7', '-draws', 'average', '-clock-step', '0.5',
      '-model-seed', '3', '--free', 'schedule,inputs', '--condition', 'safe=speed < 10 [m/s]', '--bind', 'mass=3.5[kg]',
      '--bind', 'on=true', '--input', 'x:Real:0..10', '--range', 'v:Real:0[m/s]:10[m/s]:2[m/s]', '--samples', '20', '--seed', '0',
      '--runs', '5', '--deadline', '2.5', '--depth', '10', '--steps', '0', '--runs-limit', '4', '--memory', '512', '--jobs', '2',
      '--engine', 'z', '--engines=m.json', '--json',
    ]);
    assert.equal(args.command, 'ask');
    if (args.command !== 'ask') return;
    assert.deepEqual(args.modelFiles, ['a.sysml', 'b.kerml']);
    assert.deepEqual(args.question, {
      kind: 'sweep', subject: 'Demo::Calc', schedule: 'seed:7', free: ['schedule', 'inputs'], draws: 'average', clockStep: 0.5, modelSeed: 3,
      condition: { name: 'safe', text: 'speed < 10 [m/s]' },
      bindings: [{ name: 'mass', value: 3.5, unit: 'kg' }, { name: 'on', value: true }],
      inputs: [{ name: 'x', type: 'Real', domain: '0..10' }],
      sweep: { ranges: [{ parameter: 'v', type: 'Real', from: 0, to: 10, step: 2, unit: 'm/s' }], sampled: true, samples: 20, seed: 0, runs: 5 },
    });
    assert.deepEqual(args.budget, { deadline: 2.5, depth: 10, steps: 0, runs: 4, memory: 512, jobs: 2 });
    assert.equal(args.engine, 'z');
    assert.equal(args.enginesFile, 'm.json');
    assert.equal(args.json, true);
  });

  it('parses values with units in the ways people write them', () => {
    assert.deepEqual(parseScalarWithUnit('3.5 [kg]'), { value: 3.5, unit: 'kg' });
    assert.deepEqual(parseScalarWithUnit('3.5kg'), { value: 3.5, unit: 'kg' });
    assert.deepEqual(parseScalarWithUnit('-2e3'), { value: -2000 });
    assert.deepEqual(parseScalarWithUnit('"12"'), { value: '12' });
    assert.deepEqual(parseScalarWithUnit('red'), { value: 'red' });
    assert.deepEqual(parseScalarWithUnit('20 [°C]'), { value: 20, unit: '°C' });
    // Spellings of a number its double keeps exactly (an engine reads the double as its shortest decimal).
    assert.deepEqual(parseScalarWithUnit('0.30000000000000004'), { value: 0.30000000000000004 });
    assert.deepEqual(parseScalarWithUnit('001.2500e2 [m]'), { value: 125, unit: 'm' });
    assert.deepEqual(parseScalarWithUnit('.5'), { value: 0.5 });
    assert.deepEqual(parseScalarWithUnit('-0.0'), { value: -0 });
  });

  it('--input: a qualified type keeps its ::, and a domain may hold qualified names too', () => {
    const inputs = (...flags: string[]) => {
      const args = parseAskArgs(['satisfiable', 'P::p', '--model', 'm.sysml', ...flags.flatMap((f) => ['--input', f])]);
      assert.equal(args.command, 'ask');
      return args.command === 'ask' ? args.question.inputs : undefined;
    };
    assert.deepEqual(inputs('m:ISQ::MassValue:0 [kg]..2 [kg]', 'c:Colors::Colour:Colors::Colour::red,Colors::Colour::blue', 'x', 'y:Real'), [
      { name: 'm', type: 'ISQ::MassValue', domain: '0 [kg]..2 [kg]' },
      { name: 'c', type: 'Colors::Colour', domain: 'Colors::Colour::red,Colors::Colour::blue' },
      { name: 'x' },
      { name: 'y', type: 'Real' },
    ]);
    assert.throws(() => inputs(':Real:0..1'), /--input :Real:0\.\.1: expected <name>:<type>:<domain>/);
  });

  it('refuses a number its double would change, rather than carry another', () => {
    assert.throws(() => parseScalarWithUnit('1.999999999999999999 [kg]'), /1\.999999999999999999 is not carried exactly: .* the nearest one is 2;/);
    assert.throws(() => parseScalarWithUnit('9007199254740993'), /nearest one is 9007199254740992/);
    assert.throws(() => parseScalarWithUnit('1e400'), /1e400 is beyond the range/);
    assert.throws(() => parseScalarWithUnit('-1e-400'), /-1e-400 is beyond the range/);
    assert.throws(() => parseAskArgs(['sweep', 'P::p', '--model', 'm.sysml', '--range', 'x:Real:0:1:0.10000000000000000001']), /^UsageError: --range x:Real:0:1:0\.10000000000000000001: 0\.10000000000000000001 is not carried exactly/);
  });

  it('assay engines', () => {
    assert.deepEqual(parseAskArgs(['engines']), { command: 'engines', json: false });
    assert.deepEqual(parseAskArgs(['engines', '--engines', 'e.json', '--json']), { command: 'engines', json: true, enginesFile: 'e.json' });
    usage(['engines', '--depth', '3'], /--depth does not apply to assay engines/);
  });

  it('usage errors name the flag and the value', () => {
    usage([], /missing question kind/);
    usage(['prove', 'X', '--model', 'a.sysml'], /unknown question kind "prove"/);
    usage(['holds', '--model', 'a.sysml'], /missing subject/);
    usage(['holds', 'X'], /missing --model/);
    usage([...base, '--frobnicate'], /unknown option --frobnicate/);
    usage(['holds', 'X', '--model', '--json'], /--model needs a value, but the next argument is the option --json/);
    usage([...base, '--condition', '-schedule', 'all'], /--condition needs a value, but the next argument is the option -schedule/);
    usage([...base, '-schedule', 'random'], /-schedule random: expected fifo, lifo, all or seed:<n>/);
    usage([...base, '-schedule', 'seed:01'], /-schedule seed:01/);
    usage([...base, '-draws', 'median'], /-draws median: expected min, max or average/);
    usage([...base, '-clock-step', '0'], /-clock-step 0: expected a number of seconds greater than 0/);
    usage([...base, '-model-seed', '-1'], /-model-seed -1: expected a non-negative integer/);
    usage([...base, '--free', 'schedule,time'], /--free schedule,time: "time" is not schedule or inputs/);
    usage([...base, '--condition', '=x'], /--condition =x: expected <name>=<text>/);
    usage([...base, '--bind', 'mass'], /--bind mass: expected <name>=<value>\[<unit>\]/);
    usage([...base, '--range', 'v:Real:0'], /--range v:Real:0: expected <param>:<type>:<from>:<to>\[:<step>\]/);
    usage([...base, '--range', 'v:Real:0[m]:1[s]'], /different units \(m, s\)/);
    usage([...base, '--range', 'v:Real:3:1:1'], /--range v:Real:3:1:1: from 3 is above to 1 \(a range runs upward: write v:Real:1:3:1\)/);
    usage([...base, '--range', 'v:Real:0:1:0'], /--range v:Real:0:1:0: the step 0 must be above 0/);
    usage([...base, '--range', 'v:Real:0[m]:1[m]:-1[m]'], /the step -1\[m\] must be above 0/);
    usage([...base, '--deadline', 'soon'], /--deadline soon: expected a number of seconds/);
    usage([...base, '--depth', '2.5'], /--depth 2\.5: expected a non-negative integer/);
    usage([...base, '--memory'], /--memory needs a value/);
    usage([...base, '-schedule', 'fifo', '-schedule', 'lifo'], /-schedule is given 2 times/);
    usage([...base, 'extra'], /unexpected argument "extra"/);
    usage([...base, '--json=yes'], /--json=yes: the flag -json takes no value/);
  });

  it('--offload and --shard: a table question only, the bundled engine only, well-formed', () => {
    const sweep = ['sweep', 'Demo::S', '--model', 'a.sysml', '--runs', '10'];
    const args = parseAskArgs([...sweep, '--offload', '3', '--worker-command', 'node /opt/cli.js', '--shard-dir', '/shared']);
    assert.ok(args.command === 'ask');
    assert.deepEqual([args.offload, args.workerCommand, args.shardDir], [3, 'node /opt/cli.js', '/shared']);
    const shard = parseAskArgs([...sweep, '--shard', '2/3']);
    assert.ok(shard.command === 'ask');
    assert.deepEqual(shard.shard, { index: 2, of: 3 });
    usage([...sweep, '--shard', '4/3'], /--shard 4\/3: expected k\/N with 1 <= k <= N/);
    usage([...sweep, '--shard', '0/3'], /--shard 0\/3: expected k\/N/);
    usage([...sweep, '--offload', '0'], /--offload 0: expected a number of shards from 1 to 1000/);
    usage([...sweep, '--offload', '2', '--shard', '1/2'], /do not go together/);
    usage([...base, '--offload', '2'], /--offload splits the rows of a table: .* not to holds/);
    usage(['compute', 'Demo::C', '--model', 'a.sysml', '--runs', '3', '--offload', '2'], /not to compute without --range/);
    usage([...sweep, '--offload', '2', '--engine', 'other'], /bundled engine only/);
    usage([...sweep, '--worker-command', 'node x'], /--worker-command applies to --offload only/);
    usage([...sweep, '--output', 'x.json'], /--output x.json: writes the JSON object; give --json too/);
  });

  it('a shard repeats the question\'s flags, with absolute model paths, and not the coordinator\'s own', () => {
    const argv = ['sweep', 'Demo::S', '--model', 'a.sysml', 'sub/b.sysml', '--range=v:Real:0:1:0.1', '-seed', '3', '--offload', '4', '--worker-command', 'node w.js', '--json', '--output', 'o.json', '--jobs', '2'];
    assert.deepEqual(shardArgv(argv, { index: 2, of: 4 }, '/tmp/s/shard-2-of-4.json', '/work'), [
      'sweep', 'Demo::S', '--model', '/work/a.sysml', '/work/sub/b.sysml', '--range=v:Real:0:1:0.1', '-seed', '3', '--jobs', '2',
      '--shard', '2/4', '--json', '--output', '/tmp/s/shard-2-of-4.json',
    ]);
  });

  it('--help', () => {
    assert.deepEqual(parseAskArgs(['--help']), { command: 'help' });
  });
});
