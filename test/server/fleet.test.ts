// The mixed fleet's two replicas (core/fleet.ts) in one reference server process: the SDK 1.32 replica serves
// 2025-11-25 sessions only, the SDK 2.4 replica 2026-07-28 only, each refuses the other era with its own real
// answer, and what either runs lands in one ledger (one tool implementation, one idempotency store).
import type { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.ts';
import { FLEET_PATHS } from '../../src/core/fleet.ts';
import { MODERN_VERSION } from '../../src/core/pairing.ts';
import { call, connect, key, payment, startServer } from './helpers.ts';

const replica = (url: string, which: keyof typeof FLEET_PATHS) => new URL(FLEET_PATHS[which], url).href;

describe('mixed fleet replicas', () => {
  it("each replica serves its era, refuses the other's, and both charge into one ledger once per key", async () => {
    const server = await startServer({ frontEnd: 'sdk1' });
    const { client } = await connect(replica(server.url, 'legacy'));
    const modern = await Connection.open({
      url: replica(server.url, 'modern'),
      sdk2: { negotiation: { pin: MODERN_VERSION } },
    });
    try {
      expect(modern.protocolVersion).toBe(MODERN_VERSION);
      const shared = key('fleet');
      expect((await call(client, 'create_payment', payment(shared), { traceId: 'op-a' })).isError).toBeFalsy();
      const again = await modern.client.callTool({ name: 'create_payment', arguments: payment(shared) });
      expect(again.isError).toBeFalsy();
      // The same idempotency key through the other replica: one charge in the one ledger.
      expect((await server.ledger()).filter((e) => e.kind === 'payment.charge')).toHaveLength(1);

      // A 2025-11-25 initialize on the 2026-only replica: SDK 2.4's UnsupportedProtocolVersion in a 400.
      const refused = await connect(replica(server.url, 'modern')).catch((e: unknown) => e);
      expect((refused as StreamableHTTPError).code).toBe(400);
      expect(String(refused)).toMatch(/-32022/);
      // A 2026-07-28 probe on the 2025-only replica: SDK 1.32's 400, so a pinned client cannot connect there.
      const pinned = await Connection.open({
        url: replica(server.url, 'legacy'),
        sdk2: { negotiation: { pin: MODERN_VERSION } },
      }).catch((e: unknown) => e);
      expect(String(pinned)).toMatch(/did not offer pinned protocol version/);
    } finally {
      await modern.close();
    }
  });
});
