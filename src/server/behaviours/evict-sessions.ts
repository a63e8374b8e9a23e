// The server forgets sessions: it closes their transports, so the next request with that Mcp-Session-Id gets
// 404 "Session not found". Evicts every live session when the window opens (`now`) and, while it is open, each
// session after `afterRequests` POSTs.
import { z } from 'zod';
import { defineBehaviour } from './behaviour.ts';

export const evictSessions = defineBehaviour({
  kind: 'evict-sessions',
  summary: 'the server forgets sessions (404 Session not found), now and/or after N requests each',
  covers: ['state'],
  params: z.strictObject({
    now: z.boolean().default(true).describe('evict every live session when the window opens'),
    afterRequests: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('evict a session once it has served this many POSTs (requests, after initialize)'),
  }),
  counters: [],
  removedOnModernWire: 'the 2026-07-28 wire has no sessions: no Mcp-Session-Id to forget, no 404 on expiry',
  opened(p, host) {
    if (p.now) for (const id of [...host.sessions.keys()]) host.evict(id);
  },
  request(p, req, _res, session, host) {
    // Evicted here, the server answers this request as it answers any unknown session: 404.
    if (p.afterRequests !== undefined && req.method === 'POST' && session.posts >= p.afterRequests) {
      host.evict(session.id);
    }
    return false;
  },
});
