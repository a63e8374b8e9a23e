// A retried input_required round (the request that carries the client's answers and the server's request state)
// is lost or replayed between client and server: lost before the server sees it, lost after it ran (the charge
// happened, the client gets a 502 and does not know), or replayed (the server gets the same round twice, the client
// the second answer). First rounds pass untouched: the fault is on the round trip only 2026-07-28 has.
import { z } from 'zod';
import { isInputRound } from '../../core/input-round.ts';
import { jsonRpcError } from '../../core/json-rpc.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeInputRound = defineFaultKind({
  seam: 'edge',
  kind: 'input-round',
  summary: 'a retried input_required round is lost (before or after the server ran it) or replayed',
  params: z.strictObject({
    ...edgeBase,
    fate: z
      .enum(['lost-before', 'lost-after', 'replayed'])
      .default('lost-after')
      .describe('lost before the server sees it, lost after it ran (answered 502), or sent to the server twice'),
  }),
  needs: ['http-edge'],
  onlyIn: { era: 'modern', reason: 'the 2025-11-25 wire has no input_required rounds' },
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        if (!isInputRound(exchange.body)) return forward();
        hit();
        if (p.fate !== 'lost-before') {
          // The server runs the round to its end (the whole stream) before the client hears anything.
          const first = await forward();
          await first.arrayBuffer().catch(() => undefined);
          if (p.fate === 'replayed') return forward();
        }
        return jsonRpcError(502, `faultline edge fault ${ctx.id}: input_required round ${p.fate}`);
      },
    });
  },
});
