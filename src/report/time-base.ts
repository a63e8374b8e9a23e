// Reports give times from the workload's start (what a profile's `start: 0.5s` refers to), not from the run's
// start, which includes set-up. Metrics keep times relative to history.startMs; this is the offset to subtract.
import type { History } from '../core/history.ts';
import type { ProfileReport } from '../measure/run-report.ts';

export function workloadOffsetMs(p: Pick<ProfileReport, 'workloadOffsetMs'>, history?: History): number {
  if (p.workloadOffsetMs !== undefined) return p.workloadOffsetMs;
  if (history && history.ops.length > 0) {
    let first = Number.POSITIVE_INFINITY;
    for (const o of history.ops) if (o.startMs < first) first = o.startMs;
    return first - history.startMs;
  }
  return 0;
}
