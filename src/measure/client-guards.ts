// Metrics of the application-level behaviours: circuit breaking, status lookups that avoided a re-execution,
// credential refreshes and escalations, self-correction of model mistakes, and attempt pressure per second.
import type { BreakerEvent, History } from '../core/history.ts';

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

export function applicationMetrics(history: History): ApplicationMetrics {
  const ops = history.ops;
  const sum = (f: (o: (typeof ops)[number]) => number | undefined) => ops.reduce((n, o) => n + (f(o) ?? 0), 0);
  const toldValidation = new Set(history.attempts.filter((a) => a.category === 'VALIDATION').map((a) => a.opId));
  // A loaded machine can time out every call of a mistaken op before the server validates it: such an op says
  // nothing about the corrector, so it is left out of the rate (measured: 2 of 36 at stress-ng --cpu 8).
  const judged = ops.filter((o) => o.mistake !== undefined && (o.outcome === 'ok' || toldValidation.has(o.opId)));
  const intervals = breakerIntervals(history.breaker ?? [], history.startMs);
  return {
    breakerOpens: intervals.length,
    breakerOpenIntervals: intervals,
    breakerRejections: ops.filter((o) => o.circuitOpen).length,
    lookups: sum((o) => o.lookups),
    reexecutionsAvoided: sum((o) => o.lookupsFound),
    authRefreshes: sum((o) => o.authRefreshes),
    authEscalations: ops.filter((o) => o.outcome !== 'ok' && o.category === 'AUTH').length,
    authBlindRetries: authBlindRetries(history),
    mistakeOps: ops.filter((o) => o.mistake !== undefined).length,
    selfCorrections: sum((o) => o.corrections),
    mistakeOpsJudged: judged.length,
    // Corrected = the op's last call passed validation (what happened after that is the dependency's doing).
    // n/a without a mistaken op the server judged: no correction to count is not a perfect one.
    selfCorrectionRate:
      judged.length === 0
        ? null
        : round(
            judged.filter((o) => o.outcome === 'ok' || ((o.corrections ?? 0) > 0 && o.category !== 'VALIDATION'))
              .length / judged.length,
          ),
    loopGuardStops: ops.filter((o) => o.loopGuardStop).length,
    attemptsPerSecondMax: maxPerWindow(
      history.attempts.map((a) => a.startMs),
      1000,
    ),
    internalErrors: history.attempts.filter((a) => !a.ok && a.category === 'INTERNAL').length,
  };
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

function authBlindRetries(history: History): number {
  const refreshes = new Map(history.ops.map((o) => [o.opId, o.authRefreshes ?? 0]));
  const byOp = new Map<string, typeof history.attempts>();
  for (const a of history.attempts) byOp.set(a.opId, [...(byOp.get(a.opId) ?? []), a]);
  let blind = 0;
  for (const [opId, attempts] of byOp) {
    attempts.sort((a, b) => a.attempt - b.attempt);
    const retriedAfterAuth = attempts.slice(0, -1).filter((a) => !a.ok && a.category === 'AUTH').length;
    blind += Math.max(0, retriedAfterAuth - (refreshes.get(opId) ?? 0));
  }
  return blind;
}

function maxPerWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let lo = 0, hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi] - sorted[lo] >= windowMs) lo++;
    max = Math.max(max, hi - lo + 1);
  }
  return max;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
