// The one door from the reference server to mocks/: its dependencies run in the server's own process as an msw
// world (ledger, state, faults), started here by both process entries (reference-server.ts, stdio-main.ts). Every
// other server file knows its dependencies only through contract.ts.
import { startDependencyMocks } from '../../../mocks/msw.ts';
import { DependencyWorld, type WorldSnapshot } from '../../../mocks/world.ts';

export type { DependencyWorld, WorldSnapshot };

export interface RunningDependencies {
  world: DependencyWorld;
  /** The server's dependency calls, answered by the world directly (msw still catches any other outbound call). */
  fetch: typeof fetch;
  close(): void;
}

/** A world for this seed, restored from what an earlier process left, answering the dependency URLs. */
export function startDependencies(seed: number, restore?: WorldSnapshot): RunningDependencies {
  const world = new DependencyWorld(seed);
  if (restore) world.restore(restore);
  const mocks = startDependencyMocks(world);
  return { world, fetch: world.fetch, close: () => mocks.close() };
}
