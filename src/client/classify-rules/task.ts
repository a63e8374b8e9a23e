// Rows for what the task client learned of a task's end (client/task-client.ts).
import { failure } from '../classified.ts';
import { TaskCancelledError } from '../task-cancelled.ts';
import type { ClassifyRule } from './rule.ts';

export const TASK_RULES: ClassifyRule[] = [
  {
    // The server said the task ended cancelled: a cancelled task took no effect, and someone meant it to stop.
    name: 'task-cancelled',
    matches: ({ error }) => error instanceof TaskCancelledError,
    classify: ({ message }) =>
      failure({
        category: 'RESOURCE',
        errorCode: 'RESOURCE.TASK_CANCELLED',
        retryable: false,
        uncertain: false,
        message,
      }),
  },
];
