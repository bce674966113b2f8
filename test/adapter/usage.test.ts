// Usage errors (exit 2), help (exit 0), configuration errors, input errors and the last-resort
// envelope for an unexpected exception — all still exactly one JSON object on stdout.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTaskService, type TaskService } from '../fixtures/task-service/service';
import { ensureAdapterBuilt, runAdapter } from './adapter-process';

describe('adapter usage, help and input errors (real process)', () => {
  let service: TaskService;
  let env: Record<string, string>;
  let dir: string;

  before(async () => {
    ensureAdapterBuilt();
    dir = mkdtempSync(join(tmpdir(), 'assay-usage-'));
    service = await startTaskService();
    env = { SERVICE_URL: service.url };
  });
  after(() => service.close());

  const usageCases: [string, string[], RegExp][] = [
    ['no subcommand', [], /no subcommand given/],
    ['an unknown subcommand', ['frobnicate'], /unknown subcommand "frobnicate"/],
    ['an unknown flag', ['capabilities', '--verbose'], /unknown flag "--verbose"/],
    ['a stray argument', ['tools', 'extra'], /unexpected argument "extra"/],
    ['wait without -task-ids', ['wait'], /-task-ids is required/],
    ['wait with an empty -task-ids', ['wait', '-task-ids', ' , '], /lists no task id/],
    ['a flag without its value', ['wait', '-task-ids'], /flag -task-ids needs a value/],
    ['a duration without a unit', ['wait', '-task-ids', 'a', '-timeout', '5'], /invalid duration "5" \(missing unit/],
    ['a negative timeout', ['wait', '-task-ids', 'a', '-timeout=-1s'], /-timeout must not be negative/],
    ['a zero interval', ['cancel', '-task-ids', 'a', '-wait', '-interval', '0'], /-interval must be positive/],
    ['a bad boolean', ['cancel', '-task-ids', 'a', '--wait=soon'], /invalid boolean value "soon"/],
  ];
  for (const [what, args, message] of usageCases) {
    it(`${what}: exit 2, usage on stderr, nothing sent`, async () => {
      const before = service.requests.length;
      const r = await runAdapter(args, env);
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.out.error!.message, message);
      assert.equal(r.out.error!.status_code, 0);
      assert.match(r.stderr, /Usage: assay-adapter/);
      assert.equal(service.requests.length, before);
    });
  }

  it('an invalid SERVICE_URL is a usage error naming the variable', async () => {
    const r = await runAdapter(['health'], { SERVICE_URL: 'localhost:8080' });
    assert.equal(r.code, 2);
    assert.match(r.out.error!.message, /SERVICE_URL="localhost:8080" must be an http:\/\/ or https:\/\/ URL/);
    const bad = await runAdapter(['health'], { SERVICE_URL: 'not a url' });
    assert.equal(bad.code, 2);
    assert.match(bad.out.error!.message, /SERVICE_URL="not a url" is not a URL/);
  });

  it('an invalid SERVICE_REQUEST_TIMEOUT is a usage error naming the variable', async () => {
    const r = await runAdapter(['health'], { ...env, SERVICE_REQUEST_TIMEOUT: 'soon' });
    assert.equal(r.code, 2);
    assert.match(r.out.error!.message, /SERVICE_REQUEST_TIMEOUT="soon"/);
  });

  for (const args of [['help'], ['-h'], ['--help'], ['-help'], ['help', 'wait'], ['wait', '-h'], ['cancel', '--help'], ['act', 'help']]) {
    it(`${args.join(' ')}: usage on stderr and {ok:true,data:{usage}}, exit 0`, async () => {
      const r = await runAdapter(args, env);
      assert.equal(r.code, 0);
      assert.equal(r.out.ok, true);
      assert.match(r.out.data.usage, /^Usage: assay-adapter/);
      assert.ok(r.stderr.includes(r.out.data.usage));
    });
  }

  it('per-subcommand help lists that subcommand\'s flags', async () => {
    const r = await runAdapter(['cancel', '-h'], env);
    for (const flag of ['-task-ids', '-wait', '-timeout', '-interval', '-request-timeout']) assert.ok(r.out.data.usage.includes(flag), flag);
  });

  it('act with a -file that does not exist: exit 1 naming the file', async () => {
    const r = await runAdapter(['act', '-file', join(dir, 'missing.json')], env);
    assert.equal(r.code, 1);
    assert.match(r.out.error!.message, /cannot read request file .*missing\.json: no such file/);
  });

  it('submit with a -file that is not JSON: exit 2 naming the file, nothing sent', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"tasks": [');
    const before = service.requests.length;
    const r = await runAdapter(['submit', '-file', file], env);
    assert.equal(r.code, 2);
    assert.match(r.out.error!.message, /the request body from .*broken\.json is not JSON/);
    assert.equal(service.requests.length, before);
  });

  it('a -file with a byte-order mark is sent without it', async () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, '\uFEFF{"tasks":[]}');
    const r = await runAdapter(['submit', '-file', file], env);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(service.requests.at(-1)!.body, '{"tasks":[]}');
  });

  it('translate with empty standard input: exit 2', async () => {
    const r = await runAdapter(['translate'], env, '');
    assert.equal(r.code, 2);
    assert.match(r.out.error!.message, /the request body from standard input is empty/);
  });

  it('an unexpected exception still prints the failure envelope (exit 1)', async () => {
    // A preload that throws on a later tick, while the adapter is waiting for the service.
    const preload = join(dir, 'throw-later.cjs');
    writeFileSync(preload, "setTimeout(() => { throw new Error('boom from a dependency'); }, 0);\n");
    service.fault('GET /adapters/tools', { hang: true });
    const r = await runAdapter(['tools'], { ...env, NODE_OPTIONS: `--require ${preload}` });
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.out.error!.message, /internal error: boom from a dependency/);
    assert.match(r.stderr, /boom from a dependency/);
    service.clearFaults();
  });
});
