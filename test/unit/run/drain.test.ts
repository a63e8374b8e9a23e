// The drain against a fake server: it waits for every handler to end and then for the settle period, stops at the
// limit with the reason, and says when the target cannot tell.
import { describe, expect, it } from 'vitest';
import { epochMs } from '../../../src/core/clock.ts';
import { drain } from '../../../src/run/drain.ts';

/** A server whose handlers finish at `doneAtMs` after now, with an effect then. */
function finishingAt(doneAfterMs: number) {
  const done = epochMs() + doneAfterMs;
  return {
    asked: 0,
    async quiescence() {
      this.asked++;
      const now = epochMs();
      return now < done
        ? { inFlight: 1, idleMs: 0, lastEffectAtMs: null }
        : { inFlight: 0, idleMs: now - done, lastEffectAtMs: done };
    },
  };
}

describe('drain', () => {
  it('waits until no handler runs, then the settle period', async () => {
    const server = finishingAt(150);
    const result = await drain(server, { settleMs: 100, limitMs: 5000 });
    expect(result.unsettled).toBeUndefined();
    expect(result.observable).toBe(true);
    expect(result.drainMs).toBeGreaterThanOrEqual(240); // 150 running + 100 quiet, timer tolerance
    expect(result.drainMs).toBeLessThan(2000);
    expect(server.asked).toBeGreaterThan(1);
  });

  it('a quiet server drains at once', async () => {
    const result = await drain(finishingAt(-1000), { settleMs: 200, limitMs: 5000 });
    expect(result).toEqual({ drainMs: expect.any(Number), observable: true });
    expect(result.drainMs).toBeLessThan(100);
  });

  it('past the limit it did not settle, and says why', async () => {
    const result = await drain(finishingAt(60_000), { settleMs: 100, limitMs: 200 });
    expect(result.unsettled).toMatch(
      /did not settle within the drain limit of 200 ms: 1 tool handler\(s\) still running/,
    );
    expect(result.drainMs).toBeGreaterThanOrEqual(190);
  });

  it('a target that cannot tell is not awaited', async () => {
    const result = await drain({ quiescence: async () => undefined }, { settleMs: 100, limitMs: 200 });
    expect(result).toEqual({ drainMs: expect.any(Number), observable: false });
  });
});
