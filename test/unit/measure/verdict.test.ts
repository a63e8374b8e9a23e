import { describe, expect, it } from 'vitest';
import { buildProfileReport, buildRunReport, verdictOf } from '../../../src/measure/verdict.ts';
import { EVIL, sampleRun } from '../report/fixtures.ts';
import { history, op } from './fixtures.ts';

describe('buildProfileReport / buildRunReport', () => {
  const run = sampleRun();
  const [good, bad] = run.profiles;

  it('passes a profile whose thresholds all hold and fails one that breaks any', () => {
    expect(good.verdict).toBe('pass');
    expect(good.thresholds.every((t) => t.ok)).toBe(true);
    expect(bad.verdict).toBe('fail');
    expect(bad.thresholds.map((t) => t.ok)).toEqual([false, false, true]);
    expect(run.verdict).toBe('fail');
    expect(bad.name).toBe(EVIL);
  });

  it('fails a profile with an error even when thresholds hold', () => {
    expect(verdictOf([], 'server crashed')).toBe('fail');
    expect(verdictOf([])).toBe('pass');
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
