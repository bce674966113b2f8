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
  const { port } = await server.listen();

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

main().catch((error: unknown) => {
  process.stderr.write(`assay-feed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
