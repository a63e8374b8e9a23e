// Each fault window as the report shows it, with what its seam counted it doing (hits).
import type { RunFrame } from './accumulator.ts';
import { round1 } from './round.ts';
import type { FaultWindowReport } from './types.ts';

export function faultWindows(run: RunFrame): FaultWindowReport[] {
  return run.faults.map((w) => ({
    fault: w.id,
    seam: w.seam,
    kind: w.kind,
    onAtMs: round1(w.onMs - run.startMs),
    offAtMs: w.offMs === undefined ? null : round1(w.offMs - run.startMs),
    hits: w.hits ?? null,
    mayNotHit: w.mayNotHit === true,
    window: w.window ?? { kind: 'time' },
  }));
}

/** Windows that hit nothing although the profile did not allow it. */
export function inertWindows(windows: readonly FaultWindowReport[]): FaultWindowReport[] {
  return windows.filter((w) => w.hits === 0 && !w.mayNotHit);
}
