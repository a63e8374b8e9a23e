// Application metrics from hand-built histories: each detector fires on the history that should trigger it
// and stays at zero on the one that should not.
import { describe, expect, it } from 'vitest';
import type { History } from '../../../src/core/history.ts';
import { METRICS } from '../../../src/measure/metric-table.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { attempt, fed, history, op, T0 } from './fixtures.ts';

const applicationMetrics = (h: History) => fed(h).application;

describe('application metrics', () => {
  it('breaker intervals: open to closed, half-open in between continues the outage, unclosed is null', () => {
    const m = applicationMetrics(
      history({
        breaker: [
          { key: 'pay', atMs: T0 + 1000, state: 'open' },
          { key: 'pay', atMs: T0 + 1400, state: 'half-open' },
          { key: 'pay', atMs: T0 + 1450, state: 'open' },
          { key: 'pay', atMs: T0 + 1900, state: 'half-open' },
          { key: 'pay', atMs: T0 + 1950, state: 'closed' },
          { key: 'search', atMs: T0 + 3000, state: 'open' },
        ],
        ops: [op('a', 0, 10, 'fail', { circuitOpen: true })],
      }),
    );
    expect(m.breakerOpenIntervals).toEqual([
      { key: 'pay', openAtMs: 1000, closeAtMs: 1950 },
      { key: 'search', openAtMs: 3000, closeAtMs: null },
    ]);
    expect(m.breakerOpens).toBe(2);
    expect(m.breakerRejections).toBe(1);
    expect(applicationMetrics(history()).breakerOpens).toBe(0);
  });

  it('lookups and re-executions avoided', () => {
    const m = applicationMetrics(
      history({ ops: [op('a', 0, 1, 'ok', { lookups: 2, lookupsFound: 1 }), op('b', 0, 1, 'ok', { lookups: 1 })] }),
    );
    expect([m.lookups, m.reexecutionsAvoided]).toEqual([3, 1]);
  });

  it('auth: a refresh before the retry is not blind; a retry without one is; an op ending on AUTH escalates', () => {
    const auth = { category: 'AUTH' as const, errorCode: 'AUTH.TOKEN_EXPIRED' };
    const refreshed = history({
      ops: [op('a', 0, 100, 'ok', { authRefreshes: 1 })],
      attempts: [attempt('a', 1, 0, 10, false, auth), attempt('a', 2, 20, 30, true)],
    });
    expect(applicationMetrics(refreshed)).toMatchObject({ authBlindRetries: 0, authEscalations: 0, authRefreshes: 1 });
    const blind = history({
      ops: [op('a', 0, 100, 'fail', auth)],
      attempts: [attempt('a', 1, 0, 10, false, auth), attempt('a', 2, 20, 30, false, auth)],
    });
    expect(applicationMetrics(blind)).toMatchObject({ authBlindRetries: 1, authEscalations: 1, authRefreshes: 0 });
  });

  it('self-correction rate and loop-guard stops over mistaken ops only', () => {
    const m = applicationMetrics(
      history({
        ops: [
          op('a', 0, 1, 'ok', { mistake: 'wrong-type', corrections: 1 }),
          op('b', 0, 1, 'fail', { mistake: 'garbled', loopGuardStop: true }),
          op('c', 0, 1, 'fail'),
        ],
        attempts: [attempt('b', 1, 0, 1, false, { category: 'VALIDATION', errorCode: 'VALIDATION.FIELD' })],
      }),
    );
    expect(m).toMatchObject({ mistakeOps: 2, selfCorrections: 1, selfCorrectionRate: 0.5, loopGuardStops: 1 });
  });

  it('self-correction rate leaves out a mistaken op the server never answered; one it told and that stayed wrong counts', () => {
    const timedOut = { category: 'LINK' as const, errorCode: 'LINK.TIMEOUT' };
    const told = { category: 'VALIDATION' as const, errorCode: 'VALIDATION.FIELD' };
    const ops = [
      op('a', 0, 1, 'ok', { mistake: 'wrong-type', corrections: 1 }),
      op('t', 0, 1, 'info', { mistake: 'out-of-range', ...timedOut }),
    ];
    const unanswered = applicationMetrics(
      history({ ops, attempts: [attempt('t', 1, 0, 1, false, timedOut), attempt('t', 2, 1, 2, false, timedOut)] }),
    );
    expect(unanswered).toMatchObject({ mistakeOps: 2, mistakeOpsJudged: 1, selfCorrectionRate: 1 });
    // The control: the same op told its mistake and never corrected counts against the rate.
    const uncorrected = applicationMetrics(
      history({
        ops: [ops[0], op('t', 0, 1, 'fail', { mistake: 'out-of-range', ...told })],
        attempts: [attempt('t', 1, 0, 1, false, told)],
      }),
    );
    expect(uncorrected).toMatchObject({ mistakeOps: 2, mistakeOpsJudged: 2, selfCorrectionRate: 0.5 });
    const none = computeMetrics(history({ ops: [ops[1]], attempts: [attempt('t', 1, 0, 1, false, timedOut)] }));
    expect(METRICS.self_correction_rate.get(none)).toMatchObject({ value: null, na: true });
  });

  it('attempts per second: the busiest one-second window', () => {
    const attempts = [0, 100, 900, 999, 1000, 2500].map((t, i) => attempt(`o${i}`, 1, t, t + 5, true));
    expect(applicationMetrics(history({ attempts })).attemptsPerSecondMax).toBe(4);
  });

  it('every new metric has a threshold name and reaches report metrics', () => {
    const m = computeMetrics(history());
    for (const name of [
      'breaker_opens',
      'reexecutions_avoided',
      'auth_escalations',
      'loop_guard_stops',
      'attempts_per_s_max',
      'internal_errors',
    ])
      expect(METRICS[name].get(m).value).not.toBeNull();
    expect(m.breakerOpenIntervals).toEqual([]);
  });

  it('self_correction_rate is n/a without a mistaken op, never the passing 1', () => {
    const value = METRICS.self_correction_rate.get(computeMetrics(history()));
    expect(value).toMatchObject({ value: null, na: true });
    expect(value.reason).toBe('nothing to measure: no op started with a model mistake');
  });
});
