#!/usr/bin/env node
// `assay-adapter` — the adapter.v1 command line. Every invocation prints exactly one JSON envelope on
// stdout and exits with the contract's code; all diagnostics go to stderr.
import { format } from 'node:util';
import { runAdapter } from './commands';
import { AdapterFailure, failure, unexpectedFailure, type Outcome } from './outcome';
import { redactCredentials } from './config';

// Nothing but the envelope may reach stdout, whatever a dependency logs.
for (const method of ['log', 'info', 'debug'] as const) {
  console[method] = (...args: unknown[]) => process.stderr.write(redactCredentials(`${format(...args)}\n`));
}

let emitted = false;
function emit(outcome: Outcome): void {
  if (emitted) return;
  // Written out before it counts as emitted: an envelope that cannot be written (a value nested too
  // deeply for JSON.stringify) becomes a failure envelope instead of an empty stdout.
  let line: string;
  try {
    line = JSON.stringify(outcome.envelope);
  } catch (error) {
    outcome = unexpectedFailure(new Error(`the answer cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`));
    line = JSON.stringify(outcome.envelope);
  }
  emitted = true;
  const exit = (): never => process.exit(outcome.exitCode);
  process.stdout.on('error', exit); // e.g. EPIPE: the reader is gone; the exit code still tells
  process.stdout.write(`${redactCredentials(line)}\n`, exit);
}

function emitUnexpected(error: unknown): void {
  process.stderr.write(redactCredentials(`assay-adapter: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`));
  emit(unexpectedFailure(error));
}
process.on('uncaughtException', emitUnexpected);
process.on('unhandledRejection', emitUnexpected);

function readStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

runAdapter(process.argv.slice(2), {
  env: process.env,
  readStdin,
  log: (line) => process.stderr.write(redactCredentials(line.endsWith('\n') ? line : `${line}\n`)),
}).then(emit, (error: unknown) => {
  if (error instanceof AdapterFailure) {
    process.stderr.write(redactCredentials(`assay-adapter: ${error.message}\n`));
    emit(failure(error));
  } else {
    emitUnexpected(error);
  }
});
