// The server process dies (SIGKILL by default: no goodbye on any socket) and comes back on the same port, with
// the dependencies' state and ledger intact (they live in the harness) and every MCP session gone. It restarts
// `restartAfterMs` after the crash, or when the window stops, whichever comes first; the window is recorded as
// closed once the new process is ready.
import { z } from 'zod';
import type { FaultKind } from '../kind.ts';

const params = z.strictObject({
  restartAfterMs: z.number().int().nonnegative().optional(),
  signal: z.enum(['SIGKILL', 'SIGTERM']).default('SIGKILL'),
});

export const serverCrash: FaultKind<z.infer<typeof params>> = {
  seam: 'server',
  kind: 'crash',
  summary: 'the server process is killed, then restarted on the same port',
  params,
  async apply(p, ctx) {
    const server = ctx.env.server;
    server.kill(p.signal);
    // The replacement process loads its modules while the server is down (a booted standby, as an orchestrator
    // keeps one), so the downtime is restartAfterMs plus the time to listen, not plus a cold start.
    if ('prepareRestart' in server && typeof server.prepareRestart === 'function') server.prepareRestart();
    let restarting: Promise<void> | undefined;
    const restart = () => {
      restarting ??= server.restart();
      return restarting;
    };
    const timer =
      p.restartAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            restart().catch(() => undefined);
          }, p.restartAfterMs);
    return async () => {
      if (timer) clearTimeout(timer);
      await restart();
    };
  },
};
