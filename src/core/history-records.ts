// A History's op and attempt records, whole, in the order of their start (as an in-memory history holds them):
// read from the run's record log one at a time when it has one (core/record-log.ts), else its arrays. The outputs
// that need whole records (leak scan, trace.jsonl, history.jsonl, shard.json) read them through here.
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
  const { attempts, ops } = history;
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
  return history.records ? allAttempts(recordIndex(history)) : history.attempts;
}

/** Every op, whole, by start. */
export function wholeOps(history: History): Iterable<OpRecord> {
  return history.records ? allOps(recordIndex(history)) : history.ops;
}

/** The history with its records whole in memory and no log (shard.json serialises it at once). */
export function wholeHistory(history: History): History {
  const { records, ...rest } = history;
  if (!records) return { ...rest, decisions: [...history.decisions] };
  return {
    ...rest,
    attempts: [...wholeAttempts(history)],
    ops: [...wholeOps(history)],
    decisions: [...history.decisions],
  };
}

/**
 * The `attempts` and `ops` arrays of a run's history, read from its log. Whole, or slim: without the text only the
 * outputs above read (visible text, notifications, arguments), which stay on disk. For the metric families and
 * report views not yet fed by accumulators; delete once none reads `history.attempts` / `history.ops`.
 */
export function materializeRecords(log: RecordSource, slim: boolean): Pick<History, 'attempts' | 'ops'> {
  const index = logIndex(log);
  const attempts: AttemptRecord[] = [];
  for (const a of allAttempts(index)) attempts.push(slim ? slimAttempt(a) : a);
  const ops: OpRecord[] = [];
  for (const o of allOps(index)) ops.push(slim ? slimOp(o) : o);
  return { attempts, ops };
}

const slimAttempt = ({ visible, notifications, args, ...a }: AttemptRecord): AttemptRecord => a;
const slimOp = ({ visible, ...o }: OpRecord): OpRecord => o;
