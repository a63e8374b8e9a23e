import { describe, expect, it } from 'vitest';
import { buildProfileReport, buildRunReport, worstVerdict } from '../../../src/measure/verdict.ts';
import { EVIL, sampleRun } from '../report/fixtures.ts';
import { effect, fault, history, op, series } from './fixtures.ts';

describe('buildProfileReport / buildRunReport', () => {
  const run = sampleRun();
  const [good, bad] = run.profiles;

  it('passes a profile whose thresholds all hold and fails one that breaks any', () => {
    expect(good.verdict).toBe('pass');
    expect(good.thresholds.every((t) => t.ok)).toBe(true);
    expect(bad.verdict).toBe('fail');
    // The profile's three, then the implicit `unattributed_effects == 0 or n/a`.
    expect(bad.thresholds.map((t) => t.ok)).toEqual([false, false, true, true]);
    expect(bad.thresholds.map((t) => t.implicit === true)).toEqual([false, false, false, true]);
    expect(run.verdict).toBe('fail');
    expect(bad.name).toBe(EVIL);
  });

  const judged = (h = history({ ops: [op('a', 0, 1)] }), extra = {}) =>
    buildProfileReport({
      name: 'v',
      seed: 1,
      policy: 'resilient',
      history: h,
      expect: ['ops >= 1'],
      decisionLogSha256: '',
      ...extra,
    });

  it('fails a run with an effect no op claims unless the profile sets its own unattributed_effects bound', () => {
    const stray = history({ ops: [op('a', 0, 1)], effects: [effect(undefined, { argsKey: 'nobody' })] });
    const fails = judged(stray);
    expect(fails.verdict).toBe('fail');
    expect(fails.thresholds.find((t) => t.implicit)).toMatchObject({
      expr: 'unattributed_effects == 0 or n/a',
      actual: 1,
    });
    const optedOut = judged(stray, { expect: ['ops >= 1', 'unattributed_effects <= 1'] });
    expect(optedOut.verdict).toBe('pass');
    expect(optedOut.thresholds.some((t) => t.implicit)).toBe(false);
    // A target whose effects cannot be seen has nothing to attribute: n/a, allowed.
    expect(judged(history({ ops: [op('a', 0, 1)], effectsObservable: false })).verdict).toBe('pass');
    expect(judged().notes).not.toContain('no thresholds: the verdict passes by default');
    expect(judged(undefined, { expect: [] }).notes).toContain('no thresholds: the verdict passes by default');
  });

  it('fails a profile with an error even when thresholds hold', () => {
    expect(judged(undefined, { error: 'server crashed' }).verdict).toBe('fail');
    expect(judged().verdict).toBe('pass');
  });

  it('is inert when a fault window hit nothing, naming the window, unless the profile allows it', () => {
    const withHits = (hits: number | null, mayNotHit = false) =>
      history({
        faults: [{ ...fault('f0-dependency-status', 1000, 2000), hits, mayNotHit }],
        ops: series('x', 0, 30, 100),
      });
    expect(judged(withHits(0))).toMatchObject({
      verdict: 'inert',
      verdictReason: 'fault window f0-dependency-status hit nothing',
    });
    expect(judged(withHits(0)).metrics.faultWindows).toEqual([
      {
        fault: 'f0-dependency-status',
        seam: 'dependency',
        kind: 'http-5xx',
        onAtMs: 1000,
        offAtMs: 2000,
        hits: 0,
        mayNotHit: false,
        window: { kind: 'time' }, // a history window without one was timed
      },
    ]);
    expect(judged(withHits(0, true)).verdict).toBe('pass');
    expect(judged(withHits(3)).verdict).toBe('pass');
    // A seam that cannot count (null) is not proof of an inert fault; it shows as n/a in fault_hits_min.
    expect(judged(withHits(null)).verdict).toBe('pass');
  });

  it('is interrupted when the run says so', () => {
    expect(judged(undefined, { interrupted: true }).verdict).toBe('interrupted');
  });

  it('takes the most serious profile verdict for the run', () => {
    expect(worstVerdict(['pass', 'inconclusive', 'inert'])).toBe('inert');
    expect(worstVerdict(['pass', 'fail', 'inert'])).toBe('fail');
    expect(worstVerdict(['fail', 'interrupted'])).toBe('interrupted');
    expect(worstVerdict(['pass', 'inconclusive'])).toBe('inconclusive');
    expect(worstVerdict(['pass'])).toBe('pass');
  });

  it('writes notes a reader needs', () => {
    expect(bad.notes).toContain(`recovery of fault window ${EVIL}: the fault was never removed`);
    expect(bad.notes).toContain('no canaries given: the leak scan did not run');
    expect(good.notes).not.toContain('no canaries given: the leak scan did not run');
    const quiet = buildProfileReport({
      name: 'q',
      seed: 1,
      policy: 'none',
      history: history({ ops: [op('a', 0, 1)] }),
      expect: [],
      decisionLogSha256: '',
    });
    expect(quiet.notes).toEqual(
      expect.arrayContaining([
        'no thresholds: the verdict passes by default',
        'retry_success_rate is n/a: no op had a failed attempt',
      ]),
    );
  });

  it('fills the run header', () => {
    expect(run).toMatchObject({ schemaVersion: 2, faultline: '0.1.0', seed: 7, durationMs: 9000 });
    expect(run.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(buildRunReport({ seed: 1, startedAt: 'x', durationMs: 0, profiles: [good] }).verdict).toBe('pass');
  });
});

describe('a machine too slow for the schedule', () => {
  const run = (pre: ReturnType<typeof op>[]) =>
    buildProfileReport({
      name: 'slow',
      seed: 1,
      policy: 'resilient',
      history: history({
        endMs: history().startMs + 10_000,
        faults: [fault('f1', 500, 1000)],
        ops: [...pre, ...series('post', 1000, 30, 100)],
      }),
      expect: ['recovery_ms <= 500'],
      decisionLogSha256: '',
    });

  it('fails when too few ops finished before the fault, even if enough had started: an n/a is never excused', () => {
    // Six ops started in the first 500 ms; on a loaded machine only two of them finished before the fault.
    const slow = run([
      op('a', 0, 100),
      op('b', 80, 300),
      ...['c', 'd', 'e', 'f'].map((id, i) => op(id, 200 + i * 50, 900)),
    ]);
    expect(slow.verdict).toBe('fail');
    expect(slow.thresholds[0]).toMatchObject({ metric: 'recovery_ms', status: 'na-fail', actual: null });
  });

  it('fails when the profile itself put too few ops before the fault', () => {
    expect(run([op('a', 0, 100), op('b', 100, 200)]).verdict).toBe('fail');
  });
});
