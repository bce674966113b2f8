// What the host can say is wrong with a question before any engine sees it, so that a user's mistake
// is reported as what it is rather than as "not covered": a syntax error in a document that declares
// the subject (a model error, at file:line:col — the bundled engine refuses exactly these), and a typed
// condition that cannot be read (a condition error, at a column of the text the user typed).
import type { Question, SourceDocument } from '../protocol';
import type { RunOutcome } from './host';
import { languageOfPath, parse } from '../sysml/parser';
import { resolveDocuments } from '../sysml/names';

export interface ModelProblem {
  status: 'model error';
  /** `file:line:col: message` */
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface ConditionProblem {
  status: 'condition error';
  /** `condition <name>, column <n>: message` */
  message: string;
  /** 1-based column in the condition's text. */
  column: number;
}

export type QuestionProblem = ModelProblem | ConditionProblem;

const CONDITION_PREFIX = 'calc __condition { ';

/** The first syntax error in a condition's text, with its 1-based column in that text; undefined when it reads. */
export function conditionSyntaxError(text: string): { column: number; message: string } | undefined {
  if (text.trim() === '') return { column: 1, message: 'the condition is empty' };
  if (/[\r\n]/.test(text)) return { column: text.search(/[\r\n]/) + 1, message: 'a condition is one line' };
  const r = parse(`${CONDITION_PREFIX}${text} }`);
  const first = r.errors[0];
  const body = r.document.members[0];
  const members = body && (body.kind === 'Definition' || body.kind === 'Usage') ? (body.body ?? []) : [];
  if (!first) {
    if (members.some((m) => m.kind === 'ResultExpression')) return undefined;
    return { column: 1, message: 'expected an expression' };
  }
  // Errors past the user's text (at the closing brace the wrapper adds) point just after it.
  const column = Math.min(Math.max(first.range.start - CONDITION_PREFIX.length, 0), text.length) + 1;
  return { column, message: first.message.replace(/found '}'/, 'found the end of the condition') };
}

/** A model or condition error of the question, or undefined when the host sees none (the engines judge the rest). */
export function questionProblem(question: Pick<Question, 'subject' | 'condition'>, documents: readonly SourceDocument[]): QuestionProblem | undefined {
  const parsed = documents.map((d) => ({ path: d.path, result: parse(d.text, { language: languageOfPath(d.path) }) }));
  const { index } = resolveDocuments(parsed.map((d) => ({ uri: d.path, document: d.result.document })));
  // A subject no document declares may be one a syntax error hid (a feature after the error, in its
  // part): the documents declaring its nearest enclosing name are the ones to look at.
  const segments = question.subject.split('::');
  let declaring = new Set<string>();
  for (let n = segments.length; n > 0 && declaring.size === 0; n--) {
    declaring = new Set(index.declarationsOf(segments.slice(0, n).join('::')).map((info) => info.document).filter((p): p is string => p !== null));
  }
  for (const d of parsed) {
    if (!declaring.has(d.path)) continue;
    const first = d.result.errors[0];
    if (!first) continue;
    const r = first.range;
    return {
      status: 'model error', message: `${d.path}:${r.line}:${r.column}: ${first.message}`,
      file: d.path, line: r.line, column: r.column, endLine: r.endLine, endColumn: r.endColumn,
    };
  }
  const text = question.condition?.text;
  if (text !== undefined) {
    const error = conditionSyntaxError(text);
    if (error) return { status: 'condition error', message: `condition ${question.condition!.name}, column ${error.column}: ${error.message}`, column: error.column };
  }
  return undefined;
}

/** A `not covered` in which no engine declined: each one that could answer failed (did not start, crashed, timed out). */
export function engineFailed(outcome: RunOutcome): boolean {
  return outcome.status === 'not covered' && outcome.reasons.length > 0 && outcome.reasons.every((r) => r.failed === true);
}
