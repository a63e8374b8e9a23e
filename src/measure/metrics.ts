// computeMetrics: everything DESIGN.md's "Definitions" asks for, from one run's History.
import type { History } from '../core/history.ts';
import { applicationMetrics } from './client-guards.ts';
import { discoveryMetrics } from './discovery-metrics.ts';
import { edgeMetrics } from './edge-metrics.ts';
import { faultWindows } from './fault-windows.ts';
import { finishFeed, type MetricFeed, replay } from './feed.ts';
import { inputRoundMetrics } from './input-rounds.ts';
import { findLeaks, leaksByKind } from './leaks.ts';
import { notificationMetrics } from './notifications.ts';
import { perFaultHit } from './per-hit.ts';
import { reconcile } from './reconcile.ts';
import { recovery } from './recovery.ts';
import { replayMetrics } from './replays.ts';
import { retrySuccess } from './retry.ts';
import { serverSeamMetrics } from './server-seam.ts';
import type { Metrics, MetricsOptions } from './types.ts';

/**
 * `feed`: the accumulators the Recorder fed as the run went (finished here, once); without it the history is
 * replayed into fresh ones.
 */
export function computeMetrics(history: History, options: MetricsOptions = {}, feed?: MetricFeed): Metrics {
  const fed = finishFeed(feed ?? replay(history), history, options);
  const { throughputOpsPerSec, ...o } = fed.outcomes;
  const retry = retrySuccess(history);
  const effects = reconcile(history);
  const rec = recovery(history, options.recovery);
  const leakFindings = findLeaks(history, { canaries: options.canaries });
  const application = applicationMetrics(history);
  const edges = edgeMetrics(history);
  const metrics: Metrics = {
    ...o,
    effectsObservable: history.effectsObservable !== false,
    ...(history.effectsUnknown !== undefined && { effectsUnknown: history.effectsUnknown }),
    retrySuccessRate: retry.rate,
    retriedOps: retry.retriedOps,
    retrySuccessByWindow: retry.byWindow,
    retrySuccessByKind: retry.byKind,
    ...effectCounts(history.effectsObservable !== false, effects),
    reconciliation: effects.reconciliation,
    leaks: Object.keys(options.canaries ?? {}).length === 0 ? null : leakFindings.length,
    leaksByKind: leaksByKind(leakFindings, { canaries: options.canaries }),
    leakFindings,
    steadyState: rec.steadyState,
    faultWindows: faultWindows(history),
    recovery: rec.windows,
    latencyMs: fed.opLatency,
    attemptLatencyMs: fed.attemptLatency,
    ...fed.errors,
    retryAfterViolations: fed.retryAfter.length,
    throughputOpsPerSec,
    durationMs: Math.round(history.endMs - history.startMs),
    ...application,
    ...edges,
    ...discoveryMetrics(history),
    ...inputRoundMetrics(history),
    ...notificationMetrics(history),
    ...serverSeamMetrics(history, effects),
    ...replayMetrics(history, effects, history.effectsObservable !== false),
  };
  return { ...metrics, perFaultHit: perFaultHit(metrics) };
}

/** The effect counts, or n/a (null) each where the target gives no way to see effects. */
function effectCounts(
  observable: boolean,
  e: Pick<Metrics, 'duplicateEffects' | 'ghostEffects' | 'lostEffects' | 'unattributedEffects'>,
): Pick<Metrics, 'duplicateEffects' | 'ghostEffects' | 'lostEffects' | 'unattributedEffects'> {
  const seen = (n: number | null) => (observable ? n : null);
  return {
    duplicateEffects: seen(e.duplicateEffects),
    ghostEffects: seen(e.ghostEffects),
    lostEffects: seen(e.lostEffects),
    unattributedEffects: seen(e.unattributedEffects),
  };
}
