// Deadline: the op's calls end by `deadlineMs` after it began. No try starts after the deadline, nor after a
// retry wait that would end past it; a try's calls get what the deadline leaves.
import { epochMs } from '../../core/clock.ts';
import { DeadlineReached } from '../failure.ts';
import type { OpRun, Unit } from './unit.ts';

export function deadline(op: OpRun): Unit {
  const deadlineAtMs = epochMs() + op.ctx.client.deadlineMs;
  return (next) => async (context) => {
    const remaining = deadlineAtMs - epochMs();
    if (remaining <= 0 || op.tally.nextTryAtMs > deadlineAtMs) throw new DeadlineReached();
    return next({ ...context, timeoutMs: Math.min(context.timeoutMs ?? Number.POSITIVE_INFINITY, remaining) });
  };
}
