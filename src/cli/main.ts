#!/usr/bin/env node
// `assay` — the command-line host. Dispatches to the sub-programs; each returns its exit code.
import { runParseCommand } from './parse';
import { runAskCommand } from './ask';
import { SysmlModel } from '../host/sysml-model';

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'parse') return runParseCommand(rest);
  // The SysML front end gives routing the subject's kind and re-checks behaviour witnesses by replay.
  const model = new SysmlModel();
  return runAskCommand(argv, { modelIndex: model, witnessChecker: model });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`assay: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
