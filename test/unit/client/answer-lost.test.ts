// When an attempt ends for a lost answer: only on the SDK's stream-broke report, only while its call is pending, and
// never when its stream carried an event id (the SDK resumes that one).
import { describe, expect, it } from 'vitest';
import { endIfAnswerLost, withAnswerLost } from '../../../src/client/answer-lost.ts';
import type { AttemptHttp } from '../../../src/client/attempt-http.ts';
import { AttemptRegistry } from '../../../src/client/attempt-registry.ts';

const broke = new Error('SSE stream disconnected: TypeError: terminated');

/** A call that settles only when its signal aborts (as the SDK's pending call does), or when `settle` is called. */
function pendingCall(http: AttemptHttp) {
  let settle!: () => void;
  let signal!: AbortSignal;
  let onresumptiontoken!: (eventId: string) => void;
  const call = withAnswerLost(http, new AttemptRegistry(), (options) => {
    ({ signal, onresumptiontoken } = options);
    return new Promise<string>((resolve, reject) => {
      settle = () => resolve('answer');
      options.signal.addEventListener('abort', () => reject(options.signal.reason));
    });
  });
  return { call, settle: () => settle(), signal: () => signal, primed: () => onresumptiontoken('e-1') };
}

describe('answer-lost', () => {
  it('a pending call whose stream broke without an event id ends at once, marked answerLost', async () => {
    const http: AttemptHttp = {};
    const c = pendingCall(http);
    endIfAnswerLost(broke, http);
    await expect(c.call).rejects.toThrow(/broke off before the answer/);
    expect(http.answerLost).toBe(true);
  });

  it('a stream that carried an event id is left to the SDK to resume', async () => {
    const http: AttemptHttp = {};
    const c = pendingCall(http);
    c.primed();
    endIfAnswerLost(broke, http);
    expect(c.signal().aborted).toBe(false);
    expect(http.answerLost).toBeUndefined();
    c.settle();
    await expect(c.call).resolves.toBe('answer');
  });

  it('another transport error leaves the call pending', () => {
    const http: AttemptHttp = {};
    const c = pendingCall(http);
    endIfAnswerLost(new Error('Failed to open SSE stream: Not Found'), http);
    endIfAnswerLost(new Error('Maximum reconnection attempts (3) exceeded.'), http);
    expect(c.signal().aborted).toBe(false);
    expect(http.answerLost).toBeUndefined();
  });

  it('a stream error after the call settled, or outside any attempt, ends nothing', async () => {
    const http: AttemptHttp = {};
    const c = pendingCall(http);
    c.settle();
    await c.call;
    endIfAnswerLost(broke, http);
    expect(c.signal().aborted).toBe(false);
    expect(http.answerLost).toBeUndefined();
    expect(() => endIfAnswerLost(broke, undefined)).not.toThrow();
  });
});
