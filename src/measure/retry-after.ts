// Retry-After compliance: a retry must not start before the previous failed attempt's advised delay ran out.
import type { AttemptRecord, History } from '../core/history.ts';

export interface RetryAfterViolation {
  opId: string;
  attempt: number;
  /** How much too early the attempt started, in ms. */
  earlyByMs: number;
}

export function retryAfterViolations(history: History, toleranceMs = 1): RetryAfterViolation[] {
  const byOp = new Map<string, AttemptRecord[]>();
  for (const a of history.attempts) {
    const list = byOp.get(a.opId);
    if (list) list.push(a);
    else byOp.set(a.opId, [a]);
  }
  const violations: RetryAfterViolation[] = [];
  for (const [opId, attempts] of byOp) {
    attempts.sort((a, b) => a.attempt - b.attempt || a.startMs - b.startMs);
    for (let i = 1; i < attempts.length; i++) {
      const prev = attempts[i - 1];
      if (prev.ok || prev.retryAfterMs === undefined) continue;
      // The advice counts from when the client received the failure, i.e. the end of that attempt.
      const earliest = prev.endMs + prev.retryAfterMs;
      const early = earliest - attempts[i].startMs;
      if (early > toleranceMs) violations.push({ opId, attempt: attempts[i].attempt, earlyByMs: early });
    }
  }
  return violations;
}
