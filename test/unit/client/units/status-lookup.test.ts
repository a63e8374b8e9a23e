// The status lookup unit: before re-executing a side effect that may have happened, ask whether its key took
// effect. Found: done, no re-execution. Absent: re-execute, and the op is no longer uncertain.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callThrough } from '../../../../src/client/policies/compose.ts';
import { attemptTimeout } from '../../../../src/client/units/attempt-timeout.ts';
import { classifiedRetry } from '../../../../src/client/units/classified-retry.ts';
import { statusLookup } from '../../../../src/client/units/status-lookup.ts';
import { type Answer, FakeSession, ok, opRun, SEARCH, type ToolCall, toolError } from '../fakes.ts';

vi.mock('../../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** create_payment times out first (uncertain); the lookup answers `status`; later executions get `then`. */
function payments(status: string, then: Answer = ok()) {
  let executions = 0;
  return new FakeSession((call: ToolCall) => {
    if (call.name === 'get_payment_status') return ok({ status });
    return executions++ === 0 ? 'hang' : then;
  });
}

async function run(session: FakeSession, call = undefined as typeof SEARCH | undefined) {
  const { op, attempts } = opRun(session, { call, client: { attemptTimeoutMs: 50 } });
  const done = callThrough(op, [classifiedRetry(op), attemptTimeout(op), statusLookup(op)]);
  await vi.runAllTimersAsync();
  return { ...(await done), attempts };
}

describe('status lookup before re-executing', () => {
  it('does not re-execute when the lookup finds the effect', async () => {
    const session = payments('succeeded');
    const { fields, attempts } = await run(session);
    expect(session.callsOf('create_payment')).toHaveLength(1);
    expect(session.callsOf('get_payment_status').map((c) => c.args)).toEqual([{ idempotency_key: 'idem-op-00000' }]);
    expect(fields).toMatchObject({ outcome: 'ok', attempts: 1, lookups: 1, lookupsFound: 1 });
    expect(attempts.map((a) => a.next)).toEqual(['lookup']);
  });

  it('re-executes when the key is absent, and the op is then known not to have taken effect', async () => {
    const session = payments('not_found', toolError('DEPENDENCY', 'DEPENDENCY.DECLINED'));
    const { fields } = await run(session);
    expect(session.callsOf('create_payment')).toHaveLength(2);
    expect(session.callsOf('get_payment_status')).toHaveLength(1);
    // Without the lookup the first timeout would leave the op indeterminate (info).
    expect(fields).toMatchObject({ outcome: 'fail', attempts: 2, lookups: 1 });
    expect(fields.lookupsFound).toBeUndefined();
  });

  it('re-executes with the same key when the lookup cannot tell', async () => {
    const session = payments('pending');
    const { fields } = await run(session);
    expect(session.callsOf('create_payment').map((c) => c.args.idempotency_key)).toEqual([
      'idem-op-00000',
      'idem-op-00000',
    ]);
    expect(fields).toMatchObject({ outcome: 'ok', attempts: 2, lookups: 1 });
  });

  it('asks nothing for a tool without a status lookup', async () => {
    let n = 0;
    const session = new FakeSession(() => (n++ === 0 ? 'hang' : ok()));
    const { fields } = await run(session, SEARCH);
    expect(session.calls.map((c) => c.name)).toEqual(['search_documents', 'search_documents']);
    expect(fields).toMatchObject({ outcome: 'ok', lookups: 0 });
  });
});
