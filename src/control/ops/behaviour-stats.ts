// What the server-behaviour faults did so far (counts since the server process started).
import { z } from 'zod';
import { answers, defineControlOp } from '../op.ts';

/** By counter name (server/behaviour.ts). */
export const behaviourStats = defineControlOp({
  route: 'GET /behaviour/stats',
  input: z.undefined(),
  output: answers<Record<string, number>>(),
});
