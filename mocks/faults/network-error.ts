// The connection fails, as fetch reports it (a TypeError whose cause carries the socket error's code): refused
// before the dependency acts (ECONNREFUSED, the default), or reset after it acted, while its answer was on the way
// (ECONNRESET). The server can tell the two apart only by that code.
import { z } from 'zod';
import { baseFaultSpec, defineFault } from './types.ts';

/** A network error whose cause carries `code` (msw rejects the fetch with it as the cause). */
const socketError = (code: string): Response => Object.assign(Response.error(), { code });

export const networkError = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('network-error'),
      when: z
        .enum(['before', 'after'])
        .default('before')
        .describe('refused before the dependency acts, or reset after it acted (the effect happened)'),
    })
    .describe('the connection fails: refused before the dependency acts, or reset after it did'),
  ['tool'],
  async (spec, ctx, next) => {
    ctx.hit();
    if (spec.when === 'before') return socketError('ECONNREFUSED');
    await next();
    return socketError('ECONNRESET');
  },
);
