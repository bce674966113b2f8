// The live channel (socket.io on the HTTP port). The handshake carries the token (`auth.token`, or an
// `Authorization: Bearer` header); the socket is closed when the token expires. Every client is sent
// post:created / post:updated / post:deleted with a `seq`; a client that gives `auth.since` (the last seq
// it saw) is first sent what it missed. Clients may `subscribe` to one model's posts by content hash,
// ask to `catchup`, and get acknowledgements. Every change reaches this process as an announcement of the
// store (db.ts: NOTIFY from inside the change's transaction on Postgres), one at a time in seq order, its
// own changes and other processes' alike; this process sends it to its own clients only, in that order.
import type { FastifyBaseLogger } from 'fastify';
import type { Server, Socket } from 'socket.io';
import type { z } from 'zod';
import type { Tokens } from './auth';
import type { Listener } from './db';
import { HttpError, validationError } from './errors';
import { CatchupRequest, HandshakeAuth, SubscribeRequest, type Change } from './shapes';
import { toPost } from './wire';
import type { Announced, Store } from './store';

/** At most this many changes are replayed on connect; beyond it the client is told to reload. */
export const CATCHUP_LIMIT = 1000;
/**
 * Catch-up reads the change log this many changes at a time (two queries a page: the changes, then their
 * posts), so a replay of CATCHUP_LIMIT changes is at most 2 × 10 + 1 queries, and holds one page of
 * posts in memory at a time.
 */
export const CATCHUP_PAGE = 100;
/**
 * A socket follows at most this many models at once (each is a room the server keeps for the socket's
 * life): past it `subscribe` answers too_many_subscriptions; unsubscribe from one first.
 */
export const SUBSCRIPTION_LIMIT = 100;

type Ack = (answer: unknown) => void;

/** A change as the live channel sends it: the wire post, and the models whose subscribers are told. */
type LiveChange = Change & { rooms: string[] };

/**
 * The room of sockets still being sent what they missed (`auth.since`): live changes are held for them
 * and sent after the replay, so that each client gets every change in seq order.
 */
const REPLAYING = 'replaying';

/** The longest delay setTimeout keeps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The events a client may send (each acknowledged). */
const CLIENT_EVENTS = ['subscribe', 'unsubscribe', 'catchup'];

function modelChange(change: Change) {
  if (change.type === 'post:deleted') return { type: change.type, seq: change.seq, id: change.id, ...(change.model ? { model: change.model } : {}) };
  return { type: change.type, seq: change.seq, post: change.post };
}

function errorAnswer(error: unknown) {
  if (error instanceof HttpError) return { ok: false, error: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) } };
  return { ok: false, error: { code: 'internal', message: 'internal server error' } };
}

export class Live implements Listener {
  private readonly expiryTimers = new Set<NodeJS.Timeout>();
  /** The last seq sent to this process's clients; undefined until listening. */
  private cursor: number | undefined;
  /** Announcements may have been missed (the listening connection was lost, or reading the log failed). */
  private behind = false;

  constructor(
    private readonly io: Server,
    private readonly store: Store,
    private readonly tokens: Tokens,
    private readonly log: FastifyBaseLogger,
  ) {
    io.use((socket, next) => {
      this.authenticate(socket).then(
        () => next(),
        (error: unknown) => {
          const e = error instanceof HttpError ? error : new HttpError(500, 'internal', 'internal server error');
          if (!(error instanceof HttpError)) log.error({ err: error }, 'socket handshake failed');
          const failure = new Error(e.message) as Error & { data?: unknown };
          failure.data = { code: e.code, status: e.status };
          next(failure);
        },
      );
    });
    io.on('connection', (socket) => this.connected(socket));
  }

  private async authenticate(socket: Socket): Promise<void> {
    const header = socket.handshake.headers.authorization;
    const fromHeader = typeof header === 'string' ? /^Bearer +(\S+)\s*$/i.exec(header)?.[1] : undefined;
    const auth = { ...(fromHeader ? { token: fromHeader } : {}), ...(socket.handshake.auth as object) };
    const parsed = HandshakeAuth.safeParse(auth);
    if (!parsed.success) {
      if (!('token' in auth)) throw new HttpError(401, 'unauthorized', 'the live channel needs a token: connect with auth: { token }');
      throw validationError(parsed.error, 'event');
    }
    const { userId, exp } = await this.tokens.verify(parsed.data.token);
    if (!(await this.store.userById(userId))) throw new HttpError(401, 'unauthorized', 'the token names a user that does not exist');
    socket.data = { userId, exp, since: parsed.data.since };
  }

  private connected(socket: Socket): void {
    const { exp, since } = socket.data as { userId: string; exp: number; since?: number };
    // A socket lives no longer than its token: the client reconnects with a fresh one (and `since`).
    // setTimeout holds at most 2^31 - 1 ms (24.8 days; a longer delay fires at once), and JWT_LIFETIME
    // may be 30 days: wait in steps.
    let timer: NodeJS.Timeout;
    const arm = () => {
      const left = exp * 1000 - Date.now();
      timer = setTimeout(() => {
        this.expiryTimers.delete(timer);
        if (left > MAX_TIMER_MS) arm();
        else socket.disconnect(true);
      }, Math.max(0, Math.min(left, MAX_TIMER_MS)));
      this.expiryTimers.add(timer);
    };
    arm();
    socket.on('disconnect', () => {
      clearTimeout(timer);
      this.expiryTimers.delete(timer);
    });

    const handle = <S extends z.ZodType>(event: string, schema: S, answer: (request: z.infer<S>) => Promise<unknown>) => {
      socket.on(event, (payload: unknown, ack?: unknown) => {
        const reply: Ack = typeof ack === 'function' ? (ack as Ack) : () => undefined;
        const parsed = schema.safeParse(payload);
        if (!parsed.success) return reply(errorAnswer(validationError(parsed.error, 'event')));
        answer(parsed.data).then(
          (value) => reply({ ok: true, ...(value as object) }),
          (error: unknown) => {
            if (!(error instanceof HttpError)) this.log.error({ err: error }, `live ${event} failed`);
            reply(errorAnswer(error));
          },
        );
      });
    };

    // An event the server does not listen for is answered, when it asks for an acknowledgement, with
    // not_found (a client waiting on the ack would otherwise wait forever).
    socket.onAny((event: unknown, ...args: unknown[]) => {
      if (typeof event === 'string' && CLIENT_EVENTS.includes(event)) return;
      const ack = args[args.length - 1];
      if (typeof ack === 'function') {
        (ack as Ack)({ ok: false, error: { code: 'not_found', message: `no event "${String(event)}"; the server answers ${CLIENT_EVENTS.join(', ')}` } });
      }
    });

    handle('subscribe', SubscribeRequest, async ({ model }) => {
      const room = `model:${model}`;
      // Checked and joined without an await between, so concurrent subscribes cannot pass the limit together.
      if (!socket.rooms.has(room)) {
        const subscribed = [...socket.rooms].filter((r) => r.startsWith('model:')).length;
        if (subscribed >= SUBSCRIPTION_LIMIT) {
          throw new HttpError(429, 'too_many_subscriptions', `this connection follows ${subscribed} models, the most it may; unsubscribe from one before subscribing to another`, {
            limit: SUBSCRIPTION_LIMIT,
          });
        }
      }
      await socket.join(room);
      // The posts hold every change up to `seq` (read first): a model:change the broadcast delivers after
      // this answer with a seq at most that one is already in them (a change is sent once its
      // announcement comes back from the store), so clients drop it.
      const seq = await this.store.lastSeq();
      const rows = await this.store.posts({ limit: 20, model });
      return { model, seq, posts: rows.map(toPost) };
    });
    handle('unsubscribe', SubscribeRequest, async ({ model }) => {
      await socket.leave(`model:${model}`);
      return { model };
    });
    handle('catchup', CatchupRequest, async ({ since: from, limit }) => {
      const changes: Change[] = [];
      const { more, through } = await this.changePages(from, limit ?? CATCHUP_LIMIT, (page) => void changes.push(...page));
      // `seq`: the last change this answer covers, the `since` of the next catchup. It may be past the
      // last of `changes` (a post created and deleted since shows only as its deletion).
      return { changes, more, seq: through };
    });

    if (since !== undefined) {
      // Live changes are held from the connection on and sent after the replay (those it did not
      // hold already), so nothing falls between replay and live events and all come in seq order.
      const held: LiveChange[] = [];
      (socket.data as { held?: LiveChange[] }).held = held;
      void socket.join(REPLAYING);
      const release = (through: number) => {
        delete (socket.data as { held?: LiveChange[] }).held;
        void socket.leave(REPLAYING);
        for (const change of held) if (change.seq > through) this.send(socket, change);
      };
      const replay = async () => {
        const last = await this.store.lastSeq();
        if (since > last) {
          // The client saw changes this store never made (it was replaced, or restored from a backup):
          // nothing can be replayed, and the seqs it saw will be given again. It reloads and starts over
          // from this store's last seq.
          socket.emit('feed:resync', { reason: `the last change seen (seq ${since}) is ahead of this store's last change (seq ${last}); reload GET /feed/posts`, seq: last });
          return release(last);
        }
        // A page at a time, each sent before the next is read; a client that leaves stops the reading.
        const { more, through } = await this.changePages(since, CATCHUP_LIMIT, (page) => {
          for (const change of page) this.sendChange(socket, change);
          return socket.connected;
        });
        if (!socket.connected) return;
        if (more) {
          socket.emit('feed:resync', { reason: `more than ${CATCHUP_LIMIT} changes were missed; reload GET /feed/posts`, seq: last });
          return release(Math.max(last, through));
        }
        release(through);
      };
      replay().catch((error: unknown) => {
        this.log.error({ err: error }, 'live catch-up failed');
        // Live changes sent now would skip what was not replayed: drop the transport instead, and the
        // client reconnects with its `since`.
        socket.conn.close();
      });
    }
  }

  /** A post change as its event (`post:created`, `post:updated`, `post:deleted`). */
  private sendChange(socket: Socket, change: Change): void {
    if (change.type === 'post:deleted') socket.emit(change.type, { seq: change.seq, id: change.id, ...(change.model ? { model: change.model } : {}) });
    else socket.emit(change.type, { seq: change.seq, post: change.post });
  }

  /** A live change to one socket: its event, and model:change when the socket follows one of its models. */
  private send(socket: Socket, change: LiveChange): void {
    const { rooms, ...plain } = change;
    this.sendChange(socket, plain);
    if (rooms.some((m) => socket.rooms.has(`model:${m}`))) socket.emit('model:change', modelChange(plain));
  }

  /** A live change to every client of this process (held for those still being replayed to). */
  private broadcast(change: LiveChange): void {
    const { rooms, ...plain } = change;
    const live = this.io.local.except(REPLAYING);
    if (plain.type === 'post:deleted') live.emit(plain.type, { seq: plain.seq, id: plain.id, ...(plain.model ? { model: plain.model } : {}) });
    else live.emit(plain.type, { seq: plain.seq, post: plain.post });
    if (rooms.length) live.to(rooms.map((m) => `model:${m}`)).emit('model:change', modelChange(plain));
    for (const socket of this.io.of('/').sockets.values()) (socket.data as { held?: LiveChange[] }).held?.push(change);
  }

  /** The store's announcements of committed changes, in seq order, one at a time (db.ts `Listener`). */
  announced(seq: number, text: string | undefined): void | Promise<void> {
    if (this.cursor === undefined) return;
    // A message too large to travel that is gone since, or ones missed before: the change log has them.
    if (this.behind || text === undefined) return this.fromLog();
    if (seq <= this.cursor) return; // read from the log already
    const announced = JSON.parse(text) as Announced;
    this.cursor = seq;
    if (announced.type === 'post:deleted') {
      const { type, id, model, rooms } = announced;
      this.broadcast({ type, seq, id, ...(model ? { model } : {}), rooms });
    } else {
      this.broadcast({ type: announced.type, seq, post: toPost(announced.post), rooms: announced.rooms });
    }
  }

  async listening(): Promise<void> {
    if (this.cursor === undefined) {
      // The start: clients that connect from now on are sent what follows (or replayed from `since`).
      this.cursor = await this.store.lastSeq();
      return;
    }
    // Listening again after the connection was lost: what was announced meanwhile is in the change log.
    this.behind = true;
    await this.fromLog();
  }

  /** Sends this process's clients the changes after the cursor from the change log (as a replay does). */
  private async fromLog(): Promise<void> {
    this.behind = true;
    try {
      const last = await this.store.lastSeq();
      const { more, through } = await this.changePages(this.cursor ?? last, CATCHUP_LIMIT, (page) => {
        for (const change of page) {
          const model = change.type === 'post:deleted' ? change.model : change.post.run?.model.hash;
          this.broadcast({ ...change, rooms: model ? [model] : [] });
        }
      });
      this.cursor = through;
      if (more) {
        this.io.local.except(REPLAYING).emit('feed:resync', { reason: `more than ${CATCHUP_LIMIT} changes were missed; reload GET /feed/posts`, seq: last });
        this.cursor = Math.max(last, through);
      }
      this.behind = false;
    } catch (error) {
      this.log.error({ err: error }, 'live: reading the change log failed; trying again at the next change');
      throw error;
    }
  }

  /**
   * The changes after `since`, at most `max`, read CATCHUP_PAGE at a time and handed to `onPage` in seq
   * order (a created or updated post that is gone since is reported by its deletion, so a page may hand
   * on fewer). `max` counts the change log's entries, so the reading is bounded whatever was deleted.
   * `onPage` returning false stops it. `more`: there are changes beyond `max`; `through`: the last change
   * read.
   */
  private async changePages(since: number, max: number, onPage: (changes: Change[]) => boolean | void): Promise<{ more: boolean; through: number }> {
    let through = since;
    let left = max;
    for (;;) {
      // One more than is left tells whether there are changes beyond `max` without another query.
      const asked = Math.min(CATCHUP_PAGE, left + 1);
      const rows = await this.store.changesSince(through, asked);
      const taken = rows.slice(0, left);
      left -= taken.length;
      if (taken.length) through = taken[taken.length - 1]!.seq;
      if (taken.length && onPage(this.asChanges(taken)) === false) return { more: false, through };
      if (rows.length > taken.length) return { more: true, through };
      if (rows.length < asked) return { more: false, through };
    }
  }

  private asChanges(rows: Awaited<ReturnType<Store['changesSince']>>): Change[] {
    const out: Change[] = [];
    for (const row of rows) {
      const model = row.model_hash ?? undefined;
      if (row.type === 'post:deleted') out.push({ type: row.type, seq: row.seq, id: row.post_id, ...(model ? { model } : {}) });
      else if (row.post) out.push({ type: row.type, seq: row.seq, post: toPost(row.post) });
    }
    return out;
  }

  close(): void {
    for (const timer of this.expiryTimers) clearTimeout(timer);
    this.expiryTimers.clear();
  }
}
