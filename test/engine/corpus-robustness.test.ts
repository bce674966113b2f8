// Every named element of the corpus's calculation, constraint, requirement and analysis examples, asked
// every question kind this engine answers: each answer is a result, `covers: false` with a reason, or a
// user-facing error (unsupported / budget) — never `internal`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { RunParams } from '../../src/protocol';
import { EngineError } from '../../src/protocol';
import { ENGINE_QUESTIONS } from '../../src/engine/questions';
import { coversQuestion, runQuestion } from '../../src/engine/server';
import { Model } from '../../src/sysml/model/session';
import { unloadZ3 } from '../../src/engine/solver';
import type { ModelElement } from '../../src/sysml/model/model';
import { ROOT } from './engine-process';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'sysml-release-2026-04', 'training');
const FOLDERS = ['30. Calculations', '31. Constraints', '32. Requirements', '33. Analysis'];
const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) } as unknown as CancellationToken;

describe('engine on the corpus examples: no internal errors', function () {
  this.timeout(120000);
  after(() => unloadZ3());

  it('answers every subject and kind with a result, a reason or a user-facing error', async () => {
    const documents = FOLDERS.flatMap((d) => readdirSync(join(CORPUS, d)).map((f) => ({ path: f, text: readFileSync(join(CORPUS, d, f), 'utf8') })));
    const sources = { library: '2026-04', documents };
    const model = new Model(sources);
    const subjects: string[] = [];
    const walk = (e: ModelElement) => {
      if (!e.qualifiedName.includes('<unnamed>')) subjects.push(e.qualifiedName);
      e.members.forEach(walk);
    };
    model.index.roots.forEach(walk);
    assert.ok(subjects.length > 100);
    const tally = new Map<string, number>();
    const internal: string[] = [];
    for (const kind of ['evaluate', 'compute', 'satisfiable', 'sweep'] as const) {
      for (const subject of subjects) {
        const question = { kind, subject, schedule: 'fifo', free: [], ...(kind === 'sweep' ? { sweep: { ranges: [], runs: 2, seed: 1 } } : {}) };
        const params = { question, model: { sources }, bounds: [], budget: { deadline: new Date(Date.now() + 3000).toISOString() } } as RunParams;
        let outcome: string;
        try {
          const c = coversQuestion(ENGINE_QUESTIONS, params);
          if (!c.covers) {
            assert.ok(c.reason && c.reason.length > 0, `${kind} ${subject}: covers false without a reason`);
            outcome = 'not covered';
          } else outcome = (await runQuestion(ENGINE_QUESTIONS, params, { token, progress: () => {} })).claim;
        } catch (e) {
          outcome = e instanceof EngineError ? e.code : 'thrown';
          if (!(e instanceof EngineError) || e.code === 'internal') internal.push(`${kind} ${subject}: ${(e as Error).message}`);
        }
        tally.set(`${kind} ${outcome}`, (tally.get(`${kind} ${outcome}`) ?? 0) + 1);
      }
    }
    assert.deepEqual(internal, []);
    // and a fair share of real answers
    assert.ok((tally.get('evaluate value') ?? 0) >= 10, JSON.stringify([...tally]));
    assert.ok((tally.get('satisfiable satisfiable') ?? 0) >= 5, JSON.stringify([...tally]));
  });
});
