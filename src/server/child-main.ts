// Entry of the server child process. Waits for `start` on the IPC channel, runs the reference server, pushes every
// effect, dependency state change and decision to the harness as it happens, and answers control requests. It
// exits when the channel disconnects (the harness died), so nothing is left running.
import type { FromChild, ToChild } from '../control/ipc.ts';
import { type ReferenceServer, startReferenceServer } from './reference-server.ts';

let server: ReferenceServer | undefined;

function send(message: FromChild): void {
  if (process.connected) process.send?.(message);
}

async function onMessage(message: ToChild): Promise<void> {
  switch (message.type) {
    case 'start': {
      server = await startReferenceServer(message.options, message.snapshot);
      const { world } = server;
      world.ledger.onEffect((effect) => send({ type: 'effect', effect }));
      world.state.onPut((record) => send({ type: 'state', record }));
      world.onDecision((decision) => send({ type: 'decision', decision }));
      if (message.faults) world.faults.set(message.faults);
      if (message.behaviour) await server.control.setBehaviour(message.behaviour);
      send({ type: 'ready', url: server.http.url, port: server.http.port });
      return;
    }
    case 'request': {
      try {
        if (!server) throw new Error('server not started');
        if (message.op === 'setDependencyFaults') await server.control.setDependencyFaults(message.faults);
        else if (message.op === 'reset') await server.control.reset();
        else if (message.op === 'setBehaviour') await server.control.setBehaviour(message.behaviour);
        else if (message.op === 'behaviourStats') {
          send({ type: 'response', id: message.id, ok: true, stats: await server.control.behaviourStats() });
          return;
        }
        send({ type: 'response', id: message.id, ok: true });
      } catch (error) {
        send({
          type: 'response',
          id: message.id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return;
    }
    case 'shutdown':
      await server?.close();
      process.exit(0);
  }
}

process.on('disconnect', () => process.exit(0));
process.on('message', (message: ToChild) => {
  onMessage(message).catch((error) => {
    send({ type: 'fatal', error: error instanceof Error ? error.message : String(error) });
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 50);
  });
});
