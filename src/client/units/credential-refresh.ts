// Credential refresh: an AUTH failure is retried exactly once, after the credential hook renewed the server's
// credentials; never blindly, and a second AUTH failure is the user's to fix (escalation).
import { AttemptFailed } from '../failure.ts';
import type { CredentialHook } from '../policy.ts';
import type { OpRun, Unit } from './unit.ts';

export function credentialRefresh(op: OpRun, credentials: CredentialHook): Unit {
  /** The AUTH failure to put right before the next try. */
  let expired: AttemptFailed | undefined;
  let refreshed = false;
  return (next) => async (context) => {
    if (expired) {
      const failure = expired;
      expired = undefined;
      refreshed = true;
      op.tally.record({ type: 'credential-refresh' });
      // No fresh credentials: the op fails as the attempt did, with no second refresh to retry for.
      if (!(await credentials.refresh(failure.attempt.record.startMs))) throw new AttemptFailed(failure.attempt);
    }
    try {
      return await next(context);
    } catch (error) {
      if (error instanceof AttemptFailed && error.classified.category === 'AUTH' && !refreshed) {
        error.retryable = true;
        error.recovery = undefined;
        expired = error;
      }
      throw error;
    }
  };
}
