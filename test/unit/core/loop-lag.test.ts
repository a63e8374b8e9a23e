import { describe, expect, it } from 'vitest';
import { LoopLagWatch, machineStallMs, worseLag } from '../../../src/core/loop-lag.ts';

const blockFor = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the loop is held: every timer waits
  }
};
const turns = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LoopLagWatch', () => {
  it('sees a stall of the loop (a load can only make it longer), then starts over', async () => {
    const watch = new LoopLagWatch();
    await turns(50);
    blockFor(300);
    await turns(50);
    const stalled = watch.read();
    expect(stalled?.maxMs).toBeGreaterThanOrEqual(250);
    expect(stalled?.samples).toBeGreaterThan(0);
    if (process.platform === 'linux') {
      expect(stalled?.cpuWaitShare).toBeGreaterThanOrEqual(0);
      expect(stalled?.cpuWaitShare).toBeLessThanOrEqual(1);
    }
    await turns(100);
    const after = watch.stop();
    // The 300 ms block is not in the second stretch (a busy machine may stall it, never by the block's length).
    expect(after === undefined || after.maxMs < stalled!.maxMs).toBe(true);
  });

  it('reads nothing before its first sample', () => {
    const watch = new LoopLagWatch();
    expect(watch.stop()).toBeUndefined();
  });
});

describe("the machine's part of a stall", () => {
  const lag = (maxMs: number, cpuWaitShare?: number) => ({ p99Ms: 1, maxMs, samples: 10, cpuWaitShare });

  it('is the stall times the share of ready time spent waiting for a CPU; unknown without that share', () => {
    expect(machineStallMs(lag(1000, 0.25))).toBe(250);
    expect(machineStallMs(lag(1000))).toBeUndefined();
  });

  it('picks the worse of two processes by the machine’s part, not the raw stall', () => {
    const parsing = lag(700, 0.01); // its own 20 MB payload
    const starved = lag(300, 0.6);
    expect(worseLag(parsing, starved)).toBe(starved);
    expect(worseLag(undefined, parsing)).toBe(parsing);
    expect(worseLag(starved, undefined)).toBe(starved);
  });
});
