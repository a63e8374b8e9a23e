import { describe, expect, it } from 'vitest';
import type { History } from '../../../src/core/history.ts';
import { attempt, fed, history, op } from './fixtures.ts';

const outcomes = (h: History) => fed(h).outcomes;
const throughput = (h: History) => fed(h).outcomes.throughputOpsPerSec;

describe('outcomes', () => {
  const h = history({
    endMs: history().startMs + 4000,
    ops: [
      op('a', 0, 10, 'ok'),
      op('b', 0, 10, 'ok', { attempts: 3, failedAttempts: 2 }),
      op('c', 0, 10, 'fail'),
      op('d', 0, 10, 'info', { attempts: 2 }),
    ],
    attempts: [
      attempt('a', 1, 0, 10, true),
      attempt('b', 1, 0, 2, false),
      attempt('b', 2, 3, 5, false),
      attempt('b', 3, 6, 10, true),
      attempt('c', 1, 0, 10, false),
      attempt('d', 1, 0, 5, false),
      attempt('d', 2, 5, 10, false),
    ],
  });

  it('counts ops by outcome and attempts', () => {
    const o = outcomes(h);
    expect(o).toMatchObject({ ops: 4, opsOk: 2, opsFail: 1, opsInfo: 1, attempts: 7 });
    expect(o.attemptsPerOp).toEqual({ mean: 7 / 4, max: 3 });
    expect(o.errorRate).toBe(0.5);
  });

  it('is n/a (null), neither NaN nor a passing 0, without ops', () => {
    const o = outcomes(history());
    expect(o.attemptsPerOp).toEqual({ mean: null, max: null });
    expect(o.errorRate).toBeNull();
  });

  it('computes throughput over the workload, not set-up or drain', () => {
    // The run lasts 10 s, but its 4 ops ran from 1000 to 3000: 2 ops/s, not 0.4.
    const spread = history({
      endMs: history().startMs + 10_000,
      ops: [op('a', 1000, 1500), op('b', 1500, 2000), op('c', 2000, 2500), op('d', 2500, 3000)],
    });
    expect(throughput(spread)).toBe(2);
    expect(throughput(history({ endMs: history().startMs }))).toBe(0);
  });
});
