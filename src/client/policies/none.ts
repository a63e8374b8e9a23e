// No retries: one attempt per op with a stable key, inside the deadline. Shows what the bare SDK gives.
import type { ClientPolicy } from '../policy.ts';
import { attemptTimeout } from '../units/attempt-timeout.ts';
import { deadline } from '../units/deadline.ts';
import { composedOps } from './compose.ts';

export const nonePolicy: ClientPolicy = {
  name: 'none',
  forRun: (run) => composedOps(run, (op) => ({ units: [deadline(op), attemptTimeout(op)] })),
};
