// The run's op and attempt records spilled to a JSON-lines file as they complete, so a long run does not hold its
// history in memory; the reader streams them back one record at a time. Lines are batched into 64 KiB chunks
// written synchronously, so memory stays bounded by one chunk whatever the disk speed (a crash loses at most the
// unwritten chunk).
import { closeSync, createReadStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AttemptRecord, OpRecord } from '../core/history.ts';

export type SpillRecord = { op: OpRecord } | { attempt: AttemptRecord };

/** Where a profile's spill lives in a run directory (profile names are [a-z0-9-], safe as file names). */
export function spillPath(outDir: string, profileName: string): string {
  return join(outDir, 'history', `${profileName}.jsonl`);
}

const CHUNK_BYTES = 64 * 1024;

export class HistorySpill {
  private readonly fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private closed = false;
  ops = 0;
  attempts = 0;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, 'w');
  }

  attempt = (a: AttemptRecord): void => {
    this.attempts++;
    this.write({ attempt: a });
  };

  op = (o: OpRecord): void => {
    this.ops++;
    this.write({ op: o });
  };

  /** Writes what is buffered and closes the file; later records are refused. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
  }

  private write(record: SpillRecord): void {
    if (this.closed) throw new Error(`history spill ${this.file} is closed`);
    const line = `${JSON.stringify(record)}\n`;
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= CHUNK_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const chunk = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingBytes = 0;
    let offset = 0;
    while (offset < chunk.length) offset += writeSync(this.fd, chunk, offset);
  }
}

/** A spill line that is not a record: names the file and line. */
class SpillFormatError extends Error {
  readonly userFacing = true;
}

/** Streams a spill back in the order it was written. */
export async function* readSpill(file: string): AsyncGenerator<SpillRecord> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new SpillFormatError(`${file}:${n}: expected one JSON record per line`);
    }
    if (!isRecord(record)) throw new SpillFormatError(`${file}:${n}: expected {"op": ...} or {"attempt": ...}`);
    yield record;
  }
}

function isRecord(value: unknown): value is SpillRecord {
  if (value === null || typeof value !== 'object') return false;
  const inner = (value as { op?: unknown; attempt?: unknown }).op ?? (value as { attempt?: unknown }).attempt;
  return inner !== null && typeof inner === 'object' && typeof (inner as { opId?: unknown }).opId === 'string';
}

/** The whole spill as arrays (for reports that need them; a long run should stream with readSpill instead). */
export async function loadSpill(file: string): Promise<{ ops: OpRecord[]; attempts: AttemptRecord[] }> {
  const ops: OpRecord[] = [];
  const attempts: AttemptRecord[] = [];
  for await (const record of readSpill(file)) {
    if ('op' in record) ops.push(record.op);
    else attempts.push(record.attempt);
  }
  return { ops, attempts };
}
