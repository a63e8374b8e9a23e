// A proxy between client and server strips or rewrites one of the 2026-07-28 routing headers the client derives
// from the body (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, SEP-2243). The server should refuse the disagreement
// (HeaderMismatch -32020) rather than run something else; a gateway that routes on the header would route it
// wrongly. The proxy marks its answer (HEADER_TAMPERED_HEADER), so the client's attempt record says the server
// answered a tampered request, and the metrics say whether it refused or executed it.
import { z } from 'zod';
import { HEADER_TAMPERED_HEADER } from '../../core/wire.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';
import { forwardWithHeader } from './header.ts';

export const edgeMcpHeaders = defineFaultKind({
  seam: 'edge',
  kind: 'mcp-headers',
  summary: 'a proxy strips or rewrites a 2026-07-28 routing header (Mcp-Method, Mcp-Name, Mcp-Param-*)',
  params: z.strictObject({
    ...edgeBase,
    header: z
      .string()
      .regex(/^mcp-(method|name|param-[a-z0-9-]+)$/i, 'expected Mcp-Method, Mcp-Name or Mcp-Param-<name>')
      .describe('the routing header: Mcp-Method, Mcp-Name or Mcp-Param-<name>'),
    value: z.string().nullable().describe('the value the proxy puts there; null strips the header'),
  }),
  needs: ['http-edge'],
  covers: ['protocol', 'security'],
  onlyIn: {
    era: 'modern',
    reason: 'the Mcp-Method, Mcp-Name and Mcp-Param-* headers exist only on the 2026-07-28 wire',
  },
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        const answer = await forwardWithHeader(exchange, forward, hit, p.header, p.value);
        const marked = new Headers(answer.headers);
        marked.set(HEADER_TAMPERED_HEADER, ctx.id);
        return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: marked });
      },
    });
  },
});
