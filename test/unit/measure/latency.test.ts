import { describe, expect, it } from 'vitest';
import { latencySummary } from '../../../src/measure/latency.ts';

/** Nearest-rank percentile, the definition HdrHistogram follows. */
function exact(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('latencySummary', () => {
  it('matches a sorted-array computation within histogram precision', () => {
    const rand = lcg(42);
    // A long-tailed mix: mostly tens of ms, some seconds.
    const samples = Array.from({ length: 5000 }, () => {
      const r = rand();
      return r < 0.9 ? 5 + rand() * 50 : 200 + rand() * 4000;
    });
    const sorted = [...samples].sort((a, b) => a - b);
    const s = latencySummary(samples);
    expect(s.count).toBe(5000);
    for (const p of [50, 90, 95, 99] as const) {
      const want = exact(sorted, p);
      const got = s[`p${p}`];
      // 3 significant digits (0.1%) plus reporting to 0.1 ms.
      expect(Math.abs((got ?? Number.NaN) - want)).toBeLessThanOrEqual(want * 0.001 + 0.05 + 1e-9);
    }
    expect(s.max).toBe(Math.round(sorted[sorted.length - 1] * 10) / 10);
  });

  it('reports known small cases exactly', () => {
    const s = latencySummary([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(s).toEqual({ count: 10, p50: 50, p90: 90, p95: 100, p99: 100, max: 100 });
  });

  it('never reports a percentile above the max and keeps 0.1 ms', () => {
    const s = latencySummary([1234.56]);
    expect(s.p99).toBe(1234.6);
    expect(s.max).toBe(1234.6);
  });

  it('is n/a (null), not a fast 0, without samples', () => {
    expect(latencySummary([])).toEqual({ count: 0, p50: null, p90: null, p95: null, p99: null, max: null });
  });
});
