// The server closes the POST SSE stream of a tools/call after its priming event and before its result. With
// the event store the client resumes (GET + Last-Event-ID) and gets the result once; without it the result is
// lost and the client waits for its timeout although the tool ran.
import { z } from 'zod';
import type { FaultKind } from '../kind.ts';
import { installBehaviour } from './common.ts';

const params = z.strictObject({
  /** Every Nth tools/call while the window is open. */
  every: z.number().int().positive().default(1),
  tools: z.array(z.string()).optional(),
  /** Close this long after the call arrived (if the result is not out yet); default: just before the result. */
  afterMs: z.number().int().nonnegative().optional(),
});

export const serverStreamClose: FaultKind<z.infer<typeof params>> = {
  seam: 'server',
  kind: 'stream-close',
  summary: 'the server closes a tools/call SSE stream mid-call, before the result',
  params,
  async apply(p, ctx) {
    return installBehaviour(ctx, { closeToolStreams: p });
  },
};
