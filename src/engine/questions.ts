// The question kinds this engine answers and the tasks its sweep workers compute.
import type { TaskRegistry } from './pool';
import type { QuestionHandlers } from './server';

export const ENGINE_QUESTIONS: QuestionHandlers = {};

export const ENGINE_TASKS: TaskRegistry = {};
