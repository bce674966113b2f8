// Settings from the environment (docs/feed.md, "Configuration"). A bad value stops the start with a
// message naming the setting.
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

export interface FeedConfig {
  port: number;
  host: string;
  databaseUrl: string;
  jwtSecret: string;
  /** Where the secret came from, for the start message. */
  secretSource: 'JWT_SECRET' | { created: string } | { read: string };
  tokenLifetimeSeconds: number;
  bodyLimitBytes: number;
  authRateLimit: { max: number; windowMs: number };
  trustProxy: boolean;
  logLevel: string;
  production: boolean;
}

export class ConfigError extends Error {}

export const DEFAULT_DATABASE_URL = 'sqlite:.assay-feed/feed.db';
export const MIN_SECRET_BYTES = 32;

function intSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name}="${raw}": must be a whole number`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name}=${n}: must be between ${min} and ${max}`);
  return n;
}

/** "3600", "90s", "15m", "1h", "7d" → seconds. */
function durationSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const m = /^(\d+)\s*(s|m|h|d)?$/.exec(raw);
  if (!m) throw new ConfigError(`${name}="${raw}": use seconds or a number with s, m, h or d (e.g. 1h)`);
  const seconds = Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[(m[2] ?? 's') as 's' | 'm' | 'h' | 'd'];
  if (seconds < 10 || seconds > 30 * 86400) throw new ConfigError(`${name}="${raw}": must be between 10 s and 30 days`);
  return seconds;
}

/** `true`/`1` or `false`/`0` (unset: false); anything else is refused rather than read as off. */
function booleanSetting(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name}="${env[name]}": use true or false`);
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevelSetting(env: NodeJS.ProcessEnv): string {
  const raw = env['LOG_LEVEL']?.trim();
  if (!raw) return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new ConfigError(`LOG_LEVEL="${raw}": use one of ${LOG_LEVELS.join(', ')}`);
  return raw;
}

/**
 * The signing secret: JWT_SECRET, or outside production with an SQLite store, a random one kept in a
 * file beside the database (mode 0600), created on the first start.
 */
function secretSetting(env: NodeJS.ProcessEnv, databaseUrl: string, production: boolean): Pick<FeedConfig, 'jwtSecret' | 'secretSource'> {
  const given = env['JWT_SECRET'];
  if (given !== undefined && given !== '') {
    const bytes = Buffer.byteLength(given, 'utf8');
    if (bytes < MIN_SECRET_BYTES) {
      throw new ConfigError(`JWT_SECRET is ${bytes} bytes; it must be at least ${MIN_SECRET_BYTES} bytes (make one with: openssl rand -base64 48)`);
    }
    return { jwtSecret: given, secretSource: 'JWT_SECRET' };
  }
  if (production) throw new ConfigError('JWT_SECRET is not set; in production (NODE_ENV=production) the feed needs one of at least 32 bytes (openssl rand -base64 48)');
  if (!databaseUrl.startsWith('sqlite:') || databaseUrl === 'sqlite::memory:') {
    throw new ConfigError('JWT_SECRET is not set; a generated secret is kept only beside an SQLite file, so set JWT_SECRET for this DATABASE_URL');
  }
  const file = join(dirname(resolve(databaseUrl.slice('sqlite:'.length))), 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) throw new ConfigError(`${file}: the kept secret is shorter than ${MIN_SECRET_BYTES} bytes; delete the file or set JWT_SECRET`);
    return { jwtSecret: secret, secretSource: { read: file } };
  }
  const secret = randomBytes(48).toString('base64url');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { jwtSecret: secret, secretSource: { created: file } };
}

/** What a file that is not a regular file is, for the refusal. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** The deepest existing ancestor of `path` (itself when it exists), symlinks resolved. */
function realExisting(path: string): string {
  let at = path;
  for (;;) {
    try {
      return realpathSync(at);
    } catch {
      const up = dirname(at);
      if (up === at) return at;
      at = up;
    }
  }
}

/**
 * An SQLite store must be a regular file this process can read and write (or not exist yet: it is
 * created). A named pipe, a device or a kernel file (/proc, /sys, /dev) is refused here, naming the
 * setting and the path: SQLite would open a pipe it may not write for reading and wait forever for a
 * writer (the start hung), fail with "disk I/O error" on a device, and leave its lock file beside it.
 * The files SQLite keeps beside the store (`-lock`, `-wal`, `-shm`, `-journal`) are held to the same.
 */
function checkSqliteFile(file: string): void {
  if (file === ':memory:') return;
  const path = resolve(file);
  const refuse = (what: string) =>
    new ConfigError(`DATABASE_URL=sqlite:${file}: ${what}; give the path of an SQLite database file (a regular file this process can read and write, created when missing)`);
  const real = realExisting(path);
  const under = (root: string) => real === root || real.startsWith(`${root}${sep}`);
  const kernel = ['/proc', '/sys', '/dev'].find((root) => under(root) && !under('/dev/shm'));
  if (kernel) throw refuse(`${path} is under ${kernel}, a kernel file system, not a place for a database`);
  for (const candidate of [path, ...['-lock', '-wal', '-shm', '-journal', '-lock-journal'].map((suffix) => `${path}${suffix}`)]) {
    let stats: Stats;
    try {
      stats = statSync(candidate);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') continue;
      throw refuse(`cannot look at ${candidate}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!stats.isFile()) throw refuse(`${candidate} is ${kindOf(stats)}, not a regular file`);
    try {
      accessSync(candidate, constants.R_OK | constants.W_OK);
    } catch {
      throw refuse(`${candidate} is not readable and writable by this process`);
    }
  }
}

export function readConfig(env: NodeJS.ProcessEnv): FeedConfig {
  const production = env['NODE_ENV'] === 'production';
  const databaseUrl = env['DATABASE_URL']?.trim() || DEFAULT_DATABASE_URL;
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(databaseUrl)?.[1];
    throw new ConfigError(`DATABASE_URL: ${scheme ? `"${scheme}:" is not a store` : 'not a store URL'}; use sqlite:<file> or postgres://user:password@host:port/database`);
  }
  if (databaseUrl.startsWith('sqlite:')) checkSqliteFile(databaseUrl.slice('sqlite:'.length));
  const settings = {
    port: intSetting(env, 'PORT', 8080, 0, 65535),
    host: env['HOST']?.trim() || '0.0.0.0',
    databaseUrl,
    tokenLifetimeSeconds: durationSetting(env, 'JWT_LIFETIME', 3600),
    bodyLimitBytes: intSetting(env, 'BODY_LIMIT', 4 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    authRateLimit: {
      max: intSetting(env, 'AUTH_RATE_LIMIT', 20, 1, 1_000_000),
      windowMs: durationSetting(env, 'AUTH_RATE_WINDOW', 60) * 1000,
    },
    trustProxy: booleanSetting(env, 'TRUST_PROXY'),
    logLevel: logLevelSetting(env),
    production,
  };
  // The secret last: a bad setting above must not leave a generated secret file behind.
  return { ...settings, ...secretSetting(env, databaseUrl, production) };
}
