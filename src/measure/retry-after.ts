// Retry-After compliance: a retry must not start before the previous failed attempt's advised delay ran out.
import type { AttemptRecord } from '../core/history.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';
import type { MetricsOptions } from './options.ts';

export interface RetryAfterViolation {
  opId: string;
  attempt: number;
  /** How much too early the attempt started, in ms. */
  earlyByMs: number;
}

/**
 * Counted as the run goes: an op's attempts are held until the op ends (orphans until the end); only the early
 * retries are kept, and the tolerance is applied at the end.
 */
export class RetryAfterCounter implements Accumulator<RetryAfterViolation[]> {
  private readonly open = new Map<string, AttemptRecord[]>();
  private readonly early: RetryAfterViolation[] = [];

  attempt(a: AttemptRecord): void {
    const list = this.open.get(a.opId);
    if (list) list.push(a);
    else this.open.set(a.opId, [a]);
  }

  op(o: { opId: string }): void {
    const attempts = this.open.get(o.opId);
    if (!attempts) return;
    this.open.delete(o.opId);
    this.check(o.opId, attempts);
  }

  result(_run: RunFrame, options: MetricsOptions): RetryAfterViolation[] {
    for (const [opId, attempts] of this.open) this.check(opId, attempts);
    this.open.clear();
    const toleranceMs = options.retryAfterToleranceMs ?? 1;
    return this.early.filter((v) => v.earlyByMs > toleranceMs);
  }

  private check(opId: string, attempts: AttemptRecord[]): void {
    attempts.sort((a, b) => a.attempt - b.attempt || a.startMs - b.startMs);
    for (let i = 1; i < attempts.length; i++) {
      const prev = attempts[i - 1];
      if (prev.ok || prev.retryAfterMs === undefined) continue;
      // The advice counts from when the client received the failure, i.e. the end of that attempt.
      const early = prev.endMs + prev.retryAfterMs - attempts[i].startMs;
      // A tolerance is never below 0, so a retry that was not early cannot count.
      if (early > 0) this.early.push({ opId, attempt: attempts[i].attempt, earlyByMs: early });
    }
  }
}
