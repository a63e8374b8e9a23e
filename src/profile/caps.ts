// The size caps a run honours unless --allow-large: the records go to disk as ops end (core/record-log.ts), but the
// metric families and report views not yet fed by accumulators still get every op's slim record in memory once the
// workload is done (materializeRecords; docs/scale.md). A module of its own so the CLI's help can name them without loading the profile schema.
export const LARGE_CAPS = { ops: 10_000, durationMs: 10 * 60_000 } as const;

/** The most a profile's workload may ask for (the schema's bounds; `faultline capacity` checks its levels by them). */
export const WORKLOAD_LIMITS = { rate: 10_000, concurrency: 1000 } as const;
