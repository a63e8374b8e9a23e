// A long run's op and attempt records spilled to disk as each op ends, so the history in memory stays small: the
// record kept in memory is slim (its model-visible text, notifications and arguments left out, the fields no metric
// reads) and remembers where its whole self lies in the spill file. `whole(record)` reads it back, one record at a
// time: the leak scan, trace.jsonl, history.jsonl and shard output use it, and get exactly what an in-memory run
// holds. The file is unlinked as soon as it is open (the descriptor keeps it until the spill is garbage-collected
// or the process ends), so nothing is left on disk whatever happens.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AttemptRecord, History, OpRecord } from './history.ts';

interface Place {
  /** The spill itself, so it (and its open file) lives as long as any record that points into it. */
  spill: RecordSpill;
  offset: number;
  bytes: number;
}

/** Where each slim record's whole record lies (a side table, so the records themselves keep their shape). */
const places = new WeakMap<object, Place>();
const closeWhenUnreachable = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

export class RecordSpill {
  readonly fd: number;
  private offset = 0;
  /** Records written (whole), for a benchmark's read-back count. */
  written = 0;

  constructor(dir = tmpdir()) {
    const folder = mkdtempSync(join(dir, 'faultline-history-'));
    this.fd = openSync(join(folder, 'records.jsonl'), 'w+');
    rmSync(folder, { recursive: true, force: true });
    closeWhenUnreachable.register(this, this.fd);
  }

  /** Writes the attempt whole and returns it without its visible text, notifications and arguments. */
  attempt(a: AttemptRecord): AttemptRecord {
    if (a.visible === undefined && a.notifications === undefined && a.args === undefined) return a;
    const { visible, notifications, args, ...slim } = a;
    return this.keep(a, slim);
  }

  /** Writes the op whole and returns it without its visible text. */
  op(o: OpRecord): OpRecord {
    if (o.visible === undefined) return o;
    const { visible, ...slim } = o;
    return this.keep(o, slim);
  }

  private keep<T extends object>(whole: T, slim: T): T {
    const line = Buffer.from(JSON.stringify(whole), 'utf8');
    let done = 0;
    while (done < line.length) done += writeSync(this.fd, line, done, line.length - done, this.offset + done);
    places.set(slim, { spill: this, offset: this.offset, bytes: line.length });
    this.offset += line.length;
    this.written++;
    return slim;
  }
}

/**
 * The record as it was recorded: read back from its spill (with any field set on the slim record since, e.g. an
 * attempt's `next`), or the record itself when it was never spilled.
 */
export function whole<T extends AttemptRecord | OpRecord>(record: T): T {
  const place = places.get(record);
  if (!place) return record;
  const buffer = Buffer.alloc(place.bytes);
  let done = 0;
  while (done < place.bytes) {
    const n = readSync(place.spill.fd, buffer, done, place.bytes - done, place.offset + done);
    if (n === 0) throw new Error('history spill: the file ended before the record did');
    done += n;
  }
  return { ...(JSON.parse(buffer.toString('utf8')) as T), ...record };
}

/**
 * The history with every record whole and every decision decoded, all in memory (for outputs that serialise it at
 * once, e.g. shard.json).
 */
export function wholeHistory(history: History): History {
  const { attempts, ops, decisions } = history;
  return { ...history, attempts: attempts.map(whole), ops: ops.map(whole), decisions: [...decisions] };
}
