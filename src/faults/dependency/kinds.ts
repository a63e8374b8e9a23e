// Dependency-seam faults: every kind in mocks/faults becomes a profile fault kind. The server takes its active
// dependency fault set as a whole, so applying or removing one window re-sends the set.
import { z } from 'zod';
import type { DependencyFaultSpec } from '../../../mocks/faults/registry.ts';
import { FAULT_KINDS } from '../../../mocks/faults/registry.ts';
import type { FaultEnvironment } from '../context.ts';
import type { FaultKind } from '../kind.ts';

async function push(env: FaultEnvironment): Promise<void> {
  await env.server.setDependencyFaults([...env.dependencyFaults.values()] as DependencyFaultSpec[]);
}

export const DEPENDENCY_FAULTS: FaultKind[] = FAULT_KINDS.map((mock) => {
  // In a profile the window id comes from the timeline and `dependency` defaults to every API.
  const shape = { ...(mock.schema as z.ZodObject).shape } as Record<string, z.ZodType>;
  delete shape.id;
  delete shape.kind;
  shape.dependency = (shape.dependency as z.ZodType).default('*');
  return {
    seam: 'dependency',
    kind: mock.kind,
    summary: `dependency fault "${mock.kind}" (msw, inside the server process)`,
    params: z.strictObject(shape),
    async apply(params: Record<string, unknown>, ctx) {
      ctx.env.dependencyFaults.set(ctx.id, { ...params, id: ctx.id, kind: mock.kind });
      await push(ctx.env);
      return async () => {
        ctx.env.dependencyFaults.delete(ctx.id);
        await push(ctx.env);
      };
    },
  } satisfies FaultKind<Record<string, unknown>>;
});
