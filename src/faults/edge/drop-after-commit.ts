// The response of a request is lost after the server answered it: the edge lets the exchange run to its end (the
// tool ran and committed its effect before its result went out), then hands the client the stream without the
// answer, broken off. What came before the answer (a priming event, progress) gets through, so a 2025-11-25
// client with a primed stream can still resume with Last-Event-ID; a 2026-07-28 client has no resumption and must
// re-issue the request with a new id, which duplicates the effect unless the retry is idempotent.
import { z } from 'zod';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeDropAfterCommit = defineFaultKind({
  seam: 'edge',
  kind: 'drop-after-commit',
  summary: 'the response stream breaks off after the server answered (the effect happened, the answer is lost)',
  params: z.strictObject({ ...edgeBase }),
  needs: ['http-edge'],
  covers: ['tool', 'state'],
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (_exchange, forward, hit) => {
        const real = await forward();
        if (!real.ok || !real.body) return real;
        // The whole exchange: once it ends, the server has sent its answer.
        const text = await real.text();
        const sse = (real.headers.get('content-type') ?? '').includes('text/event-stream');
        const kept = sse ? eventsBeforeTheAnswer(text) : '';
        if (kept === undefined) return new Response(text, { status: real.status, headers: real.headers });
        hit();
        const headers = new Headers(real.headers);
        headers.delete('content-length');
        return new Response(brokenOff(kept), { status: real.status, headers });
      },
    });
  },
});

/** The SSE events before the first JSON-RPC answer (result or error); undefined when the stream has no answer. */
function eventsBeforeTheAnswer(text: string): string | undefined {
  const events = text.split(/\n\n/);
  const answer = events.findIndex((event) => /^data: .*"(result|error)"\s*:/m.test(event));
  if (answer === -1) return undefined;
  return events
    .slice(0, answer)
    .map((event) => `${event}\n\n`)
    .join('');
}

/** A body that delivers `kept` and then fails, as a connection that dropped does. */
function brokenOff(kept: string): ReadableStream<Uint8Array> {
  let delivered = !kept;
  return new ReadableStream({
    // Erroring in the same call would discard what was enqueued: the kept events go first, the failure next.
    pull(controller) {
      if (!delivered) {
        delivered = true;
        controller.enqueue(new TextEncoder().encode(kept));
      } else controller.error(new TypeError('faultline: response stream dropped after the server answered'));
    },
  });
}
