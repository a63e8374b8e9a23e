// Multi-round-trip calls (2026-07-28 input_required): how many round trips a completed call took. Every attempt is
// one first round plus the rounds it retried with the client's answers, so a call confirmed at once takes 2; a
// lost round the client starts again costs 2 more. n/a when no completed call needed input.
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import type { Accumulator } from './accumulator.ts';

export interface InputRoundMetrics {
  /** Completed (ok) ops that sent at least one retried round. */
  callsWithInput: number;
  /** Their round trips (first rounds and retried rounds over all their attempts) per op; null when there is none. */
  roundsPerCompletedCall: number | null;
}

/** Counted as the run goes: each open op's attempts and retried rounds until it ends, then only totals. */
export class InputRoundCounter implements Accumulator<Partial<InputRoundMetrics>> {
  private readonly open = new Map<string, { attempts: number; retried: number }>();
  private anyRounds = false;
  private calls = 0;
  private rounds = 0;

  attempt(a: AttemptRecord): void {
    if (a.inputRounds) this.anyRounds = true;
    const r = this.open.get(a.opId);
    if (r) {
      r.attempts++;
      r.retried += a.inputRounds ?? 0;
    } else this.open.set(a.opId, { attempts: 1, retried: a.inputRounds ?? 0 });
  }

  op(o: OpRecord): void {
    const r = this.open.get(o.opId);
    this.open.delete(o.opId);
    if (o.outcome !== 'ok' || r === undefined || r.retried <= 0) return;
    this.calls++;
    this.rounds += r.attempts + r.retried;
  }

  result(): Partial<InputRoundMetrics> {
    // Attempts of ops that never ended complete no call.
    this.open.clear();
    if (!this.anyRounds) return {};
    return {
      callsWithInput: this.calls,
      roundsPerCompletedCall: this.calls === 0 ? null : Math.round((this.rounds / this.calls) * 100) / 100,
    };
  }
}
