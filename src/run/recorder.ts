// Collects the run's history as it happens, on one clock. With a spill, each op's attempts and the op itself go to
// disk whole when the op ends (an attempt's `next` is set after it is recorded, so not before), and memory keeps
// them slim (core/record-spill.ts).
import { epochMs } from '../core/clock.ts';
import type { AttemptRecord, BreakerEvent, FaultWindow, History, OpRecord, WindowKind } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';
import type { RecordSpill } from '../core/record-spill.ts';

export class Recorder {
  readonly startMs = epochMs();
  readonly attempts: AttemptRecord[] = [];
  readonly ops: OpRecord[] = [];
  readonly faults: FaultWindow[] = [];
  readonly breaker: BreakerEvent[] = [];
  /** With a spill: where each unfinished op's attempts sit in `attempts`. */
  private readonly openAttempts = new Map<string, number[]>();

  constructor(private readonly spill?: RecordSpill) {}

  attempt = (a: AttemptRecord): void => {
    if (this.spill) {
      const open = this.openAttempts.get(a.opId);
      if (open) open.push(this.attempts.length);
      else this.openAttempts.set(a.opId, [this.attempts.length]);
    }
    this.attempts.push(a);
  };

  op(o: OpRecord): void {
    const spill = this.spill;
    if (!spill) {
      this.ops.push(o);
      return;
    }
    for (const i of this.openAttempts.get(o.opId) ?? []) this.attempts[i] = spill.attempt(this.attempts[i]);
    this.openAttempts.delete(o.opId);
    this.ops.push(spill.op(o));
  }
  breakerEvent = (e: BreakerEvent): void => {
    this.breaker.push(e);
  };

  faultOn(id: string, seam: string, kind: string, mayNotHit = false, window: WindowKind = { kind: 'time' }): void {
    this.faults.push({ id, seam, kind, window, onMs: epochMs(), ...(mayNotHit && { mayNotHit }) });
  }

  /** The window is gone at its seam, at `atMs` (epoch ms; now by default). */
  faultOff(id: string, atMs = epochMs()): void {
    const window = this.faults.find((f) => f.id === id && f.offMs === undefined);
    if (window) window.offMs = atMs;
  }

  /** What the window did, as its seam counted (null: the seam cannot count). */
  faultHits(id: string, hits: number | null): void {
    const window = this.faults.find((f) => f.id === id);
    if (window) window.hits = hits;
  }

  history(effects: Effect[], decisions: History['decisions']): History {
    return {
      startMs: this.startMs,
      endMs: epochMs(),
      attempts: [...this.attempts].sort((a, b) => a.startMs - b.startMs),
      ops: [...this.ops].sort((a, b) => a.startMs - b.startMs),
      faults: this.faults,
      effects,
      decisions,
      ...(this.breaker.length > 0 && { breaker: [...this.breaker] }),
    };
  }
}
