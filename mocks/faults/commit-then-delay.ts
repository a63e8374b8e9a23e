// The dependency performs the effect, then answers only after `ms`. With ms above the caller's timeout this is
// the classic ghost write: the effect exists while the caller saw a timeout.
import { z } from 'zod';
import { sleep } from '../../src/core/sleep.ts';
import { baseFaultSpec, defineFault, wholeNumber } from './types.ts';

export const commitThenDelay = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('commit-then-delay'),
      ms: wholeNumber('commit-then-delay `ms`').describe('wait between the effect and the answer, ms'),
    })
    .describe("the dependency acts, then answers only after ms (a ghost write past the caller's timeout)"),
  ['tool', 'timeout'],
  async (spec, ctx, next) => {
    const response = await next();
    ctx.hit();
    await sleep(spec.ms, undefined, { unref: true });
    return response;
  },
);
