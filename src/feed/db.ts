// The two data stores behind one small interface: SQLite (better-sqlite3, one embedded file, one
// process) and PostgreSQL (pg pool, any number of processes). SQL is written once with $1… placeholders.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

export type Param = string | number | null;
export interface Statement {
  sql: string;
  /** The parameters, or a function of the results so far (a value an earlier statement returned). */
  params?: Param[] | ((previous: StatementResult[]) => Param[]);
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

/** What a committed change tells the live channel: its seq and a message (JSON text). */
export interface Announcement {
  seq: number;
  text: string;
}

/**
 * Receives the announcements of every committed change, of every process on the store, one at a time in
 * commit order (each call waits for the previous one's promise).
 */
export interface Listener {
  /** A change committed; `text` is undefined when its message was too large to travel and is gone since. */
  announced(seq: number, text: string | undefined): void | Promise<void>;
  /**
   * Listening (again): at the start, and after the connection that listens was lost and made anew —
   * announcements in between were not received; the store's change log has them.
   */
  listening(): Promise<void>;
}

export interface Db {
  readonly dialect: 'sqlite' | 'postgres';
  query<T = Record<string, unknown>>(sql: string, params?: Param[]): Promise<T[]>;
  /**
   * Runs the statements in one transaction, in order; rolls all back if one fails. `announce` (given the
   * results) says what the change tells the live channel: it reaches the listener of every process once
   * the transaction commits, in commit order, or not at all if it rolls back.
   */
  batch(statements: Statement[], announce?: (results: StatementResult[]) => Announcement | undefined): Promise<StatementResult[]>;
  /** Delivers every announcement to `listener` from now on; resolves once listening. */
  listen(listener: Listener): Promise<void>;
  close(): Promise<void>;
  /** The pg pool; undefined on SQLite. */
  readonly pool?: pg.Pool;
}

const paramsOf = (s: Statement, previous: StatementResult[]): Param[] => (typeof s.params === 'function' ? s.params(previous) : (s.params ?? []));

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

  private listener: Listener | undefined;

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

  async batch(statements: Statement[], announce?: (results: StatementResult[]) => Announcement | undefined): Promise<StatementResult[]> {
    // better-sqlite3 is synchronous: the whole transaction runs without yielding, so no other request
    // can slip a statement into it.
    const run = this.db.transaction(() => {
      const results: StatementResult[] = [];
      for (const s of statements) {
        if (s.onlyIf && !s.onlyIf(results)) results.push({ rows: [], changes: 0, skipped: true });
        else results.push(this.exec(s.sql, paramsOf(s, results)));
      }
      return results;
    });
    const results = run();
    // Announced in the same synchronous step as the commit: one process, so announcements are in
    // commit order (an await between would let another request's commit announce first).
    const announcement = announce?.(results);
    if (announcement && this.listener) void this.listener.announced(announcement.seq, announcement.text);
    return results;
  }

  async listen(listener: Listener): Promise<void> {
    this.listener = listener;
    await listener.listening();
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

/** The NOTIFY channel of the live channel's announcements. */
const LIVE_CHANNEL = 'assay_feed_live';
/**
 * NOTIFY payloads must be under 8000 bytes: a larger announcement is kept in `live_payloads` (in the same
 * transaction) and the notification names its row. Rows older than LIVE_PAYLOAD_KEEP_MS are deleted.
 */
const NOTIFY_MAX_BYTES = 7900;
const LIVE_PAYLOAD_KEEP_MS = 10 * 60_000;
/** Waits between attempts to listen again after the listening connection was lost. */
const RELISTEN_DELAYS_MS = [100, 250, 500, 1000, 2000];

export class PostgresDb implements Db {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;

  private listenClient: pg.Client | undefined;
  private closed = false;
  private relistenTimer: NodeJS.Timeout | undefined;
  private cleanupTimer: NodeJS.Timeout | undefined;
  /** Announcements and re-listens are handled one at a time, in the order they came. */
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly url: string, max = 10) {
    this.pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    // Nor may a checked-out one (pg-pool listens for errors on idle clients only): a database restart or
    // failover ended the process with an unhandled 'error' (57P01 terminating connection). Its queries
    // still fail, and the pool drops it on release.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  async query<T>(sql: string, params: Param[] = []): Promise<T[]> {
    const result = await this.pool.query(sql, params);
    return result.rows as T[];
  }

  async batch(statements: Statement[], announce?: (results: StatementResult[]) => Announcement | undefined): Promise<StatementResult[]> {
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
        const r = await client.query(s.sql, paramsOf(s, results));
        results.push({ rows: r.rows as Record<string, unknown>[], changes: r.rowCount ?? 0 });
      }
      // NOTIFY inside the transaction is sent at its commit, and PostgreSQL delivers the notifications
      // of different transactions in commit order — which is seq order (the lock above): every process
      // hears every change in seq order, its own included.
      const announcement = announce?.(results);
      if (announcement) {
        let payload = `${announcement.seq} ${announcement.text}`;
        if (Buffer.byteLength(payload) > NOTIFY_MAX_BYTES) {
          const stored = await client.query('INSERT INTO live_payloads (payload, at) VALUES ($1, $2) RETURNING id', [announcement.text, Date.now()]);
          payload = `${announcement.seq} @${Number(stored.rows[0]!['id'])}`;
        }
        await client.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, payload]);
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

  /**
   * LISTENs on a connection of its own (not the pool's: it stays open). When it is lost (a database
   * restart, a failover, a terminated backend), it listens again on a new one, retrying, and tells the
   * listener, which reads what it missed from the change log.
   */
  async listen(listener: Listener): Promise<void> {
    const enqueue = (step: () => void | Promise<void>): Promise<void> => {
      const run = this.chain.then(step);
      this.chain = run.catch(() => undefined);
      return run;
    };
    /** Connects and LISTENs; false when closed meanwhile. */
    const connect = async (): Promise<boolean> => {
      // Named, so that an operator (and a test) can tell it in pg_stat_activity.
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000, application_name: `assay-feed live ${process.pid}` });
      let lost = false;
      const onLost = () => {
        if (lost) return;
        lost = true;
        if (this.listenClient === client) this.listenClient = undefined;
        client.end().catch(() => undefined);
        if (!this.closed) relisten(0);
      };
      client.on('error', onLost);
      client.on('end', onLost);
      client.on('notification', (message) => {
        if (message.channel !== LIVE_CHANNEL || message.payload === undefined) return;
        const space = message.payload.indexOf(' ');
        const seq = Number(message.payload.slice(0, space));
        const rest = message.payload.slice(space + 1);
        // A failing step is the listener's to recover from (it reads the log at its next announcement).
        enqueue(async () => {
          let text: string | undefined = rest;
          if (rest.startsWith('@')) {
            const rows = await this.pool.query('SELECT payload FROM live_payloads WHERE id = $1', [Number(rest.slice(1))]).catch(() => ({ rows: [] }));
            text = rows.rows[0]?.['payload'] as string | undefined;
          }
          await listener.announced(seq, text);
        }).catch(() => undefined);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${LIVE_CHANNEL}`);
      } catch (error) {
        lost = true;
        client.end().catch(() => undefined);
        throw error;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return false;
      }
      this.listenClient = client;
      return true;
    };
    // Announcements received from here on follow this step in the chain: the listener reads the log first.
    const listening = () => enqueue(() => listener.listening());
    const relisten = (attempt: number) => {
      clearTimeout(this.relistenTimer);
      this.relistenTimer = setTimeout(() => {
        connect().then(
          (listens) => (listens ? listening().catch(() => undefined) : undefined),
          () => {
            if (!this.closed) relisten(attempt + 1);
          },
        );
      }, RELISTEN_DELAYS_MS[Math.min(attempt, RELISTEN_DELAYS_MS.length - 1)]);
    };
    await connect();
    await listening();
    this.cleanupTimer = setInterval(() => {
      this.pool.query('DELETE FROM live_payloads WHERE at < $1', [Date.now() - LIVE_PAYLOAD_KEEP_MS]).catch(() => undefined);
    }, 60_000);
    this.cleanupTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relistenTimer);
    clearInterval(this.cleanupTimer);
    await this.listenClient?.end().catch(() => undefined);
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
