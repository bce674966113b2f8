// The feed's HTTP routes (docs/feed.md, "Routes") as typed calls. Every answer is checked against the
// contract's strict schemas (src/feed/shapes.ts) before anyone reads it; every failure is a FeedError.
import { z } from 'zod';
import { Credentials, ErrorBody, Post, PostCreate, PostPage, PostUpdate, Session, type Post as PostT } from '../feed/shapes';
import { FeedMalformed, FeedRefused, FeedUnreachable, SignInAgain, issuesOf } from './errors';

export interface FeedHttpOptions {
  /** The server's base URL (`http://host:port`, a path prefix allowed). */
  url: string;
  /** The current token, read at every call (undefined: not signed in). */
  token?: () => string | undefined;
  /** Milliseconds before a request that got no answer counts as the server being unreachable (default 30 s). */
  timeoutMs?: number;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
  /** Only posts about the model with this content hash. */
  model?: string;
}

/** A base URL as typed in the setting; a clear message when it is not one. */
export function feedUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`"${text}" is not a URL (expected e.g. http://localhost:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${text}" is not an http:// or https:// URL`);
  return url.toString().replace(/\/+$/, '');
}

export class FeedHttp {
  readonly url: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: FeedHttpOptions) {
    this.url = feedUrl(options.url);
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  signUp(username: string, password: string) {
    return this.call('sign up', 'POST', '/auth/signup', Session, { body: this.credentials(username, password), signedIn: false });
  }

  signIn(username: string, password: string) {
    return this.call('sign in', 'POST', '/auth/login', Session, { body: { username, password }, signedIn: false });
  }

  /** One page of posts, newest first. */
  list(request: PageRequest = {}) {
    const query = new URLSearchParams();
    if (request.limit !== undefined) query.set('limit', String(request.limit));
    if (request.cursor !== undefined) query.set('cursor', request.cursor);
    if (request.model !== undefined) query.set('model', request.model);
    const q = query.toString();
    return this.call('list posts', 'GET', `/feed/posts${q ? `?${q}` : ''}`, PostPage);
  }

  /** The newest posts, following pages up to `max`. */
  async newest(max = 100): Promise<PostT[]> {
    const posts: PostT[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.list({ limit: Math.min(100, max - posts.length), ...(cursor ? { cursor } : {}) });
      posts.push(...page.posts);
      cursor = page.next ?? undefined;
    } while (cursor && posts.length < max);
    return posts;
  }

  get(id: string) {
    return this.call(`open post ${id}`, 'GET', `/feed/post/${encodeURIComponent(id)}`, Post);
  }

  create(post: z.input<typeof PostCreate>) {
    return this.call('share the post', 'POST', '/feed/post', Post, { body: this.checked(PostCreate, post, 'the post') });
  }

  update(id: string, change: z.input<typeof PostUpdate>) {
    return this.call(`edit post ${id}`, 'PUT', `/feed/post/${encodeURIComponent(id)}`, Post, { body: this.checked(PostUpdate, change, 'the change') });
  }

  async remove(id: string): Promise<void> {
    await this.call(`delete post ${id}`, 'DELETE', `/feed/post/${encodeURIComponent(id)}`, z.undefined(), { empty: true });
  }

  private credentials(username: string, password: string) {
    return this.checked(Credentials, { username, password }, 'the credentials');
  }

  /** What we send is checked too: a refusal here names the field instead of the server's 400. */
  private checked<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new Error(`${what}: ${issuesOf(parsed.error, 'post').map((l) => l.replace(/^post\./, '')).join('; ')}`);
    return parsed.data;
  }

  private async call<S extends z.ZodType>(
    what: string,
    method: string,
    path: string,
    schema: S,
    options: { body?: unknown; signedIn?: boolean; empty?: boolean } = {},
  ): Promise<z.infer<S>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.signedIn !== false) {
      const token = this.options.token?.();
      if (!token) throw new SignInAgain(this.url, 'you are not signed in');
      headers['authorization'] = `Bearer ${token}`;
    }
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new FeedUnreachable(this.url, causeOf(error, this.timeoutMs));
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new FeedUnreachable(this.url, `the answer broke off: ${causeOf(error, this.timeoutMs)}`);
    }
    const where = `${what} (${method} ${path.split('?')[0]} → ${response.status})`;
    if (!response.ok) {
      const body = parseJson(text);
      const parsed = ErrorBody.safeParse(body);
      if (!parsed.success) throw new FeedMalformed(where, [`an error without the contract's error body${text ? `: ${JSON.stringify(text.slice(0, 120))}` : ''}`]);
      const { code, message } = parsed.data.error;
      if (response.status === 401 && options.signedIn !== false) throw new SignInAgain(this.url, message);
      throw new FeedRefused(response.status, code, message, what);
    }
    if (options.empty) {
      if (response.status !== 204 && text.trim() !== '') throw new FeedMalformed(where, [`expected no content, got ${JSON.stringify(text.slice(0, 120))}`]);
      return undefined as z.infer<S>;
    }
    const type = response.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) throw new FeedMalformed(where, [`expected a JSON answer, got Content-Type ${type || 'none'}`]);
    const body = parseJson(text);
    if (body === NOT_JSON) throw new FeedMalformed(where, [`the answer is not JSON: ${JSON.stringify(text.slice(0, 120))}`]);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new FeedMalformed(where, issuesOf(parsed.error, 'answer'));
    return parsed.data;
  }
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function causeOf(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}
