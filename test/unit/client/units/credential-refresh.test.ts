// The credential refresh unit: an AUTH failure is retried once, after a refresh; a second AUTH failure (or a
// refresh that fails) ends the op.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callThrough } from '../../../../src/client/policies/compose.ts';
import type { CredentialHook } from '../../../../src/client/policy.ts';
import { classifiedRetry } from '../../../../src/client/units/classified-retry.ts';
import { credentialRefresh } from '../../../../src/client/units/credential-refresh.ts';
import { FakeSession, ok, opRun, SEARCH, toolError } from '../fakes.ts';

vi.mock('../../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const expired = toolError('AUTH', 'AUTH.TOKEN_EXPIRED');

/** A hook that records the `sinceMs` of each refresh and answers `works`. */
function hook(works = true): CredentialHook & { since: number[] } {
  const since: number[] = [];
  return {
    since,
    refresh: async (sinceMs) => {
      since.push(sinceMs);
      return works;
    },
  };
}

async function run(session: FakeSession, credentials: CredentialHook) {
  const { op, attempts } = opRun(session, { call: SEARCH });
  const done = callThrough(op, [classifiedRetry(op), credentialRefresh(op, credentials)]);
  await vi.advanceTimersByTimeAsync(5);
  const { fields } = await done;
  return { fields, attempts };
}

describe('credential refresh', () => {
  it('refreshes once after an AUTH failure, then retries once', async () => {
    const credentials = hook();
    const session = new FakeSession((_, i) => (i === 0 ? expired : ok()));
    const { fields, attempts } = await run(session, credentials);
    expect(credentials.since).toEqual([attempts[0].startMs]);
    expect(session.calls).toHaveLength(2);
    expect(fields).toMatchObject({ outcome: 'ok', attempts: 2, authRefreshes: 1 });
    expect(attempts.map((a) => a.next)).toEqual(['retry', 'done']);
  });

  it('escalates a second AUTH failure instead of refreshing again', async () => {
    const credentials = hook();
    const session = new FakeSession(() => expired);
    const { fields, attempts } = await run(session, credentials);
    expect(credentials.since).toHaveLength(1);
    expect(session.calls).toHaveLength(2);
    expect(fields).toMatchObject({ outcome: 'fail', attempts: 2, authRefreshes: 1, errorCode: 'AUTH.TOKEN_EXPIRED' });
    expect(attempts.map((a) => a.next)).toEqual(['retry', 'give-up']);
  });

  it('does not retry when the refresh fails', async () => {
    const credentials = hook(false);
    const session = new FakeSession((_, i) => (i === 0 ? expired : ok()));
    const { fields } = await run(session, credentials);
    expect(credentials.since).toHaveLength(1);
    expect(session.calls).toHaveLength(1);
    expect(fields).toMatchObject({ outcome: 'fail', attempts: 1, authRefreshes: 1, errorCode: 'AUTH.TOKEN_EXPIRED' });
  });
});
