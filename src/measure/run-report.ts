// The report a run writes (report.json and everything derived from it). DESIGN.md fixes the documented keys:
// extend freely, never rename.
import type { Calibration } from './calibration.ts';
import type { CapacityReview } from './capacity.ts';
import type { NotApplicable, ProtocolMatrix } from './protocol-matrix.ts';
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

export interface RunReport {
  /** 2: n/a metrics are null (retrySuccessRate, recoveryMs, ...), which version 1 never had. */
  schemaVersion: 2;
  faultline: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  /** The most serious profile verdict: interrupted, then fail, inert, inconclusive; pass when all pass. */
  verdict: Verdict;
  profiles: ProfileReport[];
  /** The comparison with a stored baseline (`faultline run --baseline FILE`); it decides the exit code. */
  baseline?: BaselineComparison;
  /** `faultline capacity`: the levels side by side (control and faulted run of each) and the knee. */
  capacity?: CapacityReview;
  /** Profiles not run in a pairing because its era removed what they test (not failures). */
  notApplicable?: NotApplicable[];
  /** Several pairings (`--protocol auto|matrix`): one column per pairing, differences named. */
  matrix?: ProtocolMatrix;
  /** The command line's target and client, when given (`faultline replay` applies them again). */
  invocation?: RunInvocation;
  /**
   * `faultline run --faults off`: every profile ran as its faults-off control (ProfileReport.faultsOff). Its verdict
   * (measure/faults-off.ts) decides the exit code: pass when every profile failed a threshold without its faults.
   */
  faultsOff?: { verdict: Verdict };
}

/** The run's target flags and --client-module, with file paths absolute and the directory the run started in. */
export interface RunInvocation {
  targetCommand?: string;
  targetUrl?: string;
  mcpConfig?: string;
  server?: string;
  /** --target-env KEY=VALUE as given (a `${env:NAME}` in a value is kept as written, not its value). */
  targetEnv?: string[];
  clientModule?: string;
  /** --allow-non-loopback: the run was allowed a target or Toxiproxy API off this machine. */
  allowNonLoopback?: true;
  /** Where the run started: a --target-command or --mcp-config server is spawned here again on replay. */
  cwd: string;
}

/** What `--baseline` found: known failures excused, regressions and stale entries not. */
export interface BaselineComparison {
  /** The baseline file. */
  file: string;
  /** No finding fails the run. */
  ok: boolean;
  findings: BaselineFinding[];
}

export interface BaselineFinding {
  profile: string;
  policy: string;
  /**
   * known-failure: a listed failing threshold still fails (excused); new-failure: a threshold fails that the
   * baseline does not list; fixed: a listed failure passes now (update the baseline); stale: a listed threshold
   * the profile no longer has; regression: a metric worse than the baseline beyond its tolerance; verdict: the
   * profile did not pass for another reason than its thresholds (error, inert, ...).
   */
  kind: 'known-failure' | 'new-failure' | 'fixed' | 'stale' | 'regression' | 'verdict';
  /** The threshold expression, the metric name, or the verdict. */
  subject: string;
  /** False when this finding fails the run. */
  ok: boolean;
  message: string;
}
