// The report a run writes (report.json and everything derived from it). DESIGN.md fixes the documented keys:
// extend freely, never rename.
import type { CapacityReview } from './capacity.ts';
import type { ProfileReport, Verdict } from './profile-report.ts';
import type { NotApplicable, ProtocolMatrix } from './protocol-matrix.ts';

export type { DuringKey, ProfileReport, ReadBackDuring, Verdict } from './profile-report.ts';
export { EXIT_CODE_OF, VERDICTS } from './profile-report.ts';

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
