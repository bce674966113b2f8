// The question kinds this engine answers and the tasks its sweep workers compute.
import type { TaskRegistry } from '../pool';
import type { QuestionHandlers } from '../server';
import { evaluateQuestion } from './evaluate';
import { satisfiableQuestion } from './satisfiable';
import { BEHAVIOR_QUESTIONS } from '../behavior-questions';
import { computeQuestion, sweepQuestion, TABLE_TASKS } from './table';
import { readingFieldsOf } from './fields';

// A question with a field its kind does not read is refused, never answered without it (fields.ts).
export const ENGINE_QUESTIONS: QuestionHandlers = readingFieldsOf({
  evaluate: evaluateQuestion,
  compute: computeQuestion,
  sweep: sweepQuestion,
  satisfiable: satisfiableQuestion,
  ...BEHAVIOR_QUESTIONS,
});

export const ENGINE_TASKS: TaskRegistry = { ...TABLE_TASKS };
