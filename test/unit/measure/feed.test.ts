import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, History, OpRecord } from '../../../src/core/history.ts';
import { finishFeed, type MetricFeed } from '../../../src/measure/feed.ts';
import { Recorder } from '../../../src/run/recorder.ts';
import { fed, history, liveFeed, type SyntheticOp, T0 } from './fixtures.ts';

const category = fc.constantFrom(undefined, 'DEPENDENCY', 'TRANSPORT', 'VALIDATION');
const code = fc.constantFrom(undefined, 'DEPENDENCY.TIMEOUT', 'DEPENDENCY.UNAVAILABLE', 'TRANSPORT.RESET');

const rawOp = fc.record({
  start: fc.integer({ min: 0, max: 60_000 }),
  tries: fc.array(fc.record({ dur: fc.double({ min: 0, max: 3000, noNaN: true }), ok: fc.boolean(), category, code }), {
    maxLength: 4,
  }),
  claimed: fc.integer({ min: 0, max: 5 }),
  outcome: fc.constantFrom('ok', 'fail', 'info'),
  circuitOpen: fc.boolean(),
  ended: fc.double({ min: 0, max: 1, noNaN: true }),
});
type RawOp = typeof rawOp extends fc.Arbitrary<infer T> ? T : never;

/** Ops as the workload records them: each op's attempts, then the op (one in ten never ends). */
function build(raw: RawOp[]): SyntheticOp[] {
  return raw.map((r, i) => {
    const opId = `op-${String(i).padStart(5, '0')}`;
    let t = T0 + r.start;
    const attempts = r.tries.map((a, n) => {
      const rec: AttemptRecord = { opId, attempt: n + 1, startMs: t, endMs: t + a.dur, ok: a.ok };
      if (!a.ok && a.category) rec.category = a.category as AttemptRecord['category'];
      if (!a.ok && a.code) rec.errorCode = a.code;
      t += a.dur + 1;
      return rec;
    });
    const op: OpRecord | undefined =
      r.ended < 0.1
        ? undefined
        : {
            opId,
            tool: 'search_documents',
            sideEffecting: false,
            startMs: T0 + r.start,
            endMs: t,
            outcome: r.outcome as OpRecord['outcome'],
            attempts: r.claimed,
            failedAttempts: attempts.filter((a) => !a.ok).length,
            ...(r.circuitOpen && { circuitOpen: true }),
          };
    return { op, attempts };
  });
}

function asHistory(ops: SyntheticOp[]): History {
  const recorded = ops.flatMap((o) => (o.op ? [o.op] : []));
  return history({ ops: recorded, attempts: ops.flatMap((o) => o.attempts) });
}

const finished = (feed: MetricFeed) => finishFeed(feed, history());

const opsWithOrder = fc
  .array(rawOp, { maxLength: 100 })
  .chain((raw) => fc.tuple(fc.constant(raw), fc.shuffledSubarray([...raw.keys()], { minLength: raw.length })));

describe('metric accumulators', () => {
  // The whole-history functions they replaced were checked equal to them by this property (commit 'Metric
  // accumulators', issue 27) before they were deleted; a recorded history replays to the same results.
  it('fed live by the Recorder, ops ending in any order, equal a replay of the recorded history', () => {
    fc.assert(
      fc.property(opsWithOrder, fc.boolean(), ([raw, order], interleaved) => {
        const ops = build(raw);
        expect(finished(liveFeed(ops, order, interleaved))).toEqual(fed(asHistory(ops)));
      }),
      { seed: 28, numRuns: 150 },
    );
  });

  it('can tell runs apart (a dropped op changes the counts)', () => {
    const raw: RawOp[] = [
      {
        start: 0,
        tries: [{ dur: 10, ok: true, category: undefined, code: undefined }],
        claimed: 1,
        outcome: 'ok',
        circuitOpen: false,
        ended: 1,
      },
      {
        start: 5,
        tries: [{ dur: 20, ok: false, category: 'DEPENDENCY', code: 'DEPENDENCY.TIMEOUT' }],
        claimed: 1,
        outcome: 'fail',
        circuitOpen: false,
        ended: 1,
      },
    ];
    const ops = build(raw);
    const all = finished(liveFeed(ops, [0, 1]));
    const one = finished(liveFeed(ops, [0]));
    expect(all.outcomes.ops).toBe(2);
    expect(all.errors.errorsByCode).toEqual({ 'DEPENDENCY.TIMEOUT': 1 });
    expect(one).not.toEqual(all);
  });

  it('stops feeding when the history is taken, so both hold the same records', () => {
    const [first, late] = build([
      { start: 0, tries: [], claimed: 1, outcome: 'ok', circuitOpen: false, ended: 1 },
      { start: 5, tries: [], claimed: 1, outcome: 'ok', circuitOpen: false, ended: 1 },
    ]);
    const recorder = new Recorder();
    recorder.op(first.op as OpRecord);
    const h = recorder.history([], []);
    recorder.op(late.op as OpRecord);
    expect(finished(recorder.feed).outcomes.ops).toBe(h.ops!.length);
  });
});
