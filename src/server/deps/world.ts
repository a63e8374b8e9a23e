// The one door from the reference server to mocks/: its dependencies run in the server's own process as an msw
// world (ledger, state, faults), started here by both process entries (reference-server.ts, stdio-main.ts). Every
// other server file knows its dependencies only through contract.ts.
import { startDependencyMocks } from '../../../mocks/msw.ts';
import { DependencyWorld, type WorldSnapshot } from '../../../mocks/world.ts';

export type { DependencyWorld, WorldSnapshot };

export interface RunningDependencies {
  world: DependencyWorld;
  close(): void;
}

/** A world for this seed, restored from what an earlier process left, answering the dependency URLs. */
export function startDependencies(seed: number, restore?: WorldSnapshot): RunningDependencies {
  const world = new DependencyWorld(seed);
  if (restore) world.restore(restore);
  const mocks = startDependencyMocks(world);
  return { world, close: () => mocks.close() };
}
