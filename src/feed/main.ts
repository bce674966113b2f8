#!/usr/bin/env node
// assay-feed: the team results feed server (docs/feed.md). Settings come from the environment.
import { relative } from 'node:path';
import { ConfigError, readConfig } from './config';
import { createFeedServer } from './server';

async function main(): Promise<void> {
  let config;
  try {
    config = readConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`assay-feed: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const server = await createFeedServer(config);
  let port: number;
  try {
    ({ port } = await server.listen());
  } catch (error) {
    await server.close().catch(() => undefined);
    process.stderr.write(`assay-feed: ${listenFailure(error, config.host, config.port)}\n`);
    process.exit(2);
  }

  const store = config.databaseUrl.startsWith('sqlite:') ? `SQLite file ${config.databaseUrl.slice('sqlite:'.length)}` : 'PostgreSQL';
  const say = (line: string) => process.stderr.write(`assay-feed: ${line}\n`);
  if (server.migrated.includes(1)) say(`first start: created the feed store (${store})`);
  if (typeof config.secretSource === 'object' && 'created' in config.secretSource) {
    say(`JWT_SECRET is not set: created a random signing secret in ${relative(process.cwd(), config.secretSource.created) || config.secretSource.created} (mode 0600); set JWT_SECRET in production`);
  } else if (typeof config.secretSource === 'object') {
    say(`JWT_SECRET is not set: signing with the secret kept in ${relative(process.cwd(), config.secretSource.read)}`);
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  say(`listening on http://${host}:${port} (store: ${store}${config.production ? '' : ', development'})`);
  say(`sign up: curl -X POST http://${host}:${port}/auth/signup -H 'Content-Type: application/json' -d '{"username":"ada","password":"correct horse battery"}'`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: closing`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`assay-feed: closing failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Why the server could not listen, naming the settings to change (PORT, HOST). */
function listenFailure(error: unknown, host: string, port: number): string {
  const code = (error as { code?: string }).code;
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `PORT=${port}: cannot listen on ${where}: the port is in use by another program; choose another PORT (0: any free port)`;
    case 'EACCES':
      return `PORT=${port}: cannot listen on ${where}: permission denied (ports below 1024 need privileges); choose another PORT`;
    case 'EADDRNOTAVAIL':
      return `HOST=${host}: cannot listen on ${where}: no network interface of this machine has that address; use 0.0.0.0, 127.0.0.1 or one of its addresses`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST=${host}: cannot listen on ${where}: not an address or a name this machine resolves`;
    default:
      return `cannot listen on ${where} (HOST, PORT): ${error instanceof Error ? error.message : String(error)}`;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`assay-feed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
