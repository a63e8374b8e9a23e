// The server process dies (SIGKILL by default: no goodbye on any socket) and comes back on the same port, with
// the dependencies' state, the ledger and the run's desired faults intact (they live in the harness) and every
// MCP session gone. It restarts `restartAfterMs` after the crash, or when the window stops, whichever comes first;
// the window is recorded as closed once the new process is ready. Its hit is the kill: 1 when a live process got
// the signal, 0 when none ran.
import { z } from 'zod';
import { epochMs } from '../../core/clock.ts';
import { defineFaultKind } from '../kind.ts';

export const serverCrash = defineFaultKind({
  seam: 'server',
  kind: 'crash',
  summary: 'the server process is killed, then restarted on the same port',
  params: z.strictObject({
    restartAfterMs: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('restart this long after the crash, ms (default: when the window stops)'),
    signal: z.enum(['SIGKILL', 'SIGTERM']).default('SIGKILL').describe('the signal that kills it'),
  }),
  needs: ['restart'],
  covers: ['state'],
  // The kill is the hit; the window only bounds the downtime.
  actsAtStart: true,
  // The replacement process loads its modules before the crash (a booted standby, as an orchestrator keeps one),
  // so the downtime is restartAfterMs plus the time to listen, not plus a cold start.
  prepare(env) {
    env.server.prepareRestart();
  },
  async apply(p, ctx) {
    const server = ctx.env.server;
    const killed = server.kill(p.signal) ? 1 : 0;
    server.prepareRestart(); // boots a standby now unless prepare() did (a second crash, a test)
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
    return {
      async remove() {
        if (timer) clearTimeout(timer);
        await restart();
        return epochMs(); // the new process answered ready: the outage is over
      },
      hits: async () => killed,
    };
  },
});
