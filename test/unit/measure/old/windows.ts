// Which ops a fault window touches. A window that was never removed lasts until the end of the run.
import type { FaultWindow, History, OpRecord } from '../../../../src/core/history.ts';

function windowEnd(window: FaultWindow, history: History): number {
  return window.offMs ?? history.endMs;
}

/** An op belongs to a window when its [start, end] interval overlaps the window's [on, off]. */
function overlaps(op: OpRecord, window: FaultWindow, history: History): boolean {
  return op.startMs <= windowEnd(window, history) && op.endMs >= window.onMs;
}

export function opsInWindow(history: History, window: FaultWindow): OpRecord[] {
  return history.ops.filter((op) => overlaps(op, window, history));
}
