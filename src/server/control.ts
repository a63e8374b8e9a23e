// The control operations on a reference server, independent of how they travel: in-process (LocalControl), over
// the IPC channel (ServerHandle), or as JSON over HTTP (admin-http.ts).
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';
import type { DependencyWorld } from '../../mocks/world.ts';
import type { DecisionRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';
import type { ServerRuntime } from './runtime.ts';

export interface ControlApi {
  /** Replaces the whole active set of dependency faults (validated; throws a readable error). */
  setDependencyFaults(faults: DependencyFaultSpecInput[]): Promise<void>;
  ledger(): Promise<Effect[]>;
  decisions(): Promise<DecisionRecord[]>;
  /** Ledger, dependency state, idempotency store and faults back to empty. */
  reset(): Promise<void>;
}

/** Control of a server running in this process. */
export class LocalControl implements ControlApi {
  constructor(
    private readonly world: DependencyWorld,
    private readonly runtime: ServerRuntime,
  ) {}

  async setDependencyFaults(faults: DependencyFaultSpecInput[]): Promise<void> {
    this.world.faults.set(faults);
  }

  async ledger(): Promise<Effect[]> {
    return this.world.ledger.list();
  }

  async decisions(): Promise<DecisionRecord[]> {
    return this.world.decisions.slice();
  }

  async reset(): Promise<void> {
    this.world.reset();
    this.runtime.reset();
  }
}
