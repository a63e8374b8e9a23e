// A garbled answer. By default the dependency acts first (the answer is spoiled on the way back, so the effect
// may exist); `commit: false` garbles the answer without calling the dependency.
import { z } from 'zod';
import { baseFaultSpec, defineFault } from './types.ts';

export const malformed = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('malformed'),
      variant: z
        .enum(['invalid-json', 'truncated', 'control-chars', 'wrong-content-type'], {
          error: 'malformed `variant` must be one of: invalid-json, truncated, control-chars, wrong-content-type',
        })
        .describe('how the answer is garbled'),
      commit: z.boolean().default(true).describe('let the dependency act first (the effect exists)'),
    })
    .describe('a garbled answer (invalid JSON, truncated, control characters, HTML), by default after the effect'),
  ['tool', 'schema'],
  async (spec, ctx, next) => {
    const original = spec.commit ? await next() : Response.json({ id: 'x_000000', status: 'ok' });
    ctx.hit();
    const text = await original.text();
    const json = { status: original.status, headers: { 'content-type': 'application/json' } };
    switch (spec.variant) {
      case 'invalid-json':
        return new Response(`${text.replace(/\}\s*$/, '')},}`, json);
      case 'truncated':
        return new Response(text.slice(0, Math.ceil(text.length / 2)), json);
      case 'control-chars':
        // Raw control characters inside a JSON string literal make JSON.parse fail.
        return new Response(text.replace('"', '"\u0000\u0007\u001b'), json);
      case 'wrong-content-type':
        return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        });
    }
  },
);
