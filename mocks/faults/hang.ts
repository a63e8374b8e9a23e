// Never answers (until the caller aborts). The dependency does not act.
import { z } from 'zod';
import { sleep } from '../../src/core/sleep.ts';
import { baseFaultSpec, defineFault } from './types.ts';

export const hang = defineFault(
  baseFaultSpec
    .extend({ kind: z.literal('hang') })
    .describe('never answers until the caller gives up; the dependency does not act'),
  ['tool', 'timeout'],
  async (_spec, ctx) => {
    ctx.hit();
    await sleep(Number.POSITIVE_INFINITY, ctx.request.signal, { unref: true });
    return Response.error();
  },
);
