// Metrics of the MCP edge and the client's guards: how fast a fault was detected (the first failed attempt after
// it went on), PROTO failures, and how often results went over the client's result budget.
import type { AttemptRecord, FaultWindow } from '../core/history.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';

export interface DetectWindow {
  fault: string;
  kind: string;
  /** First failed attempt that ended after the fault went on, minus its onset; null when none failed. */
  detectMs: number | null;
  /** What that attempt was classified as. */
  errorCode?: string;
}

export interface EdgeMetrics {
  detect: DetectWindow[];
  protoErrors: number;
  /** Attempts whose result was over the client's result budget. */
  resultsOverBudget: number;
  resultsTruncated: number;
  resultsPaginated: number;
  /** Largest tool result the client received, in bytes (as serialised JSON). */
  resultBytesMax: number;
  /** Attempts whose Mcp-* routing headers a proxy rewrote on the way (the server answered a tampered request). */
  headerTampered: number;
  /** Of those, the ones the server refused with HeaderMismatch (-32020). */
  headerMismatchRejected: number;
  /** Of those, the ones the server answered in 2xx: it dispatched a call its headers disagreed with. */
  headerMismatchExecuted: number;
}

/** A failed attempt as detection needs it; `order`: the order it was fed in (ties go to the earlier). */
interface Failure {
  startMs: number;
  endMs: number;
  errorCode?: string;
  order: number;
}

/** A window as it went on, and the failures that can still be its first one. */
interface Announced {
  window: FaultWindow;
  /**
   * By end, then start, then order; each starts before every one ahead of it: a later one is the first only if
   * the window went off before those ahead of it started (an off time may be set after they were fed).
   */
  first: Failure[];
}

/** A window by id and onset: a fault that repeats goes on again under the same id. */
const windowKey = (w: FaultWindow) => `${w.id}@${w.onMs}`;

/** `a` comes first: the earlier end, then the earlier start, then the one fed first. */
const before = (a: Failure, b: Failure) => a.endMs - b.endMs || a.startMs - b.startMs || a.order - b.order;

/** The failure can be the window's first: it ended after the onset and started before the removal. */
const within = (f: Failure, w: FaultWindow) => f.endMs >= w.onMs && (w.offMs === undefined || f.startMs <= w.offMs);

/**
 * Counted as the run goes. A failure may be the first of a window that went on before it ended, so each failed
 * attempt's times and code are kept until the low watermark passes its end: no attempt ending earlier can come
 * after it, and a window that goes on later starts after it. Then it is offered to every window that went on so
 * far (`fault`) and let go: what is kept is the failures in flight and a few candidates per window. On a replay
 * (no watermark) every failure is kept and the windows are read at the end.
 */
export class EdgeCounter implements Accumulator<EdgeMetrics> {
  /** Failures not folded yet: ending at or after the watermark. */
  private failures: Failure[] = [];
  private fedFailures = 0;
  private low = Number.NEGATIVE_INFINITY;
  private letGo = false;
  private readonly windows = new Map<string, Announced>();
  private protoErrors = 0;
  private truncated = 0;
  private paginated = 0;
  private resultBytesMax = 0;
  private headerTampered = 0;
  private headerMismatchRejected = 0;
  private headerMismatchExecuted = 0;

  /** A window went on (its offMs is set on the same object when it goes off). */
  fault(w: FaultWindow): void {
    this.windows.set(windowKey(w), { window: w, first: [] });
  }

  attempt(a: AttemptRecord): void {
    if (!a.ok) {
      const f = { startMs: a.startMs, endMs: a.endMs, ...(a.errorCode && { errorCode: a.errorCode }) };
      this.failures.push({ ...f, order: this.fedFailures++ });
      if (a.endMs < this.low) this.watermark(this.low);
      if (a.category === 'PROTO') this.protoErrors++;
    }
    if (a.budget === 'truncated') this.truncated++;
    if (a.budget === 'paginated') this.paginated++;
    if ((a.resultBytes ?? 0) > this.resultBytesMax) this.resultBytesMax = a.resultBytes!;
    if (a.headerTampered) this.countTampered(a);
  }

  /** Failures ending before `ms` are final: each is offered to the windows that went on so far, then let go. */
  watermark(ms: number): void {
    this.low = Math.max(this.low, ms);
    if (!this.failures.some((f) => f.endMs < this.low)) return;
    const done = this.failures.filter((f) => f.endMs < this.low);
    this.failures = this.failures.filter((f) => f.endMs >= this.low);
    for (const entry of this.windows.values()) for (const f of done) offer(entry, f);
    this.letGo = true;
  }

  result(run: RunFrame): EdgeMetrics {
    const detect = run.faults.map((w) => {
      const entry = this.windows.get(windowKey(w));
      // A window that went on unannounced after failures were let go may have lost its first one.
      if (!entry && this.letGo) throw new Error(`fault window ${w.id} was not announced to the edge counter`);
      let first: Failure | undefined;
      for (const f of [...(entry?.first ?? []), ...this.failures]) {
        if (within(f, w) && (!first || before(f, first) < 0)) first = f;
      }
      return {
        fault: w.id,
        kind: w.kind,
        detectMs: first ? Math.round(first.endMs - w.onMs) : null,
        ...(first?.errorCode && { errorCode: first.errorCode }),
      };
    });
    return {
      detect,
      protoErrors: this.protoErrors,
      resultsOverBudget: this.truncated + this.paginated,
      resultsTruncated: this.truncated,
      resultsPaginated: this.paginated,
      resultBytesMax: this.resultBytesMax,
      headerTampered: this.headerTampered,
      headerMismatchRejected: this.headerMismatchRejected,
      headerMismatchExecuted: this.headerMismatchExecuted,
    };
  }

  /** What the server answered to an attempt whose routing headers a proxy rewrote: a refusal, or an execution. */
  private countTampered(a: AttemptRecord): void {
    this.headerTampered++;
    if (a.errorCode === 'PROTO.HEADER_MISMATCH') this.headerMismatchRejected++;
    // A 2xx answer to a tools/call: the request passed the header check and was dispatched to the tool.
    else if (a.httpStatus !== undefined && a.httpStatus < 300) this.headerMismatchExecuted++;
  }
}

/** Keeps `f` among the window's candidates if it can still be the first; drops those it outranks. */
function offer(entry: Announced, f: Failure): void {
  if (!within(f, entry.window)) return;
  const all = [...entry.first, f].filter((c) => within(c, entry.window)).sort(before);
  let earliestStart = Number.POSITIVE_INFINITY;
  entry.first = all.filter((c) => {
    if (c.startMs >= earliestStart) return false;
    earliestStart = c.startMs;
    return true;
  });
}

/** The slowest detection over the windows that saw a failure; null when windows exist and none did. */
export function worstDetect(windows: readonly DetectWindow[]): { value: number | null; reason?: string } {
  const seen = windows.filter((w) => w.detectMs !== null);
  if (windows.length > 0 && seen.length === 0) return { value: null, reason: 'no fault window saw a failed attempt' };
  return { value: Math.max(0, ...seen.map((w) => w.detectMs!)) };
}
