// The connection fails before the dependency acts (fetch rejects with "Failed to fetch").
import { HttpResponse } from 'msw';
import { z } from 'zod';
import { baseFaultSpec, defineFault } from './types.ts';

export const networkError = defineFault(
  baseFaultSpec
    .extend({ kind: z.literal('network-error') })
    .describe('the connection fails before the dependency acts'),
  async (_spec, ctx) => {
    ctx.hit();
    return HttpResponse.error();
  },
);
