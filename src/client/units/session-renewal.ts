// Session renewal: when an attempt lost its session (404: re-initialize) or its transport (reconnect), the next
// try first replaces that session. Renewal is single-flight in the session, so a burst of ops that saw the same
// session die opens one new one.
import { AttemptFailed } from '../failure.ts';
import type { OpRun, Unit } from './unit.ts';

export function sessionRenewal(op: OpRun): Unit {
  /** The generation of the session the last failed attempt lost. */
  let lost: number | undefined;
  return (next) => async (context) => {
    if (lost !== undefined) await op.ctx.session.renew(lost);
    try {
      return await next(context);
    } catch (error) {
      if (error instanceof AttemptFailed) {
        const { sessionLost, transportLost } = error.classified;
        lost = sessionLost || transportLost ? error.attempt.generation : undefined;
        if (sessionLost) error.recovery = 'reinit';
      }
      throw error;
    }
  };
}
