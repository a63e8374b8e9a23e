// Every random decision the dependency faults made (the server side of the decision log).
import { z } from 'zod';
import { defineControlOp } from '../op.ts';

export const decisions = defineControlOp({
  route: 'GET /decisions',
  input: z.undefined(),
  handle: ({ world }) => world.decisions.slice(),
});
