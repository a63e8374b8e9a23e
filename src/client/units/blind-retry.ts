// Blind retry (the naive control): every failure is tried again after a short fixed pause, up to `maxAttempts`
// tries, whatever the classification or Retry-After say. It announces no wait, so the deadline only refuses a
// try that starts after it.
import { ConstantBackoff, handleWhen, retry } from 'cockatiel';
import { AttemptFailed } from '../failure.ts';
import { type OpRun, policyUnit, type Unit } from './unit.ts';

const PAUSE_MS = 20;

export function blindRetry(op: OpRun): Unit {
  const everything = (error: unknown) => {
    if (error instanceof AttemptFailed) error.decide(true);
    return true;
  };
  return policyUnit(
    retry(handleWhen(everything), {
      maxAttempts: op.ctx.client.maxAttempts - 1,
      backoff: new ConstantBackoff(PAUSE_MS),
    }),
  );
}
