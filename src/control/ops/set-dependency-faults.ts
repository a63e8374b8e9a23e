// Replaces the whole active set of dependency faults (msw, inside the server process). Answers when the process
// applied it (epoch ms): the seam's own time for a window's start or end.
import { dependencyFaultSetSchema } from '../../../mocks/faults/registry.ts';
import { answers, defineControlOp } from '../op.ts';

export const setDependencyFaults = defineControlOp({
  route: 'PUT /faults',
  input: dependencyFaultSetSchema,
  output: answers<{ appliedAtMs: number }>(),
});
