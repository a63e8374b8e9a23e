// How computeMetrics and the accumulators measure: recovery windows, canaries, Retry-After slack.

export interface RecoveryOptions {
  /** Sliding window width in ms (default 1000). */
  windowMs?: number;
  /** A window needs at least this many ops; it stretches past windowMs to reach them (default 5). */
  minOps?: number;
  /** Target success rate, capped at the measured steady state (default 0.99). */
  targetSuccessRate?: number;
  /** A pre-fault success rate below this makes recovery n/a instead of lowering the target (default 0.8). */
  steadyStateFloor?: number;
}

export interface MetricsOptions {
  recovery?: RecoveryOptions;
  /** Planted secret canaries to look for in model-visible content: kind -> marker (mocks/canaries.ts). */
  canaries?: Readonly<Record<string, string>>;
  /** Clock slack allowed before a retry counts as ignoring Retry-After, in ms (default 1). */
  retryAfterToleranceMs?: number;
}
