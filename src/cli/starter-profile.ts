// The profile `faultline init` writes: the reference server, payments retried through a short dependency outage,
// and the thresholds that say no payment was lost or charged twice. Short, so the first run takes seconds.

/** The starter profile's text, its first line pointing editors at `schemaPath`. */
export function starterProfile(schemaPath: string): string {
  return `# yaml-language-server: $schema=${schemaPath}
# Keep the line above: editors with the YAML language server complete and check this file against it.
# Reference: faultline kinds (fault kinds and their parameters), faultline validate (check without running).
name: starter
description: >
  The payments API answers 503 for one second while the workload creates payments. A client that retries with
  the same idempotency key charges nobody twice and loses nothing.
seed: 1
duration: 3.5s
client:
  policy: resilient
  attemptTimeoutMs: 2s
  deadlineMs: 6s
  maxAttempts: 10
  backoff: { initialMs: 100ms, maxMs: 800ms }
workload:
  rate: 10
  mix:
    - tool: create_payment
      args:
        customer_id: cus_{op}
        amount_cents: { int: [100, 5000] }
        currency: { pick: [USD, EUR] }
faults:
  - seam: dependency
    kind: status
    dependency: payments
    status: 503
    probability: 0.5
    start: 1s
    stop: 2s
expect:
  - duplicate_effects == 0
  - ghost_effects == 0
  - lost_effects == 0
`;
}
