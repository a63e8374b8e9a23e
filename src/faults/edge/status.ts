// MCP-edge HTTP error: 5xx, 429 with Retry-After, 413, 404, 400 on the MCP endpoint, either before the server
// sees the request or after it ran it (the response is replaced: the effect happened, the client sees failure).
import { z } from 'zod';
import { jsonRpcError } from '../../core/json-rpc.ts';
import type { FaultKind } from '../kind.ts';
import { edgeBase, installEdgeRule } from './common.ts';

const params = z.strictObject({
  ...edgeBase,
  status: z.number().int().min(400).max(599),
  when: z.enum(['before', 'after']).default('before'),
  /** Retry-After to advise, in seconds. */
  retryAfterS: z.number().nonnegative().optional(),
  retryAfterForm: z.enum(['seconds', 'http-date']).default('seconds'),
});

export const edgeStatus: FaultKind<z.infer<typeof params>> = {
  seam: 'edge',
  kind: 'status',
  summary: 'HTTP error from the MCP endpoint, before or after the server handled the request',
  params,
  async apply(p, ctx) {
    return installEdgeRule(ctx, p, async (_exchange, forward) => {
      if (p.when === 'after') {
        // Let the server run the request to the end (the whole SSE stream), then replace the answer.
        const real = await forward();
        await real.arrayBuffer().catch(() => undefined);
      }
      const headers: Record<string, string> = {};
      if (p.retryAfterS !== undefined) {
        headers['retry-after'] =
          p.retryAfterForm === 'seconds'
            ? String(p.retryAfterS)
            : new Date(Date.now() + p.retryAfterS * 1000).toUTCString();
      }
      return jsonRpcError(p.status, `faultline edge fault ${ctx.id}: HTTP ${p.status} (${p.when})`, headers);
    });
  },
};
