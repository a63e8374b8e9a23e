// Network-seam faults: one Toxiproxy toxic on the MCP link, added through the Toxiproxy HTTP API of whichever
// backend runs (embedded, external, container) and removed when the window ends. Every toxic of the embedded
// server that does something is a kind; its attributes (names, integer type, meaning and unit) come from its file
// in src/toxiproxy/toxics.
import { z } from 'zod';
import type { ToxicKind } from '../../toxiproxy/toxic.ts';
import { toxicKinds } from '../../toxiproxy/toxics/index.ts';
import { defineFaultKind, type FaultKind } from '../kind.ts';

function attributeSchema(toxic: ToxicKind, name: string): z.ZodType {
  const doc = toxic.docs?.[name];
  const value = z
    .number()
    .int()
    .min(doc?.min ?? 0);
  return (doc?.required ? value : value.default(0)).describe(doc?.describe ?? name);
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
    async apply(p, ctx) {
      const { stream, toxicity, ...attrs } = p;
      const { api, mcpProxy } = ctx.env.network;
      const added = await api.addToxic(mcpProxy, {
        name: ctx.id,
        type: toxic.type,
        stream,
        toxicity,
        attributes: attrs as Record<string, number>,
      });
      return async () => {
        await api.removeToxic(mcpProxy, added.name);
      };
    },
  });
}

/** Toxics without a pipe (noop) pass data through: nothing to fault with. */
export const NETWORK_TOXICS: FaultKind[] = [...toxicKinds.values()].filter((t) => t.pipe).map(toxicFault);

/** The link is down: the proxy is disabled (its listener closes and every live connection with it). */
export const networkDown = defineFaultKind({
  seam: 'network',
  kind: 'down',
  summary: 'the MCP link is down: the proxy refuses connections and drops live ones',
  params: z.strictObject({}),
  needs: ['network'],
  async apply(_p, ctx) {
    const { api, mcpProxy } = ctx.env.network;
    await api.updateProxy(mcpProxy, { enabled: false });
    return async () => {
      await api.updateProxy(mcpProxy, { enabled: true });
    };
  },
});
