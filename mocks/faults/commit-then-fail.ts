// The dependency performs the effect, then the answer is replaced by an error status (a 5xx from a gateway).
import { z } from 'zod';
import { httpStatus } from './status.ts';
import { baseFaultSpec, defineFault } from './types.ts';
import { statusResponse } from './util.ts';

export const commitThenFail = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('commit-then-fail'),
      status: httpStatus.default(502).describe('HTTP status that replaces the answer'),
    })
    .describe('the dependency acts, then its answer is replaced by an error status'),
  ['tool'],
  async (spec, ctx, next) => {
    await next();
    ctx.hit();
    return statusResponse(spec.status);
  },
);
