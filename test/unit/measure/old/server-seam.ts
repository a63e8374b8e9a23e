// How results were delivered when the server side misbehaved (stream closed, session evicted, crash): per op,
// whether the result came once on the first stream, once after an SSE resumption, after a re-send, never (the
// tool ran, the result was lost), twice (a duplicate effect) or not at all until the client's timeout; plus what
// the client transport reported on onerror (SSE drops, reconnect failures, the reconnect budget exhausted).
import type { AttemptRecord, History } from '../../../../src/core/history.ts';
import type { ReconcileResult } from './reconcile.ts';

type Delivery = 'once' | 'resumed' | 'resent' | 'lost' | 'ghost' | 'duplicated' | 'hung' | 'failed';

interface DeliveryCounts {
  /** Ok with no resumption and no re-send after an uncertain attempt (a refused or 404 attempt may precede it). */
  once: number;
  /** Ok on an attempt whose stream was resumed (GET + Last-Event-ID): delivered once after the resume. */
  resumed: number;
  /** Ok after an uncertain attempt (re-sent, or its effect found by a status lookup). */
  resent: number;
  /** Indeterminate (info) although its effect exists: the tool ran, the client never saw the result. */
  lost: number;
  /** Failed (fail) although its effect exists: counted here once, and in ghost_effects, never as lost too. */
  ghost: number;
  /** More than one effect. */
  duplicated: number;
  /** Not ok, no effect, and at least one attempt waited for its timeout. */
  hung: number;
  /** Not ok for another reason (refused, non-retryable, deadline). */
  failed: number;
}

export interface ServerSeamMetrics {
  delivery: DeliveryCounts;
  /** Ops whose delivery was not `once`, by op id (the report's per-op record). */
  deliveryByOp: Record<string, Delivery>;
  /** SSE resumptions over all attempts. */
  sseResumptions: number;
  /** Attempts that ended by the client's timeout (-32001): hung until timeout. */
  attemptsTimedOut: number;
  /** client.onerror reports by kind. */
  transportEvents: Record<string, number>;
  /** The SDK gave up reconnecting a stream ("Maximum reconnection attempts"): the standalone stream is gone. */
  reconnectExhausted: number;
}

/** The client's own timeout (SDK McpError -32001), not a server-side dependency timeout. */
const timedOut = (a: AttemptRecord) => a.errorCode === 'LINK.TIMEOUT';

export function serverSeamMetrics(history: History, { effectsByOp }: ReconcileResult): ServerSeamMetrics {
  const attemptsByOp = new Map<string, AttemptRecord[]>();
  for (const a of history.attempts) {
    const list = attemptsByOp.get(a.opId) ?? [];
    list.push(a);
    attemptsByOp.set(a.opId, list);
  }
  const delivery: DeliveryCounts = {
    once: 0,
    resumed: 0,
    resent: 0,
    lost: 0,
    ghost: 0,
    duplicated: 0,
    hung: 0,
    failed: 0,
  };
  const deliveryByOp: Record<string, Delivery> = {};
  for (const op of history.ops) {
    const attempts = (attemptsByOp.get(op.opId) ?? []).sort((a, b) => a.attempt - b.attempt);
    const effects = effectsByOp.get(op.opId)?.length ?? 0;
    const last = attempts.at(-1);
    let d: Delivery;
    if (effects > 1) d = 'duplicated';
    else if (op.outcome !== 'ok' && effects > 0) d = op.outcome === 'info' ? 'lost' : 'ghost';
    else if (op.outcome !== 'ok') d = attempts.some(timedOut) ? 'hung' : 'failed';
    else if (last?.ok && (last.resumptions ?? 0) > 0) d = 'resumed';
    else if (attempts.some((a) => !a.ok && a.uncertain)) d = 'resent';
    else d = 'once';
    delivery[d]++;
    if (d !== 'once') deliveryByOp[op.opId] = d;
  }
  const transportEvents: Record<string, number> = {};
  for (const e of history.transportEvents ?? []) transportEvents[e.kind] = (transportEvents[e.kind] ?? 0) + 1;
  return {
    delivery,
    deliveryByOp,
    sseResumptions: history.attempts.reduce((n, a) => n + (a.resumptions ?? 0), 0),
    attemptsTimedOut: history.attempts.filter(timedOut).length,
    transportEvents,
    reconnectExhausted: transportEvents['reconnect-exhausted'] ?? 0,
  };
}
