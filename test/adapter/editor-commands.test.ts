// The editor commands' pure parts: adapter arguments, summaries of real envelopes, remembered task
// ids, request-body checks with a place. The envelopes come from the real adapter against the local
// test service wherever the shape matters, so a summary cannot drift from what the adapter prints.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import {
  bodyArgs, cancelArgs, checkServiceArgs, chooseAdapter, deadlineProblem, hintCommands, jsonProblem, manualHints, parseTaskIds,
  rememberTasks, summarise, taskIdChoices, taskIdsOf, waitArgs, withSettingNames, type RememberedTask,
} from '../../src/adapter/editor-commands';
import { invokeAdapter } from '../../src/adapter/process';
import { closedPort, startTaskService, type TaskService } from '../fixtures/task-service/service';
import { adapterPath, cleanEnv, ensureAdapterBuilt } from './adapter-process';

describe('editor commands: adapter arguments', () => {
  it('builds wait and cancel arguments the adapter accepts, ids cleaned', () => {
    assert.deepEqual(waitArgs({ taskIds: ['t1', ' t2 ', 't1'], timeout: ' 90s ' }), ['wait', '-task-ids', 't1,t2', '-timeout', '90s']);
    assert.deepEqual(cancelArgs({ taskIds: ['t1'], wait: false, timeout: '5s' }), ['cancel', '-task-ids', 't1']);
    assert.deepEqual(cancelArgs({ taskIds: ['t1', 't2'], wait: true, timeout: '5s' }), ['cancel', '-task-ids', 't1,t2', '-wait', '-timeout', '5s']);
    assert.deepEqual(cancelArgs({ taskIds: ['t1'], wait: true }), ['cancel', '-task-ids', 't1', '-wait', '-timeout', '2m']);
    assert.deepEqual(checkServiceArgs(false), ['ensure-running']);
    assert.deepEqual(checkServiceArgs(true), ['ensure-running', '-with-runtime']);
    assert.deepEqual(bodyArgs('submit'), ['submit', '-file', '-']);
    assert.throws(() => waitArgs({ taskIds: [' ', ''], timeout: '1s' }), /no task ids/);
  });

  it('parses typed task ids on commas and blanks, keeping order and dropping repeats', () => {
    assert.deepEqual(parseTaskIds(' task-2, task-1 task-2,,\ttask-3 '), ['task-2', 'task-1', 'task-3']);
    assert.deepEqual(parseTaskIds('  '), []);
  });

  it('checks typed deadlines as the adapter would', () => {
    assert.equal(deadlineProblem('2m'), undefined);
    assert.equal(deadlineProblem('0'), undefined);
    assert.equal(deadlineProblem('1m30s'), undefined);
    assert.match(deadlineProblem('30')!, /missing unit/);
    assert.match(deadlineProblem('soon')!, /invalid duration "soon"/);
    assert.match(deadlineProblem('-5s')!, /negative/);
  });

  it('chooses the bundled adapter unless the setting names another', () => {
    assert.deepEqual(chooseAdapter('', '/ext/dist/adapter.js', '/ws'), { path: '/ext/dist/adapter.js', origin: 'bundled' });
    assert.deepEqual(chooseAdapter('  ', '/b.js', undefined), { path: '/b.js', origin: 'bundled' });
    assert.deepEqual(chooseAdapter('/opt/adapter', '/b.js', '/ws'), { path: '/opt/adapter', origin: 'setting' });
    assert.deepEqual(chooseAdapter('tools/adapter.js', '/b.js', '/ws'), { path: join('/ws', 'tools/adapter.js'), origin: 'setting' });
    // A bare name is a program on PATH.
    assert.deepEqual(chooseAdapter('service-adapter', '/b.js', '/ws'), { path: 'service-adapter', origin: 'setting' });
  });
});

describe('editor commands: settings behind refused variables', () => {
  it('names the setting a refused SERVICE_URL or SERVICE_RUNTIME_URL came from', async () => {
    ensureAdapterBuilt();
    const r = await invokeAdapter({ adapterPath, args: ['capabilities'], env: cleanEnv({ SERVICE_URL: 'localhost:8080' }) });
    assert.equal(r.exitCode, 2);
    const message = summarise('capabilities', r.exitCode, r.envelope).message;
    assert.equal(withSettingNames(message, { serviceUrl: true, runtimeUrl: true }),
      'Capabilities failed (usage): SERVICE_URL="localhost:8080" must be an http:// or https:// URL (from the setting assay.tasks.serviceUrl)');
    // From the environment, not a setting: left as it is.
    assert.equal(withSettingNames(message, { serviceUrl: false, runtimeUrl: true }), message);
    assert.equal(withSettingNames('SERVICE_RUNTIME_URL="foo" is not a URL', { serviceUrl: true, runtimeUrl: true }),
      'SERVICE_RUNTIME_URL="foo" is not a URL (from the setting assay.tasks.runtimeUrl)');
  });
});

describe('editor commands: request bodies', () => {
  it('accepts JSON (with a byte-order mark) and says where other text stops being JSON', () => {
    assert.equal(jsonProblem('{"tasks": []}'), undefined);
    assert.equal(jsonProblem('\uFEFF{"tasks": []}'), undefined);
    assert.deepEqual(jsonProblem('{\n  "tasks": [\n    {"name": "a"},\n  ]\n}'), { message: "expected a value, found \"]\"", line: 4, column: 3 });
    assert.deepEqual(jsonProblem('{"a": }'), { message: 'expected a value, found "}"', line: 1, column: 7 });
    assert.deepEqual(jsonProblem('{\n  name: 1\n}'), { message: 'expected a property name in double quotes, found "n"', line: 2, column: 3 });
    assert.deepEqual(jsonProblem('{"a": 1} x'), { message: 'expected the end of the text, found "x"', line: 1, column: 10 });
    assert.deepEqual(jsonProblem('{"a": "b'), { message: 'unterminated string', line: 1, column: 9 });
    assert.deepEqual(jsonProblem('[1, 2'), { message: "expected ',' or ']', found the end of the text", line: 1, column: 6 });
    assert.equal(jsonProblem('  ')?.message, 'the request body is empty');
  });

  it('agrees with JSON.parse on what is JSON', () => {
    const samples = ['0', '-0.5e+3', '"\\u00e9\\n"', '[true,false,null]', '{"a":{"b":[]}}', '01', '1.', '"\\x"', '[,]', '{"a"}', 'tru', '"\t"', '{} {}'];
    for (const sample of samples) {
      let valid = true;
      try {
        JSON.parse(sample);
      } catch {
        valid = false;
      }
      assert.equal(jsonProblem(sample) === undefined, valid, sample);
    }
  });
});

describe('editor commands: remembered task ids', () => {
  const at1 = '2026-11-22T08:00:00.000Z';
  const at2 = '2026-11-22T08:05:00.000Z';

  it('puts the newest submission first and keeps each id once', () => {
    let memory: RememberedTask[] = [];
    memory = rememberTasks(memory, ['task-1', 'task-2'], { via: 'submit', source: 'graph.json', at: at1 });
    memory = rememberTasks(memory, ['task-3', 'task-1'], { via: 'act', source: 'action.json', at: at2 });
    assert.deepEqual(memory.map((t) => t.id), ['task-3', 'task-1', 'task-2']);
    assert.equal(memory[1]!.via, 'act');
    assert.equal(rememberTasks(memory, ['a', 'b', 'c'], { via: 'submit', source: 'x', at: at2 }, 4).length, 4);
  });

  it('offers the whole last submission first, then every id newest first', () => {
    let memory = rememberTasks([], ['task-1'], { via: 'submit', source: 'one.json', at: at1 });
    memory = rememberTasks(memory, ['task-2', 'task-3'], { via: 'submit', source: 'graph.json', at: at2 });
    const choices = taskIdChoices(memory, (iso) => iso.slice(11, 19));
    assert.deepEqual(choices.map((c) => c.taskIds), [['task-2', 'task-3'], ['task-2'], ['task-3'], ['task-1']]);
    assert.match(choices[0]!.description, /last submit \(graph\.json\)/);
    assert.match(choices[3]!.description, /submit of one\.json, 08:00:00/);
    // A single-task submission is not offered twice.
    assert.deepEqual(taskIdChoices(memory.slice(2)).map((c) => c.label), ['task-1']);
    assert.deepEqual(taskIdChoices([]), []);
  });
});

describe('editor commands: hints', () => {
  it('finds the commands a manual hint suggests, not the failed ones or error messages', () => {
    const hint = '"/usr/bin/docker compose up -d" in /srv/svc failed (exit code 1: Cannot connect to the Docker daemon); fix that and run "cd /srv/svc && docker compose up -d", or start the task service';
    assert.deepEqual(hintCommands(hint), ['cd /srv/svc && docker compose up -d']);
    const noPlugin = 'docker is on PATH but "docker compose" does not work (exit code 1: docker: unknown command: docker compose) and docker-compose is not on PATH; run "cd /srv/svc && docker compose up -d" where it works, or start the task service';
    assert.deepEqual(hintCommands(noPlugin), ['cd /srv/svc && docker compose up -d']);
    assert.deepEqual(hintCommands('start the task service so that GET http://x/health answers 2xx'), []);
    assert.deepEqual(hintCommands('check its logs ("docker compose logs" there)'), ['docker compose logs']);
  });
});

describe('editor commands: summaries of real adapter answers', () => {
  let service: TaskService;
  let env: NodeJS.ProcessEnv;
  const run = (args: string[], stdin?: string, extra: NodeJS.ProcessEnv = {}) =>
    invokeAdapter({ adapterPath, args, env: { ...env, ...extra }, stdin });

  before(async () => {
    ensureAdapterBuilt();
    service = await startTaskService({ runtime: true, cancelDelayMs: 50 });
    env = cleanEnv({ SERVICE_URL: service.url, SERVICE_RUNTIME_URL: service.runtimeUrl! });
  });
  after(() => service.close());

  it('submit: the task ids', async () => {
    const r = await run(bodyArgs('submit'), JSON.stringify({ tasks: [{ name: 'a', duration_ms: 10 }, { name: 'b', duration_ms: 10 }] }));
    const ids = taskIdsOf(r.envelope);
    assert.equal(ids.length, 2);
    assert.deepEqual(summarise('submit', r.exitCode, r.envelope), { severity: 'info', message: `Submitted 2 tasks: ${ids.join(', ')}` });
  });

  it('wait: every status when all finished; a warning with the open ones at the deadline', async () => {
    const done = await run(bodyArgs('submit'), JSON.stringify({ tasks: [{ name: 'ok', duration_ms: 10 }, { name: 'bad', outcome: 'failed', duration_ms: 10 }] }));
    const [ok, bad] = taskIdsOf(done.envelope);
    const waited = await run(waitArgs({ taskIds: [ok!, bad!], timeout: '60s' }).concat('-interval', '20ms'));
    assert.deepEqual(summarise('wait', waited.exitCode, waited.envelope), { severity: 'warning', message: `All 2 tasks finished: ${ok} success, ${bad} failed` });
    const fine = await run(waitArgs({ taskIds: [ok!], timeout: '60s' }));
    assert.deepEqual(summarise('wait', fine.exitCode, fine.envelope), { severity: 'info', message: `The task finished: ${ok} success` });
    const slow = taskIdsOf((await run(bodyArgs('submit'), '{"tasks":[{"name":"slow"}]}')).envelope)[0]!;
    const late = await run(waitArgs({ taskIds: [slow], timeout: '3s' }).concat('-interval', '20ms'));
    assert.equal(late.exitCode, 3);
    assert.deepEqual(summarise('wait', late.exitCode, late.envelope), { severity: 'warning', message: `Deadline passed before every task finished: ${slow} running` });
  });

  it('cancel: requested without waiting, cancelled with it; a 409 is an error with its status', async () => {
    const ids = taskIdsOf((await run(bodyArgs('submit'), '{"tasks":[{"name":"a"},{"name":"b"}]}')).envelope);
    const requested = await run(cancelArgs({ taskIds: [ids[0]!], wait: false }));
    assert.deepEqual(summarise('cancel', requested.exitCode, requested.envelope), { severity: 'info', message: `Cancel requested: ${ids[0]} cancelling` });
    const waited = await run(cancelArgs({ taskIds: [ids[1]!], wait: true, timeout: '60s' }).concat('-interval', '20ms'));
    assert.deepEqual(summarise('cancel', waited.exitCode, waited.envelope), { severity: 'info', message: `Cancelled: ${ids[1]} cancelled` });
    const again = await run(cancelArgs({ taskIds: [ids[1]!], wait: false }));
    const summary = summarise('cancel', again.exitCode, again.envelope);
    assert.equal(summary.severity, 'error');
    assert.match(summary.message, /^Cancel failed \(HTTP 409\): .*service says: task task-\d+ is cancelled/);
  });

  it('capabilities, tools and translate', async () => {
    const caps = await run(['capabilities']);
    assert.deepEqual(summarise('capabilities', caps.exitCode, caps.envelope), { severity: 'info', message: 'The service speaks adapter.v1, 8 endpoints' });
    const tools = await run(['tools']);
    assert.deepEqual(summarise('tools', tools.exitCode, tools.envelope), { severity: 'info', message: '1 tool: run_tasks' });
    const translated = await run(bodyArgs('translate'), '{"action":"run","tasks":[{"name":"a"}]}');
    assert.deepEqual(summarise('translate', translated.exitCode, translated.envelope), { severity: 'info', message: 'Translated without running anything, 2 trace steps' });
    const acted = await run(bodyArgs('act'), '{"action":"run","tasks":[{"name":"a","duration_ms":5}]}');
    assert.match(summarise('act', acted.exitCode, acted.envelope).message, /^Agent action started 1 task: task-\d+$/);
  });

  it('a missing endpoint and a bad body are errors that say so', async () => {
    service.fault('GET /adapters/tools', { status: 404, body: '404 page not found\n', contentType: 'text/plain' });
    try {
      const r = await run(['tools']);
      const summary = summarise('tools', r.exitCode, r.envelope);
      assert.equal(summary.severity, 'error');
      assert.match(summary.message, /^Tools failed \(HTTP 404\): .*does not provide GET \/adapters\/tools/);
    } finally {
      service.clearFaults();
    }
    const usage = await run(bodyArgs('submit'), '{');
    assert.match(summarise('submit', usage.exitCode, usage.envelope).message, /^Submit failed \(usage\): /);
  });

  it('ensure-running: up, runtime down (exit 5) and service down (exit 4) with hints', async () => {
    const up = await run(checkServiceArgs(true));
    assert.deepEqual(summarise('ensure-running', up.exitCode, up.envelope),
      { severity: 'info', message: `Task service is up at ${service.url} (health 200); runtime ready at ${service.runtimeUrl}` });
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const noRuntime = await run(checkServiceArgs(true), undefined, { SERVICE_RUNTIME_URL: nowhere });
    assert.equal(noRuntime.exitCode, 5);
    assert.deepEqual(summarise('ensure-running', noRuntime.exitCode, noRuntime.envelope),
      { severity: 'warning', message: `Task service is up at ${service.url}; runtime not ready at ${nowhere}` });
    assert.equal(manualHints(noRuntime.envelope).length, 1);
    const down = await run(checkServiceArgs(false), undefined, { SERVICE_URL: nowhere });
    assert.equal(down.exitCode, 4);
    assert.deepEqual(summarise('ensure-running', down.exitCode, down.envelope), { severity: 'error', message: `Task service is unreachable at ${nowhere}` });
    assert.match(manualHints(down.envelope)[0]!, /SERVICE_COMPOSE_DIR/);
  });
});
