// The transport's fetch gives requests signals that follow its one shared signal, each serving a bounded number of
// requests (request-signal.ts): a follower's abort listeners stay bounded, and every request still aborts with the
// shared signal, whichever follower it got.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ownSignalPerRequest, REQUESTS_PER_FOLLOWER } from '../../../src/client/request-signal.ts';

const REQUESTS = 2 * REQUESTS_PER_FOLLOWER + 1;

describe('ownSignalPerRequest', () => {
  it(`keeps each follower's abort listeners to ${REQUESTS_PER_FOLLOWER} over ${REQUESTS} real requests`, async () => {
    const transport = new AbortController();
    const seen: AbortSignal[] = [];
    // The real fetch (a data: URL, no socket) builds the Request that adds its listener to the signal it is given.
    const send = ownSignalPerRequest((input, init) => {
      seen.push(init!.signal!);
      return fetch(input, init);
    });
    for (let i = 0; i < REQUESTS; i++) {
      await (await send('data:application/json,{}', { method: 'POST', signal: transport.signal })).json();
    }
    const followers = new Set(seen);
    expect(followers.size).toBe(3);
    expect(followers.has(transport.signal)).toBe(false);
    for (const follower of followers) {
      expect(getEventListeners(follower, 'abort').length).toBeLessThanOrEqual(REQUESTS_PER_FOLLOWER);
    }
    expect(getEventListeners(transport.signal, 'abort')).toEqual([]);
    transport.abort(new Error('closed'));
    expect(seen.every((s) => s.aborted && (s.reason as Error).message === 'closed')).toBe(true);
  });

  it('gives a request sent after the shared signal aborted an aborted signal', async () => {
    const transport = new AbortController();
    let got: AbortSignal | undefined;
    const send = ownSignalPerRequest(async (_input, init) => {
      got = init?.signal ?? undefined;
      return new Response('{}');
    });
    await send('http://127.0.0.1:9/', { method: 'POST', signal: transport.signal });
    transport.abort();
    await send('http://127.0.0.1:9/', { method: 'POST', signal: transport.signal });
    expect(got?.aborted).toBe(true);
  });
});
