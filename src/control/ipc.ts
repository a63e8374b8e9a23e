// Messages on the IPC channel between the harness (ServerHandle) and the server child (child-main.ts).
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';
import type { StateRecord } from '../../mocks/state.ts';
import type { WorldSnapshot } from '../../mocks/world.ts';
import type { DecisionRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';
import type { BehaviourStats, ServerBehaviour } from '../server/behaviour.ts';
import type { ReferenceServerOptions } from '../server/reference-server.ts';

export type ControlOp =
  | { op: 'setDependencyFaults'; faults: DependencyFaultSpecInput[] }
  | { op: 'reset' }
  | { op: 'setBehaviour'; behaviour: ServerBehaviour }
  | { op: 'behaviourStats' }
  /** A round trip: once answered, every effect the child pushed before it has arrived. */
  | { op: 'sync' };

export type ToChild =
  | {
      type: 'start';
      options: ReferenceServerOptions;
      snapshot?: WorldSnapshot;
      faults?: DependencyFaultSpecInput[];
      /** Server-behaviour faults to restore after a restart. */
      behaviour?: ServerBehaviour;
    }
  | ({ type: 'request'; id: number } & ControlOp)
  | { type: 'shutdown' };

export type FromChild =
  | { type: 'ready'; url: string; port: number }
  | { type: 'response'; id: number; ok: true; stats?: BehaviourStats }
  | { type: 'response'; id: number; ok: false; error: string }
  | { type: 'effect'; effect: Effect }
  | { type: 'state'; record: StateRecord }
  | { type: 'decision'; decision: DecisionRecord }
  | { type: 'fatal'; error: string };
