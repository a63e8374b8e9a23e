// 429 with Retry-After, in either form real servers use (delta seconds or an HTTP-date). With quotaPerSecond, only
// calls above the quota in each one-second window are refused; without it, every call is.
import { z } from 'zod';
import { baseFaultSpec, defineFault, wholeNumber } from './types.ts';
import { statusResponse } from './util.ts';

export const rateLimit = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('rate-limit'),
      retryAfterS: wholeNumber('rate-limit `retryAfterS` (seconds)').describe('Retry-After advised, seconds'),
      form: z
        .enum(['seconds', 'http-date'], { error: "rate-limit `form` must be 'seconds' or 'http-date'" })
        .default('seconds')
        .describe('Retry-After as delta seconds or as an HTTP-date'),
      quotaPerSecond: wholeNumber('rate-limit `quotaPerSecond`', 1)
        .optional()
        .describe('calls let through per one-second window (default: none)'),
    })
    .describe('429 with Retry-After, for every call or for those above a per-second quota'),
  ['tool'],
  async (spec, ctx, next) => {
    if (spec.quotaPerSecond !== undefined) {
      const now = Date.now();
      const window = (ctx.state.window as { start: number; count: number } | undefined) ?? { start: now, count: 0 };
      if (now - window.start >= 1000) Object.assign(window, { start: now, count: 0 });
      ctx.state.window = window;
      if (window.count < spec.quotaPerSecond) {
        window.count++;
        return next();
      }
    }
    ctx.hit();
    // An HTTP-date has one-second resolution: round up so the advised wait is never shorter than retryAfterS.
    const retryAfter =
      spec.form === 'seconds'
        ? String(spec.retryAfterS)
        : new Date(Math.ceil((Date.now() + spec.retryAfterS * 1000) / 1000) * 1000).toUTCString();
    return statusResponse(429, { 'retry-after': retryAfter });
  },
);
