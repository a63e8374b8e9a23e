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

export function opLatency(ops: { startMs: number; endMs: number }[]): LatencySummary {
  return latencySummary(ops.map((o) => o.endMs - o.startMs));
}
