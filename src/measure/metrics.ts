// computeMetrics: everything DESIGN.md's "Definitions" asks for, from one run's History.
import { collectIfGrown } from '../core/heap-keeper.ts';
import type { History } from '../core/history.ts';
import { applicationMetrics } from './client-guards.ts';
import { discoveryMetrics } from './discovery-metrics.ts';
import { edgeMetrics } from './edge-metrics.ts';
import { errorCounts } from './errors.ts';
import { faultWindows } from './fault-windows.ts';
import { opLatency } from './latency.ts';
import { findLeaks, leaksByKind } from './leaks.ts';
import { outcomes, throughput } from './outcomes.ts';
import { perFaultHit } from './per-hit.ts';
import { reconcile } from './reconcile.ts';
import { recovery } from './recovery.ts';
import { retrySuccess } from './retry.ts';
import { retryAfterViolations } from './retry-after.ts';
import { serverSeamMetrics } from './server-seam.ts';
import type { Metrics, MetricsOptions } from './types.ts';

export function computeMetrics(history: History, options: MetricsOptions = {}): Metrics {
  // Each pass over a 100,000-op history leaves tens of MB of garbage, and this runs without a break in the event
  // loop, so the heap keeper gets its chance between the biggest passes.
  const o = outcomes(history);
  const retry = retrySuccess(history);
  const effects = reconcile(history);
  collectIfGrown();
  const rec = recovery(history, options.recovery);
  const leakFindings = findLeaks(history, { canaries: options.canaries });
  collectIfGrown();
  const application = applicationMetrics(history);
  collectIfGrown();
  const metrics: Metrics = {
    ...o,
    effectsObservable: history.effectsObservable !== false,
    retrySuccessRate: retry.rate,
    retriedOps: retry.retriedOps,
    retrySuccessByWindow: retry.byWindow,
    retrySuccessByKind: retry.byKind,
    duplicateEffects: effects.duplicateEffects,
    ghostEffects: effects.ghostEffects,
    lostEffects: effects.lostEffects,
    unattributedEffects: effects.unattributedEffects,
    reconciliation: effects.reconciliation,
    leaks: leakFindings.length,
    leaksByKind: leaksByKind(leakFindings, { canaries: options.canaries }),
    leakFindings,
    steadyState: rec.steadyState,
    faultWindows: faultWindows(history),
    recovery: rec.windows,
    latencyMs: opLatency(history.ops),
    attemptLatencyMs: opLatency(history.attempts),
    ...errorCounts(history),
    retryAfterViolations: retryAfterViolations(history, options.retryAfterToleranceMs).length,
    throughputOpsPerSec: Math.round(throughput(history) * 100) / 100,
    durationMs: Math.round(history.endMs - history.startMs),
    ...application,
    ...edgeMetrics(history),
    ...discoveryMetrics(history),
    ...serverSeamMetrics(history, effects),
  };
  return { ...metrics, perFaultHit: perFaultHit(metrics) };
}
