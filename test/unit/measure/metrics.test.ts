import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { attempt, effect, fault, history, op, series } from './fixtures.ts';

// One small run with a known answer for every field computeMetrics reports.
describe('computeMetrics', () => {
  const pay = { sideEffecting: true, tool: 'pay' };
  const h = history({
    endMs: history().startMs + 10_000,
    faults: [fault('f1', 2000, 3000)],
    ops: [
      ...series('pre', 0, 10, 100),
      op('retried', 2100, 2500, 'ok', { ...pay, attempts: 2, failedAttempts: 1, visible: 'ok SECRET-1 inside' }),
      op('ghost', 2200, 2400, 'fail', pay),
      op('info', 2300, 2900, 'info', { ...pay, attempts: 2, failedAttempts: 2 }),
      ...series('post', 3000, 12, 100),
    ],
    attempts: [
      attempt('retried', 1, 2100, 2200, false, {
        category: 'DEPENDENCY',
        errorCode: 'DEPENDENCY.RATE_LIMITED',
        retryAfterMs: 250,
      }),
      attempt('retried', 2, 2300, 2500, true),
      attempt('ghost', 1, 2200, 2400, false, { category: 'VALIDATION', errorCode: 'VALIDATION.BAD_ARGS' }),
      attempt('info', 1, 2300, 2500, false, {
        category: 'DEPENDENCY',
        errorCode: 'DEPENDENCY.TIMEOUT',
        uncertain: true,
      }),
      attempt('info', 2, 2600, 2900, false, {
        category: 'DEPENDENCY',
        errorCode: 'DEPENDENCY.TIMEOUT',
        uncertain: true,
      }),
    ],
    effects: [effect('retried'), effect('ghost'), effect('info'), effect('info'), effect('stray')],
  });
  const m = computeMetrics(h, { canaries: { secret: 'SECRET-1' } });

  it('reports outcomes, effects, retries, leaks and violations', () => {
    expect(m).toMatchObject({
      ops: 25,
      opsOk: 23,
      opsFail: 1,
      opsInfo: 1,
      attempts: 5,
      attemptsPerOp: { max: 2 },
      errorRate: 2 / 25,
      retrySuccessRate: 1 / 3,
      retriedOps: 3,
      duplicateEffects: 1,
      ghostEffects: 1,
      lostEffects: 0,
      unattributedEffects: 1,
      leaks: 1,
      leaksByKind: { secret: 1 },
      retryAfterViolations: 1, // retried: advised 250 ms at 2200, retried at 2300
      throughputOpsPerSec: 6.02, // 25 ops from the first start (0) to the last end (4150 ms)
      durationMs: 10_000,
      errorsByCategory: { DEPENDENCY: 3, VALIDATION: 1 },
      errorsByCode: { 'DEPENDENCY.RATE_LIMITED': 1, 'DEPENDENCY.TIMEOUT': 2, 'VALIDATION.BAD_ARGS': 1 },
    });
    expect(m.attemptsPerOp.mean).toBeCloseTo(27 / 25, 10);
    expect(m.retrySuccessByWindow).toEqual([
      { fault: 'f1', kind: 'http-5xx', ops: 4, retriedOps: 3, recoveredOps: 1, rate: 1 / 3 },
    ]);
  });

  it('reports recovery and latency', () => {
    expect(m.recovery).toEqual([
      {
        fault: 'f1',
        kind: 'http-5xx',
        seam: 'dependency',
        onAtMs: 2000,
        offAtMs: 3000,
        outageOffAtMs: 3000,
        recoveryMs: 0,
        firstSuccessMs: 50,
        recovered: true,
        status: 'recovered',
      },
    ]);
    expect(m.latencyMs).toMatchObject({ count: 25, p50: 50, max: 600 });
    expect(m.attemptLatencyMs).toMatchObject({ count: 5, max: 300 });
  });

  it('serialises to JSON without loss', () => {
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
  });
});
