import { describe, expect, it } from 'vitest';
import type { History, OpOutcome } from '../../../src/core/history.ts';
import type { RecoveryOptions } from '../../../src/measure/options.ts';
import { fault, fed, history, op, series } from './fixtures.ts';

const recovery = (h: History, options?: RecoveryOptions) => fed(h, { recovery: options }).recovery;

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
    expect(r.steadyState).toEqual({ ops: 10, started: 10, rate: 1, target: 0.99, floor: 0.8, measured: true });
    expect(r.windows).toEqual([
      {
        fault: 'f1',
        kind: 'http-5xx',
        seam: 'dependency',
        onAtMs: 2000,
        offAtMs: 5000,
        outageOffAtMs: 5000,
        recoveryMs: 200,
        firstSuccessMs: 250, // post2 starts at 5200 and ends ok at 5250
        recovered: true,
        status: 'recovered',
      },
    ]);
  });

  it('is 0 when the system is healthy the moment the fault ends', () => {
    const r = recovery(scenario(okRun(20)));
    expect(r.windows[0]).toMatchObject({ recoveryMs: 0, firstSuccessMs: 50, recovered: true });
  });

  it('reports not recovered when the run ends first', () => {
    const r = recovery(scenario(['fail', 'fail', 'ok', 'fail', 'fail', 'ok', 'fail']));
    expect(r.windows[0]).toMatchObject({
      recoveryMs: null,
      recovered: false,
      status: 'not-recovered',
      firstSuccessMs: 250,
      // The last of the seven ops after the fault started 600 ms after it: all the run could see.
      note: 'did not recover by the end of the run (its last op started 600 ms after the fault ended)',
    });
  });

  it('is not measured, rather than not recovered, when fewer than minOps ops ran after the window', () => {
    // Four clean ops are not enough evidence with the default of 5: nothing to measure, not a failure.
    expect(recovery(scenario(okRun(4))).windows[0]).toMatchObject({
      recovered: false,
      recoveryMs: null,
      status: 'not-measured',
      note: 'only 4 op(s) started after the fault ended (need 5)',
      firstSuccessMs: 50,
    });
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
    expect(r.steadyState).toEqual({ ops: 10, started: 10, rate: 0.9, target: 0.9, floor: 0.8, measured: true });
    expect(r.windows[0]).toMatchObject({ recovered: true, recoveryMs: 0 });
    // Against a 0.99 target every 10-op window holds a failure (5400, 6400, 7400, 8400): only the last five
    // ops (8500..8900) form a clean window.
    const strict = recovery(scenario(after, okRun(10)));
    expect(strict.steadyState.target).toBe(0.99);
    expect(strict.windows[0].recoveryMs).toBe(3500);
  });

  it('does not measure recovery when too few ops ran before the first fault', () => {
    const h = history({
      endMs: history().startMs + 20_000,
      faults: [fault('f1', 500, 1000)],
      ops: [op('pre0', 0, 100, 'fail'), op('pre1', 100, 200, 'fail'), ...series('post', 1000, 20, 100)],
    });
    const r = recovery(h, { targetSuccessRate: 0.95 });
    expect(r.steadyState).toEqual({ ops: 2, started: 2, rate: null, target: 0.95, floor: 0.8, measured: false });
    expect(r.windows[0]).toMatchObject({
      recoveryMs: null,
      status: 'no-steady-state',
      note: 'steady state not measured: 2 op(s) ran before the first fault (need 5)',
      firstSuccessMs: 50,
    });
  });

  it('takes every op ahead of a per-request op window as the steady state, however late it ended', () => {
    // Ops 0-5 are issued before op 6 opens the window at 300 ms, but a slow machine ends them after it.
    const slow = Array.from({ length: 6 }, (_, i) => op(`op-0000${i}`, i * 50, 900 + i * 10));
    const after = Array.from({ length: 20 }, (_, i) =>
      op(`op-${String(6 + i).padStart(5, '0')}`, 1000 + i * 100, 1050 + i * 100),
    );
    const window = {
      ...fault('f1', 300, 1000),
      window: { kind: 'ops', fromOp: 6, toOp: 9, scope: 'per-request' },
    } as const;
    const r = recovery(history({ endMs: history().startMs + 20_000, faults: [window], ops: [...slow, ...after] }));
    expect(r.steadyState).toMatchObject({ ops: 6, measured: true });
    // The control: the same ops under a time window had ended too late to count.
    const timed = recovery(
      history({ endMs: history().startMs + 20_000, faults: [fault('f1', 300, 1000)], ops: [...slow, ...after] }),
    );
    expect(timed.steadyState).toMatchObject({ ops: 0, measured: false });
  });

  it('keeps every op number past its columns growing: of 2,500 ops, the 2,000 ahead of a per-request window count', () => {
    // Every op ends after the window came on, so only its number (kept per row, grown past 1,024) tells ops 0-1999,
    // ahead of the window's first op, from 2000-2499, in it: numbers lost past the first 1,024 rows read as 0.
    const ops = Array.from({ length: 2500 }, (_, i) => op(`op-${String(i).padStart(5, '0')}`, i, 5000 + i));
    const after = Array.from({ length: 20 }, (_, i) => op(`op-${2600 + i}`, 9000 + i * 100, 9050 + i * 100));
    const window = {
      ...fault('f1', 2000, 8000),
      window: { kind: 'ops', fromOp: 2000, toOp: 2599, scope: 'per-request' },
    } as const;
    const r = recovery(history({ endMs: history().startMs + 20_000, faults: [window], ops: [...ops, ...after] }));
    expect(r.steadyState).toMatchObject({ ops: 2000, measured: true });
  });

  it('does not lower the target below the floor: an unhealthy system cannot "recover"', () => {
    // Before the fault every op fails (rate 0): today's target would drop to 0 and any window would pass.
    const r = recovery(scenario(okRun(20), ['fail']));
    expect(r.steadyState).toMatchObject({ ops: 10, rate: 0, measured: false });
    expect(r.windows[0]).toMatchObject({ status: 'no-steady-state', recoveryMs: null, recovered: false });
    expect(r.windows[0].note).toContain('below the floor 80%');
    // At 0.9 it is measured against a target capped at 0.9, unless the floor is raised above 0.9.
    const pattern: OpOutcome[] = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'fail', 'ok', 'ok', 'ok'];
    expect(recovery(scenario(okRun(20), pattern), { steadyStateFloor: 0.95 }).windows[0].status).toBe(
      'no-steady-state',
    );
    expect(recovery(scenario(okRun(20), pattern)).windows[0]).toMatchObject({ status: 'recovered', recoveryMs: 0 });
  });

  it('measures overlapping windows as one outage from the last removal', () => {
    // a: 1000..3000, b: 2500..4000 overlap; c: 6000..6500 stands alone. Ops fail until 4300.
    const h = history({
      endMs: history().startMs + 20_000,
      faults: [fault('a', 1000, 3000), fault('b', 2500, 4000), fault('c', 6000, 6500)],
      ops: [...series('pre', 0, 10, 90), ...series('mid', 1000, 33, 100, ['fail']), ...series('post', 4300, 50, 100)],
    });
    const [a, b, c] = recovery(h).windows;
    // Without grouping, a would be charged with b's outage: recovery from 3000 would be 1300 ms.
    expect(a).toMatchObject({ offAtMs: 3000, outageOffAtMs: 4000, recoveryMs: 300, status: 'recovered' });
    expect(b).toMatchObject({ offAtMs: 4000, outageOffAtMs: 4000, recoveryMs: 300, status: 'recovered' });
    expect(c).toMatchObject({ offAtMs: 6500, outageOffAtMs: 6500, recoveryMs: 0 });
  });

  it('counts an op in flight across t_off that ends ok right after it as the first success', () => {
    const h = history({
      endMs: history().startMs + 20_000,
      faults: [fault('f1', 2000, 5000)],
      ops: [...series('pre', 0, 10, 100), op('across', 4900, 5030, 'ok'), ...series('post', 5100, 10, 100)],
    });
    expect(recovery(h).windows[0].firstSuccessMs).toBe(30);
  });

  it('does not recover a fault that was never removed', () => {
    const h = history({ faults: [fault('stuck', 1000, undefined)], ops: series('x', 0, 50, 100) });
    expect(recovery(h).windows[0]).toMatchObject({
      offAtMs: null,
      outageOffAtMs: null,
      recoveryMs: null,
      firstSuccessMs: null,
      recovered: false,
      status: 'never-removed',
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
