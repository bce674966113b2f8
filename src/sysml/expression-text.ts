// A question's text that is one SysML expression (a condition, a pinned value, a domain bound), parsed
// as the result of a calc so the grammar's expression rules apply: the engine's questions and the
// host's check of a witness read it the same way.
import type { Expression } from './ast';
import { UnsupportedError } from './model/errors';
import { parse } from './parser';

/** What precedes the text in the parsed source: ranges in the expression are offset by its length. */
export const EXPRESSION_WRAPPER = 'calc __assay_condition__ {\n';

/** The text as one expression, or refused naming `what`, the message, and its column in the text. */
export function parseExpressionText(text: string, what: string): Expression {
  const r = parse(`${EXPRESSION_WRAPPER}${text}\n}`);
  const first = r.errors[0];
  if (first) {
    const column = first.range.line === 2 ? first.range.column : text.length + 1;
    throw new UnsupportedError(`${what}: ${first.message} (column ${column} of "${text}")`);
  }
  const calc = r.document.members[0];
  const body = calc && 'body' in calc ? calc.body : null;
  const result = body?.find((m) => m.kind === 'ResultExpression');
  if (!result || result.kind !== 'ResultExpression' || body!.length !== 1) throw new UnsupportedError(`${what}: "${text}" is not one expression`);
  return result.expression;
}
