// Removes Faultline's trace id and attempt number from the tools/call `_meta` on the way to the MCP endpoint: the
// server then runs the call as a server that does not forward them would, and its effects reach the ledger
// without a trace id (reconcile attributes them by argsKey). Everything else in the body passes unchanged.
import { z } from 'zod';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../../core/wire.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

/** The body without the trace keys in `params._meta`, or undefined when it has none (or is not JSON). */
function withoutTrace(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  let message: { params?: { _meta?: Record<string, unknown> } };
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  const meta = message?.params?._meta;
  if (!meta || !(TRACE_META_KEY in meta || ATTEMPT_META_KEY in meta)) return undefined;
  const { [TRACE_META_KEY]: _trace, [ATTEMPT_META_KEY]: _attempt, ...rest } = meta;
  return JSON.stringify({ ...message, params: { ...message.params, _meta: rest } });
}

export const edgeStripTrace = defineFaultKind({
  seam: 'edge',
  kind: 'strip-trace',
  summary: "the trace id and attempt removed from the request's _meta (a server that does not forward them)",
  params: z.strictObject({ ...edgeBase }),
  needs: ['http-edge'],
  covers: ['protocol', 'state'],
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        const body = withoutTrace(exchange.body);
        if (body === undefined) return forward();
        hit();
        return forward({ body });
      },
    });
  },
});
