// Fails with an HTTP status before the dependency acts: no effect.
import { z } from 'zod';
import { baseFaultSpec, defineFault } from './types.ts';
import { statusResponse } from './util.ts';

export const httpStatus = z
  .number({ error: 'an injected `status` must be an HTTP error status (400..599)' })
  .int()
  .min(400, 'an injected `status` must be an HTTP error status (400..599)')
  .max(599, 'an injected `status` must be an HTTP error status (400..599)');

export const status = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('status'),
      status: httpStatus.describe('HTTP status answered instead of the dependency'),
    })
    .describe('an HTTP error status before the dependency acts (no effect)'),
  ['tool'],
  async (spec, ctx) => {
    ctx.hit();
    return statusResponse(spec.status);
  },
);
