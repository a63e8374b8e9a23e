// Entry of the server child process. Waits for `start` on the IPC channel, runs the reference server, pushes every
// world event (effect, dependency state change, decision) to the harness as it happens, and answers control
// requests in the order they came. It exits when the channel disconnects (the harness died), so nothing is left
// running.

import { streamWorldEvents } from '../control/events.ts';
import { ControlError } from '../control/op.ts';
import { eventBatcher } from './control/event-batch.ts';
import type { ToChild } from './control/ipc.ts';
import { dispatch } from './control/local-control.ts';
import { type ReferenceServer, startReferenceServer } from './reference-server.ts';

let server: ReferenceServer | undefined;

const out = eventBatcher((message) => {
  if (process.connected) process.send?.(message);
});
const send = out.send;

async function onMessage(message: ToChild): Promise<void> {
  switch (message.type) {
    case 'start': {
      server = await startReferenceServer(message.options, message.snapshot);
      streamWorldEvents(server.world, out.event);
      // The harness's copy is the record (targets/child-target.ts): this process keeps nothing per effect or decision.
      server.world.streamOut();
      for (const request of message.requests ?? []) await dispatch(server, request.op, request.input);
      send({ type: 'ready', url: server.http.url, port: server.http.port });
      return;
    }
    case 'request': {
      try {
        if (!server) throw new Error('server not started');
        const output = await dispatch(server, message.op, message.input);
        send({ type: 'response', id: message.id, ok: true, output });
      } catch (error) {
        send({
          type: 'response',
          id: message.id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          ...(error instanceof ControlError && { status: error.status }),
        });
      }
      return;
    }
    case 'shutdown':
      await server?.close();
      process.exit(0);
  }
}

let queue: Promise<void> = Promise.resolve();
process.on('disconnect', () => process.exit(0));
process.on('message', (message: ToChild) => {
  // One at a time: a request sent right after `start` waits for the server instead of finding none.
  queue = queue.then(() =>
    onMessage(message).catch((error) => {
      send({ type: 'fatal', error: error instanceof Error ? error.message : String(error) });
      process.exitCode = 1;
      setTimeout(() => process.exit(1), 50);
    }),
  );
});
