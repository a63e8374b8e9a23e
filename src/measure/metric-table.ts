// Threshold metric names and how to read each from Metrics. Adding a metric is adding a row.
import type { FaultArea } from '../core/fault-areas.ts';
import { worstDetect } from './edge-metrics.ts';
import { inertWindows } from './fault-windows.ts';
import { perFaultHit, perHitNaReason } from './per-hit.ts';
import type { Metrics, PerHitCount, RecoveryWindow } from './types.ts';

/**
 * value null means "no value": the threshold fails, and `reason` says why. `na` marks the fail-closed case of
 * nothing to measure (no retried op, no fault window, no visible effect): such a threshold fails too, unless it
 * says it may be n/a (`... or n/a`).
 */
export interface MetricValue {
  value: number | null;
  reason?: string;
  na?: boolean;
  /** Nothing to measure whatever the machine's load (the target gives no way to see effects): a loaded machine
   * does not excuse a threshold that needed it, so its fail outranks inconclusive. */
  unmeasurable?: boolean;
}

/** How a value reads: a count, milliseconds, a 0..1 rate, ops per second, bytes. */
export type MetricUnit = 'count' | 'ms' | 'rate' | 'ops/s' | 'bytes' | 'attempts/op' | 'rounds/call' | 'per hit';

export interface MetricDef {
  describe: string;
  get: (m: Metrics) => MetricValue;
  /** Default `count`. */
  unit?: MetricUnit;
  /** Shown in every summary (console, Markdown, the HTML overview); the HTML lists all metrics. */
  headline?: boolean;
  /**
   * A count of harm done (an effect doubled, lost or leaked): a threshold that asks for more than 0 asks to see
   * the harm, as a negative control does, so its pass reads "detector fired" (report/detector.ts).
   */
  damage?: boolean;
  /** The areas of MCP server faults it detects (core/fault-areas.ts; `faultline kinds --coverage`). */
  detects?: readonly FaultArea[];
}

const v = (value: number): MetricValue => ({ value });
const na = (why: string): MetricValue => ({ value: null, na: true, reason: `nothing to measure: ${why}` });
/** Discovery counts exist only where a negotiating client probed. */
const probed = (value: number | undefined): MetricValue =>
  value === undefined ? na('no server/discover probe was sent') : v(value);
/** Header-tampering counts exist only where a proxy rewrote some attempt's routing headers. */
const tamperedCount = (m: Metrics, value: number): MetricValue =>
  (m.headerTampered ?? 0) === 0 ? na('no attempt had its Mcp-* headers rewritten') : v(value);
/** Listen counts exist only where a listen was acknowledged and a charge made after it. */
const listened = (value: number | undefined): MetricValue =>
  value === undefined ? na('no acknowledged listen saw a charge') : v(value);
/** A value the metrics left null is n/a, for the reason given. */
const orNa = (value: number | null, why: string): MetricValue => (value === null ? na(why) : v(value));
const NO_OPS = 'no op ran';
const NOTHING_TIMED = 'nothing was timed';
const NO_ROUND = 'no input_required round was sent';
const NO_TASK = 'no task was created';
const NO_CANCEL = 'no tasks/cancel was sent';
/** Effect counts exist only where the run could see effects (a ledger, or read-back probes): null otherwise. */
const effect = (m: Metrics, value: number | null): MetricValue =>
  value === null
    ? { ...na(m.effectsUnknown ?? 'this target gives no way to see its effects'), unmeasurable: true }
    : v(value);

/** Replay counts are absent from reports written before replay accounting (`faultline report` re-renders them). */
const replayCount = (value: number | null | undefined, get: (n: number | null) => MetricValue): MetricValue =>
  value === undefined ? na('this report was written before replay accounting') : get(value);

export const METRICS: Record<string, MetricDef> = {
  ops: { describe: 'logical calls', get: (m) => v(m.ops), headline: true },
  ops_ok: { describe: 'ops that ended ok', get: (m) => v(m.opsOk), headline: true },
  ops_fail: { describe: 'ops that ended fail', get: (m) => v(m.opsFail), headline: true },
  ops_info: { describe: 'ops with an indeterminate outcome', get: (m) => v(m.opsInfo), headline: true },
  attempts: { describe: 'attempts over all ops', get: (m) => v(m.attempts) },
  attempts_per_op_max: {
    describe: 'most attempts of one op',
    get: (m) => orNa(m.attemptsPerOp.max, NO_OPS),
    unit: 'attempts/op',
  },
  attempts_per_op_mean: {
    describe: 'mean attempts per op',
    get: (m) => orNa(m.attemptsPerOp.mean, NO_OPS),
    unit: 'attempts/op',
  },
  inert_windows: {
    describe: 'fault windows that hit nothing (each also makes the verdict inert)',
    get: (m) => (m.faultWindows.length === 0 ? na('no fault window') : v(inertWindows(m.faultWindows).length)),
  },
  fault_hits_min: {
    describe: 'fewest hits of any fault window, as counted by its seam',
    get: (m) => minHits(m),
  },
  retried_ops: { describe: 'ops with at least one failed attempt', get: (m) => v(m.retriedOps), headline: true },
  retry_success_rate: {
    describe: 'retried ops that ended ok (n/a when none was retried)',
    get: (m) => (m.retrySuccessRate === null ? na('no op had a failed attempt') : v(m.retrySuccessRate)),
    unit: 'rate',
    headline: true,
  },
  duplicate_effects: {
    detects: ['state'],
    describe: 'effects beyond the first per op',
    get: (m) => effect(m, m.duplicateEffects),
    headline: true,
    damage: true,
  },
  ghost_effects: {
    detects: ['tool', 'state'],
    describe: 'failed ops with an effect',
    get: (m) => effect(m, m.ghostEffects),
    headline: true,
    damage: true,
  },
  lost_effects: {
    detects: ['tool', 'state'],
    describe: 'ok side-effecting ops without effect',
    get: (m) => effect(m, m.lostEffects),
    headline: true,
    damage: true,
  },
  indeterminate_effects: {
    detects: ['timeout'],
    describe: 'ops with an indeterminate outcome (info) whose effect exists',
    get: (m) => replayCount(m.indeterminateEffects, (n) => effect(m, n)),
    headline: true,
    damage: true,
  },
  retries: {
    describe: 'attempts after the first of their call',
    get: (m) => replayCount(m.retries, (n) => orNa(n, NO_OPS)),
    headline: true,
  },
  replays_after_unknown: {
    describe: 'retries whose previous attempt ended with its effect unknown',
    get: (m) => replayCount(m.replaysAfterUnknown, (n) => orNa(n, NO_OPS)),
    headline: true,
  },
  unsafe_replays: {
    detects: ['state'],
    describe: 'retries after an unknown outcome on a tool neither declared idempotent nor keyed the server honours',
    get: (m) => replayCount(m.unsafeReplays, (n) => orNa(n, NO_OPS)),
    headline: true,
    damage: true,
  },
  unsafe_replay_duplicates: {
    detects: ['state'],
    describe: 'unsafe replays the effects show as a second effect of their op',
    get: (m) => replayCount(m.unsafeReplayDuplicates, (n) => effect(m, n)),
    headline: true,
    damage: true,
  },
  lying_hints: {
    detects: ['config'],
    describe: 'tools whose readOnlyHint or idempotentHint the effects contradict',
    get: (m) => replayCount(m.lyingHints, (n) => effect(m, n)),
    headline: true,
    damage: true,
  },
  unattributed_effects: {
    describe: 'effects no op claims',
    get: (m) => effect(m, m.unattributedEffects),
    headline: true,
  },
  leaks: {
    detects: ['security'],
    describe: 'canary findings (op, place, kind) in model-visible content',
    get: (m) => orNa(m.leaks, 'no canaries were planted'),
    headline: true,
    damage: true,
  },
  leak_kinds: {
    detects: ['security'],
    describe: 'canary kinds found at least once in model-visible content',
    get: (m) =>
      Object.keys(m.leaksByKind ?? {}).length === 0
        ? na('no canaries were planted')
        : v(Object.values(m.leaksByKind).filter((n) => n > 0).length),
    damage: true,
  },
  recovery_ms: {
    describe: 'worst recovery over fault windows',
    get: (m) => worst(m.recovery, 'recoveryMs'),
    unit: 'ms',
    headline: true,
  },
  first_success_ms: {
    describe: 'worst first success after a fault window',
    get: (m) => worst(m.recovery, 'firstSuccessMs'),
    unit: 'ms',
  },
  latency_p50_ms: {
    describe: 'op latency p50',
    get: (m) => orNa(m.latencyMs.p50, NOTHING_TIMED),
    unit: 'ms',
    headline: true,
  },
  latency_p90_ms: { describe: 'op latency p90', get: (m) => orNa(m.latencyMs.p90, NOTHING_TIMED), unit: 'ms' },
  latency_p95_ms: { describe: 'op latency p95', get: (m) => orNa(m.latencyMs.p95, NOTHING_TIMED), unit: 'ms' },
  latency_p99_ms: {
    describe: 'op latency p99',
    get: (m) => orNa(m.latencyMs.p99, NOTHING_TIMED),
    unit: 'ms',
    headline: true,
  },
  latency_max_ms: { describe: 'op latency max', get: (m) => orNa(m.latencyMs.max, NOTHING_TIMED), unit: 'ms' },
  attempt_latency_p50_ms: {
    describe: 'attempt latency p50',
    get: (m) => orNa(m.attemptLatencyMs.p50, NOTHING_TIMED),
    unit: 'ms',
  },
  attempt_latency_p99_ms: {
    describe: 'attempt latency p99',
    get: (m) => orNa(m.attemptLatencyMs.p99, NOTHING_TIMED),
    unit: 'ms',
  },
  attempt_latency_max_ms: {
    describe: 'attempt latency max',
    get: (m) => orNa(m.attemptLatencyMs.max, NOTHING_TIMED),
    unit: 'ms',
  },
  error_rate: {
    describe: '(ops_fail + ops_info) / ops',
    get: (m) => orNa(m.errorRate, NO_OPS),
    unit: 'rate',
    headline: true,
  },
  retry_after_violations: {
    describe: 'retries earlier than Retry-After advised',
    get: (m) => v(m.retryAfterViolations),
    damage: true,
  },
  throughput_ops_s: { describe: 'ops per second over the run', get: (m) => v(m.throughputOpsPerSec), unit: 'ops/s' },
  breaker_opens: { describe: 'times a circuit breaker opened', get: (m) => v(m.breakerOpens ?? 0) },
  breaker_rejections: { describe: 'ops an open breaker failed fast', get: (m) => v(m.breakerRejections ?? 0) },
  lookups: { describe: 'status lookups before re-executing', get: (m) => v(m.lookups ?? 0) },
  reexecutions_avoided: {
    describe: 'lookups that found the effect (no re-execution)',
    get: (m) => v(m.reexecutionsAvoided ?? 0),
  },
  auth_refreshes: { describe: 'credential refreshes after AUTH failures', get: (m) => v(m.authRefreshes ?? 0) },
  auth_escalations: {
    detects: ['security'],
    describe: 'ops that ended on an AUTH error',
    get: (m) => v(m.authEscalations ?? 0),
  },
  auth_blind_retries: {
    detects: ['security'],
    describe: 'retries after AUTH without a refresh',
    get: (m) => v(m.authBlindRetries ?? 0),
    damage: true,
  },
  mistake_ops: {
    detects: ['schema'],
    describe: 'ops that started with a model mistake',
    get: (m) => v(m.mistakeOps ?? 0),
  },
  self_corrections: { describe: 'calls re-issued with corrected arguments', get: (m) => v(m.selfCorrections ?? 0) },
  self_correction_rate: {
    detects: ['schema'],
    describe:
      'of the mistaken ops the server judged (a validation answer, or ok), those whose last call passed validation (n/a without one)',
    get: (m) =>
      !m.mistakeOps
        ? na('no op started with a model mistake')
        : m.mistakeOpsJudged === 0
          ? na('no mistaken call was answered: every one timed out or lost its link')
          : orNa(m.selfCorrectionRate ?? null, 'no mistaken call was judged'),
    unit: 'rate',
  },
  loop_guard_stops: { describe: 'repeats the loop guard stopped', get: (m) => v(m.loopGuardStops ?? 0) },
  attempts_per_s_max: { describe: 'most attempts started in one second', get: (m) => v(m.attemptsPerSecondMax ?? 0) },
  internal_errors: {
    detects: ['tool'],
    describe: 'failed attempts in category INTERNAL',
    get: (m) => v(m.internalErrors ?? 0),
  },
  detect_ms: {
    describe: 'worst time from a fault to the first failed attempt',
    get: (m) => ((m.detect ?? []).length === 0 ? na('no fault window') : worstDetect(m.detect ?? [])),
    unit: 'ms',
  },
  proto_errors: {
    detects: ['protocol'],
    describe: 'failed attempts in category PROTO',
    get: (m) => v(m.protoErrors ?? 0),
  },
  discovery_probes: {
    describe: 'server/discover probes the SDK 2.4 client sent (n/a when none did)',
    get: (m) => probed(m.discoveryProbes),
  },
  discovery_failed_probes: {
    detects: ['protocol'],
    describe: 'probes with no usable answer: 5xx, a bare 400, none (n/a when none was sent)',
    get: (m) => probed(m.discoveryFailedProbes),
  },
  discovery_retries: {
    describe: 'probes sent again after a failed one (n/a when none was sent)',
    get: (m) => probed(m.discoveryRetries),
  },
  discovery_ms_max: {
    describe: 'the slowest server/discover probe (n/a when none was sent)',
    get: (m) => probed(m.discoveryMsMax),
    unit: 'ms',
  },
  wrong_fallbacks: {
    detects: ['protocol'],
    describe:
      'connects that fell back to 2025-11-25 against a server that speaks 2026-07-28 (n/a: no probe, or a server whose eras are unknown)',
    get: (m) =>
      m.discoveryProbes === undefined
        ? na('no server/discover probe was sent')
        : m.wrongFallbacks === null || m.wrongFallbacks === undefined
          ? na('which eras this server speaks is not known')
          : v(m.wrongFallbacks),
  },
  header_tampered_attempts: {
    describe: 'attempts whose Mcp-* routing headers a proxy rewrote (n/a when none was)',
    get: (m) => tamperedCount(m, m.headerTampered ?? 0),
  },
  header_mismatch_rejected: {
    describe: 'tampered attempts the server refused with HeaderMismatch -32020 (n/a when none was tampered)',
    get: (m) => tamperedCount(m, m.headerMismatchRejected ?? 0),
  },
  header_mismatch_executed: {
    detects: ['security', 'protocol'],
    describe: 'tampered attempts the server dispatched anyway (a 2xx answer; n/a when none was tampered)',
    get: (m) => tamperedCount(m, m.headerMismatchExecuted ?? 0),
    damage: true,
  },
  calls_with_input: {
    describe: "completed calls that needed the client's input (input_required rounds; n/a when no round was sent)",
    get: (m) => (m.callsWithInput === undefined ? na(NO_ROUND) : v(m.callsWithInput)),
  },
  rounds_per_completed_call: {
    describe: 'round trips per completed call that needed input: first rounds and retried rounds of every attempt',
    get: (m) =>
      m.callsWithInput === undefined
        ? na(NO_ROUND)
        : orNa(m.roundsPerCompletedCall ?? null, 'no call that needed input completed'),
    unit: 'rounds/call',
  },
  notifications_delivered: {
    describe:
      'charges announced on a subscriptions/listen stream (n/a: nobody listened, or no charge after the listen)',
    get: (m) => listened(m.notificationsDelivered),
  },
  notifications_duplicated: {
    detects: ['state'],
    describe: 'announcements of a charge beyond its first (n/a as notifications_delivered)',
    get: (m) => listened(m.notificationsDuplicated),
  },
  notifications_lost: {
    detects: ['state'],
    describe:
      "charges never announced on the listen stream that had to announce them (merged op shards: their own shard's) (n/a as notifications_delivered)",
    get: (m) => listened(m.notificationsLost),
    damage: true,
  },
  changes_missed: {
    detects: ['state'],
    describe: 'charges neither announced nor caught up by a read after listening again (n/a as above)',
    get: (m) => listened(m.changesMissed),
    damage: true,
  },
  relistens: {
    describe: 'listens acknowledged after the first, per stream (n/a as notifications_delivered)',
    get: (m) => listened(m.relistens),
  },
  task_completion_rate: {
    describe: 'tasks the client saw completed, of the tasks it created (n/a when no task was created)',
    get: (m) => (m.tasksCreated === undefined ? na(NO_TASK) : v(m.taskCompletionRate ?? 0)),
  },
  tasks_recreated: {
    describe: 'ops that created a task again instead of resuming the one they had (n/a when no task was created)',
    get: (m) => (m.tasksCreated === undefined ? na(NO_TASK) : v(m.tasksRecreated ?? 0)),
    damage: true,
  },
  polls_resumed: {
    describe: 'failed tasks/get polls the client resumed by the task id (n/a when no task was created)',
    get: (m) => (m.tasksCreated === undefined ? na(NO_TASK) : v(m.pollsResumed ?? 0)),
  },
  tasks_forgotten: {
    detects: ['state'],
    describe:
      'tasks the server forgot (a poll answered unknown task, after a restart) that the client created again with the same key (n/a when no task was created)',
    get: (m) => (m.tasksCreated === undefined ? na(NO_TASK) : v(m.tasksForgotten ?? 0)),
  },
  task_cancels_sent: {
    describe: "tasks/cancel requests the edge's cancel-race fault sent (n/a when it sent none)",
    get: (m) => (m.taskCancelsSent === undefined ? na(NO_CANCEL) : v(m.taskCancelsSent)),
  },
  task_cancels_won: {
    describe: 'of those, cancels the server accepted: the task ended cancelled (n/a as task_cancels_sent)',
    get: (m) => (m.taskCancelsSent === undefined ? na(NO_CANCEL) : v(m.taskCancelsWon ?? 0)),
  },
  task_cancels_refused: {
    describe: 'of those, cancels the server refused: the work had claimed the task (n/a as task_cancels_sent)',
    get: (m) => (m.taskCancelsSent === undefined ? na(NO_CANCEL) : v(m.taskCancelsRefused ?? 0)),
  },
  tasks_cancelled_and_charged: {
    detects: ['timeout', 'state'],
    describe:
      'tasks that ended cancelled and charged all the same, matched in the ledger by op and attempt (n/a when no task ended cancelled)',
    get: (m) =>
      m.tasksCancelledAndCharged === undefined
        ? na('no task ended cancelled')
        : orNa(m.tasksCancelledAndCharged, m.tasksCancelledAndChargedNa ?? 'no task ended cancelled'),
    damage: true,
  },
  results_over_budget: {
    detects: ['tool'],
    describe: 'results over the client result budget',
    get: (m) => v(m.resultsOverBudget ?? 0),
  },
  results_truncated: { describe: 'over-budget results truncated', get: (m) => v(m.resultsTruncated ?? 0) },
  results_paginated: {
    describe: 'over-budget results re-fetched as a smaller page',
    get: (m) => v(m.resultsPaginated ?? 0),
  },
  sse_resumptions: { describe: 'SSE resumptions (GET + Last-Event-ID)', get: (m) => v(m.sseResumptions ?? 0) },
  results_resumed: { describe: 'ops delivered once after an SSE resumption', get: (m) => v(m.delivery?.resumed ?? 0) },
  results_lost: {
    detects: ['timeout', 'protocol'],
    describe: 'info ops whose effect exists: the tool ran, the result never arrived',
    get: (m) => v(m.delivery?.lost ?? 0),
    damage: true,
  },
  attempts_timed_out: {
    detects: ['timeout'],
    describe: 'attempts that hung until the client timeout',
    get: (m) => v(m.attemptsTimedOut ?? 0),
  },
  reconnect_exhausted: {
    detects: ['protocol'],
    describe: 'times the SDK gave up reconnecting a stream',
    get: (m) => v(m.reconnectExhausted ?? 0),
  },
  result_bytes_max: {
    describe: 'largest tool result received, bytes',
    get: (m) => v(m.resultBytesMax ?? 0),
    unit: 'bytes',
  },
  sse_resumptions_per_hit: {
    describe: 'SSE resumptions per fault hit (e.g. per stream the server closed)',
    get: (m) => perHit(m, 'sseResumptions'),
    unit: 'per hit',
  },
  results_resumed_per_hit: {
    describe: 'ops delivered once after an SSE resumption, per fault hit',
    get: (m) => perHit(m, 'resultsResumed'),
    unit: 'per hit',
  },
  results_lost_per_hit: {
    describe: 'info ops whose effect exists (result lost), per fault hit',
    get: (m) => perHit(m, 'resultsLost'),
    unit: 'per hit',
  },
  attempts_timed_out_per_hit: {
    describe: 'attempts that hung until the client timeout, per fault hit',
    get: (m) => perHit(m, 'attemptsTimedOut'),
    unit: 'per hit',
  },
  reexecutions_avoided_per_hit: {
    describe: 'lookups that found the effect (no re-execution), per fault hit',
    get: (m) => perHit(m, 'reexecutionsAvoided'),
    unit: 'per hit',
  },
  proto_errors_per_hit: {
    describe: 'failed attempts in category PROTO, per fault hit',
    get: (m) => perHit(m, 'protoErrors'),
    unit: 'per hit',
  },
};

export const METRIC_NAMES = Object.keys(METRICS);

/** A count divided by the fault windows' hits (measure/per-hit.ts); n/a without hits to divide by. */
function perHit(m: Metrics, count: PerHitCount): MetricValue {
  const value = (m.perFaultHit ?? perFaultHit(m)).ratios[count];
  return value === null ? na(perHitNaReason(m)) : v(value);
}

/** The values a metric can take, inclusive: a rate from 0 to 1, everything else (counts, ms, bytes) 0 or more. */
export function metricRange(def: MetricDef): readonly [number, number] {
  return def.unit === 'rate' ? [0, 1] : [0, Number.POSITIVE_INFINITY];
}

/** Windows whose seam cannot count hits make this n/a: a bound on hits must not pass on an unknown. */
function minHits(m: Metrics): MetricValue {
  if (m.faultWindows.length === 0) return na('no fault window');
  const uncounted = m.faultWindows.find((w) => w.hits === null);
  if (uncounted) return na(`the ${uncounted.seam} seam did not count the hits of ${uncounted.fault}`);
  return v(Math.min(...m.faultWindows.map((w) => w.hits as number)));
}

/**
 * The worst window decides. A window that never recovered, was never removed, or saw no success after it has no
 * value and fails the threshold whatever its operator; a window whose recovery could not be measured (no healthy
 * steady state, too few ops after it) makes the metric n/a; without any fault window there is nothing to measure.
 */
function worst(windows: RecoveryWindow[], key: 'recoveryMs' | 'firstSuccessMs'): MetricValue {
  if (windows.length === 0) return na('no fault window');
  let max = 0;
  let unmeasured: RecoveryWindow | undefined;
  for (const w of windows) {
    if (w.status === 'never-removed' || (key === 'recoveryMs' && w.status === 'not-recovered')) {
      return { value: null, reason: `fault window ${w.fault}: ${w.note}` };
    }
    const value = w[key];
    if (key === 'firstSuccessMs' && value === null) {
      return { value: null, reason: `fault window ${w.fault} saw no successful op after it ended` };
    }
    if (value === null) unmeasured ??= w;
    else if (value > max) max = value;
  }
  if (unmeasured) return na(`fault window ${unmeasured.fault}: ${unmeasured.note}`);
  return { value: max };
}
