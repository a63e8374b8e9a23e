// Parameters every MCP-edge fault shares, and how one becomes an active rule on the client's fetch.
import { z } from 'zod';
import type { FaultContext, RemoveFault } from '../kind.ts';
import type { EdgeRule } from './http/rule.ts';

export const edgeBase = {
  /** JSON-RPC methods the fault touches (default: tools/call only). */
  methods: z.array(z.string()).default(['tools/call']),
  probability: z.number().min(0).max(1).default(1),
};

export function installEdgeRule(
  ctx: FaultContext,
  params: { methods: string[]; probability: number },
  handle: EdgeRule['handle'],
): RemoveFault {
  ctx.env.edge.add({
    id: ctx.id,
    methods: params.methods,
    probability: params.probability,
    random: ctx.random,
    handle,
  });
  return async () => ctx.env.edge.remove(ctx.id);
}
