// Relative time bounds (`latency_p99_ms <= 3 x control`): parsed beside the k6 form, judged against the faults-off
// control's value as an absolute bound is (a missed upper bound within the run's machine delay is inconclusive, a
// missed lower bound within factor x the control's), and never a pass when the control measured nothing.
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { evaluateThresholds, parseThreshold, ThresholdError } from '../../../src/measure/thresholds.ts';
import { buildProfileReport } from '../../../src/measure/verdict.ts';
import { history, op } from './fixtures.ts';

/** Metrics of ten ops that each took `ms`. */
const latencies = (ms: number) => computeMetrics(history({ ops: series(ms) }));
const series = (ms: number) => Array.from({ length: 10 }, (_, i) => op(`op-${i}`, i * 100, i * 100 + ms));

function rejection(expr: string): string {
  try {
    parseThreshold(expr);
  } catch (e) {
    if (e instanceof ThresholdError) return e.message;
    throw e;
  }
  throw new Error(`expected "${expr}" to be rejected`);
}

describe('parseThreshold: relative to the control', () => {
  it('reads `<time metric> <op> <factor> x control` with or without spaces, x or ×', () => {
    expect(parseThreshold('latency_p99_ms <= 3 x control')).toEqual({
      expr: 'latency_p99_ms <= 3 x control',
      metric: 'latency_p99_ms',
      op: '<=',
      target: 3,
      relative: true,
    });
    expect(parseThreshold('latency_p50_ms<2.5×control')).toMatchObject({ op: '<', target: 2.5, relative: true });
    expect(parseThreshold('attempt_latency_p99_ms >= 2x control')).toMatchObject({ op: '>=', target: 2 });
  });

  it('rejects what cannot be a relative bound, naming the expression and what was expected', () => {
    expect(rejection('error_rate <= 3 x control')).toBe(
      'invalid threshold "error_rate <= 3 x control": only a time metric (ms) can be bound relative to the control; error_rate is in rate',
    );
    expect(rejection('ops <= 3 x control')).toContain('ops is in count');
    expect(rejection('latency_p99_ms == 3 x control')).toContain('expected <, <=, >= or > before a factor');
    expect(rejection('latency_p99_ms <= 0 x control')).toContain('expected a positive factor');
    expect(rejection('latency_p99_ms <= 3 x control or n/a')).toContain('cannot end in "or n/a"');
    expect(rejection('latency_p99_ms <= control')).toContain('expected "<time metric> <op> <factor> x control"');
    expect(rejection('latency_p99_ms <= 3 x controls')).toContain('expected "<time metric> <op> <factor> x control"');
    expect(rejection('latency_p99_ms <= lots x control')).toBe(
      'invalid threshold "latency_p99_ms <= lots x control": expected a number after "<=", got "lots"',
    );
    expect(rejection('latncy_p99_ms <= 3 x control')).toContain('unknown metric "latncy_p99_ms"');
  });
});

describe('evaluateThresholds: relative to the control', () => {
  const expr = 'latency_p99_ms <= 3 x control';

  it('bounds the value by factor x the control value, and shows both', () => {
    const [held] = evaluateThresholds([expr], latencies(200), 0, latencies(100));
    expect(held).toMatchObject({ ok: true, actual: 200, target: 3, relative: { factor: 3, control: 100, bound: 300 } });
    const [failed] = evaluateThresholds([expr], latencies(400), 0, latencies(100));
    expect(failed).toMatchObject({ ok: false, actual: 400, relative: { control: 100, bound: 300 } });
    const [grew] = evaluateThresholds(['latency_p99_ms >= 3 x control'], latencies(400), 0, latencies(100));
    expect(grew.ok).toBe(true);
  });

  it("judges a missed upper bound against the run's machine delay, as an absolute bound is judged", () => {
    // Missed by 100 ms: within a delay of 150 ms the machine may explain it (never a pass), past 50 ms it fails.
    const [within] = evaluateThresholds([expr], latencies(400), 150, latencies(100));
    expect(within).toMatchObject({ ok: false, status: 'inconclusive', marginMs: 150, relative: { bound: 300 } });
    expect(within.reason).toBe("over its bound by 100 ms, within the machine's measured delay of 150 ms");
    const [beyond] = evaluateThresholds([expr], latencies(400), 50, latencies(100));
    expect(beyond).toMatchObject({ ok: false, status: 'fail', marginMs: 50, relative: { bound: 300 } });
    expect(beyond.reason).toBe("over its bound by 100 ms, more than the machine's measured delay of 50 ms");
    // On a machine as fast as the reference there is no delay: a miss fails.
    const [quiet] = evaluateThresholds([expr], latencies(400), 0, latencies(100));
    expect(quiet).toMatchObject({ ok: false, status: 'fail' });
    expect(quiet.marginMs).toBeUndefined();
    // Held: a pass, with no margin to name.
    const [held] = evaluateThresholds([expr], latencies(200), 150, latencies(100));
    expect(held).toMatchObject({ ok: true, status: 'pass' });
    expect(held.marginMs).toBeUndefined();
  });

  it("judges a missed lower bound against factor x the control's machine delay: load there raised the bound", () => {
    const lower = 'latency_p99_ms >= 3 x control';
    // Bound 3 x 100 = 300, missed by 50 ms. The control may have run up to 40 ms slow: the bound up to 120 ms high.
    const [within] = evaluateThresholds([lower], latencies(250), 0, latencies(100), 40);
    expect(within).toMatchObject({ ok: false, status: 'inconclusive', marginMs: 120, relative: { bound: 300 } });
    expect(within.reason).toBe("under its bound by 50 ms, within 3 x the faults-off control's machine delay (120 ms)");
    const [beyond] = evaluateThresholds([lower], latencies(250), 0, latencies(100), 10);
    expect(beyond).toMatchObject({ ok: false, status: 'fail', marginMs: 30 });
    expect(beyond.reason).toBe(
      "under its bound by 50 ms, more than 3 x the faults-off control's machine delay (30 ms)",
    );
    // The run's own delay never excuses a lower bound: load only makes the run's times longer.
    const [runLoaded] = evaluateThresholds([lower], latencies(250), 10_000, latencies(100));
    expect(runLoaded).toMatchObject({ ok: false, status: 'fail', relative: { bound: 300 } });
    expect(runLoaded.marginMs).toBeUndefined();
    // Nor does the control's delay excuse an upper bound (load there only loosened it), or a fixed lower bound.
    const [upper] = evaluateThresholds([expr], latencies(400), 0, latencies(100), 10_000);
    expect(upper).toMatchObject({ ok: false, status: 'fail' });
    const [fixed] = evaluateThresholds(['latency_p99_ms >= 300'], latencies(250), 10_000, latencies(100), 10_000);
    expect(fixed).toMatchObject({ ok: false, status: 'fail' });
  });

  it("makes a profile inconclusive, never a pass, when only the control's load explains a missed lower bound", () => {
    const input = { name: 'p', seed: 1, policy: 'resilient', decisionLogSha256: 'x' };
    const report = (controlDelayMs: number) =>
      buildProfileReport({
        ...input,
        expect: ['latency_p99_ms >= 3 x control'],
        history: history({ ops: series(250) }),
        control: latencies(100),
        controlDelayMs,
      });
    expect(report(40).verdict).toBe('inconclusive');
    expect(report(10).verdict).toBe('fail');
    expect(report(0).verdict).toBe('fail');
  });

  it('fails n/a when the control measured nothing, or none ran', () => {
    const nothing = computeMetrics(history({ ops: [] }));
    const [t] = evaluateThresholds(['first_success_ms <= 3 x control'], latencies(100), 0, nothing);
    expect(t).toMatchObject({ ok: false, na: true, relative: { factor: 3, control: null, bound: null } });
    expect(t.reason).toMatch(/^the faults-off control measured nothing \(nothing to measure: /);
    const [none] = evaluateThresholds([expr], latencies(100));
    expect(none).toMatchObject({ ok: false, na: true, reason: 'no faults-off control ran' });
  });

  it('makes a profile fail (never pass) when its control measured nothing', () => {
    const input = { name: 'p', seed: 1, policy: 'resilient', decisionLogSha256: 'x', expect: [expr] };
    const report = (control?: ReturnType<typeof latencies>) =>
      buildProfileReport({ ...input, history: history({ ops: series(100) }), ...(control && { control }) });
    expect(report(latencies(100)).verdict).toBe('pass');
    const noOps = report(computeMetrics(history({ ops: [] })));
    expect(noOps.verdict).toBe('fail');
    // No op, nothing timed: the control's p99 is n/a, so there is no bound (a 0 would fail anything: still no bound).
    expect(noOps.thresholds[0]).toMatchObject({
      ok: false,
      status: 'na-fail',
      relative: { control: null, bound: null },
    });
    expect(report().verdict).toBe('fail');
  });
});
