// Hand-built histories for measure tests. Times are given relative to T0 so expected answers stay readable.
import type { AttemptRecord, FaultWindow, History, OpOutcome, OpRecord } from '../../../src/core/history.ts';
import type { Effect, EffectKind } from '../../../src/core/ledger.ts';
import { type FeedResults, finishFeed, type MetricFeed, replay } from '../../../src/measure/feed.ts';
import type { MetricsOptions } from '../../../src/measure/options.ts';
import { Recorder } from '../../../src/run/recorder.ts';

export const T0 = 1_700_000_000_000;

/** The metric accumulators' results over a recorded history. */
export const fed = (h: History, options: MetricsOptions = {}): FeedResults => finishFeed(replay(h), h, options);

/** One op's records: its attempts, and the op itself (undefined: it never ended, a stopped run). */
export interface SyntheticOp {
  op: OpRecord | undefined;
  attempts: AttemptRecord[];
}

/**
 * The Recorder fed as a run feeds it, in end order: ops end in `order`; with `interleaved` every attempt is
 * recorded before any op ends (many ops in flight at once). With `announced` every op (and every op id its attempts
 * name) is announced at its start first, in start order, as the workload driver does: the feed gets low watermarks,
 * and `faults` go on before any op ends (as a run's windows go on before the watermark passes them); with `offLate`
 * their removal is known only once every op ended, else from the start.
 */
export function liveFeed(
  ops: readonly SyntheticOp[],
  order: readonly number[],
  interleaved = false,
  announced = false,
  faults: readonly FaultWindow[] = [],
  offLate = false,
): MetricFeed {
  const recorder = new Recorder();
  if (announced) for (const [opId, atMs] of starts(ops)) recorder.opStarted(opId, atMs);
  const off = () => {
    for (const w of faults) if (w.offMs !== undefined) recorder.faultOff(w.id, w.offMs);
  };
  for (const w of faults) recorder.faultOn(w.id, w.seam, w.kind, w.mayNotHit, w.window, w.onMs);
  if (!offLate) off();
  const end = (i: number) => {
    const o = ops[i].op;
    if (o) recorder.op(o);
  };
  for (const i of order) {
    for (const a of ops[i].attempts) recorder.attempt(a);
    if (!interleaved) end(i);
  }
  if (interleaved) for (const i of order) end(i);
  if (offLate) off();
  recorder.history([], []);
  return recorder.feed;
}

/** Each op id's earliest start (its op's or its attempts'), in start order. */
function starts(ops: readonly SyntheticOp[]): [string, number][] {
  const first = new Map<string, number>();
  const see = (opId: string, ms: number) => first.set(opId, Math.min(first.get(opId) ?? ms, ms));
  for (const { op, attempts } of ops) {
    const opStart = Math.min(op?.startMs ?? Number.POSITIVE_INFINITY, ...attempts.map((a) => a.startMs));
    if (op) see(op.opId, opStart);
    for (const a of attempts) see(a.opId, opStart);
  }
  return [...first].sort((a, b) => a[1] - b[1]);
}

export function history(parts: Partial<History> = {}): History {
  return {
    startMs: T0,
    endMs: T0 + 10_000,
    attempts: [],
    ops: [],
    faults: [],
    effects: [],
    decisions: [],
    ...parts,
  };
}

export function op(
  opId: string,
  start: number,
  end: number,
  outcome: OpOutcome = 'ok',
  extra: Partial<OpRecord> = {},
): OpRecord {
  return {
    opId,
    tool: 'search',
    sideEffecting: false,
    startMs: T0 + start,
    endMs: T0 + end,
    outcome,
    attempts: 1,
    failedAttempts: outcome === 'ok' ? 0 : 1,
    ...extra,
  };
}

export function attempt(
  opId: string,
  n: number,
  start: number,
  end: number,
  ok: boolean,
  extra: Partial<AttemptRecord> = {},
): AttemptRecord {
  return { opId, attempt: n, startMs: T0 + start, endMs: T0 + end, ok, ...extra };
}

let seq = 0;
/** An effect; `at` is relative to T0 like every other fixture time. */
export function effect(traceId: string | undefined, extra: Partial<Effect> = {}, at = 0): Effect {
  const kind: EffectKind = 'payment.charge';
  return { seq: ++seq, atMs: T0 + at, kind, ...(traceId === undefined ? {} : { traceId }), ...extra };
}

export function fault(id: string, on: number, off: number | undefined, kind = 'http-5xx'): FaultWindow {
  return { id, seam: 'dependency', kind, onMs: T0 + on, ...(off === undefined ? {} : { offMs: T0 + off }) };
}

/** Ops starting every `step` ms from `from`, lasting `dur` ms, with outcomes from `pattern` (cycled). */
export function series(
  prefix: string,
  from: number,
  count: number,
  step: number,
  pattern: OpOutcome[] = ['ok'],
  dur = 50,
) {
  return Array.from({ length: count }, (_, i) =>
    op(`${prefix}${i}`, from + i * step, from + i * step + dur, pattern[i % pattern.length]),
  );
}
