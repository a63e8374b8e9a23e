// Recovery after each fault window: how long after the fault was removed until a sliding window of ops
// succeeds at the steady-state level measured before the first fault. Fails closed: a window with nothing to
// measure (no healthy steady state, too few ops after it, never removed) has no value and says why.
import { STEADY_STATE_DEFAULTS } from '../../../../src/core/defaults.ts';
import type { FaultWindow, History, OpRecord } from '../../../../src/core/history.ts';
import { round1 } from '../../../../src/measure/round.ts';
import type { RecoveryOptions, RecoveryStatus, RecoveryWindow, SteadyState } from '../../../../src/measure/types.ts';

const RECOVERY_DEFAULTS = {
  windowMs: STEADY_STATE_DEFAULTS.windowMs,
  minOps: STEADY_STATE_DEFAULTS.minOps,
  targetSuccessRate: STEADY_STATE_DEFAULTS.level,
  steadyStateFloor: STEADY_STATE_DEFAULTS.floor,
} as const;

export interface RecoveryResult {
  steadyState: SteadyState;
  windows: RecoveryWindow[];
}

export function recovery(history: History, options: RecoveryOptions = {}): RecoveryResult {
  const windowMs = options.windowMs ?? RECOVERY_DEFAULTS.windowMs;
  const minOps = Math.max(1, options.minOps ?? RECOVERY_DEFAULTS.minOps);
  const ops = [...history.ops].sort((a, b) => a.startMs - b.startMs);
  const steadyState = measureSteadyState(history, ops, minOps, options);
  // okBefore[i] = ops that ended ok among ops[0..i), so any window's success rate is a subtraction.
  const okBefore = [0];
  for (const op of ops) okBefore.push(okBefore[okBefore.length - 1] + (op.outcome === 'ok' ? 1 : 0));
  const outageEnd = outageEnds(history.faults);

  const windows = history.faults.map((w): RecoveryWindow => {
    const tOff = outageEnd.get(w) ?? null;
    const base = {
      fault: w.id,
      kind: w.kind,
      seam: w.seam,
      onAtMs: round1(w.onMs - history.startMs),
      offAtMs: w.offMs === undefined ? null : round1(w.offMs - history.startMs),
      outageOffAtMs: tOff === null ? null : round1(tOff - history.startMs),
    };
    const none = (status: RecoveryStatus, note: string, firstSuccessMs: number | null = null) => ({
      ...base,
      recoveryMs: null,
      firstSuccessMs,
      recovered: false,
      status,
      note,
    });
    if (w.offMs === undefined) return none('never-removed', 'the fault was never removed');
    if (tOff === null) return none('never-removed', 'an overlapping fault window was never removed');
    const firstSuccess = firstSuccessAfter(ops, tOff);
    const firstSuccessMs = firstSuccess === null ? null : round1(firstSuccess - tOff);
    if (!steadyState.measured) return none('no-steady-state', steadyStateNote(steadyState, minOps), firstSuccessMs);
    const after = ops.length - lowerBound(ops, tOff);
    if (after < minOps) {
      return none('not-measured', `only ${after} op(s) started after the fault ended (need ${minOps})`, firstSuccessMs);
    }
    const tRecovered = findRecovery(ops, okBefore, tOff, windowMs, minOps, steadyState.target);
    if (tRecovered === null) return none('not-recovered', 'did not recover by the end of the run', firstSuccessMs);
    return { ...base, recoveryMs: round1(tRecovered - tOff), firstSuccessMs, recovered: true, status: 'recovered' };
  });
  return { steadyState, windows };
}

/** Overlapping windows are one outage: each window's t_off is the last removal of the outage it belongs to. */
function outageEnds(faults: readonly FaultWindow[]): Map<FaultWindow, number | null> {
  const ends = new Map<FaultWindow, number | null>();
  const sorted = [...faults].sort((a, b) => a.onMs - b.onMs);
  let group: FaultWindow[] = [];
  let groupEnd = Number.NEGATIVE_INFINITY;
  const close = () => {
    const end = groupEnd === Number.POSITIVE_INFINITY ? null : groupEnd;
    for (const w of group) ends.set(w, end);
  };
  for (const w of sorted) {
    if (group.length > 0 && w.onMs > groupEnd) {
      close();
      group = [];
      groupEnd = Number.NEGATIVE_INFINITY;
    }
    group.push(w);
    groupEnd = Math.max(groupEnd, w.offMs ?? Number.POSITIVE_INFINITY);
  }
  if (group.length > 0) close();
  return ends;
}

function measureSteadyState(history: History, ops: OpRecord[], minOps: number, options: RecoveryOptions): SteadyState {
  const level = options.targetSuccessRate ?? RECOVERY_DEFAULTS.targetSuccessRate;
  const floor = options.steadyStateFloor ?? RECOVERY_DEFAULTS.steadyStateFloor;
  if (history.faults.length === 0) return { ops: 0, started: 0, rate: null, target: level, floor, measured: false };
  const firstOn = Math.min(...history.faults.map((w) => w.onMs));
  const before = ops.filter((op) => history.faults.every((w) => untouchedBefore(op, w)));
  const started = ops.filter((op) => op.startMs < firstOn).length;
  if (before.length < minOps) return { ops: before.length, started, rate: null, target: level, floor, measured: false };
  const rate = before.filter((op) => op.outcome === 'ok').length / before.length;
  // A system that was only 95% healthy before the fault cannot be asked to reach 99% after it; one below the
  // floor was not healthy at all, and "recovering" to its level would prove nothing.
  return { ops: before.length, started, rate, target: Math.min(level, rate), floor, measured: rate >= floor };
}

const OP_INDEX = /^op-(\d+)$/;

/**
 * Whether an op ran before this window could touch it: an op ahead of a per-request op window's first op is never
 * touched by it, however late it ends (so the steady state does not shrink on a slow machine); for any other
 * window, an op that ended before the window came on.
 */
function untouchedBefore(op: OpRecord, w: FaultWindow): boolean {
  const index = OP_INDEX.exec(op.opId)?.[1];
  if (w.window?.kind === 'ops' && w.window.scope === 'per-request' && index !== undefined)
    return Number(index) < w.window.fromOp;
  return op.endMs < w.onMs;
}

function steadyStateNote(s: SteadyState, minOps: number): string {
  if (s.rate === null) return `steady state not measured: ${s.ops} op(s) ran before the first fault (need ${minOps})`;
  return `steady state ${Math.round(s.rate * 1000) / 10}% before the first fault is below the floor ${s.floor * 100}%`;
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

/** When the first op that ended ok at or after tOff ended (an op in flight across tOff counts), or null. */
function firstSuccessAfter(ops: OpRecord[], tOff: number): number | null {
  let best: number | null = null;
  for (const op of ops) {
    if (op.outcome === 'ok' && op.endMs >= tOff && (best === null || op.endMs < best)) best = op.endMs;
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
