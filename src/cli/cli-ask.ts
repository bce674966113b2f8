// Every `assay` command but `parse`: asking engines a question. Its own bundle (dist/cli-ask.js, built
// by scripts/build.mjs), loaded by main.ts only when a question is asked: dist/cli-main.js, which every
// `assay parse` reads and compiles, then holds only the parser and the resolver (~0.5 MB instead of
// ~1.7 MB with the host, the protocol's schemas and their packages).
import { join } from 'node:path';
import { runAskCommand } from './ask';
import { WorkerModel } from '../host/worker-model';

/** Runs a question's command line; `dist` is the folder of model-worker.js. */
export async function runQuestionCommand(argv: string[], dist: string): Promise<number> {
  // The SysML front end gives routing the subject's kind and re-checks behaviour witnesses by replay,
  // on a worker thread: the deadline and Ctrl-C bound the host's own parsing and replay too.
  const model = new WorkerModel(join(dist, 'model-worker.js'));
  model.warm();
  try {
    return await runAskCommand(argv, { modelIndex: model, witnessChecker: model });
  } finally {
    await model.dispose();
  }
}
