// The report a run writes (report.json and everything derived from it). DESIGN.md fixes the documented keys:
// extend freely, never rename.
import type { ThresholdResult } from './thresholds.ts';
import type { Metrics } from './types.ts';

export type Verdict = 'pass' | 'fail';

export interface ProfileReport {
  name: string;
  description?: string;
  /** The profile file the run loaded, so `faultline replay` can run it again. */
  file?: string;
  seed: number;
  /** Client policy: resilient | naive | none (string so new policies need no schema change). */
  policy: string;
  verdict: Verdict;
  metrics: Metrics;
  thresholds: ThresholdResult[];
  decisionLogSha256: string;
  /** Decisions in the log, so two runs can be compared before diffing hashes. */
  decisions?: number;
  startedAt?: string;
  durationMs?: number;
  /** Things a reader should know to trust the numbers (1-of-0 rates, unattributed effects, defaults used). */
  notes: string[];
  /** The profile could not run to completion; its verdict is fail. */
  error?: string;
}

export interface RunReport {
  schemaVersion: 1;
  faultline: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  /** fail when any profile fails. */
  verdict: Verdict;
  profiles: ProfileReport[];
}
