// trace.jsonl reads a run's records from its log while writing their events in time order, where the ops that ran
// together interleave (64 in flight: every next event is another op's). Each op is read from the log once there,
// not once per event: a long run's report phase parsed the log over and over (docs/scale.md).
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, History, OpRecord, RecordSource } from '../../../src/core/history.ts';
import { RecordLog } from '../../../src/core/record-log.ts';
import { renderHistories } from '../../../src/report/history-file.ts';
import { renderTrace } from '../../../src/report/trace.ts';

const T0 = 1_700_000_000_000;
const OPS = 640;
const IN_FLIGHT = 64;

/** Op i starts at i ms and runs 2 attempts over IN_FLIGHT ms; written to the log as ops end, as a run writes them. */
function interleavedLog(): RecordLog {
  const log = new RecordLog(T0);
  for (let i = 0; i < OPS; i++) {
    const opId = `op-${i}`;
    const start = T0 + i;
    const attempts: AttemptRecord[] = [1, 2].map((n) => ({
      opId,
      attempt: n,
      startMs: start + (n - 1) * (IN_FLIGHT / 2),
      endMs: start + n * (IN_FLIGHT / 2) - 1,
      ok: n === 2,
      tool: 'search_documents',
    }));
    const op: OpRecord = {
      ...{ opId, tool: 'search_documents', sideEffecting: false, startMs: start, endMs: start + IN_FLIGHT },
      ...{ outcome: 'ok', attempts: 2, failedAttempts: 1 },
    };
    log.append(attempts, op);
  }
  return log;
}

/** The log, counting the ops read by number and the passes over all of it (with its own start orders, or without). */
function counted(
  log: RecordLog,
  ownStarts = false,
): { source: RecordSource; reads: () => number; passes: () => number } {
  let reads = 0;
  let passes = 0;
  const source: RecordSource = {
    get count() {
      return log.count;
    },
    group: (i) => {
      reads++;
      return log.group(i);
    },
    groups: () => {
      passes++;
      return log.groups();
    },
    ...(ownStarts && { starts: () => log.starts() }),
  };
  return { source, reads: () => reads, passes: () => passes };
}

const historyOf = (records: RecordSource): History => ({
  startMs: T0,
  endMs: T0 + OPS + IN_FLIGHT,
  records,
  faults: [],
  effects: [],
  decisions: [],
});

describe('trace.jsonl from a record log', () => {
  it('reads each of 640 interleaved ops once by number, and gives every gap and event', () => {
    const { source, reads } = counted(interleavedLog());
    const h = historyOf(source);
    const events = renderTrace({ p: h })
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === 'attempt')).toHaveLength(2 * OPS);
    expect(events.filter((e) => e.type === 'op')).toHaveLength(OPS);
    const gaps = events.filter((e) => e.type === 'attempt' && e.attempt === 2).map((e) => e.gapMs);
    expect(new Set(gaps)).toEqual(new Set([1]));
    expect(reads()).toBe(OPS);
  });

  it('places the records by start once for trace.jsonl and history.jsonl, and again once the log grows', () => {
    const log = interleavedLog();
    const { source, passes } = counted(log);
    const h = historyOf(source);
    renderTrace({ p: h });
    const afterTrace = passes();
    // history.jsonl orders its attempts, then its ops: the orders trace.jsonl made (two more passes before).
    const history = renderHistories({ p: h });
    expect(passes()).toBe(afterTrace);
    log.append([{ opId: 'late', attempt: 1, startMs: T0 - 1, endMs: T0, ok: true }], undefined);
    const grown = renderHistories({ p: h });
    expect(passes()).toBe(afterTrace + 1);
    expect(grown).not.toBe(history);
    expect(grown).toContain('"opId":"late"');
  });

  // The run's log keeps where and when each record started as it is written: the report phase's readers by start
  // sort that, with no pass over the log, and write what a pass would have given them.
  it('needs no pass over a log that kept its start orders as it was written', () => {
    const log = interleavedLog();
    const own = counted(log, true);
    const read = counted(log);
    const withOwn = historyOf(own.source);
    const withRead = historyOf(read.source);
    expect(renderTrace({ p: withOwn })).toBe(renderTrace({ p: withRead }));
    expect(renderHistories({ p: withOwn })).toBe(renderHistories({ p: withRead }));
    log.append([{ opId: 'late', attempt: 1, startMs: T0 - 1, endMs: T0, ok: true }], undefined);
    const grown = renderHistories({ p: withOwn });
    expect(grown).toBe(renderHistories({ p: withRead }));
    expect(grown).toContain('"opId":"late"');
    // The one pass left finds the workload's start, which a run's report gives (none here); the other source also
    // read the log for its start orders, then again once it grew.
    expect(own.passes()).toBe(1);
    expect(read.passes()).toBe(3);
  });
});
