// Adds delay before the dependency acts. If the caller gives up meanwhile, the request never reaches it.
import { z } from 'zod';
import { sleep } from '../../src/core/sleep.ts';
import { baseFaultSpec, defineFault, wholeNumber } from './types.ts';

export const latency = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('latency'),
      ms: wholeNumber('latency `ms`').describe('delay before the dependency acts, ms'),
      jitterMs: wholeNumber('latency `jitterMs`').optional().describe('plus a random extra delay of 0..jitterMs, ms'),
    })
    .describe('delay before the dependency acts (if the caller gives up meanwhile, it never acts)'),
  ['tool', 'timeout'],
  async (spec, ctx, next) => {
    const jitter = spec.jitterMs ? ctx.random.int('latency.jitterMs', 0, spec.jitterMs) : 0;
    if (spec.ms + jitter > 0) ctx.hit();
    const completed = await sleep(spec.ms + jitter, ctx.request.signal, { unref: true });
    if (!completed) return Response.error();
    return next();
  },
);
