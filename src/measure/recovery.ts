// Recovery after each fault window: how long after the fault was removed until a sliding window of ops
// succeeds at the steady-state level measured before the first fault.
import { STEADY_STATE_DEFAULTS } from '../core/defaults.ts';
import type { FaultWindow, History, OpRecord } from '../core/history.ts';
import { round1 } from './round.ts';
import type { RecoveryOptions, RecoveryWindow, SteadyState } from './types.ts';

export const RECOVERY_DEFAULTS = {
  windowMs: STEADY_STATE_DEFAULTS.windowMs,
  minOps: STEADY_STATE_DEFAULTS.minOps,
  targetSuccessRate: STEADY_STATE_DEFAULTS.level,
} as const;

export interface RecoveryResult {
  steadyState: SteadyState;
  windows: RecoveryWindow[];
}

export function recovery(history: History, options: RecoveryOptions = {}): RecoveryResult {
  const windowMs = options.windowMs ?? RECOVERY_DEFAULTS.windowMs;
  const minOps = Math.max(1, options.minOps ?? RECOVERY_DEFAULTS.minOps);
  const ops = [...history.ops].sort((a, b) => a.startMs - b.startMs);
  const steadyState = measureSteadyState(history, ops, minOps, options.targetSuccessRate);
  // okBefore[i] = ops that ended ok among ops[0..i), so any window's success rate is a subtraction.
  const okBefore = [0];
  for (const op of ops) okBefore.push(okBefore[okBefore.length - 1] + (op.outcome === 'ok' ? 1 : 0));

  const windows = history.faults.map((w) => {
    const base = describe(w, history);
    if (w.offMs === undefined) return { ...base, recoveryMs: null, firstSuccessMs: null, recovered: false };
    const tOff = w.offMs;
    const tRecovered = findRecovery(ops, okBefore, tOff, windowMs, minOps, steadyState.target);
    const firstSuccess = firstSuccessAfter(ops, tOff);
    return {
      ...base,
      recoveryMs: tRecovered === null ? null : round1(tRecovered - tOff),
      firstSuccessMs: firstSuccess === null ? null : round1(firstSuccess - tOff),
      recovered: tRecovered !== null,
    };
  });
  return { steadyState, windows };
}

function measureSteadyState(
  history: History,
  ops: OpRecord[],
  minOps: number,
  targetOption: number | undefined,
): SteadyState {
  const target = targetOption ?? RECOVERY_DEFAULTS.targetSuccessRate;
  if (history.faults.length === 0) return { ops: 0, rate: null, target };
  const firstOn = Math.min(...history.faults.map((w) => w.onMs));
  const before = ops.filter((op) => op.endMs < firstOn);
  if (before.length < minOps) return { ops: before.length, rate: null, target };
  const rate = before.filter((op) => op.outcome === 'ok').length / before.length;
  // A system that was only 95% healthy before the fault cannot be asked to reach 99% after it.
  return { ops: before.length, rate, target: Math.min(target, rate) };
}

/** Start of the first sliding window (one candidate per op start at or after tOff) that reaches target. */
function findRecovery(
  ops: OpRecord[],
  okBefore: number[],
  tOff: number,
  windowMs: number,
  minOps: number,
  target: number,
): number | null {
  let end = 0;
  for (let i = lowerBound(ops, tOff); i < ops.length; i++) {
    const start = ops[i].startMs;
    // The window spans windowMs and stretches to hold at least minOps ops; `end` only moves forward.
    if (end < i) end = i;
    while (end < ops.length && (ops[end].startMs < start + windowMs || end - i < minOps)) end++;
    const count = end - i;
    if (count < minOps) return null; // later windows only hold fewer ops
    if ((okBefore[end] - okBefore[i]) / count >= target) return start;
  }
  return null;
}

/** When the first op that started at or after tOff completed ok (its end time), or null. */
function firstSuccessAfter(ops: OpRecord[], tOff: number): number | null {
  let best: number | null = null;
  for (let i = lowerBound(ops, tOff); i < ops.length; i++) {
    const op = ops[i];
    if (op.outcome === 'ok' && (best === null || op.endMs < best)) best = op.endMs;
  }
  return best;
}

function lowerBound(ops: OpRecord[], t: number): number {
  let lo = 0;
  let hi = ops.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ops[mid].startMs < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function describe(w: FaultWindow, history: History) {
  return {
    fault: w.id,
    kind: w.kind,
    seam: w.seam,
    onAtMs: round1(w.onMs - history.startMs),
    offAtMs: w.offMs === undefined ? null : round1(w.offMs - history.startMs),
  };
}
