#!/usr/bin/env node
// `assay` — the command-line host. Dispatches to the sub-programs; each returns its exit code.
import { runParseCommand } from './parse';
import { join } from 'node:path';

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'parse') return runParseCommand(rest);
  // Loaded only for a question: `assay parse` then starts without the modules the host needs to
  // ask engines (processes, worker threads, HTTP for offload, crypto), which Node takes ~40 ms to load.
  const [{ runAskCommand }, { WorkerModel }] = await Promise.all([import('./ask'), import('../host/worker-model')]);
  // The SysML front end gives routing the subject's kind and re-checks behaviour witnesses by replay,
  // on a worker thread: the deadline and Ctrl-C bound the host's own parsing and replay too.
  const model = new WorkerModel(join(__dirname, 'model-worker.js'));
  model.warm();
  try {
    return await runAskCommand(argv, { modelIndex: model, witnessChecker: model });
  } finally {
    await model.dispose();
  }
}

// A reader that leaves before the output is all written (`assay parse … | head`) is not an error:
// stop quietly with 141, the status of a process a shell's pipe stopped with SIGPIPE (engines exit
// when their input closes with this process). Without this Node threw EPIPE with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`assay: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
