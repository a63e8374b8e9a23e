// The deadline unit: an op's tries end by deadlineMs; the last try gets only what is left, and no try starts
// after the deadline or after a retry wait that would end past it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callThrough } from '../../../../src/client/policies/compose.ts';
import { attemptTimeout } from '../../../../src/client/units/attempt-timeout.ts';
import { classifiedRetry } from '../../../../src/client/units/classified-retry.ts';
import { deadline } from '../../../../src/client/units/deadline.ts';
import { FakeSession, ok, opRun, toolError } from '../fakes.ts';

vi.mock('../../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('deadline', () => {
  it('caps the total: the third try gets the 50 ms left, and no fourth starts', async () => {
    const session = new FakeSession(() => 'hang');
    const { op } = opRun(session, { client: { attemptTimeoutMs: 100, deadlineMs: 250, maxAttempts: 10 } });
    const done = callThrough(op, [classifiedRetry(op), deadline(op), attemptTimeout(op)]);
    await vi.runAllTimersAsync();
    const { fields } = await done;
    expect(session.calls.map((c) => [c.atMs, c.timeoutMs])).toEqual([
      [0, 100],
      [100, 100],
      [200, 50],
    ]);
    expect(fields).toMatchObject({ outcome: 'info', attempts: 3, errorCode: 'LINK.TIMEOUT' });
    expect(Date.now()).toBe(250);
  });

  it('starts no try after the deadline, not even one a Retry-After asked for', async () => {
    const later = toolError('DEPENDENCY', 'DEPENDENCY.RATE_LIMITED', { retryable: true, retryAfterMs: 500 });
    const session = new FakeSession((_, i) => (i === 0 ? later : ok()));
    const { op } = opRun(session, { client: { deadlineMs: 300 } });
    const done = callThrough(op, [classifiedRetry(op), deadline(op)]);
    await vi.runAllTimersAsync();
    const { fields } = await done;
    expect(session.calls).toHaveLength(1);
    expect(fields).toMatchObject({ outcome: 'fail', attempts: 1, errorCode: 'DEPENDENCY.RATE_LIMITED' });
  });

  it('lets a retry in when its wait ends before the deadline', async () => {
    const soon = toolError('DEPENDENCY', 'DEPENDENCY.RATE_LIMITED', { retryable: true, retryAfterMs: 200 });
    const session = new FakeSession((_, i) => (i === 0 ? soon : ok()));
    const { op } = opRun(session, { client: { deadlineMs: 300 } });
    const done = callThrough(op, [classifiedRetry(op), deadline(op)]);
    await vi.runAllTimersAsync();
    expect((await done).fields.outcome).toBe('ok');
    expect(session.calls.map((c) => [c.atMs, c.timeoutMs])).toEqual([
      [0, 300],
      [200, 100],
    ]);
  });
});
