// Server-seam fault kinds: every server behaviour (src/server/behaviours, one file each with its parameters and
// hooks) becomes a profile kind of the same name, plus crash. A behaviour window puts its spec into the target's
// desired fault state; the server takes the whole set at once, and counts what the window did through it (evictions,
// streams closed, GETs refused, initialize answers changed).
import { BEHAVIOURS } from '../../server/behaviours/index.ts';
import { defineFaultKind, type FaultKind } from '../kind.ts';
import { serverCrash } from './crash.ts';

const BEHAVIOUR_FAULTS: FaultKind[] = BEHAVIOURS.map((behaviour) =>
  defineFaultKind({
    seam: 'server',
    kind: behaviour.kind,
    summary: behaviour.summary,
    params: behaviour.params,
    needs: ['behaviour'],
    covers: behaviour.covers,
    removedOnModernWire: behaviour.removedOnModernWire,
    async apply(params, ctx) {
      const specs = ctx.env.server.desired.behaviour;
      await specs.put({ ...params, id: ctx.id, kind: behaviour.kind });
      return {
        remove: () => specs.delete(ctx.id),
        hits: async () => (await ctx.env.server.faultHits())[ctx.id] ?? 0,
      };
    },
  }),
);

export const SERVER_FAULTS: readonly FaultKind[] = [...BEHAVIOUR_FAULTS, serverCrash];
