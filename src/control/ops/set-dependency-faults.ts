// Replaces the whole active set of dependency faults (msw, inside the server process).
import { dependencyFaultSetSchema } from '../../../mocks/faults/registry.ts';
import { defineControlOp } from '../op.ts';

export const setDependencyFaults = defineControlOp({
  route: 'PUT /faults',
  input: dependencyFaultSetSchema,
  handle: ({ world }, faults) => world.faults.set(faults),
});
