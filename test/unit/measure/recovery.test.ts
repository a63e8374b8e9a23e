import { describe, expect, it } from 'vitest';
import type { OpOutcome } from '../../../src/core/history.ts';
import { recovery } from '../../../src/measure/recovery.ts';
import { fault, history, op, series } from './fixtures.ts';

// 10 healthy ops before the fault (steady state 1.0), fault 2000..5000, then ops every 100 ms from 5000.
function scenario(after: OpOutcome[], before: OpOutcome[] = ['ok']) {
  return history({
    endMs: history().startMs + 20_000,
    faults: [fault('f1', 2000, 5000)],
    ops: [
      ...series('pre', 0, 10, 100, before),
      ...series('during', 2100, 5, 500, ['fail']),
      ...after.map((outcome, i) => op(`post${i}`, 5000 + i * 100, 5000 + i * 100 + 50, outcome)),
    ],
  });
}

const okRun = (n: number): OpOutcome[] => Array.from({ length: n }, () => 'ok');

describe('recovery', () => {
  it('finds the first sliding window at the steady-state level', () => {
    // Windows from 5000 and 5100 contain the failures at 5000/5100; the window from 5200 is clean.
    const r = recovery(scenario(['fail', 'fail', ...okRun(30)]));
    expect(r.steadyState).toEqual({ ops: 10, rate: 1, target: 0.99 });
    expect(r.windows).toEqual([
      {
        fault: 'f1',
        kind: 'http-5xx',
        seam: 'dependency',
        onAtMs: 2000,
        offAtMs: 5000,
        recoveryMs: 200,
        firstSuccessMs: 250, // post2 starts at 5200 and ends ok at 5250
        recovered: true,
      },
    ]);
  });

  it('is 0 when the system is healthy the moment the fault ends', () => {
    const r = recovery(scenario(okRun(20)));
    expect(r.windows[0]).toMatchObject({ recoveryMs: 0, firstSuccessMs: 50, recovered: true });
  });

  it('reports not recovered when the run ends first', () => {
    const r = recovery(scenario(['fail', 'fail', 'ok', 'fail', 'fail', 'ok', 'fail']));
    expect(r.windows[0]).toMatchObject({ recoveryMs: null, recovered: false, firstSuccessMs: 250 });
  });

  it('needs at least minOps ops in a window', () => {
    // Four clean ops are not enough evidence with the default of 5.
    expect(recovery(scenario(okRun(4))).windows[0].recovered).toBe(false);
    expect(recovery(scenario(okRun(4)), { minOps: 4 }).windows[0]).toMatchObject({ recovered: true, recoveryMs: 0 });
  });

  it('stretches a window past its width to reach minOps when ops are sparse', () => {
    const h = history({
      endMs: history().startMs + 60_000,
      faults: [fault('f1', 5000, 6000)],
      ops: [
        ...series('pre', 0, 5, 900),
        ...series('post', 6000, 10, 700, ['fail', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']),
      ],
    });
    // Windows from post0 (fail) onwards: post1 starts at 6700 and the next 5 ops (to 9500) are all ok.
    expect(recovery(h).windows[0]).toMatchObject({ recovered: true, recoveryMs: 700 });
  });

  it('caps the target at the steady state measured before the first fault', () => {
    // Before: 9 of 10 ok. After: every 10th op fails, which is as good as it ever was.
    const pattern: OpOutcome[] = [...okRun(9), 'fail'];
    const after = Array.from({ length: 40 }, (_, i) => pattern[(i + 5) % 10]);
    const r = recovery(scenario(after, pattern));
    expect(r.steadyState).toEqual({ ops: 10, rate: 0.9, target: 0.9 });
    expect(r.windows[0]).toMatchObject({ recovered: true, recoveryMs: 0 });
    // Against a 0.99 target every 10-op window holds a failure (5400, 6400, 7400, 8400): only the last five
    // ops (8500..8900) form a clean window.
    const strict = recovery(scenario(after, okRun(10)));
    expect(strict.steadyState.target).toBe(0.99);
    expect(strict.windows[0].recoveryMs).toBe(3500);
  });

  it('uses the default target when too few ops ran before the first fault', () => {
    const h = history({
      endMs: history().startMs + 20_000,
      faults: [fault('f1', 500, 1000)],
      ops: [op('pre0', 0, 100, 'fail'), op('pre1', 100, 200, 'fail'), ...series('post', 1000, 20, 100)],
    });
    const r = recovery(h, { targetSuccessRate: 0.95 });
    expect(r.steadyState).toEqual({ ops: 2, rate: null, target: 0.95 });
    expect(r.windows[0].recoveryMs).toBe(0);
  });

  it('does not recover a fault that was never removed', () => {
    const h = history({ faults: [fault('stuck', 1000, undefined)], ops: series('x', 0, 50, 100) });
    expect(recovery(h).windows[0]).toMatchObject({
      offAtMs: null,
      recoveryMs: null,
      firstSuccessMs: null,
      recovered: false,
    });
  });

  it('reports one entry per window with times relative to the run start', () => {
    const h = history({
      faults: [fault('a', 1000, 1500), fault('b', 3000, 3500, 'reset')],
      ops: series('x', 0, 100, 50),
    });
    const r = recovery(h);
    expect(r.windows.map((w) => [w.fault, w.kind, w.onAtMs, w.offAtMs, w.recoveryMs])).toEqual([
      ['a', 'http-5xx', 1000, 1500, 0],
      ['b', 'reset', 3000, 3500, 0],
    ]);
  });
});
