// The server drops the standalone GET SSE stream and refuses it back, so the SDK client runs out of reconnect
// attempts ("Maximum reconnection attempts" on client.onerror) and silently lives without it from then on.
import { z } from 'zod';
import type { FaultKind } from '../kind.ts';
import { installBehaviour } from './common.ts';

const params = z.strictObject({ refuseStatus: z.number().int().min(400).max(599).default(503) });

export const serverGetStreamDrop: FaultKind<z.infer<typeof params>> = {
  seam: 'server',
  kind: 'get-stream-drop',
  summary: 'the standalone GET stream is closed and refused until the client gives up reconnecting',
  params,
  async apply(p, ctx) {
    return installBehaviour(ctx, { dropStandaloneStream: p });
  },
};
