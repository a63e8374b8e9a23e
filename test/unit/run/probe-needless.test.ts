// The open-model rate probe runs only where calls at the workload's rate could queue (run/calibrate.ts
// PROBE_UTILIZATION): the rate times the idle pings' p95 is the share of each second a call keeps the pair busy.
import { describe, expect, it } from 'vitest';
import type { CalibrationSample } from '../../../src/measure/calibration.ts';
import { PROBE_UTILIZATION, probeNeedless } from '../../../src/run/calibrate.ts';

const idle = (p95Ms: number | undefined, timedOut = 0): CalibrationSample => ({
  calls: 20,
  timedOut,
  ...(p95Ms !== undefined && { p50Ms: p95Ms, p95Ms, maxMs: p95Ms }),
});

describe('probeNeedless', () => {
  it('skips the probe on a pair whose idle calls leave it idle most of each second, and says why', () => {
    expect(PROBE_UTILIZATION).toBe(0.25);
    expect(probeNeedless({ intendedRate: 20 }, idle(4))).toEqual({
      model: 'open',
      intendedRate: 20,
      calls: 0,
      timedOut: 0,
      durationMs: 0,
      skipped:
        'not needed: 20/s x the idle p95 of 4 ms keeps the pair busy 8% of the time at most, under 25%: calls at this rate cannot queue',
    });
  });

  it('says the busy share as an upper bound that reads under the limit: rounded up, with decimals only near it', () => {
    const share = (rate: number, p95Ms: number) =>
      /busy (.+) of the time at most/.exec(probeNeedless({ intendedRate: rate }, idle(p95Ms))?.skipped ?? '')?.[1];
    expect(share(7, 10)).toBe('7%'); // 7.000000000000001 in floating point, not 8%
    expect(share(5, 35)).toBe('18%'); // 17.5
    expect(share(20, 12.3)).toBe('24.6%'); // not 25%, beside "under 25%"
    expect(share(20, 12.48)).toBe('24.96%');
    expect(share(20, 12.4999)).toBe('just under 25%');
    expect(probeNeedless({ intendedRate: 20 }, idle(12.5))).toBeUndefined(); // 25% itself: the probe runs
  });

  it('skips a one-worker closed model (one call in flight, back to back, as the idle pings), never more workers', () => {
    expect(probeNeedless({ concurrency: 1 }, idle(4))).toEqual({
      model: 'closed',
      concurrency: 1,
      calls: 0,
      timedOut: 0,
      durationMs: 0,
      skipped: 'not needed: one call in flight at a time, back to back, as the idle pings were sent',
    });
    expect(probeNeedless({ concurrency: 2 }, idle(4))).toBeUndefined();
    expect(probeNeedless({ concurrency: 1 }, idle(4, 1))).toBeUndefined();
  });

  it('runs it from a quarter of each second on (a busy machine slows the idle pings), or when an idle ping timed out', () => {
    expect(probeNeedless({ intendedRate: 20 }, idle(12.4))).toBeDefined();
    expect(probeNeedless({ intendedRate: 20 }, idle(12.5))).toBeUndefined();
    expect(probeNeedless({ intendedRate: 100 }, idle(2.4))).toBeDefined();
    expect(probeNeedless({ intendedRate: 100 }, idle(2.5))).toBeUndefined();
    expect(probeNeedless({ intendedRate: 20 }, idle(4, 1))).toBeUndefined();
    expect(probeNeedless({ intendedRate: 20 }, idle(undefined))).toBeUndefined();
  });
});
