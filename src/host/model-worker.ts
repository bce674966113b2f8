// The worker thread behind WorkerModel (worker-model.ts): parses, indexes and replays on a thread of
// its own, so the host's event loop stays free to honour the deadline and Ctrl-C (issue #19, item 5).
// Bundled as dist/model-worker.js. Messages: { id, op, args }; answers { id, value } or { id, error }.
import { parentPort } from 'node:worker_threads';
import type { SourceDocument } from '../protocol';
import { SysmlModel } from './sysml-model';

export type WorkerJob =
  | { id: number; op: 'subjectKindOf'; docs: number; documents?: SourceDocument[]; subject: string }
  | { id: number; op: 'lowerToGraphs'; docs: number; documents?: SourceDocument[]; subject: string }
  | { id: number; op: 'check'; question: unknown; result: unknown; model: unknown };

const model = new SysmlModel();
// The document set the host last named (by number), kept so a second question parses nothing again.
let current: { docs: number; documents: SourceDocument[] } | undefined;

function documentsOf(job: { docs: number; documents?: SourceDocument[] }): SourceDocument[] {
  if (job.documents) current = { docs: job.docs, documents: job.documents };
  if (current?.docs !== job.docs) throw new Error(`the model worker does not hold document set ${job.docs}`);
  return current.documents;
}

parentPort?.on('message', (job: WorkerJob) => {
  void (async () => {
    switch (job.op) {
      case 'subjectKindOf':
        return model.subjectKindOf(job.subject, documentsOf(job));
      case 'lowerToGraphs':
        return model.lowerToGraphs(job.subject, documentsOf(job));
      case 'check':
        return model.check(job.question as never, job.result as never, job.model as never);
    }
  })().then(
    (value) => parentPort!.postMessage({ id: job.id, value }),
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
