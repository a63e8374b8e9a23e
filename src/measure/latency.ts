// Latency percentiles through an HdrHistogram (latency-histogram.ts): record microseconds, report ms to 0.1 ms.
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import type { Accumulator } from './accumulator.ts';
import { LatencyHistogram } from './latency-histogram.ts';
import type { LatencySummary } from './types.ts';

/** Summarises durations given in ms. Max is exact (the histogram only rounds percentiles, within 0.1%). */
export function latencySummary(durationsMs: number[]): LatencySummary {
  const histogram = LatencyHistogram.empty();
  try {
    for (const ms of durationsMs) histogram.record(ms);
    return histogram.summary();
  } finally {
    histogram.destroy();
  }
}

/** p50Ms, p95Ms and maxMs of a summary, each left out when nothing was timed (the calibration's shape). */
export function msFields(s: LatencySummary): { p50Ms?: number; p95Ms?: number; maxMs?: number } {
  return s.count === 0 || s.p50 === null || s.p95 === null || s.max === null
    ? {}
    : { p50Ms: s.p50, p95Ms: s.p95, maxMs: s.max };
}

/** The latency of every op, or of every attempt, as they end. */
export class LatencyAccumulator implements Accumulator<LatencySummary> {
  private readonly histogram = LatencyHistogram.empty();

  constructor(private readonly of: 'op' | 'attempt') {}

  attempt(a: AttemptRecord): void {
    if (this.of === 'attempt') this.histogram.record(a.endMs - a.startMs);
  }

  op(o: OpRecord): void {
    if (this.of === 'op') this.histogram.record(o.endMs - o.startMs);
  }

  result(): LatencySummary {
    const summary = this.histogram.summary();
    this.histogram.destroy();
    return summary;
  }
}
