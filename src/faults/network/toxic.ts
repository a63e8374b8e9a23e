// Network-seam faults: one Toxiproxy toxic on the MCP link, added through the Toxiproxy HTTP API of whichever
// backend runs (embedded, external, container) and removed when the window ends. Every toxic of the embedded
// server that does something is a kind; its attributes (names, integer type, meaning and unit) come from its file
// in src/toxiproxy/toxics. Hits come from the embedded server's own counters (times a toxic acted; connections a
// disabled proxy closed); with an external or container Toxiproxy they are null: its API cannot tell.
import { z } from 'zod';
import { acceptDuration } from '../../core/duration.ts';
import type { FaultArea } from '../../core/fault-areas.ts';
import type { AttributeUnit, ToxicKind } from '../../toxiproxy/toxic.ts';
import { toxicKinds } from '../../toxiproxy/toxics/index.ts';
import { defineFaultKind, type FaultKind } from '../kind.ts';

function attributeSchema(toxic: ToxicKind, name: string): z.ZodType {
  const doc = toxic.docs[name];
  const value = z
    .number()
    .int()
    .min(doc.min ?? 0);
  const field = (doc.required ? value : value.default(0)).describe(doc.describe);
  return doc.unit === 'ms' ? acceptDuration(field) : field;
}

/**
 * The fault areas each toxic injects into. The toxics are the embedded Toxiproxy's (which knows nothing of MCP), so
 * their areas are said here; a toxic without an entry fails at load.
 */
const TOXIC_COVERS: Record<string, readonly FaultArea[]> = {
  latency: ['timeout'],
  bandwidth: ['timeout'],
  slicer: ['protocol'],
  slow_close: ['protocol'],
  timeout: ['timeout', 'protocol'],
  reset_peer: ['protocol'],
  limit_data: ['protocol'],
};

function toxicCovers(type: string): readonly FaultArea[] {
  const covers = TOXIC_COVERS[type];
  if (!covers) throw new Error(`toxic ${type} declares no fault areas (TOXIC_COVERS in faults/network/toxic.ts)`);
  return covers;
}

function toxicFault(toxic: ToxicKind): FaultKind {
  const attributes = Object.fromEntries(
    Object.keys(toxic.attributes).map((name) => [name, attributeSchema(toxic, name)]),
  );
  return defineFaultKind({
    seam: 'network',
    kind: toxic.type,
    summary: `Toxiproxy "${toxic.type}" toxic on the MCP client-server link`,
    params: z.strictObject({
      stream: z
        .enum(['upstream', 'downstream'])
        .default('downstream')
        .describe('direction: upstream (client to server) or downstream (server to client)'),
      toxicity: z.number().min(0).max(1).default(1).describe('share of connections it applies to, 0..1'),
      ...attributes,
    }),
    needs: ['network'],
    covers: toxicCovers(toxic.type),
    async apply(p, ctx) {
      const { stream, toxicity, ...attrs } = p;
      const { api, mcpProxy, counters } = ctx.env.network;
      const added = await api.addToxic(mcpProxy, {
        name: ctx.id,
        type: toxic.type,
        stream,
        toxicity,
        attributes: attrs as Record<string, number>,
      });
      return {
        // The API answers once the toxic is off every live link; no time of its own (midpoint of the call).
        remove: async () => {
          await api.removeToxic(mcpProxy, added.name);
          return undefined;
        },
        hits: async () => counters?.toxicHits(mcpProxy, added.name) ?? null,
      };
    },
  });
}

/**
 * Every toxic attribute's unit, by toxic and attribute (Toxiproxy names them without one: each toxic's docs say
 * it; slicer's delay is in µs). An attribute its toxic does not document has none, and is refused here.
 */
export const TOXIC_ATTRIBUTE_UNITS: Record<string, Record<string, AttributeUnit>> = Object.fromEntries(
  [...toxicKinds.values()].map((toxic) => [
    toxic.type,
    Object.fromEntries(Object.keys(toxic.attributes).map((name) => [name, unitOf(toxic, name)])),
  ]),
);

export function unitOf(toxic: ToxicKind, name: string): AttributeUnit {
  const unit = toxic.docs[name]?.unit;
  if (!unit)
    throw new Error(`toxic ${toxic.type}: attribute ${name} declares no unit (its docs entry in toxiproxy/toxics)`);
  return unit;
}

/** Toxics without a pipe (noop) pass data through: nothing to fault with. */
export const NETWORK_TOXICS: FaultKind[] = [...toxicKinds.values()].filter((t) => t.pipe).map(toxicFault);

/**
 * The link is down: the proxy is disabled (its listener closes and every live connection with it). Its hits are the
 * live connections it closed; connections refused while it is down reach no listener, so nothing can count them.
 */
export const networkDown = defineFaultKind({
  seam: 'network',
  kind: 'down',
  summary: 'the MCP link is down: the proxy refuses connections and drops live ones',
  params: z.strictObject({}),
  needs: ['network'],
  covers: ['protocol', 'timeout'],
  async apply(_p, ctx) {
    const { api, mcpProxy, counters } = ctx.env.network;
    const before = counters?.closedByStop(mcpProxy);
    await api.updateProxy(mcpProxy, { enabled: false });
    const closed = before === undefined ? null : counters!.closedByStop(mcpProxy) - before;
    return {
      remove: async () => {
        await api.updateProxy(mcpProxy, { enabled: true });
        return undefined;
      },
      hits: async () => closed,
    };
  },
});
