// No retries: one attempt per op with a stable key. Shows what the bare SDK gives.
import { callOnce } from '../attempt.ts';
import { opOutcome } from '../outcome.ts';
import type { ClientPolicy, LogicalCall, OpResult, PolicyContext } from '../policy.ts';

export const nonePolicy: ClientPolicy = {
  name: 'none',
  async execute(call: LogicalCall, ctx: PolicyContext): Promise<OpResult> {
    const key = call.idempotencyArg ? `idem-${call.opId}` : undefined;
    const args = key ? { ...call.args, [call.idempotencyArg!]: key } : call.args;
    const outcome = await callOnce(
      ctx,
      call.opId,
      1,
      call.tool,
      args,
      Math.min(ctx.timeouts.attemptTimeoutMs, ctx.timeouts.deadlineMs),
    );
    const c = outcome.classified;
    outcome.record.next = c.ok ? 'done' : 'give-up';
    return {
      outcome: opOutcome(c.ok, call.sideEffecting, c.uncertain),
      attempts: 1,
      failedAttempts: c.ok ? 0 : 1,
      lookups: 0,
      category: c.category,
      errorCode: c.errorCode,
      visible: outcome.visible,
      keys: key ? [key] : [],
    };
  },
};
