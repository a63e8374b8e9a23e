import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, History, OpRecord } from '../../../src/core/history.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { addSnapshots, countedMetrics, StreamCounters } from '../../../src/measure/stream-counters.ts';
import { history, T0 } from './fixtures.ts';

interface SyntheticOp {
  op: OpRecord;
  attempts: AttemptRecord[];
}

const category = fc.constantFrom(undefined, 'DEPENDENCY', 'TRANSPORT', 'VALIDATION');
const code = fc.constantFrom(undefined, 'DEPENDENCY.TIMEOUT', 'DEPENDENCY.UNAVAILABLE', 'TRANSPORT.RESET');

interface RawOp {
  start: number;
  tries: { dur: number; ok: boolean; category?: string; code?: string }[];
  claimed: number;
  outcome: string;
  circuitOpen: boolean;
}

const syntheticOp: fc.Arbitrary<RawOp> = fc.record({
  start: fc.integer({ min: 0, max: 60_000 }),
  tries: fc.array(fc.record({ dur: fc.double({ min: 0, max: 3000, noNaN: true }), ok: fc.boolean(), category, code }), {
    maxLength: 4,
  }),
  claimed: fc.integer({ min: 0, max: 5 }),
  outcome: fc.constantFrom('ok', 'fail', 'info'),
  circuitOpen: fc.boolean(),
});

/** Ops in completion order, each with the attempts the policy recorded before it. */
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
    const op: OpRecord = {
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

function feed(counters: StreamCounters, ops: SyntheticOp[]): StreamCounters {
  for (const { op, attempts } of ops) {
    for (const a of attempts) counters.attempt(a);
    counters.op(op);
  }
  return counters;
}

function asHistory(ops: SyntheticOp[]): History {
  return history({ ops: ops.map((o) => o.op), attempts: ops.flatMap((o) => o.attempts) });
}

const FIELDS = [
  'ops',
  'opsOk',
  'opsFail',
  'opsInfo',
  'attempts',
  'attemptsPerOp',
  'errorRate',
  'errorsByCategory',
  'errorsByCode',
  'latencyMs',
  'attemptLatencyMs',
  'throughputOpsPerSec',
] as const;

function pick(m: object): Record<string, unknown> {
  return Object.fromEntries(FIELDS.map((f) => [f, (m as Record<string, unknown>)[f]]));
}

describe('StreamCounters', () => {
  it('counts every field exactly as computeMetrics does from the whole history', () => {
    fc.assert(
      fc.property(fc.array(syntheticOp, { maxLength: 120 }), (raw) => {
        const ops = build(raw);
        expect(pick(feed(new StreamCounters(), ops).metrics())).toEqual(pick(computeMetrics(asHistory(ops))));
      }),
      { seed: 20, numRuns: 120 },
    );
  });

  it('adds shard snapshots into exactly the counts of the whole run', () => {
    fc.assert(
      fc.property(fc.array(syntheticOp, { maxLength: 120 }), fc.integer({ min: 1, max: 5 }), (raw, n) => {
        const ops = build(raw);
        const shards = Array.from({ length: n }, (_, k) =>
          feed(
            new StreamCounters(),
            ops.filter((_, i) => i % n === k),
          ).snapshot(),
        );
        // Through JSON, as a snapshot travels between machines.
        const merged = addSnapshots(JSON.parse(JSON.stringify(shards)));
        expect(countedMetrics(merged)).toEqual(feed(new StreamCounters(), ops).metrics());
      }),
      { seed: 21, numRuns: 80 },
    );
  });

  it('can tell runs apart (a dropped op changes the counts)', () => {
    const ops = build([
      {
        start: 0,
        tries: [{ dur: 10, ok: true, category: undefined, code: undefined }],
        claimed: 1,
        outcome: 'ok',
        circuitOpen: false,
      },
      {
        start: 5,
        tries: [{ dur: 20, ok: false, category: 'DEPENDENCY', code: 'DEPENDENCY.TIMEOUT' }],
        claimed: 1,
        outcome: 'fail',
        circuitOpen: false,
      },
    ]);
    const all = feed(new StreamCounters(), ops).metrics();
    const one = feed(new StreamCounters(), ops.slice(0, 1)).metrics();
    expect(all.ops).toBe(2);
    expect(all.errorsByCode).toEqual({ 'DEPENDENCY.TIMEOUT': 1 });
    expect(one).not.toEqual(all);
  });

  it('reports nothing measured as zeros when no op ran', () => {
    const m = new StreamCounters().metrics();
    expect(m.ops).toBe(0);
    expect(m.throughputOpsPerSec).toBe(0);
    expect(countedMetrics(addSnapshots([]))).toEqual(m);
  });
});
