// Network-seam faults: one Toxiproxy toxic on the MCP link, added through the Toxiproxy HTTP API of whichever
// backend runs (embedded, external, container) and removed when the window ends.
import { z } from 'zod';
import type { FaultKind } from '../kind.ts';

const ms = z.number().int().nonnegative();

/** Each toxic's attributes, exactly as Toxiproxy 2.12 names them. */
const TOXIC_ATTRIBUTES = {
  latency: { latency: ms, jitter: ms.default(0) },
  bandwidth: { rate: z.number().int().nonnegative() },
  slicer: {
    average_size: z.number().int().positive(),
    size_variation: z.number().int().nonnegative().default(0),
    delay: ms.default(0),
  },
  slow_close: { delay: ms },
  timeout: { timeout: ms },
  reset_peer: { timeout: ms.default(0) },
  limit_data: { bytes: z.number().int().nonnegative() },
} as const;

type ToxicName = keyof typeof TOXIC_ATTRIBUTES;

function toxicFault(type: ToxicName): FaultKind {
  const attributes = TOXIC_ATTRIBUTES[type];
  const params = z.strictObject({
    stream: z.enum(['upstream', 'downstream']).default('downstream'),
    toxicity: z.number().min(0).max(1).default(1),
    ...attributes,
  });
  return {
    seam: 'network',
    kind: type,
    summary: `Toxiproxy "${type}" toxic on the MCP client-server link`,
    params,
    async apply(p: z.infer<typeof params>, ctx) {
      const { stream, toxicity, ...attrs } = p;
      const { api, mcpProxy } = ctx.env.network;
      const toxic = await api.addToxic(mcpProxy, {
        name: ctx.id,
        type,
        stream,
        toxicity,
        attributes: attrs as Record<string, number>,
      });
      return async () => {
        await api.removeToxic(mcpProxy, toxic.name);
      };
    },
  };
}

export const NETWORK_TOXICS: FaultKind[] = (Object.keys(TOXIC_ATTRIBUTES) as ToxicName[]).map(toxicFault);

/** The link is down: the proxy is disabled (its listener closes and every live connection with it). */
export const networkDown: FaultKind = {
  seam: 'network',
  kind: 'down',
  summary: 'the MCP link is down: the proxy refuses connections and drops live ones',
  params: z.strictObject({}),
  async apply(_p, ctx) {
    const { api, mcpProxy } = ctx.env.network;
    await api.updateProxy(mcpProxy, { enabled: false });
    return async () => {
      await api.updateProxy(mcpProxy, { enabled: true });
    };
  },
};
