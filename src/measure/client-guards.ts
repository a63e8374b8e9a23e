// Metrics of the application-level behaviours: circuit breaking, status lookups that avoided a re-execution,
// credential refreshes and escalations, self-correction of model mistakes, and attempt pressure per second.
import type { AttemptRecord, BreakerEvent, OpRecord } from '../core/history.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';
import { StartTimes } from './start-times.ts';

export interface BreakerInterval {
  /** Which breaker (the tool it guards). */
  key: string;
  /** Relative to the run start. */
  openAtMs: number;
  /** When it closed again (relative), null when it was still open or half-open at the end. */
  closeAtMs: number | null;
}

export interface ApplicationMetrics {
  breakerOpens: number;
  breakerOpenIntervals: BreakerInterval[];
  /** Ops the open breaker failed fast. */
  breakerRejections: number;
  /** Status lookups made instead of re-executing an uncertain side effect. */
  lookups: number;
  /** Lookups that found the effect: re-executions (possible duplicates) avoided. */
  reexecutionsAvoided: number;
  authRefreshes: number;
  /** Ops that ended on an AUTH error: the user must act (refresh did not fix it, or there was none). */
  authEscalations: number;
  /** Retries after an AUTH failure without a credential refresh in between. */
  authBlindRetries: number;
  /** Ops whose first call carried an injected model mistake. */
  mistakeOps: number;
  selfCorrections: number;
  /**
   * Mistaken ops the server judged: it answered a call of theirs with a validation error, or the op ended ok. An op
   * whose every call timed out or lost its link was never told its mistake, so there was nothing to correct.
   */
  mistakeOpsJudged: number;
  /** Of the judged mistaken ops, those whose last call passed validation (1 when there were none: see mistakeOpsJudged). */
  selfCorrectionRate: number | null;
  loopGuardStops: number;
  /** Most attempts started within any one second. */
  attemptsPerSecondMax: number;
  /** Failed attempts in the INTERNAL category (unclassified failures, crashes). */
  internalErrors: number;
}

/** What an op's attempts said, held until the op ends. */
interface OpenOp {
  validationTold: boolean;
  authFailures: number;
  /** The highest attempt number so far, and whether that attempt failed on AUTH (it had no retry after it). */
  lastAttempt: number;
  lastAuthFailed: boolean;
}

/** The application metrics as the run goes: counters, each open op's attempt facts, and the starts not final yet. */
export class ApplicationCounter implements Accumulator<ApplicationMetrics> {
  private readonly open = new Map<string, OpenOp>();
  private readonly starts = new StartTimes(1000);
  private breakerRejections = 0;
  private lookups = 0;
  private reexecutionsAvoided = 0;
  private authRefreshes = 0;
  private authEscalations = 0;
  private authBlindRetries = 0;
  private mistakeOps = 0;
  private selfCorrections = 0;
  private judged = 0;
  private corrected = 0;
  private loopGuardStops = 0;
  private internalErrors = 0;

  attempt(a: AttemptRecord): void {
    this.starts.push(a.startMs);
    if (!a.ok && a.category === 'INTERNAL') this.internalErrors++;
    let o = this.open.get(a.opId);
    if (!o) {
      o = { validationTold: false, authFailures: 0, lastAttempt: Number.NEGATIVE_INFINITY, lastAuthFailed: false };
      this.open.set(a.opId, o);
    }
    const authFailed = !a.ok && a.category === 'AUTH';
    if (a.category === 'VALIDATION') o.validationTold = true;
    if (authFailed) o.authFailures++;
    if (a.attempt >= o.lastAttempt) {
      o.lastAttempt = a.attempt;
      o.lastAuthFailed = authFailed;
    }
  }

  watermark(ms: number): void {
    this.starts.watermark(ms);
  }

  op(o: OpRecord): void {
    const seen = this.open.get(o.opId);
    this.open.delete(o.opId);
    this.settle(seen, o.authRefreshes ?? 0);
    if (o.circuitOpen) this.breakerRejections++;
    this.lookups += o.lookups ?? 0;
    this.reexecutionsAvoided += o.lookupsFound ?? 0;
    this.authRefreshes += o.authRefreshes ?? 0;
    if (o.outcome !== 'ok' && o.category === 'AUTH') this.authEscalations++;
    this.selfCorrections += o.corrections ?? 0;
    if (o.loopGuardStop) this.loopGuardStops++;
    if (o.mistake === undefined) return;
    this.mistakeOps++;
    // A loaded machine can time out every call of a mistaken op before the server validates it: such an op says
    // nothing about the corrector, so it is left out of the rate (measured: 2 of 36 at stress-ng --cpu 8).
    if (o.outcome !== 'ok' && !seen?.validationTold) return;
    this.judged++;
    // Corrected = the op's last call passed validation (what happened after that is the dependency's doing).
    if (o.outcome === 'ok' || ((o.corrections ?? 0) > 0 && o.category !== 'VALIDATION')) this.corrected++;
  }

  result(run: RunFrame): ApplicationMetrics {
    // Attempts of ops that never ended: no refresh was recorded for them.
    for (const o of this.open.values()) this.settle(o, 0);
    this.open.clear();
    const intervals = breakerIntervals(run.breaker ?? [], run.startMs);
    return {
      breakerOpens: intervals.length,
      breakerOpenIntervals: intervals,
      breakerRejections: this.breakerRejections,
      lookups: this.lookups,
      reexecutionsAvoided: this.reexecutionsAvoided,
      authRefreshes: this.authRefreshes,
      authEscalations: this.authEscalations,
      authBlindRetries: this.authBlindRetries,
      mistakeOps: this.mistakeOps,
      selfCorrections: this.selfCorrections,
      mistakeOpsJudged: this.judged,
      // n/a without a mistaken op the server judged: no correction to count is not a perfect one.
      selfCorrectionRate: this.judged === 0 ? null : round(this.corrected / this.judged),
      loopGuardStops: this.loopGuardStops,
      attemptsPerSecondMax: this.starts.max(),
      internalErrors: this.internalErrors,
    };
  }

  /** Retries after an AUTH failure beyond the refreshes the op asked for (a failure on its last attempt was not retried). */
  private settle(o: OpenOp | undefined, refreshes: number): void {
    if (!o) return;
    const retriedAfterAuth = o.authFailures - (o.lastAuthFailed ? 1 : 0);
    this.authBlindRetries += Math.max(0, retriedAfterAuth - refreshes);
  }
}

function breakerIntervals(events: BreakerEvent[], startMs: number): BreakerInterval[] {
  const out: BreakerInterval[] = [];
  const open = new Map<string, BreakerInterval>();
  for (const e of [...events].sort((a, b) => a.atMs - b.atMs)) {
    const current = open.get(e.key);
    // Half-open -> open again continues the same outage.
    if (e.state === 'open' && !current) {
      const interval = { key: e.key, openAtMs: Math.round(e.atMs - startMs), closeAtMs: null };
      open.set(e.key, interval);
      out.push(interval);
    } else if (e.state === 'closed' && current) {
      current.closeAtMs = Math.round(e.atMs - startMs);
      open.delete(e.key);
    }
  }
  return out;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
