// The metrics a run can count as records arrive, without keeping them: op outcomes, attempts per op, errors by
// category and code, op and attempt latency histograms, the workload's first start and last end. They add exactly,
// so shards (and capacity levels) merge by adding snapshots. Each field is defined as computeMetrics defines it
// (outcomes.ts, errors.ts, latency.ts); the unit test holds them equal on the same history.
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import { CIRCUIT_OPEN, sortKeys } from './errors.ts';
import { type EncodedLatency, LatencyHistogram } from './latency-histogram.ts';
import type { AttemptsPerOp, LatencySummary } from './types.ts';

/** What the counters report, under computeMetrics' names. */
export interface CountedMetrics {
  ops: number;
  opsOk: number;
  opsFail: number;
  opsInfo: number;
  attempts: number;
  attemptsPerOp: AttemptsPerOp;
  errorRate: number;
  errorsByCategory: Record<string, number>;
  errorsByCode: Record<string, number>;
  latencyMs: LatencySummary;
  attemptLatencyMs: LatencySummary;
  throughputOpsPerSec: number;
}

/** The counters in transit (JSON-safe), to be added to others. */
export interface CounterSnapshot {
  ops: number;
  opsOk: number;
  opsFail: number;
  opsInfo: number;
  attempts: number;
  /** Sum and max over ops of max(attempt records, op.attempts). */
  attemptsPerOpSum: number;
  attemptsPerOpMax: number;
  errorsByCategory: Record<string, number>;
  errorsByCode: Record<string, number>;
  /** Epoch ms; null without ops. */
  firstStartMs: number | null;
  lastEndMs: number | null;
  latency: EncodedLatency;
  attemptLatency: EncodedLatency;
}

export class StreamCounters {
  private ops = 0;
  private opsOk = 0;
  private opsFail = 0;
  private opsInfo = 0;
  private attempts = 0;
  private perOpSum = 0;
  private perOpMax = 0;
  private firstStartMs = Number.POSITIVE_INFINITY;
  private lastEndMs = Number.NEGATIVE_INFINITY;
  private readonly byCategory = new Map<string, number>();
  private readonly byCode = new Map<string, number>();
  /** Attempt records of ops not yet ended: the only per-op state, gone when the op's record arrives. */
  private readonly openAttempts = new Map<string, number>();
  private readonly latency = LatencyHistogram.empty();
  private readonly attemptLatency = LatencyHistogram.empty();

  /** An attempt, recorded before its op ends (as the client policy records them). */
  attempt = (a: AttemptRecord): void => {
    this.attempts++;
    this.openAttempts.set(a.opId, (this.openAttempts.get(a.opId) ?? 0) + 1);
    this.attemptLatency.record(a.endMs - a.startMs);
    if (!a.ok) this.countError(a.category ?? 'UNKNOWN', a.errorCode ?? 'UNKNOWN');
  };

  op = (o: OpRecord): void => {
    this.ops++;
    if (o.outcome === 'ok') this.opsOk++;
    else if (o.outcome === 'fail') this.opsFail++;
    else this.opsInfo++;
    const n = Math.max(this.openAttempts.get(o.opId) ?? 0, o.attempts);
    this.openAttempts.delete(o.opId);
    this.perOpSum += n;
    if (n > this.perOpMax) this.perOpMax = n;
    if (o.startMs < this.firstStartMs) this.firstStartMs = o.startMs;
    if (o.endMs > this.lastEndMs) this.lastEndMs = o.endMs;
    this.latency.record(o.endMs - o.startMs);
    if (o.circuitOpen) this.countError('DEPENDENCY', CIRCUIT_OPEN);
  };

  snapshot(): CounterSnapshot {
    return {
      ops: this.ops,
      opsOk: this.opsOk,
      opsFail: this.opsFail,
      opsInfo: this.opsInfo,
      attempts: this.attempts,
      attemptsPerOpSum: this.perOpSum,
      attemptsPerOpMax: this.perOpMax,
      errorsByCategory: sortKeys(Object.fromEntries(this.byCategory)),
      errorsByCode: sortKeys(Object.fromEntries(this.byCode)),
      firstStartMs: this.ops > 0 ? this.firstStartMs : null,
      lastEndMs: this.ops > 0 ? this.lastEndMs : null,
      latency: this.latency.encode(),
      attemptLatency: this.attemptLatency.encode(),
    };
  }

  metrics(): CountedMetrics {
    return countedMetrics(this.snapshot());
  }

  private countError(category: string, code: string): void {
    this.byCategory.set(category, (this.byCategory.get(category) ?? 0) + 1);
    this.byCode.set(code, (this.byCode.get(code) ?? 0) + 1);
  }
}

/** The exact sum of several snapshots (shards of one run, or runs of one level). */
export function addSnapshots(parts: readonly CounterSnapshot[]): CounterSnapshot {
  const sum = (pick: (s: CounterSnapshot) => number) => parts.reduce((total, s) => total + pick(s), 0);
  const addRecords = (pick: (s: CounterSnapshot) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const s of parts) for (const [k, v] of Object.entries(pick(s))) out[k] = (out[k] ?? 0) + v;
    return sortKeys(out);
  };
  const extreme = (values: (number | null)[], pick: (...xs: number[]) => number) => {
    const present = values.filter((v): v is number => v !== null);
    return present.length > 0 ? pick(...present) : null;
  };
  const mergeEncoded = (pick: (s: CounterSnapshot) => EncodedLatency) => {
    const merged = LatencyHistogram.empty();
    for (const s of parts) {
      const h = LatencyHistogram.decode(pick(s));
      merged.add(h);
      h.destroy();
    }
    const encoded = merged.encode();
    merged.destroy();
    return encoded;
  };
  return {
    ops: sum((s) => s.ops),
    opsOk: sum((s) => s.opsOk),
    opsFail: sum((s) => s.opsFail),
    opsInfo: sum((s) => s.opsInfo),
    attempts: sum((s) => s.attempts),
    attemptsPerOpSum: sum((s) => s.attemptsPerOpSum),
    attemptsPerOpMax: Math.max(0, ...parts.map((s) => s.attemptsPerOpMax)),
    errorsByCategory: addRecords((s) => s.errorsByCategory),
    errorsByCode: addRecords((s) => s.errorsByCode),
    firstStartMs: extreme(
      parts.map((s) => s.firstStartMs),
      Math.min,
    ),
    lastEndMs: extreme(
      parts.map((s) => s.lastEndMs),
      Math.max,
    ),
    latency: mergeEncoded((s) => s.latency),
    attemptLatency: mergeEncoded((s) => s.attemptLatency),
  };
}

export function countedMetrics(s: CounterSnapshot): CountedMetrics {
  const summary = (encoded: EncodedLatency) => {
    const h = LatencyHistogram.decode(encoded);
    const out = h.summary();
    h.destroy();
    return out;
  };
  const seconds = s.firstStartMs === null || s.lastEndMs === null ? 0 : (s.lastEndMs - s.firstStartMs) / 1000;
  return {
    ops: s.ops,
    opsOk: s.opsOk,
    opsFail: s.opsFail,
    opsInfo: s.opsInfo,
    attempts: s.attempts,
    attemptsPerOp: { mean: s.ops === 0 ? 0 : s.attemptsPerOpSum / s.ops, max: s.attemptsPerOpMax },
    errorRate: s.ops === 0 ? 0 : (s.opsFail + s.opsInfo) / s.ops,
    errorsByCategory: s.errorsByCategory,
    errorsByCode: s.errorsByCode,
    latencyMs: summary(s.latency),
    attemptLatencyMs: summary(s.attemptLatency),
    throughputOpsPerSec: seconds > 0 ? Math.round((s.ops / seconds) * 100) / 100 : 0,
  };
}
