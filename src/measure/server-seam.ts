// How results were delivered when the server side misbehaved (stream closed, session evicted, crash): per op,
// whether the result came once on the first stream, once after an SSE resumption, after a re-send, never (the
// tool ran, the result was lost), twice (a duplicate effect) or not at all until the client's timeout; plus what
// the client transport reported on onerror (SSE drops, reconnect failures, the reconnect budget exhausted).
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';
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

/** What an op's attempts said of its delivery while it was open. */
interface OpenOp {
  /** The highest attempt number seen, and whether that attempt was ok and resumed. */
  last: number;
  lastOkResumed: boolean;
  timedOut: boolean;
  uncertainFailure: boolean;
}

/** Deliveries as the attempts tell them, before the effects are known. */
export interface SeamTally {
  delivery: DeliveryCounts;
  /** Ops not delivered `once` by their attempts, with their outcome (an effect may still change their delivery). */
  notOnce: Map<string, { delivery: Delivery; outcome: OpRecord['outcome'] }>;
  sseResumptions: number;
  attemptsTimedOut: number;
}

const none = (): DeliveryCounts => ({
  once: 0,
  resumed: 0,
  resent: 0,
  lost: 0,
  ghost: 0,
  duplicated: 0,
  hung: 0,
  failed: 0,
});

/** Counted as the run goes: a few bits per open op, and only the ops not delivered once once they end. */
export class SeamCounter implements Accumulator<SeamTally> {
  private readonly delivery = none();
  private readonly notOnce: SeamTally['notOnce'] = new Map();
  private readonly open = new Map<string, OpenOp>();
  private sseResumptions = 0;
  private attemptsTimedOut = 0;

  attempt(a: AttemptRecord): void {
    this.sseResumptions += a.resumptions ?? 0;
    if (timedOut(a)) this.attemptsTimedOut++;
    let o = this.open.get(a.opId);
    if (!o) {
      o = { last: Number.NEGATIVE_INFINITY, lastOkResumed: false, timedOut: false, uncertainFailure: false };
      this.open.set(a.opId, o);
    }
    if (a.attempt >= o.last) {
      o.last = a.attempt;
      o.lastOkResumed = a.ok && (a.resumptions ?? 0) > 0;
    }
    o.timedOut ||= timedOut(a);
    o.uncertainFailure ||= !a.ok && !!a.uncertain;
  }

  op(op: OpRecord): void {
    const o = this.open.get(op.opId);
    this.open.delete(op.opId);
    let d: Delivery;
    if (op.outcome !== 'ok') d = o?.timedOut ? 'hung' : 'failed';
    else if (o?.lastOkResumed) d = 'resumed';
    else if (o?.uncertainFailure) d = 'resent';
    else d = 'once';
    this.delivery[d]++;
    if (d !== 'once') this.notOnce.set(op.opId, { delivery: d, outcome: op.outcome });
  }

  result(): SeamTally {
    const { sseResumptions, attemptsTimedOut } = this;
    return { delivery: { ...this.delivery }, notOnce: new Map(this.notOnce), sseResumptions, attemptsTimedOut };
  }
}

/** The deliveries once the effects are known: more than one is a duplicate, one of a failed op a ghost or lost. */
export function serverSeamMetrics(
  tally: SeamTally,
  { effectsByOp }: Pick<ReconcileResult, 'effectsByOp'>,
  run: Pick<RunFrame, 'transportEvents'>,
): ServerSeamMetrics {
  const delivery = { ...tally.delivery };
  const final = new Map([...tally.notOnce].map(([opId, o]) => [opId, o.delivery]));
  // Only ops whose effect count is not implied by their outcome can change: one more than one, or a failed one's.
  for (const [opId, n] of effectsByOp) {
    if (n === 0) continue;
    const before = tally.notOnce.get(opId) ?? { delivery: 'once', outcome: 'ok' };
    let d = before.delivery;
    if (n > 1) d = 'duplicated';
    else if (before.outcome !== 'ok') d = before.outcome === 'info' ? 'lost' : 'ghost';
    if (d === before.delivery) continue;
    delivery[before.delivery]--;
    delivery[d]++;
    final.set(opId, d);
  }
  const ids = [...final.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const deliveryByOp: Record<string, Delivery> = {};
  for (const opId of ids) deliveryByOp[opId] = final.get(opId) as Delivery;
  const transportEvents: Record<string, number> = {};
  for (const e of run.transportEvents ?? []) transportEvents[e.kind] = (transportEvents[e.kind] ?? 0) + 1;
  return {
    delivery,
    deliveryByOp,
    sseResumptions: tally.sseResumptions,
    attemptsTimedOut: tally.attemptsTimedOut,
    transportEvents,
    reconnectExhausted: transportEvents['reconnect-exhausted'] ?? 0,
  };
}
