// The feed's data: users, posts and the change log that numbers every post change (the live channel's
// `seq`, and what a reconnecting client catches up from). Migrations run at start, once per store,
// under a lock on Postgres so that several processes starting together do not race.
import { randomBytes } from 'node:crypto';
import type { Announcement, Db, Param, PostgresDb, SqliteDb, StatementResult } from './db';

interface Migration {
  version: number;
  sqlite: string;
  postgres: string;
}

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    sqlite: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        username_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE posts (
        id TEXT PRIMARY KEY,
        author_id TEXT NOT NULL REFERENCES users(id),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        run TEXT,
        model_hash TEXT
      );
      CREATE INDEX posts_newest ON posts (created_at DESC, id DESC);
      CREATE INDEX posts_model ON posts (model_hash, created_at DESC, id DESC);
      CREATE INDEX posts_author ON posts (author_id, created_at DESC, id DESC);
      CREATE TABLE changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        type TEXT NOT NULL,
        post_id TEXT NOT NULL,
        model_hash TEXT,
        at INTEGER NOT NULL
      );`,
    postgres: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        username_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE posts (
        id TEXT PRIMARY KEY,
        author_id TEXT NOT NULL REFERENCES users(id),
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        run TEXT,
        model_hash TEXT
      );
      CREATE INDEX posts_newest ON posts (created_at DESC, id DESC);
      CREATE INDEX posts_model ON posts (model_hash, created_at DESC, id DESC);
      CREATE INDEX posts_author ON posts (author_id, created_at DESC, id DESC);
      CREATE TABLE changes (
        seq BIGSERIAL PRIMARY KEY,
        type TEXT NOT NULL,
        post_id TEXT NOT NULL,
        model_hash TEXT,
        at BIGINT NOT NULL
      );
      -- The socket.io Postgres adapter keeps payloads over NOTIFY's 8000-byte limit here.
      CREATE TABLE socket_io_attachments (
        id BIGSERIAL UNIQUE,
        created_at TIMESTAMPTZ DEFAULT NOW(),
        payload BYTEA
      );`,
  },
  {
    // The live channel's announcements travel by NOTIFY from inside each change's transaction (the
    // socket.io adapter and its attachments table are gone); one too large for a notification is kept
    // here for a while. SQLite is one process: nothing to keep.
    version: 2,
    sqlite: `SELECT 1`,
    postgres: `
      DROP TABLE IF EXISTS socket_io_attachments;
      CREATE TABLE live_payloads (
        id BIGSERIAL PRIMARY KEY,
        payload TEXT NOT NULL,
        at BIGINT NOT NULL
      );
      CREATE INDEX live_payloads_at ON live_payloads (at);`,
  },
];

export async function migrate(db: Db): Promise<number[]> {
  const applied: number[] = [];
  if (db.dialect === 'sqlite') {
    const sqlite = db as SqliteDb;
    sqlite.execScript('CREATE TABLE IF NOT EXISTS feed_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    for (const m of MIGRATIONS) {
      const done = await db.query('SELECT version FROM feed_migrations WHERE version = $1', [m.version]);
      if (done.length > 0) continue;
      sqlite.execScript(`BEGIN; ${m.sqlite}; INSERT INTO feed_migrations VALUES (${m.version}, ${Date.now()}); COMMIT;`);
      applied.push(m.version);
    }
    return applied;
  }
  const client = await (db as PostgresDb).pool.connect();
  try {
    await client.query('BEGIN');
    // One process migrates at a time; the others wait, then find the work done.
    await client.query('SELECT pg_advisory_xact_lock(7242016)');
    await client.query('CREATE TABLE IF NOT EXISTS feed_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    for (const m of MIGRATIONS) {
      const done = await client.query('SELECT version FROM feed_migrations WHERE version = $1', [m.version]);
      if (done.rowCount) continue;
      await client.query(m.postgres);
      await client.query('INSERT INTO feed_migrations VALUES ($1, $2)', [m.version, Date.now()]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return applied;
}

export interface UserRow {
  id: string;
  username: string;
  password_hash: string;
  created_at: number;
}
export interface PostRow {
  id: string;
  author_id: string;
  author_name: string;
  created_at: number;
  updated_at: number;
  title: string;
  body: string;
  run: string | null;
  model_hash: string | null;
}
export interface ChangeRow {
  seq: number;
  type: 'post:created' | 'post:updated' | 'post:deleted';
  post_id: string;
  model_hash: string | null;
}

/**
 * What a committed change tells the live channel of every process (as JSON): the change, with the post
 * as that change left it, and the models whose subscribers are told (`rooms`).
 */
export type Announced =
  | { type: 'post:created' | 'post:updated'; seq: number; post: PostRow; rooms: string[] }
  | { type: 'post:deleted'; seq: number; id: string; model?: string; rooms: string[] };

const seqOf = (result: StatementResult | undefined) => Number(result!.rows[0]!['seq']);
const announcement = (event: Announced): Announcement => ({ seq: event.seq, text: JSON.stringify(event) });

/** A position in a newest-first listing: the last item's time and id. */
export interface Position {
  at: number;
  id: string;
}

export class UsernameTaken extends Error {}

let lastMs = 0;
let sequence = 0;
/**
 * A UUID version 7 (RFC 9562): the millisecond time first, then a 12-bit counter that keeps ids made by
 * this process in the same millisecond in creation order, then random bits. Listings order by (time,
 * id), so posts made in the same millisecond still list newest first.
 */
export function timeOrderedId(now = Date.now()): string {
  if (now <= lastMs) {
    sequence++;
    if (sequence > 0xfff) {
      lastMs++;
      sequence = 0;
    }
  } else {
    lastMs = now;
    sequence = randomBytes(1)[0]! & 0x7f; // start low so that the counter has room
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const POST_COLUMNS = `p.id, p.author_id, u.username AS author_name, p.created_at, p.updated_at, p.title, p.body, p.run, p.model_hash`;

export class Store {
  constructor(readonly db: Db) {}

  // ---- users ----

  async createUser(username: string, passwordHash: string): Promise<UserRow> {
    const now = Date.now();
    const row: UserRow = { id: timeOrderedId(now), username, password_hash: passwordHash, created_at: now };
    try {
      await this.db.query('INSERT INTO users (id, username, username_key, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
        row.id, username, username.toLowerCase(), passwordHash, row.created_at,
      ]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new UsernameTaken(username);
      throw error;
    }
    return row;
  }

  async userByName(username: string): Promise<UserRow | undefined> {
    const rows = await this.db.query<UserRow>('SELECT id, username, password_hash, created_at FROM users WHERE username_key = $1', [username.toLowerCase()]);
    return rows[0];
  }

  async userById(id: string): Promise<UserRow | undefined> {
    const rows = await this.db.query<UserRow>('SELECT id, username, password_hash, created_at FROM users WHERE id = $1', [id]);
    return rows[0];
  }

  /** Oldest first (users do not come and go often; a stable order pages well). */
  async users(limit: number, after?: Position): Promise<UserRow[]> {
    const params: Param[] = [limit];
    let where = '';
    if (after) {
      where = 'WHERE created_at > $2 OR (created_at = $2 AND id > $3)';
      params.push(after.at, after.id);
    }
    return this.db.query<UserRow>(`SELECT id, username, password_hash, created_at FROM users ${where} ORDER BY created_at, id LIMIT $1`, params);
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, id]);
  }

  // ---- posts ----

  async post(id: string): Promise<PostRow | undefined> {
    const rows = await this.db.query<PostRow>(`SELECT ${POST_COLUMNS} FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = $1`, [id]);
    return rows[0];
  }

  /** Newest first, optionally only one model's or one author's posts. */
  async posts(options: { limit: number; after?: Position; model?: string; author?: string }): Promise<PostRow[]> {
    const params: Param[] = [options.limit];
    const where: string[] = [];
    if (options.after) {
      params.push(options.after.at, options.after.id);
      where.push(`(p.created_at < $${params.length - 1} OR (p.created_at = $${params.length - 1} AND p.id < $${params.length}))`);
    }
    if (options.model !== undefined) {
      params.push(options.model);
      where.push(`p.model_hash = $${params.length}`);
    }
    if (options.author !== undefined) {
      params.push(options.author);
      where.push(`p.author_id = $${params.length}`);
    }
    const sql = `SELECT ${POST_COLUMNS} FROM posts p JOIN users u ON u.id = p.author_id ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY p.created_at DESC, p.id DESC LIMIT $1`;
    return this.db.query<PostRow>(sql, params);
  }

  /**
   * Stores a post and answers the row as stored. The row is built from the values written in the same
   * transaction, not read back: a read failing after the commit would answer an error for a stored post,
   * and a client retrying it would post twice.
   */
  async createPost(author: Pick<UserRow, 'id' | 'username'>, fields: { title: string; body: string; run: string | null; modelHash: string | null }): Promise<{ row: PostRow; seq: number }> {
    const now = Date.now();
    const id = timeOrderedId(now);
    const authorId = author.id;
    const row: PostRow = {
      id, author_id: authorId, author_name: author.username, created_at: now, updated_at: now,
      title: fields.title, body: fields.body, run: fields.run, model_hash: fields.modelHash,
    };
    const [, change] = await this.db.batch(
      [
        {
          sql: 'INSERT INTO posts (id, author_id, created_at, updated_at, title, body, run, model_hash) VALUES ($1, $2, $3, $3, $4, $5, $6, $7)',
          params: [id, authorId, now, fields.title, fields.body, fields.run, fields.modelHash],
        },
        { sql: `INSERT INTO changes (type, post_id, model_hash, at) VALUES ('post:created', $1, $2, $3) RETURNING seq`, params: [id, fields.modelHash, now], numbersChange: true },
      ],
      ([, c]) => announcement({ type: 'post:created', seq: seqOf(c), post: row, rooms: fields.modelHash ? [fields.modelHash] : [] }),
    );
    return { row, seq: seqOf(change) };
  }

  /**
   * Replaces the given fields of the author's post. `undefined` when no such post of that author exists
   * any more (deleted meanwhile).
   */
  async updatePost(
    id: string,
    authorId: string,
    fields: { title?: string; body?: string; run?: string | null; modelHash?: string | null },
    previousModel: string | null = null,
  ): Promise<{ seq: number; row: PostRow } | undefined> {
    const now = Date.now();
    const sets: string[] = ['updated_at = $3'];
    const params: Param[] = [id, authorId, now];
    const set = (column: string, value: Param) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (fields.title !== undefined) set('title', fields.title);
    if (fields.body !== undefined) set('body', fields.body);
    if (fields.run !== undefined) {
      set('run', fields.run);
      set('model_hash', fields.modelHash ?? null);
    }
    const changed = ([u]: StatementResult[]) => u!.changes > 0;
    const [updated, read, change] = await this.db.batch(
      [
        { sql: `UPDATE posts SET ${sets.join(', ')} WHERE id = $1 AND author_id = $2`, params },
        // The post as this change left it (for the answer and the live channel), read in the transaction.
        { sql: `SELECT ${POST_COLUMNS} FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = $1`, params: [id], onlyIf: changed },
        {
          sql: `INSERT INTO changes (type, post_id, model_hash, at) SELECT 'post:updated', id, model_hash, $2 FROM posts WHERE id = $1 RETURNING seq`,
          params: [id, now],
          numbersChange: true,
          onlyIf: changed,
        },
      ],
      (results) => {
        if (!changed(results)) return undefined;
        const post = results[1]!.rows[0] as unknown as PostRow;
        // A post whose run moved to another model is told to the old model's subscribers too.
        const rooms = [...new Set([post.model_hash, previousModel].filter((m): m is string => m !== null))];
        return announcement({ type: 'post:updated', seq: seqOf(results[2]), post, rooms });
      },
    );
    if (!updated!.changes) return undefined;
    return { seq: seqOf(change), row: read!.rows[0] as unknown as PostRow };
  }

  /** Deletes the author's post; `undefined` when it was not there (any more). */
  async deletePost(id: string, authorId: string, modelHash: string | null): Promise<{ seq: number } | undefined> {
    const now = Date.now();
    const [deleted, change] = await this.db.batch(
      [
        { sql: 'DELETE FROM posts WHERE id = $1 AND author_id = $2', params: [id, authorId] },
        {
          sql: `INSERT INTO changes (type, post_id, model_hash, at) VALUES ('post:deleted', $1, $2, $3) RETURNING seq`,
          params: [id, modelHash, now],
          numbersChange: true,
          onlyIf: ([d]) => d!.changes > 0,
        },
      ],
      ([d, c]) =>
        d!.changes > 0
          ? announcement({ type: 'post:deleted', seq: seqOf(c), id, ...(modelHash ? { model: modelHash } : {}), rooms: modelHash ? [modelHash] : [] })
          : undefined,
    );
    if (!deleted!.changes) return undefined;
    return { seq: seqOf(change) };
  }

  /**
   * Changes after `since`, oldest first, at most `limit`, with the post as it is now (absent once
   * deleted): two queries whatever the limit (the changes, then their distinct posts), not one per change.
   */
  async changesSince(since: number, limit: number): Promise<(ChangeRow & { post?: PostRow })[]> {
    const changes = await this.db.query<ChangeRow>('SELECT seq, type, post_id, model_hash FROM changes WHERE seq > $1 ORDER BY seq LIMIT $2', [since, limit]);
    const ids = [...new Set(changes.filter((c) => c.type !== 'post:deleted').map((c) => c.post_id))];
    const posts = new Map<string, PostRow>();
    if (ids.length) {
      const rows = await this.db.query<PostRow>(
        `SELECT ${POST_COLUMNS} FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
        ids,
      );
      for (const row of rows) posts.set(row.id, row);
    }
    return changes.map((change) => {
      const post = change.type === 'post:deleted' ? undefined : posts.get(change.post_id);
      return { ...change, seq: Number(change.seq), ...(post ? { post } : {}) };
    });
  }

  async lastSeq(): Promise<number> {
    const rows = await this.db.query<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM changes');
    return Number(rows[0]?.seq ?? 0);
  }
}
