// Starts msw in this process with the world's handlers. Loopback passes through silently (the MCP server's own
// port, toxiproxy); anything else unhandled is an error, so no request ever leaves the machine.
import { setupServer } from 'msw/node';
import { isLoopbackHost } from '../src/core/loopback.ts';
import type { DependencyWorld } from './world.ts';

export function startDependencyMocks(world: DependencyWorld) {
  const server = setupServer(...world.handlers());
  server.listen({
    onUnhandledRequest(request, print) {
      if (isLoopbackHost(new URL(request.url).hostname)) return;
      print.error();
    },
  });
  return server;
}
