// A latency HdrHistogram that can be recorded into one sample at a time, merged exactly with others (bucket counts
// add; the exact max travels beside it) and carried between processes as a compact string. Microseconds inside,
// milliseconds to 0.1 ms outside, the same rule latencySummary reports by.
import * as hdr from 'hdr-histogram-js';
import { round1 } from './round.ts';
import type { LatencySummary } from './types.ts';

/** A histogram in transit: the HdrHistogram V2 compressed encoding (base64) and the exact max in ms. */
export interface EncodedLatency {
  hdr: string;
  maxMs: number;
}

// 64-bit buckets and no WebAssembly: no lazy wasm init on Node 20, no overflow on long runs.
const BUCKETS = 64;

export class LatencyHistogram {
  private readonly histogram: hdr.Histogram;
  private maxMs = 0;

  private constructor(histogram: hdr.Histogram, maxMs = 0) {
    this.histogram = histogram;
    this.maxMs = maxMs;
  }

  static empty(): LatencyHistogram {
    return new LatencyHistogram(
      hdr.build({ bitBucketSize: BUCKETS, useWebAssembly: false, numberOfSignificantValueDigits: 3 }),
    );
  }

  static decode(encoded: EncodedLatency): LatencyHistogram {
    return new LatencyHistogram(hdr.decodeFromCompressedBase64(encoded.hdr, BUCKETS, false), encoded.maxMs);
  }

  /** One duration in ms (negative clock skew counts as 0). */
  record(ms: number): void {
    const clamped = Math.max(0, ms);
    if (clamped > this.maxMs) this.maxMs = clamped;
    this.histogram.recordValue(Math.round(clamped * 1000));
  }

  /** Adds another histogram's samples: the result is the histogram of both sample sets, not an average. */
  add(other: LatencyHistogram): void {
    this.histogram.add(other.histogram);
    if (other.maxMs > this.maxMs) this.maxMs = other.maxMs;
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /** Percentiles are bucket upper edges, so never reported past the exact max. */
  summary(): LatencySummary {
    const count = this.count;
    // Nothing measured is n/a, never a fast 0 that passes any upper bound.
    if (count === 0) return { count: 0, p50: null, p90: null, p95: null, p99: null, max: null };
    const at = (p: number) => round1(Math.min(this.histogram.getValueAtPercentile(p) / 1000, this.maxMs));
    return { count, p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: round1(this.maxMs) };
  }

  encode(): EncodedLatency {
    return { hdr: hdr.encodeIntoCompressedBase64(this.histogram), maxMs: this.maxMs };
  }

  destroy(): void {
    this.histogram.destroy();
  }
}

/** The exact merge of several encoded histograms. */
export function mergeLatency(parts: readonly EncodedLatency[]): LatencyHistogram {
  const merged = LatencyHistogram.empty();
  for (const part of parts) {
    const h = LatencyHistogram.decode(part);
    merged.add(h);
    h.destroy();
  }
  return merged;
}
