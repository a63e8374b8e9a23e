// Each fault window as the report shows it, with what its seam counted it doing (hits).
import type { RunFrame } from './accumulator.ts';
import { round1 } from './round.ts';
import type { FaultWindowReport } from './types.ts';

export function faultWindows(history: RunFrame): FaultWindowReport[] {
  return history.faults.map((w) => ({
    fault: w.id,
    seam: w.seam,
    kind: w.kind,
    onAtMs: round1(w.onMs - history.startMs),
    offAtMs: w.offMs === undefined ? null : round1(w.offMs - history.startMs),
    hits: w.hits ?? null,
    mayNotHit: w.mayNotHit === true,
    window: w.window ?? { kind: 'time' },
  }));
}

/** Windows that hit nothing although the profile did not allow it. */
export function inertWindows(windows: readonly FaultWindowReport[]): FaultWindowReport[] {
  return windows.filter((w) => w.hits === 0 && !w.mayNotHit);
}
