// The resilient policy, as the seeds advise: classify; retry only what is retryable, with seeded full-jitter
// backoff that honours Retry-After; a per-attempt timeout inside an overall deadline; one stable idempotency
// key per logical call; look the status up before re-executing an uncertain side effect; re-initialize when
// the session is lost and reconnect when the transport is. Optionally behind a circuit breaker shared by the
// run's ops (fails fast while open), and with a credential hook: an AUTH failure is retried exactly once, after
// a refresh, never blindly.
import { BrokenCircuitError, handleWhen, IsolatedCircuitError, retry } from 'cockatiel';
import { epochMs } from '../../core/clock.ts';
import { type FieldError, toolErrorOf } from '../../core/taxonomy.ts';
import { callOnce } from '../attempt.ts';
import { resilientBackoff } from '../backoff.ts';
import type { Classified } from '../classify.ts';
import { opOutcome } from '../outcome.ts';
import type { ClientPolicy, LogicalCall, OpResult, PolicyContext } from '../policy.ts';
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
    let lookupsFound = 0;
    let authRefreshes = 0;
    let circuitOpen = false;
    let lastStartMs = 0;
    let fieldErrors: FieldError[] | undefined;
    // One refresh per op; a second AUTH failure is the user's to fix (escalation).
    const refreshAllowed = (c: Classified) =>
      c.category === 'AUTH' && ctx.credentials !== undefined && authRefreshes === 0;

    const policy = retry(
      handleWhen((e) => e instanceof AttemptFailed && (e.classified.retryable || refreshAllowed(e.classified))),
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
      if (last && !last.ok && refreshAllowed(last)) {
        authRefreshes++;
        if (!(await ctx.credentials!.refresh(lastStartMs))) throw new AttemptFailed(last, lastGeneration);
      }
      if (last && uncertain && call.statusLookup && key) {
        lookups++;
        const status = await lookupStatus(ctx, call, key, Math.min(ctx.timeouts.attemptTimeoutMs, remaining));
        if (status === 'found') {
          lookupsFound++;
          return { ok: true, retryable: false, uncertain: false, sessionLost: false, transportLost: false };
        }
        if (status === 'absent') uncertain = false; // the key never took effect: re-executing is safe.
      }
      attempts++;
      lastStartMs = epochMs();
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
      fieldErrors = outcome.result ? toolErrorOf(outcome.result)?.fieldErrors : undefined;
      lastGeneration = outcome.generation;
      if (last.ok) {
        outcome.record.next = 'done';
        return last;
      }
      failedAttempts++;
      // Our own timeout cancelled the call (notifications/cancelled): a tool that honours it took no effect.
      const cancelled = !outcome.result && last.errorCode === 'DEPENDENCY.TIMEOUT' && call.honoursCancel === true;
      if (last.uncertain && !cancelled) uncertain = true;
      outcome.record.next = refreshAllowed(last)
        ? 'retry'
        : !last.retryable
          ? 'give-up'
          : last.sessionLost
            ? 'reinit'
            : last.uncertain && call.statusLookup
              ? 'lookup'
              : 'retry';
      throw new AttemptFailed(last, outcome.generation);
    };

    const guarded = ctx.breaker ? () => ctx.breaker!.execute(run) : run;
    let ok = false;
    try {
      ok = (await policy.execute(guarded)).ok;
    } catch (error) {
      if (error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError) circuitOpen = true;
      else if (!(error instanceof AttemptFailed || error instanceof DeadlineReached)) throw error;
    }
    return {
      outcome: opOutcome(ok, call.sideEffecting, uncertain),
      attempts,
      failedAttempts,
      lookups,
      category: ok ? undefined : circuitOpen ? 'DEPENDENCY' : last?.category,
      errorCode: ok ? undefined : circuitOpen ? 'DEPENDENCY.CIRCUIT_OPEN' : last?.errorCode,
      visible,
      keys: key ? [key] : [],
      lookupsFound,
      authRefreshes,
      circuitOpen,
      ...(!ok && fieldErrors && { fieldErrors }),
    };
  },
};
