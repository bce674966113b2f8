// The two stores the feed tests run on: a fresh SQLite file or a fresh Postgres database each, with a
// direct connection for looking at (or breaking) what the server stored.
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { postgres, tempDir } from './helpers';

export interface TestStore {
  url: string;
  /** Runs SQL on the store directly (`$1` placeholders on both). */
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  /** Call in a mocha `before`: a new, empty store (skips the suite when Postgres is unavailable). */
  create(context: Mocha.Context): Promise<TestStore>;
}

export const STORES: StoreKind[] = [
  {
    name: 'sqlite',
    async create() {
      const url = `sqlite:${join(tempDir(), 'feed.db')}`;
      return {
        url,
        async sql(text, params = []) {
          const db = new BetterSqlite3(url.slice('sqlite:'.length));
          try {
            const ordered: unknown[] = [];
            const stmt = db.prepare(text.replace(/\$(\d+)/g, (_m, n: string) => (ordered.push(params[Number(n) - 1]), '?')));
            return stmt.reader ? (stmt.all(...ordered) as Record<string, unknown>[]) : (stmt.run(...ordered), []);
          } finally {
            db.close();
          }
        },
      };
    },
  },
  {
    name: 'postgres',
    async create(context) {
      const cluster = await postgres(context);
      const url = await cluster.newDatabase();
      return {
        url,
        async sql(text, params = []) {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            return (await client.query(text, params)).rows as Record<string, unknown>[];
          } finally {
            await client.end();
          }
        },
      };
    },
  },
];
