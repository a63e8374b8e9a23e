// MCP-edge HTTP error: 5xx, 429 with Retry-After, 413, 404, 400 on the MCP endpoint, either before the server
// sees the request or after it ran it (the response is replaced: the effect happened, the client sees failure).
import { z } from 'zod';
import { jsonRpcError } from '../../core/json-rpc.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeStatus = defineFaultKind({
  seam: 'edge',
  kind: 'status',
  summary: 'HTTP error from the MCP endpoint, before or after the server handled the request',
  params: z.strictObject({
    ...edgeBase,
    status: z.number().int().min(400).max(599).describe('HTTP status the client gets'),
    when: z
      .enum(['before', 'after'])
      .default('before')
      .describe('before the server sees the request, or after it ran it (the answer is replaced)'),
    retryAfterS: z.number().nonnegative().optional().describe('Retry-After to advise, seconds'),
    retryAfterForm: z
      .enum(['seconds', 'http-date'])
      .default('seconds')
      .describe('Retry-After as delta seconds or as an HTTP-date'),
  }),
  needs: ['http-edge'],
  covers: ['protocol'],
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (_exchange, forward, hit) => {
        hit();
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
      },
    });
  },
});
