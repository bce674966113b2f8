// The question kinds this engine answers and the tasks its sweep workers compute.
import type { TaskRegistry } from '../pool';
import type { QuestionHandlers } from '../server';
import { evaluateQuestion } from './evaluate';

export const ENGINE_QUESTIONS: QuestionHandlers = {
  evaluate: evaluateQuestion,
};

export const ENGINE_TASKS: TaskRegistry = {};
