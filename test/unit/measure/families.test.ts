// The retry, reconciliation, recovery, replay and server-seam accumulators, fed live by the Recorder with ops ending
// in any order, equal the whole-history functions they replaced (test/unit/measure/old/) over generated runs:
// ops that never ended, attempts of unknown ops, late and unattributed effects, open and op windows, empty runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, FaultWindow, History, OpRecord, TransportEvent } from '../../../src/core/history.ts';
import type { Effect } from '../../../src/core/ledger.ts';
import { finishFeed } from '../../../src/measure/feed.ts';
import { replayMetrics } from '../../../src/measure/replays.ts';
import { serverSeamMetrics } from '../../../src/measure/server-seam.ts';
import type { MetricsOptions } from '../../../src/measure/types.ts';
import { Recorder } from '../../../src/run/recorder.ts';
import { history, T0 } from './fixtures.ts';
import { reconcile as oldReconcile } from './old/reconcile.ts';
import { recovery as oldRecovery } from './old/recovery.ts';
import { replayMetrics as oldReplays } from './old/replays.ts';
import { retrySuccess as oldRetry } from './old/retry.ts';
import { serverSeamMetrics as oldSeam } from './old/server-seam.ts';

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
    ),
  )
  .map(([r, order, interleaved]) => {
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
    return { ...build(r.raw, faults, effects, r.orphans), order, interleaved, options: { recovery: r.options } };
  });

/** The Recorder fed in end order: ops end in `order`; with `interleaved` every attempt comes before any op ends. */
function live(ops: Run['ops'], order: number[], interleaved: boolean, h: History, options: MetricsOptions) {
  const recorder = new Recorder();
  const end = (i: number) => {
    const o = ops[i].op;
    if (o) recorder.op(o);
  };
  for (const i of order) {
    for (const a of ops[i].attempts) recorder.attempt(a);
    if (!interleaved) end(i);
  }
  if (interleaved) for (const i of order) end(i);
  recorder.history([], []);
  return finishFeed(recorder.feed, h, options);
}

const byId = (a: OpRecord, b: OpRecord) => (a.opId < b.opId ? -1 : a.opId > b.opId ? 1 : 0);
/** The history as the old functions read it: ops in start order, ties as each family now breaks them. */
const sorted = (h: History, tie: (a: OpRecord, b: OpRecord) => number): History => ({
  ...h,
  ops: [...h.ops].sort((a, b) => a.startMs - b.startMs || tie(a, b)),
});
const failedFirst = (a: OpRecord, b: OpRecord) => Number(a.outcome === 'ok') - Number(b.outcome === 'ok');

describe('retry, reconciliation, recovery, replay and server-seam accumulators', () => {
  it('fed live in any end order equal the whole-history functions', () => {
    fc.assert(
      fc.property(run, ({ ops, h, order, interleaved, options }) => {
        const got = live(ops, order, interleaved, h, options);
        const inOrder = sorted(h, byId);
        const effects = oldReconcile(inOrder);
        const observable = h.effectsObservable !== false;
        expect(got.retry).toEqual(oldRetry(h));
        expect(got.effects).toEqual(effects);
        expect(got.recovery).toEqual(oldRecovery(sorted(h, failedFirst), options.recovery));
        expect(replayMetrics(got.replays, got.effects, observable)).toEqual(oldReplays(inOrder, effects, observable));
        expect(serverSeamMetrics(got.serverSeam, got.effects, h)).toEqual(oldSeam(h, effects));
      }),
      { seed: 27, numRuns: 300 },
    );
  });
});
