// A mixed fleet, as during a rolling upgrade behind a load balancer without affinity: each request of the client
// lands on a replica of the old release (SDK 1.32, 2025-11-25 only, stateful sessions) or of the new one (SDK 2.4,
// 2026-07-28 only), by a seeded draw. Both replicas are real front ends of the reference server over the same
// tools and ledger (core/fleet.ts), so a request that lands on the other era's replica gets that replica's own
// answer: a 2026 request on the old release a 400 (no session, not initialized), a 2025 request on the new one
// UnsupportedProtocolVersion (-32022). A hit is such a landing. A client that treats these as "negotiate again
// and re-issue with the same idempotency key" completes every op once; one that does not, fails them.
import { z } from 'zod';
import { FLEET_PATHS, type FleetReplica } from '../../core/fleet.ts';
import { ENVELOPE_VERSION_KEY } from '../../core/wire.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';
import type { EdgeExchange } from './http/rule.ts';

export const edgeMixedFleet = defineFaultKind({
  seam: 'edge',
  kind: 'mixed-fleet',
  summary: 'each request lands on a replica of either era (2025-11-25 SDK 1.32 or 2026-07-28 SDK 2.4), one ledger',
  params: z.strictObject({
    methods: edgeBase.methods
      .unwrap()
      .default([])
      .describe('JSON-RPC methods it routes (default []: every request, initialize and server/discover included)'),
    probability: edgeBase.probability.describe('share of those requests routed into the fleet, 0..1 (seeded draw)'),
    modernShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe('share of the routed requests that land on the 2026-07-28 replica, 0..1 (seeded draw per request)'),
  }),
  needs: ['http-edge', 'behaviour'],
  covers: ['protocol', 'state'],
  async apply(p, ctx) {
    const landing = ctx.random.child('replica');
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        const stream = exchange.key === undefined ? landing : landing.keyed(exchange.key);
        const replica: FleetReplica = stream.chance(
          `lands on modern ${exchange.rpcMethod ?? exchange.method}`,
          p.modernShare,
        )
          ? 'modern'
          : 'legacy';
        if (replica !== eraOf(exchange)) hit();
        const url = new URL(exchange.url);
        url.pathname = FLEET_PATHS[replica];
        return forward({ url: url.href });
      },
    });
  },
});

/** The era a request speaks: 2026-07-28 requests carry the version envelope in `_meta` (server/discover too). */
function eraOf(exchange: EdgeExchange): FleetReplica {
  if (exchange.rpcMethod === 'server/discover') return 'modern';
  if (!exchange.body) return 'legacy';
  try {
    const message = JSON.parse(exchange.body) as { params?: { _meta?: Record<string, unknown> } };
    return typeof message.params?._meta?.[ENVELOPE_VERSION_KEY] === 'string' ? 'modern' : 'legacy';
  } catch {
    return 'legacy';
  }
}
