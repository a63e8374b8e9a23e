import { describe, expect, it } from 'vitest';
import type { History } from '../../../src/core/history.ts';
import { CIRCUIT_OPEN } from '../../../src/measure/errors.ts';
import { attempt, fault, fed, history, op } from './fixtures.ts';

const retrySuccess = (h: History) => fed(h).retry;

describe('retrySuccess', () => {
  it('is n/a (null), not 1, when nothing was retried', () => {
    const r = retrySuccess(history({ ops: [op('a', 0, 10), op('b', 20, 30)] }));
    expect(r).toMatchObject({ rate: null, retriedOps: 0, recoveredOps: 0 });
  });

  it('divides retried ops that ended ok by retried ops', () => {
    const h = history({
      ops: [
        op('clean', 0, 10),
        op('saved', 0, 10, 'ok', { attempts: 2, failedAttempts: 1 }),
        op('saved2', 0, 10, 'ok', { attempts: 3, failedAttempts: 2 }),
        op('lost', 0, 10, 'fail', { attempts: 3, failedAttempts: 3 }),
      ],
    });
    expect(retrySuccess(h)).toMatchObject({ retriedOps: 3, recoveredOps: 2, rate: 2 / 3 });
  });

  it('also counts failed attempt records when the op count is missing', () => {
    const h = history({
      ops: [op('x', 0, 10, 'ok', { attempts: 2, failedAttempts: 0 })],
      attempts: [attempt('x', 1, 0, 5, false), attempt('x', 2, 5, 10, true)],
    });
    expect(retrySuccess(h).retriedOps).toBe(1);
  });

  it('splits per fault window (overlap) and per kind (union)', () => {
    const retriedOk = { attempts: 2, failedAttempts: 1 };
    const h = history({
      faults: [fault('w1', 1000, 2000, '5xx'), fault('w2', 3000, 4000, '5xx'), fault('w3', 5000, 6000, 'reset')],
      ops: [
        op('before', 0, 900, 'ok', retriedOk), // no window
        op('in1', 1500, 1600, 'ok', retriedOk),
        op('span12', 1900, 3100, 'fail'), // both w1 and w2: counted once for kind 5xx
        op('in2', 3500, 3600),
        op('in3', 5500, 5600, 'fail'),
      ],
    });
    const r = retrySuccess(h);
    expect(r.byWindow).toEqual([
      { fault: 'w1', kind: '5xx', ops: 2, retriedOps: 2, recoveredOps: 1, rate: 0.5 },
      { fault: 'w2', kind: '5xx', ops: 2, retriedOps: 1, recoveredOps: 0, rate: 0 },
      { fault: 'w3', kind: 'reset', ops: 1, retriedOps: 1, recoveredOps: 0, rate: 0 },
    ]);
    expect(r.byKind).toEqual([
      { kind: '5xx', ops: 3, retriedOps: 2, recoveredOps: 1, rate: 0.5 },
      { kind: 'reset', ops: 1, retriedOps: 1, recoveredOps: 0, rate: 0 },
    ]);
    expect(r).toMatchObject({ retriedOps: 4, recoveredOps: 2, rate: 0.5 });
  });
});

describe('ops the circuit breaker failed fast', () => {
  it('count as retried-and-failed and under the breaker code, though they made no attempt', () => {
    const h = history({
      ops: [op('ok', 0, 10), op('refused', 20, 21, 'fail', { attempts: 0, failedAttempts: 0, circuitOpen: true })],
    });
    expect(retrySuccess(h)).toMatchObject({ retriedOps: 1, recoveredOps: 0, rate: 0 });
    expect(fed(h).errors).toEqual({
      errorsByCategory: { DEPENDENCY: 1 },
      errorsByCode: { [CIRCUIT_OPEN]: 1 },
    });
  });
});
