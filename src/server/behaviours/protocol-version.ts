// The server answers `initialize` with another protocolVersion: one the client does not support (e.g. a
// 2026-07-28-only server; SDK 1.32 clients fail at connect) or an older one (2024-11-05: a downgrade that
// silently turns resumability off). Live sessions are evicted when the window opens (a redeploy), so the
// client has to initialize again and meets the new version.
import { z } from 'zod';
import { defineBehaviour } from './behaviour.ts';

export const protocolVersion = defineBehaviour({
  kind: 'protocol-version',
  summary: 'initialize answers another protocolVersion (unsupported, or a downgrade)',
  covers: ['protocol'],
  params: z.strictObject({
    version: z.string().min(1).describe('the protocolVersion initialize answers, e.g. 2026-07-28 or 2024-11-05'),
    evictSessions: z.boolean().default(true).describe('evict every live session when the window opens (a redeploy)'),
  }),
  counters: ['initializeOverridden'],
  removedOnModernWire: 'it changes the initialize answer; the 2026-07-28 wire has no initialize',
  opened(p, host) {
    if (p.evictSessions) for (const id of [...host.sessions.keys()]) host.evict(id);
  },
  initialize(p, result, host) {
    host.count('initializeOverridden');
    return { ...result, protocolVersion: p.version };
  },
});
