// Reports give times from the workload's start (what a profile's `start: 0.5s` refers to), not from the run's
// start, which includes set-up. Metrics keep times relative to history.startMs; this is the offset to subtract.
import type { History } from '../core/history.ts';
import type { ProfileReport } from '../measure/run-report.ts';

export function workloadOffsetMs(p: Pick<ProfileReport, 'workloadOffsetMs'>, history?: History): number {
  if (p.workloadOffsetMs !== undefined) return p.workloadOffsetMs;
  if (history && history.ops.length > 0) {
    return Math.min(...history.ops.map((o) => o.startMs)) - history.startMs;
  }
  return 0;
}

/** The workload's start as epoch ms, for charts that work on the history's absolute times. */
export function workloadStartMs(p: Pick<ProfileReport, 'workloadOffsetMs'>, history: History): number {
  return history.startMs + workloadOffsetMs(p, history);
}
