// Collects the run's history as it happens, on one clock, and feeds the metric accumulators (measure/feed.ts). An
// op's attempts are held until the op ends (an attempt's `next` is set after it is recorded, so not before): then
// they and the op are fed and written to the run's record log (core/record-log.ts), and memory keeps none of them.
import { epochMs } from '../core/clock.ts';
import type { AttemptRecord, BreakerEvent, FaultWindow, History, OpRecord, WindowKind } from '../core/history.ts';
import { wholeHistory } from '../core/history-records.ts';
import type { Effect } from '../core/ledger.ts';
import { RecordLog } from '../core/record-log.ts';
import {
  feedEffect,
  feedEffectsLive,
  feedFault,
  feedOp,
  feedWatermark,
  type MetricFeed,
  newFeed,
} from '../measure/feed.ts';
import type { MetricsOptions } from '../measure/options.ts';

export interface RecorderOptions {
  /**
   * The history's records stay in the log (`history.records`), read back one op at a time by whatever reads them,
   * as `faultline run` does: memory holds none. Off: the history's `attempts` and `ops` arrays, whole, and no log.
   */
  spill?: boolean;
  /** What the metrics will be judged with: the accumulators that must know it as ops end (the canaries) take it. */
  metrics?: MetricsOptions;
}

export class Recorder {
  readonly startMs = epochMs();
  readonly log = new RecordLog(this.startMs);
  /** Ops ended so far, and of them those that did not end ok. */
  opsEnded = 0;
  opsNotOk = 0;
  readonly faults: FaultWindow[] = [];
  readonly breaker: BreakerEvent[] = [];
  /** The metric accumulators, fed up to the moment `history()` is taken. */
  readonly feed: MetricFeed;
  private fed = true;
  /** Each unfinished op's attempts. */
  private readonly openAttempts = new Map<string, AttemptRecord[]>();
  /** Each started op not ended yet, with its start: in start order (ops start as time goes), so the first is the earliest. */
  private readonly started = new Map<string, number>();
  private lastStart = Number.NEGATIVE_INFINITY;
  private watermark = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: RecorderOptions = {}) {
    this.feed = newFeed(options.metrics);
  }

  attempt = (a: AttemptRecord): void => {
    const open = this.openAttempts.get(a.opId);
    if (open) open.push(a);
    else this.openAttempts.set(a.opId, [a]);
  };

  /** An op begins: its attempts start at or after `atMs`. Ops that are never announced hold no watermark back. */
  opStarted(opId: string, atMs = epochMs()): void {
    this.started.set(opId, atMs);
    this.lastStart = Math.max(this.lastStart, atMs);
  }

  op(o: OpRecord): void {
    const attempts = this.openAttempts.get(o.opId) ?? [];
    this.openAttempts.delete(o.opId);
    this.close(attempts, o);
  }

  /** Every effect of the run comes through `effect` as it happens, from before the first op on (measure/reconcile.ts). */
  effectsLive(): void {
    feedEffectsLive(this.feed);
  }

  effect = (e: Effect): void => {
    if (this.fed) feedEffect(this.feed, e);
  };

  breakerEvent = (e: BreakerEvent): void => {
    this.breaker.push(e);
  };

  /** The window went on at its seam, at `atMs` (epoch ms; now by default). */
  faultOn(
    id: string,
    seam: string,
    kind: string,
    mayNotHit = false,
    window: WindowKind = { kind: 'time' },
    atMs = epochMs(),
  ): void {
    const w: FaultWindow = { id, seam, kind, window, onMs: atMs, ...(mayNotHit && { mayNotHit }) };
    this.faults.push(w);
    if (this.fed) feedFault(this.feed, w);
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

  /** The history so far; the feed stops here, so it and the history hold the same records. */
  history(effects: History['effects'], decisions: History['decisions']): History {
    // Attempts of ops that never ended (a stopped run) count as they are.
    for (const attempts of this.openAttempts.values()) this.close(attempts, undefined);
    this.openAttempts.clear();
    this.fed = false;
    const history: History = {
      startMs: this.startMs,
      endMs: epochMs(),
      records: this.log,
      faults: this.faults,
      effects,
      decisions,
      ...(this.breaker.length > 0 && { breaker: [...this.breaker] }),
    };
    return this.options.spill === true ? history : { ...wholeHistory(history), decisions };
  }

  /** The ids of the ops ended so far, read back from the log. */
  *endedOpIds(): Generator<string> {
    for (const { op } of this.log.groups()) if (op) yield op.opId;
  }

  /** The earliest start of an open op (none open: the latest start, as later ops start later): nothing earlier can come. */
  private raiseWatermark(): void {
    const first = this.started.values().next();
    const ms = first.done ? this.lastStart : first.value;
    if (ms <= this.watermark || !this.fed) return;
    this.watermark = ms;
    feedWatermark(this.feed, ms);
  }

  private close(attempts: AttemptRecord[], o: OpRecord | undefined): void {
    if (this.fed) feedOp(this.feed, attempts, o);
    this.log.append(attempts, o);
    if (!o) return;
    this.started.delete(o.opId);
    this.raiseWatermark();
    this.opsEnded++;
    if (o.outcome !== 'ok') this.opsNotOk++;
  }
}
