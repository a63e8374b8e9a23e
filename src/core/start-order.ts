// Records by start, for the readers that want them so (trace.jsonl, history.jsonl): where each lies in the log (op
// number, place among its attempts) and when it started, kept in typed arrays (14 B a record) and sorted on demand.
// A run's record log keeps one as it is written, so the report phase needs no pass over the log to build it.
import { doubled } from './doubled.ts';

/** Where each record lies in the log and when it started, in start order. */
export interface StartOrder {
  group: Int32Array;
  place: Int16Array;
  start: Float64Array;
}

/** Records as written; `order()` sorts them by start, ties in the order written (as an in-memory history sorts). */
class StartLog {
  private start = new Float64Array(256);
  private group = new Int32Array(256);
  private place = new Int16Array(256);
  private length = 0;

  push(startMs: number, group: number, place: number): void {
    if (this.length === this.start.length) {
      this.start = doubled(this.start);
      this.group = doubled(this.group);
      this.place = doubled(this.place);
    }
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
}

/** A log's attempts and ops, each by start: fed one op (group) at a time, in the order written. */
export class GroupStarts {
  private readonly attempts = new StartLog();
  private readonly ops = new StartLog();

  add(group: number, attempts: readonly { startMs: number }[], op: { startMs: number } | undefined): void {
    for (let i = 0; i < attempts.length; i++) this.attempts.push(attempts[i].startMs, group, i);
    if (op) this.ops.push(op.startMs, group, 0);
  }

  orders(): { attempts: StartOrder; ops: StartOrder } {
    return { attempts: this.attempts.order(), ops: this.ops.order() };
  }
}
