// Reports give times from the workload's start (what a profile's `start: 0.5s` refers to), not from the run's
// start, which includes set-up. Metrics keep times relative to history.startMs; this is the offset to subtract.
import type { History } from '../core/history.ts';
import { opGroups } from '../core/history-records.ts';
import type { ProfileReport } from '../measure/run-report.ts';

export function workloadOffsetMs(p: Pick<ProfileReport, 'workloadOffsetMs'>, history?: History): number {
  if (p.workloadOffsetMs !== undefined) return p.workloadOffsetMs;
  let first = Number.POSITIVE_INFINITY;
  for (const { op } of history ? opGroups(history) : []) if (op && op.startMs < first) first = op.startMs;
  return history && first !== Number.POSITIVE_INFINITY ? first - history.startMs : 0;
}
