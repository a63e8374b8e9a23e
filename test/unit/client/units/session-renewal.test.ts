// The session renewal unit: after an attempt lost its session (404) or transport, the next try first renews
// the session that attempt used.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callThrough } from '../../../../src/client/policies/compose.ts';
import { classifiedRetry } from '../../../../src/client/units/classified-retry.ts';
import { sessionRenewal } from '../../../../src/client/units/session-renewal.ts';
import { FakeSession, ok, opRun, SEARCH, toolError } from '../fakes.ts';

vi.mock('../../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

async function run(session: FakeSession) {
  const { op, attempts } = opRun(session, { call: SEARCH });
  const done = callThrough(op, [classifiedRetry(op), sessionRenewal(op)]);
  await vi.runAllTimersAsync();
  return { ...(await done), attempts };
}

describe('session renewal', () => {
  it('re-initializes after a 404 and retries on the new session', async () => {
    const session = new FakeSession((_, i) => (i === 0 ? new StreamableHTTPError(404, 'Session not found') : ok()));
    const { fields, attempts } = await run(session);
    expect(session.renewed).toEqual([0]);
    expect(session.calls.map((c) => c.generation)).toEqual([0, 1]);
    expect(fields).toMatchObject({ outcome: 'ok', attempts: 2 });
    expect(attempts.map((a) => a.next)).toEqual(['reinit', 'done']);
  });

  it('reconnects after a lost transport', async () => {
    const dropped = new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    const session = new FakeSession((_, i) => (i === 0 ? dropped : ok()));
    const { fields } = await run(session);
    expect(session.renewed).toEqual([0]);
    expect(fields).toMatchObject({ outcome: 'ok', attempts: 2 });
  });

  it('keeps the session after a failure that did not lose it', async () => {
    const unavailable = toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE', { retryable: true });
    const session = new FakeSession((_, i) => (i === 0 ? unavailable : ok()));
    await run(session);
    expect(session.renewed).toEqual([]);
    expect(session.calls).toHaveLength(2);
  });
});
