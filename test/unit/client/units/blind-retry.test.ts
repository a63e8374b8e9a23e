// The blind retry unit (the naive control): every failure is retried after a fixed pause, retryable or not,
// until maxAttempts, and (with fresh keys) each attempt carries a new idempotency key.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callThrough } from '../../../../src/client/policies/compose.ts';
import { blindRetry } from '../../../../src/client/units/blind-retry.ts';
import { FakeSession, ok, opRun, toolError } from '../fakes.ts';

vi.mock('../../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('blind retry', () => {
  it('retries a failure that is not retryable, 20 ms apart, with a fresh key each time, until maxAttempts', async () => {
    const session = new FakeSession(() => toolError('VALIDATION', 'VALIDATION.INVALID_ARGUMENTS'));
    const { op, attempts, draws } = opRun(session, { client: { maxAttempts: 3 } });
    const done = callThrough(op, [blindRetry(op)], { keyFor: (n) => `naive-${op.call.opId}-${n}` });
    await vi.runAllTimersAsync();
    const { fields } = await done;
    expect(session.calls.map((c) => [c.atMs, c.args.idempotency_key])).toEqual([
      [0, 'naive-op-00000-1'],
      [20, 'naive-op-00000-2'],
      [40, 'naive-op-00000-3'],
    ]);
    expect(fields).toMatchObject({ outcome: 'fail', attempts: 3, failedAttempts: 3 });
    expect(attempts.map((a) => a.next)).toEqual(['retry', 'retry', 'retry']);
    expect(draws).toEqual([]);
  });

  it('ignores Retry-After', async () => {
    const limited = toolError('DEPENDENCY', 'DEPENDENCY.RATE_LIMITED', { retryable: true, retryAfterMs: 5000 });
    const session = new FakeSession((_, i) => (i === 0 ? limited : ok()));
    const { op } = opRun(session);
    const done = callThrough(op, [blindRetry(op)]);
    await vi.runAllTimersAsync();
    expect((await done).fields.outcome).toBe('ok');
    expect(session.calls.map((c) => c.atMs)).toEqual([0, 20]);
  });
});
