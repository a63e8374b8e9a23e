import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LatencyHistogram, mergeLatency } from '../../../src/measure/latency-histogram.ts';

const duration = fc.double({ min: -5, max: 120_000, noNaN: true });

function histogramOf(samples: number[]): LatencyHistogram {
  const h = LatencyHistogram.empty();
  for (const s of samples) h.record(s);
  return h;
}

describe('LatencyHistogram', () => {
  it('is within histogram precision of the nearest-rank percentile, whatever the record order', () => {
    fc.assert(
      fc.property(fc.array(duration, { minLength: 1, maxLength: 300 }), (samples) => {
        const sorted = samples.map((s) => Math.max(0, s)).sort((a, b) => a - b);
        const forward = histogramOf(samples).summary();
        expect(histogramOf([...samples].reverse()).summary()).toEqual(forward);
        for (const p of [50, 90, 95, 99] as const) {
          const want = sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
          // 3 significant digits (0.1%), microsecond recording, reporting to 0.1 ms.
          expect(Math.abs((forward[`p${p}`] ?? Number.NaN) - want)).toBeLessThanOrEqual(want * 0.001 + 0.051);
        }
      }),
      { seed: 10, numRuns: 200 },
    );
  });

  it('merges shards exactly: encoded parts, decoded and added, equal one histogram of every sample', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(duration, fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 400 }),
        (tagged) => {
          const samples = tagged.map(([s]) => s);
          const parts = [0, 1, 2, 3, 4].map((k) => histogramOf(tagged.filter(([, t]) => t === k).map(([s]) => s)));
          const merged = mergeLatency(parts.map((p) => p.encode()));
          const single = histogramOf(samples);
          expect(merged.count).toBe(samples.length);
          expect(merged.summary()).toEqual(single.summary());
          // Bucket for bucket: the merged encoding decodes to the same summary as the single one's round trip.
          expect(LatencyHistogram.decode(merged.encode()).summary()).toEqual(
            LatencyHistogram.decode(single.encode()).summary(),
          );
        },
      ),
      { seed: 11, numRuns: 150 },
    );
  });

  it('an average of shard percentiles is not what it reports (the merge is of samples)', () => {
    // Shard A: 99 fast ops; shard B: 1 slow op. Averaging the two p99s would say ~500 ms; the truth is 5 ms.
    const a = histogramOf(Array.from({ length: 99 }, () => 5));
    const b = histogramOf([1000]);
    const averaged = ((a.summary().p99 ?? Number.NaN) + (b.summary().p99 ?? Number.NaN)) / 2;
    const merged = mergeLatency([a.encode(), b.encode()]).summary();
    expect(merged.p99).toBe(5);
    expect(merged.max).toBe(1000);
    expect(averaged).toBeGreaterThan(400);
  });

  it('keeps the exact max through encoding', () => {
    const h = histogramOf([1.04, 1234.56]);
    const back = LatencyHistogram.decode(h.encode());
    expect(back.summary().max).toBe(1234.6);
    expect(back.count).toBe(2);
  });

  it('is n/a (null) when empty, also after a round trip', () => {
    const zero = { count: 0, p50: null, p90: null, p95: null, p99: null, max: null };
    expect(LatencyHistogram.empty().summary()).toEqual(zero);
    expect(mergeLatency([]).summary()).toEqual(zero);
    expect(LatencyHistogram.decode(LatencyHistogram.empty().encode()).summary()).toEqual(zero);
  });
});
