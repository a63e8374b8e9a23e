// A History's op and attempt records, read from the run's record log one op at a time when it has one
// (core/record-log.ts), else its in-memory arrays (a merged shard, a test). Every reader of records goes through
// here: whole and in start order (trace.jsonl, history.jsonl, shard.json), or per op in any order (the
// report's timeline and charts, the metric replay, lookups by op id), so no reader needs a run's records in memory.
import type { AttemptRecord, History, OpGroup, OpRecord, RecordSource } from './history.ts';
import { GroupStarts, type StartOrder } from './start-order.ts';

interface StartOrders {
  attempts: StartOrder;
  ops: StartOrder;
  /** Ops in the log when it was read: a log still written to is read again. */
  count: number;
}

/**
 * Each log's start orders, sorted once and kept with it: a run's report reads its records by start three times
 * (trace.jsonl, history.jsonl's attempts and ops). About 14 B a record, as long as the log lives.
 */
const ordersOf = new WeakMap<RecordSource, StartOrders>();

function startOrders(log: RecordSource): StartOrders {
  const known = ordersOf.get(log);
  if (known?.count === log.count) return known;
  // A run's log kept them as it was written; any other source is read once for them.
  const orders = log.starts ? { ...log.starts(), count: log.count } : readStartOrders(log);
  ordersOf.set(log, orders);
  return orders;
}

/** One pass over the log: where its attempts and its ops lie, each in start order. */
function readStartOrders(log: RecordSource): StartOrders {
  const count = log.count;
  const byStart = new GroupStarts();
  let g = 0;
  for (const group of log.groups()) byStart.add(g++, group.attempts, group.op);
  return { ...byStart.orders(), count };
}

/** A history's records by number in start order, whole, one read at a time. */
export interface RecordIndex {
  attempts: number;
  ops: number;
  attempt(i: number): AttemptRecord;
  op(i: number): OpRecord;
  /** When the i-th attempt (op) started, without reading it. */
  attemptStart(i: number): number;
  opStart(i: number): number;
  /** The previous attempt of the i-th attempt's op (its number), or -1 for an op's first. */
  attemptBefore(i: number): number;
  /** The op the i-th attempt belongs to, when it ended. */
  opOf(i: number): OpRecord | undefined;
}

export function recordIndex(history: History): RecordIndex {
  if (history.records) return logIndex(history.records);
  const attempts = history.attempts ?? [];
  const ops = history.ops ?? [];
  const byId = new Map(ops.map((o) => [o.opId, o]));
  const opNumber = new Map<string, number>();
  for (const a of attempts) if (!opNumber.has(a.opId)) opNumber.set(a.opId, opNumber.size);
  return {
    attempts: attempts.length,
    ops: ops.length,
    attempt: (i) => attempts[i],
    op: (i) => ops[i],
    attemptStart: (i) => attempts[i].startMs,
    opStart: (i) => ops[i].startMs,
    attemptBefore: previousOfSameOp(attempts.length, (i) => opNumber.get(attempts[i].opId)!, opNumber.size),
    opOf: (i) => byId.get(attempts[i].opId),
  };
}

/** For each of `n` attempts in start order, the one before it of the same op (`op`: its number, below `opCount`). */
function previousOfSameOp(n: number, op: (i: number) => number, opCount: number): (i: number) => number {
  const before = new Int32Array(n);
  const last = new Int32Array(opCount).fill(-1);
  for (let i = 0; i < n; i++) {
    before[i] = last[op(i)];
    last[op(i)] = i;
  }
  return (i) => before[i];
}

/**
 * Ops decoded lately, by op number: readers in start order come back to an op while the ops that ran beside it are
 * read (64 in flight interleave 64 ops), so each is parsed about once; the oldest goes past CACHED_OPS. Four times
 * the ops in flight, no more: what the cache holds outlives young-generation collections, so a larger one (1,024)
 * moved every decoded op to the old generation, whose heap grew by 92 MB while a 100,000-op trace was written.
 */
const CACHED_OPS = 256;

function logIndex(log: RecordSource): RecordIndex {
  const { attempts, ops } = startOrders(log);
  const cache = new Map<number, OpGroup>();
  const groupAt = (g: number) => {
    let group = cache.get(g);
    if (group) return group;
    group = log.group(g);
    cache.set(g, group);
    if (cache.size > CACHED_OPS) cache.delete(cache.keys().next().value as number);
    return group;
  };
  return {
    attempts: attempts.group.length,
    ops: ops.group.length,
    attempt: (i) => groupAt(attempts.group[i]).attempts[attempts.place[i]],
    op: (i) => groupAt(ops.group[i]).op!,
    attemptStart: (i) => attempts.start[i],
    opStart: (i) => ops.start[i],
    attemptBefore: previousOfSameOp(attempts.group.length, (i) => attempts.group[i], log.count),
    opOf: (i) => groupAt(attempts.group[i]).op,
  };
}

function* allAttempts(index: RecordIndex): Generator<AttemptRecord> {
  for (let i = 0; i < index.attempts; i++) yield index.attempt(i);
}

function* allOps(index: RecordIndex): Generator<OpRecord> {
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
  return { ...(out as unknown as History), decisions: [...history.decisions], effects: [...history.effects] };
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
