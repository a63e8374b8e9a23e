// The shape of what `computeMetrics` returns. Field names are the camelCase keys of report.json's `metrics`
// (DESIGN.md): extend freely, never rename.

import type { WindowKind } from '../core/history.ts';
import type { ApplicationMetrics } from './client-guards.ts';
import type { DiscoveryMetrics } from './discovery-metrics.ts';
import type { EdgeMetrics } from './edge-metrics.ts';
import type { InputRoundMetrics } from './input-rounds.ts';
import type { LeakFinding } from './leak-finding.ts';
import type { NotificationMetrics } from './notifications.ts';
import type { Reconciliation } from './reconcile.ts';
import type { LyingHint } from './replays.ts';
import type { ServerSeamMetrics } from './server-seam.ts';
import type { TaskCancelMetrics } from './task-cancels.ts';
import type { TaskMetrics } from './tasks.ts';

/** n/a (null) without ops. */
interface AttemptsPerOp {
  mean: number | null;
  max: number | null;
}

export interface RetryRate {
  /** Ops with at least one failed attempt. */
  retriedOps: number;
  /** Of those, the ones that ended `ok`. */
  recoveredOps: number;
  /** recoveredOps / retriedOps; null (n/a) when no op was retried. */
  rate: number | null;
}

export interface WindowRetryRate extends RetryRate {
  fault: string;
  kind: string;
  /** Ops overlapping the window, retried or not. */
  ops: number;
}

export interface KindRetryRate extends RetryRate {
  kind: string;
  ops: number;
}

/**
 * What a window's recovery measurement found. `recovered` and `not-recovered` are measurements; the others say
 * why there is nothing to measure: no healthy steady state before the fault (`no-steady-state`), too few ops after
 * it (`not-measured`), or a fault that was never removed (`never-removed`).
 */
export type RecoveryStatus = 'recovered' | 'not-recovered' | 'not-measured' | 'no-steady-state' | 'never-removed';

export interface RecoveryWindow {
  fault: string;
  kind: string;
  seam: string;
  /** Relative to the run start (history.startMs). */
  onAtMs: number;
  /** Relative to the run start; null when the fault was never removed. */
  offAtMs: number | null;
  /**
   * When the outage this window belongs to ended, relative to the run start: overlapping windows are one outage,
   * measured from the last removal. Equals offAtMs for a window that overlaps no other.
   */
  outageOffAtMs: number | null;
  /** t_recovered - t_off (t_off = outageOffAtMs); null unless status is `recovered`. */
  recoveryMs: number | null;
  /** First op that ended ok at or after t_off, minus t_off; null when none. */
  firstSuccessMs: number | null;
  recovered: boolean;
  status: RecoveryStatus;
  /** Why a window has no recovery value, in words. */
  note?: string;
}

/** One fault window as the report shows it: when it was on and what its seam counted it doing. */
export interface FaultWindowReport {
  fault: string;
  seam: string;
  kind: string;
  /** Relative to the run start. */
  onAtMs: number;
  offAtMs: number | null;
  /** Requests, connections, rewrites, evictions or kills the seam counted; null when the seam cannot count. */
  hits: number | null;
  mayNotHit: boolean;
  /** Time window, or op window and how its seam carried it (absent in reports written before op windows). */
  window?: WindowKind;
}

export interface SteadyState {
  /** Ops that ran before any fault could touch them (ended before its onset, or ahead of a per-request op window). */
  ops: number;
  /** Ops that started before it: more started than ended means the pair ran slower than the profile planned. */
  started: number;
  /** Their success rate, or null when fewer than minOps (then recovery is not measured). */
  rate: number | null;
  /** The success rate a sliding window must reach to count as recovered (the level, capped at `rate`). */
  target: number;
  /** Below this pre-fault success rate the system was not healthy to begin with: recovery is not measured. */
  floor: number;
  /** Whether recovery can be measured against this steady state. */
  measured: boolean;
}

/** Every percentile is n/a (null) when nothing was timed (count 0). */
export interface LatencySummary {
  count: number;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export interface Metrics
  extends Partial<ApplicationMetrics>,
    Partial<EdgeMetrics>,
    Partial<DiscoveryMetrics>,
    Partial<InputRoundMetrics>,
    Partial<NotificationMetrics>,
    Partial<TaskMetrics>,
    Partial<TaskCancelMetrics>,
    Partial<ServerSeamMetrics> {
  ops: number;
  opsOk: number;
  opsFail: number;
  opsInfo: number;
  attempts: number;
  attemptsPerOp: AttemptsPerOp;
  /** (opsFail + opsInfo) / ops, n/a (null) without ops. */
  errorRate: number | null;
  /** n/a (null) when no op was retried: see retriedOps. */
  retrySuccessRate: number | null;
  retriedOps: number;
  retrySuccessByWindow: WindowRetryRate[];
  retrySuccessByKind: KindRetryRate[];
  /** False when the target gives no way to see effects: every effect metric is then n/a. */
  effectsObservable: boolean;
  /** The effect counts are n/a (null) when effects are not observable. */
  duplicateEffects: number | null;
  ghostEffects: number | null;
  lostEffects: number | null;
  unattributedEffects: number | null;
  /** Replay accounting and hint honesty (replays.ts); every one absent in reports written before it. */
  retries?: number;
  replaysAfterUnknown?: number;
  unsafeReplays?: number;
  /** Unsafe replays the ledger shows as a second effect of their op; n/a (null) when effects are not observable. */
  unsafeReplayDuplicates?: number | null;
  /** Ops that ended indeterminate (info) while their effect happened; n/a (null) when effects are not observable. */
  indeterminateEffects?: number | null;
  /** Tools whose annotations the effects contradict; n/a (null) when effects are not observable. */
  lyingHints?: number | null;
  lyingHintTools?: LyingHint[];
  /** Why the effects are unknown when the target's way to see them (read-back, interception) failed. */
  effectsUnknown?: string;
  reconciliation: Reconciliation;
  /** n/a (null) when no canaries were planted: the scan did not run. */
  leaks: number | null;
  /** Findings per canary kind; every kind looked for is present. */
  leaksByKind: Record<string, number>;
  leakFindings: LeakFinding[];
  steadyState: SteadyState;
  /** Every fault window with its hits; a window with 0 hits (not allowed to miss) makes the verdict inert. */
  faultWindows: FaultWindowReport[];
  recovery: RecoveryWindow[];
  latencyMs: LatencySummary;
  attemptLatencyMs: LatencySummary;
  errorsByCategory: Record<string, number>;
  errorsByCode: Record<string, number>;
  retryAfterViolations: number;
  throughputOpsPerSec: number;
  durationMs: number;
  /** Behaviour counts per fault hit (resumptions per closed stream, ...): ratios that do not depend on machine speed. */
  perFaultHit?: PerFaultHit;
}

/** The counts that have a per-hit ratio (per-hit.ts holds how each is read from the metrics). */
export type PerHitCount =
  | 'sseResumptions'
  | 'resultsResumed'
  | 'resultsLost'
  | 'attemptsTimedOut'
  | 'reexecutionsAvoided'
  | 'protoErrors';

export interface PerFaultHit {
  /** Hits of every fault window, summed; null when there is no window or a seam could not count. */
  hits: number | null;
  /** Each count divided by hits (to 0.001); null when hits is null or 0. */
  ratios: Record<PerHitCount, number | null>;
}
