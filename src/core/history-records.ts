// A History's op and attempt records, read from the run's record log one op at a time when it has one
// (core/record-log.ts), else its in-memory arrays (a merged shard, a test). Every reader of records goes through
// here: whole and in start order (leak scan, trace.jsonl, history.jsonl, shard.json), or per op in any order (the
// report's timeline and charts, the metric replay, lookups by op id), so no reader needs a run's records in memory.
import type { AttemptRecord, History, OpGroup, OpRecord, RecordSource } from './history.ts';

/** Where each record lies in the log (op number, place among its attempts), in start order. */
interface StartOrder {
  group: Int32Array;
  place: Int16Array;
}

/** Records by start: sorted with ties in the order written, as an in-memory history sorts them. */
class Starts {
  private readonly starts: number[] = [];
  private readonly groups: number[] = [];
  private readonly places: number[] = [];

  push(startMs: number, group: number, place: number): void {
    this.starts.push(startMs);
    this.groups.push(group);
    this.places.push(place);
  }

  order(): StartOrder {
    const { starts, groups, places } = this;
    const order = Uint32Array.from(starts.keys()).sort((a, b) => starts[a] - starts[b] || a - b);
    return { group: Int32Array.from(order, (i) => groups[i]), place: Int16Array.from(order, (i) => places[i]) };
  }
}

/** One pass over the log: where its attempts and its ops lie, each in start order. */
function startOrders(log: RecordSource): { attempts: StartOrder; ops: StartOrder } {
  const attempts = new Starts();
  const ops = new Starts();
  let g = 0;
  for (const group of log.groups()) {
    for (const [i, a] of group.attempts.entries()) attempts.push(a.startMs, g, i);
    if (group.op) ops.push(group.op.startMs, g, 0);
    g++;
  }
  return { attempts: attempts.order(), ops: ops.order() };
}

/** A history's records by number in start order, whole, one read at a time. */
export interface RecordIndex {
  attempts: number;
  ops: number;
  attempt(i: number): AttemptRecord;
  op(i: number): OpRecord;
}

export function recordIndex(history: History): RecordIndex {
  if (history.records) return logIndex(history.records);
  const attempts = history.attempts ?? [];
  const ops = history.ops ?? [];
  return { attempts: attempts.length, ops: ops.length, attempt: (i) => attempts[i], op: (i) => ops[i] };
}

function logIndex(log: RecordSource): RecordIndex {
  const { attempts, ops } = startOrders(log);
  // Consecutive reads often fall in one op: its line is parsed once.
  let cached: { g: number; group: OpGroup } | undefined;
  const groupAt = (g: number) => {
    if (cached?.g !== g) cached = { g, group: log.group(g) };
    return cached.group;
  };
  return {
    attempts: attempts.group.length,
    ops: ops.group.length,
    attempt: (i) => groupAt(attempts.group[i]).attempts[attempts.place[i]],
    op: (i) => groupAt(ops.group[i]).op!,
  };
}

export function* allAttempts(index: RecordIndex): Generator<AttemptRecord> {
  for (let i = 0; i < index.attempts; i++) yield index.attempt(i);
}

export function* allOps(index: RecordIndex): Generator<OpRecord> {
  for (let i = 0; i < index.ops; i++) yield index.op(i);
}

/** Every attempt, whole, by start. */
export function wholeAttempts(history: History): Iterable<AttemptRecord> {
  return history.records ? allAttempts(recordIndex(history)) : (history.attempts ?? []);
}

/** Every op, whole, by start. */
export function wholeOps(history: History): Iterable<OpRecord> {
  return history.records ? allOps(recordIndex(history)) : (history.ops ?? []);
}

/** The history with its records whole in memory and no log (shard.json serialises it at once), in the log's place. */
export function wholeHistory(history: History): History {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(history)) {
    if (key !== 'records') out[key] = value;
    else Object.assign(out, { attempts: [...wholeAttempts(history)], ops: [...wholeOps(history)] });
  }
  return { ...(out as unknown as History), decisions: [...history.decisions] };
}

/**
 * Every op with its attempts, in no promised order (a run's log: as they ended; in memory: by op), one op in memory
 * at a time: for the passes whose result does not depend on order (counts, extents, cells, lookups by op id).
 */
export function* opGroups(history: History): Generator<OpGroup> {
  if (history.records) {
    yield* history.records.groups();
    return;
  }
  const byOp = new Map<string, AttemptRecord[]>();
  for (const a of history.attempts ?? []) {
    const list = byOp.get(a.opId);
    if (list) list.push(a);
    else byOp.set(a.opId, [a]);
  }
  for (const op of history.ops ?? []) {
    yield { opId: op.opId, op, attempts: byOp.get(op.opId) ?? [] };
    byOp.delete(op.opId);
  }
  for (const [opId, attempts] of byOp) yield { opId, attempts };
}

/** Each op's end-to-end latency, in no promised order (a pass over the records). */
export function* opLatencies(history: History): Generator<number> {
  for (const { op } of opGroups(history)) if (op) yield op.endMs - op.startMs;
}
