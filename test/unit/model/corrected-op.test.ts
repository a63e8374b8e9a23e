// A corrected op is one op over several calls: the model re-issues a rejected call repaired from fieldErrors (or
// under the listed tool name), its attempts are numbered on across the calls, and the loop guard stops a
// correction that would only repeat a failed call.
import { describe, expect, it } from 'vitest';
import { resilientPolicy } from '../../../src/client/policies/resilient.ts';
import type { AttemptRecord } from '../../../src/core/history.ts';
import { RandomStream } from '../../../src/core/random.ts';
import { traitsOf } from '../../../src/server/tools/catalog.ts';
import { FakeSession, ok, SETTINGS, toolError } from '../client/fakes.ts';

const wrongType = toolError('VALIDATION', 'VALIDATION.INVALID_ARGUMENTS', {
  fieldErrors: [{ path: 'amount_cents', message: 'expected a number', expected: 'number' }],
});
const TOOLS = ['create_payment', 'search_documents'];

function run(session: FakeSession, maxCorrections = 2) {
  const attempts: AttemptRecord[] = [];
  const runOp = resilientPolicy.forRun({
    session,
    client: SETTINGS,
    serverRefreshesCredentials: true,
    mistakes: { maxCorrections },
    traitsOf,
    recordAttempt: (a) => attempts.push(a),
    recordBreakerEvent: () => {},
  });
  return { attempts, runOp: (op: Parameters<typeof runOp>[0]) => runOp(op, new RandomStream(1, `client/${op.opId}`)) };
}

const payment = { index: 0, opId: 'op-00000', tool: 'create_payment', args: { amount_cents: 100, currency: 'USD' } };

describe('a corrected op', () => {
  it('re-issues a call repaired from fieldErrors, numbering attempts on', async () => {
    const session = new FakeSession((call) => (typeof call.args.amount_cents === 'string' ? wrongType : ok()), TOOLS);
    const { attempts, runOp } = run(session);
    const mistake = {
      kind: 'wrong-type' as const,
      tool: 'create_payment',
      args: { amount_cents: '100', currency: 'USD' },
    };
    const fields = await runOp({ ...payment, mistake });
    expect(session.calls.map((c) => c.args.amount_cents)).toEqual(['100', 100]);
    expect(fields).toMatchObject({
      outcome: 'ok',
      tool: 'create_payment',
      attempts: 2,
      failedAttempts: 1,
      corrections: 1,
    });
    expect(attempts.map((a) => [a.attempt, a.next])).toEqual([
      [1, 'give-up'],
      [2, 'done'],
    ]);
  });

  it('switches an unknown tool name to the listed one, with that tool’s idempotency key', async () => {
    const session = new FakeSession(
      (call) => (call.name === 'createPayment' ? toolError('VALIDATION', 'VALIDATION.UNKNOWN_TOOL') : ok()),
      TOOLS,
    );
    const { runOp } = run(session);
    const fields = await runOp({
      ...payment,
      mistake: { kind: 'unknown-tool', tool: 'createPayment', args: payment.args },
    });
    expect(session.calls.map((c) => [c.name, c.args.idempotency_key])).toEqual([
      ['createPayment', undefined],
      ['create_payment', 'idem-op-00000'],
    ]);
    expect(fields).toMatchObject({ outcome: 'ok', tool: 'create_payment', sideEffecting: true, corrections: 1 });
  });

  it('stops with the loop guard when the repair changes nothing', async () => {
    const session = new FakeSession(() => wrongType, TOOLS);
    const { runOp } = run(session);
    const garbled = { ...payment.args, amount_cents: 'a lot' };
    const fields = await runOp({ ...payment, mistake: { kind: 'garbled', tool: 'create_payment', args: garbled } });
    expect(session.calls).toHaveLength(1);
    expect(fields).toMatchObject({ outcome: 'fail', attempts: 1, loopGuardStop: true });
    expect(fields.corrections).toBeUndefined();
  });

  it('gives up after maxCorrections', async () => {
    let n = 0;
    const session = new FakeSession(
      () =>
        toolError('VALIDATION', 'VALIDATION.INVALID_ARGUMENTS', {
          fieldErrors: [{ path: 'n', message: 'bad', expected: `>= ${++n}` }],
        }),
      TOOLS,
    );
    const { runOp } = run(session, 1);
    const fields = await runOp({
      ...payment,
      args: { n: 0 },
      mistake: { kind: 'out-of-range', tool: 'create_payment', args: { n: 0 } },
    });
    expect(session.calls.map((c) => c.args.n)).toEqual([0, 1]);
    expect(fields).toMatchObject({ outcome: 'fail', attempts: 2, corrections: 1 });
  });
});
