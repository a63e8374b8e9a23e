// Classified retry: only what the classification (or a unit that can put the cause right) calls retryable is
// tried again, up to `maxAttempts` tries, after a seeded full-jitter backoff (drawn per op and attempt) that never
// waits less than the failure's Retry-After. The wait is announced to the tally, so the deadline can refuse a try it cannot fit.
import { handleWhen, retry } from 'cockatiel';
import { resilientBackoff } from '../backoff.ts';
import { AttemptFailed } from '../failure.ts';
import { type OpRun, policyUnit, type Unit } from './unit.ts';

export function classifiedRetry(op: OpRun): Unit {
  const { client, random } = op.ctx;
  const retries = (error: unknown) => {
    if (!(error instanceof AttemptFailed)) return false;
    error.decide(error.retryable);
    return error.retryable;
  };
  const policy = retry(handleWhen(retries), {
    maxAttempts: client.maxAttempts - 1,
    backoff: resilientBackoff(
      random,
      // The op's number of the attempt that failed: the jitter draw's key.
      () => op.attemptsBefore + op.tally.attemptsMade,
      client.backoff.initialMs,
      client.backoff.maxMs,
      (error) => (error instanceof AttemptFailed ? error.classified.retryAfterMs : undefined),
    ),
  });
  policy.onRetry(({ delay }) => op.tally.record({ type: 'retry', delayMs: delay }));
  return policyUnit(policy);
}
