// The server child's world events leave in batches: every event pushed in one run of the microtask queue goes as one
// IPC message. A charge pushes its effect and its table row together, and each message costs the child a JSON
// encoding and a write to the pipe. The batch goes out before the microtasks queued after it (the tool's answer
// among them, which comes several awaits later), so the harness has an effect before the client can see its
// success, and any other message flushes it first, so a control response never overtakes an event.
import type { WorldEvent } from '../../control/events.ts';
import type { FromChild } from './ipc.ts';

export interface EventBatcher {
  /** Queues a world event; the batch goes out at the end of this microtask run. */
  event(event: WorldEvent): void;
  /** Sends a message after every event queued before it. */
  send(message: FromChild): void;
}

export function eventBatcher(post: (message: FromChild) => void): EventBatcher {
  let pending: WorldEvent[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const events = pending;
    pending = [];
    post(events.length === 1 ? events[0] : { type: 'events', events });
  };
  return {
    event(event) {
      if (pending.push(event) === 1) queueMicrotask(flush);
    },
    send(message) {
      flush();
      post(message);
    },
  };
}
