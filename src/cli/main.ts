#!/usr/bin/env node
// `assay` — the command-line host. Dispatches to the sub-programs; each returns its exit code.
import { runParseCommand } from './parse';
import { runAskCommand } from './ask';

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'parse') return runParseCommand(rest);
  return runAskCommand(argv);
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
