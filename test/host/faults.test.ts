// Every misbehaving fixture engine ends in a clear, specific outcome; nothing hangs; no process is left.
import { strict as assert } from 'node:assert';
import { Host, type HostOptions, type RunOutcome } from '../../src/host';
import type { Question } from '../../src/protocol';
import { PidTracker, fixtureEntry } from './fixture-engines';

const question: Question = { kind: 'holds', subject: 'Demo::S', schedule: 'fifo', free: [] };
const documents = [{ path: 'demo.sysml', text: 'package Demo;' }];

describe('host: misbehaving engines', function () {
  this.timeout(15000);
  let pids: PidTracker;
  let host: Host | undefined;
  let logs: string[];

  beforeEach(() => {
    pids = new PidTracker();
    logs = [];
  });
  afterEach(async () => {
    await host?.shutdown();
    host = undefined;
    await pids.assertNoneRunning();
  });

  function start(file: string, options: Partial<HostOptions> & { env?: Record<string, string>; config?: unknown } = {}): Host {
    const { env, config, ...rest } = options;
    host = new Host({
      entries: [fixtureEntry(file, pids, { ...(env ? { env } : {}), ...(config !== undefined ? { config } : {}) })],
      cancelGraceMs: 300,
      startTimeoutMs: 3000,
      shutdownGraceMs: 300,
      ...rest,
    });
    host.onLog(({ engine, text }) => logs.push(`${engine}: ${text}`));
    return host;
  }

  async function ask(file: string, options: Parameters<typeof start>[1] = {}, budget = {}): Promise<RunOutcome> {
    return start(file, options).ask({ question, documents, budget }).settled;
  }

  function expectStatus(outcome: RunOutcome, status: RunOutcome['status'], pattern?: RegExp): void {
    assert.equal(outcome.status, status, JSON.stringify(outcome).slice(0, 500));
    if (pattern) {
      const text = 'message' in outcome ? outcome.message : 'reasons' in outcome ? outcome.reasons.map((r) => r.reason).join(' | ') : JSON.stringify(outcome);
      assert.match(text, pattern);
    }
  }

  it('exits before describe: not covered, naming the exit code and the stderr line', async () => {
    const outcome = await ask('exits-before-describe.js');
    expectStatus(outcome, 'not covered', /exited with code 3 before answering describe; its stderr ends with:\nfixture: cannot open license file/);
  });

  it('wrong describe: the engine is not used and every differing field is named', async () => {
    const outcome = await ask('wrong-describe.js', {
      entries: [fixtureEntry('wrong-describe.js', pids, { entry: { version: '1.0.0', answers: ['holds', 'evaluate'], protocol: 1 } })],
    });
    expectStatus(outcome, 'not covered', /differs from its entry in 3 fields: name: entry says "wrong-describe", engine says "impostor"; version: entry says "1\.0\.0", engine says "9\.9\.9"; answers: entry says \[holds, evaluate\], engine says \[holds\]/);
    assert.equal(host!.engines[0]!.status, 'refused');
  });

  it('crash mid-run: error naming the exit and the exception on stderr', async () => {
    const events: string[] = [];
    const h = start('crash-mid-run.js');
    h.onEvent((e) => events.push(e.type));
    const outcome = await h.ask({ question, documents }).settled;
    expectStatus(outcome, 'error', /exited with code 1 before answering run; its stderr ends with:[\s\S]*segment table corrupted/);
    assert.deepEqual(events, ['queued', 'started', 'progress', 'settled']);
  });

  it('crash mid-run: the engine is restarted on the next use', async () => {
    const h = start('well-behaved.js', { config: {} });
    assert.equal((await h.ask({ question, documents }).settled).status, 'answered');
    const first = h.engines[0]!.pid!;
    await h.engines[0]!.kill('test kills it');
    assert.equal((await h.ask({ question, documents }).settled).status, 'answered');
    assert.notEqual(h.engines[0]!.pid, first);
  });

  it('non-JSON line: error quoting the line; the engine is stopped', async () => {
    const outcome = await ask('non-json-line.js');
    expectStatus(outcome, 'error', /broke the protocol: the line is not JSON; line: Loading solver… done/);
  });

  it('binary garbage: error, no crash', async () => {
    expectStatus(await ask('binary-garbage.js'), 'error', /broke the protocol/);
  });

  it('schema-violating response: fails only that run, with the zod path; the engine keeps working', async () => {
    const h = start('schema-violation.js');
    const outcome = await h.ask({ question, documents }).settled;
    expectStatus(outcome, 'error', /broke the protocol answering run: invalid run response: result\.claim: Invalid option[\s\S]*result: Unrecognized key: "confidence"[\s\S]*line: \{/);
    assert.equal(h.engines[0]!.status, 'ready');
  });

  it('response with both result and error: error', async () => {
    expectStatus(await ask('result-and-error.js'), 'error', /both result and error/);
  });

  it('response with an unknown id: error naming the id', async () => {
    expectStatus(await ask('unknown-id.js'), 'error', /a response for id 1003, which was never sent/);
  });

  it('duplicate response: the first answer stands, the duplicate is reported and the engine stopped', async () => {
    const outcome = await ask('duplicate-response.js');
    expectStatus(outcome, 'answered');
    assert.equal(outcome.status === 'answered' && outcome.result.claim, 'holds');
    const until = Date.now() + 2000;
    while (!logs.some((l) => /second response for id 3/.test(l)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.ok(logs.some((l) => /second response for id 3, which was already answered/.test(l)), logs.join('\n'));
  });

  it('10 MB line: accepted within the limit', async () => {
    const outcome = await ask('huge-line.js');
    expectStatus(outcome, 'answered');
    assert.equal(outcome.status === 'answered' && outcome.result.reason?.length, 10 * 1024 * 1024);
  });

  it('10 MB line: over a smaller limit it fails clearly without buffering it', async () => {
    expectStatus(await ask('huge-line.js', { maxLineBytes: 1024 * 1024 }), 'error', /a line of 104\d{5} bytes exceeds the limit of 1048576 bytes/);
  });

  it('stderr flood: answered; only the tail of stderr is kept', async () => {
    const h = start('stderr-flood.js', { stderrLimit: 4096 });
    const outcome = await h.ask({ question, documents }).settled;
    expectStatus(outcome, 'answered');
    const tail = h.engines[0]!.stderrTail(100000);
    assert.ok(tail.length < 5000, `stderr kept: ${tail.length}`);
    assert.match(tail, /earlier characters dropped/);
    assert.match(tail, /last words on stderr/);
  });

  it('ignores cancel: cancelled after the grace period, the process killed', async () => {
    const h = start('ignores-cancel.js');
    const run = h.ask({ question, documents });
    h.onEvent((e) => e.type === 'started' && setTimeout(() => run.cancel(), 50));
    const outcome = await run.settled;
    expectStatus(outcome, 'cancelled', /did not answer the cancel within 0\.3 s and was stopped/);
  });

  it('never answers: the deadline cancels it and it is killed after the grace period', async () => {
    const outcome = await ask('never-answers.js', {}, { deadline: 1.5 });
    expectStatus(outcome, 'budget', /did not answer the cancel sent at the deadline of 1\.5 s within 0\.3 s and was stopped/);
  });

  it('answers after cancel: the run settles with the engine answer', async () => {
    const h = start('answers-after-cancel.js');
    const run = h.ask({ question, documents });
    h.onEvent((e) => e.type === 'started' && run.cancel());
    const outcome = await run.settled;
    expectStatus(outcome, 'answered');
    assert.equal(outcome.status === 'answered' && outcome.result.reason, 'answered after cancel');
  });

  it('progress for an unknown id: ignored with a warning, the run answers', async () => {
    const outcome = await ask('progress-unknown-id.js');
    expectStatus(outcome, 'answered');
    assert.ok(logs.some((l) => /ignored progress for id 4242/.test(l)), logs.join('\n'));
  });

  it('progress for unknown ids, 500 of them: one warning for the engine, not one per message', async () => {
    const outcome = await ask('progress-unknown-id.js', { env: { FIXTURE_COUNT: '500' } });
    expectStatus(outcome, 'answered');
    const warnings = logs.filter((l) => /ignored progress for id 4242/.test(l));
    assert.equal(warnings.length, 1, logs.join('\n'));
    assert.match(warnings[0]!, /further progress for unknown ids from this engine is ignored without a warning/);
  });

  it('partial line then exit: error quoting the partial line', async () => {
    expectStatus(await ask('partial-line-exit.js'), 'error', /ended in the middle of a line; line: \{"jsonrpc":"2\.0","id":3,"result":\{"claim":"ho/);
  });

  it('slow start: waited for within the start timeout', async () => {
    expectStatus(await ask('slow-start.js', { env: { FIXTURE_START_MS: '600' } }), 'answered');
  });

  it('slow start beyond the start timeout: not covered, naming the timeout', async () => {
    expectStatus(await ask('slow-start.js', { env: { FIXTURE_START_MS: '1500' }, startTimeoutMs: 300 }), 'not covered', /did not answer describe within 0\.3 s/);
  });

  it('engine sends a request: error naming it', async () => {
    expectStatus(await ask('sends-request.js'), 'error', /sent a request "describe", which the protocol does not allow/);
  });

  it('exits on covers: not covered, naming the exit', async () => {
    expectStatus(await ask('exits-on-covers.js'), 'not covered', /exited with code 0 before answering covers/);
  });

  it('covers never answered: not covered after the start timeout, the engine stopped', async () => {
    expectStatus(await ask('covers-hangs.js', { startTimeoutMs: 1000 }), 'not covered', /was stopped: it did not answer covers within 1 s/);
  });

  it('covers slower than the start timeout but within the deadline: answered (the covers wait follows the budget)', async () => {
    expectStatus(await ask('well-behaved.js', { startTimeoutMs: 2000, config: { coversDelayMs: 4000 } }, { deadline: 30 }), 'answered');
  });

  it('covers never answered with a deadline: out of budget at the deadline, the engine stopped', async () => {
    expectStatus(await ask('covers-hangs.js', { startTimeoutMs: 2000 }, { deadline: 4 }), 'budget', /the deadline of 4 s passed while the engines were started and asked whether they cover it, before an engine started the run/);
  });

  it('command not found: not covered, naming the command', async () => {
    expectStatus(await ask('x', { entries: [{ name: 'ghost', command: '/nonexistent/engine-binary' }] }), 'not covered', /cannot start: command "\/nonexistent\/engine-binary" was not found/);
  });
});
