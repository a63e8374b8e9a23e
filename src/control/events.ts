// What a server process pushes to the harness as it happens (over IPC, or as stderr lines for stdio): every
// effect, dependency state change, decision and fault hit, so the harness keeps them when the process is killed.
import type { StateRecord } from '../../mocks/state.ts';
import type { DependencyWorld } from '../../mocks/world.ts';
import type { DecisionRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';

export type WorldEvent =
  | { type: 'effect'; effect: Effect }
  | { type: 'state'; record: StateRecord }
  | { type: 'decision'; decision: DecisionRecord }
  /** A fault window acted once (a dependency fault answered a request, a behaviour evicted a session, ...). */
  | { type: 'hit'; faultId: string };

/** Calls `emit` with each event of the world from now on. */
export function streamWorldEvents(world: DependencyWorld, emit: (event: WorldEvent) => void): void {
  world.ledger.onEffect((effect) => emit({ type: 'effect', effect }));
  world.state.onPut((record) => emit({ type: 'state', record }));
  world.onDecision((decision) => emit({ type: 'decision', decision }));
  world.hits.onHit((faultId) => emit({ type: 'hit', faultId }));
}
