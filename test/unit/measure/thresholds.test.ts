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
      expect(e.message).toContain('expected "<metric> <operator> <number>"');
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
