// Configuration from the environment (task-adapter-contract.md, "Configuration").
import { parseDuration } from './duration';
import { UsageError } from './outcome';

export interface AdapterConfig {
  /** {base_url}: control plane, no trailing slash. */
  baseUrl: string;
  /** {runtime_url}: runtime, no trailing slash. */
  runtimeUrl: string;
  composeDir: string;
  runtimeImage: string;
  runtimeSource: string;
  /** The port the runtime image listens on inside its container (SERVICE_RUNTIME_CONTAINER_PORT, default 8080). */
  runtimeContainerPort: number;
  /** Bound on every single HTTP request (connect to last body byte), milliseconds. */
  requestTimeoutMs: number;
}

export const defaultBaseUrl = 'http://127.0.0.1:8080';
export const defaultRuntimeUrl = 'http://127.0.0.1:18080';
export const defaultRequestTimeoutMs = 30_000;
/** The runtime image listens on 8080 inside its container (the service's docs). */
export const defaultRuntimeContainerPort = 8080;

export type Environment = Readonly<Record<string, string | undefined>>;

function setting(env: Environment, name: string): string {
  return (env[name] ?? '').trim();
}

function httpBase(env: Environment, name: string, fallback: string): string {
  const text = setting(env, name) || fallback;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name}="${text}" is not a URL (expected for example ${fallback})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${name}="${text}" must be an http:// or https:// URL`);
  }
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

export function readConfig(env: Environment): AdapterConfig {
  const timeoutText = setting(env, 'SERVICE_REQUEST_TIMEOUT');
  let requestTimeoutMs = defaultRequestTimeoutMs;
  if (timeoutText) {
    const ms = parseDuration(timeoutText);
    if (typeof ms !== 'number' || ms <= 0) {
      const why = typeof ms === 'number' ? 'must be positive' : ms.error;
      throw new UsageError(`SERVICE_REQUEST_TIMEOUT="${timeoutText}": ${why}`);
    }
    requestTimeoutMs = ms;
  }
  const portText = setting(env, 'SERVICE_RUNTIME_CONTAINER_PORT');
  let runtimeContainerPort = defaultRuntimeContainerPort;
  if (portText) {
    runtimeContainerPort = Number(portText);
    if (!/^[0-9]+$/.test(portText) || runtimeContainerPort < 1 || runtimeContainerPort > 65535) {
      throw new UsageError(`SERVICE_RUNTIME_CONTAINER_PORT="${portText}": expected a port number from 1 to 65535`);
    }
  }
  return {
    baseUrl: httpBase(env, 'SERVICE_URL', defaultBaseUrl),
    runtimeUrl: httpBase(env, 'SERVICE_RUNTIME_URL', defaultRuntimeUrl),
    composeDir: setting(env, 'SERVICE_COMPOSE_DIR'),
    runtimeImage: setting(env, 'SERVICE_RUNTIME_IMAGE'),
    runtimeSource: setting(env, 'SERVICE_RUNTIME_SOURCE'),
    runtimeContainerPort,
    requestTimeoutMs,
  };
}

/** `text` with the credentials of every http(s) URL in it (`http://user:pass@host`) replaced by `***`:
 * SERVICE_URL may carry them, and they must not reach stdout, stderr or an editor's output channel. */
export function redactCredentials(text: string): string {
  return text.replace(/\b(https?:\/\/)[^\s/?#@"'<>\\]+@/gi, '$1***@');
}
