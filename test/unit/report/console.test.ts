// The console summary: by default one screen (counts, then each run that did not pass on one line with its
// reasons, the detectors that fired and the passes by name, where report.html is); --verbose every profile's block.
import { describe, expect, it } from 'vitest';
import type { ProfileReport } from '../../../src/measure/run-report.ts';
import type { ThresholdResult } from '../../../src/measure/thresholds.ts';
import { formatConsoleSummary } from '../../../src/report/console.ts';
import { EVIL, sampleRun } from './fixtures.ts';
import { allPassSuite } from './suite-fixture.ts';

const plain = { color: false } as const;
const verbose = { color: false, verbose: true } as const;

describe('formatConsoleSummary', () => {
  const run = sampleRun();

  it('leads with the counts, then one line per run that did not pass with its failed thresholds', () => {
    const lines = formatConsoleSummary(run, { ...plain, reportHtml: 'out/report.html' })
      .trimEnd()
      .split('\n');
    expect(lines[0]).toMatch(/^Faultline 0\.1\.0 {2}seed 7 {2}2 profile\(s\) .* FAIL$/);
    expect(lines[1]).toBe('2 run(s): passed 1, failed 1, inert 0, inconclusive 0, interrupted 0');
    expect(lines[2]).toBe(
      `❌ FAIL ${EVIL}: duplicate_effects == 0: expected duplicate_effects == 0, actual 1; recovery_ms <= 2000: expected recovery_ms <= 2000, actual none (fault window ${EVIL}: the fault was never removed)`,
    );
    expect(lines[3]).toBe('✔ passed (1): good');
    expect(lines.at(-1)).toBe("details: out/report.html (--verbose: every profile's numbers)");
    expect(lines.join('\n')).not.toContain('ops_ok');
  });

  it('fits one screen for an all-pass default suite, a protocol: auto profile twice', () => {
    const suite = allPassSuite();
    const at = suite.profiles.findIndex((p) => p.name === 'discover-faults');
    const auto = suite.profiles[at];
    suite.profiles.splice(at, 1, { ...auto, pairing: 'auto' }, { ...auto, pairing: 'auto-sdk1' });
    const lines = formatConsoleSummary(suite, { ...plain, reportHtml: 'faultline-report/report.html' }).split('\n');
    expect(lines.length).toBeLessThanOrEqual(45);
    expect(lines.join('\n')).toContain('discover-faults [auto], discover-faults [auto-sdk1]');
    expect(lines[0]).toContain(`${suite.profiles.length} runs of ${suite.profiles.length - 1} profile(s)`);
    // Every run is named once: as a detector that fired or as a pass.
    for (const p of suite.profiles) expect(lines.join(' ')).toContain(p.name);
  });

  it('names an inconclusive threshold with its margin and reason, and never as failed', () => {
    const inconclusive = structuredClone(run);
    const t: ThresholdResult = {
      expr: 'latency_p99_ms <= 300',
      metric: 'latency_p99_ms',
      op: '<=',
      target: 300,
      actual: 412,
      ok: false,
      status: 'inconclusive',
      marginMs: 488,
      reason: "over its bound by 112 ms, within the machine's measured delay of 488 ms",
    };
    inconclusive.profiles[0] = { ...inconclusive.profiles[0], verdict: 'inconclusive', thresholds: [t] };
    const text = formatConsoleSummary(inconclusive, plain);
    expect(text).toContain(
      `❔ INCONCLUSIVE good: inconclusive "latency_p99_ms <= 300" at 412 ms, margin 488 ms: over its bound by 112 ms, within the machine's measured delay of 488 ms`,
    );
    expect(text).not.toContain('✗ latency_p99_ms');
  });

  it('shows an interrupted run as interrupted with what it measured, no threshold failed', () => {
    const stopped = structuredClone(run);
    stopped.profiles[1] = {
      ...stopped.profiles[1],
      verdict: 'interrupted',
      verdictReason: 'the run was stopped before this profile ended',
    };
    for (const options of [plain, verbose]) {
      const text = formatConsoleSummary(stopped, options);
      expect(text).toContain(
        'the run was stopped before this profile ended; measured so far: 2 ops (1 ok, 1 fail, 0 info), thresholds not judged',
      );
      expect(text).not.toContain('duplicate_effects == 0: expected');
      expect(text).not.toMatch(/failed [1-9]/);
    }
  });

  it('colours verdicts on a terminal', () => {
    expect(formatConsoleSummary(run, { color: true })).toContain('\u001b[31mFAIL\u001b[0m');
  });

  it('--verbose: each profile with its numbers and failing thresholds, and the tally at the end', () => {
    const text = formatConsoleSummary(run, verbose);
    expect(text).not.toContain('\u001b[');
    expect(text).toContain('PASS good (resilient, seed 7)');
    expect(text).toContain(`FAIL ${EVIL} (naive, seed 7)`);
    expect(text).toContain('ops 41  ops_ok 41  ops_fail 0  ops_info 0');
    expect(text).toContain('retried_ops 1  retry_success_rate 100%');
    expect(text).toContain('ghost_effects 1  lost_effects 0');
    expect(text).toContain('✗ duplicate_effects == 0: expected duplicate_effects == 0, actual 1');
    expect(text).toContain('✗ recovery_ms <= 2000: expected recovery_ms <= 2000, actual none');
    expect(text).not.toContain('✗ duplicate_effects > 0');
    expect(text.match(/✗/g)).toHaveLength(2);
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      '2 profile(s): passed 1, failed 1, inert 0, inconclusive 0, interrupted 0',
    );
  });

  it('--verbose says when the circuit breaker opened, and nothing when it never acted', () => {
    expect(formatConsoleSummary(run, verbose)).not.toContain('circuit breaker');
    const withBreaker = structuredClone(run);
    withBreaker.profiles[0].metrics.breakerOpenIntervals = [{ key: 'create_payment', openAtMs: 800, closeAtMs: 2211 }];
    withBreaker.profiles[0].metrics.breakerRejections = 25;
    expect(formatConsoleSummary(withBreaker, verbose)).toContain(
      'circuit breaker opened 1× (800 ms → 2211 ms), 25 ops failed fast',
    );
  });

  it('names every run with indeterminate effects, a pass too, with the count; none when there are none', () => {
    expect(formatConsoleSummary(run, plain)).not.toContain('indeterminate');
    const unknown = structuredClone(run);
    unknown.profiles[0].metrics.indeterminateEffects = 2;
    expect(formatConsoleSummary(unknown, plain)).toContain(
      '⚠ indeterminate effects (the op ended unknown, its effect happened): good (2)',
    );
  });

  it('labels a control run whose detector fired as such, not a green PASS, and one that stayed silent', () => {
    const fired = structuredClone(run);
    fired.profiles[1] = {
      ...fired.profiles[1],
      control: true,
      verdict: 'pass',
      thresholds: [run.profiles[1].thresholds[2]],
    };
    expect(formatConsoleSummary(fired, plain)).toContain(`🎯 detector fired (1): ${EVIL}`);
    const text = formatConsoleSummary(fired, verbose);
    expect(text).toContain(`DETECTOR FIRED ${EVIL} (naive control, seed 7)`);
    expect(text).toContain('  detector fired: duplicate_effects 1 > 0');
    expect(text).not.toContain(`PASS ${EVIL}`);
    const silent = structuredClone(run);
    silent.profiles[1] = { ...silent.profiles[1], control: true, thresholds: [run.profiles[1].thresholds[0]] };
    const out = formatConsoleSummary(silent, plain);
    expect(out).toContain(`DETECTOR SILENT ${EVIL}: detector did not fire: expected duplicate_effects == 0, actual 1`);
  });

  it('labels a profile whose own expect asks for harm (a negative control) detector fired; without it, PASS', () => {
    const leaky = (thresholds: ThresholdResult[]): ProfileReport => ({ ...run.profiles[0], name: 'leaky', thresholds });
    const leaks: ThresholdResult = {
      expr: 'leaks > 0',
      metric: 'leaks',
      op: '>',
      target: 0,
      actual: 5,
      ok: true,
      status: 'pass',
    };
    const fired = formatConsoleSummary({ ...run, profiles: [leaky([leaks])], verdict: 'pass' }, verbose);
    expect(fired).toContain('DETECTOR FIRED leaky');
    expect(fired).toContain('detector fired: leaks 5 > 0');
    // The negative control of the label: a lower bound on a count that is no harm is an ordinary pass.
    const ops = { ...leaks, expr: 'ops > 0', metric: 'ops', actual: 41 };
    expect(formatConsoleSummary({ ...run, profiles: [leaky([ops])], verdict: 'pass' }, verbose)).toContain(
      'PASS leaky',
    );
  });

  it('names a verdict it does not know in the failure style', () => {
    const odd = structuredClone(run);
    odd.profiles[1].verdict = 'flaky' as never;
    const out = formatConsoleSummary(odd, plain);
    expect(out).toContain(`FLAKY ${EVIL}`);
    expect(out.split('\n')[1]).toBe('2 run(s): passed 1, failed 0, inert 0, inconclusive 0, interrupted 0, flaky 1');
  });
});
