// Threshold metric names and how to read each from Metrics. Adding a metric is adding a row.
import { worstDetect } from './edge-metrics.ts';
import type { Metrics, RecoveryWindow } from './types.ts';

/** value null means "no value": the threshold fails, and `reason` says why. */
export interface MetricValue {
  value: number | null;
  reason?: string;
}

export interface MetricDef {
  describe: string;
  /** The values the metric can take, inclusive; default 0 to infinity (counts, ms, bytes, ops/s). */
  range?: readonly [number, number];
  get: (m: Metrics) => MetricValue;
}

const v = (value: number): MetricValue => ({ value });
/** A share of something: 0 to 1. */
const RATIO = [0, 1] as const;

export const METRICS: Record<string, MetricDef> = {
  ops: { describe: 'logical calls', get: (m) => v(m.ops) },
  ops_ok: { describe: 'ops that ended ok', get: (m) => v(m.opsOk) },
  ops_fail: { describe: 'ops that ended fail', get: (m) => v(m.opsFail) },
  ops_info: { describe: 'ops with an indeterminate outcome', get: (m) => v(m.opsInfo) },
  attempts: { describe: 'attempts over all ops', get: (m) => v(m.attempts) },
  attempts_per_op_max: { describe: 'most attempts of one op', get: (m) => v(m.attemptsPerOp.max) },
  attempts_per_op_mean: { describe: 'mean attempts per op', get: (m) => v(m.attemptsPerOp.mean) },
  retry_success_rate: { describe: 'retried ops that ended ok', range: RATIO, get: (m) => v(m.retrySuccessRate) },
  duplicate_effects: { describe: 'effects beyond the first per op', get: (m) => v(m.duplicateEffects) },
  ghost_effects: { describe: 'failed ops with an effect', get: (m) => v(m.ghostEffects) },
  lost_effects: { describe: 'ok side-effecting ops without effect', get: (m) => v(m.lostEffects) },
  unattributed_effects: { describe: 'effects no op claims', get: (m) => v(m.unattributedEffects) },
  leaks: { describe: 'canaries in model-visible content', get: (m) => v(m.leaks) },
  recovery_ms: { describe: 'worst recovery over fault windows', get: (m) => worst(m.recovery, 'recoveryMs') },
  first_success_ms: {
    describe: 'worst first success after a fault window',
    get: (m) => worst(m.recovery, 'firstSuccessMs'),
  },
  latency_p50_ms: { describe: 'op latency p50', get: (m) => v(m.latencyMs.p50) },
  latency_p90_ms: { describe: 'op latency p90', get: (m) => v(m.latencyMs.p90) },
  latency_p95_ms: { describe: 'op latency p95', get: (m) => v(m.latencyMs.p95) },
  latency_p99_ms: { describe: 'op latency p99', get: (m) => v(m.latencyMs.p99) },
  latency_max_ms: { describe: 'op latency max', get: (m) => v(m.latencyMs.max) },
  attempt_latency_p50_ms: { describe: 'attempt latency p50', get: (m) => v(m.attemptLatencyMs.p50) },
  attempt_latency_p99_ms: { describe: 'attempt latency p99', get: (m) => v(m.attemptLatencyMs.p99) },
  attempt_latency_max_ms: { describe: 'attempt latency max', get: (m) => v(m.attemptLatencyMs.max) },
  error_rate: { describe: '(ops_fail + ops_info) / ops', range: RATIO, get: (m) => v(m.errorRate) },
  retry_after_violations: {
    describe: 'retries earlier than Retry-After advised',
    get: (m) => v(m.retryAfterViolations),
  },
  throughput_ops_s: { describe: 'ops per second over the run', get: (m) => v(m.throughputOpsPerSec) },
  breaker_opens: { describe: 'times a circuit breaker opened', get: (m) => v(m.breakerOpens ?? 0) },
  breaker_rejections: { describe: 'ops an open breaker failed fast', get: (m) => v(m.breakerRejections ?? 0) },
  lookups: { describe: 'status lookups before re-executing', get: (m) => v(m.lookups ?? 0) },
  reexecutions_avoided: {
    describe: 'lookups that found the effect (no re-execution)',
    get: (m) => v(m.reexecutionsAvoided ?? 0),
  },
  auth_refreshes: { describe: 'credential refreshes after AUTH failures', get: (m) => v(m.authRefreshes ?? 0) },
  auth_escalations: { describe: 'ops that ended on an AUTH error', get: (m) => v(m.authEscalations ?? 0) },
  auth_blind_retries: { describe: 'retries after AUTH without a refresh', get: (m) => v(m.authBlindRetries ?? 0) },
  mistake_ops: { describe: 'ops that started with a model mistake', get: (m) => v(m.mistakeOps ?? 0) },
  self_corrections: { describe: 'calls re-issued with corrected arguments', get: (m) => v(m.selfCorrections ?? 0) },
  self_correction_rate: {
    describe: 'mistaken ops whose last call passed validation',
    range: RATIO,
    get: (m) => v(m.selfCorrectionRate ?? 1),
  },
  loop_guard_stops: { describe: 'repeats the loop guard stopped', get: (m) => v(m.loopGuardStops ?? 0) },
  attempts_per_s_max: { describe: 'most attempts started in one second', get: (m) => v(m.attemptsPerSecondMax ?? 0) },
  internal_errors: { describe: 'failed attempts in category INTERNAL', get: (m) => v(m.internalErrors ?? 0) },
  detect_ms: {
    describe: 'worst time from a fault to the first failed attempt',
    get: (m) => worstDetect(m.detect ?? []),
  },
  proto_errors: { describe: 'failed attempts in category PROTO', get: (m) => v(m.protoErrors ?? 0) },
  results_over_budget: {
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
  results_lost: { describe: 'ops not ok whose effect exists (result lost)', get: (m) => v(m.delivery?.lost ?? 0) },
  attempts_timed_out: {
    describe: 'attempts that hung until the client timeout',
    get: (m) => v(m.attemptsTimedOut ?? 0),
  },
  reconnect_exhausted: {
    describe: 'times the SDK gave up reconnecting a stream',
    get: (m) => v(m.reconnectExhausted ?? 0),
  },
  result_bytes_max: { describe: 'largest tool result received, bytes', get: (m) => v(m.resultBytesMax ?? 0) },
};

export const METRIC_NAMES = Object.keys(METRICS);

/**
 * The worst window decides. A window that never recovered (or never saw a success) has no value, which fails
 * the threshold whatever its operator; without any fault window there is nothing to wait for, so 0.
 */
function worst(windows: RecoveryWindow[], key: 'recoveryMs' | 'firstSuccessMs'): MetricValue {
  let max = 0;
  for (const w of windows) {
    const value = w[key];
    if (value === null) {
      const what = key === 'recoveryMs' ? 'did not recover' : 'saw no successful op after it ended';
      const when = w.offAtMs === null ? ' (never removed)' : '';
      return { value: null, reason: `fault window ${w.fault}${when} ${what} by the end of the run` };
    }
    if (value > max) max = value;
  }
  return { value: max };
}
