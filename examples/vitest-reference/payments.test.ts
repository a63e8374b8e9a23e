// Payments answer 503 for 1.5 s, some of them after the charge was made. The resilient client retries with one
// idempotency key per call and charges nobody twice; the naive client, with a fresh key per retry, does.
import { defineProfile, withFault } from 'faultline';
import { chaosTest, expect } from 'faultline/vitest';

const payments503 = defineProfile({
  name: 'payments-503',
  description: 'The payments API answers 503 for 1.5 s, before or after the charge, after 2 s of steady state.',
  seed: 7,
  duration: '6s',
  target: { kind: 'reference', dependencyTimeoutMs: 1000 },
  client: { attemptTimeoutMs: 2000, deadlineMs: 6000, maxAttempts: 12, backoff: { initialMs: 100, maxMs: 800 } },
  workload: {
    rate: 20,
    mix: [
      {
        tool: 'create_payment',
        weight: 3,
        args: { customer_id: 'cus_{op}', amount_cents: { int: [100, 50000] }, currency: { pick: ['USD', 'EUR'] } },
      },
      { tool: 'search_documents', args: { query: { pick: ['invoice', 'refund'] } } },
    ],
  },
  faults: [
    {
      seam: 'dependency',
      kind: 'status',
      dependency: 'payments',
      status: 503,
      probability: 0.6,
      start: '2s',
      stop: '3.5s',
    },
    {
      seam: 'dependency',
      kind: 'commit-then-fail',
      dependency: 'payments',
      status: 503,
      probability: 0.5,
      start: '2s',
      stop: '3.5s',
    },
  ],
  expect: ['duplicate_effects == 0', 'ghost_effects == 0', 'lost_effects == 0'],
});

chaosTest('the resilient client charges once through payment 503s', { timeout: 60_000 }, async ({ faultline }) => {
  const run = await faultline.run(payments503);
  // First that the faults really happened: a green run with a window that touched nothing proves nothing.
  expect(run).toHaveHit('dependency/status');
  expect(run).toHaveHit('dependency/commit-then-fail');
  expect(run).toHaveNoDuplicateEffects();
  expect(run).toHaveExactlyOnceEffects();
  expect(run).toRecoverWithin(2500);
  expect(run).toMeetThresholds();
});

chaosTest('the naive client charges twice: the detector fires', { timeout: 60_000 }, async ({ faultline }) => {
  const run = await faultline.run(payments503, { policy: 'naive' });
  expect(run).toHaveHit('dependency/commit-then-fail');
  expect(run).not.toHaveNoDuplicateEffects();
});

chaosTest('one fault around one call, from the building blocks', { timeout: 60_000 }, async ({ faultline }) => {
  const env = await faultline.start(payments503);
  const client = faultline.client({ session: env.session }, { client: { maxAttempts: 12, deadlineMs: 6000 } });
  const args = { customer_id: 'cus_block', amount_cents: 1234, currency: 'EUR' };
  // Inside the block the payments API charges, then answers 503: the client sees a failure after the money moved.
  const fault = { seam: 'dependency', kind: 'commit-then-fail', dependency: 'payments', status: 503 } as const;
  const during = await withFault(env, fault, () => client.call('create_payment', args));
  expect(client.attempts.some((a) => !a.ok)).toBe(true);
  // However the call ended, the customer was charged exactly once for its idempotency key.
  const keys = new Set(client.attempts.filter((a) => a.opId === during.opId).map((a) => a.idempotencyKey));
  const charges = (await env.server.ledger()).filter((e) => e.kind === 'payment.charge' && keys.has(e.idempotencyKey));
  expect(charges).toHaveLength(1);
  // The fault is gone: the next call goes through on its first attempt.
  const after = await client.call('create_payment', args);
  expect(after).toMatchObject({ outcome: 'ok', attempts: 1 });
});
