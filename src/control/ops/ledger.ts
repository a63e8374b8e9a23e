// Every effect the dependencies recorded, in order.
import { z } from 'zod';
import { defineControlOp } from '../op.ts';

export const ledger = defineControlOp({
  route: 'GET /ledger',
  input: z.undefined(),
  handle: ({ world }) => world.ledger.list(),
});
