// An append-only file of JSON lines that a long run writes instead of holding the values in memory: read back one
// line by its place, or all of them in order. The file is unlinked as soon as it is open (the descriptor keeps it
// until the spill is garbage-collected or the process ends), so nothing is left on disk whatever happens. Writes
// are buffered in memory up to BUFFER_BYTES and flushed before any read.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LinePlace {
  offset: number;
  bytes: number;
}

const BUFFER_BYTES = 64 * 1024;
/** Lines up to this size are read into one buffer the process keeps; a bigger one gets its own. */
const SHARED_READ_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

const closeWhenUnreachable = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

export class LineSpill {
  private readonly fd: number;
  /** Bytes in the file, and the buffered lines after them. */
  private flushed = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Lines appended. */
  lines = 0;

  constructor(name: string, dir = tmpdir()) {
    const folder = mkdtempSync(join(dir, `faultline-${name}-`));
    this.fd = openSync(join(folder, `${name}.jsonl`), 'w+');
    rmSync(folder, { recursive: true, force: true });
    closeWhenUnreachable.register(this, this.fd);
  }

  /** Appends the value as one JSON line; where it lies (without its newline). */
  append(value: unknown): LinePlace {
    const line = Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
    const place = { offset: this.flushed + this.pendingBytes, bytes: line.length - 1 };
    this.pending.push(line);
    this.pendingBytes += line.length;
    this.lines++;
    if (this.pendingBytes >= BUFFER_BYTES) this.flush();
    return place;
  }

  /** The value of the line at a place. */
  read(offset: number, bytes: number): unknown {
    this.flush();
    const buffer = bytes > SHARED_READ_BYTES ? Buffer.allocUnsafe(bytes) : sharedBuffer();
    this.fill(buffer, bytes, offset);
    return JSON.parse(buffer.toString('utf8', 0, bytes));
  }

  /** Every line's value, in the order appended. */
  *all(): Generator<unknown> {
    this.flush();
    const end = this.flushed;
    const chunk = Buffer.allocUnsafe(SHARED_READ_BYTES);
    let carry: Buffer[] = [];
    for (let at = 0; at < end; ) {
      const n = this.fill(chunk, Math.min(chunk.length, end - at), at);
      at += n;
      let start = 0;
      for (let i = chunk.indexOf(NEWLINE, 0); i >= 0 && i < n; i = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, i);
        const text = carry.length > 0 ? Buffer.concat([...carry, piece]).toString('utf8') : piece.toString('utf8');
        carry = [];
        start = i + 1;
        yield JSON.parse(text);
      }
      if (start < n) carry.push(Buffer.from(chunk.subarray(start, n)));
    }
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    let done = 0;
    while (done < data.length) done += writeSync(this.fd, data, done, data.length - done, this.flushed + done);
    this.flushed += data.length;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Reads `bytes` at `offset` into the start of `buffer`; the count read. */
  private fill(buffer: Buffer, bytes: number, offset: number): number {
    let done = 0;
    while (done < bytes) {
      const n = readSync(this.fd, buffer, done, bytes - done, offset + done);
      if (n === 0) throw new Error(`spill: the file ended at ${offset + done} bytes, before the line did`);
      done += n;
    }
    return done;
  }
}

let shared: Buffer | undefined;
/**
 * One read buffer for every spill of the process. A fresh buffer per line is memory outside V8's heap that stays
 * until a collection finds its owner, and the end of a long run reads its records back in passes that do not yield.
 */
function sharedBuffer(): Buffer {
  shared ??= Buffer.allocUnsafe(SHARED_READ_BYTES);
  return shared;
}
