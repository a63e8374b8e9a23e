import { describe, expect, it } from 'vitest';
import { formatConsoleSummary } from '../../../src/report/console.ts';
import { EVIL, sampleRun } from './fixtures.ts';

describe('formatConsoleSummary', () => {
  const run = sampleRun();

  it('summarises each profile without colours when asked', () => {
    const text = formatConsoleSummary(run, { color: false });
    expect(text).not.toContain('\u001b[');
    expect(text.split('\n')[0]).toMatch(/^Faultline 0\.1\.0 {2}seed 7 {2}2 profile\(s\) .* FAIL$/);
    expect(text).toContain('PASS good (resilient, seed 7)');
    expect(text).toContain(`FAIL ${EVIL} (naive, seed 7)`);
    expect(text).toContain('ops 41  ops_ok 41  ops_fail 0  ops_info 0');
    expect(text).toContain('retried_ops 1  retry_success_rate 100%');
    expect(text).toContain('duplicate_effects 1');
    expect(text).toContain('ghost_effects 1  lost_effects 0');
    expect(text).toContain(`recovery_ms none (fault window ${EVIL}: the fault was never removed)`);
  });

  it('lists each failing threshold with its actual value and no passing one', () => {
    const text = formatConsoleSummary(run, { color: false });
    expect(text).toContain('✗ duplicate_effects == 0: expected duplicate_effects == 0, actual 1');
    expect(text).toContain('✗ recovery_ms <= 2000: expected recovery_ms <= 2000, actual none');
    expect(text).not.toContain('✗ duplicate_effects > 0');
    expect(text.match(/✗/g)).toHaveLength(2);
  });

  it('colours verdicts on a terminal', () => {
    expect(formatConsoleSummary(run, { color: true })).toContain('\u001b[31mFAIL\u001b[0m');
  });

  it('says when the circuit breaker opened and how many ops it failed fast, and nothing when it never acted', () => {
    expect(formatConsoleSummary(run, { color: false })).not.toContain('circuit breaker');
    const withBreaker = structuredClone(run);
    withBreaker.profiles[0].metrics.breakerOpenIntervals = [{ key: 'create_payment', openAtMs: 800, closeAtMs: 2211 }];
    withBreaker.profiles[0].metrics.breakerRejections = 25;
    expect(formatConsoleSummary(withBreaker, { color: false })).toContain(
      'circuit breaker opened 1× (800 ms → 2211 ms), 25 ops failed fast',
    );
  });

  it('labels a control run as a control that fired, not a green PASS, and one that stayed silent', () => {
    const fired = structuredClone(run);
    fired.profiles[1] = {
      ...fired.profiles[1],
      control: true,
      verdict: 'pass',
      thresholds: [run.profiles[1].thresholds[2]],
    };
    const text = formatConsoleSummary(fired, { color: false });
    expect(text).toContain(`CONTROL FIRED ${EVIL} (naive control, seed 7)`);
    expect(text).toContain('  control fired: duplicate_effects 1 > 0');
    expect(text).not.toContain(`PASS ${EVIL}`);
    const silent = structuredClone(run);
    silent.profiles[1] = { ...silent.profiles[1], control: true, thresholds: [run.profiles[1].thresholds[0]] };
    const out = formatConsoleSummary(silent, { color: false });
    expect(out).toContain(`CONTROL SILENT ${EVIL}`);
    expect(out).toContain('control did not fire: expected duplicate_effects == 0, actual 1');
  });

  it('ends with a tally of every verdict, unknown ones included', () => {
    const text = formatConsoleSummary(run, { color: false }).trimEnd().split('\n');
    expect(text.at(-1)).toBe('2 profile(s): passed 1, failed 1, inert 0, inconclusive 0, interrupted 0');
    const odd = structuredClone(run);
    odd.profiles[0].verdict = 'inconclusive' as never;
    odd.profiles[1].verdict = 'flaky' as never;
    const out = formatConsoleSummary(odd, { color: false });
    expect(out).toContain('INCONCLUSIVE good');
    expect(out).toContain('FLAKY');
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      '2 profile(s): passed 0, failed 0, inert 0, inconclusive 1, interrupted 0, flaky 1',
    );
  });
});
