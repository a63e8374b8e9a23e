// The spilled history (records slim in memory, whole on disk) against the in-memory one: the same records, fed to
// both recorders in the same order, give the same report.json metrics, trace.jsonl and history.jsonl, byte for byte.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARIES, CANARY_MARKERS } from '../../../mocks/canaries.ts';
import type { AttemptRecord, History, OpRecord } from '../../../src/core/history.ts';
import type { Effect } from '../../../src/core/ledger.ts';
import { RecordSpill, whole, wholeHistory } from '../../../src/core/record-spill.ts';
import type { RunReport } from '../../../src/measure/run-report.ts';
import { buildProfileReport } from '../../../src/measure/verdict.ts';
import { renderHistories } from '../../../src/report/history-file.ts';
import { renderTrace } from '../../../src/report/trace.ts';
import { writeReports } from '../../../src/report/write.ts';
import { Recorder } from '../../../src/run/recorder.ts';

const T0 = 1_700_000_000_000;

/** 300 ops: search pages, payments, 1 in 7 retried, 1 in 25 leaking a canary (in text, a notification or an error). */
function feed(recorder: Recorder): Effect[] {
  const effects: Effect[] = [];
  const canaries = Object.values(CANARIES);
  for (let i = 0; i < 300; i++) {
    const opId = `op-${String(i).padStart(4, '0')}`;
    const pay = i % 3 === 0;
    const leak = i % 25 === 0 ? canaries[(i / 25) % canaries.length] : '';
    const start = T0 + i * 7;
    const tries = i % 7 === 0 ? 2 : 1;
    let t = start;
    const records: AttemptRecord[] = [];
    for (let n = 1; n <= tries; n++) {
      const ok = n === tries;
      const a: AttemptRecord = {
        opId,
        attempt: n,
        startMs: t,
        endMs: t + 5 + (i % 11),
        ok,
        tool: pay ? 'create_payment' : 'search_documents',
        args: pay ? { customer_id: `cus_${i}`, amount_cents: 100 + i, api_key: 'sk_live_secret' } : { query: 'refund' },
        ...(ok
          ? { visible: pay ? `Payment ${opId} ok ${leak}` : `doc-${i} Runbook ${i % 5 === 0 ? leak : ''}` }
          : { category: 'DEPENDENCY', errorCode: 'DEPENDENCY.TIMEOUT', message: `timed out ${leak}`, retryable: true }),
        ...(i % 50 === 10 && { notifications: [`progress ${leak || CANARIES.password}`] }),
      };
      recorder.attempt(a);
      records.push(a);
      t = a.endMs + 20;
    }
    // The policy says what came next after recording (client/failure.ts, attempt.ts), before the op ends.
    for (const a of records) a.next = a.ok ? 'done' : 'retry';
    const op: OpRecord = {
      opId,
      tool: pay ? 'create_payment' : 'search_documents',
      sideEffecting: pay,
      startMs: start,
      endMs: t,
      outcome: 'ok',
      attempts: tries,
      failedAttempts: tries - 1,
      visible: records[records.length - 1].visible,
      ...(pay && { argsKey: `cus_${i}|${100 + i}` }),
    };
    recorder.op(op);
    if (pay) effects.push({ seq: effects.length, atMs: start + 3, kind: 'payment.charge', traceId: opId });
  }
  return effects;
}

function recorded(spill?: RecordSpill): History {
  const recorder = new Recorder(spill);
  recorder.faultOn('f1', 'dependency', 'latency');
  const effects = feed(recorder);
  recorder.faultOff('f1');
  const h = recorder.history(effects, [{ stream: 'client', what: 'jitter', value: 3 }]);
  return {
    ...h,
    startMs: T0 - 100,
    endMs: T0 + 5000,
    faults: h.faults.map((f) => ({ ...f, onMs: T0, offMs: T0 + 900 })),
  };
}

function report(h: History) {
  return buildProfileReport({
    name: 'spill',
    seed: 1,
    policy: 'resilient',
    history: h,
    expect: ['leaks == 0', 'error_rate == 0'],
    decisionLogSha256: 'x',
    metricsOptions: { canaries: CANARY_MARKERS },
  });
}

describe('RecordSpill', () => {
  it('keeps records slim in memory and reads them back whole, with fields set since', () => {
    const spill = new RecordSpill();
    const a: AttemptRecord = {
      ...{ opId: 'o', attempt: 1, startMs: 1, endMs: 2, ok: true, tool: 't', idempotencyKey: 'k', requestId: 'r' },
      ...{ backoffMs: 5, visible: 'v', args: { x: 1 } },
    };
    const slim = spill.attempt(a);
    // What only the leak scan and trace.jsonl read stays on disk.
    expect(Object.keys(slim)).toEqual(['opId', 'attempt', 'startMs', 'endMs', 'ok']);
    slim.next = 'done';
    expect(whole(slim)).toEqual({ ...a, next: 'done' });
    expect(Object.keys(whole(slim))).toEqual([...Object.keys(a), 'next']);
    expect(spill.written).toBe(1);
    const plain: OpRecord = {
      opId: 'o',
      tool: 't',
      sideEffecting: false,
      startMs: 1,
      endMs: 2,
      outcome: 'ok',
      attempts: 1,
      failedAttempts: 0,
    };
    expect(spill.op(plain)).toBe(plain); // nothing to spill: kept as it is
  });

  it('hides where a record lies from spread, JSON and keys; a copy is not the spilled record', () => {
    const spill = new RecordSpill();
    const slim = spill.attempt({ opId: 'o', attempt: 1, startMs: 1, endMs: 2, ok: true, visible: 'v' });
    expect(JSON.stringify(slim)).toBe('{"opId":"o","attempt":1,"startMs":1,"endMs":2,"ok":true}');
    expect(Reflect.ownKeys({ ...slim })).toEqual(['opId', 'attempt', 'startMs', 'endMs', 'ok']);
    expect(whole({ ...slim })).not.toHaveProperty('visible'); // a copy carries no place
    expect(whole(slim)).toHaveProperty('visible', 'v');
  });

  it('reads back records bigger than its shared buffer, and small ones around them, intact', () => {
    const spill = new RecordSpill();
    const text = (n: number, c: string) => c.repeat(n);
    const sizes = [10, 3 * 1024 * 1024, 20, 1024 * 1024 - 40, 5];
    const slims = sizes.map((n, i) =>
      spill.attempt({ opId: `o${i}`, attempt: 1, startMs: 1, endMs: 2, ok: true, visible: text(n, 'abcde'[i]) }),
    );
    const first = whole(slims[0]);
    const back = slims.map((s) => whole(s).visible);
    expect(back.map((v) => v?.length)).toEqual(sizes);
    expect(back.map((v) => v?.[0])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(first.visible).toBe(text(10, 'a')); // a later read does not change what an earlier one gave
  });

  it('a spilled history gives the in-memory history’s metrics, trace.jsonl and history.jsonl exactly', async () => {
    const inMemory = recorded();
    const spill = new RecordSpill();
    const spilled = recorded(spill);
    expect(spill.written).toBeGreaterThan(500);
    expect(spilled.attempts.every((a) => a.visible === undefined && a.args === undefined)).toBe(true);
    const expected = report(inMemory);
    // Not a vacuous comparison: the leak scan found the planted canaries (in text, notifications and errors).
    expect(expected.metrics.leaks).toBeGreaterThanOrEqual(12);
    expect(JSON.stringify(report(spilled))).toBe(JSON.stringify(expected));
    expect(JSON.stringify(wholeHistory(spilled))).toBe(JSON.stringify(inMemory));

    const run = { profiles: [{ ...expected, workloadOffsetMs: 100 }] } as unknown as RunReport;
    expect(renderTrace({ spill: spilled }, run)).toBe(renderTrace({ spill: inMemory }, run));
    expect(renderHistories({ spill: spilled })).toBe(renderHistories({ spill: inMemory }));

    // And as written to disk, piece by piece, against the one-string renderers of the in-memory history.
    const dir = mkdtempSync(join(tmpdir(), 'faultline-spill-test-'));
    try {
      await writeReports(dir, run, { spill: spilled }, { only: ['trace.jsonl', 'history.jsonl'] });
      expect(readFileSync(join(dir, 'trace.jsonl'), 'utf8')).toBe(renderTrace({ spill: inMemory }, run));
      expect(readFileSync(join(dir, 'history.jsonl'), 'utf8')).toBe(renderHistories({ spill: inMemory }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
