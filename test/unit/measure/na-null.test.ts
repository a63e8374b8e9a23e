// n/a is null in the data: computeMetrics leaves every ratio and effect count null exactly when it has nothing to
// measure, and a number otherwise (the rule test/helpers/report-shape.ts checks on every shipped profile's report).
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { naViolations } from '../../helpers/report-shape.ts';
import { attempt, effect, history, op } from './fixtures.ts';

describe('n/a is null in the data', () => {
  it('an empty run: no ops, nothing timed, no canary: every ratio and percentile is null', () => {
    const m = computeMetrics(history());
    expect(naViolations(m)).toEqual([]);
    expect([m.errorRate, m.retrySuccessRate, m.latencyMs.p99, m.attemptsPerOp.mean, m.leaks]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    // Effects were observable (the reference ledger): 0 is a measured 0 there.
    expect(m.duplicateEffects).toBe(0);
  });

  it('effects that cannot be seen leave the effect counts null, not a lost effect per ok op', () => {
    const h = history({ ops: [op('a', 0, 10)], effectsObservable: false });
    const m = computeMetrics(h);
    expect([m.duplicateEffects, m.ghostEffects, m.lostEffects, m.unattributedEffects]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(naViolations(m)).toEqual([]);
  });

  it('a measured run has numbers where it measured, and the rule fires on a guessed value (negative control)', () => {
    const h = history({
      ops: [op('a', 0, 10)],
      attempts: [attempt('a', 1, 0, 10, true)],
      effects: [effect('a', {}, 5)],
    });
    const m = computeMetrics(h, { canaries: { token: 'CANARY-1' } });
    expect(naViolations(m)).toEqual([]);
    expect(m.leaks).toBe(0);
    expect(m.errorRate).toBe(0);
    expect(naViolations({ ...m, retrySuccessRate: 1 })).toEqual(['retrySuccessRate is 1 but its source is absent']);
    expect(naViolations({ ...m, selfCorrectionRate: 1, mistakeOpsJudged: 0 })).toEqual([
      'selfCorrectionRate is 1 but its source is absent',
    ]);
    expect(naViolations({ ...m, effectsObservable: false })).toHaveLength(4);
  });
});
