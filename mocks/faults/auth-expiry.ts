// Access tokens live `ttlMs`: a request whose bearer token was issued (or, for older tokens, the fault activated)
// more than ttlMs ago is refused with 401. A refreshed token from the auth API is accepted for another ttlMs, so a
// client that renews credentials recovers and one that retries blindly does not. The token service itself is
// exempt (it authenticates with the client secret).
import { z } from 'zod';
import { bearerOf, issuedAtOf } from '../apis/auth.ts';
import { baseFaultSpec, defineFault, wholeNumber } from './types.ts';
import { statusResponse } from './util.ts';

export const authExpiry = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('auth-expiry'),
      ttlMs: wholeNumber('auth-expiry `ttlMs`').describe('how long a token is accepted after it was issued, ms'),
    })
    .describe('bearer tokens expire after ttlMs: 401 until the client refreshes its credentials'),
  ['security'],
  async (spec, ctx, next) => {
    if (ctx.dependency === 'auth') return next();
    const since = Math.max(ctx.activatedAtMs, issuedAtOf(bearerOf(ctx.request)));
    if (Date.now() - since < spec.ttlMs) return next();
    ctx.hit();
    return statusResponse(401, {
      'www-authenticate': 'Bearer error="invalid_token", error_description="token expired"',
    });
  },
);
