// What the server-behaviour faults did so far (counts since the server process started).
import { z } from 'zod';
import { ControlError, defineControlOp } from '../op.ts';

export const behaviourStats = defineControlOp({
  route: 'GET /behaviour/stats',
  input: z.undefined(),
  handle: ({ http }) => {
    if (!http) throw new ControlError(404, 'server behaviour faults need the Streamable HTTP server (not stdio)');
    return http.behaviourStats();
  },
});
