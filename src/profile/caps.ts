// The size caps a run honours unless --allow-large. A run's records go to disk as ops end (core/record-log.ts) and
// every reader reads them back in passes, so none is in memory whole; what still grows with the run is a few tens of
// bytes per op in typed columns (where each record lies and when it started, the spans retry and recovery judge by)
// and, in the child, the reference server's idempotency keys. The ops cap sits at the largest run measured end to end
// (docs/scale.md: 1,000,000 ops at the same ops/s as 100,000, harness peak 699 MB and server child 675 MB on a 2-core
// machine); beyond it nothing was measured. A run's duration keeps no memory of its own (only its ops do), so its cap
// is a guard against a slipped unit, not a memory bound. A module of its own so the CLI's help can name them without
// loading the profile schema.
export const LARGE_CAPS = { ops: 1_000_000, durationMs: 60 * 60_000 } as const;

/** The most a profile's workload may ask for (the schema's bounds; `faultline capacity` checks its levels by them). */
export const WORKLOAD_LIMITS = { rate: 10_000, concurrency: 1000 } as const;
