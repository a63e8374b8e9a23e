// A run's op and attempt records on disk, written once as each op ends (one line per op: the op and its attempts)
// and read back one op at a time, in order or by number. Nothing of a record stays in memory but where its line is
// (12 B an op). Compact: keys by a short name, times relative to the run's start (an end relative to its start;
// core/relative-time.ts), repeated strings (tools, codes, the same answer text) written once and named after that,
// an attempt's number and op id left out where the op gives them, an op's answer where its last attempt gives it. The file is a LineSpill (core/line-spill.ts):
// unlinked, gone at exit.

import { doubled } from './doubled.ts';
import type { AttemptRecord, OpGroup, OpRecord, RecordSource } from './history.ts';
import { LineSpill } from './line-spill.ts';
import { absolute, relative } from './relative-time.ts';
import { GroupStarts, type StartOrder } from './start-order.ts';
import { StringTable } from './string-table.ts';

type Encoded = Record<string, unknown>;
/** Stands for the field's default: the group's op id, the attempt's 1-based place in its op. */
const DEFAULT = 0;

export class RecordLog implements RecordSource {
  private readonly file: LineSpill;
  private readonly strings = new StringTable();
  private offsets = new Float64Array(1024);
  private sizes = new Uint32Array(1024);
  /** Where each attempt and op lies and when it started, as written: the readers by start sort them, no pass needed. */
  private readonly byStart = new GroupStarts();
  /** Ops (groups) written. */
  count = 0;

  constructor(
    /** The run's start (epoch ms): times are written relative to it. */
    readonly baseMs: number,
    dir?: string,
  ) {
    this.file = new LineSpill('records', dir);
  }

  /** Bytes written so far (what a benchmark divides by ops). */
  get bytes(): number {
    return this.count === 0 ? 0 : this.offsets[this.count - 1] + this.sizes[this.count - 1] + 1;
  }

  /** String values named so far (what the log holds in memory besides where each line is). */
  get names(): number {
    return this.strings.size;
  }

  append(attempts: readonly AttemptRecord[], op: OpRecord | undefined): void {
    const opId = op?.opId ?? attempts[0]?.opId;
    if (opId === undefined) return;
    const answer = attempts.at(-1)?.visible;
    const line = [
      opId,
      op ? this.encode(op, opId, 0, answer) : DEFAULT,
      ...attempts.map((a, i) => this.encode(a, opId, i)),
    ];
    const { offset, bytes } = this.file.append(line);
    this.byStart.add(this.count, attempts, op);
    if (this.count === this.offsets.length) {
      this.offsets = doubled(this.offsets);
      this.sizes = doubled(this.sizes);
    }
    this.offsets[this.count] = offset;
    this.sizes[this.count] = bytes;
    this.count++;
  }

  /** The i-th op written. */
  group(i: number): OpGroup {
    return this.decodeLine(this.file.read(this.offsets[i], this.sizes[i]));
  }

  starts(): { attempts: StartOrder; ops: StartOrder } {
    return this.byStart.orders();
  }

  /** Every op in the order written, one line in memory at a time. */
  *groups(): Generator<OpGroup> {
    for (const line of this.file.all()) yield this.decodeLine(line);
  }

  private encode(record: AttemptRecord | OpRecord, opId: string, place: number, answer?: string): Encoded {
    const out: Encoded = {};
    // for-in, not Object.entries: no pair array per field (records are plain objects, own keys only).
    for (const key in record) {
      const value = (record as unknown as Encoded)[key];
      if (value === undefined) continue;
      out[this.strings.key(key)] = this.encodeField(key, value, record.startMs, opId, place, answer);
    }
    return out;
  }

  private encodeField(
    key: string,
    value: unknown,
    startMs: number,
    opId: string,
    place: number,
    answer: string | undefined,
  ): unknown {
    if (key === 'opId' && value === opId) return DEFAULT;
    // An op's answer is its last attempt's: written there only, so a text unique to its op is never named.
    if (key === 'visible' && answer !== undefined && value === answer) return DEFAULT;
    if (key === 'attempt' && value === place + 1) return DEFAULT;
    if (key === 'startMs') return relative(value as number, this.baseMs);
    if (key === 'endMs') return relative(value as number, startMs);
    return typeof value === 'string' ? this.strings.value(value) : value;
  }

  private decodeLine(line: unknown): OpGroup {
    const [opId, op, ...encoded] = line as [string, Encoded | typeof DEFAULT, ...Encoded[]];
    const attempts = encoded.map((a, i) => this.decode(a, opId, i) as unknown as AttemptRecord);
    return {
      opId,
      ...(op !== DEFAULT && { op: this.decode(op, opId, 0, attempts.at(-1)?.visible) as unknown as OpRecord }),
      attempts,
    };
  }

  private decode(encoded: Encoded, opId: string, place: number, answer?: string): Encoded {
    const out: Encoded = {};
    const startMs = absolute(encoded[this.strings.key('startMs')], this.baseMs);
    // for-in, not Object.entries: the report's passes decode every op several times (no pair array per field).
    for (const short in encoded) {
      const value = encoded[short];
      const key = this.strings.keyName(short);
      if (key === 'opId' && value === DEFAULT) out[key] = opId;
      else if (key === 'attempt' && value === DEFAULT) out[key] = place + 1;
      else if (key === 'startMs') out[key] = startMs;
      else if (key === 'endMs') out[key] = absolute(value, startMs);
      else if (key === 'visible' && value === DEFAULT) out[key] = answer;
      else out[key] = typeof value === 'string' ? this.strings.text(value) : value;
    }
    return out;
  }
}
