// A round trip on the IPC channel: once answered, every effect the child pushed before it has arrived.
import { z } from 'zod';
import { answers, defineControlOp } from '../op.ts';

export const sync = defineControlOp({
  input: z.undefined(),
  output: answers<undefined>(),
});
