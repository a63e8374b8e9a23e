// The chaos matchers on synthetic reports (no processes): exact failure messages with the ops, windows and replay
// line, the negated messages, and passing cases that pass.
import { describe, expect, it } from 'vitest';
import type { ProfileReport } from '../../../src/measure/run-report.ts';
import type { FaultWindowReport, Metrics, RecoveryWindow } from '../../../src/measure/types.ts';
import '../../../src/vitest/index.ts';
import { sampleRun } from '../report/fixtures.ts';

function report(metrics: Partial<Metrics> = {}, rest: Partial<ProfileReport> = {}): ProfileReport {
  return {
    name: 'dependency-5xx',
    file: 'chaos-profiles/dependency-5xx.yaml',
    seed: 7,
    policy: 'naive',
    verdict: 'fail',
    thresholds: [],
    decisionLogSha256: 'a'.repeat(64),
    notes: [],
    metrics: {
      effectsObservable: true,
      duplicateEffects: 0,
      reconciliation: {
        effects: 12,
        byTraceId: 12,
        byArgsKey: 0,
        duplicateOps: [],
        ghostOps: [],
        lostOps: [],
        infoWithEffectOps: [],
        unattributedSeqs: [],
      },
      recovery: [],
      faultWindows: [],
      ...metrics,
    } as Metrics,
    ...rest,
  };
}

const REPLAY =
  '\n  profile dependency-5xx (policy naive, seed 7, verdict fail)\n  replay: faultline run chaos-profiles/dependency-5xx.yaml --seed 7 --policy naive';

/** The message of the assertion error `assert` throws; fails the test when it throws none. */
function failure(assert: () => void): string {
  try {
    assert();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the assertion to fail');
}

function reconciliation(ops: { duplicateOps?: string[]; ghostOps?: string[]; lostOps?: string[] }) {
  return { ...report().metrics.reconciliation, ...ops };
}

function recovery(fault: string, status: RecoveryWindow['status'], recoveryMs: number | null, note?: string) {
  return { fault, kind: 'status', seam: 'dependency', status, recoveryMs, note } as RecoveryWindow;
}

function window(fault: string, kind: string, hits: number | null): FaultWindowReport {
  return { fault, seam: 'dependency', kind, onAtMs: 500, offAtMs: 2000, hits, mayNotHit: false };
}

describe('toHaveNoDuplicateEffects', () => {
  it('passes when no op took effect twice, and accepts runProfile results', () => {
    expect(report()).toHaveNoDuplicateEffects();
    expect({ report: report(), history: {} }).toHaveNoDuplicateEffects();
  });

  it('names the duplicated ops and the replay command', () => {
    const dup = report({ duplicateEffects: 3, reconciliation: reconciliation({ duplicateOps: ['op-3', 'op-9'] }) });
    expect(failure(() => expect(dup).toHaveNoDuplicateEffects())).toBe(
      `expected no duplicate effects, but 2 op(s) took effect more than once (duplicate_effects 3): op-3, op-9${REPLAY}`,
    );
  });

  it('shows at most ten op ids', () => {
    const ids = Array.from({ length: 13 }, (_, i) => `op-${i}`);
    const dup = report({ duplicateEffects: 13, reconciliation: reconciliation({ duplicateOps: ids }) });
    expect(failure(() => expect(dup).toHaveNoDuplicateEffects())).toContain(
      ': op-0, op-1, op-2, op-3, op-4, op-5, op-6, op-7, op-8, op-9, … (3 more)\n',
    );
  });

  it('fails when effects cannot be seen, instead of passing on nothing', () => {
    expect(failure(() => expect(report({ effectsObservable: false })).toHaveNoDuplicateEffects())).toBe(
      `expected no duplicate effects, but effects are not observable on this target (duplicate_effects is n/a)${REPLAY}`,
    );
  });

  it('says so when negated and there are none', () => {
    expect(failure(() => expect(report()).not.toHaveNoDuplicateEffects())).toBe(
      `expected duplicate effects, but every op took effect at most once (12 effects)${REPLAY}`,
    );
  });

  it('replays a profile defined in code with runProfile', () => {
    const dup = report(
      { duplicateEffects: 1, reconciliation: reconciliation({ duplicateOps: ['op-1'] }) },
      { file: 'defineProfile(dependency-5xx)', policy: 'resilient', verdict: 'pass' },
    );
    expect(failure(() => expect(dup).toHaveNoDuplicateEffects())).toMatch(
      /\n {2}profile dependency-5xx \(policy resilient, seed 7, verdict pass\)\n {2}replay: runProfile\(profile, \{ seed: 7, policy: 'resilient' \}\)$/,
    );
  });
});

describe('toHaveExactlyOnceEffects', () => {
  it('passes when effects reconcile', () => {
    expect(report()).toHaveExactlyOnceEffects();
  });

  it('lists duplicate, ghost and lost ops', () => {
    const r = report({
      duplicateEffects: 1,
      reconciliation: reconciliation({ duplicateOps: ['op-1'], ghostOps: ['op-2', 'op-5'], lostOps: ['op-7'] }),
    });
    expect(failure(() => expect(r).toHaveExactlyOnceEffects())).toBe(
      'expected every op to take effect exactly once as reported, but:\n' +
        '  duplicate (more than one effect): op-1\n' +
        '  ghost (failed, yet took effect): op-2, op-5\n' +
        `  lost (succeeded, no effect): op-7${REPLAY}`,
    );
  });

  it('finds the duplicate and the ghost in a report built from a history', () => {
    const naive = sampleRun().profiles[1];
    const message = failure(() => expect(naive).toHaveExactlyOnceEffects());
    expect(message).toContain('duplicate (more than one effect): b1\n');
    expect(message).toContain('ghost (failed, yet took effect): b2\n');
  });
});

describe('toRecoverWithin', () => {
  it('passes when every window recovered in time', () => {
    expect(report({ recovery: [recovery('f0-status', 'recovered', 420)] })).toRecoverWithin(1000);
  });

  it('lists every window, marking the late and the unmeasured', () => {
    const r = report({
      recovery: [
        recovery('f0-status', 'recovered', 420),
        recovery('f1-status', 'recovered', 1800),
        recovery('f2-status', 'not-measured', null, 'only 2 ops after the fault'),
      ],
    });
    expect(failure(() => expect(r).toRecoverWithin(1000))).toBe(
      'expected every fault window to recover within 1000 ms, but 2 of 3 did not:\n' +
        '  ✓ f0-status (dependency/status): recovered in 420 ms\n' +
        '  ✗ f1-status (dependency/status): recovered in 1800 ms\n' +
        `  ✗ f2-status (dependency/status): not-measured (only 2 ops after the fault)${REPLAY}`,
    );
  });

  it('fails without a fault window', () => {
    expect(failure(() => expect(report()).toRecoverWithin(1000))).toBe(
      `expected recovery within 1000 ms, but the run had no fault window${REPLAY}`,
    );
  });
});

describe('toMeetThresholds', () => {
  const held = { expr: 'retry_success_rate >= 0.99', metric: 'retry_success_rate', op: '>=', target: 0.99 } as const;
  const dup = { expr: 'duplicate_effects == 0', metric: 'duplicate_effects', op: '==', target: 0 } as const;

  it('passes when every threshold held and the verdict is pass', () => {
    expect(
      report({}, { verdict: 'pass', thresholds: [{ ...held, actual: 1, ok: true, status: 'pass' }] }),
    ).toMeetThresholds();
  });

  it('lists the thresholds and the ops behind the failed effect metrics', () => {
    const r = report(
      { duplicateEffects: 2, reconciliation: reconciliation({ duplicateOps: ['op-4', 'op-8'] }) },
      {
        thresholds: [
          { ...held, actual: 1, ok: true, status: 'pass' },
          { ...dup, actual: 2, ok: false, status: 'fail' },
        ],
      },
    );
    expect(failure(() => expect(r).toMeetThresholds())).toBe(
      "expected the profile's thresholds to hold, but 1 of 2 failed:\n" +
        '  ✓ retry_success_rate >= 0.99 (actual 1)\n' +
        '  ✗ duplicate_effects == 0 (actual 2)\n' +
        `  duplicate (more than one effect): op-4, op-8${REPLAY}`,
    );
  });

  it('shows why a metric had no value', () => {
    const recoveryMs = { expr: 'recovery_ms <= 1000', metric: 'recovery_ms', op: '<=', target: 1000 } as const;
    const r = report(
      {},
      {
        thresholds: [
          { ...recoveryMs, actual: null, ok: false, status: 'na-fail', na: true, reason: 'never recovered' },
        ],
      },
    );
    expect(failure(() => expect(r).toMeetThresholds())).toBe(
      "expected the profile's thresholds to hold, but 1 of 1 failed:\n" +
        `  ✗ recovery_ms <= 1000 (n/a: never recovered)${REPLAY}`,
    );
  });

  it('fails an inert run whose thresholds held', () => {
    const r = report(
      {},
      {
        verdict: 'inert',
        verdictReason: 'fault window f0-status hit nothing',
        thresholds: [{ ...held, actual: 1, ok: true, status: 'pass' }],
      },
    );
    expect(failure(() => expect(r).toMeetThresholds())).toBe(
      "expected the profile's thresholds to hold, but they held, but the verdict is inert (fault window f0-status hit nothing), so they prove nothing:\n" +
        '  ✓ retry_success_rate >= 0.99 (actual 1)\n' +
        '  profile dependency-5xx (policy naive, seed 7, verdict inert)\n' +
        '  replay: faultline run chaos-profiles/dependency-5xx.yaml --seed 7 --policy naive',
    );
  });

  it('fails a profile without thresholds and a run that errored', () => {
    expect(failure(() => expect(report({}, { verdict: 'pass' })).toMeetThresholds())).toBe(
      `expected the profile's thresholds to hold, but the profile has no thresholds (its expect: list is empty)${REPLAY.replace('fail', 'pass')}`,
    );
    expect(failure(() => expect(report({}, { error: 'server did not start' })).toMeetThresholds())).toBe(
      `expected the profile's thresholds to hold, but the run failed: server did not start${REPLAY}`,
    );
  });
});

describe('toHaveHit', () => {
  const r = report({ faultWindows: [window('f0-status', 'status', 14), window('f1-hang', 'hang', 0)] });

  it('passes for a window that hit, by id, kind or seam/kind', () => {
    expect(r).toHaveHit('f0-status');
    expect(r).toHaveHit('status');
    expect(r).toHaveHit('dependency/status');
  });

  it('names the window that hit nothing', () => {
    expect(failure(() => expect(r).toHaveHit('hang'))).toBe(
      `expected fault hang to hit, but 1 of 1 window(s) did not:\n  ✗ f1-hang (dependency/hang): 0 hit(s)${REPLAY}`,
    );
  });

  it('fails when the seam could not count hits', () => {
    const uncounted = report({ faultWindows: [window('f0-crash', 'crash', null)] });
    expect(failure(() => expect(uncounted).toHaveHit('crash'))).toBe(
      `expected fault crash to hit, but 1 of 1 window(s) did not:\n  ✗ f0-crash (dependency/crash): hits not counted (its seam cannot count them)${REPLAY}`,
    );
  });

  it('lists the windows there are when none matches', () => {
    expect(failure(() => expect(r).toHaveHit('latency'))).toBe(
      `expected fault latency to hit, but the run has no such window (windows: f0-status (dependency/status), f1-hang (dependency/hang))${REPLAY}`,
    );
  });

  it('says how often it hit when negated', () => {
    expect(failure(() => expect(r).not.toHaveHit('f0-status'))).toBe(
      `expected fault f0-status not to hit, but it did:\n  ✓ f0-status (dependency/status): 14 hit(s)${REPLAY}`,
    );
  });
});

describe('what the matchers accept', () => {
  it('refuses something that is not a report, saying what it got', () => {
    expect(failure(() => expect({ ops: 3 }).toHaveNoDuplicateEffects())).toBe(
      "expected runProfile's result or a profile report (with metrics and thresholds), got an object with keys ops",
    );
  });
});
