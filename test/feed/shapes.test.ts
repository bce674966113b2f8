// The shared wire shapes: a real answer of the reference engine (through the assay CLI) becomes a post's
// run with one function, and the content hash tells model texts apart.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelHash, PostCreate, runOfRecord } from '../../src/feed/shapes';
import { ROOT } from './helpers';

describe('feed: shared shapes', () => {
  it('maps an answered run record to a run a post accepts, with the model texts and their hash', function () {
    this.timeout(60_000);
    const model = 'test/fixtures/models/behavior/traffic-light.sysml';
    const cli = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'holds', 'TrafficLight::TimedCrossing', '--model', model, '-schedule', 'all', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const answer = JSON.parse(cli.stdout);
    const documents = [{ path: model, text: readFileSync(join(ROOT, model), 'utf8') }];
    const record = {
      question: answer.question,
      documents,
      outcome: { status: 'answered', engine: answer.engine, result: answer.result, standing: { claimed: answer.result.strength, ...answer.standing } },
      askedAt: Date.UTC(2026, 10, 25, 12),
      elapsedMs: 64.4,
    };
    const run = runOfRecord(record)!;
    assert.equal(run.result.claim, 'violated');
    assert.equal(run.model.hash, modelHash(documents));
    assert.equal(run.askedAt, '2026-11-25T12:00:00.000Z');
    assert.equal(run.elapsedMs, 64);
    const post = PostCreate.parse({ title: 'TimedCrossing is violated', run });
    assert.deepEqual(post.run, run);
    assert.equal(runOfRecord({ ...record, outcome: { status: 'cancelled' } }), undefined);
  });

  it('hashes documents so that moving text between path and content changes the hash', () => {
    const a = modelHash([{ path: 'a.sysml', text: 'part def X;' }]);
    assert.equal(a, modelHash([{ path: 'a.sysml', text: 'part def X;' }]));
    assert.notEqual(a, modelHash([{ path: 'a.sysmlp', text: 'art def X;' }]));
    assert.notEqual(a, modelHash([{ path: 'a.sysml', text: 'part def X; ' }]));
    assert.notEqual(
      modelHash([{ path: 'a', text: 'b' }, { path: 'c', text: 'd' }]),
      modelHash([{ path: 'c', text: 'd' }, { path: 'a', text: 'b' }]),
    );
  });
});
