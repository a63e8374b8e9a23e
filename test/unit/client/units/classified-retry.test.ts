// The classified retry unit: retries only what is retryable, never sooner than the failure's Retry-After, and
// stops after maxAttempts tries.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callThrough } from '../../../../src/client/policies/compose.ts';
import { classifiedRetry } from '../../../../src/client/units/classified-retry.ts';
import { FakeSession, ok, opRun, toolError } from '../fakes.ts';

vi.mock('../../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const rateLimited = toolError('DEPENDENCY', 'DEPENDENCY.RATE_LIMITED', { retryable: true, retryAfterMs: 300 });

describe('classified retry', () => {
  it('waits at least the Retry-After between tries, and draws one backoff per retry', async () => {
    const session = new FakeSession((_, i) => (i < 2 ? rateLimited : ok()));
    const { op, attempts, draws } = opRun(session, { client: { backoff: { initialMs: 10, maxMs: 10 } } });
    const done = callThrough(op, [classifiedRetry(op)]);
    await vi.runAllTimersAsync();
    const { fields } = await done;
    expect(fields.outcome).toBe('ok');
    // Jitter is at most 10 ms: the 300 ms floor decides every wait.
    expect(session.calls.map((c) => c.atMs)).toEqual([0, 300, 600]);
    expect(attempts.map((a) => a.next)).toEqual(['retry', 'retry', 'done']);
    expect(draws.map((d) => d.what)).toEqual(['backoff', 'backoff']);
  });

  it('draws each wait from a stream keyed by the op and the attempt that failed, not by draw order', async () => {
    const unavailable = toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE', { retryable: true });
    const run = async (attemptsBefore: number) => {
      const session = new FakeSession((_, i) => (i < 2 ? unavailable : ok()));
      const { op, draws } = opRun(session, { client: { backoff: { initialMs: 400, maxMs: 400 } } });
      op.attemptsBefore = attemptsBefore; // a corrected op: earlier calls made attempts already
      const done = callThrough(op, [classifiedRetry(op)]);
      await vi.runAllTimersAsync();
      await done;
      return draws;
    };
    const fresh = await run(0);
    expect(fresh.map((d) => d.stream)).toEqual(['client/op-00000/attempt-1', 'client/op-00000/attempt-2']);
    const later = await run(1);
    expect(later.map((d) => d.stream)).toEqual(['client/op-00000/attempt-2', 'client/op-00000/attempt-3']);
    // The wait after attempt 2 is one value for the seed, whichever draw of the op it was.
    expect(later[0].value).toBe(fresh[1].value);
  });

  it('takes the jittered backoff when no Retry-After is advised', async () => {
    const unavailable = toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE', { retryable: true });
    const session = new FakeSession((_, i) => (i < 1 ? unavailable : ok()));
    const { op, draws } = opRun(session, { client: { backoff: { initialMs: 400, maxMs: 400 } } });
    const done = callThrough(op, [classifiedRetry(op)]);
    await vi.runAllTimersAsync();
    await done;
    const wait = Math.floor((draws[0].value as number) * 400);
    expect(session.calls.map((c) => c.atMs)).toEqual([0, wait]);
  });

  it('stops on a failure that is not retryable', async () => {
    const session = new FakeSession(() => toolError('VALIDATION', 'VALIDATION.INVALID_ARGUMENTS'));
    const { op, attempts, draws } = opRun(session);
    const done = callThrough(op, [classifiedRetry(op)]);
    await vi.runAllTimersAsync();
    const { fields } = await done;
    expect(session.calls).toHaveLength(1);
    expect(fields).toMatchObject({
      outcome: 'fail',
      attempts: 1,
      failedAttempts: 1,
      errorCode: 'VALIDATION.INVALID_ARGUMENTS',
    });
    expect(attempts.map((a) => a.next)).toEqual(['give-up']);
    expect(draws).toHaveLength(0);
  });

  it('gives up after maxAttempts tries of a retryable failure', async () => {
    const session = new FakeSession(() => rateLimited);
    const { op } = opRun(session, { client: { maxAttempts: 4 } });
    const done = callThrough(op, [classifiedRetry(op)]);
    await vi.runAllTimersAsync();
    const { fields } = await done;
    expect(session.calls).toHaveLength(4);
    expect(fields).toMatchObject({
      outcome: 'fail',
      attempts: 4,
      failedAttempts: 4,
      errorCode: 'DEPENDENCY.RATE_LIMITED',
    });
  });
});
