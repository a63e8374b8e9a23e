// How a try of an op ends when it does not succeed: an attempt that failed (retried or not, as the units
// decide), or an end of the op (the deadline, an open circuit) that only the naive control's blind retry retries.
import type { AttemptOutcome } from './attempt-outcome.ts';
import type { Classified } from './classified.ts';

export class AttemptFailed extends Error {
  /** Whether a retry may follow: the classification's word, unless a unit can put the cause right first. */
  retryable: boolean;
  /** What the next try does first, when a unit will act on this failure (status lookup, re-initialize). */
  recovery?: 'lookup' | 'reinit';

  constructor(readonly attempt: AttemptOutcome) {
    super(attempt.classified.message ?? attempt.classified.errorCode ?? 'attempt failed');
    this.retryable = attempt.classified.retryable;
  }

  get classified(): Classified {
    return this.attempt.classified;
  }

  /** Writes what the client does next on the attempt's record (the first decision about it stands). */
  decide(retrying: boolean): void {
    this.attempt.record.next ??= retrying ? (this.recovery ?? 'retry') : 'give-up';
  }
}

/** The op ends here: no classified retry tries again. */
export class OpEnded extends Error {}

/** The op's deadline leaves no room for another try (or for the wait before it). */
export class DeadlineReached extends OpEnded {}

/** The circuit breaker refused the call: the tool is failing fast. */
export class CircuitOpen extends OpEnded {}
