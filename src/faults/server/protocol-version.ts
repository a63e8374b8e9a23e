// The server answers `initialize` with another protocolVersion: one the client does not support (e.g. a
// 2026-07-28-only server; SDK 1.32 clients fail at connect) or an older one (2024-11-05: a downgrade that
// silently turns resumability off). Live sessions are evicted when the window opens (a redeploy), so the
// client has to initialize again and meets the new version.
import { z } from 'zod';
import type { FaultKind } from '../kind.ts';
import { installBehaviour } from './common.ts';

const params = z.strictObject({
  version: z.string().min(1),
  evictSessions: z.boolean().default(true),
});

export const serverProtocolVersion: FaultKind<z.infer<typeof params>> = {
  seam: 'server',
  kind: 'protocol-version',
  summary: 'initialize answers another protocolVersion (unsupported, or a downgrade)',
  params,
  async apply(p, ctx) {
    return installBehaviour(ctx, { protocolVersion: p.version }, { evictNow: p.evictSessions });
  },
};
