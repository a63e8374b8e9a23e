import { describe, expect, it } from 'vitest';
import type { History } from '../../../src/core/history.ts';
import { attempt, fed, history } from './fixtures.ts';

// Fed as a run feeds them (each op's attempts together; these ops never ended, so at the end).
const retryAfterViolations = (h: History, toleranceMs?: number) =>
  fed(h, toleranceMs === undefined ? {} : { retryAfterToleranceMs: toleranceMs }).retryAfter;

describe('retryAfterViolations', () => {
  it('flags a retry that starts before the advised delay ran out', () => {
    const h = history({
      attempts: [
        // advised 500 ms at 100: the retry at 400 is 200 ms early
        attempt('early', 1, 0, 100, false, { retryAfterMs: 500 }),
        attempt('early', 2, 400, 450, true),
        // honoured: retry at exactly 100 + 500
        attempt('patient', 1, 0, 100, false, { retryAfterMs: 500 }),
        attempt('patient', 2, 600, 650, true),
        // no advice: any delay is fine
        attempt('free', 1, 0, 100, false),
        attempt('free', 2, 101, 150, true),
        // the third attempt ignores the second's advice; records given out of order
        attempt('third', 3, 260, 300, true),
        attempt('third', 1, 0, 100, false, { retryAfterMs: 50 }),
        attempt('third', 2, 150, 200, false, { retryAfterMs: 1000 }),
      ],
    });
    const v = retryAfterViolations(h);
    expect(v).toEqual([
      { opId: 'early', attempt: 2, earlyByMs: 200 },
      { opId: 'third', attempt: 3, earlyByMs: 940 },
    ]);
  });

  it('allows the clock tolerance', () => {
    const h = history({
      attempts: [attempt('x', 1, 0, 100, false, { retryAfterMs: 500 }), attempt('x', 2, 599.5, 650, true)],
    });
    expect(retryAfterViolations(h)).toHaveLength(0);
    expect(retryAfterViolations(h, 0)).toHaveLength(1);
  });
});
