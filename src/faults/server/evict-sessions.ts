// The server forgets sessions: it closes their transports, so the next request with that Mcp-Session-Id gets
// 404 "Session not found". Evicts every live session when the window opens (`now`) and, while it is open, each
// session after `afterRequests` POSTs.
import { z } from 'zod';
import type { FaultKind } from '../kind.ts';
import { installBehaviour } from './common.ts';

const params = z.strictObject({
  now: z.boolean().default(true),
  afterRequests: z.number().int().positive().optional(),
});

export const serverEvictSessions: FaultKind<z.infer<typeof params>> = {
  seam: 'server',
  kind: 'evict-sessions',
  summary: 'the server forgets sessions (404 Session not found), now and/or after N requests each',
  params,
  async apply(p, ctx) {
    return installBehaviour(ctx, p.afterRequests === undefined ? {} : { evictAfterRequests: p.afterRequests }, {
      evictNow: p.now,
    });
  },
};
