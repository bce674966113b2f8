// Tokens and passwords. Tokens: HS256 JSON Web Tokens with sub (user id), iat and exp, verified with
// the algorithm pinned, so `none` and asymmetric algorithms are refused whatever the header says.
// Passwords: Argon2id at or above OWASP's minimum (m = 19 MiB, t = 2, p = 1).
import argon2 from 'argon2';
import { SignJWT, jwtVerify } from 'jose';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors';

export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

// Checked when the user is unknown, so that a login for a missing user costs the same hash as one for a
// present user and the response time does not tell which usernames exist.
let dummyHash: Promise<string> | undefined;

/** argon2.verify compares in constant time. */
export async function checkPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (hash === undefined) {
    dummyHash ??= hashPassword('assay-feed: no such user');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export class Tokens {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    readonly lifetimeSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(userId: string): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + this.lifetimeSeconds;
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(userId).setIssuedAt(iat).setExpirationTime(exp).sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** The user id and expiry of a valid token; throws a 401 HttpError saying what is wrong otherwise. */
  async verify(token: string): Promise<{ userId: string; exp: number }> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['sub', 'iat', 'exp'] });
      return { userId: payload.sub!, exp: payload.exp! };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ERR_JWT_EXPIRED') throw unauthorized('the token has expired; log in again');
      throw unauthorized('the token is not valid');
    }
  }

  /** The bearer token of a request's Authorization header, verified. */
  async fromRequest(request: FastifyRequest): Promise<{ userId: string; exp: number }> {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('this route needs a token: send Authorization: Bearer <token> (from POST /auth/login)');
    const match = /^Bearer +([^\s]+)\s*$/i.exec(header);
    if (!match) throw unauthorized('the Authorization header must be "Bearer <token>"');
    return this.verify(match[1]!);
  }
}
