// Attempt timeout: each of a try's calls may take `attemptTimeoutMs` at most (of what the deadline leaves). The
// SDK enforces it on the wire: on expiry it sends notifications/cancelled and the attempt fails as
// LINK.TIMEOUT, uncertain (the tool may still run).
import type { OpRun, Unit } from './unit.ts';

export function attemptTimeout(op: OpRun): Unit {
  const limit = op.ctx.client.attemptTimeoutMs;
  return (next) => (context) =>
    next({ ...context, timeoutMs: Math.min(context.timeoutMs ?? Number.POSITIVE_INFINITY, limit) });
}
