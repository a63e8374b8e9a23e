// The size caps a run honours unless --allow-large. A run's records go to disk as ops end (core/record-log.ts) and
// every reader reads them back in passes, so none is in memory whole; what still grows with the run is the ledger's
// effects (read whole after the drain), a few bytes per op kept by reconciliation, attempt start times and failed
// attempts (measure/), and, while an output is written, the start-order index of the whole-record outputs
// (core/history-records.ts, tens of bytes per record). Where that ends at 100,000 ops and beyond has not been measured end to end since (docs/scale.md), so
// the caps stay where they were until it is. A module of its own so the CLI's help can name them without loading the
// profile schema.
export const LARGE_CAPS = { ops: 10_000, durationMs: 10 * 60_000 } as const;

/** The most a profile's workload may ask for (the schema's bounds; `faultline capacity` checks its levels by them). */
export const WORKLOAD_LIMITS = { rate: 10_000, concurrency: 1000 } as const;
