// A dependency that says yes and does nothing: it answers 2xx with a plausible body (the request's own fields, an
// id and a success status) without calling the real handler, so no effect is recorded. The tool reports success;
// reconciliation must count the op as a lost effect (ok, side-effecting, no effect in the ledger).
import { z } from 'zod';
import { readJson } from '../apis/types.ts';
import { baseFaultSpec, defineFault } from './types.ts';

export const fabricatedSuccess = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('fabricated-success'),
      status: z
        .number({ error: '`status` must be a 2xx HTTP status' })
        .int({ error: '`status` must be a 2xx HTTP status' })
        .min(200, { error: '`status` must be a 2xx HTTP status' })
        .max(299, { error: '`status` must be a 2xx HTTP status' })
        .default(200)
        .describe('the 2xx HTTP status of the fabricated answer'),
    })
    .describe('answers 2xx "succeeded" without the dependency acting: a success with no effect behind it'),
  ['tool'],
  async (spec, ctx) => {
    const fabricated = ((ctx.state.fabricated as number | undefined) ?? 0) + 1;
    ctx.state.fabricated = fabricated;
    const body = (await readJson(ctx.request.clone())) ?? {};
    ctx.hit();
    return Response.json({ ...body, id: `fabricated_${fabricated}`, status: 'succeeded' }, { status: spec.status });
  },
);
