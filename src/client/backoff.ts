// Exponential backoff with full jitter drawn from the run's seeded stream (cockatiel's own generators use
// Math.random, which would break replay), stretched to honour any Retry-After the failure advised.
import {
  ExponentialBackoff,
  type GeneratorFn,
  type IBackoff,
  type IBackoffFactory,
  type IRetryBackoffContext,
} from 'cockatiel';
import type { RandomStream } from '../core/random.ts';

/**
 * Full jitter whose draw is keyed by the op's attempt that just failed: `<op stream>/attempt-<n>` draws once, so
 * the wait after attempt n is the same for a seed however many draws the op made before it (and whenever it ran).
 */
function seededFullJitter(random: RandomStream, failedAttempt: () => number): GeneratorFn<number> {
  return (attempt = 0, options) => {
    const ceiling = Math.min(options.maxDelay, options.initialDelay * options.exponent ** attempt);
    return [Math.floor(random.keyed(`attempt-${failedAttempt()}`).float('backoff') * ceiling), attempt + 1];
  };
}

/** The advised delay a failure carries, if any. */
export type AdvisedDelay = (error: unknown) => number | undefined;

/** Backoff that never waits less than the failure's Retry-After. */
class RetryAfterBackoff implements IBackoffFactory<IRetryBackoffContext<unknown>> {
  constructor(
    private readonly inner: IBackoffFactory<unknown>,
    private readonly advised: AdvisedDelay,
  ) {}

  next(context: IRetryBackoffContext<unknown>): IBackoff<IRetryBackoffContext<unknown>> {
    const step = this.inner.next(context);
    const floor = 'error' in context.result ? (this.advised(context.result.error) ?? 0) : 0;
    return { duration: Math.max(step.duration, floor), next: (c) => new RetryAfterBackoff(step, this.advised).next(c) };
  }
}

export function resilientBackoff(
  random: RandomStream,
  failedAttempt: () => number,
  initialMs: number,
  maxMs: number,
  advised: AdvisedDelay,
) {
  return new RetryAfterBackoff(
    new ExponentialBackoff({
      generator: seededFullJitter(random, failedAttempt),
      initialDelay: initialMs,
      maxDelay: maxMs,
      exponent: 2,
    }),
    advised,
  );
}
