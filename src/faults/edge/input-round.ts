// A retried input_required round (the request that carries the client's answers and the server's request state)
// is lost, replayed or altered between client and server: lost before the server sees it, lost after it ran (the
// charge happened, the client gets a 502 and does not know), replayed (the server gets the same round twice, the
// client the second answer), or tampered (the server gets the round with its requestState altered, as a proxy or
// a buggy client that rewrites it would send it), or late (held on the way for holdMs, as a slow link or a client
// that waited on its user would send it: past the server's request-state TTL it is refused as expired). First rounds pass untouched: the fault is on the round trip only
// 2026-07-28 has.
import { z } from 'zod';
import { isInputRound } from '../../core/input-round.ts';
import { jsonRpcError } from '../../core/json-rpc.ts';
import { sleep } from '../../core/sleep.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeInputRound = defineFaultKind({
  seam: 'edge',
  kind: 'input-round',
  summary: 'a retried input_required round is lost (before or after the server ran it), replayed, altered or late',
  params: z.strictObject({
    ...edgeBase,
    fate: z
      .enum(['lost-before', 'lost-after', 'replayed', 'tampered', 'late'])
      .default('lost-after')
      .describe(
        'lost before the server sees it, lost after it ran (answered 502), sent to the server twice, sent with its requestState altered, or held holdMs before it is sent',
      ),
    holdMs: z.number().int().positive().default(1000).describe('fate late: how long the round is held (ms)'),
  }),
  needs: ['http-edge'],
  covers: ['state', 'security'],
  onlyIn: { era: 'modern', reason: 'the 2025-11-25 wire has no input_required rounds' },
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        if (!isInputRound(exchange.body)) return forward();
        if (p.fate === 'late') {
          hit();
          await sleep(p.holdMs);
          return forward();
        }
        if (p.fate === 'tampered') {
          const body = tamperedState(exchange.body);
          if (body === undefined) return forward();
          hit();
          return forward({ body });
        }
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

/** The round's body with its requestState altered (its last character changed), or undefined when it has none. */
function tamperedState(body: string | undefined): string | undefined {
  const request = JSON.parse(body ?? '{}') as { params?: { requestState?: unknown } };
  const state = request.params?.requestState;
  if (typeof state !== 'string' || state === '') return undefined;
  const last = state.at(-1) === 'A' ? 'B' : 'A';
  return JSON.stringify({ ...request, params: { ...request.params, requestState: `${state.slice(0, -1)}${last}` } });
}
