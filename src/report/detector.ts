// A negative control: a run whose thresholds ask to see harm, so its pass means a detector fired, not that the
// system is healthy. Either a run under a profile's `controls:` policy (report.json `control`), or a profile whose
// own `expect` asks for a harm count above 0 (redaction-leaky's `leaks > 0`, cancellation-ignored's
// `ghost_effects > 0`): the metric table marks which counts are harm (`damage`).
import { METRICS } from '../measure/metric-table.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import type { ThresholdResult } from '../measure/thresholds.ts';

/** `ghost_effects > 0`, `leaks >= 1`: holds only when harm was seen. */
function asksForHarm(t: Pick<ThresholdResult, 'metric' | 'op' | 'target'>): boolean {
  if (!METRICS[t.metric]?.damage) return false;
  return (t.op === '>' && t.target >= 0) || (t.op === '>=' && t.target > 0);
}

export function isDetectorRun(p: Pick<ProfileReport, 'control' | 'thresholds'>): boolean {
  return p.control === true || p.thresholds.some((t) => !t.implicit && asksForHarm(t));
}

/** The thresholds that show the detector firing: all of a control run's, the harm ones of a profile's own. */
export function detectorThresholds(p: Pick<ProfileReport, 'control' | 'thresholds'>): ThresholdResult[] {
  return p.control ? p.thresholds : p.thresholds.filter((t) => !t.implicit && asksForHarm(t));
}
