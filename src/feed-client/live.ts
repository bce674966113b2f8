// The feed's live channel (docs/feed.md, "Live channel") as a stream of checked changes. It reconnects by
// itself, and on reconnecting gives the server the last seq it saw so that it is sent what it missed;
// when it cannot know what it missed (no seq yet, or the server says `feed:resync`) it says `resync` and
// the owner reloads the list. A refused or expired token stops it with status `signin` until the owner
// calls `reconnect()` with a fresh one.
import { EventEmitter } from 'node:events';
import { io, type Socket } from 'socket.io-client';
import type { z } from 'zod';
import { LIVE_EVENTS, PostCreatedEvent, PostDeletedEvent, PostUpdatedEvent, ResyncEvent, type Change } from '../feed/shapes';
import { FeedMalformed, issuesOf } from './errors';
import { feedUrl } from './http';

export type LiveStatus =
  | { state: 'connecting' }
  | { state: 'online' }
  /** Lost the server; socket.io retries with a growing delay. */
  | { state: 'offline'; reason: string }
  /** The server refused the token: nothing more happens until `reconnect()`. */
  | { state: 'signin'; reason: string }
  | { state: 'closed' };

export interface FeedLiveOptions {
  url: string;
  /** Read at every (re)connection, so a fresh sign-in is used without a new FeedLive. */
  token: () => string | undefined;
  /** Longest wait between reconnection attempts (default 5 s). */
  reconnectDelayMaxMs?: number;
}

interface Events {
  change: [Change];
  status: [LiveStatus];
  /** What was missed cannot be replayed: reload the list over HTTP. */
  resync: [];
  /** A server event that does not fit the contract (dropped). */
  malformed: [FeedMalformed];
}

/** How many seen seqs are kept to drop a change that comes twice (replayed and live). */
const SEEN_MAX = 5000;

export class FeedLive extends EventEmitter<Events> {
  private readonly socket: Socket;
  private lastSeq: number | undefined;
  private readonly seen = new Set<number>();
  private current: LiveStatus = { state: 'connecting' };
  readonly url: string;

  constructor(private readonly options: FeedLiveOptions) {
    super();
    this.url = feedUrl(options.url);
    const base = new URL(this.url);
    this.socket = io(base.origin, {
      path: `${base.pathname.replace(/\/$/, '')}/socket.io/`,
      // The editor is a Node client: WebSocket only, no long-polling (docs/feed.md, "Scaling").
      transports: ['websocket'],
      autoConnect: false,
      forceNew: true,
      reconnection: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: options.reconnectDelayMaxMs ?? 5000,
      auth: (cb) => cb({ token: this.options.token() ?? '', ...(this.lastSeq !== undefined ? { since: this.lastSeq } : {}) }),
    });
    this.socket.on('connect', () => {
      this.set({ state: 'online' });
      // Without a seq the server cannot replay what happened before this connection.
      if (this.lastSeq === undefined) this.emit('resync');
    });
    this.socket.on('connect_error', (error: Error & { data?: { code?: string } }) => {
      if (error.data?.code === 'unauthorized') {
        // A refusal in the server's handshake is not retried by socket.io: wait for a fresh token.
        this.set({ state: 'signin', reason: error.message });
      } else if (this.socket.active) {
        this.set({ state: 'offline', reason: error.message });
      } else {
        this.set({ state: 'offline', reason: error.message });
        this.retryLater();
      }
    });
    this.socket.on('disconnect', (reason) => {
      if (this.current.state === 'closed') return;
      if (reason === 'io server disconnect') {
        // The server closes a socket when its token expires: try again at once with the token we have now.
        this.set({ state: 'connecting' });
        this.socket.connect();
      } else {
        this.set({ state: 'offline', reason });
      }
    });
    this.socket.on(LIVE_EVENTS.created, (p: unknown) => this.received('post:created', PostCreatedEvent, p));
    this.socket.on(LIVE_EVENTS.updated, (p: unknown) => this.received('post:updated', PostUpdatedEvent, p));
    this.socket.on(LIVE_EVENTS.deleted, (p: unknown) => this.received('post:deleted', PostDeletedEvent, p));
    this.socket.on('feed:resync', (payload: unknown) => {
      const parsed = ResyncEvent.safeParse(payload);
      // Our last seq is ahead of the server's store (replaced or restored): the seqs we saw will be given
      // again, so forget them and go on from the store's last one.
      if (parsed.success && this.lastSeq !== undefined && parsed.data.seq < this.lastSeq) {
        this.lastSeq = parsed.data.seq;
        this.seen.clear();
      }
      this.emit('resync');
    });
  }

  get status(): LiveStatus {
    return this.current;
  }

  /** The last seq seen (for tests and for a status line). */
  get seq(): number | undefined {
    return this.lastSeq;
  }

  start(): this {
    this.set({ state: 'connecting' });
    this.socket.connect();
    return this;
  }

  /** Connects again now (after a sign-in), keeping the seq so that what was missed is replayed. */
  reconnect(): void {
    if (this.current.state === 'closed') return;
    this.socket.disconnect();
    this.start();
  }

  close(): void {
    this.set({ state: 'closed' });
    clearTimeout(this.retry);
    this.socket.removeAllListeners();
    this.socket.disconnect();
    this.removeAllListeners();
  }

  private retry: NodeJS.Timeout | undefined;

  /** After a failure socket.io does not retry on its own (not a handshake refusal): retry after a while. */
  private retryLater(): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      if (this.current.state === 'offline') this.socket.connect();
    }, this.options.reconnectDelayMaxMs ?? 5000);
  }

  private set(status: LiveStatus): void {
    const same = status.state === this.current.state && JSON.stringify(status) === JSON.stringify(this.current);
    this.current = status;
    if (!same) this.emit('status', status);
  }

  private received<S extends z.ZodType>(type: Change['type'], schema: S, payload: unknown): void {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      this.emit('malformed', new FeedMalformed(`live event ${type}`, issuesOf(parsed.error, 'event')));
      return;
    }
    const event = parsed.data as { seq: number };
    if (this.seen.has(event.seq)) return;
    this.seen.add(event.seq);
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value as number);
    this.lastSeq = Math.max(this.lastSeq ?? -1, event.seq);
    this.emit('change', { type, ...(parsed.data as object) } as Change);
  }
}
