// The client offers another protocol version in initialize (its params.protocolVersion is rewritten on the
// wire): a client that was upgraded to 2026-07-28, or one pinned to 2024-11-05. An initialize only happens on a
// new connection, so the fault also expires the sessions opened before it (they get the 404 a restarted server
// gives): the client must re-initialize inside the window, and that negotiation meets the new offer.
// With `accept`, the client speaks only those versions and rejects any other answer (it disconnects).
import { z } from 'zod';
import { jsonRpcError } from '../../core/json-rpc.ts';
import { ProtocolVersionRejected } from '../../core/protocol-mismatch.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeProtocolVersion = defineFaultKind({
  seam: 'edge',
  kind: 'protocol-version',
  summary: 'the client offers another protocol version in initialize (older sessions expire)',
  // Every initialize gets the offer (no probability: a client is upgraded or it is not).
  params: z.strictObject({
    methods: edgeBase.methods
      .unwrap()
      .default([])
      .describe('JSON-RPC methods it touches (default []: every request, so initialize and expired sessions)'),
    offer: z
      .string()
      .min(1)
      .describe('the version the client offers, e.g. 2026-07-28 (unknown to SDK 1.32) or 2024-11-05 (a downgrade)'),
    accept: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('versions the client accepts in the answer (default: whatever the SDK client supports)'),
    expireSessions: z
      .boolean()
      .default(true)
      .describe('sessions opened before the fault answer 404, so the client re-initializes under the new offer'),
  }),
  needs: ['http-edge'],
  covers: ['protocol'],
  removedOnModernWire: 'it rewrites the offer in initialize and expires sessions; the 2026-07-28 wire has neither',
  async apply(p, ctx) {
    /** Sessions opened under this fault; any other session id is an expired one. */
    const fresh = new Set<string>();
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        if (exchange.rpcMethod === 'initialize' && exchange.body) {
          hit();
          const response = await forward({ body: withOffer(exchange.body, p.offer) });
          const sid = response.headers.get('mcp-session-id');
          if (sid) fresh.add(sid);
          if (!p.accept) return response;
          const text = await response.text();
          const answered = answeredVersion(text);
          if (response.ok && answered !== undefined && !p.accept.includes(answered)) {
            throw new ProtocolVersionRejected(p.offer, answered, p.accept);
          }
          return new Response(text, { status: response.status, headers: response.headers });
        }
        const sid = exchange.headers.get('mcp-session-id');
        if (p.expireSessions && sid && !fresh.has(sid)) {
          hit();
          return jsonRpcError(404, `faultline edge fault ${ctx.id}: session expired (new protocol version rollout)`);
        }
        return forward();
      },
    });
  },
});

/** The initialize request with params.protocolVersion replaced. */
export function withOffer(body: string, offer: string): string {
  const message = JSON.parse(body) as { params?: Record<string, unknown> };
  return JSON.stringify({ ...message, params: { ...message.params, protocolVersion: offer } });
}

/** The protocolVersion of an initialize answer, JSON or SSE. */
export function answeredVersion(text: string): string | undefined {
  return /"protocolVersion"\s*:\s*"([^"]+)"/.exec(text)?.[1];
}
