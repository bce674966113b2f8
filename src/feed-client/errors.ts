// What can go wrong talking to a feed server, as errors a user can act on. The extension shows their
// messages as they are and offers "Sign In" on SignInAgain.
import type { z } from 'zod';

/** Any failure of a feed request; `message` is a sentence for the user, naming the server. */
export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

/** Nothing answered at the server's address (down, wrong URL or port, network). */
export class FeedUnreachable extends FeedError {
  constructor(readonly url: string, cause: string) {
    super(`the team feed server at ${url} cannot be reached (${cause}); is it running, and is assay.feed.url right?`);
    this.name = 'FeedUnreachable';
  }
}

/** The server refused the token (missing, expired, forged, its user gone): sign in again. */
export class SignInAgain extends FeedError {
  constructor(readonly url: string, reason: string) {
    super(`the team feed at ${url} refused your sign-in (${reason}); sign in again`);
    this.name = 'SignInAgain';
  }
}

/** The server answered with its error body: a refusal the user can read (taken username, 403, 404…). */
export class FeedRefused extends FeedError {
  constructor(readonly status: number, readonly code: string, serverMessage: string, readonly what: string) {
    super(`${what}: the team feed refused (${status} ${code}): ${serverMessage}`);
    this.name = 'FeedRefused';
  }
}

/** The server answered something that is not what the contract says; names the first fields that were wrong. */
export class FeedMalformed extends FeedError {
  constructor(readonly what: string, readonly problems: string[]) {
    super(`${what}: the team feed server answered something malformed: ${problems.join('; ')}`);
    this.name = 'FeedMalformed';
  }
}

/** The zod issues of a failed parse as `path: message` lines (at most five). */
export function issuesOf(error: z.ZodError, root: string): string[] {
  const lines = error.issues.map((issue) => `${[root, ...issue.path.map(String)].join('.')}: ${issue.message}`);
  return lines.length > 5 ? [...lines.slice(0, 5), `and ${lines.length - 5} more`] : lines;
}
