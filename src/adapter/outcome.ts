// The adapter's output envelope and exit codes (task-adapter-contract.md, "Output envelope" and "Errors").

export const ExitCode = {
  success: 0,
  ioOrHttp: 1,
  usage: 2,
  waitDeadline: 3,
  serviceUnreachable: 4,
  runtimeUnreachable: 5,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface FailureDetail {
  message: string;
  /** HTTP status of the response that failed; 0 when there was no HTTP response. */
  status_code: number;
  /** The response body verbatim (or empty). */
  body: string;
}

/**
 * Exactly one of these is printed on stdout per invocation. A failure may also carry `data` when the
 * command has a result to show (wait/cancel --wait past the deadline, ensure-running that found
 * something down): `ok` is true exactly when the exit code is 0.
 */
export type Envelope = { ok: true; data: unknown } | { ok: false; error: FailureDetail; data?: unknown };

export interface Outcome {
  exitCode: ExitCode;
  envelope: Envelope;
}

/** A failure a command reports as a value: its envelope and exit code. */
export class AdapterFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly statusCode = 0,
    readonly body = '',
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AdapterFailure';
  }
}

export class UsageError extends AdapterFailure {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = 'UsageError';
  }
}

export function success(data: unknown): Outcome {
  return { exitCode: ExitCode.success, envelope: { ok: true, data } };
}

export function failure(error: AdapterFailure): Outcome {
  const detail: FailureDetail = { message: error.message, status_code: error.statusCode, body: error.body };
  const envelope: Envelope =
    error.data === undefined ? { ok: false, error: detail } : { ok: false, error: detail, data: error.data };
  return { exitCode: error.exitCode, envelope };
}

/** Anything thrown that is not an AdapterFailure is a bug or an unexpected I/O condition: exit 1. */
export function unexpectedFailure(error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  return failure(new AdapterFailure(`internal error: ${message}`, ExitCode.ioOrHttp));
}
