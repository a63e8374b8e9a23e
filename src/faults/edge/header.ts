// Rewrites (or removes) a request header on the way to the MCP endpoint, e.g. a corrupted
// MCP-Protocol-Version or a stale Mcp-Session-Id.
import { z } from 'zod';
import type { FaultKind } from '../kind.ts';
import { edgeBase, installEdgeRule } from './common.ts';

const params = z.strictObject({
  ...edgeBase,
  methods: z.array(z.string()).default([]),
  header: z.string().min(1),
  /** The new value; null removes the header. */
  value: z.string().nullable(),
});

export const edgeHeader: FaultKind<z.infer<typeof params>> = {
  seam: 'edge',
  kind: 'header',
  summary: 'a request header rewritten or removed',
  params,
  async apply(p, ctx) {
    return installEdgeRule(ctx, p, async (exchange, forward) => {
      const headers = new Headers(exchange.headers);
      if (p.value === null) headers.delete(p.header);
      else headers.set(p.header, p.value);
      return forward({ headers });
    });
  },
};
