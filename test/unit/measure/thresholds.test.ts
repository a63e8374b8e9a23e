import { describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '../../../src/measure/metric-table.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { evaluateThresholds, parseThreshold, ThresholdError } from '../../../src/measure/thresholds.ts';
import type { Metrics } from '../../../src/measure/types.ts';
import { effect, fault, history, op, series } from './fixtures.ts';

function errorOf(expr: string): ThresholdError {
  try {
    parseThreshold(expr);
  } catch (e) {
    if (e instanceof ThresholdError) return e;
    throw e;
  }
  throw new Error(`expected "${expr}" to be rejected`);
}

describe('parseThreshold', () => {
  it('parses every operator and number form', () => {
    expect(parseThreshold('retry_success_rate >= 0.99')).toEqual({
      expr: 'retry_success_rate >= 0.99',
      metric: 'retry_success_rate',
      op: '>=',
      target: 0.99,
    });
    expect(parseThreshold('duplicate_effects==0')).toMatchObject({ op: '==', target: 0 });
    expect(parseThreshold('  latency_p99_ms < 1500 ')).toMatchObject({ expr: 'latency_p99_ms < 1500', op: '<' });
    expect(parseThreshold('recovery_ms <= 2e3').target).toBe(2000);
    expect(parseThreshold('ops != -1').op).toBe('!=');
    expect(parseThreshold('ops > .5').target).toBe(0.5);
  });

  it('rejects malformed expressions and says what was expected', () => {
    for (const bad of ['', 'duplicate_effects', 'duplicate_effects = 0', 'duplicate_effects =< 0', '0 == ops']) {
      const e = errorOf(bad);
      expect(e.message).toContain('expected "<metric> <operator> <number> [or n/a]"');
      expect(e.message).toContain('< <= == != >= >');
    }
    expect(errorOf('ops < lots').message).toContain('expected a number after "<", got "lots"');
  });

  it('rejects unknown metrics, lists the known ones and suggests a near miss', () => {
    const e = errorOf('duplicate_effect == 0');
    expect(e.message).toContain('unknown metric "duplicate_effect"');
    expect(e.message).toContain('did you mean "duplicate_effects"?');
    for (const name of METRIC_NAMES) expect(e.message).toContain(name);
    expect(errorOf('banana > 1').message).not.toContain('did you mean');
  });
});

describe('evaluateThresholds', () => {
  const base = history({
    endMs: history().startMs + 20_000,
    faults: [fault('f1', 2000, 3000)],
    ops: [
      ...series('pre', 0, 10, 100),
      op('dup', 1000, 1100, 'ok', { sideEffecting: true }),
      ...series('post', 3000, 20, 100),
    ],
    effects: [effect('dup'), effect('dup')],
  });
  const metrics = computeMetrics(base);

  it('compares actual against target with each operator', () => {
    const results = evaluateThresholds(
      [
        'duplicate_effects == 0',
        'duplicate_effects > 0',
        'duplicate_effects != 1',
        'ops >= 31',
        'ops < 31',
        'ops <= 31',
        'recovery_ms <= 2000',
      ],
      metrics,
    );
    expect(results.map((r) => [r.expr, r.actual, r.ok])).toEqual([
      ['duplicate_effects == 0', 1, false],
      ['duplicate_effects > 0', 1, true],
      ['duplicate_effects != 1', 1, false],
      ['ops >= 31', 31, true],
      ['ops < 31', 31, false],
      ['ops <= 31', 31, true],
      ['recovery_ms <= 2000', 0, true],
    ]);
  });

  it('fails an unrecovered window whatever the operator', () => {
    const stuck = computeMetrics(history({ ...base, faults: [fault('f1', 2000, undefined)] }));
    const results = evaluateThresholds(['recovery_ms <= 2000', 'recovery_ms >= 0', 'first_success_ms != 5'], stuck);
    for (const r of results) {
      expect(r.ok).toBe(false);
      expect(r.actual).toBeNull();
      expect(r.reason).toContain('f1');
    }
  });

  it('has a getter for every documented metric name', () => {
    const documented = [
      'ops',
      'ops_ok',
      'ops_fail',
      'ops_info',
      'attempts',
      'attempts_per_op_max',
      'attempts_per_op_mean',
      'retry_success_rate',
      'duplicate_effects',
      'ghost_effects',
      'lost_effects',
      'unattributed_effects',
      'leaks',
      'recovery_ms',
      'first_success_ms',
      'latency_p50_ms',
      'latency_p90_ms',
      'latency_p95_ms',
      'latency_p99_ms',
      'latency_max_ms',
      'attempt_latency_p99_ms',
      'error_rate',
      'retry_after_violations',
      'throughput_ops_s',
    ];
    for (const name of documented) expect(METRIC_NAMES).toContain(name);
    const values = evaluateThresholds(
      METRIC_NAMES.map((n) => `${n} >= 0`),
      metrics as Metrics,
    );
    // A number, or null with the reason the metric has no value here (e.g. no window saw a failure).
    for (const r of values) {
      if (r.actual === null) expect(r.reason, r.expr).toMatch(/\w/);
      else expect(typeof r.actual, r.expr).toBe('number');
    }
  });

  it('throws on an invalid expression', () => {
    expect(() => evaluateThresholds(['nope'], metrics)).toThrow(ThresholdError);
  });
});

describe('nothing to measure fails closed', () => {
  const quiet = computeMetrics(history({ ops: series('ok', 0, 20, 100) }));

  it('a retry, recovery or detection threshold with nothing to measure fails, naming why', () => {
    const results = evaluateThresholds(
      ['retry_success_rate >= 0.99', 'recovery_ms <= 2000', 'first_success_ms <= 500', 'detect_ms <= 100'],
      quiet,
    );
    expect(results.map((r) => [r.metric, r.ok, r.actual, r.na])).toEqual([
      ['retry_success_rate', false, null, true],
      ['recovery_ms', false, null, true],
      ['first_success_ms', false, null, true],
      ['detect_ms', false, null, true],
    ]);
    expect(results[0].reason).toBe('nothing to measure: no op had a failed attempt');
    expect(results[1].reason).toBe('nothing to measure: no fault window');
  });

  it('`or n/a` lets an n/a metric pass, and changes nothing when there is a value', () => {
    expect(parseThreshold('retry_success_rate >= 0.99 or n/a')).toMatchObject({
      metric: 'retry_success_rate',
      op: '>=',
      target: 0.99,
      allowNa: true,
    });
    const [na, measured, failing] = evaluateThresholds(
      ['retry_success_rate >= 0.99 or n/a', 'ops == 20 or n/a', 'ops == 3 or n/a'],
      quiet,
    );
    expect([na.ok, na.actual, na.na]).toEqual([true, null, true]);
    expect([measured.ok, measured.actual]).toEqual([true, 20]);
    expect([failing.ok, failing.actual]).toEqual([false, 20]);
  });

  it('`or n/a` does not excuse a window that did not recover: that is a measurement, not n/a', () => {
    const stuck = computeMetrics(history({ faults: [fault('stuck', 1000, undefined)], ops: series('x', 0, 50, 100) }));
    const [r] = evaluateThresholds(['recovery_ms <= 2000 or n/a'], stuck);
    expect(r).toMatchObject({ ok: false, actual: null });
    expect(r.na).toBeUndefined();
  });

  it('effect metrics are n/a where the target gives no way to see effects', () => {
    const blind = computeMetrics({ ...history({ ops: series('ok', 0, 5, 100) }), effectsObservable: false });
    const results = evaluateThresholds(
      ['duplicate_effects == 0', 'ghost_effects == 0', 'lost_effects == 0', 'unattributed_effects == 0'],
      blind,
    );
    expect(results.every((r) => !r.ok && r.na && r.actual === null)).toBe(true);
    expect(results[0].reason).toBe('nothing to measure: this target gives no way to see its effects');
    // The same thresholds hold on a target whose effects are visible.
    expect(evaluateThresholds(['duplicate_effects == 0'], quiet)[0].ok).toBe(true);
  });

  it('effect metrics whose read-back failed say why, not that the target has no way to see them', () => {
    const failed = computeMetrics({
      ...history({ ops: series('ok', 0, 5, 100) }),
      effectsObservable: false,
      effectsUnknown: 'the read-back failed, effects unknown: read_graph timed out',
    });
    const [r] = evaluateThresholds(['lost_effects == 0'], failed);
    expect(r).toMatchObject({ ok: false, na: true, actual: null });
    expect(r.reason).toBe('nothing to measure: the read-back failed, effects unknown: read_graph timed out');
  });

  it('retried_ops is a metric a profile can assert on', () => {
    expect(evaluateThresholds(['retried_ops >= 1'], quiet)[0]).toMatchObject({ ok: false, actual: 0 });
  });
});

describe('per-hit ratio metrics', () => {
  const withWindows = (hits: (number | null)[], resumptions: number) =>
    computeMetrics(
      history({
        ops: [op('a', 0, 10)],
        attempts: [{ opId: 'a', attempt: 1, startMs: 0, endMs: 10, ok: true, resumptions }],
        faults: hits.map((h, i) => ({ ...fault(`f${i}`, 0, 100), ...(h === null ? {} : { hits: h }) })),
      }),
    );

  it('divides a behaviour count by the summed hits of every window', () => {
    const [r] = evaluateThresholds(['sse_resumptions_per_hit >= 0.75'], withWindows([3, 1], 3));
    expect(r).toMatchObject({ actual: 0.75, ok: true });
    expect(evaluateThresholds(['sse_resumptions_per_hit >= 0.75'], withWindows([4], 2))[0]).toMatchObject({
      actual: 0.5,
      ok: false,
    });
  });

  it('is n/a without a hit to divide by', () => {
    for (const [hits, why] of [
      [[], 'no fault window'],
      [[0], 'the fault windows hit nothing'],
      [[2, null], 'the dependency seam did not count the hits of f1'],
    ] as const) {
      const [r] = evaluateThresholds(['results_resumed_per_hit >= 0'], withWindows([...hits], 1));
      expect(r).toMatchObject({ actual: null, na: true, ok: false, reason: `nothing to measure: ${why}` });
    }
  });
});
