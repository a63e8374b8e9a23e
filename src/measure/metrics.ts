// computeMetrics: everything DESIGN.md's "Definitions" asks for, from one run's History.
import type { History } from '../core/history.ts';
import { finishFeed, type MetricFeed, replay } from './feed.ts';
import { findLeaks, leaksByKind } from './leaks.ts';
import type { MetricsOptions } from './options.ts';
import { perFaultHit } from './per-hit.ts';
import { replayMetrics } from './replays.ts';
import { serverSeamMetrics } from './server-seam.ts';
import type { Metrics } from './types.ts';

/**
 * `feed`: the accumulators the Recorder fed as the run went (finished here, once); without it the history is
 * replayed into fresh ones. A feed that scanned for other canaries than `options` names is scanned again here.
 */
export function computeMetrics(history: History, options: MetricsOptions = {}, feed?: MetricFeed): Metrics {
  const scannedFor = feed?.leaks.scansFor(options.canaries) ?? true;
  const fed = finishFeed(feed ?? replay(history, options), history, options);
  const { throughputOpsPerSec, ...o } = fed.outcomes;
  const { retry, effects, recovery: rec } = fed;
  const leakFindings = options.leakFindings
    ? [...options.leakFindings]
    : scannedFor
      ? fed.leaks
      : findLeaks(history, { canaries: options.canaries });
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
    faultWindows: fed.faultWindows,
    recovery: rec.windows,
    latencyMs: fed.opLatency,
    attemptLatencyMs: fed.attemptLatency,
    ...fed.errors,
    retryAfterViolations: fed.retryAfter.length,
    throughputOpsPerSec,
    durationMs: Math.round(history.endMs - history.startMs),
    ...fed.application,
    ...fed.edges,
    ...fed.discovery,
    ...fed.inputRounds,
    ...fed.notifications,
    ...fed.tasks,
    ...fed.taskCancels,
    ...serverSeamMetrics(fed.serverSeam, effects, history),
    ...replayMetrics(fed.replays, effects, history.effectsObservable !== false),
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
