// Records by start, for the readers that want them so (trace.jsonl, history.jsonl): where each lies in the log (op
// number, place among its attempts) and when it started, kept in typed arrays (14 B a record) and sorted on demand.
// A run's record log keeps one as it is written, so the report phase needs no pass over the log to build it.

/** Where each record lies in the log and when it started, in start order. */
export interface StartOrder {
  group: Int32Array;
  place: Int16Array;
  start: Float64Array;
}

/** Records as written; `order()` sorts them by start, ties in the order written (as an in-memory history sorts). */
export class StartLog {
  private start = new Float64Array(256);
  private group = new Int32Array(256);
  private place = new Int16Array(256);
  private length = 0;

  push(startMs: number, group: number, place: number): void {
    if (this.length === this.start.length) this.grow();
    this.start[this.length] = startMs;
    this.group[this.length] = group;
    this.place[this.length] = place;
    this.length++;
  }

  order(): StartOrder {
    const start = this.start.subarray(0, this.length);
    const order = Uint32Array.from({ length: this.length }, (_, i) => i).sort((a, b) => start[a] - start[b] || a - b);
    return {
      group: Int32Array.from(order, (i) => this.group[i]),
      place: Int16Array.from(order, (i) => this.place[i]),
      start: Float64Array.from(order, (i) => start[i]),
    };
  }

  private grow(): void {
    const size = this.start.length * 2;
    const start = new Float64Array(size);
    start.set(this.start);
    const group = new Int32Array(size);
    group.set(this.group);
    const place = new Int16Array(size);
    place.set(this.place);
    this.start = start;
    this.group = group;
    this.place = place;
  }
}
