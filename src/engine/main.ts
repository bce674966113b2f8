// The reference engine process (`dist/engine.js`): Engine Protocol v1 on stdin/stdout.
// The same bundle is started again as a worker thread by the sweep pool (pool.ts); that branch only
// computes rows.
import { isPoolWorker, serveWorker } from './pool';
import { ENGINE_QUESTIONS, ENGINE_TASKS } from './questions';
import { startEngineServer } from './server';
import { unloadZ3 } from './solver';

if (isPoolWorker()) {
  serveWorker(ENGINE_TASKS);
} else {
  // A bug must cost one answer, not the engine: log what escaped every handler and keep serving.
  process.on('uncaughtException', (e) => process.stderr.write(`assay-reference: uncaught: ${e.stack ?? e.message}\n`));
  process.on('unhandledRejection', (e) => process.stderr.write(`assay-reference: unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`));
  // A host that goes away mid-write must not take the engine down with EPIPE before it notices stdin closed.
  process.stdout.on('error', () => undefined);
  const server = startEngineServer(ENGINE_QUESTIONS);
  void server.closed.then(async () => {
    // The host closed our input: finish the answers already under way (briefly), then leave explicitly,
    // since z3's threads and sweep workers would keep the process alive.
    await new Promise((r) => setTimeout(r, 100));
    const until = Date.now() + 2000;
    while (server.runningCount > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    await new Promise<void>((r) => process.stdout.write('', () => r()));
    await unloadZ3().catch(() => undefined);
    process.exit(0);
  });
}
