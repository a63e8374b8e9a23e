// The mixed fleet of the reference HTTP server: besides `/mcp` (the pairing's front end), each server process
// answers on two more paths, one replica per protocol era over the same tools, idempotency store and ledger, as
// the old and new releases behind a load balancer during a rolling upgrade do. The edge's mixed-fleet fault
// routes each request to one of them.
export const FLEET_PATHS = {
  /** SDK 1.32's stateful front end only (2025-11-25: initialize, Mcp-Session-Id). */
  legacy: '/fleet/legacy/mcp',
  /** SDK 2.4's front end only, 2026-07-28 (createMcpHandler with legacy: 'reject'). */
  modern: '/fleet/modern/mcp',
} as const;

export type FleetReplica = keyof typeof FLEET_PATHS;
