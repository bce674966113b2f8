// The team feed's wire shapes (docs/feed.md): users, posts, the Assay run a post may carry, live events,
// and the error body. Strict zod schemas; every type is inferred from them. Shared by the server and the
// editor-side client, so nothing here imports the server, vscode or a database.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { Question, RunResult, SourceDocument, Strength } from '../protocol/schema';

// ---- limits ----------------------------------------------------------------------------------------

export const LIMITS = {
  usernameMin: 3,
  usernameMax: 40,
  passwordMin: 8,
  // Argon2 takes any length; the cap keeps a login request from being a large hashing job.
  passwordMax: 256,
  titleMax: 200,
  bodyMax: 20_000,
  pageDefault: 20,
  pageMax: 100,
} as const;

// ---- users and auth --------------------------------------------------------------------------------

export const Username = z
  .string()
  .min(LIMITS.usernameMin)
  .max(LIMITS.usernameMax)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a username is letters, digits, "_", "." and "-", starting with a letter or digit');
export const Password = z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax);

export const Credentials = z.strictObject({ username: Username, password: Password });
/** PUT /users/:id — the owner changes the password, proving the current one. */
export const PasswordChange = z.strictObject({ currentPassword: z.string().max(LIMITS.passwordMax), password: Password });

export const User = z.strictObject({ id: z.string(), username: z.string(), createdAt: z.iso.datetime() });
export const Session = z.strictObject({ token: z.string(), expiresAt: z.iso.datetime(), user: User });
export const UserPage = z.strictObject({ users: z.array(User), next: z.string().nullable() });

// ---- the Assay run a post may carry -----------------------------------------------------------------

/** `sha256:` and 64 lower-case hex digits. */
export const ContentHash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'a content hash is sha256: and 64 lower-case hex digits');

/**
 * The content hash of a model: SHA-256 over each document's path and text, in order, each length-prefixed
 * so that no two different document lists hash alike. Posts about the same model text share it.
 */
export function modelHash(documents: readonly { path: string; text: string }[]): string {
  const hash = createHash('sha256');
  hash.update(`assay-model-v1\n${documents.length}\n`);
  for (const { path, text } of documents) {
    const p = Buffer.from(path, 'utf8');
    const t = Buffer.from(text, 'utf8');
    hash.update(`${p.length}:`).update(p).update(`\n${t.length}:`).update(t).update('\n');
  }
  return `sha256:${hash.digest('hex')}`;
}

/** The model documents a run was asked of, as sent to the engine, so a teammate can replay it. */
export const RunModel = z.strictObject({
  documents: z.array(SourceDocument).min(1).max(200),
  /** Optional on input (the server computes it and refuses a different one); always present on output. */
  hash: ContentHash.optional(),
});

/** The host's standing of the answer: what the engine claimed, what stands, and why it was lowered. */
export const RunStanding = z.strictObject({ claimed: Strength, strength: Strength, reasons: z.array(z.string()) });

/**
 * A shared run: the question (kind, subject, schedule and options), the engine that answered, its
 * result (claim, claimed strength, values, witness…), the host's standing, and the model texts.
 * Mirrors the editor's RunRecord of an answered run, so that one function maps one to the other.
 */
export const Run = z
  .strictObject({
    question: Question,
    engine: z.string().min(1).max(200),
    result: RunResult,
    standing: RunStanding,
    model: RunModel,
    askedAt: z.iso.datetime().optional(),
    elapsedMs: z.int().min(0).optional(),
  })
  .refine((run) => run.standing.claimed === run.result.strength, {
    message: 'standing.claimed must equal result.strength (the strength the engine claimed)',
    path: ['standing', 'claimed'],
  });

/**
 * The run of an answered editor run record (src/extension/runs/runRecord.ts, structurally: this module may not
 * import the extension) as a post carries it; undefined for a run that was not answered.
 */
export function runOfRecord(record: {
  question: z.infer<typeof Question>;
  documents: { path: string; text: string }[];
  outcome?: { status: string; engine?: string; result?: z.infer<typeof RunResult>; standing?: RunStanding };
  askedAt: number;
  elapsedMs?: number;
}): Run | undefined {
  const { outcome } = record;
  if (outcome?.status !== 'answered' || !outcome.engine || !outcome.result || !outcome.standing) return undefined;
  const documents = record.documents.map(({ path, text }) => ({ path, text }));
  return {
    question: record.question,
    engine: outcome.engine,
    result: outcome.result,
    standing: { claimed: outcome.standing.claimed, strength: outcome.standing.strength, reasons: [...outcome.standing.reasons] },
    model: { documents, hash: modelHash(documents) },
    askedAt: new Date(record.askedAt).toISOString(),
    ...(record.elapsedMs !== undefined ? { elapsedMs: Math.round(record.elapsedMs) } : {}),
  };
}

// ---- posts -----------------------------------------------------------------------------------------

const Title = z.string().trim().min(1).max(LIMITS.titleMax);
const Body = z.string().max(LIMITS.bodyMax);

/** POST /feed/post */
export const PostCreate = z.strictObject({ title: Title, body: Body.default(''), run: Run.optional() });
/** PUT /feed/post/:id — the given fields replace the stored ones; `run: null` removes the run. */
export const PostUpdate = z
  .strictObject({ title: Title.optional(), body: Body.optional(), run: Run.nullable().optional() })
  .refine((u) => u.title !== undefined || u.body !== undefined || u.run !== undefined, {
    message: 'give at least one of title, body, run',
  });

export const Author = z.strictObject({ id: z.string(), username: z.string() });
export const Post = z.strictObject({
  id: z.string(),
  author: Author,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  title: z.string(),
  body: z.string(),
  run: Run.optional(),
});
export const PostPage = z.strictObject({ posts: z.array(Post), next: z.string().nullable() });

/** GET /feed/posts and GET /users query strings. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageMax).default(LIMITS.pageDefault),
  cursor: z.string().max(200).optional(),
});
export const PostQuery = PageQuery.extend({
  /** Only posts whose run is about the model with this content hash. */
  model: ContentHash.optional(),
  /** Only posts by this user id. */
  author: z.string().max(100).optional(),
});

// ---- live channel (socket.io) ----------------------------------------------------------------------

/** Every change has a sequence number, increasing in the order the store committed it. */
export const Seq = z.int().min(0);
export const PostCreatedEvent = z.strictObject({ seq: Seq, post: Post });
export const PostUpdatedEvent = z.strictObject({ seq: Seq, post: Post });
export const PostDeletedEvent = z.strictObject({ seq: Seq, id: z.string(), model: ContentHash.optional() });

export const LIVE_EVENTS = { created: 'post:created', updated: 'post:updated', deleted: 'post:deleted' } as const;

/**
 * Server → client `feed:resync`: what was missed cannot be replayed (over 1,000 changes, or the client's
 * last seq is ahead of the store's); reload the list. `seq` is the store's last change when it was sent.
 */
export const ResyncEvent = z.strictObject({ reason: z.string(), seq: Seq });

/** Client → server `subscribe` / `unsubscribe`: the posts about one model (by content hash). */
export const SubscribeRequest = z.strictObject({ model: ContentHash });
/** Client → server `catchup`: the changes after `since`. */
export const CatchupRequest = z.strictObject({ since: Seq, limit: z.int().min(1).max(1000).optional() });
/** Handshake `auth`: the token, and optionally the last seq the client saw, to be sent what it missed. */
export const HandshakeAuth = z.strictObject({ token: z.string(), since: Seq.optional() });

export const Change = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('post:created'), seq: Seq, post: Post }),
  z.strictObject({ type: z.literal('post:updated'), seq: Seq, post: Post }),
  z.strictObject({ type: z.literal('post:deleted'), seq: Seq, id: z.string(), model: ContentHash.optional() }),
]);

// ---- errors ----------------------------------------------------------------------------------------

export const ERROR_CODES = [
  'validation', 'unauthorized', 'forbidden', 'not_found', 'method_not_allowed', 'username_taken',
  'payload_too_large', 'unsupported_media_type', 'rate_limited', 'bad_request', 'internal',
  // Live channel only (an acknowledgement's error): a `subscribe` past the per-connection limit.
  'too_many_subscriptions',
] as const;
export const ErrorBody = z.strictObject({
  error: z.strictObject({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

// ---- types -----------------------------------------------------------------------------------------

export type Credentials = z.infer<typeof Credentials>;
export type PasswordChange = z.infer<typeof PasswordChange>;
export type User = z.infer<typeof User>;
export type Session = z.infer<typeof Session>;
export type Run = z.infer<typeof Run>;
export type RunModel = z.infer<typeof RunModel>;
export type RunStanding = z.infer<typeof RunStanding>;
export type PostCreate = z.infer<typeof PostCreate>;
export type PostUpdate = z.infer<typeof PostUpdate>;
export type Post = z.infer<typeof Post>;
export type PostPage = z.infer<typeof PostPage>;
export type Change = z.infer<typeof Change>;
export type ErrorBody = z.infer<typeof ErrorBody>;
