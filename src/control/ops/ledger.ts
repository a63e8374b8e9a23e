// Every effect the dependencies recorded, in order.
import { z } from 'zod';
import type { Effect } from '../../core/ledger.ts';
import { answers, defineControlOp } from '../op.ts';

export const ledger = defineControlOp({
  route: 'GET /ledger',
  input: z.undefined(),
  output: answers<Effect[]>(),
});
