// The fault timeline: when each time window opens and closes, relative to the start of the workload. Op windows
// (fromOp, toOp) open and close by the workload's progress instead (op-windows.ts) and are not on it.
import type { FaultEntry } from './schema.ts';

export interface TimelineEvent {
  atMs: number;
  action: 'on' | 'off';
  faultIndex: number;
  faultId: string;
}

export function faultId(fault: FaultEntry, index: number): string {
  return `f${index}-${fault.seam}-${fault.kind}`;
}

/**
 * Events in time order; at equal times removals come first, so back-to-back windows do not overlap. A window
 * without `stop` ends at `durationMs`, or, when `untilWorkloadEnds` (a count-bounded workload), has no planned
 * removal: it stays until the last op has ended and the run clears it.
 */
export function buildTimeline(
  faults: readonly FaultEntry[],
  durationMs: number,
  untilWorkloadEnds = false,
): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  faults.forEach((fault, i) => {
    if (fault.start === undefined) return; // an op window
    const id = faultId(fault, i);
    events.push({ atMs: fault.start, action: 'on', faultIndex: i, faultId: id });
    if (untilWorkloadEnds && fault.stop === undefined) return;
    events.push({ atMs: Math.min(fault.stop ?? durationMs, durationMs), action: 'off', faultIndex: i, faultId: id });
  });
  return events.sort(
    (a, b) => a.atMs - b.atMs || (a.action === b.action ? a.faultIndex - b.faultIndex : a.action === 'off' ? -1 : 1),
  );
}
