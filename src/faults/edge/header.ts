// Rewrites (or removes) a request header on the way to the MCP endpoint, e.g. a corrupted
// MCP-Protocol-Version or a stale Mcp-Session-Id.
import { z } from 'zod';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';
import type { EdgeExchange, Forward } from './http/rule.ts';

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
  covers: ['protocol'],
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: (exchange, forward, hit) => forwardWithHeader(exchange, forward, hit, p.header, p.value),
    });
  },
});

/** Counts the exchange as hit and sends it on with `header` set to `value` (null removes it). */
export function forwardWithHeader(
  exchange: EdgeExchange,
  forward: Forward,
  hit: () => void,
  header: string,
  value: string | null,
): Promise<Response> {
  hit();
  const headers = new Headers(exchange.headers);
  if (value === null) headers.delete(header);
  else headers.set(header, value);
  return forward({ headers });
}
