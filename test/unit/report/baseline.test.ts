import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/measure/run-report.ts';
import { buildBaseline, compareWithBaseline } from '../../../src/report/baseline.ts';
import { type BaselineFile, DEFAULT_TOLERANCES, parseBaseline } from '../../../src/report/baseline-file.ts';
import { EVIL, sampleRun } from './fixtures.ts';

const kinds = (run: RunReport, baseline: BaselineFile) =>
  compareWithBaseline(run, baseline, 'b.json').findings.map(
    (f) => `${f.profile} ${f.kind} ${f.subject} ${f.ok ? 'ok' : 'FAILS'}`,
  );

describe('baselines', () => {
  const run = sampleRun();
  const baseline = buildBaseline(run);

  it('records each profile with its failing thresholds as known failures and its tolerated metric values', () => {
    expect(baseline.tolerances).toEqual(DEFAULT_TOLERANCES);
    expect(baseline.profiles.map((p) => [p.name, p.policy, p.knownFailures])).toEqual([
      ['good', 'resilient', []],
      [EVIL, 'naive', ['duplicate_effects == 0', 'recovery_ms <= 2000']],
    ]);
    expect(baseline.profiles[0].metrics).toMatchObject({
      retry_success_rate: 1,
      duplicate_effects: 0,
      recovery_ms: 40,
    });
    expect(baseline.profiles[1].metrics.recovery_ms).toBeNull();
    expect(parseBaseline(JSON.stringify(baseline), 'b.json')).toEqual(baseline);
  });

  it('excuses a known failure that still fails: the same run against its own baseline is ok', () => {
    const result = compareWithBaseline(run, baseline, 'b.json');
    expect(result.ok).toBe(true);
    expect(kinds(run, baseline)).toEqual([
      `${EVIL} known-failure duplicate_effects == 0 ok`,
      `${EVIL} known-failure recovery_ms <= 2000 ok`,
    ]);
  });

  it('fails on a failure the baseline does not list', () => {
    const empty = buildBaseline({ ...run, profiles: run.profiles.map((p) => ({ ...p, thresholds: [] })) });
    expect(compareWithBaseline(run, empty, 'b.json').ok).toBe(false);
    expect(kinds(run, empty)).toContain(`${EVIL} new-failure duplicate_effects == 0 FAILS`);
  });

  it('fails on a listed failure that passes now, and on one the profile no longer has', () => {
    const stale = structuredClone(baseline);
    stale.profiles[0].knownFailures = ['retry_success_rate >= 0.99', 'ops > 1000'];
    const result = compareWithBaseline(run, stale, 'b.json');
    expect(result.ok).toBe(false);
    expect(kinds(run, stale)).toEqual(
      expect.arrayContaining(['good fixed retry_success_rate >= 0.99 FAILS', 'good stale ops > 1000 FAILS']),
    );
    expect(result.findings.find((f) => f.kind === 'fixed')?.message).toContain('faultline baseline update');
  });

  it('fails on a metric worse than its tolerance, not on one within it or better', () => {
    const worse = structuredClone(run);
    worse.profiles[0].metrics.latencyMs.p99 = baseline.profiles[0].metrics.latency_p99_ms! * 1.5 + 101;
    expect(kinds(worse, baseline)).toEqual(expect.arrayContaining(['good regression latency_p99_ms FAILS']));
    const within = structuredClone(run);
    within.profiles[0].metrics.latencyMs.p99 = baseline.profiles[0].metrics.latency_p99_ms! * 1.49;
    within.profiles[0].metrics.recovery[0].recoveryMs = 10; // better
    expect(compareWithBaseline(within, baseline, 'b.json').ok).toBe(true);
    const lower = structuredClone(run);
    lower.profiles[0].metrics.retrySuccessRate = 0.97;
    expect(kinds(lower, baseline)).toContain('good regression retry_success_rate FAILS');
  });

  it('counts a metric that was measured and is n/a now as a regression, n/a then as nothing to regress from', () => {
    const na = structuredClone(run);
    na.profiles[0].metrics.retrySuccessRate = null;
    const result = compareWithBaseline(na, baseline, 'b.json');
    expect(result.findings.find((f) => f.subject === 'retry_success_rate')?.message).toBe(
      'retry_success_rate was 100%, now n/a (no op had a failed attempt)',
    );
    const measuredNow = structuredClone(run);
    measuredNow.profiles[1].metrics.recovery[0] = { ...measuredNow.profiles[1].metrics.recovery[0], recoveryMs: 900 };
    expect(kinds(measuredNow, baseline).some((k) => k.includes('regression recovery_ms'))).toBe(false);
  });

  it('never excuses an error or a verdict other than pass and fail', () => {
    const broken = structuredClone(run);
    broken.profiles[0].error = 'server exited 1';
    broken.profiles[1].verdict = 'inert' as never;
    expect(kinds(broken, baseline)).toEqual(
      expect.arrayContaining(['good verdict error FAILS', `${EVIL} verdict inert FAILS`]),
    );
  });

  it('judges an interrupted profile by its verdict alone, not by thresholds it never finished measuring', () => {
    const stopped = structuredClone(run);
    stopped.profiles[0] = { ...stopped.profiles[0], verdict: 'interrupted', verdictReason: 'stopped' };
    stopped.profiles[0].thresholds[0] = { ...stopped.profiles[0].thresholds[0], ok: false, status: 'fail' };
    expect(kinds(stopped, baseline).filter((k) => k.startsWith('good '))).toEqual(['good verdict interrupted FAILS']);
    // The same failed threshold in a run that ended is a new failure.
    stopped.profiles[0].verdict = 'fail';
    expect(kinds(stopped, baseline)).toContain(`good new-failure ${run.profiles[0].thresholds[0].expr} FAILS`);
  });

  it('keeps tolerances and per-profile overrides when it updates a baseline', () => {
    const edited = structuredClone(baseline);
    edited.tolerances = { latency_p99_ms: { worse: 'higher', absolute: 5 } };
    edited.profiles[0].tolerances = { ops: { worse: 'lower', relative: 0.1 } };
    const next = buildBaseline(run, edited);
    expect(next.tolerances).toEqual(edited.tolerances);
    expect(next.profiles[0].tolerances).toEqual(edited.profiles[0].tolerances);
    expect(Object.keys(next.profiles[0].metrics)).toEqual(['latency_p99_ms', 'ops']);
    const fewer = structuredClone(run);
    fewer.profiles[0].metrics.ops = 30;
    expect(kinds(fewer, next)).toContain('good regression ops FAILS');
  });

  it('names the file and the path of a bad baseline', () => {
    expect(() => parseBaseline('{', 'b.json')).toThrow('b.json: not JSON');
    const bad = structuredClone(baseline) as any;
    bad.tolerances.latency_p99 = { worse: 'higher' };
    expect(() => parseBaseline(JSON.stringify(bad), 'b.json')).toThrow(
      /^b\.json: tolerances\.latency_p99: unknown metric/,
    );
  });
});
