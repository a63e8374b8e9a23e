// Replaces the whole active set of server-behaviour faults (server/behaviour.ts); `[]` clears them. Answers when
// the process applied it (epoch ms): the seam's own time for a window's start or end.
import { epochMs } from '../../core/clock.ts';
import { behaviourSetSchema } from '../../server/behaviour.ts';
import { ControlError, defineControlOp } from '../op.ts';

export const setBehaviour = defineControlOp({
  route: 'PUT /behaviour',
  input: behaviourSetSchema,
  handle: ({ http }, specs) => {
    if (!http) throw new ControlError(404, 'server behaviour faults need the Streamable HTTP server (not stdio)');
    http.setBehaviour(specs);
    return { appliedAtMs: epochMs() };
  },
});
