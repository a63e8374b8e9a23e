// What computeMetrics and the metric accumulators take besides the run: its own file, so an accumulator can name it
// without importing the metrics' shape (types.ts imports the families' result types).
import type { LeakFinding } from './leak-finding.ts';

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
  /**
   * The leak scan's findings, made before (a merge of shards, whose histories keep no model-visible text): taken as
   * the scan's result instead of scanning the history.
   */
  leakFindings?: readonly LeakFinding[];
  /** Clock slack allowed before a retry counts as ignoring Retry-After, in ms (default 1). */
  retryAfterToleranceMs?: number;
}
