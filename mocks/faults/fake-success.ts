// The dependency says it acted and did not: a 200 whose body looks like the created resource (the request's own
// fields, an id, status succeeded), and no effect in the ledger. Only the ledger can tell: an ok op without an
// effect is a lost effect.
import { HttpResponse } from 'msw';
import { z } from 'zod';
import { baseFaultSpec, defineFault } from './types.ts';

export const fakeSuccess = defineFault(
  baseFaultSpec
    .extend({ kind: z.literal('fake-success') })
    .describe('answers 200 as if it had acted, without acting: the lost write only the ledger sees'),
  async (_spec, ctx) => {
    const sent: Record<string, unknown> = await ctx.request
      .clone()
      .json()
      .catch(() => ({}));
    const id = `fake_${ctx.random.int('fake id', 0, 0xffffff).toString(16).padStart(6, '0')}`;
    return HttpResponse.json({ ...sent, id, status: 'succeeded', created_ms: Date.now() }, { status: 200 });
  },
);
