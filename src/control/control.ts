// The control operations on a reference server, independent of how they travel: in-process (LocalControl), over
// the IPC channel (ServerHandle), or as JSON over HTTP (admin-http.ts).
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';
import type { DependencyWorld } from '../../mocks/world.ts';
import type { DecisionRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';
import type { BehaviourStats, ServerBehaviour } from '../server/behaviour.ts';
import type { McpHttpServer } from '../server/http-server.ts';
import type { ServerRuntime } from '../server/runtime.ts';

export interface ControlApi {
  /** Replaces the whole active set of dependency faults (validated; throws a readable error). */
  setDependencyFaults(faults: DependencyFaultSpecInput[]): Promise<void>;
  ledger(): Promise<Effect[]>;
  decisions(): Promise<DecisionRecord[]>;
  /** Ledger, dependency state, idempotency store and faults back to empty. */
  reset(): Promise<void>;
  /**
   * Replaces the active server-behaviour faults (session eviction, stream close, standalone stream drop,
   * protocol-version override; see behaviour.ts). `{}` clears them; `evictNow` is a one-shot action.
   * Optional: only the reference HTTP server has them (LocalControl, ServerHandle, AdminClient implement it).
   */
  setBehaviour?(behaviour: ServerBehaviour): Promise<void>;
  /** What the behaviour faults did so far (counts since the server process started). */
  behaviourStats?(): Promise<BehaviourStats>;
}

/** Control of a server running in this process. */
export class LocalControl implements ControlApi {
  constructor(
    private readonly world: DependencyWorld,
    private readonly runtime: ServerRuntime,
    /** The Streamable HTTP server; absent over stdio, where behaviour faults are not offered. */
    private readonly http?: McpHttpServer,
  ) {}

  async setBehaviour(behaviour: ServerBehaviour): Promise<void> {
    if (!this.http) throw new Error('server behaviour faults need the Streamable HTTP server (not stdio)');
    this.http.setBehaviour(behaviour);
  }

  async behaviourStats(): Promise<BehaviourStats> {
    if (!this.http) throw new Error('server behaviour faults need the Streamable HTTP server (not stdio)');
    return this.http.behaviourStats();
  }

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
    this.http?.setBehaviour({});
  }
}
