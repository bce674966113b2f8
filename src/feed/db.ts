// The two data stores behind one small interface: SQLite (better-sqlite3, one embedded file, one
// process) and PostgreSQL (pg pool, any number of processes). SQL is written once with $1… placeholders.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

export type Param = string | number | null;
export interface Statement {
  sql: string;
  params?: Param[];
  /** Run this statement only if the predicate holds for the results so far (a delete that found nothing…). */
  onlyIf?: (previous: StatementResult[]) => boolean;
  /**
   * The statement numbers a change (`INSERT INTO changes … RETURNING seq`). Such transactions commit in
   * the order of their numbers, so a reader that has seen a change has seen every one numbered before it.
   */
  numbersChange?: boolean;
}
export interface StatementResult {
  rows: Record<string, unknown>[];
  /** Rows changed (insert, update, delete); 0 for a skipped statement. */
  changes: number;
  skipped?: boolean;
}

export interface Db {
  readonly dialect: 'sqlite' | 'postgres';
  query<T = Record<string, unknown>>(sql: string, params?: Param[]): Promise<T[]>;
  /** Runs the statements in one transaction, in order; rolls all back if one fails. */
  batch(statements: Statement[]): Promise<StatementResult[]>;
  close(): Promise<void>;
  /** The pg pool (the socket.io Postgres adapter shares it); undefined on SQLite. */
  readonly pool?: pg.Pool;
}

/** `$2 … $1 … $2` → `? … ? … ?` with the parameters in the order they appear. */
function positional(sql: string, params: Param[]): { sql: string; params: Param[] } {
  const ordered: Param[] = [];
  const text = sql.replace(/\$(\d+)/g, (_m, n: string) => {
    ordered.push(params[Number(n) - 1] ?? null);
    return '?';
  });
  return { sql: text, params: ordered };
}

export class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  private readonly db: BetterSqlite3.Database;
  private readonly statements = new Map<string, { stmt: BetterSqlite3.Statement; order: (p: Param[]) => Param[] }>();

  /** Held for the process's life: a second server on the same file is refused (see the constructor). */
  private readonly lock: BetterSqlite3.Database | undefined;

  constructor(readonly file: string) {
    // A directory made here is the owner's only: the file holds password hashes.
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // One server per SQLite file: a second one would share the data but not the live channel (its
    // clients would miss the other's posts until they reconnect). An exclusive lock on a file beside the
    // store, held until the process ends (the system releases it even after a crash), keeps it out.
    if (file !== ':memory:') {
      const lock = new BetterSqlite3(`${file}-lock`, { timeout: 0 });
      try {
        lock.pragma('locking_mode = EXCLUSIVE');
        lock.exec('BEGIN EXCLUSIVE');
      } catch (error) {
        lock.close();
        if ((error as { code?: string }).code === 'SQLITE_BUSY') {
          throw new Error(`the SQLite file ${file} is in use by another assay-feed process (an SQLite store serves one process; stop the other, or use PostgreSQL for several)`);
        }
        throw error;
      }
      this.lock = lock;
    }
    this.db = new BetterSqlite3(file);
    this.db.pragma('journal_mode = WAL');
    // FULL: a post answered 201 is on disk. WAL with NORMAL may lose the last commits on power loss.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
  }

  private prepare(sql: string) {
    let entry = this.statements.get(sql);
    if (!entry) {
      const converted = positional(sql, []);
      const stmt = this.db.prepare(converted.sql);
      entry = { stmt, order: (p) => positional(sql, p).params };
      this.statements.set(sql, entry);
    }
    return entry;
  }

  private exec(sql: string, params: Param[] = []): StatementResult {
    const { stmt, order } = this.prepare(sql);
    const bound = order(params);
    if (stmt.reader) {
      const rows = stmt.all(...bound) as Record<string, unknown>[];
      return { rows, changes: rows.length };
    }
    const info = stmt.run(...bound);
    return { rows: [], changes: info.changes };
  }

  async query<T>(sql: string, params?: Param[]): Promise<T[]> {
    return this.exec(sql, params).rows as T[];
  }

  async batch(statements: Statement[]): Promise<StatementResult[]> {
    // better-sqlite3 is synchronous: the whole transaction runs without yielding, so no other request
    // can slip a statement into it.
    const run = this.db.transaction(() => {
      const results: StatementResult[] = [];
      for (const s of statements) {
        if (s.onlyIf && !s.onlyIf(results)) results.push({ rows: [], changes: 0, skipped: true });
        else results.push(this.exec(s.sql, s.params));
      }
      return results;
    });
    return run();
  }

  /** Schema statements (several per string). */
  execScript(sql: string): void {
    this.db.exec(sql);
  }

  async close(): Promise<void> {
    this.db.close();
    this.lock?.close();
  }
}

// BIGINT (int8) columns hold millisecond times and sequence numbers: all well inside 2^53.
pg.types.setTypeParser(20, (value: string) => Number(value));

/** The advisory lock key (per database) that orders change numbers with commits: "assay-fd". */
const CHANGE_ORDER_LOCK = '7022083106482775652'; // bigint, sent as text

export class PostgresDb implements Db {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;

  constructor(url: string, max = 10) {
    this.pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    // Nor may a checked-out one (pg-pool listens for errors on idle clients only): the socket.io
    // adapter keeps one checked out for LISTEN, and a database restart or failover ended the process
    // with an unhandled 'error' (57P01 terminating connection). Its queries still fail, the pool drops
    // it on release, and the adapter listens again on a new one.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  async query<T>(sql: string, params: Param[] = []): Promise<T[]> {
    const result = await this.pool.query(sql, params);
    return result.rows as T[];
  }

  async batch(statements: Statement[]): Promise<StatementResult[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const results: StatementResult[] = [];
      for (const s of statements) {
        if (s.onlyIf && !s.onlyIf(results)) {
          results.push({ rows: [], changes: 0, skipped: true });
          continue;
        }
        // A sequence hands out numbers at insert, not at commit: two processes' transactions could commit
        // 7 before 6, and a client catching up between the two commits would go on from 7 and never see
        // 6. This lock, held to the end of the transaction, orders the numbering with the commits
        // (only the tail of a write waits: numbering is the last statement of each).
        if (s.numbersChange) await client.query('SELECT pg_advisory_xact_lock($1)', [CHANGE_ORDER_LOCK]);
        const r = await client.query(s.sql, s.params ?? []);
        results.push({ rows: r.rows as Record<string, unknown>[], changes: r.rowCount ?? 0 });
      }
      await client.query('COMMIT');
      return results;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** `sqlite:<file>` (relative to the working directory) or `postgres://…` / `postgresql://…`. */
export function openDb(url: string): Db {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    try {
      return new SqliteDb(file);
    } catch (error) {
      // SQLite's own words ("unable to open database file", "disk I/O error") do not say which file.
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(message.includes(file) ? message : `the SQLite file ${file}: ${message}`);
    }
  }
  if (/^postgres(ql)?:\/\//.test(url)) return new PostgresDb(url);
  // The URL may hold a password: name only its scheme.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new Error(`DATABASE_URL: ${scheme ? `the scheme "${scheme}:" is not a store` : 'not a store URL'}; use sqlite:<file> or postgres://user:password@host:port/database`);
}
