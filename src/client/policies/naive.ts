// The negative control: retries every failure after a short fixed pause, ignores Retry-After, and sends a fresh
// idempotency key on every attempt (as a client with no notion of keys effectively does). The ledger must
// catch the duplicates this causes.
import { ConstantBackoff, handleAll, retry } from 'cockatiel';
import { epochMs } from '../../core/clock.ts';
import { callOnce } from '../attempt.ts';
import type { Classified } from '../classify.ts';
import { opOutcome } from '../outcome.ts';
import type { ClientPolicy, LogicalCall, OpResult, PolicyContext } from '../policy.ts';
import { AttemptFailed, DeadlineReached } from './failure.ts';

const NAIVE_PAUSE_MS = 20;

export const naivePolicy: ClientPolicy = {
  name: 'naive',
  async execute(call: LogicalCall, ctx: PolicyContext): Promise<OpResult> {
    const deadline = epochMs() + ctx.timeouts.deadlineMs;
    const keys: string[] = [];
    let attempts = 0;
    let failedAttempts = 0;
    let uncertain = false;
    let last: Classified | undefined;
    let visible = '';

    const run = async (): Promise<Classified> => {
      const remaining = deadline - epochMs();
      if (remaining <= 0) throw new DeadlineReached();
      attempts++;
      const key = `naive-${call.opId}-${attempts}`;
      const args = call.idempotencyArg ? { ...call.args, [call.idempotencyArg]: key } : call.args;
      if (call.idempotencyArg) keys.push(key);
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
      outcome.record.next = last.ok ? 'done' : 'retry';
      if (last.ok) return last;
      failedAttempts++;
      if (last.uncertain) uncertain = true;
      throw new AttemptFailed(last, outcome.generation);
    };

    let ok = false;
    try {
      ok = (
        await retry(handleAll, {
          maxAttempts: ctx.maxAttempts - 1,
          backoff: new ConstantBackoff(NAIVE_PAUSE_MS),
        }).execute(run)
      ).ok;
    } catch (error) {
      if (!(error instanceof AttemptFailed || error instanceof DeadlineReached)) throw error;
    }
    return {
      outcome: opOutcome(ok, call.sideEffecting, uncertain),
      attempts,
      failedAttempts,
      lookups: 0,
      category: ok ? undefined : last?.category,
      errorCode: ok ? undefined : last?.errorCode,
      visible,
      keys,
    };
  },
};
