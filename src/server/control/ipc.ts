// Messages on the IPC channel between the harness (ServerHandle) and the server child (child-main.ts): control
// requests by operation name (ops/index.ts) and the world events the child pushes.
import type { WorldSnapshot } from '../../../mocks/world.ts';
import type { ControlRequest, OpName } from '../../control/control.ts';
import type { WorldEvent } from '../../control/events.ts';
import type { ReferenceServerOptions } from '../reference-server.ts';

export type ToChild =
  | {
      type: 'start';
      options: ReferenceServerOptions;
      snapshot?: WorldSnapshot;
      /** Run before the server reports ready: the desired fault state of the run. */
      requests?: ControlRequest[];
    }
  | { type: 'request'; id: number; op: OpName; input?: unknown }
  | { type: 'shutdown' };

export type FromChild =
  | { type: 'ready'; url: string; port: number }
  | { type: 'response'; id: number; ok: true; output?: unknown }
  /** `status` when the request itself was refused (ControlError: 400 bad input, 404 not offered). */
  | { type: 'response'; id: number; ok: false; error: string; status?: 400 | 404 }
  | WorldEvent
  /** World events pushed together (control/event-batch.ts), in the order they happened. */
  | { type: 'events'; events: WorldEvent[] }
  | { type: 'fatal'; error: string };
