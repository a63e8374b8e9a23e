// Which of a profile's thresholds a reader is shown as failed or inconclusive. An interrupted run is not judged
// on what it never measured: none of its thresholds is shown as failed. A negative control's own thresholds are
// shown as its detector firing or not (format.ts controlPhrase), not as failures.
import type { ProfileReport } from '../measure/run-report.ts';
import type { ThresholdResult, ThresholdStatus } from '../measure/thresholds.ts';
import { detectorThresholds } from './detector.ts';
import { fmtNum } from './format.ts';

type Judged = Pick<ProfileReport, 'verdict' | 'control' | 'thresholds'>;

/** A report written before thresholds had a status reads as it did then: ok passes, anything else fails. */
function statusOf(t: Pick<ThresholdResult, 'ok'> & { status?: ThresholdStatus }): ThresholdStatus {
  return t.status ?? (t.ok ? 'pass' : 'fail');
}

export function failedThresholds(p: Judged): ThresholdResult[] {
  if (p.verdict === 'interrupted') return [];
  const detector = new Set(detectorThresholds(p));
  return p.thresholds.filter((t) => !detector.has(t) && ['fail', 'na-fail'].includes(statusOf(t)));
}

export function inconclusiveThresholds(p: Judged): ThresholdResult[] {
  if (p.verdict === 'interrupted') return [];
  return p.thresholds.filter((t) => statusOf(t) === 'inconclusive');
}

/** "latency_p99_ms <= 300" at 412 ms, margin 488 ms: over its bound by 112 ms, within the machine's measured delay of 488 ms */
export function fmtInconclusive(t: ThresholdResult): string {
  const margin = t.marginMs === undefined ? '' : `, margin ${fmtNum(t.marginMs)} ms`;
  return `"${t.expr}" at ${fmtNum(t.actual)} ms${margin}: ${t.reason ?? 'within the machine’s measured delay'}`;
}

/** "4 ok", "2 of 6 failed", "1 of 6 inconclusive", "not judged (interrupted)": for an overview cell. */
export function thresholdCount(p: Judged): string {
  if (p.verdict === 'interrupted') return 'not judged (interrupted)';
  const failed = failedThresholds(p).length;
  const inconclusive = inconclusiveThresholds(p).length;
  const parts = [
    ...(failed > 0 ? [`${failed} failed`] : []),
    ...(inconclusive > 0 ? [`${inconclusive} inconclusive`] : []),
  ];
  return parts.length === 0 ? `${p.thresholds.length} ok` : `${parts.join(', ')} of ${p.thresholds.length}`;
}

/** Nothing to mark: every threshold held, or none was judged (interrupted). */
export function notJudgedOrOk(p: Judged): boolean {
  return failedThresholds(p).length + inconclusiveThresholds(p).length === 0;
}
