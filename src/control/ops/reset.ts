// Ledger, dependency state, decisions, idempotency store and every fault back to empty.
import { z } from 'zod';
import { answers, defineControlOp } from '../op.ts';

export const reset = defineControlOp({
  route: 'POST /reset',
  input: z.undefined(),
  output: answers<void>(),
});
