// The client hangs up on a request's response stream mid-call (it gave up: a timeout, a user cancel, a closed
// tab): after `afterMs` the edge aborts the real exchange with the server, so the server sees its response stream
// close, and the client sees its call fail. On the 2026-07-28 wire closing the response stream is the
// cancellation (there is no notifications/cancelled to wait for): a server that honours it stops the tool before
// its commit point, and no effect appears for an op the client saw fail (ghost_effects). On 2025-11-25 a closed
// stream is not a cancellation (the client may resume it), so the kind means nothing there.
import { z } from 'zod';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

export const edgeStreamAbandon = defineFaultKind({
  seam: 'edge',
  kind: 'stream-abandon',
  summary: 'the client hangs up on a response stream mid-call (on 2026-07-28: a cancellation)',
  params: z.strictObject({
    ...edgeBase,
    afterMs: z
      .number()
      .int()
      .nonnegative()
      .describe('ms after the request went out that the client hangs up (on a slow server, once its headers came)'),
  }),
  needs: ['http-edge'],
  covers: ['timeout'],
  // In `auto` the SDK 2.4 client reports the same hang-up as a broken link (uncertain), not as its own timeout,
  // so no op ends failed and the ghost count has nothing to count: measured, and left n/a there.
  onlyIn: {
    pairings: ['modern'],
    reason:
      'on 2025-11-25 a closed response stream is not a cancellation (the spec says so; the client may resume it); ' +
      'in auto the SDK 2.4 client reports the hang-up as an uncertain broken link, so no op ends failed to count ghosts on',
  },
  async apply(p, ctx) {
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (_exchange, forward, hit) => {
        const hangUp = new AbortController();
        let settled = false;
        let open = false;
        let due = false;
        const hangUpNow = () => {
          hit();
          // As fetch reports a connection that went away mid-body: a TypeError.
          hangUp.abort(new TypeError('faultline: the client hung up on the response stream'));
        };
        // The hang-up is on the response stream: when afterMs passes before a slow server's headers came, it
        // waits for them. Before, a loaded machine failed the request itself instead (a broken link the client
        // takes as uncertain, not its call failing), and stream-abandon-ignored counted no failed op.
        const timer = setTimeout(() => {
          if (settled) return;
          due = true;
          if (open) hangUpNow();
        }, p.afterMs);
        const done = () => {
          settled = true;
          clearTimeout(timer);
        };
        try {
          const real = await forward({ signal: hangUp.signal });
          open = true;
          if (!real.body) {
            done();
            return real;
          }
          if (due) hangUpNow();
          return new Response(untilDone(real.body, done), { status: real.status, headers: real.headers });
        } catch (error) {
          done();
          throw error;
        }
      },
    });
  },
});

/** The body as it comes, calling `done` once it ended (a hang-up after that is no hang-up). */
function untilDone(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}
