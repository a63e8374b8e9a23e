// A long run's op and attempt records spilled to disk as each op ends, so the history in memory stays small: the
// record kept in memory is slim (the fields no metric reads left out: model-visible text, notifications, arguments,
// the fields only trace.jsonl writes) and remembers where its whole self lies in the spill file. `whole(record)`
// reads it back, one record at a time: the leak scan, trace.jsonl, history.jsonl and shard output use it, and get
// exactly what an in-memory run holds. The file is a LineSpill (core/line-spill.ts).
import type { AttemptRecord, History, OpRecord } from './history.ts';
import { LineSpill } from './line-spill.ts';

// Where a slim record's whole record lies: three hidden own properties of the record (symbol-keyed and not
// enumerable, so no spread, JSON or equality sees them). A side table (WeakMap) did the same at about 90 B a
// record instead of about 25 B.
const SPILL = Symbol('faultline.spill');
const OFFSET = Symbol('faultline.spill.offset');
const BYTES = Symbol('faultline.spill.bytes');
interface Placed {
  /** The spill itself, so it (and its open file) lives as long as any record that points into it. */
  [SPILL]: RecordSpill;
  [OFFSET]: number;
  [BYTES]: number;
}
const placeOf = (record: object): Placed | undefined => (SPILL in record ? (record as Placed) : undefined);

export class RecordSpill {
  private readonly file: LineSpill;

  constructor(dir?: string) {
    this.file = new LineSpill('history', dir);
  }

  /** Records written (whole), for a benchmark's read-back count. */
  get written(): number {
    return this.file.lines;
  }

  /** The record written at a place. */
  read(offset: number, bytes: number): unknown {
    return this.file.read(offset, bytes);
  }

  /**
   * Writes the attempt whole and returns it without what only the whole-record outputs read: its visible text,
   * notifications and arguments (the leak scan), and its tool, idempotency key, request id and backoff (trace.jsonl).
   */
  attempt(a: AttemptRecord): AttemptRecord {
    const { visible, notifications, args, tool, idempotencyKey, requestId, backoffMs, ...slim } = a;
    return Object.keys(slim).length === Object.keys(a).length ? a : this.keep(a, slim);
  }

  /** Writes the op whole and returns it without its visible text. */
  op(o: OpRecord): OpRecord {
    if (o.visible === undefined) return o;
    const { visible, ...slim } = o;
    return this.keep(o, slim);
  }

  private keep<T extends object>(whole: T, slim: T): T {
    const { offset, bytes } = this.file.append(whole);
    Object.defineProperties(slim, { [SPILL]: { value: this }, [OFFSET]: { value: offset }, [BYTES]: { value: bytes } });
    return slim;
  }
}

/**
 * The record as it was recorded: read back from its spill (with any field set on the slim record since, e.g. an
 * attempt's `next`), or the record itself when it was never spilled.
 */
export function whole<T extends AttemptRecord | OpRecord>(record: T): T {
  const place = placeOf(record);
  if (!place) return record;
  return { ...(place[SPILL].read(place[OFFSET], place[BYTES]) as T), ...record };
}

/**
 * The history with every record whole and every decision decoded, all in memory (for outputs that serialise it at
 * once, e.g. shard.json).
 */
export function wholeHistory(history: History): History {
  const { attempts, ops, decisions } = history;
  return { ...history, attempts: attempts.map(whole), ops: ops.map(whole), decisions: [...decisions] };
}
