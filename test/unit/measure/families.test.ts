// The retry, reconciliation, recovery, replay and server-seam accumulators over generated runs (ops that never
// ended, attempts of unknown ops, late and unattributed effects, open and op windows, empty runs). This property
// checked them, fed live in any end order, equal to the whole-history functions they replaced (commit a4af262)
// before those were deleted; now a live feed must equal a replay of the recorded history.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, FaultWindow, History, OpRecord, TransportEvent } from '../../../src/core/history.ts';
import type { Effect } from '../../../src/core/ledger.ts';
import { finishFeed } from '../../../src/measure/feed.ts';
import type { MetricsOptions } from '../../../src/measure/options.ts';
import { EffectReconciler } from '../../../src/measure/reconcile.ts';
import { serverSeamMetrics } from '../../../src/measure/server-seam.ts';
import { Recorder } from '../../../src/run/recorder.ts';
import { fed, history, liveFeed, op, T0 } from './fixtures.ts';

const rawOp = fc.record({
  // On a 20 ms grid so ops often start together (ties must not depend on the order they ended in).
  start: fc.integer({ min: 0, max: 40 }).map((n) => n * 20),
  tries: fc.array(
    fc.record({
      dur: fc.integer({ min: 0, max: 80 }),
      ok: fc.boolean(),
      uncertain: fc.boolean(),
      code: fc.constantFrom(undefined, 'LINK.TIMEOUT', 'DEPENDENCY.TIMEOUT'),
      resumptions: fc.constantFrom(undefined, 0, 1, 2),
    }),
    { maxLength: 4 },
  ),
  outcome: fc.constantFrom('ok', 'ok', 'fail', 'info'),
  failedAttempts: fc.constantFrom(0, 0, 1),
  circuitOpen: fc.boolean(),
  sideEffecting: fc.boolean(),
  argsKey: fc.constantFrom(undefined, 'k1', 'k2', 'k3', 'k4'),
  tool: fc.constantFrom('pay', 'peek'),
  hints: fc.constantFrom(undefined, { readOnlyHint: true }, { idempotentHint: true }, { idempotentHint: false }),
  identicalCalls: fc.constantFrom(undefined, 1, 2),
  retries: fc.constantFrom(undefined, 0, 1, 2),
  unsafeReplays: fc.constantFrom(undefined, 0, 1, 2),
  named: fc.integer({ min: 0, max: 9 }),
  ended: fc.integer({ min: 0, max: 9 }),
});
const rawFault = fc.record({
  on: fc.integer({ min: 150, max: 600 }),
  len: fc.option(fc.integer({ min: 0, max: 300 })),
  kind: fc.constantFrom('http-5xx', 'reset'),
  fromOp: fc.option(fc.integer({ min: 0, max: 20 })),
});
const rawEffect = fc.record({
  trace: fc.option(fc.integer({ min: 0, max: 30 })),
  argsKey: fc.constantFrom(undefined, 'k1', 'k2', 'k3', 'k9'),
  // Effects land any time, also after their op ended (late ghosts).
  at: fc.integer({ min: 0, max: 1200 }),
});
type RawOp = typeof rawOp extends fc.Arbitrary<infer T> ? T : never;

interface Run {
  ops: { op: OpRecord | undefined; attempts: AttemptRecord[] }[];
  h: History;
}

function build(raw: RawOp[], faults: FaultWindow[], effects: Effect[], orphans: number): Run {
  const ops = raw.map((r, i) => {
    const opId = r.named === 0 ? `call-${i}` : `op-${i}`;
    let t = T0 + r.start;
    const attempts = r.tries.map((a, n): AttemptRecord => {
      const rec: AttemptRecord = { opId, attempt: n + 1, startMs: t, endMs: t + a.dur, ok: a.ok };
      if (!a.ok && a.code) rec.errorCode = a.code;
      if (!a.ok && a.uncertain) rec.uncertain = true;
      if (a.resumptions !== undefined) rec.resumptions = a.resumptions;
      t += a.dur + 1;
      return rec;
    });
    const op: OpRecord | undefined =
      r.ended === 0
        ? undefined
        : {
            opId,
            tool: r.tool,
            sideEffecting: r.sideEffecting,
            startMs: T0 + r.start,
            endMs: t,
            outcome: r.outcome as OpRecord['outcome'],
            attempts: attempts.length,
            failedAttempts: r.failedAttempts,
            ...(r.circuitOpen && { circuitOpen: true }),
            ...(r.argsKey !== undefined && { argsKey: r.argsKey }),
            ...(r.hints !== undefined && { hints: r.hints }),
            ...(r.identicalCalls !== undefined && { identicalCalls: r.identicalCalls }),
            ...(r.retries !== undefined && { retries: r.retries, replaysAfterUnknown: Math.min(1, r.retries) }),
            ...(r.unsafeReplays !== undefined && { unsafeReplays: r.unsafeReplays }),
          };
    return { op, attempts };
  });
  // Attempts of ops the run never knew.
  for (let i = 0; i < orphans; i++) {
    const a: AttemptRecord = { opId: `lost-${i}`, attempt: 1, startMs: T0 + i, endMs: T0 + i + 5, ok: false };
    ops.push({ op: undefined, attempts: [{ ...a, errorCode: 'LINK.TIMEOUT', resumptions: 1 }] });
  }
  const transportEvents: TransportEvent[] = [
    { atMs: T0, kind: 'reconnect-exhausted', message: 'Maximum reconnection attempts (3) exceeded.' },
  ];
  const h = history({
    endMs: T0 + 1_500,
    ops: ops.flatMap((o) => (o.op ? [o.op] : [])),
    attempts: ops.flatMap((o) => o.attempts),
    faults,
    effects,
    ...(orphans > 0 && { transportEvents }),
  });
  return { ops, h };
}

const run = fc
  .record({
    raw: fc.array(rawOp, { maxLength: 40, size: 'max' }),
    faults: fc.array(rawFault, { maxLength: 3 }),
    effects: fc.array(rawEffect, { maxLength: 25 }),
    orphans: fc.integer({ min: 0, max: 2 }),
    options: fc.record({
      windowMs: fc.integer({ min: 20, max: 400 }),
      minOps: fc.integer({ min: 1, max: 4 }),
      steadyStateFloor: fc.constantFrom(0, 0.3, 0.9),
    }),
  })
  .chain((r) =>
    fc.tuple(
      fc.constant(r),
      fc.shuffledSubarray(
        [...r.raw.keys(), ...Array(r.orphans).keys()].map((_, i) => i),
        {
          minLength: r.raw.length + r.orphans,
        },
      ),
      fc.boolean(),
      // Where each effect arrives among the ends (streamed runs): 2k before op k's attempts, 2k + 1 after them.
      fc.array(fc.nat(), { minLength: r.effects.length, maxLength: r.effects.length }),
    ),
  )
  .map(([r, order, interleaved, places]) => {
    const faults = r.faults.map(
      (f, i): FaultWindow => ({
        id: `f${i}`,
        seam: 'dependency',
        kind: f.kind,
        onMs: T0 + f.on,
        ...(f.len !== null && { offMs: T0 + f.on + f.len }),
        ...(f.fromOp !== null && {
          window: { kind: 'ops', fromOp: f.fromOp, toOp: f.fromOp + 5, scope: 'per-request' },
        }),
      }),
    );
    const effects = r.effects.map(
      (e, i): Effect => ({
        seq: i + 1,
        atMs: T0 + e.at,
        kind: 'payment.charge',
        ...(e.trace !== null && { traceId: e.trace % 7 === 3 ? `stranger-${e.trace}` : `op-${e.trace}` }),
        ...(e.argsKey !== undefined && { argsKey: e.argsKey }),
      }),
    );
    const slots = 2 * order.length + 2;
    const arrivals = places.map((p) => p % slots).sort((a, b) => a - b);
    return {
      ...build(r.raw, faults, effects, r.orphans),
      order,
      interleaved,
      arrivals,
      options: { recovery: r.options },
    };
  });

/** The Recorder fed in end order, finished against the run's frame. */
function live(ops: Run['ops'], order: number[], interleaved: boolean, h: History, options: MetricsOptions) {
  return finishFeed(liveFeed(ops, order, interleaved), h, options);
}

/**
 * The Recorder with the ledger streamed into it: effect j arrives at slot `arrivals[j]` (in ledger order) among the
 * ends, before an op's attempts, between them and its end, or after every end (late ghosts, effects of no op).
 */
function streamed(ops: Run['ops'], order: number[], arrivals: number[], h: History, options: MetricsOptions) {
  const recorder = new Recorder();
  recorder.effectsLive();
  let next = 0;
  const effects = [...h.effects];
  const due = (slot: number) => {
    while (next < effects.length && arrivals[next] <= slot) recorder.effect(effects[next++]);
  };
  for (const [k, i] of order.entries()) {
    due(2 * k);
    for (const a of ops[i].attempts) recorder.attempt(a);
    due(2 * k + 1);
    const o = ops[i].op;
    if (o) recorder.op(o);
  }
  due(Number.POSITIVE_INFINITY);
  recorder.history([], []);
  return finishFeed(recorder.feed, h, options);
}

describe('retry, reconciliation, recovery, replay and server-seam accumulators', () => {
  it('with the ledger streamed, effects arriving before, during and after their ops in any order, equal a replay', () => {
    fc.assert(
      fc.property(run, ({ ops, h, order, arrivals, options }) => {
        const got = streamed(ops, order, arrivals, h, options);
        const want = fed(h, options);
        expect([got.effects, got.replays, got.serverSeam]).toEqual([want.effects, want.replays, want.serverSeam]);
        expect(serverSeamMetrics(got.serverSeam, got.effects, h)).toEqual(
          serverSeamMetrics(want.serverSeam, want.effects, h),
        );
      }),
      { seed: 27, numRuns: 300 },
    );
  });

  it('with the ledger streamed, keeps no op whose effects are as its outcome implies, nor their effects', () => {
    const reconciler = new EffectReconciler();
    reconciler.liveEffects();
    const pays = Array.from({ length: 500 }, (_, i) => op(`op-${i}`, i, i + 5, 'ok', { sideEffecting: true }));
    for (const [i, o] of pays.entries()) {
      reconciler.effect({ seq: i + 1, atMs: o.endMs, kind: 'payment.charge', traceId: o.opId });
      reconciler.op(o);
      reconciler.op(op(`read-${i}`, i, i + 5, 'ok'));
    }
    const kept = reconciler as unknown as { notable: Map<string, unknown>; waiting: Map<string, unknown> };
    expect([kept.notable.size, kept.waiting.size]).toEqual([0, 0]);
    // The control: a lost op is a problem, kept (and listed) to the end.
    reconciler.op(op('lost', 600, 605, 'ok', { sideEffecting: true }));
    expect(kept.notable.size).toBe(1);
  });

  it('fed live, ops ending in any order, equal a replay of the recorded history', () => {
    fc.assert(
      fc.property(run, ({ ops, h, order, interleaved, options }) => {
        const got = live(ops, order, interleaved, h, options);
        const want = fed(h, options);
        expect([got.retry, got.effects, got.recovery, got.replays, got.serverSeam]).toEqual([
          want.retry,
          want.effects,
          want.recovery,
          want.replays,
          want.serverSeam,
        ]);
        expect(serverSeamMetrics(got.serverSeam, got.effects, h)).toEqual(
          serverSeamMetrics(want.serverSeam, want.effects, h),
        );
      }),
      { seed: 27, numRuns: 200 },
    );
  });

  it('reconciles an effect that landed after its op closed (a late ghost), and only against a failed op', () => {
    const lateGhost = (outcome: OpRecord['outcome']) => {
      const recorder = new Recorder();
      recorder.op(op('op-1', 0, 10, outcome, { sideEffecting: true }));
      const h = history({
        ops: [op('op-1', 0, 10, outcome)],
        effects: [{ seq: 1, atMs: T0 + 5_000, kind: 'payment.charge', traceId: 'op-1' }],
      });
      recorder.history([], []);
      return finishFeed(recorder.feed, h, {}).effects;
    };
    expect(lateGhost('fail')).toMatchObject({
      ghostEffects: 1,
      lostEffects: 0,
      reconciliation: { ghostOps: ['op-1'] },
    });
    expect(lateGhost('ok')).toMatchObject({ ghostEffects: 0, lostEffects: 0, unattributedEffects: 0 });
  });
});
