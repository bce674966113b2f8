// One error body for every failure: { "error": { "code", "message", "details"? } } (docs/feed.md, "Errors").
import type { z } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Extra response headers (Allow on 405, WWW-Authenticate on 401, Retry-After on 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const unauthorized = (message: string) =>
  new HttpError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="assay-feed"' });
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const methodNotAllowed = (method: string, path: string, allow: string[]) =>
  new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${path}; allowed: ${allow.join(', ') || 'none'}`, { allow }, {
    Allow: allow.join(', '),
  });

/** A zod failure as a 400 naming each field path (`body.run.question.kind`). */
export function validationError(error: z.ZodError, where: 'body' | 'query' | 'params' | 'event'): HttpError {
  const issues = error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message }));
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new HttpError(400, 'validation', message, { issues });
}

export function parseOr400<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'query' | 'params' | 'event'): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, where);
  return parsed.data;
}

export function errorBody(code: string, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}
