// Whether the server is quiet: tool handlers still in flight, time since anything last happened, the last effect.
// The harness drains on it before it reads the ledger (run/drain.ts).
import { z } from 'zod';
import { defineControlOp } from '../op.ts';

export const quiescence = defineControlOp({
  route: 'GET /quiescence',
  input: z.undefined(),
  handle: ({ world, runtime }) => runtime.handlers.quiescence(world.ledger.list().at(-1)?.atMs),
});
