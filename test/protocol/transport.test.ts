import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import {
  EngineError, EngineRequestError, connectToEngine, serveEngine, LineSplitter,
  type EngineHandlers, type ProgressParams, type Question, type RunParams,
} from '../../src/protocol';

const question: Question = { kind: 'holds', subject: 'S', schedule: 'fifo', free: [] };
const runParams: RunParams = { question, model: {}, bounds: [], budget: {} };

function pair(handlers: Partial<EngineHandlers>) {
  const toEngine = new PassThrough();
  const toHost = new PassThrough();
  const logs: string[] = [];
  const full: EngineHandlers = {
    describe: () => ({ name: 'e', version: '1', protocol: 1, answers: ['holds'] }),
    covers: () => ({ covers: true }),
    run: () => ({ claim: 'holds', strength: 'proved' }),
    ...handlers,
  };
  const server = serveEngine(full, { input: toEngine, output: toHost, log: (t) => logs.push(t) });
  const sent: string[] = [];
  const host = connectToEngine(toHost, toEngine, { trace: (d, l) => d === 'send' && sent.push(l) });
  return { host, server, logs, sent, toEngine, toHost };
}

/** A host connection fed by hand: `say` writes engine lines. */
function scripted() {
  const toEngine = new PassThrough();
  const toHost = new PassThrough();
  const written: unknown[] = [];
  toEngine.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) written.push(JSON.parse(line));
  });
  const host = connectToEngine(toHost, toEngine, { maxLineBytes: 1024 });
  const faults: string[] = [];
  const warnings: string[] = [];
  host.onFault((v) => faults.push(v.reason));
  host.onWarning((w) => warnings.push(w));
  const say = (value: unknown) => toHost.write((typeof value === 'string' ? value : JSON.stringify(value)) + '\n');
  return { host, written, say, faults, warnings, toHost };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('protocol transport', () => {
  it('round-trips describe, covers and run with wire ids from 1', async () => {
    const { host, sent, server } = pair({});
    const d = host.request('describe', { protocols: [1] });
    assert.equal((await d.result).name, 'e');
    assert.equal(d.id, 1);
    assert.deepEqual((await host.request('covers', { question, model: {} }).result), { covers: true });
    const r = host.request('run', runParams);
    assert.equal(r.id, 3);
    assert.equal((await r.result).claim, 'holds');
    assert.deepEqual(sent.map((l) => JSON.parse(l).id), [1, 2, 3]);
    host.dispose();
    await server.closed;
  });

  it('delivers progress to the request it names and cancels with the protocol cancel notification', async () => {
    const { host, sent, server } = pair({
      run: async (_params, request) => {
        request.progress({ steps: 1, text: 'first' });
        await new Promise<void>((resolve) => request.token.onCancellationRequested(() => resolve()));
        throw new EngineError('budget', 'cancelled by the host');
      },
    });
    const progress: ProgressParams[] = [];
    const run = host.request('run', runParams, (p) => progress.push(p));
    while (progress.length === 0) await tick();
    assert.deepEqual(progress, [{ id: run.id, steps: 1, text: 'first' }]);
    assert.equal(server.runningCount, 1);
    run.cancel();
    await assert.rejects(run.result, (e: EngineRequestError) => e.failure === 'error' && e.code === 'budget' && /cancelled/.test(e.message));
    const cancel = sent.map((l) => JSON.parse(l)).find((m) => m.method === 'cancel');
    assert.deepEqual(cancel, { jsonrpc: '2.0', method: 'cancel', params: { id: run.id } });
    assert.ok(!sent.some((l) => l.includes('$/cancelRequest')));
    await tick();
    assert.equal(server.runningCount, 0, 'the id→token entry is removed when the request ends');
    host.dispose();
  });

  it('engine side: an invalid result becomes error internal naming the path; thrown errors become internal', async () => {
    const logs: string[] = [];
    const { host } = pair({
      run: () => ({ claim: 'holds', strength: 'sure' }) as never,
      covers: () => { throw new Error('boom'); },
    });
    await assert.rejects(host.request('run', runParams).result, (e: EngineRequestError) => e.code === 'internal' && /result\.strength/.test(e.message));
    await assert.rejects(host.request('covers', { question, model: {} }).result, (e: EngineRequestError) => e.code === 'internal' && /boom/.test(e.message));
    void logs;
    host.dispose();
  });

  it('engine side: an invalid request is answered with unsupported and the zod path, without calling the handler', async () => {
    const toEngine = new PassThrough();
    const toHost = new PassThrough();
    let called = false;
    serveEngine({ describe: () => { called = true; return { name: 'e', version: '1', protocol: 1, answers: ['holds'] }; }, covers: () => ({ covers: true }), run: () => ({ claim: 'none', strength: 'observed' }) }, { input: toEngine, output: toHost, log: () => {} });
    const lines: any[] = [];
    toHost.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))));
    toEngine.write('{"jsonrpc":"2.0","id":4,"method":"describe","params":{"protocols":[]}}\n');
    toEngine.write('{"jsonrpc":"2.0","id":5,"method":"prove","params":{}}\n');
    toEngine.write('not json\n');
    await tick();
    assert.equal(called, false);
    assert.equal(lines[0].id, 4);
    assert.equal(lines[0].error.code, 'unsupported');
    assert.match(lines[0].error.message, /params\.protocols/);
    assert.deepEqual(lines[1], { jsonrpc: '2.0', id: 5, error: { code: 'unsupported', message: 'unknown method "prove"' } });
    assert.equal(lines.length, 2);
  });

  it('engine side: a cancel in the same chunk as its run reaches the run; a burst of answers leaves in one write', async () => {
    const toEngine = new PassThrough();
    const toHost = new PassThrough();
    let seen: boolean | undefined;
    const server = serveEngine({
      describe: () => ({ name: 'e', version: '1', protocol: 1, answers: ['holds'] }),
      covers: (params) => ({ covers: params.question.subject === 'yes' }),
      run: async (_params, request) => {
        // A CPU-bound run yields once; by then the cancel read after it must have reached its token.
        await new Promise(setImmediate);
        seen = request.token.isCancellationRequested;
        throw new EngineError('budget', 'cancelled by the host');
      },
    }, { input: toEngine, output: toHost, log: () => {} });
    const chunks: string[] = [];
    toHost.on('data', (c: Buffer) => chunks.push(c.toString()));
    const covers = (id: number, subject: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'covers', params: { question: { ...question, subject }, model: {} } });
    toEngine.write([
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'run', params: runParams }),
      JSON.stringify({ jsonrpc: '2.0', method: 'cancel', params: { id: 1 } }),
      covers(2, 'yes'), covers(3, 'no'), covers(4, 'yes'),
    ].join('\n') + '\n');
    await tick();
    assert.equal(seen, true);
    const lines = chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.deepEqual(lines.slice(0, 3).map((m) => [m.id, m.result.covers]), [[2, true], [3, false], [4, true]]);
    assert.equal(chunks[0]!.split('\n').filter(Boolean).length, 3, 'the three covers answers share one write');
    assert.deepEqual(lines[3], { jsonrpc: '2.0', id: 1, error: { code: 'budget', message: 'cancelled by the host' } });
    assert.equal(server.runningCount, 0);
    toEngine.end();
    await server.closed;
  });

  it('engine side: answers wait for a congested output; a cancel for an ended request is ignored', async () => {
    const toEngine = new PassThrough();
    const toHost = new PassThrough({ highWaterMark: 64 });
    const logs: string[] = [];
    serveEngine({
      describe: () => ({ name: 'e', version: '1', protocol: 1, answers: ['holds'] }),
      covers: () => ({ covers: true, reason: 'x'.repeat(100) }),
      run: () => ({ claim: 'holds', strength: 'proved' }),
    }, { input: toEngine, output: toHost, log: (t) => logs.push(t) });
    for (let id = 1; id <= 50; id++) toEngine.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'covers', params: { question, model: {} } }) + '\n');
    toEngine.write(JSON.stringify({ jsonrpc: '2.0', method: 'cancel', params: { id: 3 } }) + '\n');
    await tick();
    // Nobody reads yet: the answers are held by the stream, none lost.
    const lines: any[] = [];
    toHost.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))));
    await tick();
    assert.deepEqual(lines.map((m) => m.id), Array.from({ length: 50 }, (_, i) => i + 1));
    assert.deepEqual(logs, []);
  });

  it('host side: an invalid response fails only its request, naming the zod path and the line', async () => {
    const { host, say, written, faults } = scripted();
    const a = host.request('run', runParams);
    const b = host.request('covers', { question, model: {} });
    await tick();
    assert.deepEqual(written.map((m: any) => m.id), [1, 2]);
    say({ jsonrpc: '2.0', id: 1, result: { claim: 'holds', strength: 'proved', extra: 1 } });
    say({ jsonrpc: '2.0', id: 2, result: { covers: true } });
    await assert.rejects(a.result, (e: EngineRequestError) => e.failure === 'violation' && /invalid run response: result: Unrecognized key: "extra"/.test(e.message) && /line: \{"jsonrpc"/.test(e.message));
    assert.deepEqual(await b.result, { covers: true });
    assert.deepEqual(faults, []);
  });

  it('host side: result and error together fail the request', async () => {
    const { host, say } = scripted();
    const a = host.request('covers', { question, model: {} });
    await tick();
    say({ jsonrpc: '2.0', id: 1, result: { covers: true }, error: { code: 'internal', message: 'x' } });
    await assert.rejects(a.result, /both result and error/);
  });

  it('host side: a line naming no pending request faults the connection and fails every pending request', async () => {
    for (const [line, reason] of [
      ['garbage', /not JSON/],
      [{ jsonrpc: '2.0', id: 99, result: { covers: true } }, /id 99, which was never sent/],
      [{ jsonrpc: '2.0', method: 'describe', id: 1, params: {} }, /sent a request "describe"/],
      ['[1,2]', /not a JSON object/],
      ['x'.repeat(2000), /exceeds the limit of 1024 bytes/],
    ] as const) {
      const { host, say, faults } = scripted();
      const a = host.request('covers', { question, model: {} });
      await tick();
      say(line);
      await assert.rejects(a.result, (e: EngineRequestError) => e.failure === 'fault' && reason.test(e.message));
      assert.equal(faults.length, 1);
      await assert.rejects(host.request('covers', { question, model: {} }).result, (e: EngineRequestError) => e.failure === 'fault');
    }
  });

  it('host side: a duplicate response is named as such', async () => {
    const { host, say, faults } = scripted();
    const a = host.request('covers', { question, model: {} });
    await tick();
    say({ jsonrpc: '2.0', id: 1, result: { covers: true } });
    assert.deepEqual(await a.result, { covers: true });
    say({ jsonrpc: '2.0', id: 1, result: { covers: true } });
    await tick();
    assert.match(faults[0]!, /second response for id 1/);
  });

  it('host side: progress for an unknown id is a warning; invalid progress for a pending id fails that request', async () => {
    const { host, say, warnings, faults } = scripted();
    const a = host.request('run', runParams);
    await tick();
    say({ jsonrpc: '2.0', method: 'progress', params: { id: 42, steps: 1 } });
    await tick();
    assert.match(warnings[0]!, /progress for id 42/);
    say({ jsonrpc: '2.0', method: 'progress', params: { id: 1, steps: -1 } });
    await assert.rejects(a.result, /invalid progress: params\.steps/);
    assert.deepEqual(faults, []);
  });

  it('host side: output ending mid-line or closing fails pending requests clearly', async () => {
    const { host, toHost } = scripted();
    const a = host.request('covers', { question, model: {} });
    await tick();
    toHost.end('{"jsonrpc":"2.0","id":1,');
    await assert.rejects(a.result, /ended in the middle of a line; line: \{"jsonrpc":"2.0","id":1,/);
  });

  it('rejects invalid params before writing anything', async () => {
    const { host, written } = scripted();
    await assert.rejects(host.request('describe', { protocols: [] }).result, /invalid describe params: params\.protocols/);
    await tick();
    assert.equal(written.length, 0);
  });

  it('line splitter: whole lines inside one chunk count their bytes (multibyte, CR) against the limit', () => {
    const lines: string[] = [];
    const over: number[] = [];
    const s = new LineSplitter({ line: (l) => lines.push(l), overlong: (b) => over.push(b) }, 3);
    s.push(Buffer.from('x\nab\r\n\u20ac\r\n\u20ac\nabcd\n\u00e9\u00e9\nok\nta'));
    s.push(Buffer.from('il\n'));
    assert.deepEqual(lines, ['x', 'ab', '\u20ac', 'ok']);
    assert.deepEqual(over, [4, 4, 4, 4]);
  });

  it('line splitter: handles split chunks, CRLF, overlong lines and a partial tail', () => {
    const lines: string[] = [];
    const over: number[] = [];
    const s = new LineSplitter({ line: (l) => lines.push(l), overlong: (b) => over.push(b) }, 10);
    s.push(Buffer.from('ab'));
    s.push(Buffer.from('c\r\nde'));
    s.push(Buffer.from('f\n0123456789'));
    s.push(Buffer.from('0123\nok\npart'));
    assert.deepEqual(lines, ['abc', 'def', 'ok']);
    assert.deepEqual(over, [14]);
    assert.equal(s.takePending(), 'part');
  });
});
