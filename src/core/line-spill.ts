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
/** Lines that fit the spill's window after its look-back are read through it (one buffer); a bigger one gets its own. */
const WINDOW_BYTES = 1024 * 1024;
const WINDOW_BACK_BYTES = 64 * 1024;
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
  /** What `read` last read of the file, and where (flushed bytes: they never change). */
  private window: Buffer | undefined;
  private windowStart = 0;
  private windowEnd = 0;
  /** The chunk `all` reads through, kept between passes. */
  private spare: Buffer | undefined;

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
    if (bytes > WINDOW_BYTES - WINDOW_BACK_BYTES) {
      const buffer = Buffer.allocUnsafe(bytes);
      this.fill(buffer, bytes, offset);
      return JSON.parse(buffer.toString('utf8', 0, bytes));
    }
    const window = offset < this.windowStart || offset + bytes > this.windowEnd ? this.slide(offset) : this.window!;
    const at = offset - this.windowStart;
    return JSON.parse(window.toString('utf8', at, at + bytes));
  }

  /**
   * Reads the window around `offset`: reads by place come nearly in file order (a run's records by start, written
   * as ops end), so one read of the file serves many lines, and the window starts a little before to serve the
   * ones that come back a few lines.
   */
  private slide(offset: number): Buffer {
    // No larger than the file (as `all`'s chunk), grown when the file has outgrown it.
    const size = Math.min(WINDOW_BYTES, this.flushed);
    if (!this.window || this.window.length < size) this.window = Buffer.allocUnsafe(size);
    const start = Math.max(0, offset - WINDOW_BACK_BYTES);
    const n = this.fill(this.window, Math.min(WINDOW_BYTES, this.flushed - start), start);
    this.windowStart = start;
    this.windowEnd = start + n;
    return this.window;
  }

  /** Every line's value, in the order appended; only the first `lines` of them when it is given. */
  *all(lines = Number.POSITIVE_INFINITY): Generator<unknown> {
    this.flush();
    const end = this.flushed;
    let left = lines;
    if (left <= 0) return;
    // A report reads the log in several passes: each takes the spare chunk (another only while two overlap, or
    // when the file outgrew it). No larger than the file: a run's many small spills each keep theirs.
    const size = Math.min(WINDOW_BYTES, Math.max(1, end));
    const chunk = this.spare && this.spare.length >= size ? this.spare : Buffer.allocUnsafe(size);
    this.spare = undefined;
    try {
      let carry: Buffer[] = [];
      for (let at = 0; at < end; ) {
        const n = this.fill(chunk, Math.min(chunk.length, end - at), at);
        at += n;
        let start = 0;
        for (let i = chunk.indexOf(NEWLINE, 0); i >= 0 && i < n; i = chunk.indexOf(NEWLINE, start)) {
          let text: string;
          if (carry.length === 0) text = chunk.toString('utf8', start, i);
          else {
            text = Buffer.concat([...carry, chunk.subarray(start, i)]).toString('utf8');
            carry = [];
          }
          start = i + 1;
          yield JSON.parse(text);
          // The last line asked for: nothing after it is read or decoded.
          if (--left <= 0) return;
        }
        if (start < n) carry.push(Buffer.from(chunk.subarray(start, n)));
      }
    } finally {
      this.spare = chunk;
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
