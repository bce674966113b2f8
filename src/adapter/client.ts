// HTTP client of the task-execution service. Every request is bounded by a timeout, bodies are
// collected as chunks and joined once, and every way a call can go wrong becomes an AdapterFailure
// whose message names the method and URL.
import * as http from 'node:http';
import * as https from 'node:https';
import type { AdapterConfig } from './config';
import { formatDuration } from './duration';
import { AdapterFailure, ExitCode } from './outcome';

export interface HttpResponse {
  status: number;
  statusText: string;
  /** The body decoded as UTF-8, verbatim. */
  text: string;
}

export interface RequestOptions {
  body?: string;
  timeoutMs: number;
  /** Aborting fails the request with `abortMessage` (or a generic message). */
  signal?: AbortSignal;
}

/** The request got no complete HTTP response (refused, reset, timed out, aborted). */
export class NoResponse extends AdapterFailure {
  constructor(
    message: string,
    readonly reason: 'network' | 'timeout' | 'aborted',
  ) {
    super(message, ExitCode.ioOrHttp);
    this.name = 'NoResponse';
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the server';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found (${error.code})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `host unreachable (${error.code})`;
    default:
      return error.message || String(error.code ?? 'network error');
  }
}

/** Largest response body read (64 MiB); a longer one is a failure rather than memory without bound. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** One HTTP exchange. Resolves with any status; rejects with NoResponse when no full response came,
 * and with an AdapterFailure when the body is longer than MAX_BODY_BYTES. */
export function httpRequest(method: string, url: URL, options: RequestOptions): Promise<HttpResponse> {
  const target = `${method} ${url.toString()}`;
  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const headers: Record<string, string | number> = { accept: 'application/json' };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(options.body);
    } else if (method !== 'GET') {
      headers['content-length'] = 0;
    }
    const transport = url.protocol === 'https:' ? https : http;
    // No connection reuse: one process makes few requests, and a pooled socket must not keep it alive.
    const request = transport.request(url, { method, headers, agent: false });
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      action();
    };
    const fail = (message: string, reason: NoResponse['reason']): void =>
      settle(() => {
        reject(new NoResponse(`${target}: ${message}`, reason));
        request.destroy();
      });
    const timer = setTimeout(
      () => fail(`no complete response within ${formatDuration(options.timeoutMs)} (request timeout)`, 'timeout'),
      options.timeoutMs,
    );
    const onAbort = (): void => {
      const reason: unknown = options.signal?.reason;
      fail(typeof reason === 'string' ? reason : 'request aborted', 'aborted');
    };
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort);
    request.on('error', (error: NodeJS.ErrnoException) => fail(describeNetworkError(error), 'network'));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          chunks.length = 0;
          settle(() => {
            reject(new AdapterFailure(`${target} returned ${response.statusCode ?? 0} with a body longer than ${MAX_BODY_BYTES / 1024 / 1024} MiB, the most the adapter reads; not read further`, ExitCode.ioOrHttp, response.statusCode ?? 0, ''));
            request.destroy();
          });
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (error: NodeJS.ErrnoException) => fail(`response interrupted: ${describeNetworkError(error)}`, 'network'));
      response.on('close', () => {
        if (!response.complete) fail('connection closed before the response was complete', 'network');
      });
      response.on('end', () =>
        settle(() =>
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        ),
      );
    });
    request.end(options.body);
  });
}

function serviceMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const candidate of [record['message'], record['error'], record['detail']]) {
    if (typeof candidate === 'string' && candidate.trim()) return candidate.trim();
    if (typeof candidate === 'object' && candidate !== null) {
      const inner = (candidate as Record<string, unknown>)['message'];
      if (typeof inner === 'string' && inner.trim()) return inner.trim();
    }
  }
  return undefined;
}

/** Deepest nesting of arrays and objects a service's JSON may have: the answer is written out again
 * as the envelope, and JSON.stringify recurses (it overflows the stack at a few thousand levels). */
export const MAX_JSON_DEPTH = 512;

/** Nesting depth of a JSON text's arrays and objects (strings skipped), without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) max = depth;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return max;
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

export interface JsonCall {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  body?: string;
  /** Said after a 404, e.g. "the service does not provide this endpoint". */
  notFound: string;
  /**
   * Said instead of `notFound` after a 404 whose body is not JSON (a plain-text `404 page not found`
   * from the service's router): the route does not exist, as opposed to a JSON error about the resource.
   */
  noRoute?: string;
  signal?: AbortSignal;
}

/**
 * A call whose 2xx answer is JSON. A 2xx with an empty body is `{}` (e.g. 202/204 without content);
 * a 2xx whose body is not JSON, and every non-2xx, is a failure with the body verbatim.
 */
export async function callJson(call: JsonCall, timeoutMs: number): Promise<unknown> {
  const target = `${call.method} ${call.url.toString()}`;
  let response: HttpResponse;
  try {
    response = await httpRequest(call.method, call.url, { body: call.body, timeoutMs, signal: call.signal });
  } catch (error) {
    if (error instanceof NoResponse && error.reason === 'network' && error.message.endsWith('connection refused')) {
      throw new NoResponse(`${error.message} (is the service running? "assay-adapter ensure-running" checks and can start it)`, 'network');
    }
    throw error;
  }
  const parsed = parseJson(response.text);
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status >= 200 && response.status < 300) {
    if (response.text.trim() === '') return {};
    if (parsed) {
      const depth = jsonDepth(response.text);
      if (depth > MAX_JSON_DEPTH) {
        throw new AdapterFailure(`${target} returned ${status} with JSON nested ${depth} levels deep (at most ${MAX_JSON_DEPTH} are passed on)`, ExitCode.ioOrHttp, response.status, response.text);
      }
      return parsed.value;
    }
    throw new AdapterFailure(`${target} returned ${status} with a body that is not JSON`, ExitCode.ioOrHttp, response.status, response.text);
  }
  let message = `${target} returned ${status}`;
  if (response.status === 404) message += `: ${!parsed && call.noRoute !== undefined ? call.noRoute : call.notFound}`;
  const said = parsed ? serviceMessage(parsed.value) : undefined;
  if (said) message += ` (service says: ${said})`;
  throw new AdapterFailure(message, ExitCode.ioOrHttp, response.status, response.text);
}

/** The service's endpoints (task-adapter-contract.md, "Endpoints"). */
export class TaskServiceClient {
  constructor(readonly config: AdapterConfig) {}

  url(path: string): URL {
    return new URL(this.config.baseUrl + path);
  }

  private endpoint(method: 'GET' | 'POST', path: string, body?: string): Promise<unknown> {
    return callJson(
      { method, url: this.url(path), body, notFound: `the service does not provide ${method} ${path}` },
      this.config.requestTimeoutMs,
    );
  }

  capabilities(): Promise<unknown> {
    return this.endpoint('GET', '/adapters/capabilities');
  }
  tools(): Promise<unknown> {
    return this.endpoint('GET', '/adapters/tools');
  }
  act(body: string): Promise<unknown> {
    return this.endpoint('POST', '/adapters/actions', body);
  }
  translate(body: string): Promise<unknown> {
    return this.endpoint('POST', '/adapters/translate', body);
  }
  submit(body: string): Promise<unknown> {
    return this.endpoint('POST', '/tasks', body);
  }
  health(): Promise<unknown> {
    return this.endpoint('GET', '/health');
  }

  task(id: string, signal?: AbortSignal): Promise<unknown> {
    return callJson(
      { method: 'GET', url: this.url(`/tasks/${encodeURIComponent(id)}`), notFound: `the service knows no task "${id}"`, signal },
      this.config.requestTimeoutMs,
    );
  }

  /** DELETE /tasks/{id}: state cleanup; the contract does not promise that a running process stops. */
  deleteTask(id: string): Promise<unknown> {
    return callJson(
      { method: 'DELETE', url: this.url(`/tasks/${encodeURIComponent(id)}`), notFound: `the service knows no task "${id}"`, noRoute: 'the service has no DELETE /tasks/{id}' },
      this.config.requestTimeoutMs,
    );
  }

  cancel(id: string): Promise<unknown> {
    return callJson(
      {
        method: 'POST',
        url: this.url(`/tasks/${encodeURIComponent(id)}/cancel`),
        notFound: `the service knows no task "${id}"`,
        noRoute: `the service has no cancel endpoint (POST /tasks/{id}/cancel answered a plain-text 404, not an error about task "${id}")`,
      },
      this.config.requestTimeoutMs,
    );
  }
}
