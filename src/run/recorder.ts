// Collects the run's history as it happens, on one clock.
import { epochMs } from '../core/clock.ts';
import type { AttemptRecord, BreakerEvent, FaultWindow, History, OpRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';

export class Recorder {
  readonly startMs = epochMs();
  readonly attempts: AttemptRecord[] = [];
  readonly ops: OpRecord[] = [];
  readonly faults: FaultWindow[] = [];
  readonly breaker: BreakerEvent[] = [];

  attempt = (a: AttemptRecord): void => {
    this.attempts.push(a);
  };

  op(o: OpRecord): void {
    this.ops.push(o);
  }

  breakerEvent = (e: BreakerEvent): void => {
    this.breaker.push(e);
  };

  faultOn(id: string, seam: string, kind: string, mayNotHit = false): void {
    this.faults.push({ id, seam, kind, onMs: epochMs(), ...(mayNotHit && { mayNotHit }) });
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
