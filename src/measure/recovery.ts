// Recovery after each fault window: how long after the fault was removed until a sliding window of ops
// succeeds at the steady-state level measured before the first fault. Fails closed: a window with nothing to
// measure (no healthy steady state, too few ops after it, never removed) has no value and says why.
import { STEADY_STATE_DEFAULTS } from '../core/defaults.ts';
import { doubled } from '../core/doubled.ts';
import type { FaultWindow, OpRecord } from '../core/history.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';
import { OpSpans } from './op-spans.ts';
import type { MetricsOptions, RecoveryOptions } from './options.ts';
import { round1 } from './round.ts';
import type { RecoveryStatus, RecoveryWindow, SteadyState } from './types.ts';

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

const OK = 1;
const OP_INDEX = /^op-(\d+)$/;

/** The ended ops in start order, as columns. */
interface Timeline {
  start: Float64Array;
  end: Float64Array;
  ok: Uint8Array;
  /** The op's number in the workload (op-N), or -1. */
  index: Int32Array;
  /** okBefore[i] = ops that ended ok among the first i, so any window's success rate is a subtraction. */
  okBefore: Uint32Array;
}

/**
 * Counted as the run goes. The windows are known only at the end, so each ended op keeps its span, its outcome bit
 * and its op number (about 21 bytes), never its record.
 */
export class RecoveryTracker implements Accumulator<RecoveryResult> {
  private readonly spans = new OpSpans();
  /** Each row's op number, in a typed array: a million ops' numbers are 4 MB the collector never walks. */
  private index = new Int32Array(1024);

  op(o: OpRecord): void {
    const row = this.spans.push(o.startMs, o.endMs, o.outcome === 'ok' ? OK : 0);
    if (row === this.index.length) this.index = doubled(this.index);
    const n = OP_INDEX.exec(o.opId)?.[1];
    this.index[row] = n === undefined ? -1 : Number(n);
  }

  result(run: RunFrame, options: MetricsOptions): RecoveryResult {
    const opts = options.recovery ?? {};
    const windowMs = opts.windowMs ?? RECOVERY_DEFAULTS.windowMs;
    const minOps = Math.max(1, opts.minOps ?? RECOVERY_DEFAULTS.minOps);
    const ops = this.timeline();
    const steadyState = measureSteadyState(run.faults, ops, minOps, opts);
    const outageEnd = outageEnds(run.faults);

    const windows = run.faults.map((w): RecoveryWindow => {
      const tOff = outageEnd.get(w) ?? null;
      const base = {
        fault: w.id,
        kind: w.kind,
        seam: w.seam,
        onAtMs: round1(w.onMs - run.startMs),
        offAtMs: w.offMs === undefined ? null : round1(w.offMs - run.startMs),
        outageOffAtMs: tOff === null ? null : round1(tOff - run.startMs),
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
      const after = ops.start.length - lowerBound(ops, tOff);
      if (after < minOps) {
        return none(
          'not-measured',
          `only ${after} op(s) started after the fault ended (need ${minOps})`,
          firstSuccessMs,
        );
      }
      const tRecovered = findRecovery(ops, tOff, windowMs, minOps, steadyState.target);
      if (tRecovered === null) {
        // A run that ended soon after the fault can only see a recovery that soon: say how long it looked.
        const lookedMs = Math.round(ops.start[ops.start.length - 1] - tOff);
        return none(
          'not-recovered',
          `did not recover by the end of the run (its last op started ${lookedMs} ms after the fault ended)`,
          firstSuccessMs,
        );
      }
      return { ...base, recoveryMs: round1(tRecovered - tOff), firstSuccessMs, recovered: true, status: 'recovered' };
    });
    return { steadyState, windows };
  }

  /** Ops in start order; of ops that started together, failed ones first, so the order they ended in changes nothing. */
  private timeline(): Timeline {
    const { spans } = this;
    const order = spans.byStart((a, b) => (spans.flags[a] & OK) - (spans.flags[b] & OK));
    const n = order.length;
    const t: Timeline = {
      start: new Float64Array(n),
      end: new Float64Array(n),
      ok: new Uint8Array(n),
      index: new Int32Array(n),
      okBefore: new Uint32Array(n + 1),
    };
    order.forEach((row, i) => {
      t.start[i] = spans.start[row];
      t.end[i] = spans.end[row];
      t.ok[i] = spans.flags[row] & OK;
      t.index[i] = this.index[row];
      t.okBefore[i + 1] = t.okBefore[i] + t.ok[i];
    });
    return t;
  }
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

function measureSteadyState(
  faults: readonly FaultWindow[],
  ops: Timeline,
  minOps: number,
  options: RecoveryOptions,
): SteadyState {
  const level = options.targetSuccessRate ?? RECOVERY_DEFAULTS.targetSuccessRate;
  const floor = options.steadyStateFloor ?? RECOVERY_DEFAULTS.steadyStateFloor;
  if (faults.length === 0) return { ops: 0, started: 0, rate: null, target: level, floor, measured: false };
  const firstOn = Math.min(...faults.map((w) => w.onMs));
  let before = 0;
  let okBefore = 0;
  for (let i = 0; i < ops.start.length; i++) {
    if (!faults.every((w) => untouchedBefore(ops, i, w))) continue;
    before++;
    okBefore += ops.ok[i];
  }
  const started = lowerBound(ops, firstOn);
  if (before < minOps) return { ops: before, started, rate: null, target: level, floor, measured: false };
  const rate = okBefore / before;
  // A system that was only 95% healthy before the fault cannot be asked to reach 99% after it; one below the
  // floor was not healthy at all, and "recovering" to its level would prove nothing.
  return { ops: before, started, rate, target: Math.min(level, rate), floor, measured: rate >= floor };
}

/**
 * Whether an op ran before this window could touch it: an op ahead of a per-request op window's first op is never
 * touched by it, however late it ends (so the steady state does not shrink on a slow machine); for any other
 * window, an op that ended before the window came on.
 */
function untouchedBefore(ops: Timeline, i: number, w: FaultWindow): boolean {
  if (w.window?.kind === 'ops' && w.window.scope === 'per-request' && ops.index[i] !== -1)
    return ops.index[i] < w.window.fromOp;
  return ops.end[i] < w.onMs;
}

function steadyStateNote(s: SteadyState, minOps: number): string {
  if (s.rate === null) return `steady state not measured: ${s.ops} op(s) ran before the first fault (need ${minOps})`;
  return `steady state ${Math.round(s.rate * 1000) / 10}% before the first fault is below the floor ${s.floor * 100}%`;
}

/** Start of the first sliding window (one candidate per op start at or after tOff) that reaches target. */
function findRecovery(ops: Timeline, tOff: number, windowMs: number, minOps: number, target: number): number | null {
  const n = ops.start.length;
  let end = 0;
  for (let i = lowerBound(ops, tOff); i < n; i++) {
    const start = ops.start[i];
    // The window spans windowMs and stretches to hold at least minOps ops; `end` only moves forward.
    if (end < i) end = i;
    while (end < n && (ops.start[end] < start + windowMs || end - i < minOps)) end++;
    const count = end - i;
    if (count < minOps) return null; // later windows only hold fewer ops
    if ((ops.okBefore[end] - ops.okBefore[i]) / count >= target) return start;
  }
  return null;
}

/** When the first op that ended ok at or after tOff ended (an op in flight across tOff counts), or null. */
function firstSuccessAfter(ops: Timeline, tOff: number): number | null {
  let best: number | null = null;
  for (let i = 0; i < ops.start.length; i++) {
    if (ops.ok[i] && ops.end[i] >= tOff && (best === null || ops.end[i] < best)) best = ops.end[i];
  }
  return best;
}

/** The first op that started at or after t. */
function lowerBound(ops: Timeline, t: number): number {
  let lo = 0;
  let hi = ops.start.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ops.start[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
