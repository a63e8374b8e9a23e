// Server-behaviour faults share one active set on the server (setBehaviour replaces it whole), so every window
// keeps its part here and re-sends the merged set when it opens or closes. Later windows win on conflicts.
import type { ServerBehaviour } from '../../server/behaviour.ts';
import type { FaultContext, RemoveFault } from '../kind.ts';

const active = new WeakMap<object, Map<string, ServerBehaviour>>();

function merged(parts: Map<string, ServerBehaviour>): ServerBehaviour {
  return Object.assign({}, ...parts.values());
}

/** Adds this window's behaviour (plus one-shot extras such as evictNow) and returns how to take it away. */
export async function installBehaviour(
  ctx: FaultContext,
  behaviour: ServerBehaviour,
  once: Pick<ServerBehaviour, 'evictNow'> = {},
): Promise<RemoveFault> {
  const server = ctx.env.server;
  if (!server.setBehaviour) throw new Error('server behaviour faults need the reference HTTP server');
  const set = server.setBehaviour.bind(server);
  let parts = active.get(server);
  if (!parts) {
    parts = new Map();
    active.set(server, parts);
  }
  parts.set(ctx.id, behaviour);
  await set({ ...merged(parts), ...once });
  const mine = parts;
  return async () => {
    mine.delete(ctx.id);
    // A window can end while the server is down (a crash window overlapping); the set is restored on restart.
    if (!('alive' in server) || server.alive) await set(merged(mine));
  };
}
