// Fails the first `failTimes` calls with `status` (before the dependency acts), then lets every call through.
import { z } from 'zod';
import { httpStatus } from './status.ts';
import { baseFaultSpec, defineFault, wholeNumber } from './types.ts';
import { statusResponse } from './util.ts';

export const flap = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('flap'),
      failTimes: wholeNumber('flap `failTimes`').describe('how many calls fail before every call goes through'),
      status: httpStatus.default(503).describe('HTTP status of the failures'),
    })
    .describe('the first failTimes calls fail with an HTTP status (before the dependency acts), then none'),
  ['tool'],
  async (spec, ctx, next) => {
    const calls = (ctx.state.calls as number | undefined) ?? 0;
    ctx.state.calls = calls + 1;
    if (calls >= spec.failTimes) return next();
    ctx.hit();
    return statusResponse(spec.status);
  },
);
