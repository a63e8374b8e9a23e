// The resilient policy, as the seeds advise: classify; retry only what is retryable, with seeded full-jitter
// backoff that honours Retry-After; a per-attempt timeout inside an overall deadline; one stable idempotency
// key per logical call; look the status up before re-executing an uncertain side effect; re-initialize when
// the session is lost and reconnect when the transport is.
import { handleWhen, retry } from 'cockatiel';
import { epochMs } from '../../core/clock.ts';
import { callOnce } from '../attempt.ts';
import { resilientBackoff } from '../backoff.ts';
import type { ClientPolicy, LogicalCall, OpResult, PolicyContext } from '../call.ts';
import type { Classified } from '../classify.ts';
import { opOutcome } from '../outcome.ts';
import { lookupStatus } from '../status-lookup.ts';
import { AttemptFailed, DeadlineReached } from './failure.ts';

export const resilientPolicy: ClientPolicy = {
  name: 'resilient',
  async execute(call: LogicalCall, ctx: PolicyContext): Promise<OpResult> {
    const deadline = epochMs() + ctx.timeouts.deadlineMs;
    const key = call.idempotencyArg ? `idem-${call.opId}` : undefined;
    const args = key ? { ...call.args, [call.idempotencyArg!]: key } : call.args;
    let attempts = 0;
    let failedAttempts = 0;
    let lookups = 0;
    let uncertain = false;
    let last: Classified | undefined;
    let lastGeneration = -1;
    let visible = '';
    let notBefore = 0;

    const policy = retry(
      handleWhen((e) => e instanceof AttemptFailed && e.classified.retryable),
      {
        maxAttempts: ctx.maxAttempts - 1,
        backoff: resilientBackoff(ctx.random, ctx.backoff.initialMs, ctx.backoff.maxMs, (e) =>
          e instanceof AttemptFailed ? e.classified.retryAfterMs : undefined,
        ),
      },
    );
    policy.onRetry(({ delay }) => {
      notBefore = epochMs() + delay;
    });

    const run = async (): Promise<Classified> => {
      const remaining = deadline - epochMs();
      if (remaining <= 0 || notBefore > deadline) throw new DeadlineReached();
      if (last?.sessionLost || last?.transportLost) await ctx.session.renew(lastGeneration);
      if (last && uncertain && call.statusLookup && key) {
        lookups++;
        const status = await lookupStatus(ctx, call, key, Math.min(ctx.timeouts.attemptTimeoutMs, remaining));
        if (status === 'found')
          return { ok: true, retryable: false, uncertain: false, sessionLost: false, transportLost: false };
        if (status === 'absent') uncertain = false; // the key never took effect: re-executing is safe.
      }
      attempts++;
      const outcome = await callOnce(
        ctx,
        call.opId,
        attempts,
        call.tool,
        args,
        Math.min(ctx.timeouts.attemptTimeoutMs, remaining),
      );
      visible = outcome.visible;
      last = outcome.classified;
      lastGeneration = outcome.generation;
      if (last.ok) {
        outcome.record.next = 'done';
        return last;
      }
      failedAttempts++;
      if (last.uncertain) uncertain = true;
      outcome.record.next = !last.retryable
        ? 'give-up'
        : last.sessionLost
          ? 'reinit'
          : last.uncertain && call.statusLookup
            ? 'lookup'
            : 'retry';
      throw new AttemptFailed(last, outcome.generation);
    };

    let ok = false;
    try {
      ok = (await policy.execute(run)).ok;
    } catch (error) {
      if (!(error instanceof AttemptFailed || error instanceof DeadlineReached)) throw error;
    }
    return {
      outcome: opOutcome(ok, call.sideEffecting, uncertain),
      attempts,
      failedAttempts,
      lookups,
      category: ok ? undefined : last?.category,
      errorCode: ok ? undefined : last?.errorCode,
      visible,
      keys: key ? [key] : [],
    };
  },
};
