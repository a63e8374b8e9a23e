// The reference server over stdio, spawned by the client, is killed two seconds in (SIGKILL: no goodbye on
// stdout). The resilient client spawns a new one, looks up the payments it was unsure of, and carries on; the
// ledger outlives the crash, so nothing is charged twice.
import { defineProfile } from 'faultline';
import { chaosTest, expect } from 'faultline/vitest';

const stdioCrash = defineProfile({
  name: 'stdio-crash-example',
  description: 'The stdio server is killed mid-run; the client respawns it.',
  seed: 11,
  duration: '5s',
  target: { kind: 'reference-stdio', dependencyTimeoutMs: 1000 },
  client: { attemptTimeoutMs: 2000, deadlineMs: 20000, maxAttempts: 6, backoff: { initialMs: 100, maxMs: 600 } },
  workload: {
    rate: 15,
    mix: [
      {
        tool: 'create_payment',
        weight: 3,
        args: { customer_id: 'cus_{op}', amount_cents: { int: [100, 50000] }, currency: { pick: ['USD', 'EUR'] } },
      },
      { tool: 'search_documents', args: { query: { pick: ['invoice', 'refund'] } } },
    ],
  },
  faults: [{ seam: 'server', kind: 'crash', start: '2s', stop: '2100ms' }],
  expect: ['ops_fail == 0', 'duplicate_effects == 0', 'ghost_effects == 0', 'lost_effects == 0'],
});

chaosTest(
  'a killed stdio server is respawned and nothing is charged twice',
  { timeout: 90_000 },
  async ({ faultline }) => {
    const run = await faultline.run(stdioCrash);
    // The crash window killed a live process (the seam counts each kill).
    expect(run).toHaveHit('server/crash');
    expect(run).toHaveExactlyOnceEffects();
    // Measured from when the new process was ready; a generous bound, the point is the effects.
    expect(run).toRecoverWithin(5000);
    expect(run).toMeetThresholds();
  },
);
