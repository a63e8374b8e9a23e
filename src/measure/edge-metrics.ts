// Metrics of the MCP edge and the client's guards: how fast a fault was detected (the first failed attempt after
// it went on), PROTO failures, and how often results went over the client's result budget.
import type { History } from '../core/history.ts';

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

export function edgeMetrics(history: History): EdgeMetrics {
  const failed = history.attempts.filter((a) => !a.ok).sort((a, b) => a.endMs - b.endMs);
  const detect = history.faults.map((w) => {
    const first = failed.find((a) => a.endMs >= w.onMs && (w.offMs === undefined || a.startMs <= w.offMs));
    return {
      fault: w.id,
      kind: w.kind,
      detectMs: first ? Math.round(first.endMs - w.onMs) : null,
      ...(first?.errorCode && { errorCode: first.errorCode }),
    };
  });
  let truncated = 0;
  let paginated = 0;
  let max = 0;
  for (const a of history.attempts) {
    if (a.budget === 'truncated') truncated++;
    if (a.budget === 'paginated') paginated++;
    if ((a.resultBytes ?? 0) > max) max = a.resultBytes!;
  }
  return {
    detect,
    protoErrors: failed.filter((a) => a.category === 'PROTO').length,
    resultsOverBudget: truncated + paginated,
    resultsTruncated: truncated,
    resultsPaginated: paginated,
    resultBytesMax: max,
    ...headerCounts(history),
  };
}

/** The slowest detection over the windows that saw a failure; null when windows exist and none did. */
export function worstDetect(windows: readonly DetectWindow[]): { value: number | null; reason?: string } {
  const seen = windows.filter((w) => w.detectMs !== null);
  if (windows.length > 0 && seen.length === 0) return { value: null, reason: 'no fault window saw a failed attempt' };
  return { value: Math.max(0, ...seen.map((w) => w.detectMs!)) };
}

/** What the server answered to attempts whose routing headers a proxy rewrote: a refusal, or an execution. */
function headerCounts(history: History) {
  const tampered = history.attempts.filter((a) => a.headerTampered);
  return {
    headerTampered: tampered.length,
    headerMismatchRejected: tampered.filter((a) => a.errorCode === 'PROTO.HEADER_MISMATCH').length,
    // A 2xx answer to a tools/call: the request passed the header check and was dispatched to the tool.
    headerMismatchExecuted: tampered.filter(
      (a) => a.httpStatus !== undefined && a.httpStatus < 300 && a.errorCode !== 'PROTO.HEADER_MISMATCH',
    ).length,
  };
}
