// The size caps a run honours unless --allow-large: every op keeps a slim record in memory until the reports are
// written (its text spilled to disk, core/record-spill.ts; docs/scale.md has the measured cost per op). A module of its own so the CLI's help can name them without loading the profile schema.
export const LARGE_CAPS = { ops: 10_000, durationMs: 10 * 60_000 } as const;

/** The most a profile's workload may ask for (the schema's bounds; `faultline capacity` checks its levels by them). */
export const WORKLOAD_LIMITS = { rate: 10_000, concurrency: 1000 } as const;
