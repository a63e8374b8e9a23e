// The report a run writes (report.json and everything derived from it). DESIGN.md fixes the documented keys:
// extend freely, never rename.
import type { ThresholdResult } from './thresholds.ts';
import type { Metrics } from './types.ts';

/**
 * pass: every threshold held and every fault window hit. fail: a threshold failed or the run errored. inert: a
 * fault window hit nothing, so the thresholds prove nothing. inconclusive: the start-up calibration found the
 * machine too loaded for the profile's timing. interrupted: the run was stopped (Ctrl-C, SIGTERM) before the end.
 */
export const VERDICTS = ['pass', 'fail', 'inert', 'inconclusive', 'interrupted'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Exit codes by verdict (README "Exit codes"); bad input is 2. */
export const EXIT_CODE_OF: Record<Verdict, number> = { pass: 0, fail: 1, inert: 1, inconclusive: 3, interrupted: 130 };

export interface ProfileReport {
  name: string;
  description?: string;
  /** The profile file the run loaded (absolute), so `faultline replay` can run it again from any directory. */
  file?: string;
  /** SHA-256 of the profile file's text when it ran: a replay warns when the file has changed since. */
  profileSha256?: string;
  /** The exact command that runs this profile again with the same seed and policy. */
  replayCommand?: string;
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
  /** How long the run waited for the server to be quiet before it read the ledger (the drain), ms. */
  drainMs?: number;
  /** Things a reader should know to trust the numbers (1-of-0 rates, unattributed effects, defaults used). */
  notes: string[];
  /** The profile could not run to completion; its verdict is fail. */
  error?: string;
  /** Why the verdict is inert, inconclusive or interrupted, or why a run that did not settle failed, in one line. */
  verdictReason?: string;
}

export interface RunReport {
  schemaVersion: 1;
  faultline: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  /** The most serious profile verdict: interrupted, then fail, inert, inconclusive; pass when all pass. */
  verdict: Verdict;
  profiles: ProfileReport[];
}
