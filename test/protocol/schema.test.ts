import { strict as assert } from 'node:assert';
import {
  Budget, CancelNotification, CoversRequest, Description, DescribeRequest, EngineMessage, GraphItem, Graphs, HostMessage,
  ModelForm, ProgressNotification, Question, Response, RunRequest, RunResponse, RunResult, Witness,
} from '../../src/protocol';

const question = { kind: 'holds', subject: 'Demo::Controller', schedule: 'fifo', free: ['schedule'] } as const;
const model = { sources: { library: '2026-04', documents: [{ path: 'a.sysml', text: 'package A;' }] } };

function fullQuestion() {
  return {
    ...question,
    subjectKind: 'state',
    modelSeed: 0,
    draws: 'average',
    clockStep: 0.5,
    condition: { name: 'safe', text: 'x > 0' },
    conditions: [{ name: 'c', features: [{ name: 'x', type: 'Real', unit: 'm', domain: '0..1' }], assertions: [{ name: 'a' }], pinned: [{ name: 'y', text: '1' }] }],
    bindings: [{ name: 'mass', value: 3, unit: 'kg' }],
    inputs: [{ name: 'x' }],
    sweep: { ranges: [{ parameter: 'p', type: 'Real', from: 0, to: 1, step: 0.1, unit: 's' }], sampled: true, samples: 10, seed: 0, runs: 3 },
  };
}

describe('protocol schemas', () => {
  it('accepts every shape the spec allows', () => {
    assert.ok(DescribeRequest.safeParse({ jsonrpc: '2.0', id: 1, method: 'describe', params: { protocols: [1] } }).success);
    assert.ok(CoversRequest.safeParse({ jsonrpc: '2.0', id: 2, method: 'covers', params: { question: fullQuestion(), model } }).success);
    const run = {
      jsonrpc: '2.0', id: 3, method: 'run',
      params: {
        question: fullQuestion(),
        model: { ...model, graphs: { version: 1, subject: 'S', actions: [{ name: 'a', kind: 'action', successors: ['b'] }], states: [] } },
        bounds: [{ name: 'depth', limit: 0 }],
        budget: { deadline: '2026-11-22T05:00:00Z', depth: 0, steps: 10, runs: 1, memory: 512, jobs: 2 },
      },
    };
    assert.ok(RunRequest.safeParse(run).success);
    assert.ok(HostMessage.safeParse(run).success);
    assert.ok(CancelNotification.safeParse({ jsonrpc: '2.0', method: 'cancel', params: { id: 3 } }).success);
    assert.ok(ProgressNotification.safeParse({ jsonrpc: '2.0', method: 'progress', params: { id: 3, runs: 0, depth: 1, steps: 2, text: 't' } }).success);
    assert.ok(Description.safeParse({
      name: 'e', version: '1', protocol: 1, answers: ['holds'], subjects: ['state'], bounds: ['depth'], witness: 'schedule',
      model: ['sources', 'graphs:1', 'rdf', 'graphs:12'], authority: 'not covered', concurrent: false,
    }).success);
    const result = {
      claim: 'violated', strength: 'witnessed', bounds: [{ name: 'depth', limit: 5, reached: true }],
      witness: { schedules: ['step 1: t1@a first of t1@a'], at: 1, feature: 'x', inputs: [{ name: 'x', value: true }] },
      executions: [{}], reason: 'r', values: [{ name: 'v', value: 'text' }], inputs: [{ name: 'x', type: 'Real', sort: 's', domain: 'd', free: true, optional: false, value: '1' }],
      assumptions: ['a'], elapsed: 0,
    };
    assert.ok(RunResponse.safeParse({ jsonrpc: '2.0', id: 3, result }).success);
    assert.ok(Response.safeParse({ jsonrpc: '2.0', id: 3, result: { covers: false, reason: 'no' } }).success);
    assert.ok(EngineMessage.safeParse({ jsonrpc: '2.0', id: 9, error: { code: 'budget', message: 'cancelled' } }).success);
    assert.ok(Budget.safeParse({ deadline: '2026-11-22T05:00:00.123+02:00' }).success);
  });

  it('rejects unknown properties everywhere but inside graph items', () => {
    assert.equal(Question.safeParse({ ...question, extra: 1 }).success, false);
    assert.equal(Witness.safeParse({ schedules: [], foo: 1 }).success, false);
    assert.equal(RunResult.safeParse({ claim: 'holds', strength: 'proved', why: 'x' }).success, false);
    assert.equal(DescribeRequest.safeParse({ jsonrpc: '2.0', id: 1, method: 'describe', params: { protocols: [1] }, extra: true }).success, false);
    assert.equal(CancelNotification.safeParse({ jsonrpc: '2.0', method: 'cancel', params: { id: 1, reason: 'x' } }).success, false);
    assert.equal(Graphs.safeParse({ version: 1, subject: 's', other: [] }).success, false);
    assert.ok(GraphItem.safeParse({ name: 'a', kind: 'k', anything: { deep: 1 } }).success);
  });

  it('rejects missing required fields', () => {
    assert.equal(Description.safeParse({ name: 'e', version: '1', answers: ['holds'] }).success, false);
    assert.equal(Question.safeParse({ kind: 'holds', subject: 's', free: [] }).success, false);
    assert.equal(RunResult.safeParse({ claim: 'holds' }).success, false);
    assert.equal(DescribeRequest.safeParse({ jsonrpc: '2.0', id: 1, method: 'describe' }).success, false);
    assert.equal(Description.safeParse({ name: '', version: '1', protocol: 1, answers: ['holds'] }).success, false);
    assert.equal(Description.safeParse({ name: 'e', version: '1', protocol: 1, answers: [] }).success, false);
  });

  it('rejects wrong enum values', () => {
    assert.equal(Question.safeParse({ ...question, kind: 'prove' }).success, false);
    assert.equal(RunResult.safeParse({ claim: 'maybe', strength: 'proved' }).success, false);
    assert.equal(RunResult.safeParse({ claim: 'holds', strength: 'certain' }).success, false);
    assert.equal(Question.safeParse({ ...question, free: ['time'] }).success, false);
    assert.equal(EngineMessage.safeParse({ jsonrpc: '2.0', id: 1, error: { code: 'oops', message: 'm' } }).success, false);
  });

  it('rejects id 0, negative and fractional ids', () => {
    for (const id of [0, -1, 1.5]) {
      assert.equal(DescribeRequest.safeParse({ jsonrpc: '2.0', id, method: 'describe', params: { protocols: [1] } }).success, false, `id ${id}`);
      assert.equal(ProgressNotification.safeParse({ jsonrpc: '2.0', method: 'progress', params: { id } }).success, false, `progress id ${id}`);
    }
  });

  it('rejects a response with both result and error, or neither', () => {
    assert.equal(Response.safeParse({ jsonrpc: '2.0', id: 1, result: { covers: true }, error: { code: 'internal', message: 'x' } }).success, false);
    assert.equal(Response.safeParse({ jsonrpc: '2.0', id: 1 }).success, false);
  });

  it('rejects bad model forms', () => {
    for (const form of ['graphs:0', 'graphs:01', 'graphs:', 'graphs:1.5', 'Sources', 'rdf ', 'graphs:-1', '']) {
      assert.equal(ModelForm.safeParse(form).success, false, form);
    }
  });

  it('rejects a wrong jsonrpc version and a deadline that is not absolute RFC 3339', () => {
    assert.equal(CancelNotification.safeParse({ jsonrpc: '1.0', method: 'cancel', params: { id: 1 } }).success, false);
    assert.equal(Budget.safeParse({ deadline: '60' }).success, false);
    assert.equal(Budget.safeParse({ deadline: '2026-11-22T05:00:00' }).success, false);
    assert.equal(Budget.safeParse({ depth: -1 }).success, false);
  });
});
