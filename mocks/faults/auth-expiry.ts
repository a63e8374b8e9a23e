// The server's access token expires `ttlMs` after the fault is activated: from then on every call is a 401.
import { z } from 'zod';
import { baseFaultSpec, defineFault, wholeNumber } from './types.ts';
import { statusResponse } from './util.ts';

export const authExpiry = defineFault(
  baseFaultSpec.extend({
    kind: z.literal('auth-expiry'),
    ttlMs: wholeNumber('auth-expiry `ttlMs`'),
  }),
  async (spec, ctx, next) => {
    if (Date.now() - ctx.activatedAtMs < spec.ttlMs) return next();
    return statusResponse(401, {
      'www-authenticate': 'Bearer error="invalid_token", error_description="token expired"',
    });
  },
);
