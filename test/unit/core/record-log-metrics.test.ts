// Property: whatever the history (retries, failures, lookups, circuit-open ops, text with canaries, effects matched
// by trace id or argsKey, fault windows), a history read from its record log (slim arrays, whole records on disk)
// gives every metric exactly as an in-memory one recorded from the same records in the same order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANARIES, CANARY_MARKERS } from '../../../mocks/canaries.ts';
import type { AttemptRecord, OpRecord } from '../../../src/core/history.ts';
import type { Effect } from '../../../src/core/ledger.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { Recorder } from '../../../src/run/recorder.ts';

const T0 = 1_700_000_000_000;
const canary = fc.constantFrom('', ...Object.values(CANARIES));

const rawTry = fc.record({
  dur: fc.double({ min: 0, max: 3000, noNaN: true }),
  ok: fc.boolean(),
  code: fc.constantFrom('DEPENDENCY.TIMEOUT', 'TRANSPORT.RESET', 'PROTO.HEADER_MISMATCH'),
  uncertain: fc.boolean(),
  leak: canary,
  notify: fc.boolean(),
});

const rawOp = fc.record({
  start: fc.integer({ min: 0, max: 20_000 }),
  pay: fc.boolean(),
  tries: fc.array(rawTry, { minLength: 0, maxLength: 4 }),
  outcome: fc.constantFrom('ok', 'fail', 'info'),
  circuitOpen: fc.boolean(),
  lookups: fc.integer({ min: 0, max: 2 }),
  leak: canary,
  /** Effects the ledger holds for the op: 0, 1 or 2 (a duplicate), matched by trace id or by argsKey. */
  effects: fc.integer({ min: 0, max: 2 }),
  byArgs: fc.boolean(),
});

const rawRun = fc.record({
  ops: fc.array(rawOp, { maxLength: 40 }),
  windows: fc.array(fc.record({ on: fc.integer({ min: 0, max: 15_000 }), len: fc.integer({ min: 1, max: 8000 }) }), {
    maxLength: 3,
  }),
  strays: fc.integer({ min: 0, max: 2 }),
});

type RawRun = typeof rawRun extends fc.Arbitrary<infer R> ? R : never;

/** Records the run into the recorder as the policy and workload would, returning the ledger's effects. */
function feed(recorder: Recorder, run: RawRun): Effect[] {
  const effects: Effect[] = [];
  run.ops.forEach((r, i) => {
    const opId = `op-${String(i).padStart(5, '0')}`;
    const tool = r.pay ? 'create_payment' : 'search_documents';
    const argsKey = r.pay ? `cus_${i}|${100 + i}` : undefined;
    let t = T0 + r.start;
    const records = r.tries.map((a, n) => {
      const rec: AttemptRecord = {
        opId,
        attempt: n + 1,
        startMs: t,
        endMs: t + a.dur,
        ok: a.ok,
        tool,
        args: r.pay ? { customer_id: `cus_${i}`, api_key: 'sk_live_x' } : { query: 'refund' },
        visible: `${a.ok ? 'result' : a.code} ${opId} ${a.leak}`,
        ...(!a.ok && {
          category: 'DEPENDENCY' as const,
          errorCode: a.code,
          retryable: true,
          uncertain: a.uncertain,
          message: `${a.code} ${a.leak}`,
        }),
        ...(a.notify && { notifications: [`progress ${a.leak}`] }),
      };
      recorder.attempt(rec);
      t = rec.endMs + 10;
      return rec;
    });
    records.forEach((a, n) => {
      a.next = a.ok ? 'done' : n === records.length - 1 ? 'give-up' : 'retry';
    });
    const op: OpRecord = {
      opId,
      tool,
      sideEffecting: r.pay,
      startMs: T0 + r.start,
      endMs: t,
      outcome: r.outcome as OpRecord['outcome'],
      attempts: records.length,
      failedAttempts: records.filter((a) => !a.ok).length,
      lookups: r.lookups,
      visible: `final ${opId} ${r.leak}`,
      ...(argsKey !== undefined && { argsKey }),
      ...(r.circuitOpen && { circuitOpen: true }),
    };
    recorder.op(op);
    for (let n = 0; n < r.effects; n++) {
      effects.push({
        seq: effects.length + 1,
        atMs: op.startMs + 1,
        kind: 'payment.charge',
        ...(r.byArgs && argsKey !== undefined ? { argsKey } : { traceId: opId }),
      });
    }
  });
  for (let n = 0; n < run.strays; n++) effects.push({ seq: effects.length + 1, atMs: T0, kind: 'payment.charge' });
  return effects;
}

function metricsOf(run: RawRun, slim = false) {
  const recorder = new Recorder({ spill: slim });
  run.windows.forEach((_w, i) => {
    recorder.faultOn(`f${i}`, 'dependency', i % 2 === 0 ? 'latency' : 'error');
    recorder.faultOff(`f${i}`);
  });
  const effects = feed(recorder, run);
  const h = recorder.history(effects, []);
  const history = {
    ...h,
    startMs: T0 - 100,
    endMs: T0 + 30_000,
    faults: h.faults.map((f, i) => ({
      ...f,
      onMs: T0 + run.windows[i].on,
      offMs: T0 + run.windows[i].on + run.windows[i].len,
    })),
  };
  return computeMetrics(history, { canaries: CANARY_MARKERS });
}

describe('metrics of a history read from its record log', () => {
  it('equal the in-memory history’s, every metric, on any history', () => {
    let spilledRecords = 0;
    let leaks = 0;
    fc.assert(
      fc.property(rawRun, (run) => {
        const spilled = metricsOf(run, true);
        spilledRecords += run.ops.reduce((n, op) => n + 1 + op.tries.length, 0);
        leaks += spilled.leaks ?? 0;
        expect(JSON.stringify(spilled)).toBe(JSON.stringify(metricsOf(run)));
      }),
      { numRuns: 100, seed: 10 },
    );
    // Not vacuous: records were written, and the leak scan (which reads them back whole) found canaries.
    expect(spilledRecords).toBeGreaterThan(1000);
    expect(leaks).toBeGreaterThan(50);
  });
});
