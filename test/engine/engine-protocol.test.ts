import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineProcess, modelOf, modelText, question, ROOT, runParams } from './engine-process';

const packageVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('reference engine process: protocol', function () {
  this.timeout(30000);
  let engine: EngineProcess;
  beforeEach(() => {
    engine = new EngineProcess();
  });
  afterEach(async () => {
    await engine.close();
  });

  it('describes itself exactly', async () => {
    const r = await engine.request(1, 'describe', { protocols: [1] });
    assert.deepEqual(r.result, {
      name: 'assay-reference',
      version: packageVersion,
      protocol: 1,
      answers: ['evaluate', 'outcomes', 'holds', 'sensitive', 'satisfiable', 'sweep', 'compute'],
      subjects: ['action', 'analysis', 'attribute', 'calc', 'constraint', 'item', 'occurrence', 'part', 'ref', 'requirement', 'state', 'verification'],
      bounds: ['depth', 'steps', 'runs', 'memory'],
      model: ['sources'],
      authority: 'proved',
      concurrent: true,
    });
  });

  it('refuses a host that does not speak protocol 1', async () => {
    const r = await engine.request(1, 'describe', { protocols: [2] });
    assert.equal(r.error?.code, 'unsupported');
    assert.match(r.error!.message, /protocol 1/);
  });

  it('covers behaviour questions about a declared behaviour, and says why not for an undeclared subject', async () => {
    const text = 'package P { action def A { attribute x : ScalarValues::Integer := 0; first start; then done; } }';
    for (const [id, kind] of [[2, 'outcomes'], [3, 'holds'], [4, 'sensitive']] as const) {
      const yes = await engine.request(id, 'covers', { question: question(kind, 'P::A'), model: modelText('m.sysml', text) });
      assert.equal(yes.result?.covers, true, JSON.stringify(yes));
      const no = await engine.request(id + 100, 'covers', { question: question(kind, 'P::nothing'), model: modelText('m.sysml', text) });
      assert.equal(no.result?.covers, false);
      assert.match(String(no.result?.reason), /P::nothing/);
    }
  });

  it('answers a run about an undeclared subject with error unsupported', async () => {
    const r = await engine.request(5, 'run', runParams(question('holds', 'P::a'), modelText('m.sysml', 'package P;')));
    assert.equal(r.error?.code, 'unsupported');
  });

  it('does not cover a question without the sources model form', async () => {
    const r = await engine.request(6, 'covers', { question: question('evaluate', 'P::a'), model: { graphs: { version: 1, subject: 'P::a' } } });
    assert.deepEqual(r.result, { covers: false, reason: 'this engine reads the sources model form only' });
  });

  it('covers honestly: the unsupported construct and its place, or the reason the subject does not fit', async () => {
    const model = modelOf('unsupported.sysml');
    const covers = async (id: number, kind: string, subject: string, extra: Record<string, unknown> = {}) =>
      (await engine.request(id, 'covers', { question: question(kind, subject, extra), model })).result;
    assert.deepEqual(await covers(10, 'evaluate', 'Odd::fleetSize'), { covers: false, reason: "unsupported.sysml:7:29: 'all' (the extent of a type) is not supported" });
    // Its action's `accept … via cmd` runs only with the behaviour: reading values it is inert.
    assert.deepEqual(await covers(11, 'sweep', 'Odd::Controller', { sweep: { ranges: [], runs: 3, seed: 1 } }), { covers: true });
    assert.deepEqual(await covers(12, 'evaluate', 'Odd::Controller::speed'), { covers: true });
    assert.deepEqual(await covers(13, 'evaluate', 'Odd::Controller::control'), {
      covers: false,
      reason: 'evaluate answers about attributes, calcs, constraints, requirements, and the attributes and constraints of a part or other structure; Odd::Controller::control is an action usage',
    });
    assert.deepEqual(await covers(14, 'evaluate', 'Odd::Nope'), { covers: false, reason: "the subject Odd::Nope is not declared in the model: Odd has no member 'Nope' (its members: Vehicle, Signal, fleetSize, Controller)" });
    // and a run meeting the construct answers unsupported with the same place
    const r = await engine.request(15, 'run', runParams(question('evaluate', 'Odd::fleetSize'), model));
    assert.deepEqual(r.error, { code: 'unsupported', message: "unsupported.sysml:7:29: 'all Vehicle' (the extent of a type) is not supported" });
  });

  it('answers invalid requests with errors and keeps serving', async () => {
    engine.writeLine('this is not json');
    const bad = await engine.request(7, 'run', { question: { kind: 'evaluate' } });
    assert.equal(bad.error?.code, 'unsupported');
    const unknown = await engine.request(8, 'explode', {});
    assert.equal(unknown.error?.code, 'unsupported');
    const r = await engine.request(9, 'describe', { protocols: [1] });
    assert.equal(r.result?.name, 'assay-reference');
    assert.equal(engine.badLines.length, 0, 'every line the engine wrote is JSON');
  });

  it('exits when the host closes its input', async () => {
    await engine.request(1, 'describe', { protocols: [1] });
    assert.equal(await engine.close(), 0);
  });
});
