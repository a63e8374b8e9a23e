// The negative control: retries every failure after a short fixed pause, ignores Retry-After, and sends a fresh
// idempotency key on every attempt (as a client with no notion of keys effectively does). The ledger must
// catch the duplicates this causes.
import { type ClientPolicy, wireId } from '../policy.ts';
import { attemptTimeout } from '../units/attempt-timeout.ts';
import { blindRetry } from '../units/blind-retry.ts';
import { deadline } from '../units/deadline.ts';
import { composedOps } from './compose.ts';

export const naivePolicy: ClientPolicy = {
  name: 'naive',
  forRun: (run) =>
    composedOps(run, (op) => ({
      units: [blindRetry(op), deadline(op), attemptTimeout(op)],
      attempt: { keyFor: (n) => `naive-${wireId(op.call)}-${n}` },
    })),
};
