// Replaces the whole active set of server-behaviour faults (server/behaviour.ts); `[]` clears them. Answers when
// the process applied it (epoch ms): the seam's own time for a window's start or end. The protocol checks the
// shape of each spec; the server checks each kind's parameters against its behaviours (server/control/handlers.ts).
import { z } from 'zod';
import { answers, defineControlOp } from '../op.ts';

export const setBehaviour = defineControlOp({
  route: 'PUT /behaviour',
  input: z.array(z.looseObject({ id: z.string().min(1), kind: z.string() })),
  output: answers<{ appliedAtMs: number }>(),
});
