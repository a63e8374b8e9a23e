// The application-guard, edge and input-round accumulators over generated runs (ops that never ended, attempts of
// unknown ops, empty runs, n/a): fed live by the Recorder in end order, they equal a replay of the recorded history.
// The whole-history functions they replaced were checked equal to them by this property (commit 4241802) before
// they were deleted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, BreakerEvent, FaultWindow, History, OpRecord } from '../../../src/core/history.ts';
import { finishFeed } from '../../../src/measure/feed.ts';
import { Recorder } from '../../../src/run/recorder.ts';
import { attempt, fault, fed, history, liveFeed, op, type SyntheticOp, T0 } from './fixtures.ts';

const category = fc.constantFrom(undefined, 'AUTH', 'VALIDATION', 'INTERNAL', 'PROTO', 'LINK');
const code = fc.constantFrom(undefined, 'PROTO.HEADER_MISMATCH', 'AUTH.TOKEN_EXPIRED', 'LINK.TIMEOUT');
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const rawAttempt = fc.record({
  dur: fc.integer({ min: 0, max: 3000 }),
  ok: fc.boolean(),
  category,
  code,
  budget: fc.constantFrom(undefined, 'truncated', 'paginated'),
  resultBytes: maybe(fc.integer({ min: 0, max: 100_000 })),
  headerTampered: fc.boolean(),
  httpStatus: fc.constantFrom(undefined, 200, 202, 400, 500),
  inputRounds: fc.constantFrom(undefined, 0, 1, 2),
});

const rawOp = fc.record({
  start: fc.integer({ min: 0, max: 20_000 }),
  tries: fc.array(rawAttempt, { maxLength: 4 }),
  outcome: fc.constantFrom('ok', 'fail', 'info'),
  category,
  lookups: maybe(fc.integer({ min: 0, max: 3 })),
  lookupsFound: maybe(fc.integer({ min: 0, max: 2 })),
  authRefreshes: maybe(fc.integer({ min: 0, max: 2 })),
  circuitOpen: fc.boolean(),
  mistake: fc.constantFrom(undefined, 'wrong-type'),
  corrections: maybe(fc.integer({ min: 0, max: 2 })),
  loopGuardStop: fc.boolean(),
  /** Below 0.15: the op never ended; below 0.25: its attempts name an op id no op record has. */
  ended: fc.double({ min: 0, max: 1, noNaN: true }),
});
type RawOp = typeof rawOp extends fc.Arbitrary<infer T> ? T : never;

const rawFault = fc.record({ on: fc.integer({ min: 0, max: 20_000 }), len: maybe(fc.integer({ min: 0, max: 8000 })) });
const rawBreaker = fc.record({
  key: fc.constantFrom('pay', 'search'),
  at: fc.integer({ min: 0, max: 20_000 }),
  state: fc.constantFrom<BreakerEvent['state']>('open', 'half-open', 'closed'),
});

function build(raw: RawOp[]): SyntheticOp[] {
  return raw.map((r, i) => {
    const opId = `op-${i}`;
    const attemptOpId = r.ended < 0.25 && r.ended >= 0.15 ? `unknown-${i}` : opId;
    let t = T0 + r.start;
    const attempts = r.tries.map((a, n) => {
      const rec: AttemptRecord = { opId: attemptOpId, attempt: n + 1, startMs: t, endMs: t + a.dur, ok: a.ok };
      if (a.category) rec.category = a.category as AttemptRecord['category'];
      if (!a.ok && a.code) rec.errorCode = a.code;
      if (a.budget) rec.budget = a.budget as AttemptRecord['budget'];
      if (a.resultBytes !== undefined) rec.resultBytes = a.resultBytes;
      if (a.headerTampered) rec.headerTampered = true;
      if (a.httpStatus !== undefined) rec.httpStatus = a.httpStatus;
      if (a.inputRounds !== undefined) rec.inputRounds = a.inputRounds;
      t += a.dur + 1;
      return rec;
    });
    const { lookups, lookupsFound, authRefreshes, mistake, corrections } = r;
    const op: OpRecord | undefined =
      r.ended < 0.15
        ? undefined
        : {
            opId,
            tool: 'pay',
            sideEffecting: true,
            startMs: T0 + r.start,
            endMs: t,
            outcome: r.outcome as OpRecord['outcome'],
            attempts: attempts.length,
            failedAttempts: attempts.filter((a) => !a.ok).length,
            ...(r.category && { category: r.category as OpRecord['category'] }),
            ...(lookups !== undefined && { lookups }),
            ...(lookupsFound !== undefined && { lookupsFound }),
            ...(authRefreshes !== undefined && { authRefreshes }),
            ...(r.circuitOpen && { circuitOpen: true }),
            ...(mistake && { mistake }),
            ...(corrections !== undefined && { corrections }),
            ...(r.loopGuardStop && { loopGuardStop: true }),
          };
    return { op, attempts };
  });
}

/** The history as the Recorder hands it over: records sorted by start. */
function asHistory(ops: SyntheticOp[], faults: FaultWindow[], breaker: BreakerEvent[]): History {
  const byStart = <T extends { startMs: number }>(xs: T[]) => xs.sort((a, b) => a.startMs - b.startMs);
  return history({
    ops: byStart(ops.flatMap((o) => (o.op ? [o.op] : []))),
    attempts: byStart(ops.flatMap((o) => o.attempts)),
    faults,
    breaker,
    endMs: T0 + 30_000,
  });
}

const run = fc
  .record({
    raw: fc.array(rawOp, { maxLength: 60 }),
    faults: fc.array(rawFault, { maxLength: 3 }),
    breaker: fc.array(rawBreaker, { maxLength: 6 }),
    interleaved: fc.boolean(),
    announced: fc.boolean(),
    offLate: fc.boolean(),
  })
  .chain((r) =>
    fc.record({ r: fc.constant(r), order: fc.shuffledSubarray([...r.raw.keys()], { minLength: r.raw.length }) }),
  );

type Run = typeof run extends fc.Arbitrary<infer T> ? T : never;

function parts({ r, order }: Run) {
  const ops = build(r.raw);
  // Two windows may share an id (a fault that goes on again).
  const faults: FaultWindow[] = r.faults.map((f, i) => ({
    id: `f${i % 2}`,
    seam: 'dependency',
    kind: 'http-5xx',
    onMs: T0 + f.on,
    ...(f.len !== undefined && { offMs: T0 + f.on + f.len }),
  }));
  const breaker = r.breaker.map((b) => ({ key: b.key, atMs: T0 + b.at, state: b.state }));
  const h = asHistory(ops, faults, breaker);
  return { h, feed: liveFeed(ops, order, r.interleaved, r.announced, faults, r.offLate) };
}

describe('guard, edge and input-round accumulators', () => {
  it('fed live in end order equal a replay of the recorded history', () => {
    fc.assert(
      fc.property(run, (input) => {
        const { h, feed } = parts(input);
        const got = finishFeed(feed, h);
        const replayed = fed(h);
        expect([got.application, got.edges, got.inputRounds]).toEqual([
          replayed.application,
          replayed.edges,
          replayed.inputRounds,
        ]);
      }),
      { seed: 27, numRuns: 300 },
    );
  });

  it('the busiest second counts an attempt whose op ended long after it started', () => {
    const recorder = new Recorder();
    // 'slow' starts in the busy second but ends (and is fed) 30 s later, after the others.
    const slow = attempt('slow', 1, 500, 30_500, true);
    const quick = [0, 100, 900].map((t, i) => attempt(`q${i}`, 1, t, t + 5, true));
    for (const a of quick) {
      recorder.attempt(a);
      recorder.op(op(a.opId, a.startMs - T0, a.endMs - T0));
    }
    recorder.attempt(slow);
    recorder.op(op('slow', 500, 30_500));
    const h = recorder.history([], []);
    expect(finishFeed(recorder.feed, h).application.attemptsPerSecondMax).toBe(4);
    // The control: without it the busiest second holds 3.
    expect(fed(history({ attempts: quick })).application.attemptsPerSecondMax).toBe(3);
  });

  it('a failure fed after a window went on is its first when it ended first; a failure before the onset is not', () => {
    const early = attempt('a', 1, 0, 900, false, { errorCode: 'LINK.TIMEOUT' });
    const first = attempt('b', 1, 950, 1200, false, { errorCode: 'DEPENDENCY.UNAVAILABLE' });
    const later = attempt('c', 1, 1000, 1100 + 400, false, { errorCode: 'LINK.RESET' });
    const h = history({ faults: [fault('f', 1000, 2000)] });
    const detect = (attempts: AttemptRecord[]) => fed({ ...h, attempts }).edges.detect[0];
    expect(detect([later, early, first])).toMatchObject({ detectMs: 200, errorCode: 'DEPENDENCY.UNAVAILABLE' });
    expect(detect([early])).toMatchObject({ detectMs: null });
  });

  it('fault detection lets failures go once the watermark passes them, and finds the first one whatever the off time', () => {
    const recorder = new Recorder();
    recorder.faultOn('f', 'dependency', 'http-5xx', false, { kind: 'time' }, T0 + 1000);
    // 'a' ended first but started late; 'b' started before the onset and ended after it.
    const a = attempt('a', 1, 1500, 1600, false, { errorCode: 'LINK.RESET' });
    const b = attempt('b', 1, 900, 1700, false, { errorCode: 'DEPENDENCY.TIMEOUT' });
    recorder.opStarted('b', T0 + 900);
    recorder.opStarted('a', T0 + 1500);
    recorder.opStarted('c', T0 + 1800);
    for (const x of [a, b]) {
      recorder.attempt(x);
      recorder.op(op(x.opId, x.startMs - T0, x.endMs - T0, 'fail'));
    }
    const kept = recorder.feed.edges as unknown as { failures: unknown[] };
    expect(kept.failures).toHaveLength(0);
    // The removal is known only now, and lies before 'a' started: 'b' is the window's first failure.
    recorder.faultOff('f', T0 + 1400);
    recorder.op(op('c', 1800, 1810));
    const h = recorder.history([], []);
    const detect = finishFeed(recorder.feed, h).edges.detect;
    expect(detect).toEqual([{ fault: 'f', kind: 'http-5xx', detectMs: 700, errorCode: 'DEPENDENCY.TIMEOUT' }]);
    expect(detect).toEqual(fed(h).edges.detect);
  });

  it('fault detection keeps a repeated fault window (the same id going on again) apart', () => {
    const recorder = new Recorder();
    recorder.faultOn('f', 'dependency', 'http-5xx', false, { kind: 'time' }, T0 + 1000);
    recorder.faultOff('f', T0 + 1100);
    recorder.faultOn('f', 'dependency', 'http-5xx', false, { kind: 'time' }, T0 + 2000);
    const fails = [attempt('a', 1, 1050, 1080, false), attempt('b', 1, 2050, 2100, false)];
    for (const [id, at] of [
      ['a', 1050],
      ['b', 2050],
      ['c', 3000],
    ] as const)
      recorder.opStarted(id, T0 + at);
    for (const x of fails) {
      recorder.attempt(x);
      recorder.op(op(x.opId, x.startMs - T0, x.endMs - T0, 'fail'));
    }
    recorder.op(op('c', 3000, 3010));
    const h = recorder.history([], []);
    const detect = finishFeed(recorder.feed, h).edges.detect;
    expect(detect.map((d) => d.detectMs)).toEqual([80, 100]);
    expect(detect).toEqual(fed(h).edges.detect);
  });

  it('input rounds: n/a without a retried round; a completed call with one counts its round trips', () => {
    expect(fed(history({ attempts: [attempt('a', 1, 0, 1, true)], ops: [op('a', 0, 1)] })).inputRounds).toEqual({});
    const rounds = history({ attempts: [attempt('a', 1, 0, 1, true, { inputRounds: 1 })], ops: [op('a', 0, 1)] });
    expect(fed(rounds).inputRounds).toEqual({ callsWithInput: 1, roundsPerCompletedCall: 2 });
    // The control: the same call never completed (its op did not end) completes nothing.
    expect(fed({ ...rounds, ops: [] }).inputRounds).toEqual({ callsWithInput: 0, roundsPerCompletedCall: null });
  });
});
