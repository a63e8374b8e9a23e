// Faults on the 2026-07-28 version probe: a gateway in front of the MCP endpoint answers `server/discover` with a
// 5xx, holds it back, or answers a bare 400 whose body it stripped (no JSON-RPC error: SDK 2.4 in auto mode takes
// it for a 2025-era server and falls back to initialize; pinned, it gives up). Only a negotiating SDK 2.4 client
// sends the probe, once per connect: pair the fault with something that makes the client reconnect in its
// window (a `network down`, a crash), as a rollout does.
import { z } from 'zod';
import { jsonRpcError } from '../../core/json-rpc.ts';
import { sleep } from '../../core/sleep.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeDiscover = defineFaultKind({
  seam: 'edge',
  kind: 'discover',
  summary: 'the server/discover probe gets a 5xx, a delay, or a 400 with its body stripped',
  params: z.strictObject({
    probability: edgeBase.probability,
    answer: z
      .enum(['status', 'delay', 'stripped-400'])
      .describe('status: an HTTP error; delay: the answer held back; stripped-400: a 400 with an empty body'),
    status: z.number().int().min(500).max(599).default(503).describe('HTTP status of `answer: status`'),
    delayMs: z.number().int().positive().default(1500).describe('how long `answer: delay` holds the answer, ms'),
  }),
  needs: ['http-edge'],
  covers: ['protocol'],
  onlyIn: {
    era: 'modern',
    reason: 'server/discover is the 2026-07-28 version probe; a 2025-era client never sends it',
  },
  async apply(p, ctx) {
    return installRule(
      ctx.env.edge,
      ctx,
      { methods: ['server/discover'], probability: p.probability },
      {
        handle: async (_exchange, forward, hit) => {
          hit();
          if (p.answer === 'delay') {
            await sleep(p.delayMs);
            return forward();
          }
          if (p.answer === 'status') {
            return jsonRpcError(p.status, `faultline edge fault ${ctx.id}: HTTP ${p.status} on server/discover`);
          }
          return new Response(null, { status: 400, statusText: 'Bad Request' });
        },
      },
    );
  },
});
