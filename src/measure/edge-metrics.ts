// Metrics of the MCP edge and the client's guards: how fast a fault was detected (the first failed attempt after
// it went on), PROTO failures, and how often results went over the client's result budget.
import type { AttemptRecord } from '../core/history.ts';
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

/** A failed attempt as detection needs it. */
interface Failure {
  startMs: number;
  endMs: number;
  errorCode?: string;
}

/**
 * Counted as the run goes. Fault windows are known only at the end, and a failure may be the first one of a window
 * that went on before it ended, so each failed attempt's times and code are kept (not the record): bounded by the
 * failures, not the ops.
 */
export class EdgeCounter implements Accumulator<EdgeMetrics> {
  private readonly failures: Failure[] = [];
  private protoErrors = 0;
  private truncated = 0;
  private paginated = 0;
  private resultBytesMax = 0;
  private headerTampered = 0;
  private headerMismatchRejected = 0;
  private headerMismatchExecuted = 0;

  attempt(a: AttemptRecord): void {
    if (!a.ok) {
      this.failures.push({ startMs: a.startMs, endMs: a.endMs, ...(a.errorCode && { errorCode: a.errorCode }) });
      if (a.category === 'PROTO') this.protoErrors++;
    }
    if (a.budget === 'truncated') this.truncated++;
    if (a.budget === 'paginated') this.paginated++;
    if ((a.resultBytes ?? 0) > this.resultBytesMax) this.resultBytesMax = a.resultBytes!;
    if (a.headerTampered) this.countTampered(a);
  }

  result(run: RunFrame): EdgeMetrics {
    // In end order; among equal ends the earlier start, then the earlier recorded (a stable sort).
    const failed = this.failures.sort((a, b) => a.endMs - b.endMs || a.startMs - b.startMs);
    const detect = run.faults.map((w) => {
      const first = failed.find((a) => a.endMs >= w.onMs && (w.offMs === undefined || a.startMs <= w.offMs));
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

/** The slowest detection over the windows that saw a failure; null when windows exist and none did. */
export function worstDetect(windows: readonly DetectWindow[]): { value: number | null; reason?: string } {
  const seen = windows.filter((w) => w.detectMs !== null);
  if (windows.length > 0 && seen.length === 0) return { value: null, reason: 'no fault window saw a failed attempt' };
  return { value: Math.max(0, ...seen.map((w) => w.detectMs!)) };
}
