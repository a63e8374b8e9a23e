// The metrics a run can count as records arrive, without keeping them: op outcomes, attempts per op, errors by
// category and code, op and attempt latency histograms, the workload's first start and last end. They add exactly,
// so shards (and capacity levels) merge by adding snapshots. Each field is defined as computeMetrics defines it
// (outcomes.ts, errors.ts, latency.ts); the unit test holds them equal on the same history.
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import { CIRCUIT_OPEN, sortKeys } from './errors.ts';
import { type EncodedLatency, LatencyHistogram, mergeLatency } from './latency-histogram.ts';
import type { Metrics } from './types.ts';

/** The outcome counts, under computeMetrics' names (they add across shards as they are). */
type OutcomeCounts = Pick<Metrics, 'ops' | 'opsOk' | 'opsFail' | 'opsInfo' | 'attempts'>;
type ErrorCounts = Pick<Metrics, 'errorsByCategory' | 'errorsByCode'>;

/** What the counters report: these fields of Metrics, defined as computeMetrics defines them. */
export type CountedMetrics = OutcomeCounts &
  ErrorCounts &
  Pick<Metrics, 'attemptsPerOp' | 'errorRate' | 'latencyMs' | 'attemptLatencyMs' | 'throughputOpsPerSec'>;

/** The counters in transit (JSON-safe), to be added to others. */
export interface CounterSnapshot extends OutcomeCounts, ErrorCounts {
  /** Sum and max over ops of max(attempt records, op.attempts). */
  attemptsPerOpSum: number;
  attemptsPerOpMax: number;
  /** Epoch ms; null without ops. */
  firstStartMs: number | null;
  lastEndMs: number | null;
  latency: EncodedLatency;
  attemptLatency: EncodedLatency;
}

const OUTCOME_KEYS = [
  'ops',
  'opsOk',
  'opsFail',
  'opsInfo',
  'attempts',
] as const satisfies readonly (keyof OutcomeCounts)[];

export class StreamCounters {
  private readonly counts: OutcomeCounts = { ops: 0, opsOk: 0, opsFail: 0, opsInfo: 0, attempts: 0 };
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
    this.counts.attempts++;
    this.openAttempts.set(a.opId, (this.openAttempts.get(a.opId) ?? 0) + 1);
    this.attemptLatency.record(a.endMs - a.startMs);
    if (!a.ok) this.countError(a.category ?? 'UNKNOWN', a.errorCode ?? 'UNKNOWN');
  };

  op = (o: OpRecord): void => {
    this.counts.ops++;
    if (o.outcome === 'ok') this.counts.opsOk++;
    else if (o.outcome === 'fail') this.counts.opsFail++;
    else this.counts.opsInfo++;
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
    const has = this.counts.ops > 0;
    return {
      ...this.counts,
      attemptsPerOpSum: this.perOpSum,
      attemptsPerOpMax: this.perOpMax,
      errorsByCategory: sortKeys(Object.fromEntries(this.byCategory)),
      errorsByCode: sortKeys(Object.fromEntries(this.byCode)),
      firstStartMs: has ? this.firstStartMs : null,
      lastEndMs: has ? this.lastEndMs : null,
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
    const merged = mergeLatency(parts.map(pick));
    const encoded = merged.encode();
    merged.destroy();
    return encoded;
  };
  return {
    ...(Object.fromEntries(OUTCOME_KEYS.map((k) => [k, sum((s) => s[k])])) as OutcomeCounts),
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
    ...(Object.fromEntries(OUTCOME_KEYS.map((k) => [k, s[k]])) as OutcomeCounts),
    attemptsPerOp:
      s.ops === 0 ? { mean: null, max: null } : { mean: s.attemptsPerOpSum / s.ops, max: s.attemptsPerOpMax },
    errorRate: s.ops === 0 ? null : (s.opsFail + s.opsInfo) / s.ops,
    errorsByCategory: s.errorsByCategory,
    errorsByCode: s.errorsByCode,
    latencyMs: summary(s.latency),
    attemptLatencyMs: summary(s.attemptLatency),
    throughputOpsPerSec: seconds > 0 ? Math.round((s.ops / seconds) * 100) / 100 : 0,
  };
}
