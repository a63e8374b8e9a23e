// An attempt that failed, as an error the retry policy can filter on.
import type { Classified } from '../classify.ts';

export class AttemptFailed extends Error {
  constructor(
    readonly classified: Classified,
    readonly generation: number,
  ) {
    super(classified.message ?? classified.errorCode ?? 'attempt failed');
  }
}

/** The op's deadline leaves no room for another attempt (or for the advised Retry-After). */
export class DeadlineReached extends Error {}
