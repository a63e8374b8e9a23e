// Rewrites (or removes) a request header on the way to the MCP endpoint, e.g. a corrupted
// MCP-Protocol-Version or a stale Mcp-Session-Id.
import { z } from 'zod';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeHeader = defineFaultKind({
  seam: 'edge',
  kind: 'header',
  summary: 'a request header rewritten or removed',
  params: z.strictObject({
    ...edgeBase,
    methods: edgeBase.methods.unwrap().default([]).describe('JSON-RPC methods it touches (default []: every request)'),
    header: z.string().min(1).describe('header name, e.g. mcp-protocol-version'),
    value: z.string().nullable().describe('the new value; null removes the header'),
  }),
  needs: ['http-edge'],
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        hit();
        const headers = new Headers(exchange.headers);
        if (p.value === null) headers.delete(p.header);
        else headers.set(p.header, p.value);
        return forward({ headers });
      },
    });
  },
});
