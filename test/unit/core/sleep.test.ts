// The one sleep: completes with true, is cut short by an abort with false, and clamps what Node cannot time.
import { describe, expect, it } from 'vitest';
import { sleep } from '../../../src/core/sleep.ts';

describe('sleep', () => {
  it('resolves true once the time has passed', async () => {
    const start = performance.now();
    expect(await sleep(30)).toBe(true);
    expect(performance.now() - start).toBeGreaterThanOrEqual(25);
  });

  it('resolves true at once for zero or negative ms', async () => {
    expect(await sleep(0)).toBe(true);
    expect(await sleep(-5)).toBe(true);
  });

  it('resolves false when the signal aborts mid-sleep, and at once when it already has', async () => {
    const abort = new AbortController();
    const pending = sleep(Number.POSITIVE_INFINITY, abort.signal, { unref: true });
    setTimeout(() => abort.abort(), 10);
    expect(await pending).toBe(false);
    expect(await sleep(1000, abort.signal)).toBe(false);
  });
});
