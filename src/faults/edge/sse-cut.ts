// Cuts the SSE response stream of a request after N events, as a dropped connection would: the body read
// fails mid-stream on the client, whatever the server still sends.
import { z } from 'zod';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeSseCut = defineFaultKind({
  seam: 'edge',
  kind: 'sse-cut',
  summary: 'the SSE response stream is cut after N events',
  params: z.strictObject({
    ...edgeBase,
    afterEvents: z.number().int().nonnegative().default(1).describe('SSE events that get through before the cut'),
  }),
  needs: ['http-edge'],
  covers: ['protocol'],
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (_exchange, forward, hit) => {
        const real = await forward();
        if (!real.body || !(real.headers.get('content-type') ?? '').includes('text/event-stream')) return real;
        return new Response(cutAfterEvents(real.body, p.afterEvents, hit), {
          status: real.status,
          headers: real.headers,
        });
      },
    });
  },
});

/** The stream cut after `events` events; a stream that ends before is passed whole (no cut, no hit). */
function cutAfterEvents(body: ReadableStream<Uint8Array>, events: number, hit: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = 0;
  let pending = '';
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      pending += decoder.decode(value, { stream: true });
      let boundary = pending.indexOf('\n\n');
      let upTo = 0;
      while (boundary !== -1) {
        seen++;
        upTo = boundary + 2;
        if (seen >= events) {
          controller.enqueue(new TextEncoder().encode(pending.slice(0, upTo)));
          hit();
          await reader.cancel().catch(() => {});
          controller.error(new TypeError('faultline: SSE stream cut'));
          return;
        }
        boundary = pending.indexOf('\n\n', upTo);
      }
      controller.enqueue(new TextEncoder().encode(pending.slice(0, upTo)));
      pending = pending.slice(upTo);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
