import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../src/core/history.ts';
import { type RetryAfterViolation, retryAfterViolations } from '../../../src/measure/retry-after.ts';
import { attempt, fed, history, op } from './fixtures.ts';

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

  it('is counted the same as the run goes (attempts held until their op ends, orphans at the end)', () => {
    const tries = fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 400 }),
        dur: fc.integer({ min: 0, max: 200 }),
        ok: fc.boolean(),
        advice: fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined }),
      }),
      { maxLength: 4 },
    );
    const key = (v: RetryAfterViolation) => `${v.opId}/${v.attempt}/${v.earlyByMs}`;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(tries, fc.boolean()), { maxLength: 40 }),
        fc.constantFrom(0, 1, 50),
        (raw, tolerance) => {
          const attempts: AttemptRecord[] = [];
          const ops = raw.flatMap(([list, ended], i) => {
            let t = 0;
            list.forEach((a, n) => {
              const extra = a.advice === undefined ? {} : { retryAfterMs: a.advice };
              attempts.push(attempt(`op-${i}`, n + 1, t + a.gap, t + a.gap + a.dur, a.ok, extra));
              t += a.gap + a.dur;
            });
            return ended ? [op(`op-${i}`, 0, t)] : [];
          });
          const h = history({ attempts, ops });
          const streamed = fed(h, { retryAfterToleranceMs: tolerance }).retryAfter;
          expect(streamed.map(key).sort()).toEqual(retryAfterViolations(h, tolerance).map(key).sort());
        },
      ),
      { seed: 29, numRuns: 200 },
    );
  });
});
