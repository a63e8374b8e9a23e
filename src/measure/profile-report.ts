// The report of one profile's run (one entry of report.json's `profiles`) and its verdict. Apart from run-report.ts
// so the capacity review and the protocol matrix, which read these and are part of the run report, form no circle.
import type { Calibration } from './calibration.ts';
import type { ThresholdResult } from './thresholds.ts';
import type { Metrics } from './types.ts';

/**
 * pass: every threshold held and every fault window hit. fail: a threshold failed or the run errored. inert: a
 * fault window hit nothing, so the thresholds prove nothing. inconclusive: every threshold held but time upper
 * bounds missed by no more than the machine's measured delay (measure/thresholds.ts). interrupted: the run was
 * stopped (Ctrl-C, SIGTERM) before the end.
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
  seed: number;
  /** Client policy: resilient | naive | none (string so new policies need no schema change). */
  policy: string;
  verdict: Verdict;
  metrics: Metrics;
  thresholds: ThresholdResult[];
  /** The start-up calibration (no-fault pings before the workload) and what it meant for the profile's timing. */
  calibration?: Calibration;
  decisionLogSha256: string;
  /** Decisions in the log, so two runs can be compared before diffing hashes. */
  decisions?: number;
  startedAt?: string;
  durationMs?: number;
  /**
   * From the run's start (the origin of every *AtMs in metrics, set-up included) to the workload's start (what
   * a profile's fault `start:` counts from). Reports subtract it so times read as the profile wrote them.
   */
  workloadOffsetMs?: number;
  /** How long the run waited for the server to be quiet before it read the ledger (the drain), ms. */
  drainMs?: number;
  /** Things a reader should know to trust the numbers (1-of-0 rates, unattributed effects, defaults used). */
  notes: string[];
  /** The profile could not run to completion; its verdict is fail. */
  error?: string;
  /** Why the verdict is inert, inconclusive or interrupted, or why a run that did not settle failed, in one line. */
  verdictReason?: string;
  /**
   * A negative control: the run's policy is not the profile's own and its thresholds came from the profile's
   * `controls:` list, so a pass means the detectors fired (reports say "control fired", not PASS).
   */
  control?: boolean;
  /** The protocol pairing it ran in (core/pairing.ts), when the run chose one (`--protocol`, `protocol:`). */
  pairing?: string;
  /** Read-back probes called during the run (`effects.readBack[i].during`): when each effect first appeared. */
  readBackDuring?: ReadBackDuring;
  /**
   * A faults-off control (`faultline run --faults off`): the profile ran with its `faults:` removed, everything else
   * as written. A pass here means its thresholds do not need its faults.
   */
  faultsOff?: true;
}

/** One effect key seen during the run (times from the workload start). */
export interface DuringKey {
  key: string;
  /** The op whose unique argument value it is, and how that op ended; absent when no op had it. */
  opId?: string;
  outcome?: string;
  firstSeenMs: number;
  lastSeenMs: number;
  /** Whether the final read-back still had it. */
  atEnd: boolean;
}

/** report.json's `readBackDuring`. */
export interface ReadBackDuring {
  everyMs: number;
  samples: number;
  failedSamples: number;
  /** Keys seen during the run, in the order they first appeared. */
  keys: DuringKey[];
  /** Keys seen during the run and gone at the end. */
  vanished: number;
}
