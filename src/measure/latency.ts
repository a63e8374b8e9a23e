// Latency percentiles through an HdrHistogram: record microseconds, report milliseconds to 0.1 ms.
import * as hdr from 'hdr-histogram-js';
import { round1 } from './round.ts';
import type { LatencySummary } from './types.ts';

export const PERCENTILES = [50, 90, 95, 99] as const;

/** Summarises durations given in ms. Max is exact (the histogram only rounds percentiles, within 0.1%). */
export function latencySummary(durationsMs: number[]): LatencySummary {
  if (durationsMs.length === 0) return { count: 0, p50: 0, p90: 0, p95: 0, p99: 0, max: 0 };
  // 64-bit buckets and no WebAssembly: no lazy wasm init on Node 20, no overflow on long runs.
  const histogram = hdr.build({ bitBucketSize: 64, useWebAssembly: false, numberOfSignificantValueDigits: 3 });
  let max = 0;
  try {
    for (const ms of durationsMs) {
      const clamped = Math.max(0, ms);
      if (clamped > max) max = clamped;
      histogram.recordValue(Math.round(clamped * 1000));
    }
    // A percentile is a bucket's upper edge, so it may overshoot the largest sample: never report past max.
    const at = (p: number) => round1(Math.min(histogram.getValueAtPercentile(p) / 1000, max));
    return { count: durationsMs.length, p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: round1(max) };
  } finally {
    histogram.destroy();
  }
}

export function opLatency(ops: { startMs: number; endMs: number }[]): LatencySummary {
  return latencySummary(ops.map((o) => o.endMs - o.startMs));
}
