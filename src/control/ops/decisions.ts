// Every random decision the dependency faults made (the server side of the decision log).
import { z } from 'zod';
import type { DecisionRecord } from '../../core/history.ts';
import { answers, defineControlOp } from '../op.ts';

export const decisions = defineControlOp({
  route: 'GET /decisions',
  input: z.undefined(),
  output: answers<DecisionRecord[]>(),
});
