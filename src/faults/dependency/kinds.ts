// Dependency-seam faults: every kind in mocks/faults becomes a profile fault kind with the same parameters. A
// window puts its spec into the target's desired fault state (the server takes the whole set at once); its hits are
// the requests the server's fault engine counted it acting on.
import { z } from 'zod';
import { type DependencyFaultSpecInput, FAULT_KINDS } from '../../../mocks/faults/registry.ts';
import { defineFaultKind, type FaultKind } from '../kind.ts';

export const DEPENDENCY_FAULTS: FaultKind[] = FAULT_KINDS.map((mock) => {
  // In a profile the window id comes from the timeline, `ops` from the window (fromOp, toOp), and `dependency`
  // defaults to every API.
  const { id: _id, kind: _kind, ops: _ops, dependency, ...shape } = (mock.schema as z.ZodObject).shape;
  return defineFaultKind({
    seam: 'dependency',
    kind: mock.kind,
    summary: mock.summary,
    params: z.strictObject({ dependency: (dependency as z.ZodType).default('*'), ...shape }),
    needs: ['control'],
    covers: mock.covers,
    async apply(params, ctx) {
      const faults = ctx.env.server.desired.dependencyFaults;
      await faults.put({
        ...params,
        id: ctx.id,
        kind: mock.kind,
        ...(ctx.ops && { ops: ctx.ops }),
      } as DependencyFaultSpecInput);
      return {
        remove: () => faults.delete(ctx.id),
        hits: async () => (await ctx.env.server.faultHits())[ctx.id] ?? 0,
      };
    },
  });
});
