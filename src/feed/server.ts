// The team feed server: fastify for HTTP (routes by the resource convention), socket.io on the same
// port for the live channel, SQLite or PostgreSQL underneath (docs/feed.md).
import { z } from 'zod';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Server as SocketServer } from 'socket.io';
import { checkPassword, hashPassword, Tokens } from './auth';
import type { FeedConfig } from './config';
import { openDb, type Db } from './db';
import { errorBody, forbidden, HttpError, notFound, parseOr400, unauthorized } from './errors';
import { Live } from './live';
import { registerResource, type Resource } from './resource';
import {
  Credentials, LIMITS, modelHash, PageQuery, PasswordChange, PostCreate, PostQuery, PostUpdate,
  type Run, type Session,
} from './shapes';
import { migrate, Store, UsernameTaken, type Position, type UserRow } from './store';
import { toPost, toUser } from './wire';

export interface FeedServer {
  app: FastifyInstance;
  io: SocketServer;
  store: Store;
  /** Migrations applied at this start (empty when the store was up to date). */
  migrated: number[];
  listen(): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
}

/** Login takes any text within the length limits: the signup rules are not told to someone guessing. */
const LoginCredentials = z.strictObject({
  username: z.string().min(1).max(LIMITS.usernameMax),
  password: z.string().min(1).max(LIMITS.passwordMax),
});

// Cursors are opaque to clients: the listing they page ('posts' or 'users'), the last item's time and id,
// base64url-encoded JSON. A cursor of one listing given to the other is refused, not read as a position.
type Listing = 'posts' | 'users';
function encodeCursor(listing: Listing, position: Position): string {
  return Buffer.from(JSON.stringify([listing, position.at, position.id])).toString('base64url');
}
function decodeCursor(listing: Listing, cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value[0] === listing && Number.isSafeInteger(value[1]) && typeof value[2] === 'string') {
      return { at: value[1] as number, id: value[2] };
    }
  } catch {
    // fall through
  }
  const message = `not a cursor this server gave out for GET /${listing === 'posts' ? 'feed/posts' : 'users'}`;
  throw new HttpError(400, 'validation', `query.cursor: ${message}`, { issues: [{ path: 'query.cursor', message }] });
}

/** The query string, each parameter given once (`?limit=1&limit=2` is a 400 naming it, not a NaN). */
function singleQuery(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const repeated = Object.keys(query).filter((key) => Array.isArray(query[key]));
  if (repeated.length) {
    const issues = repeated.map((key) => ({ path: `query.${key}`, message: 'given more than once; give it once' }));
    throw new HttpError(400, 'validation', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
  }
  return query;
}

/** A run as stored: its model's content hash computed here, and a client-given one checked against it. */
function withHash(run: Run): Run {
  const hash = modelHash(run.model.documents);
  if (run.model.hash !== undefined && run.model.hash !== hash) {
    const message = `the model's content hash is ${hash}, not ${run.model.hash}`;
    throw new HttpError(400, 'validation', `body.run.model.hash: ${message}`, { issues: [{ path: 'body.run.model.hash', message }] });
  }
  return { ...run, model: { ...run.model, hash } };
}

/** Strict UTF-8: a byte sequence that is not UTF-8 is an error, not U+FFFD. A leading BOM is dropped. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The `charset` parameter of a Content-Type, lower-cased and unquoted; undefined when there is none. */
function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  for (const parameter of contentType.split(';').slice(1)) {
    const eq = parameter.indexOf('=');
    if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return parameter.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

export async function createFeedServer(config: FeedConfig): Promise<FeedServer> {
  let db: Db;
  let migrated: number[];
  try {
    db = openDb(config.databaseUrl);
  } catch (error) {
    throw new Error(`cannot open the store (DATABASE_URL): ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    migrated = await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw new Error(`cannot open the store (DATABASE_URL): ${error instanceof Error ? error.message : String(error)}`);
  }
  const store = new Store(db);
  const tokens = new Tokens(config.jwtSecret, config.tokenLifetimeSeconds);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Never log credentials: the token header, and bodies are not logged at all.
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // While closing, requests that still arrive on open connections are answered (with Connection:
    // close, see onSend below), not refused with fastify's own 503 body.
    return503OnClosing: false,
    // Respond to a client that stops reading instead of waiting forever.
    connectionTimeout: 60_000,
    requestTimeout: 60_000,
    // Refusals before routing (a malformed percent-escape, a path segment over maxParamLength) get the
    // contract's error body, not fastify's own.
    frameworkErrors: (error, _request, reply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path segment is longer than 200 characters' : error.message;
      return (reply as FastifyReply).code(status).send(errorBody('bad_request', message));
    },
    // And so do requests Node's HTTP parser refuses (a broken request line or header, a body shorter
    // than its Content-Length, headers too large, a client too slow to send its request).
    clientErrorHandler: (error, socket) => {
      const code = (error as { code?: string }).code;
      if (code === 'ECONNRESET' || socket.destroyed) return;
      const [status, reason, message] =
        code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', 'the request did not arrive in time']
        : code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
        : [400, 'Bad Request', `the request is not well-formed HTTP (${code ?? 'parse error'})`];
      const body = JSON.stringify(errorBody('bad_request', message));
      if (socket.writable) {
        socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      }
      socket.destroy(error);
    },
  });
  // From the start of close() on, every answer ends its connection: a keep-alive client would otherwise
  // hold the closing server open for the keep-alive timeout (72 s; a process manager's SIGKILL comes
  // sooner and cuts the requests then in flight), and could go on sending requests all the while.
  let closing = false;
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('Connection', 'close');
  });
  // Bodies are JSON only: text/plain would otherwise be accepted as a string.
  app.removeContentTypeParser('text/plain');
  // A request that carries no content (DELETE, GET, OPTIONS) may still say Content-Type: application/json
  // — several HTTP clients do; an empty body is no body there. POST and PUT still need one.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // The body is read as bytes and decoded here: JSON is UTF-8 (RFC 8259), and a body declared in another
  // charset (`charset=utf-16`, `iso-8859-1`) was read as UTF-8 anyway and stored misread (é as U+FFFD),
  // as were bytes that are not UTF-8 at all. The first is a 415, the second a 400 at `body`.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (body.length === 0 && request.method !== 'POST' && request.method !== 'PUT' && request.method !== 'PATCH') return done(null, undefined);
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return done(new HttpError(415, 'unsupported_media_type', `the body's charset is "${charset}"; send JSON in UTF-8 (Content-Type: application/json, or application/json; charset=utf-8)`, { charset }), undefined);
    }
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      const message = 'not valid UTF-8 (a JSON body is UTF-8)';
      return done(new HttpError(400, 'validation', `body: ${message}`, { issues: [{ path: 'body', message }] }), undefined);
    }
    // fastify says "Body is not valid JSON" for both broken JSON and a __proto__ key: say which, and where.
    return json(request, text, (error, value) => {
      if ((error as { code?: string } | null)?.code !== 'FST_ERR_CTP_INVALID_JSON_BODY') return done(error, value);
      let message: string;
      try {
        JSON.parse(text);
        message = 'a "__proto__" or "constructor.prototype" key is refused';
      } catch (syntax) {
        message = `not valid JSON: ${syntax instanceof Error ? syntax.message : String(syntax)}`;
      }
      return done(new HttpError(400, 'validation', `body: ${message}`, { issues: [{ path: 'body', message }] }), undefined);
    });
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.status).headers(error.headers).send(errorBody(error.code, error.message, error.details));
    }
    const e = error as { code?: string; statusCode?: number; message?: string };
    switch (e.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send(errorBody('payload_too_large', `the body is over the limit of ${config.bodyLimitBytes} bytes (BODY_LIMIT)`, { limit: config.bodyLimitBytes }));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send(errorBody('unsupported_media_type', `send a JSON body with Content-Type: application/json (got ${request.headers['content-type'] ?? 'none'})`));
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return reply.code(400).send(errorBody('validation', `body: ${e.message ?? 'not JSON'}`, { issues: [{ path: 'body', message: e.message ?? 'not JSON' }] }));
    }
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      // fastify's own client errors: a body it could not read (a bad content length…) is a validation
      // error at `body`, like broken JSON; the rest are refusals of the HTTP layer.
      const message = e.message ?? 'bad request';
      if (e.statusCode === 400 && e.code?.startsWith('FST_ERR_CTP_')) {
        return reply.code(400).send(errorBody('validation', `body: ${message}`, { issues: [{ path: 'body', message }] }));
      }
      return reply.code(e.statusCode).send(errorBody('bad_request', message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('internal', 'internal server error; the server log has the details under this request id', { requestId: request.id }));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody('not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
  });

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'rate_limited', `too many requests to this route; try again in ${Math.ceil(context.ttl / 1000)} s`, {
        limit: context.max,
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
  });

  /** The signed-in user of a request; 401 when the token is missing, bad, expired or its user is gone. */
  async function signedIn(request: FastifyRequest): Promise<UserRow> {
    const { userId } = await tokens.fromRequest(request);
    const user = await store.userById(userId);
    if (!user) throw unauthorized('the token names a user that does not exist');
    return user;
  }

  async function session(user: UserRow): Promise<Session> {
    const { token, expiresAt } = await tokens.issue(user.id);
    return { token, expiresAt: expiresAt.toISOString(), user: toUser(user) };
  }

  const noContent = (reply: FastifyReply) => reply.code(204).send();

  const users: Resource = {
    async Index(_reply, request) {
      await signedIn(request);
      const query = parseOr400(PageQuery, singleQuery(request), 'query');
      const rows = await store.users(query.limit + 1, decodeCursor('users', query.cursor));
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      return { users: page.map(toUser), next: rows.length > query.limit && last ? encodeCursor('users', { at: last.created_at, id: last.id }) : null };
    },
    async Find(_reply, id, request) {
      await signedIn(request);
      const row = await store.userById(id);
      if (!row) throw notFound(`no user with id ${id}`);
      return toUser(row);
    },
    // Sign up: served as POST /auth/signup only, where the auth rate limit applies.
    async Create(reply, request) {
      const { username, password } = parseOr400(Credentials, request.body, 'body');
      let row: UserRow;
      try {
        row = await store.createUser(username, await hashPassword(password));
      } catch (error) {
        if (error instanceof UsernameTaken) throw new HttpError(409, 'username_taken', `the username "${username}" is taken`);
        throw error;
      }
      reply.code(201).header('Location', `/users/${row.id}`);
      return session(row);
    },
    // Change one's own password.
    async Update(_reply, id, request) {
      const user = await signedIn(request);
      const change = parseOr400(PasswordChange, request.body, 'body');
      const target = await store.userById(id);
      if (!target) throw notFound(`no user with id ${id}`);
      if (target.id !== user.id) throw forbidden('only the user may change their password');
      if (!(await checkPassword(user.password_hash, change.currentPassword))) throw forbidden('the current password does not match');
      await store.setPasswordHash(user.id, await hashPassword(change.password));
      return toUser(user);
    },
    Options: noContent,
  };

  const posts: Resource = {
    async Index(_reply, request) {
      await signedIn(request);
      const query = parseOr400(PostQuery, singleQuery(request), 'query');
      const rows = await store.posts({
        limit: query.limit + 1,
        after: decodeCursor('posts', query.cursor),
        ...(query.model !== undefined ? { model: query.model } : {}),
        ...(query.author !== undefined ? { author: query.author } : {}),
      });
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      return { posts: page.map(toPost), next: rows.length > query.limit && last ? encodeCursor('posts', { at: last.created_at, id: last.id }) : null };
    },
    async Find(_reply, id, request) {
      await signedIn(request);
      const row = await store.post(id);
      if (!row) throw notFound(`no post with id ${id}`);
      return toPost(row);
    },
    async Create(reply, request) {
      const user = await signedIn(request);
      const input = parseOr400(PostCreate, request.body, 'body');
      const run = input.run ? withHash(input.run) : undefined;
      // Sent to the clients (of every process) when the store announces it, in seq order.
      const { row } = await store.createPost(user, {
        title: input.title,
        body: input.body,
        run: run ? JSON.stringify(run) : null,
        modelHash: run?.model.hash ?? null,
      });
      const post = toPost(row);
      reply.code(201).header('Location', `/feed/post/${row.id}`);
      return post;
    },
    async Update(_reply, id, request) {
      const user = await signedIn(request);
      const input = parseOr400(PostUpdate, request.body, 'body');
      const existing = await store.post(id);
      if (!existing) throw notFound(`no post with id ${id}`);
      if (existing.author_id !== user.id) throw forbidden('only the author may change this post');
      const run = input.run ? withHash(input.run) : input.run;
      // The old model's subscribers are told too when the run moves to another model.
      const done = await store.updatePost(
        id,
        user.id,
        {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.body !== undefined ? { body: input.body } : {}),
          ...(run !== undefined ? { run: run === null ? null : JSON.stringify(run), modelHash: run?.model.hash ?? null } : {}),
        },
        existing.model_hash,
      );
      if (!done) throw notFound(`no post with id ${id}`);
      return toPost(done.row);
    },
    async Delete(reply, id, request) {
      const user = await signedIn(request);
      const existing = await store.post(id);
      if (!existing) throw notFound(`no post with id ${id}`);
      if (existing.author_id !== user.id) throw forbidden('only the author may delete this post');
      const done = await store.deletePost(id, user.id, existing.model_hash);
      if (!done) throw notFound(`no post with id ${id}`);
      return reply.code(204).send();
    },
    Options: noContent,
  };

  const authLimit = { config: { rateLimit: { max: config.authRateLimit.max, timeWindow: config.authRateLimit.windowMs } } };
  registerResource(app, '/auth/signup', { Create: users.Create!.bind(users) }, authLimit);
  registerResource(app, '/auth/login', { Create: loginCreate }, authLimit);
  // Users are a resource without Create at /users: sign-up goes through the rate-limited /auth/signup.
  const { Create: _signup, ...userRoutes } = users;
  registerResource(app, '/users', userRoutes);
  registerResource(app, '/feed/post', posts);
  registerResource(app, '/feed/posts', { Index: posts.Index!.bind(posts), Options: noContent });

  async function loginCreate(_reply: FastifyReply, request: FastifyRequest): Promise<Session> {
    const { username, password } = parseOr400(LoginCredentials, request.body, 'body');
    const user = await store.userByName(username);
    if (!(await checkPassword(user?.password_hash, password)) || !user) throw unauthorized('wrong username or password');
    return session(user);
  }

  const io = new SocketServer(app.server, {
    // The editor connects from Node, not from a browser page: no cross-origin access is granted.
    serveClient: false,
    maxHttpBufferSize: 1024 * 1024,
  });
  const live = new Live(io, store, tokens, app.log);
  // Every process hears every committed change from the store, in seq order, and sends it to its own
  // clients (no socket.io adapter: its emits, one NOTIFY each after the commit, could cross).
  try {
    await db.listen(live);
  } catch (error) {
    io.close();
    await db.close().catch(() => undefined);
    throw new Error(`cannot open the store (DATABASE_URL): ${error instanceof Error ? error.message : String(error)}`);
  }

  return {
    app,
    io,
    store,
    migrated,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.host });
      const port = (app.server.address() as { port: number }).port;
      return { url: address, port };
    },
    async close() {
      // Requests in flight are answered (and their connections then closed) before the store closes.
      // io.close() first, as before, waited for the HTTP server to close, which a kept-alive connection
      // delays by the keep-alive timeout, while requests on it were still served as if nothing happened.
      closing = true;
      live.close();
      io.engine.close(); // ends every live connection as a dropped transport: clients reconnect by themselves
      await app.close().catch(() => undefined); // stops listening, closes idle connections, waits for the rest
      await new Promise<void>((resolve) => io.close(() => resolve())); // the server is closed
      await db.close();
    },
  };
}

