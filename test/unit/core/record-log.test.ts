// The record log (compact, on disk) and the history read from it (no records in memory, all read from the log) against
// the in-memory one: the same records, fed to both recorders in the same order, give the same report.json metrics,
// trace.jsonl, history.jsonl and report.html profile section, byte for byte; and `faultline report` from the compact
// history.jsonl the run wrote renders the run's files again, byte for byte.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARIES, CANARY_MARKERS } from '../../../mocks/canaries.ts';
import { reportCommand } from '../../../src/cli/report-command.ts';
import type { AttemptRecord, History, OpRecord } from '../../../src/core/history.ts';
import { wholeHistory } from '../../../src/core/history-records.ts';
import type { Effect } from '../../../src/core/ledger.ts';
import { RecordLog } from '../../../src/core/record-log.ts';
import type { RunReport } from '../../../src/measure/run-report.ts';
import { buildProfileReport, buildRunReport } from '../../../src/measure/verdict.ts';
import { renderHistories } from '../../../src/report/history-file.ts';
import { profileSectionPieces } from '../../../src/report/html-profile.ts';
import { renderTrace } from '../../../src/report/trace.ts';
import { REPORT_FILES, writeReports } from '../../../src/report/write.ts';
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
    const start = T0 + i * 7.3; // off the whole ms, as a clock reads
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

/** Through a Recorder and its record log; or (plain) the same records straight into arrays, by start. */
function recorded(slim = false, plain = false): History {
  const recorder = new Recorder({ spill: slim });
  recorder.faultOn('f1', 'dependency', 'latency');
  const attempts: AttemptRecord[] = [];
  const ops: OpRecord[] = [];
  const into = { attempt: (a: AttemptRecord) => attempts.push(a), op: (o: OpRecord) => ops.push(o) };
  const effects = feed(plain ? (into as unknown as Recorder) : recorder);
  recorder.faultOff('f1');
  const h = recorder.history(effects, [{ stream: 'client', what: 'jitter', value: 3 }]);
  if (plain) {
    h.attempts = attempts.sort((a, b) => a.startMs - b.startMs);
    h.ops = ops.sort((a, b) => a.startMs - b.startMs);
  }
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

const attempt = (over: Partial<AttemptRecord> = {}): AttemptRecord => ({
  ...{ opId: 'op-1', attempt: 1, startMs: T0 + 10.123, endMs: T0 + 250.5, ok: true, tool: 'search_documents' },
  ...{ idempotencyKey: 'k', requestId: 'r', backoffMs: 5, visible: 'ten results', args: { query: 'x' }, next: 'done' },
  ...over,
});
const op = (over: Partial<OpRecord> = {}): OpRecord => ({
  ...{ opId: 'op-1', tool: 'search_documents', sideEffecting: false, startMs: T0 + 10, endMs: T0 + 260 },
  ...{ outcome: 'ok', attempts: 1, failedAttempts: 0, visible: 'ten results' },
  ...over,
});

describe('RecordLog', () => {
  it('reads an op and its attempts back exactly as written, key order included, in order and by number', () => {
    const log = new RecordLog(T0);
    const first = [attempt({ ok: false, next: 'retry' }), attempt({ attempt: 2, startMs: T0 + 300 })];
    log.append(first, op({ attempts: 2, failedAttempts: 1 }));
    log.append([attempt({ opId: 'op-2', attempt: 3 })], undefined); // a stopped run's unfinished op
    log.append([], op({ opId: 'op-3', startMs: 5, endMs: 7 })); // times far from the run's start
    const back = [...log.groups()];
    expect(JSON.stringify(back)).toBe(
      JSON.stringify([
        { opId: 'op-1', op: op({ attempts: 2, failedAttempts: 1 }), attempts: first },
        { opId: 'op-2', attempts: [attempt({ opId: 'op-2', attempt: 3 })] },
        { opId: 'op-3', op: op({ opId: 'op-3', startMs: 5, endMs: 7 }), attempts: [] },
      ]),
    );
    expect(log.group(1)).toEqual(back[1]);
    expect(log.count).toBe(3);
  });

  it('writes a repeated op in well under its JSON size: short keys, relative times, repeated text named', () => {
    const log = new RecordLog(T0);
    const text = 'doc_0003 Invoices runbook 1\n'.repeat(20);
    const n = 200;
    let json = 0;
    for (let i = 0; i < n; i++) {
      const opId = `op-${i}`;
      const a = attempt({ opId, startMs: T0 + i * 7.25, endMs: T0 + i * 7.25 + 130.0625, visible: text });
      const o = op({ opId, startMs: T0 + i * 7, endMs: T0 + i * 7 + 140, visible: text });
      json += JSON.stringify(a).length + JSON.stringify(o).length;
      log.append([a], o);
    }
    // The text is written twice (first and second sighting), then by its name.
    expect(log.bytes).toBeLessThan(json / 4);
    expect(log.bytes / n).toBeLessThan(300);
    expect([...log.groups()][n - 1].attempts[0].visible).toBe(text);
  });

  it("names no answer unique to its op: the op's answer is its last attempt's, written there only", () => {
    const log = new RecordLog(T0);
    const groups = Array.from({ length: 500 }, (_, i) => {
      const opId = `op-${i}`;
      const answer = `Charged ${i} USD: ch_${i}`;
      const attempts = [attempt({ opId, ok: false, visible: 'busy' }), attempt({ opId, attempt: 2, visible: answer })];
      return { opId, op: op({ opId, visible: answer, attempts: 2 }), attempts };
    });
    for (const g of groups) log.append(g.attempts, g.op);
    // Named: the repeated 'busy' and other values every op shares, never the 500 answers.
    expect(log.names).toBeLessThan(10);
    expect(JSON.stringify([...log.groups()])).toBe(JSON.stringify(groups));
    expect(log.group(499)).toEqual(groups[499]);
    // An op whose answer is not its last attempt's keeps its own.
    log.append([attempt({ opId: 'x', visible: 'a' })], op({ opId: 'x', visible: 'b' }));
    expect(log.group(500).op?.visible).toBe('b');
  });

  it('keeps a value that looks like a name as it is', () => {
    const log = new RecordLog(T0);
    for (const message of ['~0', '~~', '~', '~0', '~0']) log.append([attempt({ message })], undefined);
    expect([...log.groups()].map((g) => g.attempts[0].message)).toEqual(['~0', '~~', '~', '~0', '~0']);
  });

  it('reads back records bigger than the shared read buffer, and small ones around them, intact', () => {
    const log = new RecordLog(T0);
    const sizes = [10, 3 * 1024 * 1024, 20, 1024 * 1024 - 40, 5, 1000 * 1000, 7];
    sizes.forEach((n, i) => {
      log.append([attempt({ opId: `o${i}`, visible: 'abcdefg'[i].repeat(n) })], undefined);
    });
    const first = log.group(0).attempts[0];
    const back = sizes.map((_n, i) => log.group(i).attempts[0].visible);
    expect(back.map((v) => v?.length)).toEqual(sizes);
    expect(back.map((v) => v?.[0])).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect([...log.groups()].map((g) => g.attempts[0].visible?.length)).toEqual(sizes);
    expect(first.visible).toBe('a'.repeat(10)); // a later read does not change what an earlier one gave
  });

  it('a history read from its log gives the in-memory history’s metrics, trace.jsonl and history.jsonl exactly', async () => {
    const inMemory = recorded(false, true);
    const spilled = recorded(true);
    expect(JSON.stringify(recorded())).toBe(JSON.stringify(inMemory));
    expect(spilled.records?.count).toBe(300);
    expect(inMemory.records).toBeUndefined();
    expect([spilled.attempts, spilled.ops]).toEqual([undefined, undefined]); // nothing of the records in memory
    const expected = report(inMemory);
    // Not a vacuous comparison: the leak scan found the planted canaries (in text, notifications and errors).
    expect(expected.metrics.leaks).toBeGreaterThanOrEqual(12);
    expect(JSON.stringify(report(spilled))).toBe(JSON.stringify(expected));
    expect(JSON.stringify(wholeHistory(spilled))).toBe(JSON.stringify(inMemory));

    const run = { profiles: [{ ...expected, workloadOffsetMs: 100 }] } as unknown as RunReport;
    expect(renderTrace({ spill: spilled }, run)).toBe(renderTrace({ spill: inMemory }, run));
    expect(renderHistories({ spill: spilled })).toBe(renderHistories({ spill: inMemory }));
    // report.html's profile (timeline, latency chart, effects table) read in passes over the log, not arrays.
    const profileSection = (h: typeof inMemory) => [...profileSectionPieces(run.profiles[0], h)].join('');
    const section = profileSection(inMemory);
    expect(section.match(/<circle class="op /g)).toHaveLength(inMemory.ops!.length);
    expect(profileSection(spilled)).toBe(section);

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

  it('faultline report from the history.jsonl a run wrote renders every file of the run again, byte for byte', async () => {
    const spilled = recorded(true);
    const run = buildRunReport({
      seed: 1,
      startedAt: new Date(T0),
      durationMs: 5100,
      profiles: [{ ...report(spilled), workloadOffsetMs: 100 }],
    });
    const dir = mkdtempSync(join(tmpdir(), 'faultline-history-test-'));
    const [ran, again] = [join(dir, 'run'), join(dir, 'again')];
    const stderr = process.stderr.write;
    try {
      await writeReports(ran, run, { spill: spilled });
      const read = (where: string, name: string) => readFileSync(join(where, name), 'utf8');
      const history = read(ran, 'history.jsonl');
      expect(history).toContain('"format":2');
      // What the model saw of each attempt (some of it with a planted canary): history.jsonl and trace.jsonl keep its
      // length, not its text (`Payment op-… ok`, `doc-… Runbook`).
      expect(run.profiles[0].metrics.leaks).toBeGreaterThanOrEqual(12);
      for (const text of [history, read(ran, 'trace.jsonl')]) {
        expect(text).not.toMatch(/"visible"|Runbook|Payment op-/);
        expect(text).toContain('"visibleChars":');
      }
      process.stderr.write = () => true;
      expect(await reportCommand(ran, { out: again })).toBe(0);
      process.stderr.write = stderr;
      for (const name of REPORT_FILES) {
        // report.html names the report.json to replay by its path.
        const text = read(again, name).replaceAll(join(again, 'report.json'), join(ran, 'report.json'));
        expect(text, name).toBe(read(ran, name));
      }
      // Not vacuous: the timeline drew every op, each at its exact time (the trace prints epoch times whole).
      expect(read(ran, 'report.html').match(/<circle class="op /g)).toHaveLength(300);
      expect(read(ran, 'trace.jsonl')).toContain(`"t":${T0 + 299 * 7.3}`);
    } finally {
      process.stderr.write = stderr;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
