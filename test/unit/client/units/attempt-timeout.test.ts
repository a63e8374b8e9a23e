// The attempt timeout unit: an attempt that gets no answer is cut at attemptTimeoutMs (the SDK's request
// timeout, which also cancels it) and fails as an uncertain LINK.TIMEOUT.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callThrough } from '../../../../src/client/policies/compose.ts';
import { attemptTimeout } from '../../../../src/client/units/attempt-timeout.ts';
import { FakeSession, opRun } from '../fakes.ts';

vi.mock('../../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('attempt timeout', () => {
  it('cuts an attempt that gets no answer at attemptTimeoutMs', async () => {
    const session = new FakeSession(() => 'hang');
    const { op, attempts } = opRun(session, { client: { attemptTimeoutMs: 50 } });
    const done = callThrough(op, [attemptTimeout(op)]);
    await vi.runAllTimersAsync();
    const { fields } = await done;
    expect(session.calls.map((c) => c.timeoutMs)).toEqual([50]);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ startMs: 0, endMs: 50, errorCode: 'LINK.TIMEOUT', uncertain: true });
    // A side effect that may have happened: indeterminate, not failed.
    expect(fields).toMatchObject({ outcome: 'info', attempts: 1, errorCode: 'LINK.TIMEOUT' });
  });

  it('leaves the SDK default when no unit bounds the attempt', async () => {
    const session = new FakeSession(() => 'hang');
    const { op } = opRun(session);
    void callThrough(op, []);
    await vi.advanceTimersByTimeAsync(10);
    expect(session.calls.map((c) => c.timeoutMs)).toEqual([undefined]);
  });

  it('trusts a cancel only when told to: a timed-out attempt of a tool that honours it took no effect', async () => {
    const report = { opId: 'op-00002', tool: 'generate_report', args: {}, sideEffecting: true, honoursCancel: true };
    const outcomes: string[] = [];
    for (const trustsCancel of [true, false]) {
      const { op } = opRun(new FakeSession(() => 'hang'), { call: report, client: { attemptTimeoutMs: 50 } });
      const done = callThrough(op, [attemptTimeout(op)], { trustsCancel });
      await vi.runAllTimersAsync();
      outcomes.push((await done).fields.outcome);
    }
    expect(outcomes).toEqual(['fail', 'info']);
  });
});
