// Latency percentiles through an HdrHistogram (latency-histogram.ts): record microseconds, report ms to 0.1 ms.
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

export function opLatency(ops: { startMs: number; endMs: number }[]): LatencySummary {
  return latencySummary(ops.map((o) => o.endMs - o.startMs));
}
