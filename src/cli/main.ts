#!/usr/bin/env node
// `assay` — the command-line host. Dispatches to the sub-programs; each returns its exit code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runParseCommand } from './parse';

/** The version in package.json: read at run time (dist/ or src/cli/ sit one or two folders below it),
 *  so the bundle stays small and nothing else is loaded for `assay --version`. */
function version(): string {
  for (const up of [['..'], ['..', '..']]) {
    try {
      const pkg = JSON.parse(readFileSync(join(__dirname, ...up, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'assay' && typeof pkg.version === 'string') return pkg.version;
    } catch { /* not here: look one folder higher */ }
  }
  throw new Error('package.json of assay not found next to the CLI');
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'parse') return runParseCommand(rest);
  if ((first === '--version' || first === '-V') && rest.length === 0) {
    process.stdout.write(`assay ${version()}\n`);
    return 0;
  }
  // Loaded only for a question, from its own bundle (dist/cli-ask.js; ./cli-ask.ts from the sources):
  // `assay parse` then neither reads nor compiles the modules the host needs to ask engines (processes,
  // worker threads, HTTP for offload, crypto, the protocol's schemas).
  // A require, not import(): the loader runs this bundle as a script, where import() has no loader.
  const { runQuestionCommand } = require('./cli-ask') as typeof import('./cli-ask');
  return runQuestionCommand(argv, __dirname);
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
    // `assay parse` has no work left once its output is written (its writes are synchronous, and on
    // Linux so are a pipe's or a file's stdout): leave at once. Ending naturally, Node first runs the
    // tasks V8 posted, such as finishing the incremental marking of the heap that the run began
    // (a full mark-compact of ~20 MB that nothing needs). Output still queued (a TTY elsewhere)
    // keeps the natural end, so that nothing written is lost.
    if (process.argv[2] === 'parse' && process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`assay: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
