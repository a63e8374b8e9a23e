// The one door from the reference server to mocks/: its dependencies run in the server's own process as a world
// (ledger, state, faults) of msw-style route resolvers, started here by both process entries (reference-server.ts,
// stdio-main.ts). Every other server file knows its dependencies only through contract.ts.
//
// The server reaches them through the world's own fetch (mocks/direct-fetch.ts), not through msw's interceptor:
// started in this process, msw wraps the global Request, Response and Headers constructors in proxies that every
// MCP request and answer pays for too (with it on, msw was half the server's CPU per call). The server makes no
// other outbound call, and the dependency hosts are under .test, which never resolves.
import { DependencyWorld, type WorldSnapshot } from '../../../mocks/world.ts';

export type { DependencyWorld, WorldSnapshot };

export interface RunningDependencies {
  world: DependencyWorld;
  /** The server's dependency calls, answered by the world directly. */
  fetch: typeof fetch;
}

/** A world for this seed, restored from what an earlier process left. */
export function startDependencies(seed: number, restore?: WorldSnapshot): RunningDependencies {
  const world = new DependencyWorld(seed);
  if (restore) world.restore(restore);
  return { world, fetch: world.fetch };
}
