// The server refuses the protocol version a 2026-07-28 request carries in its `_meta` envelope with JSON-RPC
// `UnsupportedProtocolVersion` (-32022, HTTP 400, data `{ supported, requested }`), as a replica rolled back to an
// older release does, the discovery probe included. A client that continues negotiates again (a new connection's
// server/discover probe meets the same answer and falls back to a version in `supported`) and re-issues the call;
// one that does not, fails.
import { z } from 'zod';
import { ENVELOPE_VERSION_KEY } from '../../core/wire.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

/** JSON-RPC UnsupportedProtocolVersion of the 2026-07-28 revision. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export const edgeUnsupportedVersion = defineFaultKind({
  seam: 'edge',
  kind: 'unsupported-version',
  summary: 'a 2026-07-28 request is refused with UnsupportedProtocolVersion (-32022) naming the versions served',
  params: z.strictObject({
    methods: edgeBase.methods
      .unwrap()
      .default([])
      .describe('JSON-RPC methods it touches (default []: every request, the server/discover probe included)'),
    probability: edgeBase.probability,
    refuse: z.array(z.string().min(1)).min(1).default(['2026-07-28']).describe('envelope protocol versions refused'),
    supported: z
      .array(z.string().min(1))
      .min(1)
      .default(['2025-11-25'])
      .describe('the versions the refusal says the server supports (data.supported)'),
  }),
  needs: ['http-edge'],
  covers: ['protocol'],
  onlyIn: {
    pairings: ['auto'],
    reason:
      'it refuses the 2026-07-28 envelope: 2025-era requests carry none, and the pinned modern client against the ' +
      'modern-only server has no other version to continue in',
  },
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        const { id, requested } = envelopeOf(exchange.body);
        if (requested === undefined || !p.refuse.includes(requested)) return forward();
        hit();
        const body = {
          jsonrpc: '2.0',
          id: id ?? null,
          error: {
            code: UNSUPPORTED_PROTOCOL_VERSION,
            message: `Unsupported protocol version: ${requested} (faultline edge fault ${ctx.id})`,
            data: { supported: p.supported, requested },
          },
        };
        return new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/json' } });
      },
    });
  },
});

/** The request's id and the protocol version in its `_meta` envelope (undefined for a 2025-era request). */
function envelopeOf(body: string | undefined): { id?: string | number; requested?: string } {
  if (!body) return {};
  try {
    const message = JSON.parse(body) as { id?: string | number; params?: { _meta?: Record<string, unknown> } };
    const version = message.params?._meta?.[ENVELOPE_VERSION_KEY];
    return { id: message.id, requested: typeof version === 'string' ? version : undefined };
  } catch {
    return {};
  }
}
