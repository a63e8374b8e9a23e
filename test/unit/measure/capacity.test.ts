// The capacity review's knee rule, on reports built from hand-made histories (the real measure path).
import { describe, expect, it } from 'vitest';
import type { OpOutcome } from '../../../src/core/history.ts';
import { breaksAway, buildCapacityReview, capacityPoint } from '../../../src/measure/capacity.ts';
import type { ProfileReport } from '../../../src/measure/run-report.ts';
import { buildProfileReport } from '../../../src/measure/verdict.ts';
import { history, series } from './fixtures.ts';

/** `count` ops of `dur` ms each, 100 ms apart, outcomes cycled from `pattern`. */
function report(name: string, count: number, dur: number, pattern: OpOutcome[] = ['ok']): ProfileReport {
  return buildProfileReport({
    name,
    seed: 1,
    policy: 'resilient',
    history: history({ ops: series(name, 0, count, 100, pattern, dur) }),
    expect: [],
    decisionLogSha256: 'x',
  });
}

const level = (n: number, control: ProfileReport, faulted: ProfileReport) => ({ level: n, control, faulted });

describe('capacity knee rule', () => {
  it('finds the lowest level where the faulted p99 is over 2x the control', () => {
    const review = buildCapacityReview({
      profile: 'p',
      mode: 'concurrency',
      levels: [
        level(16, report('c16', 20, 10), report('f16', 20, 50)),
        level(1, report('c1', 20, 10), report('f1', 20, 15)),
        level(4, report('c4', 20, 10), report('f4', 20, 21)),
      ],
    });
    expect(review.levels.map((l) => l.level)).toEqual([1, 4, 16]);
    expect(review.levels[0].breaks).toEqual([]);
    expect(review.knee?.level).toBe(4);
    expect(review.knee?.reasons).toEqual(['p99 21 ms > 2× control 10 ms']);
    expect(review.kneeText).toMatch(/^knee at 4 ops in flight: p99 21 ms > 2× control 10 ms$/);
    expect(review.ruleText).toContain('over 2× the control');
  });

  it('finds a knee by success: more than 5 points below the control', () => {
    // 1 in 20 failing is 5 points (not over); 1 in 10 is 10 points.
    const five = breaksAway(
      capacityPoint(report('c', 20, 10)),
      capacityPoint(report('f', 20, 10, [...Array(19).fill('ok'), 'fail'])),
      { p99Ratio: 2, successDropPoints: 5 },
    );
    expect(five).toEqual([]);
    const ten = breaksAway(
      capacityPoint(report('c', 20, 10)),
      capacityPoint(report('f', 20, 10, [...Array(9).fill('ok'), 'fail'])),
      { p99Ratio: 2, successDropPoints: 5 },
    );
    expect(ten).toEqual(['success 90.0% is 10.0 points below control 100.0%']);
  });

  it('says no knee was found when every level holds, and names the levels tried', () => {
    const review = buildCapacityReview({
      profile: 'p',
      mode: 'rate',
      levels: [
        level(10, report('c', 10, 10), report('f', 10, 12)),
        level(50, report('c', 10, 10), report('f', 10, 19)),
      ],
    });
    expect(review.knee).toBeNull();
    expect(review.kneeText).toBe(
      'no knee found at the levels tried (10, 50 ops/s offered): the faulted runs stayed within the rule',
    );
  });

  it('a level with a run without ops is n/a, never the knee, and never reads as 0', () => {
    const review = buildCapacityReview({
      profile: 'p',
      mode: 'concurrency',
      levels: [level(1, report('c', 10, 10), report('f', 0, 10)), level(2, report('c', 10, 10), report('f', 10, 11))],
    });
    const empty = review.levels[0];
    expect(empty.breaks).toBeNull();
    expect(empty.faulted.p99).toBeNull();
    expect(empty.faulted.successRate).toBeNull();
    expect(empty.faulted.attemptsPerOp).toBeNull();
    expect(review.knee).toBeNull();
    expect(review.kneeText).toContain('1 level(s) n/a');
    const none = buildCapacityReview({
      profile: 'p',
      mode: 'concurrency',
      levels: [level(1, report('c', 0, 10), report('f', 0, 10))],
    });
    expect(none.knee).toBeNull();
    expect(none.kneeText).toMatch(/^no knee: no level could be compared/);
  });

  it('a stricter rule moves the knee (the limits are the rule)', () => {
    const levels = [level(1, report('c', 20, 10), report('f', 20, 15))];
    expect(buildCapacityReview({ profile: 'p', mode: 'concurrency', levels }).knee).toBeNull();
    const strict = buildCapacityReview({
      profile: 'p',
      mode: 'concurrency',
      levels,
      rule: { p99Ratio: 1.2, successDropPoints: 5 },
    });
    expect(strict.knee?.level).toBe(1);
  });

  it('effects are n/a where the target cannot see them', () => {
    const r = report('f', 10, 10);
    // As computeMetrics leaves them on such a target.
    Object.assign(r.metrics, {
      effectsObservable: false,
      duplicateEffects: null,
      ghostEffects: null,
      lostEffects: null,
      unattributedEffects: null,
    });
    const p = capacityPoint(r);
    expect([p.duplicates, p.ghosts, p.lost]).toEqual([null, null, null]);
    expect(capacityPoint(report('g', 10, 10)).duplicates).toBe(0);
  });

  it('ok ops/s counts only ops that ended ok, over the workload time', () => {
    // 10 ops 100 ms apart of 10 ms: 0 to 910 ms; half ok.
    const p = capacityPoint(report('f', 10, 10, ['ok', 'fail']));
    expect(p.okOpsPerSec).toBeCloseTo(5 / 0.91, 1);
    expect(p.successRate).toBe(0.5);
  });

  it('notes a level whose no-fault control already failed or retried (a degraded baseline)', () => {
    const review = buildCapacityReview({
      profile: 'p',
      mode: 'concurrency',
      levels: [
        level(1, report('c1', 10, 10), report('f1', 10, 10)),
        level(8, report('c8', 10, 10, [...Array(9).fill('ok'), 'fail']), report('f8', 10, 10)),
      ],
    });
    expect(review.notes).toEqual([
      'the control at 8 was not clean (90.0% success, 1 attempts/op with no fault): saturated without faults',
    ]);
  });
});
