// What a family keeps of each ended op when its answer depends on windows known only at the end: start, end and a
// few flag bits, in growable typed arrays (about 20 bytes an op), never the record.
import { doubled } from '../core/doubled.ts';

const INITIAL = 1024;

export class OpSpans {
  length = 0;
  start = new Float64Array(INITIAL);
  end = new Float64Array(INITIAL);
  flags = new Uint8Array(INITIAL);

  push(start: number, end: number, flags: number): number {
    if (this.length === this.start.length) this.grow();
    const i = this.length++;
    this.start[i] = start;
    this.end[i] = end;
    this.flags[i] = flags;
    return i;
  }

  /** Row numbers ordered by start time; ties by `tie` (so the order does not depend on the order ops ended). */
  byStart(tie: (a: number, b: number) => number): Uint32Array {
    const order = Uint32Array.from({ length: this.length }, (_, i) => i);
    return order.sort((a, b) => this.start[a] - this.start[b] || tie(a, b));
  }

  private grow(): void {
    this.start = doubled(this.start);
    this.end = doubled(this.end);
    this.flags = doubled(this.flags);
  }
}
