// The dependency acts, then its answer is inflated by about `bytes`: result snippets grow (so the bloat reaches
// the tool result), or a padding field is added to other bodies.
import { z } from 'zod';
import { baseFaultSpec, defineFault, wholeNumber } from './types.ts';
import { filler } from './util.ts';

export const oversized = defineFault(
  baseFaultSpec
    .extend({
      kind: z.literal('oversized'),
      bytes: wholeNumber('oversized `bytes`', 1).describe('bytes added to the answer'),
    })
    .describe('the dependency acts, then its answer grows by about `bytes`'),
  ['tool'],
  async (spec, ctx, next) => {
    const response = await next();
    let body: Record<string, unknown>;
    try {
      body = (await response.json()) as Record<string, unknown>;
    } catch {
      return response;
    }
    ctx.hit();
    const results = body.results;
    if (Array.isArray(results) && results.length > 0) {
      const per = Math.ceil(spec.bytes / results.length);
      for (const r of results as Array<{ snippet?: string }>) r.snippet = `${r.snippet ?? ''} ${filler(per)}`;
    } else {
      body.padding = filler(spec.bytes);
    }
    return Response.json(body, { status: response.status });
  },
);
