// Ledger, dependency state, decisions, idempotency store and every fault back to empty.
import { z } from 'zod';
import { defineControlOp } from '../op.ts';

export const reset = defineControlOp({
  route: 'POST /reset',
  input: z.undefined(),
  handle: ({ world, runtime, http }) => {
    world.reset();
    runtime.reset();
    http?.setBehaviour([]);
  },
});
