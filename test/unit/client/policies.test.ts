// The three policies are compositions of the units: what each does with the same failing call.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLICIES } from '../../../src/client/policies/index.ts';
import type { ClientSettings } from '../../../src/client/policy.ts';
import type { AttemptRecord, BreakerEvent } from '../../../src/core/history.ts';
import { POLICY_NAMES, type PolicyName } from '../../../src/core/policy-names.ts';
import { RandomStream } from '../../../src/core/random.ts';
import { type RunScope, traceKey } from '../../../src/run/trace-key.ts';
import { traitsOf } from '../../../src/server/tools/catalog.ts';
import { type Answer, FakeSession, ok, SETTINGS, toolError } from './fakes.ts';

vi.mock('../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const scope = (index: number): RunScope => ({ runId: 'ci-7', shard: { index, count: 2 }, profile: 'checkout' });

const payment = { index: 0, opId: 'op-00000', tool: 'create_payment', args: { amount_cents: 100 } };

async function run(
  name: PolicyName,
  answer: (i: number) => Answer,
  client: Partial<ClientSettings> = {},
  ops = 1,
  target: 'reference' | 'url' = 'reference',
  traceIdOf?: (opId: string) => string,
) {
  const session = new FakeSession((_, i) => answer(i));
  const attempts: AttemptRecord[] = [];
  const events: BreakerEvent[] = [];
  const runOp = POLICIES[name].forRun({
    session,
    client: { ...SETTINGS, ...client },
    serverRefreshesCredentials: target === 'reference',
    traitsOf,
    recordAttempt: (a) => attempts.push(a),
    recordBreakerEvent: (e) => events.push(e),
    ...(traceIdOf && { traceIdOf }),
  });
  const results = [];
  for (let i = 0; i < ops; i++) {
    const op = { ...payment, index: i, opId: `op-0000${i}` };
    const done = runOp(op, new RandomStream(1, `client/${op.opId}`));
    await vi.runAllTimersAsync();
    results.push(await done);
  }
  return { session, attempts, events, results };
}

const unavailable = toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE', {
  retryable: true,
  details: { uncertain: true },
});

describe('policies', () => {
  it('has one table entry per policy name, under its own name', () => {
    expect(Object.keys(POLICIES)).toEqual([...POLICY_NAMES]);
    for (const name of POLICY_NAMES) expect(POLICIES[name].name).toBe(name);
  });

  it('none: one attempt with the stable key, whatever the failure', async () => {
    const { session, results, attempts } = await run('none', () => unavailable);
    expect(session.calls.map((c) => c.args.idempotency_key)).toEqual(['idem-op-00000']);
    expect(results[0]).toMatchObject({ outcome: 'info', attempts: 1 });
    expect(attempts.map((a) => a.next)).toEqual(['give-up']);
  });

  it('naive: retries blindly with a fresh key each time and never looks the status up', async () => {
    const { session, results } = await run('naive', (i) => (i < 2 ? unavailable : ok()));
    expect(session.calls.map((c) => [c.name, c.args.idempotency_key])).toEqual([
      ['create_payment', 'naive-op-00000-1'],
      ['create_payment', 'naive-op-00000-2'],
      ['create_payment', 'naive-op-00000-3'],
    ]);
    expect(results[0]).toMatchObject({ outcome: 'ok', attempts: 3, lookups: 0 });
  });

  it('resilient: looks the uncertain charge up before re-executing it with the same key', async () => {
    const { session, results } = await run('resilient', (i) =>
      i === 0 ? unavailable : i === 1 ? ok({ status: 'pending' }) : ok(),
    );
    expect(session.calls.map((c) => [c.name, c.args.idempotency_key])).toEqual([
      ['create_payment', 'idem-op-00000'],
      ['get_payment_status', 'idem-op-00000'],
      ['create_payment', 'idem-op-00000'],
    ]);
    expect(results[0]).toMatchObject({ outcome: 'ok', attempts: 2, lookups: 1 });
  });

  it('scoped by run and shard, two shards on one server never share a trace id or key; unscoped they do', async () => {
    const uncertainThenOk = (i: number) => (i === 0 ? unavailable : i === 1 ? ok({ status: 'pending' }) : ok());
    const shard = (index: number, scoped: boolean) =>
      run('resilient', uncertainThenOk, {}, 1, 'url', scoped ? (id) => traceKey(scope(index), id) : undefined);
    const wire = async (index: number, scoped: boolean) =>
      (await shard(index, scoped)).session.calls.map((c) => [c.name, c.traceId, c.args.idempotency_key]);
    // Negative control: without the scope, op-00000 of shard 1 and op-00000 of another run's shard 1 (or of
    // another profile) send the same key: on one server the second is answered from the first's effect.
    expect(await wire(1, false)).toEqual(await wire(2, false));
    expect(await wire(1, true)).toEqual([
      ['create_payment', 'ci-7:1-of-2:checkout:op-00000', 'idem-ci-7:1-of-2:checkout:op-00000'],
      ['get_payment_status', 'ci-7:1-of-2:checkout:op-00000/lookup', 'idem-ci-7:1-of-2:checkout:op-00000'],
      ['create_payment', 'ci-7:1-of-2:checkout:op-00000', 'idem-ci-7:1-of-2:checkout:op-00000'],
    ]);
    const keys = new Set([...(await wire(1, true)), ...(await wire(2, true))].map(([, , key]) => key));
    expect(keys.size).toBe(2);
    // The naive control's per-attempt keys carry the scope too.
    const naive = await run(
      'naive',
      (i) => (i < 1 ? unavailable : ok()),
      {},
      1,
      'url',
      (id) => traceKey(scope(2), id),
    );
    expect(naive.session.calls.map((c) => c.args.idempotency_key)).toEqual([
      'naive-ci-7:2-of-2:checkout:op-00000-1',
      'naive-ci-7:2-of-2:checkout:op-00000-2',
    ]);
  });

  it('resilient: a breaker per tool when the profile asks for one, none otherwise', async () => {
    const down = toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE');
    const breaker = { consecutiveFailures: 2, halfOpenAfterMs: 10_000 };
    const withBreaker = await run('resilient', () => down, { breaker }, 4);
    expect(withBreaker.session.calls).toHaveLength(2);
    expect(withBreaker.results.map((r) => r.circuitOpen ?? false)).toEqual([false, false, true, true]);
    expect(withBreaker.events.map((e) => `${e.key}:${e.state}`)).toEqual(['create_payment:open']);
    const without = await run('resilient', () => down, {}, 4);
    expect(without.session.calls).toHaveLength(4);
    expect(without.events).toEqual([]);
  });

  it('resilient: refreshes credentials through the reference server only, and only when the profile allows it', async () => {
    const expired = toolError('AUTH', 'AUTH.TOKEN_EXPIRED');
    const script = (i: number) => (i === 0 ? expired : ok());
    const names = async (client: Partial<ClientSettings>, target: 'reference' | 'url') =>
      (await run('resilient', script, client, 1, target)).session.calls.map((c) => c.name);
    expect(await names({}, 'reference')).toEqual(['create_payment', 'refresh_credentials', 'create_payment']);
    expect(await names({}, 'url')).toEqual(['create_payment']);
    expect(await names({ credentialRefresh: false }, 'reference')).toEqual(['create_payment']);
  });
});
