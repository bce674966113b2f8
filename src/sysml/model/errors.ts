// The ways a run ends other than with a result. Each maps to one protocol error code in server.ts.
import type { SourceRange } from '../ast';

/** `file:line:col` of a range in a document, the place every user-facing message starts with. */
export function place(path: string, range: SourceRange | undefined): string {
  return range ? `${path}:${range.line}:${range.column}` : path;
}

/**
 * The engine cannot answer this question on this model: a construct it does not support, or a model it
 * cannot read (syntax error, unknown name, dimension mismatch). Protocol error `unsupported`; the message
 * names the construct and its place.
 */
export class UnsupportedError extends Error {
  override readonly name = 'UnsupportedError';
}

/** The run stopped at its budget (deadline, memory, cancel) with nothing it can stand behind. Error `budget`. */
export class BudgetError extends Error {
  override readonly name = 'BudgetError';
}
